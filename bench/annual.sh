#!/usr/bin/env bash
# Annual daylight benchmark (issue 5), one run, 2 cores, reference office, Greensboro TMY3 year,
# both tools at -ab 5 -ad 10000 -lw 1e-5:
#  1. the two-phase pipeline, the same commands in both tools (rfluxmtx -n 2 with the sky sender,
#     gendaymtx, dctimestep) on 1296 work-plane sensors (0.15 m grid at 0.8 m): times and ratio;
#  2. `daylit annual` end to end on the same grid (daylight coefficients with the direct part split
#     off, the sharp hour-by-hour sun, metrics, JSON, CSV and PNG maps), for scale;
#  3. time against error: the two-phase pipeline of both tools again on the 32 sensors of the annual
#     validation, whose converged RADIANCE two-phase year (validation/annual/goldens) is the
#     reference; error of the per-sensor mean illuminance over the occupied hours (8-18 h).
# Usage: bench/annual.sh [AD]      (default 10000)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
ad=${1:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here/validation/scenes/06_office_overcast"
awk 'BEGIN { for (j = 0; j < 54; j++) for (i = 0; i < 24; i++) printf "%.3f %.3f 0.8 0 0 1\n", 0.075 + 0.15 * i, 0.075 + 0.15 * j }' > "$tmp/grid.pts"
cp sensors.pts "$tmp/s32.pts"
cp "$here/validation/annual/goldens/gso.wea" "$tmp/gso.wea"
cp "$here/validation/annual/sky_sender.rad" "$tmp/sender.rad"
opts="-ab 5 -ad $ad -lw 1e-5"
now() { date +%s.%N; }
# Two-phase pipeline with program prefix $1 ("" for RADIANCE, "$daylit " for daylit) on sensors
# $2, writing the RGB year to $3; prints the seconds taken.
two_phase() {
  local p=$1 pts=$2 out=$3 n
  n=$(wc -l < "$pts")
  local t0 t1
  t0=$(now)
  ${p}rfluxmtx -n 2 -I+ -y "$n" -faf $opts - "$tmp/sender.rad" scene.rad < "$pts" > "$tmp/dc.mtx"
  ${p}gendaymtx -m 1 -of "$tmp/gso.wea" > "$tmp/sky.mtx" 2>/dev/null
  ${p}dctimestep -of "$tmp/dc.mtx" "$tmp/sky.mtx" > "$out"
  t1=$(now)
  echo "$t1 - $t0" | bc
}
r=$(two_phase "" "$tmp/grid.pts" "$tmp/r1296.mtx")
d=$(two_phase "$daylit " "$tmp/grid.pts" "$tmp/d1296.mtx")
printf "two-phase, 1296 sensors: RADIANCE %.1f s, daylit %.1f s, speed ratio %.1f\n" "$r" "$d" "$(echo "$r / $d" | bc -l)"
t0=$(now)
"$daylit" annual scene.rad --sensors "$tmp/grid.pts" --weather "$tmp/gso.wea" --ab 5 --ad "$ad" --lw 1e-5 \
  --json "$tmp/d/annual.json" -o "$tmp/d" > /dev/null
t1=$(now)
printf "daylit annual end to end (split coefficients, sharp sun, metrics, reports), 1296 sensors: %.1f s\n" "$(echo "$t1 - $t0" | bc)"
r=$(two_phase "" "$tmp/s32.pts" "$tmp/r32.mtx")
d=$(two_phase "$daylit " "$tmp/s32.pts" "$tmp/d32.mtx")
"$here/.venv-ref/bin/python" - "$tmp" "$here/validation/annual/goldens" "$r" "$d" <<'PY'
import gzip, sys
import numpy as np
tmp, gold, tr, td = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
hours = [float(l.split()[2]) for l in open(f"{gold}/gso.wea").read().splitlines()[6:]]
occ = np.array([8 <= h < 18 for h in hours])
ref = np.frombuffer(gzip.open(f"{gold}/06_office_overcast/annual.f32.gz").read(), "<f4").reshape(32, -1)
ref_mean = ref[:, occ].mean(axis=1)
def year(path):
    raw = open(path, "rb").read()
    rgb = np.frombuffer(raw[raw.index(b"\n\n") + 2:], "<f4").reshape(32, -1, 3)
    return rgb @ np.array([47.435, 119.93, 11.635], dtype=np.float32)
for name, t, path in (("RADIANCE", tr, f"{tmp}/r32.mtx"), ("daylit", td, f"{tmp}/d32.mtx")):
    e = np.abs(year(path)[:, occ].mean(axis=1) / ref_mean - 1)
    print(f"two-phase, 32 sensors, {name:8s}: {t:5.1f} s; annual mean vs converged reference: MARD {100 * e.mean():.1f}%, worst {100 * e.max():.1f}%")
PY
