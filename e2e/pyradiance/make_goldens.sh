#!/usr/bin/env bash
# Regenerates goldens.json: run_functions.py with RADIANCE 6.0a's own programs in pyradiance's
# bin folder (.venv-ref from scripts/setup-reference.sh). RADIANCE's values move a little
# from run to run (its sampling is seeded per process): when steps are added, keep the
# existing goldens and add only the new ones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bash "$root/scripts/setup-reference.sh" > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/.venv-ref/bin/python" "$here/run_functions.py" "$work" "$here/goldens.json"
