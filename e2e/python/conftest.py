"""Fixtures of the Python package's end-to-end tests: the repository's examples and the
`daylit` binary of the same checkout (DAYLIT_BIN, set by scripts/e2e-python.sh), whose
outputs the bindings are compared with."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OFFICE = ROOT / "examples" / "office"
WEATHER = ROOT / "examples" / "weather" / "723170TYA.CSV"


def daylit_bin() -> str:
    env = os.environ.get("DAYLIT_BIN")
    if env:
        return env
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "debug" / "daylit")


@pytest.fixture(scope="session")
def cli():
    """Runs the daylit binary; returns its standard output as bytes."""
    exe = daylit_bin()
    if not Path(exe).exists():
        pytest.fail(f"no daylit binary at {exe}: build it (cargo build -p daylit) or set DAYLIT_BIN")

    def run(*args, cwd=None, stdin=None):
        p = subprocess.run(
            [exe, *map(str, args)],
            cwd=cwd,
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
        if p.returncode != 0:
            raise AssertionError(f"daylit {' '.join(map(str, args))} failed: {p.stderr.decode()}")
        return p.stdout

    return run
