#!/bin/sh
# Regenerates the RADIANCE 6.0a goldens of the prism and mist cases (needs the reference
# install: python3 -m venv .venv-ref && .venv-ref/bin/pip install pyradiance==1.3.1, at the
# repository root; or RADIANCE_BIN pointing at RADIANCE's programs).
#   prism1, prism2: RADIANCE's test prisms (prism.cal of its test suite) glazing an opening
#       under a low sun; direct light only, no jitter, every source tested: exact values.
#   mist_global:    the global medium (-me -ma -mg) with an ambient value, no listed
#       sources: extinction and ambient in-scattering only, exact values.
#   mist_fog:       a mist volume listing the spotlight: in-scattering sampled at jittered
#       places along each ray, so every ray is traced 400 times and averaged.
set -eu
cd "$(dirname "$0")"
if [ -z "${RADIANCE_BIN:-}" ]; then
    RADIANCE_BIN=$(ls -d ../../../../../.venv-ref/lib/python3*/site-packages/pyradiance)/bin
fi
export PATH="$RADIANCE_BIN:$PATH" RAYPATH=".:$RADIANCE_BIN/../lib"
DET="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -lw 1e-6 -lr 12"
GLOBAL="-ab 0 -av .2 .2 .2 -dj 0 -dt 0 -dc 1 -lw 1e-6 -lr 12 -me .05 .04 .03 -ma .6 .5 .4 -mg .2"
FOG="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -lw 1e-6 -lr 12 -ms .05"
oct=/tmp/daylit_prism_mist_$$.oct
run() { # name, options, rays, repeat, scene files...
    name=$1; opts=$2; rays=$3; n=$4; shift 4
    oconv "$@" > "$oct"
    # shellcheck disable=SC2086
    awk -v n="$n" '{for (i = 0; i < n; i++) print}' "$rays" \
        | rtrace -h -ov $opts "$oct" \
        | awk -v n="$n" '{r += $1; g += $2; b += $3;
            if (NR % n == 0) {printf "%.7e %.7e %.7e\n", r/n, g/n, b/n; r = g = b = 0}}' \
        > "$name.golden"
    rm -f "$oct"
}
run prism1 "$DET" prism.rays 1 room.rad prism1.rad
run prism2 "$DET" prism.rays 1 room.rad prism2.rad
run mist_global "$GLOBAL" mist.rays 1 mistroom.rad
run mist_fog "$FOG" mist.rays 400 mistroom.rad fog.rad
{
    echo "RADIANCE: $(rtrace -version 2>&1 | head -1)"
    echo "prism1, prism2: rtrace -h -ov $DET"
    echo "mist_global: rtrace -h -ov $GLOBAL"
    echo "mist_fog: rtrace -h -ov $FOG (x400 per ray, averaged)"
} > OPTIONS.txt
