#!/usr/bin/env bash
# Regenerates the RADIANCE 6.0a goldens of crates/cli/tests/rcontrib.rs:
#   dirs.txt           400 ray directions from the origin (uniform on the sphere, plus edge cases)
#   tregenza.txt       rcontrib -ab 0 -f tregenza.cal -b tbin -bn 146 (sky glow): one bin per ray;
#                      this and reinhart2.txt are kept sparse, as "record bin r g b" lines
#   reinhart2.txt      rcontrib -ab 0 -f reinhartb.cal -p MF=2 -b rbin -bn Nrbins, ground glow as
#                      a second modifier with one bin, records of 4 rays (-c 4), contributions (-V+)
#   office_dc.txt      rcontrib -I+ -ab 2 -ad 65536 -lw 1e-6 on the reference office's 32 sensors,
#                      Tregenza bins plus the ground: daylight coefficients (stochastic)
#   rflux_*.txt        rfluxmtx -ab 0 - receivers_*.rad (sparse): h=u with h=r2, h=sc6, h=kf
#   header_*.txt       the header lines (minus command and dates) of the runs above
# Needs RADIANCE 6.0a (scripts/setup-reference.sh installs it). About a minute on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH" RAYPATH
cd "$here"
# Deterministic directions: a spiral over the sphere, plus exact row edges, zenith, nadir,
# due north and just west of north.
awk 'BEGIN { n = 380; pi = atan2(0, -1);
  for (i = 0; i < n; i++) { z = 1 - (2 * i + 1) / n; r = sqrt(1 - z * z); a = i * pi * (3 - sqrt(5));
    printf "0 0 0 %.9f %.9f %.9f\n", r * cos(a), r * sin(a), z }
  printf "0 0 0 0 0 1\n0 0 0 0 0 -1\n0 0 0 0 1 0\n0 0 0 -0.0001 1 0.2\n0 0 0 0.0001 1 0.2\n";
  for (k = 1; k <= 15; k++) { alt = (k * 6 + 0.001) * pi / 180; printf "0 0 0 %.9f %.9f %.9f\n", cos(alt) * sin(0.3 * k), cos(alt) * cos(0.3 * k), sin(alt) } }' > dirs.txt
cat > sky.rad <<'SKY'
void glow skyglow 0 0 4 1 1 1 0
skyglow source skydome 0 0 4 0 0 1 180
void glow groundglow 0 0 4 .5 .4 .3 0
groundglow source ground 0 0 4 0 0 -1 180
SKY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
oct="$tmp/sky.oct"
oconv sky.rad > "$oct"
body() { sed '1,/^$/d'; }
# Rows with few non-zero bins, stored as "row column r g b" lines (0-based).
sparse() { sed '1,/^$/d' | awk '{ for (i = 1; i <= NF; i += 3) if ($i != 0 || $(i+1) != 0 || $(i+2) != 0) print NR - 1, (i - 1) / 3, $i, $(i+1), $(i+2) }'; }
head_lines() { sed -n '2,/^$/p' | grep -v '^rcontrib\|^CAPDATE=\|^GMT=\|^SOFTWARE=\|^oconv\|^$' ; }
rcontrib -ab 0 -f tregenza.cal -b tbin -bn 146 -m skyglow "$oct" < dirs.txt > "$tmp/out.txt"
sparse < "$tmp/out.txt" > tregenza.txt; head_lines < "$tmp/out.txt" > header_tregenza.txt
rcontrib -ab 0 -V+ -c 4 -f reinhartb.cal -p MF=2 -b rbin -bn Nrbins -m skyglow -b 0 -bn 1 -m groundglow "$oct" < dirs.txt > "$tmp/out.txt"
sparse < "$tmp/out.txt" > reinhart2.txt; head_lines < "$tmp/out.txt" > header_reinhart2.txt
# rfluxmtx with the sender '-' and annotated receivers: Reinhart MF:2 with the ground,
# Shirley-Chiu 6x6, full Klems on a polygon.
for r in sky sc klems; do
  rfluxmtx -ab 0 - "receivers_$r.rad" < dirs.txt > "$tmp/out.txt"
  sparse < "$tmp/out.txt" > "rflux_$r.txt"; head_lines < "$tmp/out.txt" > "header_rflux_$r.txt"
done
office="$root/validation/scenes/06_office_overcast"
(cd "$office" && oconv "$here/sky.rad" scene.rad) > "$tmp/office.oct"
(cd "$office" && rcontrib -n 2 -I+ -ab 2 -ad 65536 -lw 1e-6 -f tregenza.cal -b tbin -bn 146 -m skyglow -m groundglow "$tmp/office.oct" < sensors.pts) > "$tmp/out.txt"
body < "$tmp/out.txt" > office_dc.txt; head_lines < "$tmp/out.txt" > header_office_dc.txt
echo "RADIANCE: $(rcontrib -version)" > MANIFEST.txt
