#!/bin/sh
# Regenerates the RADIANCE goldens of tests/octree.rs with RADIANCE 6.0a (oconv, obj2mesh,
# rtrace on PATH): compiled mesh, frozen and unfrozen octrees, rays and rtrace's answers.
set -e
cd "$(dirname "$0")"
obj2mesh -a grid.mat grid.obj grid.rtm
oconv -f box.rad > box_f.oct
oconv box.rad > box.oct
oconv -f sky.rad box.rad > scene_f.oct
oconv sky.rad box.rad > scene.oct
oconv sky.rad inst.rad > inst.oct
oconv sky.rad grid.mat mesh.rad > mesh.oct
python3 - <<'PY'
import math
def grid(path, cx, cy, half, n, z=6.0, tilt=(0.05, -0.03)):
    with open(path, "w") as f:
        for j in range(n):
            for i in range(n):
                x = cx - half + 2 * half * (i + .5) / n
                y = cy - half + 2 * half * (j + .5) / n
                f.write("%g %g %g %g %g %g\n" % (x, y, z, tilt[0], tilt[1], -1))
grid("rays_box.txt", 0, 0, 1.9, 6)
grid("rays_mesh.txt", 0, 0, .95, 6, z=3, tilt=(.02, .04, ))
with open("rays_inst.txt", "w") as f:
    for cx, cy, h in [(5, 0, 2.5), (-5, 0, .9), (0, 5, 1.9), (0, 0, .9), (0, -5, 1.8), (5, 5, .9)]:
        for j in range(4):
            for i in range(4):
                x = cx - h + 2 * h * (i + .5) / 4
                y = cy - h + 2 * h * (j + .5) / 4
                f.write("%g %g %g %g %g %g\n" % (x, y, 8, .03, .02, -1))
PY
opts="-h -ab 0 -av .1 .1 .1 -dj 0 -ds 0 -dt 0 -dc 1 -lr 6"
rtrace $opts -oLv scene.oct < rays_box.txt > box_values.txt
rtrace $opts -oLv inst.oct < rays_inst.txt > inst_values.txt
rtrace $opts -oLv mesh.oct < rays_mesh.txt > mesh_values.txt
rtrace -h -oLpNnc mesh.oct < rays_mesh.txt > mesh_geometry.txt
rtrace -h -oLpNc inst.oct < rays_inst.txt > inst_geometry.txt

# RADIANCE's test scenes (ray/test/renders), where extracted: the first porsche of
# porsches.rad and woman.rad, traced from above / in front.
T=${RADIANCE_TESTS:-/tmp/rad/test/renders}
if [ -f "$T/porsche.octf" ]; then
python3 - <<'PY'
with open("rays_porsche.txt", "w") as f:
    for j in range(8):
        for i in range(8):
            f.write("%g %g 3 .01 .02 -1\n" % (-5 + 2 * (i + .5) / 8, 1 + 2 * (j + .5) / 8))
with open("rays_woman.txt", "w") as f:
    for j in range(8):
        for i in range(8):
            f.write("%g %g 1 .01 -.02 -1\n" % (-.12 + .24 * (i + .5) / 8, .05 + .65 * (j + .5) / 8))
PY
printf 'void instance "porsche #1"\n9 %s -rx 90 -s .15 -t -4 2 1\n0\n0\n' "$T/porsche.octf" > /tmp/porsche1.rad
(cd "$T" && oconv /tmp/porsche1.rad) > /tmp/porsche1.oct
(cd "$T" && rtrace -h -oLN /tmp/porsche1.oct) < rays_porsche.txt > porsche_geometry.txt
(cd "$T" && oconv woman.rad) > /tmp/woman.oct
(cd "$T" && rtrace -h -oLN /tmp/woman.oct) < rays_woman.txt > woman_geometry.txt
rm -f /tmp/porsche1.rad /tmp/porsche1.oct /tmp/woman.oct
fi
