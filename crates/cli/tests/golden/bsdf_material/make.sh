#!/usr/bin/env bash
# Regenerates out.txt for tests/bsdf_material.rs: RADIANCE 6.0a's rtrace -I at the sensors of
# sensors.pts in a room lit by a sunny sky through a window of each BSDF material of
# win_*.rad (the XML files are crates/bsdf/tests/data's, unpacked). Each line of cases.txt is
# "WINDOW OPTIONS"; its line of out.txt holds the illuminance (179 x photopic irradiance,
# lux) at each sensor. Converged settings: -aa 0 -ad 1048576 -as 0 -lw 1e-7, the case's options
# after them (none at present).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for x in pyradiance-blinds pyradiance-blindsT3 frads-ec60; do
    gunzip -c "$root/crates/bsdf/tests/data/$x.xml.gz" > "$work/$x.xml"
done
export RAYPATH=".:$work:$RAYPATH"
cd "$here"
: > out.txt
while read -r win opts; do
    oconv sky.rad room.rad "win_$win.rad" > "$work/$win.oct"
    # shellcheck disable=SC2086
    rtrace -h -I -aa 0 -ad 1048576 -as 0 -lw 1e-7 $opts "$work/$win.oct" < sensors.pts |
        awk '{printf "%s%.6g", (NR > 1 ? " " : ""), 179 * (.265 * $1 + .67 * $2 + .065 * $3)} END {print ""}' >> out.txt
done < cases.txt
