#!/usr/bin/env bash
# Regenerates out/ for tests/radiance_utilities.rs (ies2rad_matches_radiance): RADIANCE 6.0a's
# ies2rad (scripts/setup-reference.sh) on every line of cases.txt (its arguments; a line
# starting with `< FILE` reads FILE on standard input), run by name in a fresh copy of inputs/
# (with the folders lib/source/ies and local made). Case N's standard output goes to out/N, its
# exit code to out/N.rc, and every file it wrote to out/N.d/.
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
    mkdir -p "$work/lib/source/ies" "$work/local"
    (cd "$work" && find . -type f | sort) > "$work.before"
    set +e
    if [[ $line == "<"* ]]; then
        read -r _ file rest <<< "$line"
        # shellcheck disable=SC2086
        (cd "$work" && ies2rad $rest < "$file" > "$here/out/$n" 2> /dev/null)
    else
        # shellcheck disable=SC2086
        (cd "$work" && ies2rad $line < /dev/null > "$here/out/$n" 2> /dev/null)
    fi
    echo $? > "out/$n.rc"
    set -e
    (cd "$work" && find . -type f | sort) | comm -13 "$work.before" - | while read -r f; do
        mkdir -p "out/$n.d/$(dirname "$f")"
        cp "$work/$f" "out/$n.d/$f"
    done
    rm -rf "$work" "$work.before"
done < cases.txt

# Tracing the converted luminaires: trace/scene.rad places four of them (tilt data from the
# IES file and from a file of its own, type B photometry, a sphere) over a floor; RADIANCE's
# direct irradiance at trace/sensors.pts goes to out/trace.txt.
work=$(mktemp -d)
cp inputs/*.ies inputs/*.dat trace/scene.rad "$work"
(cd "$work" && ies2rad -t default downlight_tilt.ies ellipse_tiltfile.ies roadway_typeB.ies globe_2002.ies 2> /dev/null \
    && oconv scene.rad > scene.oct && rtrace -h -I -ab 0 -ds .05 scene.oct) < trace/sensors.pts > out/trace.txt
rm -rf "$work"
