#!/usr/bin/env bash
# Regenerates the RADIANCE-made goldens used by crates/image/tests/radiance.rs.
# Needs RADIANCE 6.0a: eval "$(scripts/setup-reference.sh)" from the repository root.
#   views.txt:   one "name|view options|xres|yres" line per case;
#   <name>.rays: `vwrays -ff -pa 0` output (float32, 6 per pixel: origin then direction,
#                top scanline first, zero vectors where the view has no ray).
#   ramp.hdr, narrow.hdr: pictures written by pcomb (run-length encoded / flat scanlines),
#                ramp.hdr passed through pfilt twice (two EXPOSURE= lines);
#   *.rgbf:      `pvalue -h -H -o -df` of each (radiance = stored / exposure, float32 RGB).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$RADIANCE_BIN:$PATH"
while IFS='|' read -r name opts x y; do
  [ -z "$name" ] && continue
  # shellcheck disable=SC2086
  vwrays $opts -x "$x" -y "$y" -pa 0 -ff > "$name.rays"
done < views.txt
pcomb -x 40 -y 20 -e 'ro=x/10;go=y/5;bo=if(x-20,1,0.001)' | pfilt -1 -e 2 | pfilt -1 -e 1.5 > ramp.hdr
pcomb -x 5 -y 3 -e 'ro=x+1;go=y*3+0.25;bo=0.5' > narrow.hdr
for f in ramp narrow; do pvalue -h -H -o -df "$f.hdr" > "$f.rgbf"; done
