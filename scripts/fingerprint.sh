#!/usr/bin/env bash
# Fingerprints of daylit's outputs on the bundled examples and a few of RADIANCE's test scenes:
# one line per command, the md5 of everything it wrote (standard output and its files), with
# the header lines that change from run to run (CAPDATE=, GMT=, SOFTWARE=) left out. Run it
# with two builds to show that a change of structure changed no output:
#   bash scripts/fingerprint.sh OLD/daylit > before.txt
#   bash scripts/fingerprint.sh target/debug/daylit > after.txt && diff before.txt after.txt
set -euo pipefail
bin=$(realpath "${1:?usage: fingerprint.sh DAYLIT_BINARY}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RAYON_NUM_THREADS=2 RAYPATH=.
office="$root/examples/office/office.rad $root/examples/office/sky.rad"
weather="$root/examples/weather/723170TYA.CSV"
scenes="$root/validation/radiance_scenes/scenes"
# Everything a command wrote, less the volatile header lines.
digest() { grep -av -e '^CAPDATE=' -e '^GMT=' -e '^SOFTWARE=' "$@" | md5sum | cut -c1-32; }
run() { # name, then a command run in $work/NAME with its standard output in out
    local name=$1; shift
    mkdir -p "$work/$name"
    (cd "$work/$name" && "$@" > out 2> err) || { echo "$name: failed:" >&2; head -3 "$work/$name/err" >&2; }
    echo "$name $(cd "$work/$name" && digest $(find . -type f ! -name err | sort))"
}
"$bin" install-links "$work/bin" > /dev/null
# RADIANCE's names (xform, pfilt, falsecolor …) run daylit with RADIANCE's syntax.
export PATH="$work/bin:$PATH"
d() { "$bin" "$@"; }
sensors() { printf '%s\n' "1 1 0.8 0 0 1" "2 3 0.8 0 0 1" "3 5 0.8 0 0 1" "1.5 6 1.2 0 -1 0"; }
run rtrace_aa0 sh -c "$(declare -f sensors); sensors | '$bin' rtrace -I -ab 2 -ad 256 -aa 0 -seed 1 $office"
run rtrace_cache sh -c "$(declare -f sensors); sensors | '$bin' rtrace -I -ab 2 -ad 256 -as 64 -aa .1 -ar 32 $office"
run rpict_adaptive d rpict -x 64 -y 48 -vf "$root/examples/office/view.vf" -ab 1 -ad 128 -aa .1 -ar 16 -ps 4 -z z.dat $office
run rpict_every_pixel d rpict -x 48 -y 48 -vf "$root/examples/office/view.vf" -ab 0 -ps 1 -pj 0 $office
run render d render -o r.hdr $office -vf "$root/examples/office/view.vf" -x 48 -y 36 -ab 1 -ad 64
run rpict_dielectric sh -c "cd '$scenes' && '$bin' rpict -x 48 -y 48 -vf inside.vf -ab 1 -ad 128 -aa 0 basic.mat diorama_walls.rad rect_opening.rad front_cap.rad vase.rad rect_fixture.rad sunset_sky.rad dielectric_pane.rad"
run rcontrib sh -c "$(declare -f sensors); sensors | '$bin' rcontrib -I -ab 1 -ad 256 -lw 1e-4 -e MF:1 -f reinhart.cal -b rbin -bn Nrbins -m skyglow $root/examples/office/office.rad $root/crates/cli/tests/rcontrib/sky.rad"
run gendaymtx d gendaymtx -m 1 "$weather"
run gensky d gensky 3 21 12 -a 36 -o 80 -m 75 +s
run gendaylit d gendaylit 6 21 14 -a 36 -o 80 -m 75 -W 600 120
run genbox_xform sh -c "'$bin' genbox wall w 4 0.2 3 -b 0.05 | xform -rz 30 -t 1 2 0 -a 3 -t 5 0 0"
run annual d annual $office --floor floor --spacing 1 --weather "$weather" --ad 128 --ab 2 --json a.json -o out_dir --ill a.ill
run annual_glare_picture sh -c "'$bin' rpict -vta -vh 180 -vv 180 -vp 2 3 1.2 -vd 0 -1 0 -x 96 -y 96 -ab 0 $office > f.hdr && evalglare -d f.hdr"
run falsecolor sh -c "'$bin' rpict -x 48 -y 36 -vf '$root/examples/office/view.vf' -ab 0 $office > p.hdr && falsecolor -i p.hdr -l lux > fc.hdr"
run pfilt_pvalue sh -c "'$bin' rpict -x 64 -y 48 -vf '$root/examples/office/view.vf' -ab 0 $office > p.hdr && pfilt -x /2 -y /2 p.hdr > small.hdr && pvalue -h -H small.hdr"
run dctimestep sh -c "'$bin' gendaymtx -m 1 '$weather' > s.mtx 2> /dev/null && $(declare -f sensors); sensors | '$bin' rcontrib -I -ab 1 -ad 128 -lw 1e-4 -e MF:1 -f reinhart.cal -b rbin -bn Nrbins -m skyglow $root/examples/office/office.rad $root/crates/cli/tests/rcontrib/sky.rad > dc.mtx && dctimestep dc.mtx s.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > ill.txt"
run annual_3phase sh -c "gunzip -c '$root/crates/bsdf/tests/data/pyradiance-blinds.xml.gz' > blinds.xml && cp '$root/crates/cli/tests/golden/phases/room.rad' . && printf 'void BSDF glazing 6 0 blinds.xml 0 0 1 . 0 0\nglazing polygon pane 0 0 12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n' > window.rad && printf '2 0.5 0.8 0 0 1\n2 4 0.8 0 0 1\n' > s.pts && '$bin' annual room.rad window.rad --sensors s.pts --weather '$root/validation/annual/goldens/gso.wea' --method 3phase --ab 2 --ad 64 --window-samples 16 --json a.json --ill a.ill -o o && rm blinds.xml"
