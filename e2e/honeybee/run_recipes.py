"""Runs honeybee-radiance's recipes (lbt-recipes) on the end-to-end model with the RADIANCE
programs of one folder only, and writes a summary of every result file.

Usage: run_recipes.py RADIANCE_DIR WORK_DIR SUMMARY_JSON [recipe ...]
RADIANCE_DIR holds bin/ (with `rad`, which honeybee checks for) and lib/; its bin/ is the
only place on PATH where RADIANCE names are found.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.dirname(here))
import rgbe  # noqa: E402  (e2e/rgbe.py)
rad_dir, work, summary_path = (os.path.abspath(a) for a in sys.argv[1:4])
recipes = sys.argv[4:] or [
    'point-in-time-grid', 'point-in-time-view', 'daylight-factor', 'sky-view',
    'annual-daylight', 'annual-daylight-enhanced', 'annual-irradiance',
    'cumulative-radiation', 'direct-sun-hours', 'imageless-annual-glare',
]
# The benchmark (bench/honeybee_pipeline.sh) sets its own annual parameters.
ANNUAL = os.environ.get('E2E_ANNUAL_PARAMS', '-ab 2 -ad 1024 -lw 0.002 -dr 0')
PIT = '-ab 2 -aa 0.1 -ad 1024 -ar 64 -lw 0.002'


def inputs(recipe, model, wea):
    grid_pit = {'radiance-parameters': PIT}
    return {
        'point-in-time-grid': dict(grid_pit, sky='climate-based 21 Jun 12:00 -lat 36.1 -lon -79.95 -tz -5 -dni 800 -dhi 120'),
        'point-in-time-view': dict(grid_pit, sky='cie 21 Jun 12:00 -lat 36.1 -lon -79.95 -tz -5 -type 0', resolution=64),
        'daylight-factor': grid_pit,
        # sky-view fixes -ab 1 and -I itself and refuses them in the parameters.
        'sky-view': {'radiance-parameters': '-aa 0.1 -ad 1024 -ar 64 -lw 0.002'},
        'annual-daylight': {'wea': wea, 'radiance-parameters': ANNUAL},
        'annual-daylight-enhanced': {'wea': wea, 'radiance-parameters': ANNUAL},
        'annual-irradiance': {'wea': wea, 'radiance-parameters': ANNUAL},
        'cumulative-radiation': {'wea': wea, 'radiance-parameters': '-ab 2 -ad 1024 -lw 0.002'},
        'direct-sun-hours': {'wea': wea},
        'imageless-annual-glare': {'wea': wea, 'radiance-parameters': ANNUAL},
    }[recipe] | {'model': model, 'cpu-count': 1}


def read_values(path):
    """The numbers of a result file: text, NumPy, a RADIANCE matrix (header; ascii or
    float), or a picture (luminance)."""
    b = open(path, 'rb').read()
    if b.startswith(b'\x93NUMPY'):
        return np.load(path).astype(float).ravel()
    if b.startswith(b'#?RADIANCE'):
        k = b.index(b'\n\n') + 2
        head = b[:k].decode('latin1')
        if 'FORMAT=32-bit_rle_rgbe' in head:
            return rgbe.luminance(b)
        if 'FORMAT=float' in head:
            return np.frombuffer(b[k:], dtype='<f4').astype(float)
        b = b[k:]
    return np.array(b.split(), dtype=float)


RESULT_EXT = ('.res', '.ill', '.da', '.cda', '.udi', '.HDR', '.dgp', '.ga')


def summarise(run_dir):
    out = {}
    for dirpath, _, files in os.walk(run_dir):
        rel = os.path.relpath(dirpath, run_dir)
        parts = rel.split(os.sep)
        if not ('results' in parts or 'metrics' in parts or 'final' in parts):
            continue
        if 'initial_results' in parts and 'final' not in parts:
            continue
        for f in sorted(files):
            if f.endswith(RESULT_EXT):
                v = read_values(os.path.join(dirpath, f))
                out[os.path.join(rel, f)] = {'mean': float(v.mean()), 'n': int(v.size)}
    return out


os.makedirs(work, exist_ok=True)
model_dir = os.path.join(work, 'model')
if not os.path.exists(os.path.join(model_dir, 'model.hbjson')):
    subprocess.run([sys.executable, os.path.join(here, 'make_model.py'), model_dir,
                    os.path.join(root, 'examples/weather/723170TYA.CSV')], check=True)
model, wea = os.path.join(model_dir, 'model.hbjson'), os.path.join(model_dir, 'weather.wea')

import honeybee_radiance  # noqa: E402  (after the model: its config is set below)
cfg = os.path.join(os.path.dirname(honeybee_radiance.__file__), 'config.json')
original = open(cfg).read()
env = dict(os.environ)
env['PATH'] = os.pathsep.join([os.path.join(rad_dir, 'bin'), os.path.dirname(sys.executable),
                               '/usr/bin', '/bin'])
env['RAYPATH'] = '.' + os.pathsep + os.path.join(rad_dir, 'lib')
summary = {}
try:
    c = json.loads(original)
    c['radiance_path'] = rad_dir
    open(cfg, 'w').write(json.dumps(c, indent=4))
    for r in recipes:
        run_dir = os.path.join(work, 'runs', r)
        os.makedirs(run_dir, exist_ok=True)
        inp = os.path.join(work, f'{r}.json')
        json.dump(inputs(r, model, wea), open(inp, 'w'))
        t0 = time.time()
        p = subprocess.run([os.path.join(os.path.dirname(sys.executable), 'lbt-recipes'), 'run',
                            r, inp, '-p', run_dir, '-w', '1'], env=env,
                           capture_output=True, text=True)
        log = p.stdout + p.stderr
        open(os.path.join(work, f'{r}.log'), 'w').write(log)
        # lbt-recipes exits 0 even when a task fails; its log names the failure.
        failed = 'ERROR:' in log or ' failed' in log
        files = summarise(run_dir)
        seconds = time.time() - t0
        print(f'{r}: {"FAILED" if failed or not files else "ok"} in {seconds:.0f} s, '
              f'{len(files)} result files', flush=True)
        summary[r] = {'failed': failed or not files, 'files': files, 'seconds': seconds}
finally:
    open(cfg, 'w').write(original)
json.dump(summary, open(summary_path, 'w'), indent=1, sort_keys=True)
