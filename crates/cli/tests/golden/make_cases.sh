#!/usr/bin/env bash
# Regenerates PROGRAM/out/ for tests/radiance_utilities.rs and tests/file_converters.rs:
# RADIANCE's PROGRAM on every line of PROGRAM/cases.txt (its arguments; a line starting with
# `< FILE` reads FILE on standard input), run by its name. Case N's standard output goes to
# out/N, its exit code to out/N.rc.
# Where PROGRAM/inputs/ exists, each case runs in a fresh copy of it (with the folders named in
# PROGRAM/dirs.txt made), and every file it writes goes to out/N.d/; else it runs in PROGRAM/.
# RADIANCE is pyradiance's 6.0a (scripts/setup-reference.sh); programs its bin lacks (vwright,
# rcollate) are built from RADIANCE's public source by scripts/build-radiance-extras.sh
# (RADIANCE_SRC, else a shallow clone). PROGRAM/make_more.sh, where present, runs after.
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
    dir=$here
    if [ -d inputs ]; then
        dir=$work/case
        rm -rf "$dir"
        cp -r inputs "$dir"
        if [ -f dirs.txt ]; then
            while read -r d; do mkdir -p "$dir/$d"; done < dirs.txt
        fi
        (cd "$dir" && find . -type f | sort) > "$work/before"
    fi
    set +e
    if [[ $line == "<"* ]]; then
        read -r _ file rest <<< "$line"
        # shellcheck disable=SC2086
        (cd "$dir" && "$prog" $rest < "$file" > "$here/out/$n" 2> /dev/null)
    else
        # shellcheck disable=SC2086
        (cd "$dir" && "$prog" $line < /dev/null > "$here/out/$n" 2> /dev/null)
    fi
    echo $? > "out/$n.rc"
    set -e
    if [ -d inputs ]; then
        (cd "$dir" && find . -type f | sort) | comm -13 "$work/before" - | while read -r f; do
            mkdir -p "out/$n.d/$(dirname "$f")"
            cp "$dir/$f" "out/$n.d/$f"
        done
    fi
done < cases.txt
if [ -f make_more.sh ]; then
    bash make_more.sh
fi
