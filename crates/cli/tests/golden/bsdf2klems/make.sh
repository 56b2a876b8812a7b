#!/usr/bin/env bash
# Regenerates the goldens of bsdf2klems with RADIANCE 6.0a (scripts/setup-reference.sh
# installs it into .venv-ref). RADIANCE's sampling uses the unseeded drand48 stream, so each
# run gives the same numbers; daylit draws the same stream.
#
# lamb_q.xml.gz     -q +forward, a two-sided Lambertian given by -e (6 arguments)
# lobe_h.xml.gz     -h -n 64 -f lobe.cal bsdf: Gaussian-ish lobes, front incidence only
# lobe_fb_q.xml.gz  -q -n 256 +forward -f lobe.cal -f t=0.004;n=Lobe bsdf, both sides
# lobe_fwd_q.xml.gz -q -n 32 +forward -backward: back incidence only
# dfunc_q.xml.gz    -q -n 128: a 3-argument function using Dx, Dy, Dz (transfunc style)
# blinds_q.xml.gz   -q -n 64 pyradiance-blindsT3.xml (a tensor tree, crates/bsdf/tests/data)
# blinds_h.xml.gz   -h -n 8 pyradiance-blindsT3.xml
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
[ -n "${RADIANCE_BIN:-}" ] || eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/lobe.cal" "$tmp/"
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-blindsT3.xml.gz" > "$tmp/pyradiance-blindsT3.xml"
cd "$tmp"
k() { local out=$1; shift; bsdf2klems -p0 "$@" 2>/dev/null | gzip -9n > "$here/$out.xml.gz"; }
k lamb_q -q +forward -e 'lamb(ix,iy,iz,ox,oy,oz) = if(iz*oz, 0.2, 0.1)/PI' lamb
k lobe_h -h -n 64 -f lobe.cal bsdf
k lobe_fb_q -q -n 256 +forward -f lobe.cal -f 't=0.004;n=Lobe' bsdf
k lobe_fwd_q -q -n 32 +forward -backward -f lobe.cal bsdf
k dfunc_q -q -n 128 -e 'tf(ix,iy,iz) = if(iz*Dz, 0.3*exp((-Dx*ix-Dy*iy-Dz*iz-1)/0.05), 0.05)' tf
k blinds_q -q -n 64 pyradiance-blindsT3.xml
k blinds_h -h -n 8 pyradiance-blindsT3.xml
