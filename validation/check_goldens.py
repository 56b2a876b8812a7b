#!/usr/bin/env python3
"""Sanity checks of the RADIANCE goldens: analytic cases against their closed forms (including RADIANCE's -ab
truncation), rooms for plausibility. Prints a report; `--write` also stores it as goldens/CHECK.txt.
Needs only Python 3 (no RADIANCE)."""
import math, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))

def rows(path):
    return [[float(v) for v in l.split()] for l in open(path) if l.strip()]

def lum(rgb):
    return 179 * (0.265 * rgb[0] + 0.670 * rgb[1] + 0.065 * rgb[2])

out = []
def p(s=""):
    out.append(s); print(s)

def sphere_furnace(case, E0, rho, r, R, N, emitter_is_light, Lrad):
    """Concentric spherical emitter (radius r) inside a Lambertian bubble (radius R, reflectance rho).
    E0 = direct irradiance on the wall = pi*L*r^2/R^2. The emitter is black to reflected light, so from a wall point
    a fraction eps = r^2/R^2 of the cosine-weighted hemisphere is emitter: each wall reflection keeps q = rho*(1-eps).
    Wall irradiance as RADIANCE computes it one ambient level below the sensor, W1:
      light source (direct calc at every level, ambient stops at level N):  W1 = E0 * sum_{k=0}^{N-1} q^k
      glow emitter (found only by ambient rays, so none at level N):          W1 = E0 * sum_{k=0}^{N-2} q^k
    Sensor at distance d from the centre, normal n, cos(theta) = n . (centre - p)/d:
      emitter fully in front (sin^2(alpha) = r^2/d^2): E = pi*L*sin^2a*cos(theta) + rho*W1*(1 - sin^2a*cos(theta))
      emitter behind the sensor plane:                  E = rho*W1"""
    eps = r * r / (R * R)
    q = rho * (1 - eps)
    nterms = N if emitter_is_light else N - 1
    W1 = E0 * (1 - q ** nterms) / (1 - q)
    Winf = E0 / (1 - q)
    pts = rows(os.path.join(HERE, "scenes", case, "sensors.pts"))
    got = rows(os.path.join(HERE, "goldens", case, "irradiance.txt"))
    p(f"{case}: E0={E0:g} rho={rho} eps={eps:g} q={q:g} -ab {N}: wall irradiance W1={W1:.4f} "
      f"(infinite bounces {Winf:.4f}, truncation {100*(1-W1/Winf):.3f}%)")
    worst = 0
    for (x, y, z, dx, dy, dz), g in zip(pts, got):
        d = math.sqrt(x * x + y * y + z * z)
        cos_t = (-(x * dx + y * dy + z * dz)) / d
        s2 = r * r / (d * d)
        sina = math.sqrt(s2)
        if cos_t >= sina:            # whole emitter above the sensor's horizon
            exp = math.pi * Lrad * s2 * cos_t + rho * W1 * (1 - s2 * cos_t)
        elif cos_t <= -sina:         # whole emitter behind
            exp = rho * W1
        else:
            exp = float("nan")
        rel = g[0] / exp - 1
        worst = max(worst, abs(rel))
        p(f"   p=({x:6.3f},{y:6.3f},{z:6.3f}) n=({dx:5.2f},{dy:5.2f},{dz:5.2f})  RADIANCE {g[0]:10.4f}  closed form {exp:10.4f}  diff {100*rel:+.3f}%")
    p(f"   max |diff| {100*worst:.3f}%")
    return worst

def tilt_case(case, L, rho_g):
    """Uniform sky of radiance L over the upper hemisphere, ground of reflectance rho_g (radiance rho_g*L, since its
    irradiance is pi*L): a sensor tilted by beta from the zenith gets E = pi*L*((1+cos b)/2 + rho_g*(1-cos b)/2)."""
    pts = rows(os.path.join(HERE, "scenes", case, "sensors.pts"))
    got = rows(os.path.join(HERE, "goldens", case, "irradiance.txt"))
    p(f"{case}: uniform sky L={L}, ground reflectance {rho_g}: E = pi*L*((1+cos b)/2 + rho_g*(1-cos b)/2)")
    worst = 0
    for (x, y, z, dx, dy, dz), g in zip(pts, got):
        cb = dz
        f = (1 + cb) / 2 + rho_g * (1 - cb) / 2
        exp = [math.pi * l * f for l in L]
        rel = max(abs(a / b - 1) for a, b in zip(g, exp)) if exp[0] > 0 else max(abs(v) for v in g)
        worst = max(worst, rel)
        p(f"   n=({dx:6.3f},{dy:6.3f},{dz:6.3f}) beta={math.degrees(math.acos(max(-1,min(1,cb)))):5.1f}  RADIANCE "
          f"{g[0]:9.4f} {g[1]:9.4f} {g[2]:9.4f}  closed form {exp[0]:9.4f} {exp[1]:9.4f} {exp[2]:9.4f}  max diff "
          f"{100*rel:.3f}%" + (" (absolute W/m2)" if exp[0] == 0 else ""))
    p(f"   max |diff| {100*worst:.3f}%")
    return worst

def sun_case(case):
    """Distant light source of radiance Ls and angular diameter a: solid angle w = 2*pi*(1-cos(a/2)), normal
    irradiance En = Ls*w. Ground (rho 0.2) irradiance Eg = En*sin(alt), radiance rho*Eg/pi; a sensor of normal n gets
    E = En*max(0, n.s) + rho*Eg*(1-n_z)/2 (no sky)."""
    Ls, a, alt, rho = 1e6, 0.533, math.radians(40), 0.2
    w = 2 * math.pi * (1 - math.cos(math.radians(a / 2)))
    En = Ls * w
    Eg = En * math.sin(alt)
    s = (0, -math.cos(alt), math.sin(alt))
    pts = rows(os.path.join(HERE, "scenes", case, "sensors.pts"))
    got = rows(os.path.join(HERE, "goldens", case, "irradiance.txt"))
    p(f"{case}: sun solid angle {w:.6e} sr, normal irradiance {En:.4f} W/m2, ground irradiance {Eg:.4f}")
    worst = 0
    for (x, y, z, dx, dy, dz), g in zip(pts, got):
        exp = En * max(0.0, dx * s[0] + dy * s[1] + dz * s[2]) + rho * Eg * (1 - dz) / 2
        rel = g[0] / exp - 1
        worst = max(worst, abs(rel))
        p(f"   n=({dx:6.3f},{dy:6.3f},{dz:6.3f})  RADIANCE {g[0]:9.4f}  closed form {exp:9.4f}  diff {100*rel:+.3f}%")
    p(f"   max |diff| {100*worst:.3f}%")
    return worst

def room(case):
    pts = rows(os.path.join(HERE, "scenes", case, "sensors.pts"))
    lux = [float(l) for l in open(os.path.join(HERE, "goldens", case, "illuminance.txt"))]
    p(f"{case}: {len(lux)} sensors, lux min {min(lux):.0f} mean {sum(lux)/len(lux):.0f} max {max(lux):.0f}")
    by_y = {}
    for pt, v in zip(pts, lux):
        by_y.setdefault(pt[1], []).append(v)
    p("   mean lux by row (y in m): " + "  ".join(f"{y:g}:{sum(v)/len(v):.0f}" for y, v in sorted(by_y.items())))
    if "overcast" in case:
        p("   daylight factor by row (%): " + "  ".join(f"{y:g}:{sum(v)/len(v)/100:.2f}" for y, v in sorted(by_y.items())))
    hdr = os.path.join(HERE, "goldens", case, "view.hdr")
    if os.path.exists(hdr):
        p(f"   view.hdr {os.path.getsize(hdr)} bytes")

p("# Golden sanity checks (validation/check_goldens.py)")
p()
r = {}
r["01"] = sphere_furnace("01_furnace_light", 100.0, 0.5, 0.02, 1.0, 12, True, 100.0 / (math.pi * 0.02 ** 2))
p()
r["02"] = sphere_furnace("02_furnace_glow", 100.0, 0.8, 0.5, 1.0, 16, False, 100.0 / (math.pi * 0.25))
p()
r["03"] = tilt_case("03_uniform_sky", (100, 90, 80), 0.0)
p()
r["04"] = tilt_case("04_uniform_sky_ground", (100, 90, 80), 0.2)
p()
r["05"] = sun_case("05_sun_ground")
p()
for c in sorted(os.listdir(os.path.join(HERE, "goldens"))):
    if c[:2].isdigit() and int(c[:2]) >= 6 and os.path.exists(os.path.join(HERE, "goldens", c, "illuminance.txt")):
        room(c); p()
if "--write" in sys.argv:
    open(os.path.join(HERE, "goldens", "CHECK.txt"), "w").write("\n".join(out) + "\n")
