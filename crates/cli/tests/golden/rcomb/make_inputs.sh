#!/usr/bin/env bash
# Makes rcomb's small inputs with RADIANCE 6.0a (pyradiance's, scripts/setup-reference.sh):
# ascii, float and double matrices, one without NROWS, a one-component matrix, matrices for
# -m, an RGBE picture with an exposure, an XYZE picture, and malformed inputs.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../../../.. && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
printf '#?RADIANCE\nsome info\nNROWS=2\nNCOLS=3\nNCOMP=3\nFORMAT=ascii\n\n1 2 3 4 5 6 7 8 9\n0.1 0.2 0.3 1e5 -2 3.5 0 0 1\n' > a.mtx
printf '#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=3\nFORMAT=ascii\n\n.5 .25 .125 3 2 1 9 8 7\n1e-3 2e-3 3e-3 4 5 6 -1 -2 -3\n' \
    | rcomb -h -ff - > b.mtx
rcomb -h -fd -s 3 a.mtx > d.mtx
printf '#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=1\nFORMAT=ascii\n\n1 2 3\n4 5 6\n' > y.mtx
printf '#?RADIANCE\nno rows given\nNCOLS=2\nNCOMP=3\nFORMAT=ascii\n\n1 2 3 4 5 6\n7 8 9 1 2 3\n.5 .5 .5 2 2 2\n' > n.mtx
printf '#?RADIANCE\nNROWS=3\nNCOLS=2\nNCOMP=3\nFORMAT=ascii\n\n1 1 1 0 0 0\n0 0 0 1 1 1\n.5 .5 .5 2 2 2\n' > m.mtx
printf '#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=1\nFORMAT=ascii\n\n1 0 2\n0 1 3\n' > mt.mtx
printf '#?RADIANCE\nNROWS=3\nNCOLS=2\nNCOMP=1\nFORMAT=ascii\n\n1 0\n0 1\n2 3\n' > m1.mtx
printf '#?RADIANCE\nNROWS=3\nNCOLS=3\nNCOMP=3\nFORMAT=ascii\n\n1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8 9\n' > short.mtx
printf '#?RADIANCE\nEXPOSURE=2\nCOLORCORR=1 2 4\nNROWS=1\nNCOLS=2\nNCOMP=3\nFORMAT=ascii\n\n1 2 3 4 5 6\n' > ex.mtx
printf '#?RADIANCE\nEXPOSURE=3\nNROWS=1\nNCOLS=2\nNCOMP=1\nFORMAT=ascii\n\n1 2\n' > ex1.mtx
printf '#?RADIANCE\nWLSPLIT=780 588 480 380\nNROWS=1\nNCOLS=2\nNCOMP=4\nFORMAT=ascii\n\n1 2 3 4 5 6 7 8\n' > w4.mtx
printf 'not a header\x01\x02\n\n1 2 3\n' > bad.mtx
printf '#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=3\nFORMAT=float\n\n\x01\x02\x03' > trunc.mtx
printf '1 2 3 .5 .5 .5 9 9 9 1 1 1 .1 .2 .3 4 4 4\n' \
    | pvalue -r -h -d -y 2 +x 3 | sed '2i EXPOSURE=2' | sed '2i VIEW= -vtv -vp 1 2 3 -vd 0 1 0' > pic.hdr
ra_xyze pic.hdr > xyz.hdr
printf 'co(p) = if(ci(1,p) - 3, ci(1,p), -ci(2,p)) + wl(p)/1000 + r*10 + c;\n' > rc.cal
