#!/bin/sh
# Regenerates the RADIANCE 6.0a goldens of the WGMDfunc material (wgmd.rad under the funcmat
# goldens' sun, lamp and sky). Needs RADIANCE 6.0a: RADIANCE_BIN pointing at its programs
# (source /tmp/ref.env), or the reference install at the repository root
# (bash scripts/setup-reference.sh).
#   det:      direct light only (-ab 0), no source jitter, rough lobes below -st 1 so not
#             sampled: mirror and clear-pane rays are traced, every value is exact;
#   sampled:  rough lobes sampled (-st 0 -ss 1), each ray traced 400 times and averaged;
#   ambient:  one indirect bounce (-ab 1 -aa 0) of 4096 stratified samples.
set -eu
cd "$(dirname "$0")"
if [ -z "${RADIANCE_BIN:-}" ]; then
    SITE=$(ls -d ../../../../../.venv-ref/lib/python3*/site-packages/pyradiance)
    RADIANCE_BIN="$SITE/bin"
fi
LIB=$(cd "$RADIANCE_BIN/../lib" && pwd)
export PATH="$RADIANCE_BIN:$PATH" RAYPATH=".:$LIB"
DET="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12"
SAMP="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 0 -ss 1 -lw 1e-6 -lr 12"
AMB="-ab 1 -aa 0 -ad 4096 -as 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12"
python3 make_rays.py
mkdir -p goldens
OCT=/tmp/daylit_wgmdfunc_$$.oct
oconv ../funcmat/sun.rad wgmd.rad > $OCT
# shellcheck disable=SC2086
rtrace -h -ov $DET $OCT < wgmd.rays > goldens/wgmd.det.txt
# shellcheck disable=SC2086
rtrace -h -ov $AMB $OCT < ambient.rays > goldens/ambient.txt
awk '{for (i = 0; i < 400; i++) print}' wgmd.rays \
    | rtrace -h -ov $SAMP $OCT \
    | awk '{r += $1; g += $2; b += $3; if (NR % 400 == 0) {printf "%.6e %.6e %.6e\n", r/400, g/400, b/400; r = g = b = 0}}' \
    > goldens/wgmd.sampled.txt
rm -f $OCT
{
    echo "RADIANCE: $(rtrace -version 2>&1 | head -1)"
    echo "det: rtrace -h -ov $DET"
    echo "sampled: rtrace -h -ov $SAMP (x400 per ray, averaged)"
    echo "ambient: rtrace -h -ov $AMB"
} > goldens/OPTIONS.txt
