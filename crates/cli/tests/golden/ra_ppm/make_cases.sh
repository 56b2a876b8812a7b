#!/usr/bin/env bash
# Regenerates out/ for tests/radiance_utilities.rs (ra_ppm_matches_radiance): RADIANCE 6.0a's
# ra_ppm (scripts/setup-reference.sh) on every line of cases.txt (its arguments; a line
# starting with `< FILE` reads FILE on standard input), run by name in a fresh copy of inputs/.
# Case N's standard output goes to out/N, its exit code to out/N.rc, every file it wrote to
# out/N.d/. inputs/: pic.hdr, sky.hdr and exposed.hdr as for ra_tiff; rgb.ppm,
# grey.pgm, wide.ppm and wide_ascii.pgm are RADIANCE's ra_ppm output of them, small100.ppm a
# hand-written P3 with a comment and a maximum of 100.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
cd "$here"
rm -rf out
mkdir out
n=0
while IFS= read -r line; do
    n=$((n + 1))
    work=$(mktemp -d)
    cp -r inputs/. "$work"
    set +e
    if [[ $line == "<"* ]]; then
        read -r _ file rest <<< "$line"
        # shellcheck disable=SC2086
        (cd "$work" && ra_ppm $rest < "$file" > "$here/out/$n" 2> /dev/null)
    else
        # shellcheck disable=SC2086
        (cd "$work" && ra_ppm $line < /dev/null > "$here/out/$n" 2> /dev/null)
    fi
    echo $? > "out/$n.rc"
    set -e
    for f in "$work"/out.*; do
        [ -e "$f" ] || continue
        mkdir -p "out/$n.d"
        cp "$f" "out/$n.d/"
    done
    rm -rf "$work"
done < cases.txt
