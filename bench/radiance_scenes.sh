#!/usr/bin/env bash
# daylit against RADIANCE 6.0a on RADIANCE's own test scenes: rpict at defaults and -ab 1,
# rtrace -ab 2, time and error against converged references (bench/radiance_scenes.py).
# Usage: bench/radiance_scenes.sh [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
exec python3 "$here/bench/radiance_scenes.py" "$@"
