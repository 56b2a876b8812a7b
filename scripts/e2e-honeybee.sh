#!/usr/bin/env bash
# End-to-end test inside honeybee-radiance: installs honeybee-radiance and lbt-recipes from the
# package registry into e2e/honeybee/.venv, links daylit under every RADIANCE name it answers
# to (`daylit install-links`), runs ten recipes (point-in-time grid and view, daylight factor,
# sky view, annual daylight plain and enhanced, annual irradiance, cumulative radiation, direct
# sun hours, imageless annual glare) through lbt-recipes with only daylit on PATH, and compares
# every result file with goldens made by RADIANCE 6.0a through the same commands
# (e2e/honeybee/make_goldens.sh; dcglare, which pyradiance lacks, built from RADIANCE's source).
#   --venv-only   set up the virtual environment and print its path
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv=$root/e2e/honeybee/.venv
if [ ! -x "$venv/bin/lbt-recipes" ]; then
    echo "e2e-honeybee: installing honeybee-radiance and lbt-recipes into $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet lbt-recipes==0.29.1 honeybee-radiance==1.66.299 >&2
fi
if [ "${1:-}" = --venv-only ]; then echo "$venv"; exit 0; fi

profile=${DAYLIT_PROFILE:-debug}
if [ "$profile" = release ]; then cargo build --release -p daylit; else cargo build -p daylit; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/radiance/lib"
# A copy, so that a rebuild during the run cannot change the program under test.
cp "target/$profile/daylit" "$work/daylit"
"$work/daylit" install-links "$work/radiance/bin" > /dev/null
"$venv/bin/python" e2e/honeybee/run_recipes.py "$work/radiance" "$work/run" "$work/summary.json"
"$venv/bin/python" e2e/honeybee/compare.py e2e/honeybee/goldens.json "$work/summary.json"
