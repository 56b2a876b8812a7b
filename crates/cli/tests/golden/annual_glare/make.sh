#!/usr/bin/env bash
# Regenerates goldens.txt for crates/cli/tests/annual_glare.rs: RADIANCE's evalglare on
# converged hour-by-hour rpict fisheye pictures of the reference office
# (examples/reference_office/office.rad), under gendaylit skies of the records of hours.wea
# (six hours of the Greensboro TMY3 year, examples/weather, mid-interval as epw2wea writes
# them), for two views: "window" looks south at the window (the sun is in view in winter),
# "side" looks east across the room with the window on its right. Only the numbers are kept.
#
#   export RADIANCE_BIN=.../pyradiance/bin RAYPATH=.:.../pyradiance/lib
#   bash crates/cli/tests/golden/annual_glare/make.sh [resolution]
#
# Default resolution 800 (0.23° pixels: the 0.533° sun covers about five).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
: "${RADIANCE_BIN:?set RADIANCE_BIN to the RADIANCE bin folder}"
export PATH="$RADIANCE_BIN:$PATH"
res=${1:-800}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Converged: a fine ambient cache shared by both views of an hour, four bounces.
render="-ab 4 -ad 1024 -as 512 -aa 0.1 -ar 256 -lw 1e-4 -ps 1 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 2"
views=(
    "window -vta -vh 180 -vv 180 -vp 1.2 2.0 1.2 -vd 0 -1 0 -vu 0 0 1"
    "side -vta -vh 180 -vv 180 -vp 2.4 3.0 1.2 -vd 1 0 0 -vu 0 0 1"
)
lat=$(awk '$1=="latitude"{print $2}' "$here/hours.wea")
lon=$(awk '$1=="longitude"{print $2}' "$here/hours.wea")
mer=$(awk '$1=="time_zone"{print $2}' "$here/hours.wea")
{
    echo "# Regenerate with make.sh. evalglare -d (RADIANCE 6.0a) on rpict -vta pictures, ${res}x${res}:"
    echo "# rpict $render"
    echo "# month day hour view Ev(lx) DGP UGP"
} >"$tmp/goldens.txt"
grep -E '^[0-9]' "$here/hours.wea" | while read -r m d h dn dh; do
    {
        gendaylit "$m" "$d" "$h" -a "$lat" -o "$lon" -m "$mer" -W "$dn" "$dh"
        printf 'skyfunc glow sky_glow 0 0 4 1 1 1 0\nsky_glow source sky 0 0 4 0 0 1 180\n'
        printf 'sky_glow source ground 0 0 4 0 0 -1 180\n'
    } >"$tmp/sky.rad"
    (cd "$root" && oconv examples/reference_office/office.rad "$tmp/sky.rad") >"$tmp/scene.oct"
    rm -f "$tmp/amb"
    for v in "${views[@]}"; do
        name=${v%% *}
        view=${v#* }
        # shellcheck disable=SC2086
        rpict $render $view -x "$res" -y "$res" -af "$tmp/amb" "$tmp/scene.oct" >"$tmp/pic.hdr"
        # -d: the last line names the fields before the colon: dgp,av_lum,E_v,... ugp 15th.
        evalglare -d "$tmp/pic.hdr" >"$tmp/eg.txt"
        line=$(grep '^dgp,av_lum,E_v,' "$tmp/eg.txt" | tail -n 1 | cut -d: -f2)
        [ -n "$line" ] || { cat "$tmp/eg.txt" >&2; exit 1; }
        # shellcheck disable=SC2086
        set -- $line
        echo "$m $d $h $name $3 $1 ${15}" | tee -a "$tmp/goldens.txt"
    done
done
cp "$tmp/goldens.txt" "$here/goldens.txt"
