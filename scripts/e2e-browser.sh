# Sourced by the browser tests (e2e-live.sh, e2e-report.sh) from the repository root: installs
# what headless Chromium testing needs when missing (Debian's chromium, the e2e/ npm packages
# with playwright-core) and exports CHROMIUM. $1 names the caller in messages.
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
    echo "$1: installing chromium" >&2
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
export CHROMIUM=${CHROMIUM:-$(command -v chromium)}
if [ ! -d e2e/node_modules/playwright-core ]; then
    (cd e2e && npm ci --no-audit --no-fund)
fi
