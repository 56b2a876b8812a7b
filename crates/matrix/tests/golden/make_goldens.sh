#!/usr/bin/env bash
# Regenerates the dctimestep goldens in this folder with RADIANCE 6.0a
# (scripts/setup-reference.sh installs it into .venv-ref). Tests read only the files made here.
#
# Inputs (made here, small):
#   sky.wea          six hours of 21 June from the Greensboro TMY3 year (one of them at night)
#   sky.mtx          RADIANCE gendaymtx -m 1 of it: 146 patches × 6 hours, ascii
#   sky_f.mtx        the same as float (gendaymtx -of)
#   sky_h.txt        sky.mtx without its header (for dctimestep -n 6)
#   dc.mtx, dc_f.mtx a made-up 4 × 146 RGB daylight-coefficient matrix, ascii and float
#   v.mtx t.mtx d.mtx  made-up 3 × 8, 8 × 8 and 8 × 146 RGB matrices for the 3-phase chain
#   vpic0..7.hdr     made-up 20 × 6 pictures (pcomb): a picture view matrix, one per T row
#   sky8.mtx         a made-up 8 × 2 sky (coefficients of the 8 pictures over 2 time steps)
# Outputs: out_*.mtx and out_*.hdr, RADIANCE dctimestep's results (commands below).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
cd "$here"

# TMY3 -> WEA (the hour labels the end of the interval: mid-hour is HH - 0.5).
awk -F, 'NR==1 { gsub(/"/, "", $2);
               printf "place %s_%s\nlatitude %s\nlongitude %s\ntime_zone %d\nsite_elevation %s\nweather_data_file_units 1\n",
                      $2, $3, $5, -$6, -15*$4, $7; next }
         NR==2 { next }
         { split($1, d, "/"); split($2, t, ":");
           if (d[1] == 6 && d[2] == 21 && (t[1] == 5 || t[1] == 8 || t[1] == 11 || t[1] == 14 || t[1] == 17 || t[1] == 22))
             printf "%d %d %.3f %d %d\n", d[1], d[2], t[1] - 0.5 + t[2]/60, $8, $11 }' \
    "$root/examples/weather/723170TYA.CSV" > sky.wea
gendaymtx -m 1 sky.wea > sky.mtx
gendaymtx -m 1 -of sky.wea > sky_f.mtx
awk 'body { print } /^$/ { body = 1 }' sky.mtx > sky_h.txt

# made-up matrices: name rows cols seed (values 0.0001 .. 0.1, deterministic)
made_up() {
    awk -v r="$2" -v c="$3" -v s="$4" 'BEGIN {
        printf "#?RADIANCE\nmade up for the dctimestep goldens\nNROWS=%d\nNCOLS=%d\nNCOMP=3\nFORMAT=ascii\n\n", r, c
        for (i = 0; i < r; i++) { for (j = 0; j < c; j++) {
            for (k = 0; k < 3; k++) {
                x = ((i * 7919 + j * 104729 + k * 1301 + s * 15485863) % 9973) / 9973
                printf "%s%.6g", (k ? " " : ""), 0.0001 + 0.1 * x * x
            }
            printf (j < c - 1 ? "\t" : "\n") } } }' > "$1"
}
made_up dc.mtx 4 146 1
made_up v.mtx 3 8 2
made_up t.mtx 8 8 3
made_up d.mtx 8 146 4
rmtxop -ff dc.mtx > dc_f.mtx

dctimestep dc.mtx sky.mtx > out_2ph_aa.mtx
dctimestep -of dc_f.mtx sky_f.mtx > out_2ph_ff.mtx
dctimestep -if -od dc.mtx sky_f.mtx > out_2ph_fd.mtx
dctimestep -h -n 6 dc.mtx sky_h.txt > out_2ph_h.mtx
dctimestep v.mtx t.mtx d.mtx sky.mtx > out_3ph_aa.mtx
dctimestep -of v.mtx t.mtx d.mtx < sky_f.mtx > out_3ph_ff.mtx

# Pictures: component pictures summed (3-phase V as pictures; 2-phase with sky8.mtx), one
# file per time step (-o %d), picture output of a matrix (-oc, -x), one file per step of a
# matrix result.
for i in 0 1 2 3 4 5 6 7; do
    pcomb -x 20 -y 6 -e "ro=floor(x/4)*($i+1)/40;go=if(x-10,0.3,0.01*y*$i);bo=0.05+0.01*$i" > vpic$i.hdr
done
made_up sky8.mtx 8 2 5
dctimestep vpic%d.hdr sky8.mtx > out_2ph_pics.hdr 2> /dev/null
rm -f out_3ph_frame*.hdr out_step*.hdr out_step*.mtx
dctimestep -o out_3ph_frame%02d.hdr vpic%d.hdr t.mtx d.mtx sky.mtx 2> /dev/null
dctimestep -oc dc.mtx sky.mtx > out_2ph_oc.hdr
dctimestep -oc -x 2 -o out_step%d.hdr dc.mtx sky.mtx
dctimestep -of -o out_step%d.mtx dc.mtx sky.mtx
ls -l "$here"
