#!/usr/bin/env python3
"""Writes the benchmark mesh: a rolling terrain plus scattered tilted boxes, about N triangles,
with usemtl names `terrain` and `box`. Deterministic (fixed seed)."""
import math, random, sys

n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
out = sys.argv[1]
rng = random.Random(1)
boxes = n // 50 // 12             # 2% of the triangles in boxes
g = int(math.sqrt((n - boxes * 12) / 2))
size = 100.0
lines = ["usemtl terrain"]
for j in range(g + 1):
    for i in range(g + 1):
        x, y = size * i / g, size * j / g
        z = 3 * math.sin(x * 0.21) * math.cos(y * 0.17) + 0.5 * math.sin(x * 1.3 + y * 0.7)
        lines.append(f"v {x:.5f} {y:.5f} {z:.5f}")
for j in range(g):
    for i in range(g):
        a = j * (g + 1) + i + 1
        b, c, d = a + 1, a + g + 2, a + g + 1
        lines.append(f"f {a} {b} {c}")
        lines.append(f"f {a} {c} {d}")
nv = (g + 1) ** 2
lines.append("usemtl box")
for k in range(boxes):
    cx, cy, cz = rng.uniform(0, size), rng.uniform(0, size), rng.uniform(0, 8)
    sx, sy, sz = (rng.uniform(0.2, 2.0) for _ in range(3))
    th = rng.uniform(0, math.pi)
    ct, st = math.cos(th), math.sin(th)
    for c in range(8):
        dx = (sx if c & 1 else -sx) / 2
        dy = (sy if c & 2 else -sy) / 2
        dz = (sz if c & 4 else -sz) / 2
        lines.append(f"v {cx + ct*dx - st*dy:.5f} {cy + st*dx + ct*dy:.5f} {cz + dz:.5f}")
    for f in ((0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)):
        q = [nv + 1 + x for x in f]
        lines.append(f"f {q[0]} {q[1]} {q[2]}")
        lines.append(f"f {q[0]} {q[2]} {q[3]}")
    nv += 8
with open(out, "w") as fh:
    fh.write("\n".join(lines) + "\n")
print(f"{out}: {2 * g * g + boxes * 12} triangles")
