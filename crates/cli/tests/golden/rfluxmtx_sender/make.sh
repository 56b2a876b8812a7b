#!/usr/bin/env bash
# Regenerates the RADIANCE 6.0a goldens of crates/cli/tests/rfluxmtx_sender.rs: rfluxmtx with
# surface senders (daylight matrices) and view matrices of a side-lit room.
#
# Inputs (kept here, hand-written): room.rad (a 4 x 6 x 3 m room with an open south window,
# ground and a building across the street, all grey), window.rad (the window, facing into
# the room, h=kf) and its h=kq and h=r1 copies, bay.rad (a three-surface sender: two bay
# panes and a ring, h=kq), sky.rad (ground h=u, Tregenza sky h=r1), sensors.pts, view.vf.
# Outputs:
#   d_kf.txt, d_kq.txt, d_r1.txt, d_bay.txt   rfluxmtx -ab 0 -c 10000 SENDER sky.rad room.rad
#   d_kq_ab1.txt                              rfluxmtx -ab 1 -ad 64 -lw 1e-4 -c 5000 window_kq.rad ...
#   v_kf.txt     view matrix: rfluxmtx -I+ -ab 1 -ad 65536 -lw 1e-6 - window.rad room.rad < sensors.pts
#   pic_kf.txt   the picture rays of view.vf (vwrays -ff, 24 x 17) to the window, -ab 0
#   header_*.txt the header lines (less command, dates, oconv and software lines)
# Matrices are stored sparse, one "row column value" line per non-zero entry (first channel:
# every material and glow is grey). errors.txt holds RADIANCE's messages for bad senders.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH" RAYPATH
cd "$here"
sparse() { sed '1,/^$/d' | awk '{ for (i = 1; i <= NF; i += 3) if ($i != 0) printf "%d %d %.6g\n", NR - 1, (i - 1) / 3, $i }'; }
head_lines() { sed -n '2,/^$/p' | grep -v '^rcontrib\|^CAPDATE=\|^GMT=\|^SOFTWARE=\|^oconv\|^$'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in kf kq r1; do
  f=window.rad; [ "$s" = kf ] || f=window_$s.rad
  rfluxmtx -ab 0 -c 10000 "$f" sky.rad room.rad > "$tmp/out.txt"
  sparse < "$tmp/out.txt" > "d_$s.txt"; head_lines < "$tmp/out.txt" > "header_d_$s.txt"
done
rfluxmtx -ab 0 -c 10000 bay.rad sky.rad room.rad | sparse > d_bay.txt
rfluxmtx -ab 1 -ad 64 -lw 1e-4 -c 5000 window_kq.rad sky.rad room.rad | sparse > d_kq_ab1.txt
rfluxmtx -I+ -ab 1 -ad 65536 -lw 1e-6 - window.rad room.rad < sensors.pts > "$tmp/out.txt"
sparse < "$tmp/out.txt" > v_kf.txt; head_lines < "$tmp/out.txt" > header_v_kf.txt
vwrays -ff -x 24 -y 18 -vf view.vf | rfluxmtx -ffa $(vwrays -d -x 24 -y 18 -vf view.vf) -ab 0 - window.rad room.rad | sparse > pic_kf.txt
# Bad senders: RADIANCE's messages (daylit's are located; the test checks those).
{
  printf 'void polygon w 0 0 12 0 0 0 1 0 0 1 0 1 0 0 1\n' > "$tmp/noh.rad"
  printf '#@rfluxmtx h=cie\nvoid polygon w 0 0 12 0 0 0 1 0 0 1 0 1 0 0 1\n' > "$tmp/cie.rad"
  printf '#@rfluxmtx h=kf\nvoid source s 0 0 4 0 0 1 180\n' > "$tmp/src.rad"
  printf '#@rfluxmtx h=kf\nvoid sphere s 0 0 4 0 0 0 1\n' > "$tmp/none.rad"
  for b in noh cie src none; do
    echo "== $b: $(rfluxmtx -ab 0 -c 1 "$tmp/$b.rad" sky.rad room.rad 2>&1 >/dev/null | tr '\n' ' ')exit $?"
  done
} | sed "s|$tmp/||g" > errors.txt
echo "RADIANCE: $(rcontrib -version)" > MANIFEST.txt
