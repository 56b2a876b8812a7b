#!/usr/bin/env bash
# The three-phase method (V T D S, RADIANCE's matrix pipeline) end to end on a side-lit room
# with venetian blinds (a Klems BSDF from LBNL's pyradiance samples), once with RADIANCE 6.0a
# and once with daylit's programs under the same names, same commands, same machine: the
# view matrix (rfluxmtx, 345 work-plane sensors on a 0.25 m grid to the window's 145 Klems patches), the daylight matrix
# (rfluxmtx, window to 145 Reinhart sky patches and the ground), the sky matrix (gendaymtx
# of a Greensboro year) and their product (dctimestep with the BSDF XML as T, then rmtxop to
# illuminance). Prints each step's wall time, the ratio, and how far daylit's annual
# illuminance is from RADIANCE's, per sensor.
#   THREADS=1 bash bench/three_phase/run.sh   (daylit's threads; RADIANCE's programs use one)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
VOPT=${VOPT:--ab 4 -ad 4096 -lw 1e-5}
DOPT=${DOPT:--ab 2 -ad 1024 -lw 1e-4 -c 1000}
(cd "$root" && cargo build --release -p daylit >&2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/daylit-bin"
"$root/target/release/daylit" install-links "$work/daylit-bin" > /dev/null
gunzip -c "$root/crates/bsdf/tests/data/pyradiance-blinds.xml.gz" > "$work/blinds.xml"
cp "$here"/*.rad "$here/sensors.pts" "$work/"
cp "$root/validation/annual/goldens/gso.wea" "$work/sky.wea"
export RAYON_NUM_THREADS=${THREADS:-2}
for engine in radiance daylit; do
    if [ $engine = radiance ]; then bin=$RADIANCE_BIN; else bin=$work/daylit-bin; fi
    mkdir -p "$work/$engine"
    (
        cd "$work"
        export PATH="$bin:/usr/bin:/bin"
        t() { local t0; t0=$(date +%s.%N); "$@"; echo "$engine $step $(echo "$(date +%s.%N) - $t0" | bc)" >> times; }
        step=octree t sh -c "oconv room.rad > $engine/room.oct"
        # shellcheck disable=SC2086
        step=view t sh -c "rfluxmtx -I+ -faf $VOPT -c 1 -y $(wc -l < sensors.pts) - window_recv.rad -i $engine/room.oct < sensors.pts > $engine/v.mtx"
        # shellcheck disable=SC2086
        step=daylight t sh -c "rfluxmtx -faf $DOPT window_send.rad sky.rad -i $engine/room.oct > $engine/d.mtx"
        step=sky t sh -c "gendaymtx -m 1 -of sky.wea > $engine/s.mtx"
        step=product t sh -c "dctimestep $engine/v.mtx blinds.xml $engine/d.mtx $engine/s.mtx | rmtxop -fa -c 47.4 119.9 11.6 - > $engine/ill.txt"
    )
done
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
times = {}
for line in open(f'{work}/times'):
    e, s, t = line.split()
    times[(e, s)] = float(t)
steps = ['octree', 'view', 'daylight', 'sky', 'product']
print(f"{'step':10} {'RADIANCE s':>11} {'daylit s':>9} {'ratio':>7}")
for s in steps + ['total']:
    r = sum(times[('radiance', k)] for k in steps) if s == 'total' else times[('radiance', s)]
    d = sum(times[('daylit', k)] for k in steps) if s == 'total' else times[('daylit', s)]
    print(f"{s:10} {r:11.2f} {d:9.2f} {r / d:6.2f}x")
def ill(p):
    rows = []
    for line in open(p):
        w = line.split()
        if not w or '=' in line or line.startswith('#'):
            continue
        try:
            rows.append([float(x) for x in w])
        except ValueError:
            continue
    return rows
a, b = ill(f'{work}/radiance/ill.txt'), ill(f'{work}/daylit/ill.txt')
assert len(a) == len(b) > 0, (len(a), len(b))
diffs = []
for ra, rb in zip(a, b):
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    diffs.append((mb - ma) / ma)
mean_all = lambda rows: sum(sum(r) for r in rows) / sum(len(r) for r in rows)
print(f"annual mean illuminance over all sensors: RADIANCE {mean_all(a):.2f} lux, daylit {mean_all(b):.2f}")
ad = sorted(abs(d) for d in diffs)
print(f"per sensor, annual mean: mean |difference| {sum(ad) / len(ad) * 100:.2f} %, "
      f"95th percentile {ad[int(0.95 * (len(ad) - 1))] * 100:.2f} %, largest {ad[-1] * 100:.2f} % "
      f"(signed mean {sum(diffs) / len(diffs) * 100:+.2f} %)")
PY
