#!/usr/bin/env bash
# Installs RADIANCE 6.0a (pip package pyradiance==1.3.1) into .venv-ref, the reference oracle and speed peer.
# Only golden regeneration and benchmarks need it; the test suite does not.
# Prints the lines to source: RADIANCE_BIN and RAYPATH.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv-ref"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
if ! "$venv/bin/python" -c "import pyradiance" 2>/dev/null; then
  "$venv/bin/pip" install --quiet pyradiance==1.3.1 >&2
fi
site=$("$venv/bin/python" -c "import pyradiance, os; print(os.path.dirname(pyradiance.__file__))")
echo "export RADIANCE_BIN=$site/bin"
echo "export RAYPATH=.:$site/lib"
