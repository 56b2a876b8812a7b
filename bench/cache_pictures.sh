#!/usr/bin/env bash
# The irradiance cache in pictures (issue 20, item 2): the 128 x 128 fisheye of three validation
# rooms (view.vf: the side-lit office under the clear sky with sun and under the overcast sky,
# and the office split by a translucent partition), rpict at RADIANCE's picture defaults for the
# cache (-ab 4 -ad 512 -as 128 -aa 0.2 -ar 64) with the direct settings of the goldens, RADIANCE
# 6.0a's lazy cache (two runs) against daylit (seeds 1-3), in one run. Error: Tregenza-patch
# MBE_rel and RMSE_rel (`daylit compare`) against the converged RADIANCE picture of
# validation/goldens/NN/view.hdr (-aa 0, several runs averaged). About 2 minutes on 2 cores.
#   DAYLIT=path/to/daylit bash bench/cache_pictures.sh
#   OPTS="-ab 4 -ad 512 -as 128 -aa 0.1 -ar 64" bash bench/cache_pictures.sh   (other options)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
if [ -z "${DAYLIT:-}" ]; then cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"; fi
daylit="${DAYLIT:-$here/target/release/daylit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts=${OPTS:-"-ab 4 -ad 512 -as 128 -aa 0.2 -ar 64"}
base="-x 128 -y 128 -pa 1 -ps 1 -pj 0 -pt 0 -lr -10 -lw 1e-5 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0"
err() { "$daylit" compare "$1" "$2" 2>/dev/null | grep -E '^(MBE_rel|RMSE_rel)' | tr '\n' ' '; }
secs() { local t0=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $t0" | bc; }
echo "options: $opts $base"
for room in ${ROOMS:-07_office_clear_sun 06_office_overcast 09_translucent_partition}; do
    cd "$here/validation/scenes/$room"
    echo "== $room"
    gold="$here/validation/goldens/$room/view.hdr"
    oconv -f sky.rad scene.rad > "$tmp/scene.oct"
    for run in 1 2; do
        t=$(secs sh -c "rpict -vf view.vf $opts $base -u+ '$tmp/scene.oct' > '$tmp/r.hdr'")
        printf "%-28s %6.2f s  %s\n" "RADIANCE lazy cache, run $run" "$t" "$(err "$tmp/r.hdr" "$gold")"
    done
    for s in 1 2 3; do
        t=$(secs sh -c "'$daylit' rpict -vf view.vf $opts $base -seed $s sky.rad scene.rad > '$tmp/d.hdr'")
        printf "%-28s %6.2f s  %s\n" "daylit cache, seed $s" "$t" "$(err "$tmp/d.hdr" "$gold")"
    done
done
