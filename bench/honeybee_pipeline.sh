#!/usr/bin/env bash
# honeybee-radiance's annual-daylight recipe (lbt-recipes 0.29.1, the e2e model: 96 sensors,
# windows on two facades, a Greensboro year) run end to end twice on this machine, one run
# each: with RADIANCE 6.0a as its RADIANCE, then with daylit (release build, linked under
# RADIANCE's names). Same commands (the recipe writes them), same parameters. Prints each
# run's wall time, the ratio, and how far daylit's results are from RADIANCE's; then times
# the recipe's ray-tracing step alone (its `rfluxmtx … | rmtxop …` line, on each run's own
# octree, sky dome, sky matrix and sensors), where the engines differ.
#   ANNUAL="-ab 3 -ad 2048 -lw 0.0005 -dr 0" bash bench/honeybee_pipeline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export E2E_ANNUAL_PARAMS=${ANNUAL:--ab 3 -ad 2048 -lw 0.0005 -dr 0}
bash scripts/setup-reference.sh > /dev/null
venv=$(bash scripts/e2e-honeybee.sh --venv-only)
cargo build --release -p daylit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
site=$("$root/.venv-ref/bin/python" -c "import pyradiance, os; print(os.path.dirname(pyradiance.__file__))")
mkdir -p "$work/daylit/lib"
cp target/release/daylit "$work/daylit-bin"
"$work/daylit-bin" install-links "$work/daylit/bin" > /dev/null
echo "annual-daylight, parameters: $E2E_ANNUAL_PARAMS"
"$venv/bin/python" e2e/honeybee/run_recipes.py "$site" "$work/radiance-run" "$work/radiance.json" annual-daylight
"$venv/bin/python" e2e/honeybee/run_recipes.py "$work/daylit" "$work/daylit-run" "$work/daylit.json" annual-daylight
"$venv/bin/python" - "$work/radiance.json" "$work/daylit.json" <<'PY'
import json, sys
r, d = (json.load(open(p))['annual-daylight'] for p in sys.argv[1:3])
print(f"wall time: RADIANCE {r['seconds']:.1f} s, daylit {d['seconds']:.1f} s, "
      f"RADIANCE/daylit {r['seconds'] / d['seconds']:.2f}x")
for name, ref in sorted(r['files'].items()):
    got = d['files'][name]['mean']
    unit = 'points' if name.endswith(('.da', '.cda', '.udi')) else '%'
    diff = got - ref['mean'] if unit == 'points' else (got - ref['mean']) / ref['mean'] * 100
    print(f"  {name}: RADIANCE {ref['mean']:.4g}, daylit {got:.4g} ({diff:+.2f} {unit})")
PY

# The ray-tracing step alone, as the recipe runs it (its command line from the recipe's log).
params=$E2E_ANNUAL_PARAMS
for engine in radiance daylit; do
    if [ $engine = radiance ]; then bin=$site/bin; else bin=$work/daylit/bin; fi
    res=$(ls -d "$work/$engine-run/runs/annual-daylight/annual_daylight/resources")
    n=$(wc -l < "$res/grid/0.pts")
    t0=$(date +%s.%N)
    (cd "$res" && PATH=$bin:/usr/bin:/bin RAYPATH=.:$site/lib \
        rfluxmtx -I -aa 0.0 $params -c 1 -faf -y "$n" - sky.dome -i scene.oct < grid/0.pts |
        PATH=$bin:/usr/bin:/bin rmtxop -ff - sky.mtx -c 47.4 119.9 11.6 > "$work/$engine.ill")
    t1=$(date +%s.%N)
    echo "$engine $(echo "$t1 - $t0" | bc)" >> "$work/step-times"
done
"$venv/bin/python" - "$work" <<'PY'
import sys, numpy as np
work = sys.argv[1]
t = dict(l.split() for l in open(f'{work}/step-times'))
r, d = float(t['radiance']), float(t['daylit'])
def ill(p):
    b = open(p, 'rb').read()
    return np.frombuffer(b[b.index(b'\n\n') + 2:], dtype='<f4')
a, b = ill(f'{work}/radiance.ill'), ill(f'{work}/daylit.ill')
print(f"rfluxmtx | rmtxop step: RADIANCE {r:.1f} s, daylit {d:.1f} s, RADIANCE/daylit {r / d:.2f}x; "
      f"mean illuminance RADIANCE {a.mean():.4g} lx, daylit {b.mean():.4g} lx ({(b.mean() / a.mean() - 1) * 100:+.2f} %)")
PY
