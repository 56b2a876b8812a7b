#!/usr/bin/env bash
# Regenerates the xform/genbox goldens with RADIANCE 6.0a: each line of cases.txt (and of
# cases_geometry.txt) is run by RADIANCE's own programs and its output kept as xform/NN.rad
# (genbox/NN.rad). Needs the reference install
# (scripts/setup-reference.sh); the tests read only the stored outputs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/../../../../scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
cd "$here"
n=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  out=$(printf 'xform/%02d.rad' "$n")
  { echo "# case: $line"; sh -c "$line"; } > "$out"
  n=$((n+1))
done < cases.txt
# Rounded and bevelled boxes: compared by geometry, not by name.
m=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  out=$(printf 'genbox/%02d.rad' "$m")
  { echo "# case: $line"; sh -c "$line"; } > "$out"
  m=$((m+1))
done < cases_geometry.txt
echo "wrote $n xform goldens and $m genbox goldens"
