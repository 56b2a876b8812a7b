#!/usr/bin/env bash
# End-to-end test of `daylit live` in headless Chromium (playwright-core driving Debian's
# chromium; no browser download). Installs what is missing (apt chromium, npm ci in e2e/),
# builds daylit (test profile), serves the bundled office at a small size on a free port, runs
# e2e/live.test.js, and always stops the server.
#   DAYLIT_SCREENSHOT=docs/live.png bash scripts/e2e-live.sh   # also saves a screenshot
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

source scripts/e2e-browser.sh e2e-live

# The test profile's binary (cargo test has built it already; its transport is optimised):
# CI then needs no release build. DAYLIT_PROFILE=release uses the release one.
profile=${DAYLIT_PROFILE:-debug}
if [ "$profile" = release ]; then cargo build --release -p daylit; else cargo build -p daylit; fi
bin="$root/target/$profile/daylit"

log=$(mktemp)
"$bin" live examples/reference_office/office.rad \
    -vta -vh 180 -vv 180 -vp 1.8 4.5 1.2 -vd 0 -1 0 -vu 0 0 1 -x 128 -y 128 \
    --weather examples/weather/723170TYA.CSV --time '03-21 12:00' --port 0 >"$log" 2>&1 &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -f "$log"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 300); do
    url=$(grep -o 'http://[0-9.:]*/' "$log" | head -n 1 || true)
    [ -n "$url" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "e2e-live: daylit live did not start:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done
[ -n "$url" ] || { echo "e2e-live: no address from daylit live" >&2; cat "$log" >&2; exit 1; }
echo "e2e-live: server at $url" >&2

cd e2e
DAYLIT_URL="$url" node --test live.test.js
