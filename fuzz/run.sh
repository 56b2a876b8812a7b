#!/bin/sh
# Runs one fuzz target with the settings used for the recorded runs (see README.md).
# Usage (from anywhere): sh fuzz/run.sh <scene_text|scene_archive|cal_text|radiance_binary> [seconds]
# Needs cargo-fuzz (cargo install cargo-fuzz); works on stable through RUSTC_BOOTSTRAP=1.
set -eu
cd "$(dirname "$0")"
t=$1
secs=${2:-480}
case $t in
  scene_text|scene_archive) dict=dict/scene.dict ;;
  cal_text) dict=dict/cal.dict ;;
  radiance_binary) dict= ;;
  *) echo "unknown target $t" >&2; exit 2 ;;
esac
[ -d corpus/$t ] || sh ./seed.sh
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-fuzz} RUSTC_BOOTSTRAP=1
mkdir -p logs
# -fork=1 with -ignore_*: one worker process at a time, keeps going after a crash/timeout/OOM
# so that one run collects them all (artifacts/<target>/).
exec cargo fuzz run "$t" corpus/$t -- ${dict:+-dict=$dict} -max_total_time="$secs" -timeout=5 \
    -rss_limit_mb=2048 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
