#!/usr/bin/env bash
# Regenerates PROGRAM/out/ for tests/radiance_utilities.rs: RADIANCE's PROGRAM on every line of
# PROGRAM/cases.txt (its arguments; a line starting with `< FILE` reads FILE on standard
# input), run by its name from that folder. Case N's standard output goes to out/N, its exit
# code to out/N.rc. RADIANCE is pyradiance's 6.0a (scripts/setup-reference.sh); programs its
# bin lacks (vwright, rcollate) are built from RADIANCE's public source by
# scripts/build-radiance-extras.sh (RADIANCE_SRC, else a shallow clone).
# Usage: make_cases.sh PROGRAM
set -euo pipefail
prog=$1
here=$(cd "$(dirname "$0")/$prog" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -x "$RADIANCE_BIN/$prog" ]; then
    bash "$root/scripts/build-radiance-extras.sh" "$work"
    export PATH="$work:$PATH"
fi
cd "$here"
rm -rf out
mkdir out
n=0
while IFS= read -r line; do
    n=$((n + 1))
    set +e
    if [[ $line == "<"* ]]; then
        read -r _ file rest <<< "$line"
        # shellcheck disable=SC2086
        "$prog" $rest < "$file" > "out/$n" 2> /dev/null
    else
        # shellcheck disable=SC2086
        "$prog" $line < /dev/null > "out/$n" 2> /dev/null
    fi
    echo $? > "out/$n.rc"
    set -e
done < cases.txt
