#!/usr/bin/env bash
# The irradiance cache on dense sensor grids (issue 20, item 2): 1219 upward sensors at desk
# height (23 x 53, 0.15 m apart) in three validation rooms (the side-lit office under the clear
# sky with sun and under the overcast sky, and the office split by a translucent partition),
# `rtrace -I` at -ab 5 -ad 1024 -as 256 -ar 256 -lw 1e-4 and -aa 0.2, 0.1, 0.05: RADIANCE 6.0a's
# lazy cache (`-n 2`, two runs: its processes share records in whatever order they finish, so
# runs differ) and daylit (seeds 1 and 2), in one run of this script. Error: mean absolute
# relative error (MARD), mean relative error (bias) and 95th percentile of illuminance per
# sensor, against a reference made without a cache (daylit -ab 5 -ad 8192 -as 0 -aa 0 -lw 1e-6,
# two seeds averaged; the script prints the two seeds' MARD against each other as its noise;
# daylit's uncached estimate agrees with RADIANCE's converged golden of the 32 validation
# sensors to +0.01 % mean). About 20 minutes on 2 cores.
#   DAYLIT=path/to/daylit bash bench/cache_dense_grid.sh   (another build, e.g. a branch's)
#   ROOMS="07_office_clear_sun" AAS="0.1" bash bench/cache_dense_grid.sh   (a subset)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
if [ -z "${DAYLIT:-}" ]; then cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"; fi
daylit="${DAYLIT:-$here/target/release/daylit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "
for i in range(23):
    for j in range(53):
        print('%.2f %.2f 0.8 0 0 1' % (0.15 + 0.15 * i, 0.15 + 0.15 * j))" > "$tmp/grid.pts"
direct="-h -I+ -ov -lr -10 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0"
lux() { awk '{ print 179 * (0.265 * $1 + 0.670 * $2 + 0.065 * $3) }'; }
secs() { local t0=$(date +%s.%N); "$@"; echo "$(date +%s.%N) - $t0" | bc; }
stats() {  # name file seconds
    python3 - "$1" "$2" "$tmp/ref" "$3" <<'PY'
import sys
name, f, ref, t = sys.argv[1:5]
g = [float(x) for x in open(ref)]
v = [float(x) for x in open(f)]
e = [a / b - 1 for a, b in zip(v, g)]
a = sorted(abs(x) for x in e)
print(f"{name:34s} {float(t):7.2f} s  MARD {100 * sum(a) / len(a):5.2f} %  bias {100 * sum(e) / len(e):+5.2f} %  p95 {100 * a[int(0.95 * len(a))]:5.2f} %")
PY
}
for room in ${ROOMS:-07_office_clear_sun 06_office_overcast 09_translucent_partition}; do
    cd "$here/validation/scenes/$room"
    echo "== $room"
    oconv -f sky.rad scene.rad > "$tmp/scene.oct"
    for s in 1 2; do
        "$daylit" rtrace $direct -ab 5 -ad 8192 -as 0 -aa 0 -lw 1e-6 -seed "1$s" sky.rad scene.rad \
            < "$tmp/grid.pts" | lux > "$tmp/ref$s"
    done
    paste "$tmp/ref1" "$tmp/ref2" | awk '{ print ($1 + $2) / 2 }' > "$tmp/ref"
    python3 - "$tmp/ref1" "$tmp/ref2" <<'PY'
import sys
a, b = ([float(x) for x in open(p)] for p in sys.argv[1:3])
print(f"reference noise: its two seeds differ by MARD {100 * sum(abs(x / y - 1) for x, y in zip(a, b)) / len(a):.2f} % (the average of the two: about {100 * sum(abs(x / y - 1) for x, y in zip(a, b)) / len(a) / 2:.2f} %)")
PY
    for aa in ${AAS:-0.2 0.1 0.05}; do
        opts="-ab 5 -ad 1024 -as 256 -aa $aa -ar 256 -lw 1e-4"
        echo "options: $opts, 1219 sensors, 2 threads"
        for run in 1 2; do
            t=$(secs sh -c "rtrace $direct $opts -n 2 -u+ '$tmp/scene.oct' < '$tmp/grid.pts' > '$tmp/rad.txt'")
            lux < "$tmp/rad.txt" > "$tmp/rad"
            stats "RADIANCE lazy cache, run $run" "$tmp/rad" "$t"
        done
        for s in 1 2; do
            t=$(secs sh -c "'$daylit' rtrace $direct $opts -seed $s sky.rad scene.rad < '$tmp/grid.pts' > '$tmp/d$s.txt'")
            lux < "$tmp/d$s.txt" > "$tmp/d$s"
            stats "daylit cache, seed $s" "$tmp/d$s" "$t"
        done
    done
done
