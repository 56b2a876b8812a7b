"""Compares two run_multiphase.py runs (RADIANCE, daylit): every step's exit status, the
matrices element by element, and the annual illuminance per state and sensor.
Usage: compare_multiphase.py REF_WORK REF_SUMMARY TEST_WORK TEST_SUMMARY"""
import json
import os
import sys

import numpy as np

ref_dir, ref_sum, test_dir, test_sum = sys.argv[1:5]
ref, test = json.load(open(ref_sum)), json.load(open(test_sum))


def body(path):
    """The numbers of a RADIANCE matrix file (ascii, float or double body)."""
    b = open(path, 'rb').read()
    k = b.index(b'\n\n') + 2 if b.startswith(b'#?RADIANCE') else 0
    head = b[:k].decode('latin1')
    if 'FORMAT=float' in head:
        return np.frombuffer(b[k:], dtype='<f4').astype(float)
    if 'FORMAT=double' in head:
        return np.frombuffer(b[k:], dtype='<f8')
    return np.array(b[k:].split(), dtype=float)


failed = [s for s in test['steps'] if s.get('rc', 0) != 0]
for s in test['steps']:
    if 'rc' in s:
        r = next(x['rc'] for x in ref['steps'] if x['step'] == s['step'])
        print(f"{s['step']:28s} RADIANCE rc {r}  daylit rc {s['rc']}")
for f, rs in ref['matrix_sums'].items():
    if f not in test['matrix_sums']:
        print(f'{f}: missing in the daylit run')
        continue
    a, b = body(os.path.join(ref_dir, f)), body(os.path.join(test_dir, f))
    if a.size != b.size:
        print(f'{f}: {a.size} numbers from RADIANCE, {b.size} from daylit')
        continue
    rms = np.sqrt(np.mean((a - b) ** 2)) / max(np.sqrt(np.mean(a ** 2)), 1e-30)
    print(f"{f}: sum RADIANCE {rs:.6g} daylit {test['matrix_sums'][f]:.6g} "
          f"({100 * (test['matrix_sums'][f] / rs - 1):+.2f} %), element RMS diff "
          f"{100 * rms:.2f} % of RMS")
worst = 0.0
for k, r in ref['results'].items():
    t = test['results'].get(k)
    if t is None:
        print(f'{k}: no daylit result')
        worst = float('inf')
        continue
    a, b = np.array(r['sensor_mean']), np.array(t['sensor_mean'])
    d = 100 * (b / a - 1)
    worst = max(worst, float(np.abs(d).max()))
    print(f"{k} {r['shape']}: annual mean lux RADIANCE {a.mean():.2f} daylit {b.mean():.2f}; "
          f"per sensor {' '.join(f'{x:+.1f}' for x in d)} %")
print(f'steps failed with daylit: {len(failed)}; worst per-sensor annual mean difference '
      f'{worst:.1f} %')
sys.exit(1 if failed else 0)
