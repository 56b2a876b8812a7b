#!/usr/bin/env bash
# Regenerates NN.txt: RADIANCE 6.0a's vwrays output for each line of cases.txt (run here, so
# that -vf finds office.vf). Needs scripts/setup-reference.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/../../../../../scripts/setup-reference.sh")"
cd "$here"
n=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  # shellcheck disable=SC2086
  "$RADIANCE_BIN/vwrays" $line > "$(printf '%02d.txt' "$n")"
  n=$((n + 1))
done < cases.txt
echo "wrote $n goldens"
