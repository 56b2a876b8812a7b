#!/usr/bin/env bash
# Regenerates the RADIANCE 6.0a goldens of RADIANCE's own test scenes (cases.txt) with the
# reference install (bash scripts/setup-reference.sh). Per case: RADIANCE's picture (rpict, every
# pixel traced at its centre) and its mean, and for cases marked `sensors` the irradiance at the
# nine floor sensors (rtrace -I). Settings: SETTINGS below, at RES x RES pixels.
# Usage: make_goldens.sh [case ...]   (default: every case whose expectation is `match`)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$(bash "$here/../../scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH" RAYPATH="$here/scenes:$RAYPATH"
source "$here/settings.sh"
mkdir -p "$here/goldens"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here/scenes"
# Reads cases.txt into NAME, FILES (array), VIEW, OPTS, SENSORS, EXPECT for case $1.
load_case() {
    NAME=$1 VIEW="" OPTS="" SENSORS="" EXPECT=""
    FILES=()
    local in=0 line more
    while IFS= read -r line; do
        case "$line" in
            "case $NAME") in=1 ;;
            case\ *) in=0 ;;
            files\ *) [ $in = 1 ] && read -r -a more <<< "${line#files }" && FILES+=("${more[@]}") ;;
            file\ *) [ $in = 1 ] && FILES+=("${line#file }") ;;
            view\ *) [ $in = 1 ] && VIEW=${line#view } ;;
            opts\ *) [ $in = 1 ] && OPTS=${line#opts } ;;
            sensors) [ $in = 1 ] && SENSORS="$here/sensors.txt" ;;
            sensors\ *) [ $in = 1 ] && SENSORS="$here/scenes/${line#sensors }" ;;
            expect\ *) [ $in = 1 ] && EXPECT=${line#expect } ;;
        esac
    done < "$here/cases.txt"
    true
}
cases=("$@")
if [ ${#cases[@]} = 0 ]; then
    mapfile -t cases < <(awk '/^case /{n=$2} /^expect match/{print n}' "$here/cases.txt")
fi
for c in "${cases[@]}"; do
    load_case "$c"
    oconv "${FILES[@]}" > "$tmp/$c.oct"
    # shellcheck disable=SC2086
    rpict $SETTINGS $PICTURE $OPTS -x "$RES" -y "$RES" $VIEW "$tmp/$c.oct" > "$here/goldens/$c.hdr"
    pvalue -h -H -d "$here/goldens/$c.hdr" \
        | awk '{r += $1; g += $2; b += $3; n++} END {printf "%.6e %.6e %.6e\n", r/n, g/n, b/n}' \
        > "$here/goldens/$c.mean"
    if [ -n "$SENSORS" ]; then
        # shellcheck disable=SC2086
        rtrace -h -I $SETTINGS $OPTS "$tmp/$c.oct" < "$SENSORS" > "$here/goldens/$c.sensors"
    fi
    echo "$c: $(cat "$here/goldens/$c.mean")" >&2
done
echo "RADIANCE: $(rtrace -version 2>&1 | head -1); $RES x $RES; $SETTINGS $PICTURE" > "$here/goldens/SETTINGS.txt"
