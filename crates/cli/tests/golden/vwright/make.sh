#!/usr/bin/env bash
# Regenerates expected.txt: RADIANCE's vwright (absent from pyradiance's RADIANCE 6.0a; built
# from RADIANCE's public source by scripts/build-radiance-extras.sh) on every line of
# cases.txt (its arguments; a line starting with `<` reads the named file on standard input
# instead). Each case's block: `### N rc=CODE`, then what it printed on standard output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/build-radiance-extras.sh" "$work"
cd "$here"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    set +e
    if [[ $line == "<"* ]]; then
        read -r _ file rest <<< "$line"
        # shellcheck disable=SC2086
        out=$("$work/vwright" $rest < "$file" 2> /dev/null)
    else
        # shellcheck disable=SC2086
        out=$("$work/vwright" $line < /dev/null 2> /dev/null)
    fi
    rc=$?
    set -e
    printf '### %d rc=%d\n%s\n' "$n" "$rc" "$out"
done < cases.txt > expected.txt
