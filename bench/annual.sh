#!/usr/bin/env bash
# Annual daylight benchmark (issue 5): `daylit annual` end to end against RADIANCE 6.0a's
# two-phase pipeline (rfluxmtx -n 2, gendaymtx, dctimestep, rmtxop) on the reference office with
# 1296 work-plane sensors (0.15 m grid at 0.8 m), Greensboro TMY3 year, both at
# -ab 5 -ad 10000 -lw 1e-5 on 2 cores, in one run. daylit's time includes what RADIANCE does not
# compute: the sharp direct-sun term, the metrics, the JSON, CSV and PNG maps.
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
cp "$here/validation/annual/goldens/gso.wea" "$tmp/gso.wea"
cat > "$tmp/sender.rad" <<'SKY'
#@rfluxmtx h=u
void glow groundglow 0 0 4 1 1 1 0
groundglow source ground 0 0 4 0 0 -1 180
#@rfluxmtx h=r1 u=+Y
void glow skyglow 0 0 4 1 1 1 0
skyglow source skydome 0 0 4 0 0 1 180
SKY
opts="-ab 5 -ad $ad -lw 1e-5"
t0=$(date +%s.%N)
rfluxmtx -n 2 -I+ -y 1296 -faf $opts - "$tmp/sender.rad" scene.rad < "$tmp/grid.pts" > "$tmp/dc.mtx"
t1=$(date +%s.%N)
gendaymtx -m 1 -of "$tmp/gso.wea" > "$tmp/sky.mtx" 2>/dev/null
dctimestep "$tmp/dc.mtx" "$tmp/sky.mtx" | rmtxop -ff -c 47.435 119.93 11.635 - > "$tmp/ill.mtx"
t2=$(date +%s.%N)
"$daylit" annual scene.rad --sensors "$tmp/grid.pts" --weather "$tmp/gso.wea" --ab 5 --ad "$ad" --lw 1e-5 \
  --json "$tmp/d/annual.json" -o "$tmp/d" > /dev/null
t3=$(date +%s.%N)
r=$(echo "$t2 - $t0" | bc); d=$(echo "$t3 - $t2" | bc)
printf "RADIANCE: rfluxmtx %.1f s + gendaymtx/dctimestep/rmtxop %.1f s = %.1f s\n" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$r"
printf "daylit annual (coefficients, direct sun, metrics, reports): %.1f s\n" "$d"
printf "speed ratio %.1f\n" "$(echo "$r / $d" | bc -l)"

# Time versus error: both tools again at the same options on the 32 sensors of the annual
# validation, whose converged RADIANCE 2-phase year (-ab 6 -ad 262144) is the reference.
# Error: per-sensor annual mean illuminance over the occupied hours (8-18 h), relative.
cp sensors.pts "$tmp/s32.pts"
t0=$(date +%s.%N)
rfluxmtx -n 2 -I+ -y 32 -faf $opts - "$tmp/sender.rad" scene.rad < "$tmp/s32.pts" > "$tmp/dc32.mtx"
dctimestep "$tmp/dc32.mtx" "$tmp/sky.mtx" | rmtxop -ff -c 47.435 119.93 11.635 - > "$tmp/ill32.mtx"
t1=$(date +%s.%N)
"$daylit" annual scene.rad --sensors "$tmp/s32.pts" --weather "$tmp/gso.wea" --ab 5 --ad "$ad" --lw 1e-5 \
  --json "$tmp/d32/annual.json" -o "$tmp/d32" > /dev/null
t2=$(date +%s.%N)
"$here/.venv-ref/bin/python" - "$tmp" "$here/validation/annual/goldens" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" <<'PY'
import gzip, json, sys
import numpy as np
tmp, gold, tr, td = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
hours = [float(l.split()[2]) for l in open(f"{gold}/gso.wea").read().splitlines()[6:]]
occ = np.array([8 <= h < 18 for h in hours])
ref = np.frombuffer(gzip.open(f"{gold}/06_office_overcast/annual.f32.gz").read(), "<f4").reshape(32, -1)
ref_mean = ref[:, occ].mean(axis=1)
raw = open(f"{tmp}/ill32.mtx", "rb").read()
rad = np.frombuffer(raw[raw.index(b"\n\n") + 2:], "<f4").reshape(32, -1)
rad_mean = rad[:, occ].mean(axis=1)
day_mean = np.array(json.load(open(f"{tmp}/d32/annual.json"))["per_sensor"]["mean_lux"])
for name, t, m in (("RADIANCE", tr, rad_mean), ("daylit", td, day_mean)):
    e = np.abs(m / ref_mean - 1)
    print(f"{name:9s} 32 sensors: {t:6.1f} s, annual mean vs converged reference: MARD {100 * e.mean():.1f}%, worst {100 * e.max():.1f}%")
PY
