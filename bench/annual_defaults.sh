#!/usr/bin/env bash
# Time against error of `daylit annual` and of RADIANCE's two-phase pipeline (issue 20, item 4),
# one run, on the three rooms of the annual validation (32 sensors each, Greensboro TMY3 year).
# References converged in samples and bounces (validation/annual/make_converged.sh):
#   five-phase  E = DC·S − DC_d·S_sun + E_sun, what daylit annual computes (the sun a point);
#   two-phase   E = DC·S, what rfluxmtx | dctimestep computes (the sun spread over its patches).
# Each tool is measured against the reference of its own method, and RADIANCE's two-phase also
# against the five-phase one (the sun where it is). Error: per-sensor mean illuminance over the
# occupied hours (8-18 h), mean absolute relative (MARD), and DA300 mean absolute.
# Usage: bench/annual_defaults.sh [SEEDS]   (daylit seeds per setting, default 2)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
py="$here/.venv-ref/bin/python"
seeds=${1:-2}
gold="$here/validation/annual/goldens"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/validation/annual/sky_sender.rad" "$tmp/sender.rad"
gendaymtx -m 1 -of "$gold/gso.wea" > "$tmp/sky.mtx" 2>/dev/null
gendaymtx -m 1 -d -of "$gold/gso.wea" > "$tmp/sun.mtx" 2>/dev/null
now() { date +%s.%N; }
# Lux of a daylight-coefficient body file ($1, gzipped or not) times sky $2, as text rows.
year() {
  { echo "#?RADIANCE"; echo "NROWS=32"; echo "NCOLS=146"; echo "NCOMP=3"; echo "FORMAT=ascii"; echo; zcat -f "$1"; } > "$tmp/dc.txt"
  dctimestep "$tmp/dc.txt" "$2" | rmtxop -fa -c 47.435 119.93 11.635 - | getinfo -
}
# error ROOM KIND FILE: errors of FILE (a sensors.csv of daylit annual, or a text year) against
# the ROOM's KIND reference ("five" or "two").
error() { "$py" "$here/bench/annual_error.py" "$tmp/$1" "$gold/$1/sun.f32.gz" "$gold/gso.wea" "$2" "$3"; }
printf "| room | program, settings | seconds | against | MARD | p95 | DA300 MAE |\n|---|---|---|---|---|---|---|\n"
for room in 06_office_overcast 08_lightshelf_mirror 09_translucent_partition; do
  mkdir -p "$tmp/$room"
  year "$gold/$room/dc_converged.txt.gz" "$tmp/sky.mtx" > "$tmp/$room/two.txt"
  year "$gold/$room/dc_direct.txt.gz" "$tmp/sun.mtx" > "$tmp/$room/direct.txt"
  cd "$here/validation/scenes/$room"
  for s in "--ab 5 --ad 1024 --lw 1e-4" "--ab 10 --ad 2048 --lw 1e-5" "--ab 10 --ad 4096 --lw 1e-5" "--ab 10 --ad 8192 --lw 1e-5"; do
    for seed in $(seq 1 "$seeds"); do
      rm -rf "$tmp/out"
      t0=$(now)
      "$daylit" annual scene.rad --sensors sensors.pts --weather "$gold/gso.wea" $s --seed "$seed" -o "$tmp/out" > /dev/null
      t1=$(now)
      printf "| %s | daylit annual %s --seed %s | %.2f | five-phase | %s |\n" "$room" "$s" "$seed" "$(echo "$t1 - $t0" | bc)" "$(error "$room" five "$tmp/out/sensors.csv")"
    done
  done
  for s in "-ab 5 -ad 1024 -lw 1e-4" "-ab 10 -ad 4096 -lw 1e-5 -lr -14" "-ab 10 -ad 16384 -lw 1e-5 -lr -14" "-ab 10 -ad 65536 -lw 1e-6 -lr -14"; do
    t0=$(now)
    rfluxmtx -n 2 -I+ -y 32 -faf $s - "$tmp/sender.rad" scene.rad < sensors.pts > "$tmp/dc.mtx"
    dctimestep "$tmp/dc.mtx" "$tmp/sky.mtx" | rmtxop -fa -c 47.435 119.93 11.635 - | getinfo - > "$tmp/r.txt"
    t1=$(now)
    for ref in two five; do
      printf "| %s | RADIANCE two-phase %s | %.2f | %s-phase | %s |\n" "$room" "$s" "$(echo "$t1 - $t0" | bc)" "$ref" "$(error "$room" "$ref" "$tmp/r.txt")"
    done
  done
done
