#!/usr/bin/env bash
# Time against error without a cache (issue 20, item 3): daylit and RADIANCE 6.0a side by side on
# the validation rooms, rtrace and rcontrib at -aa 0. See bench/estimator_curves.py.
#   Usage: bench/estimator_curves.sh [ROOM...]   (env REPS, PROGRAMS, DAYLIT_FLAGS)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
exec python3 "$here/bench/estimator_curves.py" "$@"
