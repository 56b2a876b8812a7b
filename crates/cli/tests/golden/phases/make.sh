#!/usr/bin/env bash
# Regenerates the RADIANCE 6.0a reference results of the three-phase and five-phase annual
# methods (the LBNL tutorial recipe, Subramaniam 2017; honeybee-radiance runs the same steps)
# on the side-lit room of bench/three_phase, for daylit's `daylit annual --method 3phase|5phase`.
#
# Inputs (here): room.rad (4 x 6 x 3 m room, south window hole x 0.5..3.5, z 0.8..2.5 at y=0),
# window_recv.rad (the window as V's receiver, normal into the room, h=kf u=Z),
# window_send.rad (the same window as D's sender), sky.rad (ground h=u, Reinhart MF:1 sky h=r1,
# as gendaymtx -m 1 orders its rows), sensors.pts (12 sensors, 3 columns x 4 rows, 0.8 m high,
# 0.5 to 5.5 m from the window, facing up). Elsewhere in the repository: the two window states
# as Klems BSDFs, open = crates/bsdf/tests/data/pyradiance-clear.xml.gz, closed =
# pyradiance-blinds.xml.gz, and the weather validation/annual/goldens/gso.wea (Greensboro,
# 8760 hours).
#
# Three-phase, per state:  R3 = V T D S
#   V  = rfluxmtx -I+ $VOPT - window_recv.rad -i room.oct < sensors.pts
#   D  = rfluxmtx $DOPT window_send.rad sky.rad -i room.oct
#   S  = gendaymtx -m 1 -of gso.wea                       (146 rows: ground + 145 patches)
#   T  = the state's BSDF XML (dctimestep reads its Klems transmission)
# Five-phase, per state:   R5 = R3 - Vd T Dd Sd + Cds Ssun
#   Vd = V of the black room (every material's reflectance 0), $VDOPT
#   Dd = D of the black room, $DDOPT
#   Sd = gendaymtx -m 1 -d -of gso.wea                    (sun only)
#   Cds = rcontrib -V+ -I+ $CDSOPT -ad $CDSAD_state -e MF:6 -f reinhart.cal -b rbin -bn Nrbins -m solar: the sensors
#        in the black room whose window is `void BSDF win 6 0 STATE.xml 0 0 1 .` (same polygon
#        as window_recv.rad: normal into the room, which is RADIANCE's BSDF front, up = +Z as
#        the Klems u=Z of V and D), lit by 5185 suns (`void light solar 0 0 3 1e6 1e6 1e6`,
#        `solar source sun 0 0 4 Dx Dy Dz 0.533` at each Reinhart MF:6 patch centre, made with
#        cnt 5185 | rcalc -e MF:6 -f reinsrc.cal -e Rbin=recno)
#   Ssun = gendaymtx -5 0.533 -d -m 6 -of gso.wea         (5186 rows)
# Every product is dctimestep ... | rmtxop -fa -c 47.4 119.9 11.6 - (illuminance, lux).
#
# Noise: RADIANCE seeds its random numbers from the clock (rcontrib -u+), so each Monte Carlo
# matrix (V, D, Vd, Dd, Cds) is computed twice, a second apart. noise.txt compares the annual
# results of the first set of matrices with those of the second; the results kept are made
# from the mean of the two runs of each matrix (as one run with twice the samples).
#
# Outputs (here):
#   results.txt       per method (3ph, 5ph, direct = Cds Ssun alone, vdtddsd = Vd T Dd Sd alone),
#                     state (open, closed, sched) and sensor: mean illuminance over all 8760 hours, over the occupied
#                     hours (WEA hour column h with 8 <= h < 18: 3650 hours), and the number of
#                     occupied hours above 300 lux (strictly)
#   schedule.txt.gz   one line per hour: 1 = closed, 0 = open. Rule (LM-83 style): closed when
#                     more than 2 % of the sensors (count > 0.24, i.e. at least 1 of 12) get more
#                     than 1000 lux from the open state's direct-sun term Cds Ssun
#   counts.txt        hours per state, all hours and occupied hours
#   noise.txt         run-to-run differences of the annual means (see above)
#   orientation.txt   check that Cds's BSDF-material window is oriented as V and D (see below)
#   timings.txt       wall seconds of each RADIANCE step (one process each, no -n)
#   MANIFEST.txt      RADIANCE version
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$(cd "$root" && scripts/setup-reference.sh | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
VOPT="${VOPT:--ab 6 -ad 262144 -lw 1e-6}"
DOPT="${DOPT:--ab 2 -ad 1024 -lw 1e-4 -c 10000}"
VDOPT="${VDOPT:--ab 1 -ad 262144 -lw 1e-6}"
DDOPT="${DDOPT:--ab 0 -c 10000}"
# Cds converges slowly (the sun reaches a sensor only through the window points whose direction
# to it lies in the sun's Klems patch), so the open state gets the most samples; the blinds'
# direct-sun term is 1 to 5 % of the closed state's illuminance, so its noise matters less.
CDSOPT="${CDSOPT:--ab 1 -lw 1e-6 -dc 1 -dt 0 -dj 0}"
CDSAD_open=${CDSAD_open:-16384}
CDSAD_closed=${CDSAD_closed:-4096}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/room.rad "$here"/window_recv.rad "$here"/window_send.rad "$here"/sky.rad \
    "$here"/sensors.pts "$work/"
cp "$root/validation/annual/goldens/gso.wea" "$work/sky.wea"
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-clear.xml.gz" > "$work/open.xml"
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-blinds.xml.gz" > "$work/closed.xml"
cd "$work"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0all=$(date +%s)
export RAYPATH=".:$RAYPATH"
ns=$(wc -l < sensors.pts)
: > times
# t STEP CMD: runs CMD (a shell line) and records its wall time under STEP.
t() {
    local step=$1 t0
    shift
    t0=$(date +%s.%N)
    sh -c "$1"
    echo "$step $(echo "$(date +%s.%N) - $t0" | bc)" >> times
}

# The black room of Vd, Dd and Cds: every material's reflectance set to 0.
sed 's/^5 .*/5 0 0 0 0 0/' room.rad > room_black.rad
[ "$(grep -c '^5 0 0 0 0 0$' room_black.rad)" = 3 ] || { echo "black room: expected 3 materials" >&2; exit 1; }
{
    echo 'void light solar 0 0 3 1e6 1e6 1e6'
    cnt 5185 | rcalc -e MF:6 -f reinsrc.cal -e Rbin=recno -o 'solar source sun 0 0 4 ${Dx} ${Dy} ${Dz} 0.533'
} > suns.rad
for state in open closed; do
    printf 'void BSDF win_bsdf\n6 0 %s.xml 0 0 1 .\n0\n0\n\nwin_bsdf polygon window\n0\n0\n12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n' \
        "$state" > "win_$state.rad"
done

t oconv "oconv room.rad > room.oct"
t oconv_black "oconv room_black.rad > room_black.oct"
for state in open closed; do
    t "oconv_cds_$state" "oconv room_black.rad win_$state.rad suns.rad > cds_$state.oct"
done
oconv room_black.rad win_closed.rad > cds_closed_nosun.oct
t sky_S "gendaymtx -m 1 -of sky.wea > s.mtx 2> gendaymtx.log"
t sky_Sd "gendaymtx -m 1 -d -of sky.wea > sd.mtx 2>> gendaymtx.log"
t sky_Ssun "gendaymtx -5 0.533 -d -m 6 -of sky.wea > ssun.mtx 2>> gendaymtx.log"
for run in 1 2; do
    t "V_run$run" "rfluxmtx -I+ -faf $VOPT -c 1 -y $ns - window_recv.rad -i room.oct < sensors.pts > v$run.mtx"
    sleep 1
    t "D_run$run" "rfluxmtx -faf $DOPT window_send.rad sky.rad -i room.oct > d$run.mtx"
    sleep 1
    t "Vd_run$run" "rfluxmtx -I+ -faf $VDOPT -c 1 -y $ns - window_recv.rad -i room_black.oct < sensors.pts > vd$run.mtx"
    sleep 1
    t "Dd_run$run" "rfluxmtx -faf $DDOPT window_send.rad sky.rad -i room_black.oct > dd$run.mtx"
    sleep 1
    for state in open closed; do
        ad=CDSAD_$state
        # Values (-V+) divided by the suns' radiance, not coefficients: through the blinds,
        # rcontrib's coefficient mode drops part of the direct sun (RADIANCE 6.0a, sensor 0, all
        # 5185 suns: coefficients x 1e6 give 720, values 1412, rtrace -aa 0 1432), while the two
        # agree through the clear pane (35731 and 35560).
        t "Cds_${state}_run$run" "rcontrib -V+ -I+ -faf $CDSOPT -ad ${!ad} -e MF:6 -f reinhart.cal -b rbin -bn Nrbins -m solar -y $ns cds_$state.oct < sensors.pts | rmtxop -ff -s 1e-6 - > cds_${state}$run.mtx"
        sleep 1
    done
done
for m in v d vd dd cds_open cds_closed; do
    rmtxop -ff -s 0.5 "${m}1.mtx" + -s 0.5 "${m}2.mtx" > "${m}a.mtx"
done
for set in a 1 2; do
    for state in open closed; do
        t "product_3ph_${state}_$set" "dctimestep v$set.mtx $state.xml d$set.mtx s.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > r3_${state}_$set.txt"
        t "product_5ph_direct_${state}_$set" "dctimestep vd$set.mtx $state.xml dd$set.mtx sd.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > rd_${state}_$set.txt"
        t "product_5ph_sun_${state}_$set" "dctimestep cds_$state$set.mtx ssun.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > rs_${state}_$set.txt"
    done
done

# Orientation check: the closed state's direct window-to-sensor transfer computed two ways must
# agree, V_d T D_d (matrices, Klems u=Z) and rfluxmtx from the sensors through the black room's
# BSDF-material window (up 0 0 1) to the sky patches. A flipped up vector or normal gives 5x.
t check_orientation "rfluxmtx -I+ -faf -ab 2 -ad 16384 -lw 1e-7 -c 1 -y $ns - sky.rad -i cds_closed_nosun.oct < sensors.pts | rmtxop -fa -c 47.4 119.9 11.6 - > flux_closed.txt"
rmtxop -fa vda.mtx closed.xml dda.mtx -c 47.4 119.9 11.6 > vtd_closed.txt

python3 - "$work" "$here" <<'PY'
import gzip, sys
work, here = sys.argv[1], sys.argv[2]

def matrix(path):
    """Rows (sensors) of hourly lux from an rmtxop -fa file (header, blank line, data)."""
    with open(path) as f:
        text = f.read()
    body = text.split('\n\n', 1)[1]
    return [[float(x) for x in line.split()] for line in body.splitlines() if line.strip()]

hours = []
with open(f'{work}/sky.wea') as f:
    for line in f:
        w = line.split()
        if len(w) == 5 and w[0].isdigit():
            hours.append(float(w[2]))
assert len(hours) == 8760, len(hours)
occ = [8 <= h < 18 for h in hours]
nocc = sum(occ)

res = {}
for s in ('a', '1', '2'):
    for state in ('open', 'closed'):
        r3 = matrix(f'{work}/r3_{state}_{s}.txt')
        rd = matrix(f'{work}/rd_{state}_{s}.txt')
        rs = matrix(f'{work}/rs_{state}_{s}.txt')
        assert len(r3) == len(rd) == len(rs) == 12 and all(len(r) == 8760 for r in r3 + rd + rs)
        res[('3ph', state, s)] = r3
        res[('direct', state, s)] = rs
        res[('vdtddsd', state, s)] = rd
        res[('5ph', state, s)] = [[a - b + c for a, b, c in zip(x, y, z)] for x, y, z in zip(r3, rd, rs)]
nsens = 12
sun = res[('direct', 'open', 'a')]
closed = []
for h in range(8760):
    bright = sum(1 for i in range(nsens) if sun[i][h] > 1000)
    closed.append(1 if bright > 0.02 * nsens else 0)
for method in ('5ph', 'direct'):
    o, c = res[(method, 'open', 'a')], res[(method, 'closed', 'a')]
    res[(method, 'sched', 'a')] = [[c[i][h] if closed[h] else o[i][h] for h in range(8760)] for i in range(nsens)]

def stats(row):
    return (sum(row) / len(row),
            sum(v for v, o in zip(row, occ) if o) / nocc,
            sum(1 for v, o in zip(row, occ) if o and v > 300))

with open(f'{here}/results.txt', 'w') as f:
    f.write('# method state sensor mean_all_lux mean_occupied_lux occupied_hours_over_300\n')
    f.write(f'# all = 8760 hours; occupied = WEA hour h with 8 <= h < 18 ({nocc} hours)\n')
    f.write('# 3ph = V T D S; 5ph = V T D S - Vd T Dd Sd + Cds Ssun; direct = Cds Ssun alone;\n')
    f.write('# vdtddsd = Vd T Dd Sd alone; sched = closed in the hours of schedule.txt.gz, else open\n')
    for method, states in (('3ph', ('open', 'closed')), ('5ph', ('open', 'closed', 'sched')),
                           ('direct', ('open', 'closed', 'sched')), ('vdtddsd', ('open', 'closed'))):
        for state in states:
            for i, row in enumerate(res[(method, state, 'a')]):
                a, b, n = stats(row)
                f.write(f'{method} {state} {i} {a:.6g} {b:.6g} {n}\n')
with gzip.open(f'{here}/schedule.txt.gz', 'wt') as f:
    f.write(''.join(f'{c}\n' for c in closed))
with open(f'{here}/counts.txt', 'w') as f:
    f.write('# state hours_all hours_occupied (closed: > 2 % of sensors over 1000 lux direct sun, open state)\n')
    nc = sum(closed)
    ncocc = sum(1 for c, o in zip(closed, occ) if c and o)
    f.write(f'open {8760 - nc} {nocc - ncocc}\nclosed {nc} {ncocc}\n')
with open(f'{here}/noise.txt', 'w') as f:
    f.write('# run-to-run noise: annual mean (all hours) from the first and the second run of every\n')
    f.write('# Monte Carlo matrix; rel = (run2 - run1) / mean of both. The kept results use the mean of\n')
    f.write('# both runs, whose noise is about half this difference.\n')
    f.write('# method state sensor run1_lux run2_lux diff_lux rel_percent\n')
    worst = {}
    for method in ('3ph', '5ph', 'direct'):
        for state in ('open', 'closed'):
            for i in range(nsens):
                m1 = sum(res[(method, state, '1')][i]) / 8760
                m2 = sum(res[(method, state, '2')][i]) / 8760
                rel = 200 * (m2 - m1) / (m1 + m2) if m1 + m2 > 0 else 0.0
                f.write(f'{method} {state} {i} {m1:.6g} {m2:.6g} {m2 - m1:+.4g} {rel:+.3f}\n')
                worst[(method, state)] = max(worst.get((method, state), 0), abs(rel))
    for (method, state), w in worst.items():
        f.write(f'# largest |rel| {method} {state}: {w:.3f} %\n')
# Orientation check (see make.sh): per sensor, the sum over the 145 sky patches of the
# closed state's direct transfer (lux per unit sky radiance), both ways.
vtd, flux = matrix(f'{work}/vtd_closed.txt'), matrix(f'{work}/flux_closed.txt')
with open(f'{here}/orientation.txt', 'w') as f:
    f.write('# sensor sum_VdTDd sum_rfluxmtx_through_BSDF_material ratio (closed state, sky patches 1..145)\n')
    for i in range(nsens):
        a, b = sum(vtd[i][1:]), sum(flux[i][1:])
        f.write(f'{i} {a:.5g} {b:.5g} {b / a:.4f}\n')
# Sanity report (stdout only).
for state in ('open', 'closed'):
    r3, r5 = res[('3ph', state, 'a')], res[('5ph', state, 'a')]
    print(state, '5ph/3ph annual mean per sensor:',
          ' '.join(f'{sum(b) / sum(a):.3f}' for a, b in zip(r3, r5)))
print('direct-sun annual mean (open):', ' '.join(f'{sum(r) / 8760:.1f}' for r in sun))
print('closed hours:', sum(closed))
PY
{
    echo "# wall seconds per step (RADIANCE 6.0a, one process each); load average at start: $load0, at end: $(cut -d' ' -f1-3 /proc/loadavg)"
    awk '{printf "%-28s %8.2f\n", $1, $2}' times
    echo "total_make_sh                $(($(date +%s) - t0all))"
} > "$here/timings.txt"
echo "RADIANCE: $(rcontrib -version)" > "$here/MANIFEST.txt"
