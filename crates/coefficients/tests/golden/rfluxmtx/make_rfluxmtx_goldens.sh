#!/usr/bin/env bash
# Regenerates the rfluxmtx receiver goldens in this directory with RADIANCE 6.0a's own
# rfluxmtx: for each receiver file <case>.rad, `rfluxmtx -v - <case>.rad` (pass-through mode,
# no rays) prints the rcontrib command it runs; <case>.args holds the receiver part of that
# command (after "-c 1", before the octree), one argument per line. sky.bj.args is the same
# for `rfluxmtx -bj 0.3`. For err_<case>.rad, <case>.err holds rfluxmtx's (or rcontrib's)
# exit status and messages.
# Usage: crates/coefficients/tests/golden/rfluxmtx/make_rfluxmtx_goldens.sh   (needs RADIANCE; see scripts/setup-reference.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${RADIANCE_BIN:-}" ]; then
  eval "$("$here/../../../../../scripts/setup-reference.sh")"
fi
export RAYPATH PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here"/*.rad "$tmp"/
cd "$tmp"

# The receiver arguments of the rcontrib command line printed by rfluxmtx -v.
receiver_args() {
  python3 -c '
import shlex, sys
# Read everything (stopping early would break the pipe under rcontrib).
lines = [l for l in sys.stdin.read().splitlines() if ": running: rcontrib " in l]
if not lines:
    sys.exit("no rcontrib command printed")
a = shlex.split(lines[0].split(": running: ", 1)[1])
i = a.index("-c")
print("\n".join(a[i + 2:-1]))
'
}

for f in *.rad; do
  case=${f%.rad}
  case $case in
    err_*)
      set +e
      rfluxmtx -v - "$f" < /dev/null > /dev/null 2> "$case.stderr"
      rc=$?
      set -e
      { echo "exit $rc"; grep -v ": running: " "$case.stderr" || true; } > "$here/${case#err_}.err"
      ;;
    *)
      # (rcontrib itself may then stop on the octree: only the command matters here.)
      { rfluxmtx -v - "$f" < /dev/null 2>&1 > /dev/null || true; } | receiver_args > "$here/$case.args"
      ;;
  esac
  echo "wrote $case"
done
{ rfluxmtx -v -bj 0.3 - sky.rad < /dev/null 2>&1 > /dev/null || true; } | receiver_args > "$here/sky.bj.args"
echo "wrote sky.bj"
