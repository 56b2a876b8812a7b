#!/bin/bash
# Regenerates the pcond goldens here with RADIANCE 6.0a (scripts/setup-reference.sh): the input
# pictures, rendered from room.rad and derived from the render, and RADIANCE pcond's output for
# each case of cases.txt (with -x, the mapping file too), plus the exit codes of error cases.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
bin=$root/.venv-ref/lib/python3.11/site-packages/pyradiance/bin
# pcond runs pfilt: RADIANCE's own, through PATH.
export PATH="$bin:$PATH"
export RAYPATH=.:$root/.venv-ref/lib/python3.11/site-packages/pyradiance/lib
cd "$here"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A room lit by a bright window and a bare lamp, seen wide (80 x 60 foveal samples, more
# than the picture's pixels are worth: every pixel is a point sample) and narrow (24 x 18:
# 6912 point samples drawn at random from 19040 pixels).
oconv room.rad > "$tmp/room.oct"
rpict -x 128 -y 96 -vtv -vp 2 .3 1.4 -vd 0 1 0 -vh 70 -vv 55 -ab 1 -ad 256 -as 0 -aa .2 \
	-ps 1 -pj 0 "$tmp/room.oct" > room.hdr
rpict -x 160 -y 120 -vtv -vp 2 .3 1.4 -vd -.3 1 .6 -vh 24 -vv 18 -ab 1 -ad 256 -as 0 -aa .2 \
	-ps 1 -pj 0 "$tmp/room.oct" > narrow.hdr
# The room by starlight (acuity loss and scotopic colour apply), in XYZ, and a dim narrow view
# rotated (scanlines along y).
pcomb -s 2e-8 room.hdr > dark.hdr
ra_xyze room.hdr xyz.hdr
pcomb -s 1e-6 narrow.hdr > "$tmp/n.hdr"
protate "$tmp/n.hdr" rotdark.hdr
# A picture without a view: pcond assumes 40 degrees across.
pcomb -x 96 -y 64 -e 'lo=if(x-80,if(y-50,5e4,.02),.02*(1+x/8)*(1+y/10))' > noview.hdr
grep -v '^#' cases.txt | while IFS=$'\t' read -r out input args; do
	# shellcheck disable=SC2086
	if [ "$input" = - ]; then pcond $args < /dev/null > "$out"; else pcond $args < "$input" > "$out"; fi
done
# Error cases: exit code, then the arguments.
: > errors.txt
for args in "bad.hdr" "missing.hdr" "-z room.hdr" "-hx room.hdr" "-u 0 room.hdr" \
	"-f dev.cal -p .6 .3 .3 .6 .15 .06 .33 .33 room.hdr" "-f dev.cal xyz.hdr" "room.hdr a b" \
	"-m dev.cwp -f dev.cal room.hdr" "-m one.cwp room.hdr" "-m missing.cwp room.hdr"; do
	printf '#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 4\n\001' > bad.hdr
	rc=0
	# shellcheck disable=SC2086
	pcond $args < /dev/null > /dev/null 2>&1 || rc=$?
	printf '%s\t%s\n' "$rc" "$args" >> errors.txt
	rm -f bad.hdr
done
