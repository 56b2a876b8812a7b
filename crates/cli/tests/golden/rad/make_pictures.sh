#!/usr/bin/env bash
# The picture mean tests/rad.rs compares daylit's rad run with: RADIANCE 6.0a's rad on the
# wgmdf test scene (inputs/), same arguments, mean of the picture's values over all pixels
# and channels, into wgmdf_def.mean.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/inputs/." "$work/"
cd "$work"
rad -v def wgmdf.rif RES=48 "render=-aa 0 -ab 1 -ad 256 -as 0" > /dev/null
pvalue -h -H -d wgmdf_def.hdr | awk '{ s += ($1 + $2 + $3) / 3; n++ } END { printf "%.6g\n", s / n }' \
    > "$here/wgmdf_def.mean"
cat "$here/wgmdf_def.mean"
