#!/bin/sh
# Regenerates the RADIANCE 6.0a goldens of the material cases (needs the reference install:
# python3 -m venv .venv-ref && .venv-ref/bin/pip install pyradiance==1.3.1, at the repo root).
#   deterministic: direct light only (-ab 0), no source jitter, rough specular not sampled
#                  (-st 1), so every value is exact and daylit must match to rounding;
#   sampled:       rough specular sampled (-st 0 -ss 1), each ray traced 400 times and averaged.
set -eu
cd "$(dirname "$0")"
SITE=$(ls -d ../../../../.venv-ref/lib/python3*/site-packages/pyradiance)
export PATH="$SITE/bin:$PATH" RAYPATH=".:$SITE/lib"
DET="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12"
SAMP="-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 0 -ss 1 -lw 1e-6 -lr 12"
python3 make_rays.py
mkdir -p goldens
run() { # case, options, scene files...
    name=$1; opts=$2; shift 2
    oconv "$@" > /tmp/daylit_mat_$$.oct
    # shellcheck disable=SC2086
    rtrace -h -ov $opts /tmp/daylit_mat_$$.oct < "$name.rays" > "goldens/$name.det.txt"
    rm -f /tmp/daylit_mat_$$.oct
}
run aniso "$DET" sun.rad aniso.rad
run patterns "$DET" sun.rad patterns.rad
run interface "$DET" interface.rad
run antimatter "$DET" antimatter.rad
run fixture "$DET" rect_fixture.rad
# The sampled case: each ray 400 times, averaged in groups.
oconv sun.rad aniso.rad > /tmp/daylit_mat_$$.oct
awk '{for (i = 0; i < 400; i++) print}' aniso.rays \
    | rtrace -h -ov $SAMP /tmp/daylit_mat_$$.oct \
    | awk '{r += $1; g += $2; b += $3; if (NR % 400 == 0) {printf "%.6e %.6e %.6e\n", r/400, g/400, b/400; r = g = b = 0}}' \
    > goldens/aniso.sampled.txt
rm -f /tmp/daylit_mat_$$.oct
{
    echo "RADIANCE: $(rtrace -version 2>&1 | head -1)"
    echo "deterministic: rtrace -h -ov $DET"
    echo "sampled: rtrace -h -ov $SAMP (x400 per ray, averaged)"
} > goldens/OPTIONS.txt
