#!/usr/bin/env bash
# Glare benchmark (issue 6): daylit evalglare against RADIANCE 6.0a's evalglare 3.06 on a
# 1000 x 1000 angular fisheye, in one run. The pictures are golden pictures rendered by rpict
# (validation/glare/goldens: the office with the low sun in view, and the bright overcast sky
# outdoors) enlarged with pfilt. Prints the best of 5 wall times (daylit on all cores and on one
# thread), the ratios to evalglare, and whether the two programs printed the same lines.
# Usage: bench/glare.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g="$here/validation/glare/goldens"
"$RADIANCE_BIN/pfilt" -1 -x 1000 -y 1000 "$g/10_office_lowsun_vta/picture.hdr" > "$tmp/lowsun.hdr"
"$RADIANCE_BIN/pfilt" -1 -x 1000 -y 1000 "$g/05_outdoor_overcast_vta/picture.hdr" > "$tmp/overcast.hdr"
best() { # command... -> best wall time of 5 runs, seconds
  local b=999
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
    b=$(echo "$e - $s" | bc -l | awk -v b="$b" '{print ($1 < b) ? $1 : b}')
  done
  echo "$b"
}
echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-24s %11s %9s %7s %11s %7s %s\n" "case (1000 x 1000 -vta)" "evalglare s" "daylit s" "ratio" "1 thread s" "ratio" "output"
for pic in lowsun overcast; do
  for opts in "" "-d"; do
    tr=$(best sh -c "$RADIANCE_BIN/evalglare $opts $tmp/$pic.hdr")
    td=$(best sh -c "$daylit evalglare $opts $tmp/$pic.hdr")
    t1=$(best sh -c "RAYON_NUM_THREADS=1 $daylit evalglare $opts $tmp/$pic.hdr")
    "$RADIANCE_BIN/evalglare" $opts "$tmp/$pic.hdr" > "$tmp/r.txt" 2> /dev/null
    "$daylit" evalglare $opts "$tmp/$pic.hdr" > "$tmp/d.txt" 2> /dev/null
    same=$(cmp -s "$tmp/r.txt" "$tmp/d.txt" && echo identical || echo DIFFERENT)
    printf "%-24s %11.3f %9.3f %6.1fx %11.3f %6.1fx %s\n" "$pic ${opts:-(default)}" "$tr" "$td" \
      "$(echo "$tr / $td" | bc -l)" "$t1" "$(echo "$tr / $t1" | bc -l)" "$same"
  done
done
