#!/usr/bin/env bash
# Regenerates rays.txt: random rays aimed at the surfaces of mixed.rad, traced by RADIANCE 6.0a
# (rtrace -oLNs: distance, unperturbed normal, surface name). Needs scripts/setup-reference.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/../../../../scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
cd "$here"
oconv mixed.rad > /tmp/daylit-mixed.oct
python3 - > /tmp/daylit-mixed-rays.txt <<'PY'
import math, random
rng = random.Random(5)
targets = [(1,1,0),(4,1,0),(7,1,0),(12,2,0),(16,1,1),(1,5,1),(1,10,1),(4,10,1),(7,10,1),(10,10,1),
           (13,10,1),(16,10.5,1),(1.5,15,.5),(5,15,1),(8,16,0),(12,15,0),(15,15,1),(18,15,1)]
for i in range(3000):
    tx, ty, tz = targets[i % len(targets)]
    t = (100000 + tx + rng.uniform(-1.3, 1.3), 50000 + ty + rng.uniform(-1.3, 1.3), 10 + tz + rng.uniform(-1.3, 1.3))
    o = (100000 + rng.uniform(-5, 25), 50000 + rng.uniform(-5, 22), 10 + rng.uniform(-4, 5))
    d = [t[k] - o[k] for k in range(3)]
    n = math.sqrt(sum(x * x for x in d))
    print("%.9f %.9f %.9f %.12f %.12f %.12f" % (o + tuple(x / n for x in d)))
PY
rtrace -h -oLNs /tmp/daylit-mixed.oct < /tmp/daylit-mixed-rays.txt > /tmp/daylit-mixed-out.txt
paste -d' ' /tmp/daylit-mixed-rays.txt /tmp/daylit-mixed-out.txt > rays.txt
echo "wrote $(wc -l < rays.txt) rays"
