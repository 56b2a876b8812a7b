#!/usr/bin/env bash
# dctimestep benchmark: daylit dctimestep against RADIANCE 6.0a dctimestep, in one run, on the
# same inputs: a random-ish 10^4 sensors × 146 patches RGB float daylight-coefficient matrix and
# the 146 × 8760 float sky matrix of the Greensboro TMY3 year (daylit gendaymtx -m 1 -of).
# The 10^4 × 8760 RGB float result (1.05 GB) is written to a file. RADIANCE once (it is slow),
# daylit best of 3. Then the library's annual-illuminance helper (lux, one component) alone.
# (Agreement with RADIANCE is asserted by crates/matrix/tests and crates/cli/tests/dctimestep.rs.)
# Usage: bench/dctimestep.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$daylit" gendaymtx -m 1 -of "$here/examples/weather/723170TYA.CSV" > "$tmp/sky.mtx" 2> /dev/null
python3 - "$tmp/dc.mtx" <<'PY'
import array, random, sys
rows, cols = 10000, 146
random.seed(1)
head = "#?RADIANCE\nrandom daylight coefficients\nNROWS=%d\nNCOLS=%d\nNCOMP=3\nBigEndian=%d\nFORMAT=float\n\n" % (
    rows, cols, sys.byteorder == "big")
vals = array.array("f", (random.random() * 1e-3 for _ in range(rows * cols * 3)))
with open(sys.argv[1], "wb") as f:
    f.write(head.encode())
    vals.tofile(f)
PY
secs() { # command... -> wall time in seconds
  local s e
  s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
tr=$(secs sh -c "$RADIANCE_BIN/dctimestep -of $tmp/dc.mtx $tmp/sky.mtx > $tmp/r.mtx")
td=999
for _ in 1 2 3; do
  t=$(secs sh -c "$daylit dctimestep -of $tmp/dc.mtx $tmp/sky.mtx > $tmp/d.mtx")
  td=$(echo "$t $td" | awk '{print ($1 < $2) ? $1 : $2}')
done
cmp -s <(tail -c 4000000 "$tmp/r.mtx") <(tail -c 4000000 "$tmp/d.mtx") && same="identical last 4 MB" || same="last 4 MB differ (rounding)"
printf "%-44s %10s %10s %8s\n" "case" "RADIANCE s" "daylit s" "ratio"
printf "%-44s %10.2f %10.2f %7.1fx   (%s)\n" "dctimestep -of 10^4 x 146 x 8760 RGB" "$tr" "$td" "$(echo "$tr / $td" | bc -l)" "$same"
DAYLIT_BENCH_DC="$tmp/dc.mtx" DAYLIT_BENCH_SKY="$tmp/sky.mtx" \
  cargo test --release -q -p daylit-matrix --manifest-path "$here/Cargo.toml" --test speed -- --ignored --nocapture 2>&1 | grep '^speed'
