#!/usr/bin/env bash
# Regenerates out/: RADIANCE's vwright (absent from pyradiance's RADIANCE 6.0a; built
# from RADIANCE's public source by scripts/build-radiance-extras.sh) on every line of
# cases.txt (its arguments; a line starting with `<` reads the named file on standard input
# instead). Case N's standard output goes to out/N, its exit code to out/N.rc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/build-radiance-extras.sh" "$work"
export PATH="$work:$PATH"
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
        vwright $rest < "$file" > "out/$n" 2> /dev/null
    else
        # shellcheck disable=SC2086
        vwright $line < /dev/null > "out/$n" 2> /dev/null
    fi
    echo $? > "out/$n.rc"
    set -e
done < cases.txt
