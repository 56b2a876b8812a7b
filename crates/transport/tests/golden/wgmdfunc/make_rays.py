"""Writes the ray files of the WGMDfunc goldens (origin and direction per line): rays down at
the floors, up through and down at the panes, and at the sphere from all round."""
import math

SUN = (0.3, -0.4, 0.866)
LAMP = (-0.6, 0.5, 0.62)


def norm(v):
    l = math.sqrt(sum(c * c for c in v))
    return tuple(c / l for c in v)


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def mirror(v):
    return (v[0], v[1], -v[2])


def aim(target, d, back):
    d = norm(d)
    return tuple(t - back * c for t, c in zip(target, d)) + d


def strip(x0, z, dirs, back, pts=(0.3, 0.5, 0.8), ys=(0.5, 1.4)):
    return [aim((x0 + 2 * fx, y, z), d, back) for fx in pts for y in ys for d in dirs]


DOWN = [mirror(SUN), add(mirror(SUN), (0.06, 0, 0)), add(mirror(SUN), (0, 0.1, 0)),
        add(mirror(SUN), (-0.2, 0.1, 0)), mirror(LAMP), add(mirror(LAMP), (0.1, -0.1, 0)),
        (0, 0.3, -1), (-0.5, 0.2, -0.6), (0.7, 0.7, -0.4)]
UP = [SUN, add(SUN, (0.05, 0, 0)), add(SUN, (0, 0.15, 0)), add(SUN, (-0.3, 0.1, 0)), LAMP,
      (0.1, 0.1, 1), (-0.6, -0.3, 0.5)]


def from_above(x0, z, **k):
    return strip(x0, z, DOWN, 2.5, **k)


def from_below(x0, z, **k):
    return strip(x0, z, UP, 1.5, **k)


def at_sphere(c):
    rays = []
    for a in range(0, 360, 40):
        t = math.radians(a)
        for (off, el) in ((0.0, -0.5), (0.45, -0.2), (0.8, -0.7), (-0.6, 0.1)):
            d = norm((math.cos(t), math.sin(t), el))
            side = norm((-math.sin(t), math.cos(t), 0))
            rays.append(tuple(ci - 4 * di + off * si for ci, di, si in zip(c, d, side)) + d)
    return rays


def write(name, rays):
    with open(name, "w") as f:
        for r in rays:
            f.write(" ".join(f"{x:.6f}" for x in r) + "\n")


rays = (from_above(0, 0) + from_above(3, 0) + from_above(6, 0) + from_below(6, 3)
        + from_above(6, 3) + from_below(9, 1) + from_above(9, 1) + at_sphere((14, 1, 1)))
write("wgmd.rays", rays)
write("ambient.rays", rays[::7])
