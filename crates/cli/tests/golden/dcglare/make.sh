#!/usr/bin/env bash
# Regenerates the dcglare goldens in this folder. pyradiance's RADIANCE 6.0a
# (scripts/setup-reference.sh) makes the daylight coefficients and skies, but its bin has no
# dcglare: scripts/build-radiance-extras.sh builds it from RADIANCE's public source (RADIANCE_SRC, else
# a shallow clone of github.com/LBNL-ETA/Radiance). Tests read only the files made here.
#
# Inputs (made here, small): a 4 × 5 × 3 m room open to the south above 1 m (room.rad, and
# room_black.rad with every reflectance 0), six views (views.txt: position and direction,
# as rcontrib reads them), the sky receivers of honeybee-radiance's sky.dome (sky.dome,
# Reinhart MF:1) and an MF:2 one (sky2.dome), six hours of 21 June (../../../../matrix/
# tests/golden/sky.wea).
# Made with RADIANCE: dc_total.mtx (rfluxmtx -I -ab 2), dc_direct.mtx (-ab 1 in the black
# room, as honeybee's direct run), sky.mtx (gendaymtx -O0 -u), and the MF:2 versions
# (*_mf2.mtx), a Daysim-style occupancy schedule (schedule.csv). Outputs: out_*.dgp
# (commands at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash "$root/scripts/build-radiance-extras.sh" "$work"
dcglare=$work/dcglare
cd "$here"

cat > room.rad <<'RAD'
void plastic wall 0 0 5 .5 .45 .4 0 0
void plastic floor_mat 0 0 5 .2 .2 .2 0 0
floor_mat polygon floor 0 0 12 0 0 0  4 0 0  4 5 0  0 5 0
wall polygon back 0 0 12 0 5 0  4 5 0  4 5 3  0 5 3
wall polygon left 0 0 12 0 0 0  0 5 0  0 5 3  0 0 3
wall polygon right 0 0 12 4 0 0  4 0 3  4 5 3  4 5 0
wall polygon ceiling 0 0 12 0 0 3  0 5 3  4 5 3  4 0 3
wall polygon sill 0 0 12 0 0 0  0 0 1  4 0 1  4 0 0
RAD
sed -e 's/5 \.5 \.45 \.4 0 0/5 0 0 0 0 0/' -e 's/5 \.2 \.2 \.2 0 0/5 0 0 0 0 0/' room.rad > room_black.rad
cat > views.txt <<'PTS'
2 2.5 1.2 0 -1 0
2 4.5 1.2 0 -1 0
1 1 1.2 0.6 -0.8 0
3 3 1.6 -0.7071 -0.7071 0
2 2 1.2 1 0 0
2 1 1.2 0 -1 0.3
PTS
for mf in 1 2; do
    name=sky.dome; [ "$mf" = 2 ] && name=sky2.dome
    cat > "$name" <<DOME
#@rfluxmtx h=u u=Y
void glow ground_glow 0 0 4 1 1 1 0
ground_glow source ground 0 0 4 0 0 -1 180
#@rfluxmtx h=r$mf u=Y
void glow sky_glow 0 0 4 1 1 1 0
sky_glow source sky 0 0 4 0 0 1 180
DOME
done
oconv -f room.rad > "$work/room.oct"
oconv -f room_black.rad > "$work/black.oct"
wea=$root/crates/matrix/tests/golden/sky.wea
for mf in 1 2; do
    sfx=; dome=sky.dome
    [ "$mf" = 2 ] && sfx=_mf2 && dome=sky2.dome
    gendaymtx -O0 -r 0 -u -m $mf "$wea" > sky$sfx.mtx
    rfluxmtx -I -ab 2 -ad 2048 -lw 1e-4 -faa -y 6 - $dome -i "$work/room.oct" < views.txt > dc_total$sfx.mtx
    rfluxmtx -I -ab 1 -ad 2048 -lw 1e-4 -faa -y 6 - $dome -i "$work/black.oct" < views.txt > dc_direct$sfx.mtx
done
"$dcglare" -vf views.txt dc_direct.mtx dc_total.mtx sky.mtx > out_hourly.dgp
"$dcglare" -b 500 -vu 0 0 1 -vf views.txt dc_direct.mtx dc_total.mtx < sky.mtx > out_b500.dgp
"$dcglare" -b 5 -vd 0 -1 0 dc_direct.mtx dc_total.mtx sky.mtx > out_factor.dgp
# Glare autonomy: the sky holds the 4 daylit hours only (-u), so -ss/-se count steps.
"$dcglare" -l 0.4 -ss 1 -se 4 -vf views.txt dc_direct.mtx dc_total.mtx sky.mtx > out_autonomy.dgp
printf '# occupancy, Daysim style\n6,21,8.5,1\n6,21,11.5,0\n6,21,14.5,1\n6,21,17.5,1\n' > schedule.csv
"$dcglare" -l 0.45 -sf schedule.csv -vf views.txt dc_direct.mtx dc_total.mtx sky.mtx > out_schedule.dgp
"$dcglare" -vf views.txt dc_direct_mf2.mtx dc_total_mf2.mtx sky_mf2.mtx > out_mf2.dgp
ls -l "$here"
