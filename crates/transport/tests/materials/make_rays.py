"""Writes the ray files of the material cases (origin and direction per line)."""
import math

SUN = (0.3, -0.4, 0.866)


def norm(v):
    l = math.sqrt(sum(c * c for c in v))
    return tuple(c / l for c in v)


def aim(target, d, back=3.0):
    d = norm(d)
    return tuple(t - back * c for t, c in zip(target, d)) + d


def write(name, rays):
    with open(name, "w") as f:
        for r in rays:
            f.write(" ".join(f"{x:.6f}" for x in r) + "\n")


def floor_rays(x0, x1, z=0.0, tilts=((0, 0, 0),)):
    """Rays at a grid of points on a floor strip: towards the sun's mirror image, around it,
    and from a few other directions."""
    rays = []
    mirror = (SUN[0], SUN[1], -SUN[2])
    offsets = [(0, 0, 0), (0.08, 0, 0), (0, 0.08, 0), (-0.15, 0.05, 0), (0.3, 0.3, 0),
               (0, -0.25, 0)]
    others = [(0, 0.3, -1), (-0.5, 0.2, -0.6), (0.7, 0.7, -0.4)]
    for i in range(3):
        for j in range(3):
            p = (x0 + (x1 - x0) * (i + 0.5) / 3, 2 * (j + 0.5) / 3, z)
            for o in offsets:
                rays.append(aim(p, tuple(m + c for m, c in zip(mirror, o))))
            for d in others:
                rays.append(aim(p, d))
    return rays


def ceiling_rays(x0, x1, z):
    """Rays from below looking up through a ceiling strip, towards the sun and around it."""
    rays = []
    offsets = [(0, 0, 0), (0.05, 0, 0), (0, 0.1, 0), (-0.2, 0, 0), (0.3, -0.2, 0)]
    for i in range(3):
        for j in range(3):
            p = (x0 + (x1 - x0) * (i + 0.5) / 3, 2 * (j + 0.5) / 3, z)
            for o in offsets:
                rays.append(aim(p, tuple(s + c for s, c in zip(SUN, o)), back=1.5))
            rays.append(aim(p, (0.1, 0.1, 1), back=1.5))
    return rays


def strip_rays(x0, x1, z=0.0, n=24):
    """Rays from above along the middle of a strip, at two slants."""
    rays = []
    for k in range(n):
        x = x0 + (x1 - x0) * (k + 0.5) / n
        for d in [(0.05, 0.3, -1), (-0.4, -0.2, -1), (SUN[0], SUN[1], -SUN[2])]:
            rays.append(aim((x, 0.7 + 0.6 * k / n, z), d))
    return rays


write("aniso.rays", floor_rays(0, 2) + floor_rays(3, 5) + ceiling_rays(6, 8, 3))
write("patterns.rays",
      strip_rays(-1, 3) + strip_rays(4, 7) + strip_rays(8, 11) + strip_rays(12, 15)
      + strip_rays(16, 19) + strip_rays(20, 23) + strip_rays(24, 27, z=1))
water = []
for a in range(0, 85, 7):
    t = math.radians(a)
    for phi in (0, 2.1):
        d = (math.sin(t) * math.cos(phi), math.sin(t) * math.sin(phi), -math.cos(t))
        water.append(aim((0.3, -0.2, 0), d, back=2))
        # From inside the water looking up, past the critical angle too.
        water.append((0.1, 0.2, -0.5) + (d[0], d[1], -d[2]))
for k in range(12):
    # Through the dispersive ball.
    water.append((-1 + k / 6, 0.1 * k, 6, 0.05 * (6 - k), 0.0, -1))
    water[-1] = water[-1][:3] + norm(water[-1][3:])
write("interface.rays", water)
