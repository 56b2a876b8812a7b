#!/usr/bin/env bash
# Regenerates out.txt for the rsensor test in tests/radiance_utilities.rs: RADIANCE's rsensor
# (built from RADIANCE's public source by scripts/build-radiance-extras.sh; pyradiance has
# none) on each line of cases.txt: "SCENE TOLERANCE ARGUMENTS", SCENE an octree that
# RADIANCE 6.0a's oconv -f makes from SCENE's .rad file. Each case's sensor values go to one
# line of out.txt (a sensor a line within it, joined by " | ").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/build-radiance-extras.sh" "$work"
cd "$here"
for s in glow lamp room; do oconv -f "$s.rad" > "$work/$s.oct"; done
: > out.txt
while read -r scene tol args; do
    # shellcheck disable=SC2086
    (cd "$work" && cp "$here"/*.sen . && ./rsensor $args "$scene.oct") | paste -sd'|' >> out.txt
done < cases.txt
