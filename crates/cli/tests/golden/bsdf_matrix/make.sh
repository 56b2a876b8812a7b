#!/usr/bin/env bash
# Regenerates the goldens of rmtxop and dctimestep reading BSDF XML files, with RADIANCE 6.0a
# (scripts/setup-reference.sh installs it into .venv-ref). Tests read only the files made here
# and the XML files of crates/bsdf/tests/data (gzipped there; unpacked to a temporary folder).
#
# rmtxop_NAME[_rf|_rb].mtx.gz  RADIANCE rmtxop -ff -c 1 0 0 [-rf|-rb] NAME.xml: the red channel
#                              of the matrix (the data is grey, so all channels are equal), float
# v145.mtx.gz, d145.mtx.gz     made-up 3 × 145 view and 145 × 146 daylight matrices
# dct_NAME.mtx                 RADIANCE dctimestep v145.mtx NAME.xml d145.mtx sky.mtx
#                              (sky.mtx from crates/matrix/tests/golden)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in frads-ec60 frads-blinds30 pyradiance-blinds rad-sawtooth; do
    gunzip -c "$root/crates/bsdf/tests/data/$n.xml.gz" > "$tmp/$n.xml"
done
cd "$tmp"
rm -f "$here"/rmtxop_*.mtx.gz "$here"/dct_*.mtx
for n in frads-ec60 frads-blinds30 pyradiance-blinds rad-sawtooth; do
    rmtxop -ff -c 1 0 0 "$n.xml" | gzip -9n > "$here/rmtxop_$n.mtx.gz"
done
rmtxop -ff -c 1 0 0 -rf rad-sawtooth.xml | gzip -9n > "$here/rmtxop_rad-sawtooth_rf.mtx.gz"
rmtxop -ff -c 1 0 0 -rb pyradiance-blinds.xml | gzip -9n > "$here/rmtxop_pyradiance-blinds_rb.mtx.gz"

# made-up matrices: name rows cols seed (short values, so that they pack small)
made_up() {
    awk -v r="$2" -v c="$3" -v s="$4" 'BEGIN {
        printf "#?RADIANCE\nmade up for the BSDF dctimestep goldens\nNROWS=%d\nNCOLS=%d\nNCOMP=3\nFORMAT=ascii\n\n", r, c
        for (i = 0; i < r; i++) { for (j = 0; j < c; j++)
            for (k = 0; k < 3; k++) printf "%s%.3f", (j || k) ? " " : "", ((i * 7 + j * 3 + k * s) % 11 + 1) / 1000
            printf "\n" } }' > "$1"
}
made_up v145.mtx 3 145 5
made_up d145.mtx 145 146 2
gzip -9nc v145.mtx > "$here/v145.mtx.gz"
gzip -9nc d145.mtx > "$here/d145.mtx.gz"
cp "$root/crates/matrix/tests/golden/sky.mtx" sky.mtx
for n in frads-ec60 frads-blinds30 pyradiance-blinds; do
    dctimestep v145.mtx "$n.xml" d145.mtx sky.mtx > "$here/dct_$n.mtx"
done
