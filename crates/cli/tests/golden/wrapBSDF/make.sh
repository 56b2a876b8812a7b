#!/usr/bin/env bash
# Regenerates out/ for wrapbsdf_matches_radiance (tests/radiance_utilities.rs): RADIANCE
# 6.0a's wrapBSDF on each line of cases.txt (see ../make_cases.sh), run in inputs/.
# Inputs: random matrices in text (Klems Quarter, Half with commas and a tiny negative value,
# Full), tensor-tree data, an MGF file with characters XML escapes, and win.xml, which
# RADIANCE's wrapBSDF wrote (-a kq -tf tq.txt -f 'n=Old&Name;m=ACME' -C 'made for tests'),
# edited by hand to hold a comment and an escaped attribute.
set -euo pipefail
exec bash "$(dirname "$0")/../make_cases.sh" wrapBSDF
