#!/usr/bin/env bash
# Regenerates out/ for mgf2rad_matches_radiance (tests/file_converters.rs): RADIANCE 6.0a's
# mgf2rad on each line of cases.txt, run in a fresh copy of inputs/ (see ../make_cases.sh).
# Inputs: blinds20c.mgf (RADIANCE's test/renders), testspecmat.mgf (test/cv), sawtooth.mgf
# (test/cv/ref), examp1.mgf (src/cv/mgflib), the rest written for these tests.
set -euo pipefail
exec bash "$(dirname "$0")/../make_cases.sh" mgf2rad
