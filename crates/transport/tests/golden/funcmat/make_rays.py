"""Writes the ray files of the function-material goldens (origin and direction per line)."""
import math

SUN = (0.3, -0.4, 0.866)
LAMP = (-0.6, 0.5, 0.62)


def norm(v):
    l = math.sqrt(sum(c * c for c in v))
    return tuple(c / l for c in v)


def aim(target, d, back=3.0):
    d = norm(d)
    return tuple(t - back * c for t, c in zip(target, d)) + d


def mirror(v):
    return (v[0], v[1], -v[2])


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def from_above(x0, z, pts=(0.3, 0.5, 0.8), ys=(0.5, 1.4)):
    """Rays down onto a 2 x 2 patch at height z: at the sources' mirror images, around them,
    and from a few other directions."""
    rays = []
    dirs = [mirror(SUN), add(mirror(SUN), (0.06, 0, 0)), add(mirror(SUN), (0, 0.1, 0)),
            add(mirror(SUN), (-0.2, 0.1, 0)), mirror(LAMP), add(mirror(LAMP), (0.1, -0.1, 0)),
            (0, 0.3, -1), (-0.5, 0.2, -0.6), (0.7, 0.7, -0.4)]
    for fx in pts:
        for y in ys:
            p = (x0 + 2 * fx, y, z)
            for d in dirs:
                rays.append(aim(p, norm(d)))
    return rays


def from_below(x0, z, pts=(0.3, 0.7), ys=(0.5, 1.4)):
    """Rays up through a panel at height z: towards the sun, around it, and elsewhere."""
    rays = []
    dirs = [SUN, add(SUN, (0.05, 0, 0)), add(SUN, (0, 0.15, 0)), add(SUN, (-0.3, 0.1, 0)),
            LAMP, (0.1, 0.1, 1), (-0.6, -0.3, 0.5)]
    for fx in pts:
        for y in ys:
            p = (x0 + 2 * fx, y, z)
            for d in dirs:
                rays.append(aim(p, norm(d), back=1.5))
    return rays


def at_sphere(c):
    """Rays at a unit sphere from several sides, through its centre and off it."""
    rays = []
    for a in range(0, 360, 40):
        t = math.radians(a)
        for (off, el) in ((0.0, -0.5), (0.45, -0.2), (0.8, -0.7), (-0.6, 0.1)):
            d = norm((math.cos(t), math.sin(t), el))
            side = norm((-math.sin(t), math.cos(t), 0))
            o = tuple(ci - 4 * di + off * si for ci, di, si in zip(c, d, side))
            rays.append(o + d)
    return rays


def write(name, rays):
    with open(name, "w") as f:
        for r in rays:
            f.write(" ".join(f"{x:.6f}" for x in r) + "\n")


funcs = (from_above(0, 0) + from_above(3, 0) + from_above(6, 0) + from_above(9, 0)
         + from_below(12, 3) + from_above(12, 3) + from_below(15, 3) + from_above(15, 3)
         + from_below(18, 1) + from_above(18, 1) + from_above(21, 0) + at_sphere((31, 1, 1))
         + from_above(33, 0))
write("funcs.rays", funcs)
write("ashik.rays", from_above(24, 0) + at_sphere((28, 14, 1)))
# A few rays per material for the indirect (-ab 1) comparison.
amb = []
for x0, z, below in ((0, 0, False), (3, 0, False), (6, 0, False), (9, 0, False), (12, 3, True),
                     (15, 3, True), (18, 1, True), (18, 1, False), (21, 0, False),
                     (24, 0, False), (33, 0, False)):
    f = from_below if below else from_above
    amb += f(x0, z, pts=(0.4,), ys=(0.8,))[::3]
amb += at_sphere((28, 14, 1))[::6]
write("ambient.rays", amb)
