#!/usr/bin/env python3
"""Writes the bin goldens: RADIANCE's rcalc evaluates RADIANCE's own bin
function files (found on RAYPATH) for many ray directions and settings.

Run through make_bin_goldens.sh, which puts RADIANCE on PATH and RAYPATH.

Files written beside this script:
  frame_<name>.dat   one line per direction: Dx Dy Dz, then one value per
                     column; the "# col" header lines give each column's
                     file, settings (rcalc -e text, applied after the file)
                     and expression.
  square2disk.dat    in_square_x in_square_y out_disk_x out_disk_y
  disk2square.dat    in_disk_x in_disk_y out_square_x out_square_y
  counts.dat         file | settings | expression | value

Every number is written so that it reads back as the same double.
"""

import math
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEG = math.pi / 180


def fmt(v):
    """Shortest text that reads back as the same double (integers bare)."""
    if v == int(v) and abs(v) < 1e15 and not (v == 0 and math.copysign(1, v) < 0):
        return str(int(v))
    return repr(v)


def rcalc(inputs, calfile, params, expr):
    """Evaluate expr for each input record (tuple of floats, bound to Dx Dy
    Dz, or to the names in params' first -e when given as a dict)."""
    bind, settings = params
    args = ["rcalc", "-od"]
    # Constant settings (MF:4 for reinhart.cal) must exist before the file
    # that uses them in constants is read; others override the file's.
    early = ":" in settings
    if settings and early:
        args += ["-e", settings]
    if calfile:
        args += ["-f", calfile]
    args += ["-e", bind]
    if settings and not early:
        args += ["-e", settings]
    args += ["-e", "$1=" + expr]
    text = "".join(" ".join(repr(x) for x in rec) + "\n" for rec in inputs)
    out = subprocess.run(args, input=text.encode(), capture_output=True, check=True).stdout
    vals = struct.unpack("<%dd" % (len(out) // 8), out)
    if len(vals) != len(inputs):
        raise SystemExit(f"rcalc gave {len(vals)} values for {len(inputs)} inputs: {args}")
    return vals


RAY = "Dx=$1;Dy=$2;Dz=$3"


def frame_axes(n, u):
    """Unit normal, in-plane unit up and right axis (N x up)."""
    ln = math.sqrt(sum(c * c for c in n))
    n = [c / ln for c in n]
    d = sum(a * b for a, b in zip(n, u))
    up = [a - d * b for a, b in zip(u, n)]
    lu = math.sqrt(sum(c * c for c in up))
    up = [c / lu for c in up]
    right = [n[1] * up[2] - n[2] * up[1], n[2] * up[0] - n[0] * up[2], n[0] * up[1] - n[1] * up[0]]
    return n, up, right


def local_dir(axes, dz, rx, ry):
    """World direction with height dz above the surface (against N) and
    in-plane components rx (along N x up) and ry (along up)."""
    n, up, right = axes
    if axes[0] == [0.0, 0.0, -1.0] and up == [0.0, 1.0, 0.0]:
        return (rx, ry, dz)  # the sky frame: exact
    return tuple(-dz * a + rx * b + ry * c for a, b, c in zip(n, right, up))


def alt_azi(axes, alt, azi):
    """Direction at elevation alt and azimuth azi (degrees, from up towards
    N x up)."""
    dz = math.sin(alt * DEG)
    c = math.cos(alt * DEG)
    return local_dir(axes, dz, c * math.sin(azi * DEG), c * math.cos(azi * DEG))


def bumps(x, n=2):
    """x and its neighbours up to n doubles away."""
    out = [x]
    a = b = x
    for _ in range(n):
        a = math.nextafter(a, math.inf)
        b = math.nextafter(b, -math.inf)
        out += [a, b]
    return out


def directions(axes, rng, nrandom):
    dirs = []
    for _ in range(nrandom):  # uniform on the sphere
        v = [rng.gauss(0, 1) for _ in range(3)]
        l = math.sqrt(sum(c * c for c in v))
        dirs.append(tuple(c / l for c in v))
    # Reinhart / Tregenza row boundaries, at exact and neighbouring heights.
    for mf in (1, 2, 4):
        step = 90 / (7 * mf + 0.5)
        for k in range(7 * mf + 1):
            for dz in bumps(math.sin(k * step * DEG), 1):
                c = math.sqrt(max(0.0, 1 - dz * dz))
                a = rng.uniform(0, 360) * DEG
                dirs.append(local_dir(axes, dz, c * math.sin(a), c * math.cos(a)))
    # Azimuth boundaries within rows, the wrap just west of "up" and the
    # 359.9999 cut-off.
    for mf in (1, 4):
        step = 90 / (7 * mf + 0.5)
        rows = range(7 * mf + 1) if mf == 1 else (0, 3, 9, 17, 26, 28)
        for r in rows:
            count = 1 if r >= 7 * mf else mf * (30, 30, 24, 24, 18, 12, 6)[r // mf]
            inc = 360 / count
            alt = (r + 0.5) * step
            for azi in ((0.5 * inc), (1.5 * inc), (count - 0.5) * inc, 360 - 0.5 * inc,
                        359.9999 - 0.5 * inc, -1e-12, -1e-9, 0.0, 1e-12):
                for d in (-1e-9, 0.0, 1e-9):
                    dirs.append(alt_azi(axes, alt, azi + d))
    # Tregenza / CIE rows are 12 degrees; CIE azimuths start opposite "up".
    for r in range(8):
        count = (30, 30, 24, 24, 18, 12, 6, 1)[r]
        inc = 360 / count
        for j in (1, count - 1, count):
            for d in (-1e-9, 0.0, 1e-9):
                dirs.append(alt_azi(axes, 12 * r + 6, 180 + j * inc + d))
    # Klems ring limits (angle from the normal) and azimuth wraps.
    for lim in (5, 15, 25, 35, 45, 55, 65, 75, 6.5, 19.5, 32.5, 45.5, 58.5, 71.5, 9, 27, 63, 90):
        for d in (-1e-9, 0.0, 1e-9):
            dirs.append(alt_azi(axes, 90 - lim - d, rng.uniform(0, 360)))
    for w in (45, 22.5, 18, 15, 30, 360 / 16, 360 / 20, 360 / 12):
        for d in (-1e-9, 0.0, 1e-9):
            dirs.append(alt_azi(axes, rng.uniform(1, 80), 90 - (360 - 0.5 * w) + d))
            dirs.append(alt_azi(axes, rng.uniform(1, 80), 90 - 0.5 * w + d))
    # Shirley-Chiu cell edges and the square's diagonals, through the disk.
    for dim in (2, 3, 5, 12):
        for k in range(dim + 1):
            for _ in range(2):
                t = rng.uniform(0, 1)
                for sx, sy in ((k / dim, t), (t, k / dim)):
                    x, y = square_to_disk(sx, sy)
                    dz = math.sqrt(max(0.0, 1 - x * x - y * y))
                    dirs.append(local_dir(axes, dz, x, -y))
    for t in (0.1, 0.3, 0.45, 0.5, 0.7, 0.95):
        for sx, sy in ((t, t), (t, 1 - t)):
            x, y = square_to_disk(sx, sy)
            dz = math.sqrt(max(0.0, 1 - x * x - y * y))
            dirs.append(local_dir(axes, dz, x, -y))
    # The pole, the rim and behind.
    for sx in (0.0, -0.0):
        for sy in (0.0, -0.0):
            dirs.append(local_dir(axes, 1.0, sx, sy))
            dirs.append(local_dir(axes, -1.0, sx, sy))
    for e in (1e-9, 1e-12, 1e-16):
        dirs.append(local_dir(axes, math.sqrt(1 - e * e), e, 0.0))
        dirs.append(local_dir(axes, math.sqrt(1 - e * e), 0.0, -e))
    for dz in (0.0, -0.0, 1e-300, -1e-300, 5e-324, -5e-324, 1e-17, -1e-17, 1e-9, -1e-9):
        for a in (0.0, 37.0, 90.0, 180.0, 300.0, 359.99999):
            c = math.sqrt(1 - dz * dz)
            dirs.append(local_dir(axes, dz, c * math.sin(a * DEG), c * math.cos(a * DEG)))
    for _ in range(20):
        a = rng.uniform(0, 360) * DEG
        dz = -rng.uniform(0, 1)
        c = math.sqrt(1 - dz * dz)
        dirs.append(local_dir(axes, dz, c * math.sin(a), c * math.cos(a)))
    return dirs


def square_to_disk(sx, sy):
    """Shirley-Chiu square to disk (for placing test directions only)."""
    a, b = 2 * sx - 1, 2 * sy - 1
    if a == 0 and b == 0:
        return 0.0, 0.0
    if abs(a) > abs(b):
        r, phi = a, math.pi / 4 * (b / a)
    else:
        r, phi = b, math.pi / 2 - math.pi / 4 * (a / b)
    return r * math.cos(phi), r * math.sin(phi)


def frame_settings(n, u, rhs):
    return "rNx=%s;rNy=%s;rNz=%s;Ux=%s;Uy=%s;Uz=%s;RHS=%s" % (*map(fmt, n), *map(fmt, u), fmt(rhs))


def klems_call(name, n, u):
    return "%s(%s)" % (name, ",".join(fmt(c) for c in (*n, *u)))


def frame_columns(n, u):
    cols = []
    for mf in (1, 2, 4):
        cols.append(("reinhartb.cal", "MF=%d;" % mf + frame_settings(n, u, 1), "rbin"))
    cols.append(("reinhartb.cal", "MF=2;" + frame_settings(n, u, -1), "rbin"))
    for rhs in (1, -1):
        cols.append(("cieskyscan.cal", frame_settings(n, u, rhs), "cbin"))
    for dim in range(1, 13):
        cols.append(("disk2square.cal", "SCdim=%d;" % dim + frame_settings(n, u, 1), "scbin"))
    cols.append(("disk2square.cal", "SCdim=5;" + frame_settings(n, u, -1), "scbin"))
    cols.append(("klems_full.cal", "RHS=1", klems_call("kbin", n, u)))
    cols.append(("klems_full.cal", "RHS=-1", klems_call("kbin", n, u)))
    cols.append(("klems_half.cal", "RHS=1", klems_call("khbin", n, u)))
    cols.append(("klems_quarter.cal", "RHS=-1", klems_call("kqbin", n, u)))
    return cols


# (name, normal, up): the sky dome as rfluxmtx sees a `source` receiver, a
# wall, an oblique receiver with an up vector not in its plane, and a
# horizontal surface facing up.
FRAMES = [
    ("sky", (0.0, 0.0, -1.0), (0.0, 1.0, 0.0), 1100),
    ("wall", (0.0, -1.0, 0.0), (0.0, 0.0, 1.0), 500),
    ("oblique", (0.188144, -0.282216, 0.940721), (0.287348, 0.0, 0.957826), 500),
    ("floor", (-0.6, 0.0, 0.8), (0.0, 1.0, 0.0), 300),
    # Up along the normal (rfluxmtx does not refuse it for receivers): every
    # azimuth is atan2 of signed zeros.
    ("degenerate", (0.0, 0.0, 1.0), (0.0, 0.0, 1.0), 200),
]


def write_frame(name, n, u, nrandom, rng):
    if name == "degenerate":
        dirs = []
        for _ in range(nrandom):
            v = [rng.gauss(0, 1) for _ in range(3)]
            l = math.sqrt(sum(c * c for c in v))
            dirs.append(tuple(c / l for c in v))
        dirs += [(0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (-0.0, -0.0, -1.0), (1.0, 0.0, 0.0),
                 (-1.0, -0.0, 0.0), (0.0, -1.0, -0.0), (-0.0, 1.0, -0.0)]
    else:
        dirs = directions(frame_axes(n, u), rng, nrandom)
    cols = frame_columns(n, u)
    if name == "sky":
        # World-frame files and the defaults of the framed ones.
        cols = [
            ("tregenza.cal", "", "tbin"),
            ("reinhart.cal", "MF:1", "rbin"),
            ("reinhart.cal", "MF:2", "rbin"),
            ("reinhart.cal", "MF:4", "rbin"),
            ("reinhartb.cal", "", "rbin"),
            ("cieskyscan.cal", "", "cbin"),
            ("klems_full.cal", "", "kbinD"),
            ("klems_full.cal", "", "kbinS"),
            ("klems_full.cal", "", "kbinW"),
        ] + cols
    values = [rcalc(dirs, f, (RAY, s), e) for f, s, e in cols]
    path = os.path.join(HERE, "frame_%s.dat" % name)
    with open(path, "w") as out:
        out.write("# daylit bin goldens, frame '%s': normal %s, up %s\n" % (name, n, u))
        out.write("# made by make_bin_goldens.sh with RADIANCE's rcalc and .cal files\n")
        for i, (f, s, e) in enumerate(cols):
            out.write("# col %d | %s | %s | %s\n" % (i, f, s, e))
        for k, d in enumerate(dirs):
            out.write(" ".join([repr(c) for c in d] + [fmt(v[k]) for v in values]) + "\n")
    print("wrote %s: %d directions x %d columns" % (path, len(dirs), len(cols)))


def write_conversions(rng):
    pts = [(rng.uniform(0, 1), rng.uniform(0, 1)) for _ in range(400)]
    for t in (0.0, 0.25, 0.5, 0.75, 1.0):
        for s in (0.0, 0.1, 0.5, 0.9, 1.0, t):
            pts.append((t, s))
            pts.append((s, t))
    for t in bumps(0.3, 1) + bumps(0.8, 1):
        pts += [(t, t), (t, 1 - t)]
    vals = [rcalc(pts, "disk2square.cal", ("in_square_x=$1;in_square_y=$2", ""), e)
            for e in ("out_disk_x", "out_disk_y")]
    with open(os.path.join(HERE, "square2disk.dat"), "w") as out:
        out.write("# in_square_x in_square_y out_disk_x out_disk_y (RADIANCE disk2square.cal)\n")
        for k, p in enumerate(pts):
            out.write(" ".join([repr(c) for c in p] + [repr(v[k]) for v in vals]) + "\n")
    pts = []
    for _ in range(400):
        r = math.sqrt(rng.uniform(0, 1))
        a = rng.uniform(-math.pi, math.pi)
        pts.append((r * math.cos(a), r * math.sin(a)))
    for a in range(-8, 9):
        for r in (0.0, -0.0, 0.3, 1.0):
            pts.append((r * math.cos(a * math.pi / 8), r * math.sin(a * math.pi / 8)))
    for x in (0.0, -0.0):
        for y in (0.0, -0.0, 0.5, -0.5):
            pts.append((x, y))
            pts.append((y, x))
    for x in bumps(0.6, 1):
        pts += [(x, x), (x, -x), (-x, x), (-x, -x)]
    vals = [rcalc(pts, "disk2square.cal", ("in_disk_x=$1;in_disk_y=$2", ""), e)
            for e in ("out_square_x", "out_square_y")]
    with open(os.path.join(HERE, "disk2square.dat"), "w") as out:
        out.write("# in_disk_x in_disk_y out_square_x out_square_y (RADIANCE disk2square.cal)\n")
        for k, p in enumerate(pts):
            out.write(" ".join([repr(c) for c in p] + [repr(v[k]) for v in vals]) + "\n")
    print("wrote square2disk.dat, disk2square.dat")


def write_counts():
    rows = [("tregenza.cal", "", "Ntbins")]
    rows += [("reinhart.cal", "MF:%d" % m, "Nrbins") for m in (1, 2, 3, 4, 6, 8)]
    rows += [("reinhartb.cal", "", "Nrbins")]
    rows += [("reinhartb.cal", "MF=%d" % m, "Nrbins") for m in (1, 2, 3, 4, 6, 8)]
    rows += [("klems_full.cal", "", "Nkbins"), ("klems_half.cal", "", "Nkhbins"),
             ("klems_quarter.cal", "", "Nkqbins"), ("cieskyscan.cal", "", "Ncbins")]
    rows += [("disk2square.cal", "SCdim=%d" % d, "SCdim*SCdim") for d in (1, 2, 7, 12)]
    with open(os.path.join(HERE, "counts.dat"), "w") as out:
        out.write("# file | settings | expression | value (RADIANCE rcalc)\n")
        for f, s, e in rows:
            v = rcalc([(0.0, 0.0, 1.0)], f, (RAY, s), e)[0]
            out.write("%s | %s | %s | %s\n" % (f, s, e, fmt(v)))
    print("wrote counts.dat")


def main():
    rng = random.Random(20240605)
    for name, n, u, nrandom in FRAMES:
        write_frame(name, n, u, nrandom, rng)
    write_conversions(rng)
    write_counts()


if __name__ == "__main__":
    sys.exit(main())
