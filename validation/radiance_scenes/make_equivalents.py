#!/usr/bin/env python3
"""Writes vase.obj, the stand-in for RADIANCE's test/renders/vase.rtm (missing from its public
repository): a 23 cm vase of revolution, Z up, base centred where vase.rad's transform expects
it (-25 -5 -130 in mesh units of 5 mm), with texture coordinates (u around, v up) and vertex
normals. make_goldens.sh turns it into vase.rtm with RADIANCE's obj2mesh."""
import math

N_AROUND, N_UP = 48, 32
HEIGHT = 46.0  # mesh units (x 0.005 m = 23 cm)


def radius(v):
    # Foot, belly, neck and lip.
    return 6 + 8 * math.sin(math.pi * min(v / 0.8, 1.0)) ** 1.5 + (3 * (v - 0.8) / 0.2 if v > 0.8 else 0)


def main():
    cx, cy, cz = -25.0, -5.0, -130.0
    out = ["# vase of revolution: daylit's stand-in for RADIANCE's vase.rtm"]
    for j in range(N_UP + 1):
        v = j / N_UP
        r = radius(v)
        dr = (radius(min(v + 1e-3, 1)) - radius(max(v - 1e-3, 0))) / (2e-3 * HEIGHT)
        for i in range(N_AROUND + 1):
            a = 2 * math.pi * i / N_AROUND
            out.append("v %.6f %.6f %.6f" % (cx + r * math.cos(a), cy + r * math.sin(a), cz + v * HEIGHT))
            out.append("vt %.6f %.6f" % (i / N_AROUND, v))
            n = (math.cos(a), math.sin(a), -dr)
            ln = math.sqrt(sum(c * c for c in n))
            out.append("vn %.6f %.6f %.6f" % tuple(c / ln for c in n))
    w = N_AROUND + 1
    for j in range(N_UP):
        for i in range(N_AROUND):
            a, b, c, d = j * w + i + 1, j * w + i + 2, (j + 1) * w + i + 2, (j + 1) * w + i + 1
            out.append("f %d/%d/%d %d/%d/%d %d/%d/%d" % (a, a, a, b, b, b, c, c, c))
            out.append("f %d/%d/%d %d/%d/%d %d/%d/%d" % (a, a, a, c, c, c, d, d, d))
    open("scenes/vase.obj", "w").write("\n".join(out) + "\n")


main()
