#!/usr/bin/env bash
# End-to-end test of pyradiance's functions on daylit: installs pyradiance (1.3.1, the
# reference's version) into e2e/pyradiance/.venv, replaces the programs in its bin folder by
# daylit's links alone (`daylit install-links --force`), runs e2e/pyradiance/run_functions.py
# (gensky, oconv, rtrace, rcalc, total, getbbox, rpict, pfilt, evalglare, vwrays, rfluxmtx,
# gendaymtx, dctimestep, rmtxop, getinfo, render through rad -n, pcond, psign, robjutil,
# obj2mesh, Rcomb, GenGlaze) and compares with RADIANCE's results
# (e2e/pyradiance/make_goldens.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv=$root/e2e/pyradiance/.venv
if ! "$venv/bin/python" -c "import pyradiance" 2>/dev/null; then
    echo "e2e-pyradiance: installing pyradiance into $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet pyradiance==1.3.1 numpy >&2
fi
profile=${DAYLIT_PROFILE:-debug}
if [ "$profile" = release ]; then cargo build --release -p daylit; else cargo build -p daylit; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "target/$profile/daylit" "$work/daylit"
site=$("$venv/bin/python" -c "import pyradiance, os; print(os.path.dirname(pyradiance.__file__))")
# Only daylit answers: RADIANCE's own programs leave pyradiance's bin folder first, so a
# program daylit lacks fails its step instead of running RADIANCE's.
find "$site/bin" -maxdepth 1 \( -type f -o -type l \) -delete
"$work/daylit" install-links --force "$site/bin" > /dev/null
"$venv/bin/python" e2e/pyradiance/run_functions.py "$work/run" "$work/summary.json"
"$venv/bin/python" e2e/pyradiance/compare.py e2e/pyradiance/goldens.json "$work/summary.json"
