#!/usr/bin/env bash
# Regenerates goldens.txt: evalglare (RADIANCE) on converged RADIANCE pictures of the reference
# office, for the two views and two skies the live tests check (crates/live/tests/live.rs,
# `live_glare_matches_radiance`). Only the numbers are kept; the pictures stay in a temporary
# directory.
#
#   source /tmp/ref.env            # or: bash scripts/setup-reference.sh, which writes it
#   bash crates/live/tests/golden/make_goldens.sh [resolution]
#
# RADIANCE_BIN names RADIANCE's programs (oconv, rpict, evalglare, gensky) and RAYPATH its
# library; the default resolution is 256.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
: "${RADIANCE_BIN:?source the reference environment (/tmp/ref.env or .venv-ref) first}"
export PATH="$RADIANCE_BIN:$PATH"
res=${1:-256}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Converged: many ambient divisions, a fine cache, one ray per pixel at the pixel centre.
# -lw low enough for 1024 divisions to reach the third bounce; the direct-light options as
# daylit live's defaults (config::live_defaults), three bounces as its default -ab.
render="-ab 3 -ad 1024 -as 512 -aa 0.1 -ar 256 -lw 1e-4 -lr -8 -ps 1 -pj 0 -dj 0.7 -ds 0.2 -dt 0 -dc 1 -dr 2"

# name  view
views=(
    "window -vta -vh 180 -vv 180 -vp 1.8 4.5 1.2 -vd 0 -1 0 -vu 0 0 1"
    "side -vta -vh 180 -vv 180 -vp 0.9 2.0 1.2 -vd 1 0 0 -vu 0 0 1"
)

out="$here/goldens.txt"
{
    echo "# Regenerate with make_goldens.sh. evalglare -d (RADIANCE) on rpict pictures, ${res}x${res}:"
    echo "# rpict $render"
    echo "# sky view Ev(lx) DGP UGP view-options"
} >"$tmp/goldens.txt"
for sky in clear overcast; do
    (cd "$root" && oconv -f examples/reference_office/office.rad "crates/live/tests/golden/$sky.rad") >"$tmp/$sky.oct"
    for v in "${views[@]}"; do
        name=${v%% *}
        view=${v#* }
        # Both views share the sky's ambient cache (irradiance does not depend on the view).
        # shellcheck disable=SC2086
        rpict $render $view -x "$res" -y "$res" -af "$tmp/$sky.amb" "$tmp/$sky.oct" >"$tmp/$sky-$name.hdr"
        # -d: the detailed output; its last line names the fields before the colon:
        # dgp,av_lum,E_v,... with ugp the 15th.
        evalglare -d "$tmp/$sky-$name.hdr" >"$tmp/$sky-$name.txt"
        line=$(grep '^dgp,av_lum,E_v,' "$tmp/$sky-$name.txt" | tail -n 1 | cut -d: -f2)
        [ -n "$line" ] || { cat "$tmp/$sky-$name.txt" >&2; exit 1; }
        # shellcheck disable=SC2086
        set -- $line
        echo "$sky $name $3 $1 ${15} $view" | tee -a "$tmp/goldens.txt"
    done
done
cp "$tmp/goldens.txt" "$out"
