#!/usr/bin/env bash
# Regenerates out/: RADIANCE 6.0a's genbox (pyradiance's, from scripts/setup-reference.sh) on
# every line of cases.txt (its arguments). Case N's standard output goes to out/N, its exit
# code to out/N.rc. (Rounded edges in segments and -o, which RADIANCE writes through its OBJ
# library, are refused by daylit and tested apart.)
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
    set +e
    # shellcheck disable=SC2086
    genbox $line < /dev/null > "out/$n" 2> /dev/null
    echo $? > "out/$n.rc"
    set -e
done < cases.txt
