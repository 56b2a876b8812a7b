#!/usr/bin/env bash
# Sky-matrix benchmark (issue 4): daylit gendaymtx against RADIANCE 6.0a gendaymtx on the
# Greensboro TMY3 year (examples/weather), in one run, at -m 1 and -m 4, float output to a
# file and the computation alone (-A: one averaged column). Prints the best of 3 times and
# the ratio. (Agreement per patch and hour is asserted by crates/sky/tests/gendaymtx.rs.)
# Usage: bench/sky.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# TMY3 -> WEA (RADIANCE's gendaymtx reads WEA; daylit reads the TMY3 file itself).
awk -F, 'NR==1 { printf "place gso\nlatitude %s\nlongitude %s\ntime_zone %d\nsite_elevation %s\nweather_data_file_units 1\n", $5, -$6, -15*$4, $7; next }
         NR==2 { next }
         { split($1, d, "/"); split($2, t, ":"); printf "%d %d %.3f %d %d\n", d[1], d[2], t[1] - 0.5, $8, $11 }' \
  "$here/examples/weather/723170TYA.CSV" > "$tmp/gso.wea"
best() { # command... -> best wall time of 3 runs, seconds
  local b=999
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
    b=$(echo "$e - $s" | bc -l | awk -v b="$b" '{print ($1 < b) ? $1 : b}')
  done
  echo "$b"
}
printf "%-28s %10s %10s %8s\n" "case" "RADIANCE s" "daylit s" "ratio"
for opts in "-m 1 -of" "-m 4 -of" "-m 4 -A"; do
  tr=$(best sh -c "$RADIANCE_BIN/gendaymtx $opts $tmp/gso.wea > $tmp/r.mtx")
  td=$(best sh -c "$daylit gendaymtx $opts $tmp/gso.wea > $tmp/d.mtx")
  printf "%-28s %10.3f %10.3f %7.1fx\n" "gendaymtx $opts" "$tr" "$td" "$(echo "$tr / $td" | bc -l)"
done
