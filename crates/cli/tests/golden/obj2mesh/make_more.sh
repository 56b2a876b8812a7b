#!/usr/bin/env bash
# Run by ../make_cases.sh obj2mesh after the cases: RADIANCE's rtrace on the meshes that
# RADIANCE's obj2mesh wrote (placed by a `mesh` primitive, compiled by RADIANCE's oconv), at the
# rays of rays_NAME.txt: value under a uniform ambient of 1 (the mesh's materials), distance to
# the first hit and the shading normal (-ovLn). tests/file_converters.rs traces daylit's own
# meshes with the same rays through RADIANCE-independent means and holds them to these.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Rays: from a sphere of radius 3 around the mesh's centre toward points near the centre.
rays() { # cx cy cz spread
    python3 - "$@" <<'PY'
import math, sys
cx, cy, cz, s = map(float, sys.argv[1:])
for k in range(40):
    z = 1 - 2 * (k + .5) / 40
    ph = k * 2.399963
    r = math.sqrt(1 - z * z)
    d = (r * math.cos(ph), r * math.sin(ph), z)
    t = (s * math.sin(3 * k), s * math.cos(5 * k), s * math.sin(7 * k))
    o = (cx + 3 * d[0], cy + 3 * d[1], cz + 3 * d[2])
    a = (cx + t[0], cy + t[1], cz + t[2])
    v = [a[i] - o[i] for i in range(3)]
    n = math.sqrt(sum(x * x for x in v))
    print("%.6f %.6f %.6f %.6f %.6f %.6f" % (o + tuple(x / n for x in v)))
PY
}
rays .5 .5 .5 .4 > rays_cube.txt
rays 1 .5 .5 .8 > rays_quad.txt
rays 0 0 0 .5 > rays_sphere.txt
for c in "1 cube cube" "2 quad quad" "3 sphere sphere" "4 sphere_n4 sphere"; do
    read -r n name r <<< "$c"
    cp "out/$n.d/$name.rtm" "$work/"
    (cd "$work" && echo "void mesh m 1 $name.rtm 0 0" | oconv - > "$name.oct")
    (cd "$work" && rtrace -w -h -ab 0 -av 1 1 1 -ovLn "$name.oct") < "rays_$r.txt" > "out/trace_$name.txt"
done
# obj2mesh -v: the statistics RADIANCE prints on standard error.
(cd inputs && obj2mesh -v -n 4 -a mats.rad sphere.obj "$work/v.rtm") 2> out/stats_sphere.txt
# edge.obj: RADIANCE's own mesh of it (its bytes differ from daylit's: see gen_inputs.py) and
# RADIANCE's rtrace on it, at 400 rays through the mesh's box.
(cd inputs && obj2mesh -w -n 8 -r 128 -a mats.rad edge.obj "$work/edge.rtm")
cp "$work/edge.rtm" out/edge_radiance.rtm
python3 - > rays_edge.txt <<'PY'
import random
r = random.Random(1)
for k in range(400):
    o = [r.uniform(-4, 4), r.uniform(-4, 4), r.choice([-3, 3]) + r.uniform(-.5, .5)]
    t = [r.uniform(-3, 3), r.uniform(-3, 3), r.uniform(-1, 1)]
    print(" ".join("%.6f" % x for x in o + [t[i] - o[i] for i in range(3)]))
PY
(cd "$work" && echo "void mesh m 1 edge.rtm 0 0" | oconv - > edge.oct &&
    rtrace -w -h -ab 0 -av 1 1 1 -ovLn edge.oct) < rays_edge.txt > out/trace_edge.txt
