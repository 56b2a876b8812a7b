#!/usr/bin/env bash
# Regenerates goldens.json: the same recipes run with RADIANCE 6.0a (pyradiance 1.3.1, from
# scripts/setup-reference.sh) as the only RADIANCE on PATH. pyradiance's bin has no dcglare
# (the imageless-annual-glare recipe's last step): scripts/build-radiance-extras.sh builds RADIANCE's
# from its public source and it is added beside the others.
# Usage: make_goldens.sh [recipe ...]   (only these are re-run and replaced in goldens.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bash "$root/scripts/setup-reference.sh" > /dev/null
venv=$(bash "$root/scripts/e2e-honeybee.sh" --venv-only)
site=$("$root/.venv-ref/bin/python" -c "import pyradiance, os; print(os.path.dirname(pyradiance.__file__))")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/radiance/bin"
ln -s "$site/lib" "$work/radiance/lib"
for p in "$site"/bin/*; do ln -s "$p" "$work/radiance/bin/"; done
bash "$root/scripts/build-radiance-extras.sh" "$work/radiance/bin"
"$venv/bin/python" "$here/run_recipes.py" "$work/radiance" "$work/run" "$work/summary.json" "$@"
"$venv/bin/python" - "$here/goldens.json" "$work/summary.json" <<'PY'
import json, sys
path, new = sys.argv[1], json.load(open(sys.argv[2]))
try:
    goldens = json.load(open(path))
except FileNotFoundError:
    goldens = {}
goldens.update(new)
json.dump(goldens, open(path, 'w'), indent=1, sort_keys=True)
PY
