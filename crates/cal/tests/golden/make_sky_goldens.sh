#!/usr/bin/env bash
# Regenerates the sky goldens with RADIANCE (gensky, gendaylit, oconv, rtrace).
# Each case writes <case>.sky (the generator's scene text plus our glow and
# source lines) and <case>.dat (one line per direction: Dx Dy Dz R G B as
# radiance from rtrace -ab 0 from the origin).
# Usage: crates/cal/tests/golden/make_sky_goldens.sh   (needs RADIANCE; see scripts/setup-reference.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${RADIANCE_BIN:-}" ]; then
  eval "$("$here/../../../../scripts/setup-reference.sh")"
fi
export RAYPATH PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 50 directions on a spiral covering both hemispheres (none exactly horizontal).
awk 'BEGIN { for (i = 0; i < 50; i++) { z = -0.97 + 1.94*(i+0.5)/50; r = sqrt(1-z*z);
  p = i*2.399963; printf "0 0 0 %.6f %.6f %.6f\n", r*cos(p), r*sin(p), z } }' > "$tmp/rays"

make_case() {
  local name=$1; shift
  {
    echo "# command: $*"
    "$@"
    printf '\nskyfunc glow sky_glow\n0\n0\n4 1 1 1 0\n\nsky_glow source sky\n0\n0\n4 0 0 1 360\n'
  } > "$here/$name.sky"
  oconv "$here/$name.sky" > "$tmp/$name.oct"
  rtrace -ab 0 -h -ov "$tmp/$name.oct" < "$tmp/rays" > "$tmp/$name.rad"
  awk '{ print $4, $5, $6 }' "$tmp/rays" | paste -d' ' - "$tmp/$name.rad" > "$here/$name.dat"
  echo "wrote $name"
}

make_case gensky_c      gensky 3 21 10 -a 42 -o 71 -m 75 -c
make_case gensky_u      gensky 12 1 14 -a 51 -o 0 -m 0 -u
make_case gensky_sun    gensky 6 21 12 -a 40 -o 105 -m 105 +s
make_case gensky_s      gensky 9 10 16.5 -a 35 -o -139 -m -135 -s
make_case gensky_i_sun  gensky 4 15 9 -a 48 -o -11 -m -15 +i
make_case gensky_i      gensky 11 3 15 -a 30 -o 90 -m 90 -i
make_case gensky_ang    gensky -ang 25 -40 +s -g 0.1
make_case gendaylit_a   gendaylit 6 21 12 -a 40 -o 105 -m 105 -W 600 150
make_case gendaylit_b   gendaylit 1 15 9.5 -a 52 -o -13 -m -15 -W 80 220
make_case gendaylit_c   gendaylit 9 1 17 -a 33 -o 118 -m 120 -W 10 90
