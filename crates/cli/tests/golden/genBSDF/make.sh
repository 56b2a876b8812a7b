#!/usr/bin/env bash
# Regenerates radiance.xml.gz for genbsdf_agrees_with_radiance (tests/bsdf_tools.rs):
# RADIANCE 6.0a's genBSDF (the Perl script of RADIANCE's source, src/util/genBSDF.pl, which
# runs xform, getbbox, oconv, rfluxmtx, rmtxop, getinfo and wrapBSDF from the PATH) on
# blinds.rad: five plastic slats (reflectance 0.7) 0.05 wide at 45 degrees, 0.04 apart,
# 0.5 long, between z = -0.0354 and 0 (written by hand; genBSDF's device lies below z = 0).
# RADIANCE_SRC: RADIANCE's source tree (else a shallow clone is made).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=${RADIANCE_SRC:-}
if [ -z "$src" ]; then
    git clone --depth 1 https://github.com/LBNL-ETA/Radiance "$work/src" > /dev/null
    src=$work/src
fi
cd "$here"
perl "$src/src/util/genBSDF.pl" -geom meter -c 400 +f +b -r "-ab 2 -ad 256 -lw 1e-4" \
    blinds.rad | gzip -9 > radiance.xml.gz
