#!/usr/bin/env bash
# Run by ../make_cases.sh ies2rad after the cases, with RADIANCE on the PATH: trace/scene.rad
# places four converted luminaires (tilt data from the IES file and from a file of its own,
# type B photometry, a sphere) over a floor; RADIANCE's direct irradiance at trace/sensors.pts
# goes to out/trace.txt.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp inputs/*.ies inputs/*.dat trace/scene.rad "$work"
(cd "$work" && ies2rad -t default downlight_tilt.ies ellipse_tiltfile.ies roadway_typeB.ies globe_2002.ies 2> /dev/null \
    && oconv scene.rad > scene.oct && rtrace -h -I -ab 0 -ds .05 scene.oct) < trace/sensors.pts > out/trace.txt
