"""Luminance of the pixels of a RADIANCE picture (RGBE, new-style run-length scanlines as
RADIANCE writes them for widths 8..32767), for the end-to-end tests' summaries."""
import numpy as np


def luminance(picture: bytes) -> np.ndarray:
    """179 x (0.265 R + 0.670 G + 0.065 B) of every pixel, divided by the EXPOSURE= lines."""
    k = picture.index(b'\n\n') + 2
    head = picture[:k].decode('latin1')
    exposure = np.prod([float(line[9:]) for line in head.split('\n')
                        if line.startswith('EXPOSURE=')] or [1.0])
    end = picture.index(b'\n', k)
    _, h, _, w = picture[k:end].split()
    h, w = int(h), int(w)
    pos, pixels = end + 1, []
    for _ in range(h):
        if picture[pos:pos + 2] != b'\x02\x02':
            raise ValueError('only run-length encoded scanlines are read')
        pos += 4
        planes = []
        for _ in range(4):
            plane = []
            while len(plane) < w:
                n = picture[pos]
                if n > 128:
                    plane += [picture[pos + 1]] * (n - 128)
                    pos += 2
                else:
                    plane += list(picture[pos + 1:pos + 1 + n])
                    pos += 1 + n
            planes.append(plane)
        pixels += list(zip(*planes))
    p = np.array(pixels, dtype=float)
    f = np.where(p[:, 3] > 0, np.ldexp(1.0, (p[:, 3] - 136).astype(int)), 0.0)
    return 179 * (((p[:, :3] + 0.5) * f[:, None]) @ [0.265, 0.670, 0.065]) / exposure
