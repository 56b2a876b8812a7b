#!/usr/bin/env python3
"""Writes the OBJ and material files of tests/golden/obj2mesh/inputs (see make.sh)."""
import math
import os

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
os.makedirs(here, exist_ok=True)


def write(name, text):
    with open(os.path.join(here, name), "w") as f:
        f.write(text)


write("mats.rad", """# materials for the obj2mesh cases
void plastic red
0
0
5 .8 .1 .1 0 0

void plastic green
0
0
5 .1 .7 .1 0 0

void plastic blue
0
0
5 .1 .1 .8 .02 .05

void metal unused
0
0
5 .5 .5 .5 .9 0
""")
write("more.rad", "void plastic red\n0\n0\n5 .2 .2 .2 0 0\nvoid alias shiny red\n"
      "void trans sheer\n0\n0\n7 .6 .6 .6 0 0 .4 .1\n")

# A unit cube: quads with one normal per face (flat: the normals are dropped), materials
# by group name.
cube = ["# cube with face normals", "mtllib none.mtl", "o cube"]
P = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
for p in P:
    cube.append("v %g %g %g" % p)
faces = [((0, 1, 3, 2), (-1, 0, 0)), ((4, 6, 7, 5), (1, 0, 0)), ((0, 4, 5, 1), (0, -1, 0)),
         ((2, 3, 7, 6), (0, 1, 0)), ((0, 2, 6, 4), (0, 0, -1)), ((1, 5, 7, 3), (0, 0, 1))]
for k, (f, n) in enumerate(faces):
    cube.append("vn %g %g %g" % n)
for k, (f, n) in enumerate(faces):
    cube.append("g %s" % ("red", "green", "blue")[k % 3])
    cube.append("f " + " ".join("%d//%d" % (i + 1, k + 1) for i in f))
write("cube.obj", "\n".join(cube) + "\n")

# A textured quad and a concave pentagon, negative indices, (u,v) on every vertex.
write("quad.obj", """v 0 0 0
v 2 0 0
v 2 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 .5
vt 0 .5
usemtl blue
f -4/-4 -3/-3 -2/-2 -1/-1
v 0 0 1
v 2 0 1
v 1 .4 1
v 2 1 1
v 0 1 1
vt .25 .25
usemtl green
f 5/1 6/2 7/5 8/3 9/4
s off
""")

# A smooth sphere-ish mesh: bent normals, two groups and two materials, quads and triangle
# fans, more than 256 vertices (several patches and joiners).
nu, nv = 24, 12
sph = ["# smooth sphere", "g top", "usemtl red"]
for j in range(1, nv):
    th = math.pi * j / nv
    for i in range(nu):
        ph = 2 * math.pi * i / nu
        x, y, z = math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th)
        sph.append("v %.6f %.6f %.6f" % (x, y, 0.8 * z))
        sph.append("vn %.6f %.6f %.6f" % (x, y, z / 0.8))
        sph.append("vt %.6f %.6f" % (i / nu, j / nv))
sph += ["v 0 0 0.8", "vn 0 0 1", "vt .5 0", "v 0 0 -0.8", "vn 0 0 -1", "vt .5 1"]
top, bot = (nv - 1) * nu + 1, (nv - 1) * nu + 2


def vid(i, j):
    return (j - 1) * nu + (i % nu) + 1


for i in range(nu):
    a, b = vid(i, 1), vid(i + 1, 1)
    sph.append("f %d/%d/%d %d/%d/%d %d/%d/%d" % (top, top, top, a, a, a, b, b, b))
for j in range(1, nv - 1):
    if j == nv // 2:
        sph += ["g bottom", "usemtl blue"]
    for i in range(nu):
        q = [vid(i, j), vid(i, j + 1), vid(i + 1, j + 1), vid(i + 1, j)]
        sph.append("f " + " ".join("%d/%d/%d" % (k, k, k) for k in q))
sph += ["g green", "usemtl"]
for i in range(nu):
    a, b = vid(i, nv - 1), vid(i + 1, nv - 1)
    sph.append("f %d/%d/%d %d/%d/%d %d/%d/%d" % (bot, bot, bot, b, b, b, a, a, a))
write("sphere.obj", "\n".join(sph) + "\n")

# Reversed normals (the triangle is turned over), a degenerate triangle, a degenerate face,
# a continued line, statements obj2mesh does not know.
write("odd.obj", """v 0 0 0
v 1 0 0
v 0 1 0
v 2 2 0
v 3 3 0
vn 0 0 -1
vn 0 .1 -1
vn .1 0 -1
l 1 2
f 1//1 2//2 \\
  3//3
f 1 4 5
f 1 4 5 5
vp 1 2
f 2 3 1
""")

write("bad_vertex.obj", "v 0 0 0\nv 1 0 0\nv 0 1 x\nf 1 2 3\n")
write("bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n")
write("few.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n")
write("zero_normal.obj", "v 0 0 0\nvn 0 0 0\n")
write("bad_face.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 9\n")
write("nomat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl nosuch\nf 1 2 3\n")
write("empty.obj", "# nothing\nv 0 0 0\n")

# Surfaces among the materials: kept unless a material the mesh uses follows them.
write("withsphere.rad", "void plastic red\n0\n0\n5 .8 .1 .1 0 0\nred sphere ball\n0\n0\n"
      "4 0 0 0 1\nvoid plastic blue\n0\n0\n5 .1 .1 .8 0 0\n")
write("red.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\nusemtl red\nf 1 2 3\n")
write("redblue.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\nusemtl red\nf 1 2 3\n"
      "usemtl blue\nf 2 4 3\n")
# A command among the materials (RADIANCE runs it; daylit refuses it).
write("cmd.rad", "void plastic red\n0\n0\n5 .8 .1 .1 0 0\n"
      "!echo void plastic blue 0 0 5 .1 .1 .8 0 0\n")

# A face of 602 vertices (RADIANCE's obj2mesh keeps the first 510: 511 words a statement),
# a line longer than 8191 bytes (the rest is read as the next statement), DOS and old Mac
# line ends, a continued line.
lines = ["v %d %g 0" % (i, (i % 2) * .5) for i in range(600)] + ["v 599 5 0", "v 0 5 0"]
lines.append("f " + " ".join(str(i + 1) for i in range(602)))
lines.append("f " + " ".join(str(i + 1) for i in range(598, -1, -1)) + " " * 7000 + " 601 602")
lines.append("v 0 0 1\r\nv 1 0 1\rv 0 1 1\r\nf -1 \\\r\n -2 -3\r")
write("long.obj", "\n".join(lines) + "\n")

# Aliases (inherit, void, another modifier, an alias of an alias) and a pattern as the
# material of a group; a zero-area triangle, whose object RADIANCE reuses, material and all,
# for the next triangle.
write("alias.rad", "void plastic red\n0\n0\n5 .8 .1 .1 0 0\nvoid plastic blue 0 0 5 .1 .1 .8 0 0\n"
      "inherit alias shiny red\nvoid alias s2 red\nblue alias s3 red\nvoid alias s4 s2\n"
      "red texfunc wav\n6 dx dy dz funcfile.cal -s 2\n0\n1 .5\n")
write("alias.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\nv 2 0 0\nusemtl shiny\nf 1 2 3\n"
      "usemtl s2\nf 2 4 3\nusemtl s3\nf 2 5 4\nusemtl s4\nf 1 5 2\ng wav\nusemtl\nf 1 4 5\n"
      "f 4 5 3\n")

# Faces with a material and faces without (RADIANCE refuses the mesh).
write("mixvoid.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\nusemtl red\nf 1 2 3\n"
      "usemtl void\nf 2 4 3\n")

# edge.obj (kept as found, not generated): a mesh from a random search on integer grid points
# where pyradiance's obj2mesh (a -ffast-math build) puts a triangle touching a cube's face in
# one more leaf than RADIANCE's source computes in IEEE arithmetic; make_more.sh traces
# RADIANCE's file for the functional comparison.
