#!/usr/bin/env python3
"""Writes the small input pictures of the picture-pattern goldens (run once; the outputs are
committed). The same 7 x 5 colours are stored three ways: standard orientation, rows from
the bottom and right to left, and column by column with a pixel aspect and an exposure."""
import math


def rgbe(c):
    m = max(c)
    if m < 1e-32:
        return bytes(4)
    f, e = math.frexp(m)
    s = f * 256.0 / m
    return bytes([int(c[0] * s), int(c[1] * s), int(c[2] * s), e + 128])


W, H = 7, 5


def colour(col, row_top):
    # Uneven values, so bilinear interpolation is not exact between pixels.
    k = (col * 37 + row_top * 11) % 17
    return (0.1 + 0.8 * k / 16.0, 0.2 + 0.05 * col + 0.1 * row_top, 0.9 - 0.1 * ((col + 2 * row_top) % 7))


def write(name, res, order, extra=()):
    head = b"#?RADIANCE\n" + b"".join(l.encode() + b"\n" for l in extra)
    head += b"FORMAT=32-bit_rle_rgbe\n\n" + res.encode() + b"\n"
    body = b"".join(rgbe(colour(c, r)) for c, r in order)
    open(name, "wb").write(head + body)


write("grid.hdr", f"-Y {H} +X {W}", [(c, r) for r in range(H) for c in range(W)])
# +Y: first scanline at the bottom; -X: each from the right.
write("flip.hdr", f"+Y {H} -X {W}", [(c, r) for r in reversed(range(H)) for c in reversed(range(W))])
# +X: scanlines are columns from the left; +Y: each from the bottom. Pixels 0.8 as tall as
# wide; EXPOSURE must not change the pattern.
write("turned.hdr", f"+X {W} +Y {H}", [(c, r) for c in range(W) for r in reversed(range(H))],
      ["PIXASPECT=0.8", "EXPOSURE=2"])


def spectral_picture(name, w, h, nc):
    """A flat hyperspectral picture: nc mantissas and a shared exponent per pixel, rows from
    the top, wavelengths from the long end."""
    head = (f"#?RADIANCE\nNCOMP={nc}\nWAVELENGTH_SPLITS= 780 588 480 380\n"
            f"FORMAT=Radiance_spectra\n\n-Y {h} +X {w}\n").encode()
    body = b""
    for r in range(h):
        for c in range(w):
            v = [0.1 + 0.8 * (((c * 5 + r * 3 + k * 7) % 11) / 10.0) for k in range(nc)]
            m = max(v)
            f, e = math.frexp(m)
            s = f * 256.0 / m
            body += bytes([int(x * s) for x in v] + [e + 128])
    open(name, "wb").write(head + body)


spectral_picture("spect.hsr", 5, 4, 6)
