#!/usr/bin/env bash
# The BSDF material (issue 22) against RADIANCE 6.0a, one run, same machine: rtrace -I at the
# fourteen sensors of crates/cli/tests/golden/bsdf_material (a room behind a window of Klems
# blinds, the same blinds as a tensor tree, a thickness proxy, an aBSDF pane) at -ab 1 -aa 0
# with AD ambient rays (default 262144). Prints user CPU seconds (one thread for daylit) and the
# error of each against the converged goldens of that test (RADIANCE at -ad 1048576): mean
# absolute relative error per sensor.
#   bash bench/bsdf.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
(cd "$root" && cargo build --release -p daylit >&2)
AD=${AD:-262144}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g=$root/crates/cli/tests/golden/bsdf_material
cp "$g"/*.rad "$g/sensors.pts" "$g/cases.txt" "$g/out.txt" "$work/"
for x in pyradiance-blinds pyradiance-blindsT3 frads-ec60; do
    gunzip -c "$root/crates/bsdf/tests/data/$x.xml.gz" > "$work/$x.xml"
done
mkdir "$work/bin"
"$root/target/release/daylit" install-links "$work/bin" > /dev/null
cd "$work"
export RAYPATH=".:$RAYPATH" RAYON_NUM_THREADS=1
lux() { awk '{printf "%s%.6g", (NR > 1 ? " " : ""), 179 * (.265 * $1 + .67 * $2 + .065 * $3)} END {print ""}'; }
cpu() { /usr/bin/time -f %U -o t.txt "$@"; }
printf '%-8s %-6s %12s %10s %12s %10s %7s\n' window job "RADIANCE s" "error" "daylit s" "error" speed-up
for win in blinds t3 thick abs; do
    PATH="$RADIANCE_BIN:$PATH" oconv -f sky.rad room.rad "win_$win.rad" > "$win.oct"
    want=$(awk -v w="$win" '$1 == w && $3 == 1 {print NR}' cases.txt)
    for job in aa0; do
        opts="-ab 1 -aa 0 -ad $AD -as 0 -lw 1e-7"
        # shellcheck disable=SC2086
        cpu "$RADIANCE_BIN/rtrace" -h -I $opts "$win.oct" < sensors.pts | lux > r.txt; tr=$(cat t.txt)
        # shellcheck disable=SC2086
        cpu bin/rtrace -h -I $opts sky.rad room.rad "win_$win.rad" < sensors.pts | lux > d.txt; td=$(cat t.txt)
        python3 - "$win" "$job" "$tr" "$td" "$want" <<'PY'
import sys
win, job, tr, td, want = sys.argv[1:6]
ref = [float(x) for x in open('out.txt').read().splitlines()[int(want) - 1].split()]
def err(f):
    v = [float(x) for x in open(f).read().split()]
    e = [abs(a - b) / b for a, b in zip(v, ref) if b > 1]
    return sum(e) / len(e) * 100
tr, td = float(tr), float(td)
print(f"{win:8} {job:6} {tr:12.2f} {err('r.txt'):9.2f}% {td:12.2f} {err('d.txt'):9.2f}% {tr / td:6.2f}x")
PY
    done
done
