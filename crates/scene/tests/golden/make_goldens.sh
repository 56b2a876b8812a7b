#!/usr/bin/env bash
# Regenerates the xform/genbox/genblinds/genrev/gensurf/genworm goldens with RADIANCE 6.0a: each line of cases.txt (and of
# cases_geometry.txt) is run by RADIANCE's own programs and its output kept as xform/NN.rad
# (genbox/NN.rad). Needs the reference install
# (scripts/setup-reference.sh); the tests read only the stored outputs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/../../../../scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
cd "$here"
# run_cases LIST DIR: each line of LIST, run by RADIANCE, kept as DIR/NN.rad.
run_cases() {
  local n=0 line out
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    out=$(printf '%s/%02d.rad' "$2" "$n")
    { echo "# case: $line"; sh -c "$line"; } > "$out"
    n=$((n+1))
  done < "$1"
  echo "wrote $n goldens in $2"
}
run_cases cases.txt xform
# Rounded and bevelled boxes: compared by geometry, not by name.
run_cases cases_geometry.txt genbox
