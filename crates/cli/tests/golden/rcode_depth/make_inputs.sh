#!/usr/bin/env bash
# Makes the inputs of the rcode_depth, rcode_norm and rcode_ident goldens with RADIANCE 6.0a
# (pyradiance's, scripts/setup-reference.sh): a ground, a box and a ball seen by a 5x4 view
# whose top rays miss everything, traced by rtrace from vwrays (distances -oL, normals -oN,
# modifiers -om), with headers and resolution lines as rtrace writes them, in ascii, float and
# double; and malformed maps.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RADIANCE_SRC=${RADIANCE_SRC:-} bash "$root/scripts/build-radiance-extras.sh" "$work/bin"
export PATH="$work/bin:$PATH"
cd "$work"
cat > scene.rad <<'RAD'
void plastic grey 0 0 5 .5 .5 .5 0 0
void plastic red 0 0 5 .7 .1 .1 0 0
void plastic blue_ball 0 0 5 .1 .1 .7 0 0
grey polygon ground 0 0 12 -10 -10 0 10 -10 0 10 10 0 -10 10 0
!genbox red box 1 1 1 | xform -t .5 2 0
blue_ball sphere ball 0 0 4 -1 3 .6 .6
RAD
oconv scene.rad > scene.oct
view="-vtv -vp 0 -2 1.2 -vd 0 1 -.25 -vu 0 0 1 -vh 70 -vv 55"
echo "VIEW= $view" > view.vf
x=5 y=4
vwrays -ff -x $x -y $y $view > rays.flt
# rtrace writes no view: it goes into the header as a VIEW= line after the first.
addview() { sed "2i VIEW= $view"; }
rtrace -ffa -x $x -y $y -oL scene.oct < rays.flt | addview > depth.txt
rtrace -fff -x $x -y $y -oL scene.oct < rays.flt | addview > depth.flt
rtrace -ffd -x $x -y $y -oL scene.oct < rays.flt | addview > depth.dbl
rtrace -h -ffa -oL scene.oct < rays.flt > depth_bare.txt
rtrace -ffa -x $x -y $y -oN scene.oct < rays.flt | addview > norm.txt
rtrace -fff -x $x -y $y -oN scene.oct < rays.flt > norm.flt
rtrace -ffd -x $x -y $y -oN scene.oct < rays.flt > norm.dbl
rtrace -h -ffa -oN scene.oct < rays.flt > norm_bare.txt
rtrace -ffa -x $x -y $y -om scene.oct < rays.flt > mods.txt
rtrace -h -ffa -om scene.oct < rays.flt > mods_bare.txt
rtrace -ffa -x $x -y $y -oo scene.oct < rays.flt > objs.txt
head -c 100 depth.txt > depth_short.txt
printf '1 2 3\n4\n' > pixels.txt
printf '0 0\n4 3\n2 1\n9 9\n-1 0\n3 2\n' > pixels_off.txt
printf '0 0\n1 x\n' > pixels_bad.txt
for d in rcode_depth rcode_norm rcode_ident; do
    cp pixels*.txt view.vf "$here/../$d/"
done
cp depth.txt depth.flt depth.dbl depth_bare.txt depth_short.txt "$here/"
cp norm.txt norm.flt norm.dbl norm_bare.txt "$here/../rcode_norm/"
cp mods.txt mods_bare.txt objs.txt "$here/../rcode_ident/"
printf 'a,b , c,\n  a,,b,c,' > "$here/../rcode_ident/commas.txt"
# Maps encoded by RADIANCE's rcode programs, for the decoding cases.
cd "$here"
rcode_depth -d 2/meter depth.txt depth.dpt
rcode_depth -hi -x 5 -y 4 depth_bare.txt depth_noview.dpt 2> /dev/null
rcode_depth -Ho -d 2 depth.txt depth_nores.dpt
cd ../rcode_norm
rcode_norm norm.txt norm.nrm
rcode_norm -Ho norm.txt norm_nores.nrm
cd ../rcode_ident
rcode_ident mods.txt mods.idx
rcode_ident -8 mods.txt mods8.idx
rcode_ident -24 -h -x 5 -y 4 mods_bare.txt mods24.idx
rcode_ident objs.txt objs.idx
# The same depths seen through other view types (the VIEW= line replaced): fisheyes whose
# corner pixels have no ray, cylindrical, with view offsets.
cd "$here"
for v in "vta:-vta -vh 200 -vv 200" "vth:-vth -vh 180 -vv 180" "vtc:-vtc -vh 120 -vo .5" \
        "vtl:-vtl -vh 3 -vv 2 -vs .1 -vl -.2"; do
    sed "2s/.*/VIEW= -vtv -vp 0 -2 1.2 -vd 0 1 -.25 -vu 0 0 1 -vh 70 -vv 55 ${v#*:}/" depth.dpt \
        > "depth_${v%%:*}.dpt"
done
# Depths decoded from a map, REFDEPTH= in their header (it wins over -d when encoding again).
rcode_depth -r depth.dpt depth_ref.txt
