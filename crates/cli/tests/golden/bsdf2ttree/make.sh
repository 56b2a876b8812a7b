#!/usr/bin/env bash
# Regenerates the goldens of bsdf2ttree with RADIANCE 6.0a (scripts/setup-reference.sh
# installs it into .venv-ref). RADIANCE super-samples with the unseeded drand48 and rand()
# streams, so each run gives the same trees; daylit draws the same streams.
#
# lamb3.xml.gz    -g 4 -t3 +forward: a two-sided Lambertian given by -e (6 arguments)
# phong3.xml.gz   -g 5 -t3: the man page's one-sided Phong lobe (culled 90 %)
# lobe4.xml.gz    -g 4 -t 95 +a -f lobe.cal bsdf: an anisotropic lobe (-t4 by default for a
#                 function), front incidence, reflection averaged by reciprocity
# recip3.xml.gz   -g 4 -t3 +a +forward -t 80 -n 16 -s 0.2: lobe.cal as isotropic, both sides
# dfunc3.xml.gz   -g 4 -t3: a 3-argument function using Dx, Dy, Dz (transfunc style)
# nocull4.xml.gz  -g 3 -t -1 -t4 (no reduction) -W -f fields -u inch -C comment, back only
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
[ -n "${RADIANCE_BIN:-}" ] || eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/lobe.cal" "$tmp/"
cd "$tmp"
t() { local out=$1; shift; bsdf2ttree -p0 "$@" | gzip -9n > "$here/$out.xml.gz"; }
t lamb3 -g 4 -t3 +forward -e 'lamb(ix,iy,iz,ox,oy,oz) = if(iz*oz, 0.2, 0.1)/PI' lamb
t phong3 -g 5 -t3 -e 'phong(ix,iy,iz,ox,oy,oz) = if(iz, .1+((iz+oz)/sqrt((ix+ox)^2+(iy+oy)^2+(iz+oz)^2))^50, 0)' phong
t lobe4 -g 4 -t 95 +a -f lobe.cal bsdf
t recip3 -g 4 -t3 +a +forward -t 80 -n 16 -s 0.2 -f lobe.cal bsdf
t dfunc3 -g 4 -t3 -e 'tf(ix,iy,iz) = if(iz*Dz, 0.3*exp((-Dx*ix-Dy*iy-Dz*iz-1)/0.05), 0.05)' tf
t nocull4 -g 3 -t -1 -t4 -W -f 't=0.004;n=Lobe' -u inch -C 'a comment' +forward -backward -f lobe.cal bsdf
