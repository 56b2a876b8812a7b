#!/usr/bin/env bash
# honeybee-radiance's annual-daylight recipe (lbt-recipes 0.29.1, the e2e model: 96 sensors,
# windows on two facades, a Greensboro year) run end to end twice on this machine, one run
# each: with RADIANCE 6.0a as its RADIANCE, then with daylit (release build, linked under
# RADIANCE's names). Same commands (the recipe writes them), same parameters. Prints each
# run's wall time, the ratio, and how far daylit's results are from RADIANCE's.
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
