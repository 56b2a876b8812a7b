#!/usr/bin/env bash
# RADIANCE's test suite through rad, RADIANCE's and daylit's, side by side (bench/rad_suite.py).
# Usage: bench/rad_suite.sh [RES] [NAMES]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
exec python3 "$here/bench/rad_suite.py" "$@"
