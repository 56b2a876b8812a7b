#!/usr/bin/env bash
# Regenerates the bin goldens in this directory: RADIANCE 6.0a's rcalc
# evaluates RADIANCE's own tregenza.cal, reinhart.cal, reinhartb.cal,
# disk2square.cal, klems_*.cal and cieskyscan.cal (found on RAYPATH) for many
# ray directions and settings; see make_bin_goldens.py for what is written.
# Usage: crates/cal/tests/golden/bins/make_bin_goldens.sh   (needs RADIANCE; see scripts/setup-reference.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${RADIANCE_BIN:-}" ]; then
  eval "$("$here/../../../../../scripts/setup-reference.sh")"
fi
export RAYPATH PATH="$RADIANCE_BIN:$PATH"
exec python3 "$here/make_bin_goldens.py"
