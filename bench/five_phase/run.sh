#!/usr/bin/env bash
# The three- and five-phase methods with moving blinds, end to end, RADIANCE 6.0a against
# `daylit annual --method 3phase|5phase`, on the side-lit room of bench/three_phase (every
# fourth of its 345 work-plane sensors on a 0.25 m grid, plus the 12 sensors of the converged
# reference in crates/cli/tests/golden/phases: RADIANCE's Cds, 5185 suns per hemisphere
# sample, takes minutes per dozen sensors), two window states (clear glass and venetian blinds, Klems
# BSDFs), a Greensboro year, the blinds closed in the hours of the reference's LM-83 schedule.
#
# RADIANCE runs the LBNL tutorial's recipe (the commands of golden/phases/make.sh): V, D, Vd, Dd
# by rfluxmtx, Cds by rcontrib with 5185 suns (values over the suns' radiance, as make.sh
# explains: coefficients lose part of the sun through the blinds), S, Sd, Ssun by gendaymtx, and per state the
# dctimestep products through rmtxop to lux; its hourly results are combined per the schedule
# (not timed). daylit runs one command per method. Prints each side's wall time, the ratio, and
# both sides' per-sensor error against the converged reference (annual mean over all hours)
# at the 12 reference sensors; and how far daylit is from RADIANCE over all sensors.
#   bash bench/five_phase/run.sh        (RAYON_NUM_THREADS: daylit's threads, default 2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gold=$root/crates/cli/tests/golden/phases
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
VOPT=${VOPT:--ab 4 -ad 4096 -lw 1e-5}
DOPT=${DOPT:--ab 2 -ad 1024 -lw 1e-4 -c 1000}
VDOPT=${VDOPT:--ab 1 -ad 4096 -lw 1e-5}
DDOPT=${DDOPT:--ab 0 -c 1000}
CDSOPT=${CDSOPT:--ab 1 -ad 1024 -lw 1e-5 -dc 1 -dt 0 -dj 0}
DAYLIT_OPT=${DAYLIT_OPT:-}
(cd "$root" && cargo build --release -p daylit >&2)
daylit=$root/target/release/daylit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$gold"/room.rad "$gold"/window_recv.rad "$gold"/window_send.rad "$gold"/sky.rad "$work/"
{ awk 'NR % 4 == 1' "$root/bench/three_phase/sensors.pts"; cat "$gold/sensors.pts"; } > "$work/sensors.pts"
cp "$root/validation/annual/goldens/gso.wea" "$work/sky.wea"
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-clear.xml.gz" > "$work/open.xml"
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-blinds.xml.gz" > "$work/closed.xml"
gunzip -c "$gold/schedule.txt.gz" > "$work/schedule.txt"
export RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-2}
cd "$work"
ns=$(wc -l < sensors.pts)
: > times
t() {
    local step=$1 t0
    shift
    t0=$(date +%s.%N)
    sh -c "$1"
    echo "$step $(echo "$(date +%s.%N) - $t0" | bc)" >> times
}
(
    export PATH="$RADIANCE_BIN:/usr/bin:/bin"
    export RAYPATH=".:$RAYPATH"
    sed 's/^5 .*/5 0 0 0 0 0/' room.rad > room_black.rad
    {
        echo 'void light solar 0 0 3 1e6 1e6 1e6'
        cnt 5185 | rcalc -e MF:6 -f reinsrc.cal -e Rbin=recno -o 'solar source sun 0 0 4 ${Dx} ${Dy} ${Dz} 0.533'
    } > suns.rad
    for state in open closed; do
        printf 'void BSDF win_bsdf\n6 0 %s.xml 0 0 1 .\n0\n0\n\nwin_bsdf polygon window\n0\n0\n12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n' "$state" > "win_$state.rad"
    done
    t radiance_octrees "oconv -f room.rad > room.oct; oconv -f room_black.rad > room_black.oct; oconv -f room_black.rad win_open.rad suns.rad > cds_open.oct; oconv -f room_black.rad win_closed.rad suns.rad > cds_closed.oct"
    t radiance_skies "gendaymtx -m 1 -of sky.wea > s.mtx 2>/dev/null; gendaymtx -m 1 -d -of sky.wea > sd.mtx 2>/dev/null; gendaymtx -5 0.533 -d -m 6 -of sky.wea > ssun.mtx 2>/dev/null"
    t radiance_V "rfluxmtx -I+ -faf $VOPT -c 1 -y $ns - window_recv.rad -i room.oct < sensors.pts > v.mtx"
    t radiance_D "rfluxmtx -faf $DOPT window_send.rad sky.rad -i room.oct > d.mtx"
    t radiance_Vd "rfluxmtx -I+ -faf $VDOPT -c 1 -y $ns - window_recv.rad -i room_black.oct < sensors.pts > vd.mtx"
    t radiance_Dd "rfluxmtx -faf $DDOPT window_send.rad sky.rad -i room_black.oct > dd.mtx"
    for state in open closed; do
        t "radiance_Cds" "rcontrib -V+ -I+ -faf $CDSOPT -e MF:6 -f reinhart.cal -b rbin -bn Nrbins -m solar -y $ns cds_$state.oct < sensors.pts | rmtxop -ff -s 1e-6 - > cds_$state.mtx"
        t radiance_products "dctimestep v.mtx $state.xml d.mtx s.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > r3_$state.txt"
        t radiance_products "dctimestep vd.mtx $state.xml dd.mtx sd.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > rd_$state.txt"
        t radiance_products "dctimestep cds_$state.mtx ssun.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > rs_$state.txt"
    done
)
{
    echo window
    awk '{print ($1 == 1) ? "closed" : "open"}' schedule.txt
} > schedule.csv
printf 'void BSDF window\n6 0 open.xml 0 0 1 .\n0\n0\n\nwindow polygon pane\n0\n0\n12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n' > win.rad
for m in 3phase 5phase; do
    # shellcheck disable=SC2086
    t "daylit_$m" "$daylit annual room.rad win.rad --sensors sensors.pts --weather sky.wea --method $m --state window=closed.xml --shade-schedule schedule.csv --ill d_$m.txt -o out_$m $DAYLIT_OPT > log_$m.txt"
done
python3 - "$work" "$gold" <<'PY'
import gzip, sys
work, gold = sys.argv[1], sys.argv[2]
times = {}
for line in open(f'{work}/times'):
    k, v = line.split()
    times[k] = times.get(k, 0.0) + float(v)
def matrix(path):
    body = open(path).read().split('\n\n', 1)[1]
    return [[float(x) for x in l.split()] for l in body.splitlines() if l.strip()]
closed = [int(l) for l in open(f'{work}/schedule.txt')]
rad = {}
for s in ('open', 'closed'):
    rad[s] = [matrix(f'{work}/{p}_{s}.txt') for p in ('r3', 'rd', 'rs')]
def radiance(method):
    out = []
    for i in range(len(rad['open'][0])):
        row = []
        for h, c in enumerate(closed):
            r3, rd, rs = (m[i][h] for m in rad['closed' if c else 'open'])
            row.append(r3 if method == '3ph' else r3 - rd + rs)
        out.append(row)
    return out
ref = {}
for line in open(f'{gold}/results.txt'):
    w = line.split()
    if w[0].startswith('#'):
        continue
    ref[(w[0], w[1], int(w[2]))] = float(w[3])
rad_steps = [k for k in times if k.startswith('radiance_')]
rad_total = sum(times[k] for k in rad_steps)
print(f"{'step':22} {'seconds':>8}")
for k in rad_steps + ['daylit_3phase', 'daylit_5phase']:
    print(f"{k:22} {times[k]:8.2f}")
print(f"RADIANCE five-phase, all steps: {rad_total:.2f} s; daylit 5phase {times['daylit_5phase']:.2f} s: "
      f"{rad_total / times['daylit_5phase']:.2f}x")
n = len(closed)
for method, dname in (('3ph', '3phase'), ('5ph', '5phase')):
    r = radiance(method)
    d = matrix(f'{work}/d_{dname}.txt')
    assert len(r) == len(d)
    k0 = len(d) - 12
    def err(rows):
        return sorted(abs(sum(rows[k0 + i]) / n - ref[(method, 'sched', i)]) / ref[(method, 'sched', i)]
                      for i in range(12))
    # The reference holds the scheduled year of the five-phase method only.
    for who, rows in (('RADIANCE', r), ('daylit', d)):
        if method == '5ph':
            e = err(rows)
            print(f"{method} {who:9}: vs converged reference at 12 sensors: mean |error| {100 * sum(e) / 12:.2f} %, largest {100 * e[-1]:.2f} %")
    diffs = sorted(abs(sum(b) - sum(a)) / max(sum(a), 1e-9) for a, b in zip(r[:k0], d[:k0]))
    print(f"{method} daylit vs RADIANCE over {k0} sensors (annual mean): mean |difference| "
          f"{100 * sum(diffs) / len(diffs):.2f} %, 95th percentile {100 * diffs[int(0.95 * (len(diffs) - 1))]:.2f} %, largest {100 * diffs[-1]:.2f} %")
PY
