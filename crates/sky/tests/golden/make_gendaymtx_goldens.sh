#!/usr/bin/env bash
# Regenerates the gendaymtx goldens in tests/golden/gendaymtx/ with RADIANCE 6.0a
# (scripts/setup-reference.sh installs it into .venv-ref). Tests read only the files made here.
#
# Inputs: the Greensboro NC TMY3 year (examples/weather/723170TYA.CSV), converted to
#   greensboro.wea.gz  RADIANCE WEA (month day mid-hour DNI DHI), the layout epw2wea writes;
#   greensboro.epw.gz  a minimal EPW with the same rows (dew point, DNI, DHI filled in).
# The script checks that RADIANCE's own epw2wea turns the EPW into the same WEA.
#
# Matrices (*.mtx.gz): gzip of a little-endian u32 header (rows, columns, components) and
# f32 values in RADIANCE's order (patch-major, then time step, then RGB), each rounded to 12
# mantissa bits (relative error < 1.3e-4) and byte-planed so that gzip can shrink them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
out="$here/gendaymtx"
site="$root/.venv-ref/lib/python3.11/site-packages/pyradiance"
export PATH="$site/bin:$PATH" RAYPATH=".:$site/lib"
py="$root/.venv-ref/bin/python3"
tmy="$root/examples/weather/723170TYA.CSV"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# TMY3 -> WEA: the hour labels the end of the interval, so the mid-hour is HH - 0.5.
awk -F, 'NR==1 { gsub(/"/, "", $2);
               printf "place %s_%s\nlatitude %s\nlongitude %s\ntime_zone %d\nsite_elevation %s\nweather_data_file_units 1\n",
                      $2, $3, $5, -$6, -15*$4, $7; next }
         NR==2 { next }
         { split($1, d, "/"); split($2, t, ":");
           printf "%d %d %.3f %d %d\n", d[1], d[2], t[1] - 0.5 + t[2]/60, $8, $11 }' "$tmy" > "$tmp/gso.wea"

# TMY3 -> EPW (the columns gendaymtx and epw2wea read: dew point 7, DNI 14, DHI 15).
awk -F, 'NR==1 { gsub(/"/, "", $2);
               printf "LOCATION,%s,%s,USA,TMY3,%s,%s,%s,%s,%s\n", $2, $3, $1, $5, $6, $4, $7;
               print "DESIGN CONDITIONS,0"; print "TYPICAL/EXTREME PERIODS,0";
               print "GROUND TEMPERATURES,0"; print "HOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0";
               print "COMMENTS 1,made from the NREL TMY3 file 723170TYA.CSV";
               print "COMMENTS 2,only dew point and solar columns are filled in";
               print "DATA PERIODS,1,1,Data,Sunday, 1/ 1,12/31"; next }
         NR==2 { next }
         { split($1, d, "/"); split($2, t, ":");
           printf "%d,%d,%d,%d,0,?,%s,%s,%s,%s,9999,9999,9999,%s,%s,%s,999999,999999,999999,9999,%s,%s,%s,%s,%s,%s,9,999999999,%s,%s,0,88,%s,0,1\n",
                  d[3], d[1], d[2], t[1], $32, $35, $38, $41*100, $5, $8, $11, $44, $47, $26, $29,
                  $50/1000, $53, $56*10, $59, $62 }' "$tmy" > "$tmp/gso.epw"

# epw2wea must agree with our conversion (same rows; its header numbers are formatted
# differently, so compare the data rows).
epw2wea "$tmp/gso.epw" "$tmp/epw2wea.wea"
if ! diff <(tail -n +7 "$tmp/epw2wea.wea" | awk '{printf "%d %d %.3f %d %d\n",$1,$2,$3,$4,$5}') \
          <(tail -n +7 "$tmp/gso.wea") > /dev/null; then
    echo "epw2wea disagrees with the TMY3->WEA conversion" >&2; exit 1
fi
gzip -9nc "$tmp/gso.wea" > "$out/greensboro.wea.gz"
gzip -9nc "$tmp/gso.epw" > "$out/greensboro.epw.gz"

# A few days for the option variants: 10 Jan (low sun, warnings), 21 Mar, 21 Jun, 11 Sep,
# 21 Dec.
awk 'NR<=6 || ($1==1&&$2==10) || ($1==3&&$2==21) || ($1==6&&$2==21) || ($1==9&&$2==11) || ($1==12&&$2==21)' \
    "$tmp/gso.wea" > "$tmp/days.wea"
cp "$tmp/days.wea" "$out/days.wea"

pack() { # pack <radiance-float-matrix-file> <out.mtx.gz> [keep: all|g] [first columns]
    "$py" - "$1" "$2" "${3:-all}" "${4:-0}" <<'PY'
import gzip, sys, numpy as np
src, dst, keep, ncol = sys.argv[1:5]
data = open(src, 'rb').read()
head, body = data.split(b'\n\n', 1)
h = dict(l.split('=', 1) for l in head.decode().splitlines() if '=' in l)
rows, cols = int(h['NROWS']), int(h['NCOLS'])
m = np.frombuffer(body, '<f4').reshape(rows, cols, 3)
if keep == 'g':
    m = m[:, :, 1:2]
if int(ncol) > 0:
    m = m[:, :int(ncol), :]
    cols = m.shape[1]
m = np.ascontiguousarray(m)
u = m.view('<u4').astype(np.uint64)
u = ((u + (1 << 10)) >> 11 << 11).astype('<u4')      # round to 12 mantissa bits
planes = u.view(np.uint8).reshape(-1, 4).T.copy()   # byte planes
hdr = np.array([rows, cols, m.shape[2]], '<u4').tobytes()
with gzip.GzipFile(dst, 'wb', 9, mtime=0) as f:
    f.write(hdr + planes.tobytes())
PY
}

# Whole year, Tregenza: green channel (the sky colour scales R and B; checked elsewhere).
gendaymtx -m 1 -of "$tmp/gso.wea" > "$tmp/m1.bin" 2>/dev/null
pack "$tmp/m1.bin" "$out/year_m1_g.mtx.gz" g
# The EPW (dew point used), Tregenza, green channel, January.
gendaymtx -m 1 -of "$tmp/gso.epw" > "$tmp/m1e.bin" 2>/dev/null
pack "$tmp/m1e.bin" "$out/jan_m1_epw_g.mtx.gz" g 744

# Whole year, Reinhart MF:4: column sums, patch sums and ~150 selected hours in full.
gendaymtx -m 4 -of "$tmp/gso.wea" > "$tmp/m4.bin" 2>/dev/null
"$py" - "$tmp/m4.bin" "$out" "$tmp/gso.wea" <<'PY'
import gzip, sys, numpy as np
src, out, wea = sys.argv[1:4]
data = open(src, 'rb').read()
head, body = data.split(b'\n\n', 1)
h = dict(l.split('=', 1) for l in head.decode().splitlines() if '=' in l)
rows, cols = int(h['NROWS']), int(h['NCOLS'])
m = np.frombuffer(body, '<f4').reshape(rows, cols, 3).astype(np.float64)
np.savetxt(out + '/year_m4_column_sums.txt', m.sum(axis=0), fmt='%.7e')
np.savetxt(out + '/year_m4_patch_sums.txt', m.sum(axis=1), fmt='%.7e')
w = np.loadtxt(wea, skiprows=6)
dni, dhi = w[:, 3], w[:, 4]
day = (dni + dhi) > 0
idx = set()
first = np.flatnonzero(day & ~np.roll(day, 1))   # sunrise hours
last = np.flatnonzero(day & ~np.roll(day, -1))   # sunset hours
idx.update(first[::8]); idx.update(last[::8])
idx.update(np.flatnonzero(day & (dni > 800))[::40])           # clear
idx.update(np.flatnonzero(day & (dni < 5) & (dhi > 100))[::20])  # overcast
idx.update(np.flatnonzero(day & (dni > 50) & (dni < 500))[::60]) # partly cloudy
idx.update(range(12, 8760, 24 * 30))                           # a noon each month
idx = np.array(sorted(int(i) for i in idx))
np.savetxt(out + '/year_m4_hours.txt', idx, fmt='%d')
sel = np.ascontiguousarray(m[:, idx, :].astype('<f4'))
u = sel.view('<u4').astype(np.uint64)
u = ((u + (1 << 10)) >> 11 << 11).astype('<u4')
planes = u.view(np.uint8).reshape(-1, 4).T.copy()
with gzip.GzipFile(out + '/year_m4_selected.mtx.gz', 'wb', 9, mtime=0) as f:
    f.write(np.array([rows, len(idx), 3], '<u4').tobytes() + planes.tobytes())
print(len(idx), 'selected hours', file=sys.stderr)
PY

# Option variants on the five days, full RGB.
variant() { # variant <name> <options...>
    local name=$1; shift
    gendaymtx "$@" -of "$tmp/days.wea" > "$tmp/v.bin" 2>/dev/null
    pack "$tmp/v.bin" "$out/days_$name.mtx.gz"
}
variant m1
variant m2 -m 2
variant d -d
variant s -s
variant O1 -O1
variant five -5 .533
variant r30 -r 30
variant c -c 1 1 1 -g .3 .2 .1
variant A -A
variant u -u
variant m4d -m 4 -d
# The ASCII form and its header, as written.
# (Written to a file: RADIANCE pads binary headers only when it can tell the file offset.)
(cd "$tmp" && gendaymtx -m 1 days.wea > "$out/days_m1_ascii.txt" 2>/dev/null)
(cd "$tmp" && gendaymtx -m 1 -A -of days.wea > h.bin 2>/dev/null)
head -c 200 "$tmp/h.bin" | sed -n '1,/^$/p' > "$out/days_A_float_header.txt"
# Sun descriptions and modifier names (-D, -M; -n: no matrix), default and -O1 -r 30.
(cd "$tmp" && gendaymtx -n -D "$out/days_suns.rad" -M "$out/days_suns.mod" days.wea 2>/dev/null)
(cd "$tmp" && gendaymtx -n -O1 -r 30 -D "$out/days_suns_O1_r30.rad" days.wea 2>/dev/null)
ls -la "$out"

# Sky subdivision numbering: reinhartb.cal's bin (+1, ground = 0 as rfluxmtx/gendaymtx
# number them) for 3000 directions (a Fibonacci sphere plus points on patch edges) per MF.
mkdir -p "$here/patches"
awk 'BEGIN { n = 3000; ga = 3.14159265358979 * (3 - sqrt(5));
             for (i = 0; i < n; i++) { z = 1 - 2 * (i + .5) / n; r = sqrt(1 - z*z);
                 printf "%.9f %.9f %.9f\n", r * cos(ga*i), r * sin(ga*i), z }
             for (i = 0; i < 200; i++) { a = 0.01745329252 * (i * 1.8 + 0.9); z = 0.5;
                 printf "%.9f %.9f %.9f\n", sqrt(.75) * sin(a), sqrt(.75) * cos(a), z } }' > "$tmp/dirs.txt"
for mf in 1 2 4 6; do
    rcalc -f reinhartb.cal -e "MF:$mf" -e 'Dx=$1;Dy=$2;Dz=$3' \
          -e "\$1=$mf;\$2=Dx;\$3=Dy;\$4=Dz;\$5=rbin+1" "$tmp/dirs.txt"
done > "$here/patches/reinhart_bins.txt"
wc -l "$here/patches/reinhart_bins.txt"
