#!/usr/bin/env bash
# Regenerates the RADIANCE-made goldens used by crates/falsecolor/tests/radiance.rs.
#
# Needs RADIANCE 6.0a's programs (eval "$(scripts/setup-reference.sh)" from the repository root)
# plus what its pip package lacks: falsecolor itself (a Perl script), phisto (a csh script) and
# psign's font, taken from a RADIANCE source tree (tag rad6R0P1a) given as RADIANCE_SRC or the
# git mirror at /work/.mirror/LBNL-ETA+Radiance/repo; perl and csh (tcsh) must be installed.
#
#   ramp.hdr     a pcomb picture (64x32): luminance rising left to right from 0 to 1300 cd/m2,
#                coloured, passed through pfilt -e 2 (an EXPOSURE= line);
#   spot.hdr     a pcomb picture (300x200): dim ground, a bright patch, for -s auto's
#                box-filtered maximum;
#   <case>.hdr   falsecolor's output for each line of cases.txt ("name|input|options"; the
#                office input is validation/goldens/07_office_clear_sun/view.hdr, rendered by
#                rpict);
#   <pic>.phisto the histogram line falsecolor's -s auto reads (second to last of phisto);
#   office.pextrem  pextrem -o of the office picture (the pixels -e marks).
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../../../.. && pwd)
export PATH="$RADIANCE_BIN:$PATH"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
if [ -n "${RADIANCE_SRC:-}" ]; then
  cp "$RADIANCE_SRC/src/px/falsecolor.pl" "$tools/falsecolor"
  cp "$RADIANCE_SRC/src/px/phisto.csh" "$tools/phisto"
  cp "$RADIANCE_SRC/resources/fonts/helvet.fnt" "$tools/"
else
  mirror=/work/.mirror/LBNL-ETA+Radiance/repo
  git -C "$mirror" show rad6R0P1a:src/px/falsecolor.pl > "$tools/falsecolor"
  git -C "$mirror" show rad6R0P1a:src/px/phisto.csh > "$tools/phisto"
  git -C "$mirror" show rad6R0P1a:resources/fonts/helvet.fnt > "$tools/helvet.fnt"
fi
chmod +x "$tools/falsecolor" "$tools/phisto"
export PATH="$tools:$PATH" RAYPATH="${RAYPATH:-.}:$tools"

pcomb -x 64 -y 32 \
  -e 'L=1300/179*(x+.5)/xres*(1+.08*sin(y/3));ro=1.3*L;go=L*(1-.4*x/xres);bo=.7*L+.02*y/yres' \
  | pfilt -1 -e 2 > ramp.hdr
pcomb -x 300 -y 200 \
  -e 'in=if(x-140,if(152-x,if(y-90,if(99-y,1,0),0),0),0);g=.3+.05*floor(x/50);ro=if(in,40,g);go=if(in,38,g);bo=if(in,30,.8*g)' \
  > spot.hdr
office="$root/validation/goldens/07_office_clear_sun/view.hdr"
for p in ramp spot; do phisto "$p.hdr" | tail -2 | head -1 > "$p.phisto"; done
phisto "$office" | tail -2 | head -1 > office.phisto
pextrem -o "$office" > office.pextrem

while IFS='|' read -r name input opts; do
  [ -z "$name" ] && continue
  case "$input" in
    office) in="$office" ;;
    *) in="$input.hdr" ;;
  esac
  # shellcheck disable=SC2086
  falsecolor ${opts//@IN@/$in} > "$name.hdr"
  echo "$name: $(getinfo -d < "$name.hdr")"
done < cases.txt
