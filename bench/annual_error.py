"""Errors of an annual result against a converged reference (bench/annual_defaults.sh).

argv: ROOMDIR SUN_F32_GZ WEA KIND RESULT, where ROOMDIR holds two.txt (converged DC . S) and
direct.txt (direct DC . S_sun), KIND is "five" (two - direct + sun: daylit annual's formula) or
"two", and RESULT is daylit annual's sensors.csv or a text year (32 rows x 8760 hours of lux).
Prints "MARD % | p95 % | DA300 MAE" of the per-sensor mean over the occupied hours (8-18 h).
"""
import csv
import gzip
import sys

import numpy as np

room, sun_path, wea, kind, result = sys.argv[1:6]
two = np.loadtxt(room + '/two.txt').reshape(32, -1)
ref = two
if kind == 'five':
    sun = np.frombuffer(gzip.open(sun_path).read(), '<f4').reshape(32, -1).astype(float)
    ref = np.maximum(two - np.loadtxt(room + '/direct.txt').reshape(32, -1), 0) + sun
hours = [float(l.split()[2]) for l in open(wea) if l[:1].isdigit()]
occupied = np.array([8 <= h < 18 for h in hours])
ref_mean = ref[:, occupied].mean(1)
ref_da = (ref[:, occupied] >= 300).mean(1)
if result.endswith('.csv'):
    rows = list(csv.DictReader(l for l in open(result) if not l.startswith('#')))
    mean = np.array([float(r['mean_lux']) for r in rows])
    da = np.array([float(r['DA300']) for r in rows])
else:
    e = np.loadtxt(result).reshape(32, -1)
    mean, da = e[:, occupied].mean(1), (e[:, occupied] >= 300).mean(1)
rel = np.abs(mean / ref_mean - 1)
print('%.2f %% | %.1f %% | %.3f' % (100 * rel.mean(), 100 * np.percentile(rel, 95), np.abs(da - ref_da).mean()))
