#!/bin/sh
# Regenerates the RADIANCE 6.0a goldens of the picture, text and spectral patterns (needs the
# reference install: python3 -m venv .venv-ref && .venv-ref/bin/pip install pyradiance==1.3.1,
# at the repository root). The inputs (pictures from make_inputs.py, font.fnt, data files)
# are committed; this writes RADIANCE's values (goldens/*.txt) at the rays of grids.txt.
# Every surface is a glow seen straight on with -ab 0, so a value is the pattern's alone.
set -eu
cd "$(dirname "$0")"
SITE=$(ls -d ../../../../../.venv-ref/lib/python3*/site-packages/pyradiance)
export PATH="$SITE/bin:$PATH" RAYPATH=".:$SITE/lib"
OPTS="-ab 0 -av 0 0 0"
mkdir -p goldens
# The rays of each case, from grids.txt (the test makes the same).
rays() {
    awk -v c="$1" '$1 == c {
        for (j = 0; j < $7; j++) for (i = 0; i < $4; i++)
            printf "%.6f %.6f 1 0 0 -1\n", \
                ($4 > 1 ? $2 + ($3 - $2) * i / ($4 - 1) : $2), \
                ($7 > 1 ? $5 + ($6 - $5) * j / ($7 - 1) : $5)
    }' grids.txt
}
run() { # case scene
    oconv "$2" > /tmp/daylit_pict_$$.oct
    # shellcheck disable=SC2086
    rays "$1" | rtrace -h -ov $OPTS /tmp/daylit_pict_$$.oct \
        | awk '{printf "%.7g %.7g %.7g\n", $1, $2, $3}' > "goldens/$1.txt"
    rm -f /tmp/daylit_pict_$$.oct
}
run pict pict.rad
run text text.rad
run spec spec.rad
# The jittered specfunc: the mean over its 1000 rays.
oconv spec.rad > /tmp/daylit_pict_$$.oct
# shellcheck disable=SC2086
rays ramp | rtrace -h -ov $OPTS /tmp/daylit_pict_$$.oct \
    | awk '{r += $1; g += $2; b += $3} END {printf "%.7g %.7g %.7g\n", r/NR, g/NR, b/NR}' \
    > goldens/ramp.mean.txt
rm -f /tmp/daylit_pict_$$.oct
{
    echo "RADIANCE: $(rtrace -version 2>&1 | head -1)"
    echo "rtrace -h -ov $OPTS"
} > goldens/OPTIONS.txt
