#!/bin/sh
# Regenerates the RADIANCE 6.0a goldens of the function and data materials (plasfunc,
# metfunc, transfunc, plasdata, metdata, transdata, BRTDfunc, ashik2). Needs RADIANCE 6.0a:
# RADIANCE_BIN pointing at its programs (source /tmp/ref.env), or the reference install at
# the repository root (python3 -m venv .venv-ref && .venv-ref/bin/pip install pyradiance==1.3.1).
#   det:      direct light only (-ab 0), no source jitter, ashik2's lobe below -st 1 so not
#             sampled: every value is exact and daylit must match to rounding;
#   sampled:  ashik2's lobe sampled (-st 0 -ss 1), each ray traced 400 times and averaged;
#   ambient:  one indirect bounce (-ab 1 -aa 0) of 4096 stratified samples, so the sky's
#             share is converged.
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
OCT=/tmp/daylit_funcmat_$$.oct
oconv sun.rad funcmat.rad > $OCT
# shellcheck disable=SC2086
rtrace -h -ov $DET $OCT < funcs.rays > goldens/funcs.det.txt
# shellcheck disable=SC2086
rtrace -h -ov $DET $OCT < ashik.rays > goldens/ashik.det.txt
# shellcheck disable=SC2086
rtrace -h -ov $AMB $OCT < ambient.rays > goldens/ambient.txt
awk '{for (i = 0; i < 400; i++) print}' ashik.rays \
    | rtrace -h -ov $SAMP $OCT \
    | awk '{r += $1; g += $2; b += $3; if (NR % 400 == 0) {printf "%.6e %.6e %.6e\n", r/400, g/400, b/400; r = g = b = 0}}' \
    > goldens/ashik.sampled.txt
rm -f $OCT
{
    echo "RADIANCE: $(rtrace -version 2>&1 | head -1)"
    echo "det: rtrace -h -ov $DET"
    echo "sampled: rtrace -h -ov $SAMP (x400 per ray, averaged)"
    echo "ambient: rtrace -h -ov $AMB"
} > goldens/OPTIONS.txt
