#!/usr/bin/env bash
# End-to-end test of daylit's Python package: builds and installs the wheel into .venv-py
# (scripts/python-wheel.sh), builds the daylit binary of the same checkout, and runs pytest on
# e2e/python/ (each API against the CLI's outputs on the bundled examples, located errors,
# and examples/python/annual_map.py drawing its map).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bash scripts/python-wheel.sh > /dev/null
target=${CARGO_TARGET_DIR:-$root/target}
profile=${DAYLIT_PROFILE:-debug}
if [ "$profile" = release ]; then cargo build --release -p daylit; else cargo build -p daylit; fi
export DAYLIT_BIN=$target/$profile/daylit
# From outside the source tree, so `import daylit` is the installed wheel.
cd "$root/e2e/python"
"$root/.venv-py/bin/python" -m pytest -q -p no:cacheprovider "$@" .
