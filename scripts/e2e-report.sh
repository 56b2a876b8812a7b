#!/usr/bin/env bash
# End-to-end test of `daylit annual`'s report.html in headless Chromium (playwright-core driving
# Debian's chromium, as e2e-live.sh does): runs `daylit annual` on the bundled reference office,
# opens annual/report.html from file:// with every network request refused, checks its sections
# and that its pictures loaded and are not blank, and saves a screenshot in the output folder
# (target/e2e-report, or $DAYLIT_E2E_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

source scripts/e2e-browser.sh e2e-report

# The test profile's binary (cargo test has built it already); DAYLIT_PROFILE=release uses the
# release one.
profile=${DAYLIT_PROFILE:-debug}
if [ "$profile" = release ]; then cargo build --release -p daylit; else cargo build -p daylit; fi
target=${CARGO_TARGET_DIR:-$root/target}
bin="$target/$profile/daylit"

out=${DAYLIT_E2E_OUT:-$target/e2e-report}
rm -rf "$out"
mkdir -p "$out"
# A 0.6 m grid keeps the annual run short in the test profile; the report is the same shape.
"$bin" annual examples/reference_office/office.rad --floor floor --spacing 0.6 \
    --weather examples/weather/723170TYA.CSV --json "$out/annual/annual.json" -o "$out/annual" \
    >"$out/annual.log" 2>&1 || { cat "$out/annual.log" >&2; exit 1; }
echo "e2e-report: $(grep -c . "$out/annual.log") lines from daylit annual; report at $out/annual/report.html" >&2

cd e2e
DAYLIT_REPORT="$out/annual/report.html" DAYLIT_SCREENSHOT_DIR="$out" node --test report.test.js
