#!/usr/bin/env bash
# Regenerates goldens.json: the same recipes run with RADIANCE 6.0a (pyradiance 1.3.1, from
# scripts/setup-reference.sh) as the only RADIANCE on PATH.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bash "$root/scripts/setup-reference.sh" > /dev/null
venv=$(bash "$root/scripts/e2e-honeybee.sh" --venv-only)
site=$("$root/.venv-ref/bin/python" -c "import pyradiance, os; print(os.path.dirname(pyradiance.__file__))")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$here/run_recipes.py" "$site" "$work/run" "$here/goldens.json"
