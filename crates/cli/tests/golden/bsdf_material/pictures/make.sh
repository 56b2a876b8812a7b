#!/usr/bin/env bash
# Regenerates blinds.hdr and abs.hdr for the picture test of tests/bsdf_material.rs: RADIANCE
# 6.0a's rpict of the bsdf_material room (its scene files, beside this folder) looking at the
# window of Klems blinds and at the aBSDF pane, every pixel traced, no jitter, converged
# indirect light (-ab 1 -aa 0 -ad 8192 -as 0 -lw 1e-6) and 16 samples of the BSDF where a view
# ray meets it (-ss 16).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for x in pyradiance-blinds frads-ec60; do
    gunzip -c "$root/crates/bsdf/tests/data/$x.xml.gz" > "$work/$x.xml"
done
export RAYPATH=".:$work:$RAYPATH"
cd "$here/.."
for win in blinds abs; do
    oconv -f sky.rad room.rad "win_$win.rad" > "$work/$win.oct"
    rpict -vp 2 5 1.5 -vd 0 -1 0 -vh 80 -vv 60 -x 48 -y 36 -ps 1 -pj 0 \
        -ab 1 -aa 0 -ad 8192 -as 0 -lw 1e-6 -ss 16 "$work/$win.oct" > "$here/$win.hdr"
done
