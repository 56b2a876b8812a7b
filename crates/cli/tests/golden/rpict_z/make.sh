#!/bin/sh
# Regenerates the goldens of crates/cli/tests/rpict_z.rs with RADIANCE 6.0a (pyradiance 1.3.1):
#   RADIANCE_BIN=.../pyradiance/bin sh make.sh
# rpict -z writes one 4-byte float per pixel (z.zbf); rtrace prints each ray's value, mirrored
# part and lengths (rays.txt from vwrays, out.txt).
set -e
cd "$(dirname "$0")"
PATH=$RADIANCE_BIN:$PATH
OPTS="-ab 0 -av .05 .05 .05 -dj 0 -ds 0 -dr 1"
oconv scene.rad > /tmp/rpict_z.oct
rpict -vf view.vf -x 64 -y 48 -pj 0 -ps 1 $OPTS -z z.zbf /tmp/rpict_z.oct > z.hdr
getinfo -d < z.hdr > z.res
vwrays -fa -vf view.vf -x 32 -y 24 > rays.txt
rtrace -h -fa $OPTS -ovrxRXlL /tmp/rpict_z.oct < rays.txt > out.txt
# -I: the record RADIANCE makes of an irradiance ray (a surface 1e-5 away).
head -3 rays.txt | rtrace -h -fa -I $OPTS -ovxXlL /tmp/rpict_z.oct > out_irr.txt
rm -f /tmp/rpict_z.oct z.hdr
# rad with ZFILE (z.rif): the commands it runs, and the z-file of the view (rpict at -ps 8).
work=$(mktemp -d)
cp scene.rad view.vf z.rif "$work"
(cd "$work" && rad -n z.rif > rad_n.txt && rad -s z.rif)
cp "$work/rad_n.txt" rad_n.txt
cp "$work/dist_def.zbf" rad_dist_def.zbf
getinfo -d < "$work/pic_def.hdr" > rad_pic.res
rm -rf "$work"
