#!/usr/bin/env bash
# Regenerates out/ for pkgbsdf_matches_radiance (tests/bsdf_tools.rs): RADIANCE 6.0a's pkgBSDF
# on each line of cases.txt, run in a fresh copy of inputs/ (see ../make_cases.sh). Inputs:
# real BSDF XMLs from crates/bsdf/tests/data (frads-blinds30.xml: genBSDF-made, with an MGF
# block and a back reflection; the others without geometry; nowidth.xml (rad-testBSDF.xml less its
# width), bad.xml is malformed on purpose. The mgf2rad comment naming pkgBSDF's temporary
# file (/tmp/rtXXXXXX) differs run to run; the test compares with that name masked.
set -euo pipefail
exec bash "$(dirname "$0")/../make_cases.sh" pkgBSDF
