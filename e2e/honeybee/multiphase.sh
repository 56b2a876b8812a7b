#!/usr/bin/env bash
# honeybee-radiance's multi-phase (three-phase) commands, RADIANCE 6.0a against daylit: a room
# with one south window in a dynamic aperture group of two Klems BSDF states (clear glass,
# venetian blinds) and 8 sensors (make_multiphase_model.py) goes through the command chain of
# honeybee's three-phase recipe (run_multiphase.py: prepare-multiphase, dmtx-group,
# flux-transfer, view-matrix, three-phase combinations, three-phase rmtxop) once with RADIANCE
# first on PATH and once with daylit's links first; compare_multiphase.py prints every step's
# exit status, the matrices' differences and the per-sensor annual mean illuminance of each
# state, and exits non-zero if a step failed with daylit. Not part of CI.
#   MULTIPHASE_EXPAND_XFORM=1  write the '!xform FILE' lines of honeybee's sender and receiver
#                              files out as FILE's text first (daylit's rfluxmtx expands them
#                              itself since 2026-11-28; kept to compare the two ways)
#   MULTIPHASE_VMTX, MULTIPHASE_DMTX   rfluxmtx settings of V and D (run_multiphase.py)
#   DAYLIT=PATH                the daylit binary (default: cargo build, target/debug/daylit)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
venv=$("$root/scripts/e2e-honeybee.sh" --venv-only)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
if [ -z "${DAYLIT:-}" ]; then
    cargo build -p daylit
    DAYLIT=$root/target/debug/daylit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy, so that a rebuild during the run cannot change the program under test.
cp "$DAYLIT" "$work/daylit"
mkdir -p "$work/daylit-radiance/bin" "$work/daylit-radiance/lib"
"$work/daylit" install-links "$work/daylit-radiance/bin" > /dev/null
gunzip -c crates/bsdf/tests/data/pyradiance-clear.xml.gz > "$work/clear.xml"
# The first line of this file is genBSDF's note, not XML; honeybee copies the file as is.
gunzip -c crates/bsdf/tests/data/pyradiance-blinds.xml.gz | sed 1d > "$work/blinds.xml"
"$venv/bin/python" e2e/honeybee/make_multiphase_model.py "$work/model" "$work/clear.xml" "$work/blinds.xml"
hbjson=$work/model/model.hbjson
wea=$root/validation/annual/goldens/gso.wea
echo "== RADIANCE" >&2
"$venv/bin/python" e2e/honeybee/run_multiphase.py "$RADIANCE_BIN" "$work/run-radiance" "$hbjson" "$wea" "$work/radiance.json"
echo "== daylit" >&2
"$venv/bin/python" e2e/honeybee/run_multiphase.py "$work/daylit-radiance/bin" "$work/run-daylit" "$hbjson" "$wea" "$work/daylit.json"
"$venv/bin/python" e2e/honeybee/compare_multiphase.py "$work/run-radiance" "$work/radiance.json" "$work/run-daylit" "$work/daylit.json"
