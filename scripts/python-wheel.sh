#!/usr/bin/env bash
# Builds daylit's Python wheel (crates/python, maturin + PyO3, one abi3 wheel for CPython
# >= 3.8) and installs it into the virtual environment .venv-py, created here with pinned
# maturin, numpy, pytest, matplotlib and dask.distributed. The wheel lands in $CARGO_TARGET_DIR/wheels (target/wheels
# by default), outside the tracked sources. Cargo profile `wheel` (Cargo.toml): release code
# without fat LTO. Prints the wheel's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv=$root/.venv-py
# dask[distributed]: daylit.distributed runs annual studies as Dask tasks.
pins=(maturin==1.9.6 numpy==2.2.6 pytest==8.4.2 matplotlib==3.10.7 "dask[distributed]==2026.8.0")
if ! "$venv/bin/python" -c "import maturin, numpy, pytest, matplotlib, distributed" 2>/dev/null; then
    echo "python-wheel: creating $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --upgrade pip >&2
    "$venv/bin/pip" install --quiet "${pins[@]}" >&2
fi
target=${CARGO_TARGET_DIR:-$root/target}
out=$target/wheels
rm -f "$out"/daylit-*.whl
# --compatibility linux: the wheel is for this machine's Linux (no manylinux audit, no patchelf).
"$venv/bin/maturin" build --manifest-path crates/python/Cargo.toml --interpreter "$venv/bin/python" \
    --compatibility linux --out "$out" >&2
wheel=$(ls "$out"/daylit-*.whl)
"$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel" >&2
echo "$wheel"
