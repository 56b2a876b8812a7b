#!/usr/bin/env bash
# Time against error of the three-phase method's view matrix, the step that costs most, for
# RADIANCE 6.0a and daylit in one run on the room of run.sh (345 sensors, Klems blinds).
# Error: per-sensor annual mean illuminance (V T D S averaged over the year, which by linearity
# is V T D times the year's average sky, `gendaymtx -A`) against a converged reference view
# matrix (RADIANCE, -ab 4 -ad 32768 -lw 1e-6, cached in target/bench-cache); T, D and the sky
# are the same for every run, so only the view matrix's error is measured. Then the other
# steps of the pipeline (daylight matrix, sky matrix, dctimestep + rmtxop of the full year)
# once per engine, for end-to-end totals at equal error.
#   THREADS=1 bash bench/three_phase/curve.sh
#   RADIANCE_AD="4096" DAYLIT_SETTINGS="-ad 1024 --daylit-ambient;-ad 4096" bash bench/three_phase/curve.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
BASE=${BASE:--ab 4 -lw 1e-5}
RADIANCE_AD=${RADIANCE_AD:-1024 4096}
DAYLIT_SETTINGS=${DAYLIT_SETTINGS:--ad 4096;-ad 1024;-ad 512 --daylit-ambient;-ad 1024 --daylit-ambient;-ad 2048 --daylit-ambient}
DOPT="-ab 2 -ad 1024 -lw 1e-4 -c 1000"
(cd "$root" && cargo build --release -p daylit >&2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache="$root/target/bench-cache/three_phase"
mkdir -p "$cache" "$work/daylit-bin"
"$root/target/release/daylit" install-links "$work/daylit-bin" > /dev/null
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-blinds.xml.gz" > "$work/blinds.xml"
cp "$here"/*.rad "$here/sensors.pts" "$work/"
cp "$root/validation/annual/goldens/gso.wea" "$work/sky.wea"
export RAYON_NUM_THREADS=${THREADS:-2}
cd "$work"
n=$(wc -l < sensors.pts)
R="$RADIANCE_BIN"
D="$work/daylit-bin"
secs() { local t0; t0=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $t0" | bc; }
PATH="$R:/usr/bin:/bin" oconv room.rad > room.oct
if [ ! -s "$cache/v_ref.mtx" ]; then
    echo "reference view matrix (RADIANCE, -ab 4 -ad 32768 -lw 1e-6; once, minutes)" >&2
    PATH="$R:/usr/bin:/bin" rfluxmtx -I+ -faf -ab 4 -ad 32768 -lw 1e-6 -c 1 -y "$n" - window_recv.rad \
        -i room.oct < sensors.pts > "$cache/v_ref.tmp" && mv "$cache/v_ref.tmp" "$cache/v_ref.mtx"
fi
# The same T, D and average sky for every view matrix (RADIANCE's).
PATH="$R:/usr/bin:/bin" rfluxmtx -faf $DOPT window_send.rad sky.rad -i room.oct > d.mtx
PATH="$R:/usr/bin:/bin" gendaymtx -m 1 -A -of sky.wea > s_avg.mtx 2>/dev/null
mean_lux() { PATH="$R:/usr/bin:/bin" dctimestep "$1" blinds.xml d.mtx s_avg.mtx | PATH="$R:/usr/bin:/bin" rmtxop -fa -c 47.4 119.9 11.6 - > "$2"; }
mean_lux "$cache/v_ref.mtx" ref.txt
: > results
view() { # engine bin options...
    local engine=$1 bin=$2; shift 2
    local t
    t=$(PATH="$bin:/usr/bin:/bin" secs sh -c "rfluxmtx -I+ -faf $* -c 1 -y $n - window_recv.rad -i room.oct < sensors.pts > v.mtx")
    mean_lux v.mtx mean.txt
    python3 "$here/curve_error.py" ref.txt mean.txt "$engine" "$*" "$t" >> results
}
for ad in $RADIANCE_AD; do view RADIANCE "$R" $BASE -ad "$ad"; done
IFS=';' read -ra settings <<< "$DAYLIT_SETTINGS"
for s in "${settings[@]}"; do view daylit "$D" $BASE $s; done
# The other steps of the pipeline (daylight and sky matrices, the year's product), once per
# engine, for end-to-end totals.
rest() {
    PATH="$1:/usr/bin:/bin" secs sh -c "rfluxmtx -faf $DOPT window_send.rad sky.rad -i room.oct > dd.mtx; gendaymtx -m 1 -of sky.wea > s.mtx 2>/dev/null; dctimestep v.mtx blinds.xml dd.mtx s.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > ill.txt"
}
rest_r=$(rest "$R")
rest_d=$(rest "$D")
echo "rest of the pipeline (daylight matrix, sky matrix, dctimestep + rmtxop of the year): RADIANCE $rest_r s, daylit $rest_d s"
printf '%-9s %-42s %8s %8s %8s %8s %9s\n' engine "view-matrix options" "view s" "total s" "mean %" "p95 %" "largest %"
while IFS='|' read -r engine opts t mean p95 big; do
    if [ "$engine" = RADIANCE ]; then rest=$rest_r; else rest=$rest_d; fi
    printf '%-9s %-42s %8.2f %8.2f %8s %8s %9s\n' "$engine" "$opts" "$t" "$(echo "$t + $rest" | bc)" "$mean" "$p95" "$big"
done < results
