"""Runs honeybee-radiance's multi-phase (three-phase) command chain, as its recipe does, on the
model of make_multiphase_model.py with the RADIANCE programs of one folder first on PATH, and
writes a summary: every command with its exit status and error text, and the results.

Usage: run_multiphase.py RADIANCE_BIN WORK_DIR MODEL_HBJSON WEA SUMMARY_JSON
Chain: translate model-to-rad-folder; multi-phase prepare-multiphase --phase 3; sky mtx
(gendaymtx) and sky skydome (the rfluxmtx sky); multi-phase dmtx-group; per daylight-matrix
group multi-phase flux-transfer (D); multi-phase view-matrix per receiver (V); three-phase
combinations; per grid and state three-phase rmtxop (V T D S, illuminance).
"""
import glob
import json
import os
import subprocess
import sys

import numpy as np

rad_bin, work, model, wea, summary_path = (os.path.abspath(a) for a in sys.argv[1:6])
venv_bin = os.path.dirname(sys.executable)
hb = os.path.join(venv_bin, 'honeybee-radiance')
# Settings under which RADIANCE's own runs agree within about 2 % per sensor (-ad 512 -c 1
# for V scatters up to 40 % between two RADIANCE runs); a run still takes under a minute.
# MULTIPHASE_VMTX and MULTIPHASE_DMTX override them.
VMTX = os.environ.get('MULTIPHASE_VMTX', '-ab 2 -ad 65536 -lw 1e-6 -c 1')
DMTX = os.environ.get('MULTIPHASE_DMTX', '-ab 2 -ad 512 -lw 1e-4 -c 2000')
env = dict(os.environ)
env['PATH'] = os.pathsep.join([rad_bin, venv_bin, '/usr/bin', '/bin'])
env['RAYPATH'] = '.' + os.pathsep + os.path.join(os.path.dirname(rad_bin), 'lib')
os.makedirs(work, exist_ok=True)
steps = []


def hbr(name, *args):
    """Runs one honeybee-radiance command in WORK_DIR; records it and its outcome."""
    cmd = [hb, *args]
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
    err = '\n'.join(l for l in (p.stdout + p.stderr).splitlines()
                    if 'UserWarning' not in l and 'parser' not in l)
    steps.append({'step': name, 'args': ' '.join(args), 'rc': p.returncode,
                  'output': err[-2000:]})
    print(f'{name}: rc {p.returncode}', flush=True)
    if p.returncode != 0:
        print(err[-2000:], flush=True)
    return p


def dry(name, *args):
    """The RADIANCE command line honeybee builds (its --dry-run)."""
    p = subprocess.run([hb, *args, '--dry-run'], cwd=work, env=env, capture_output=True,
                       text=True)
    steps.append({'step': name + ' (dry run)', 'command': p.stdout.strip()})


hbr('model-to-rad-folder', 'translate', 'model-to-rad-folder', model, '--folder', '.')
hbr('prepare-multiphase', 'multi-phase', 'prepare-multiphase', 'model', '1', '--phase', '3')
oct3 = 'octree/__three_phase__.oct'
hbr('sky mtx', 'sky', 'mtx', wea, '--name', 'sky', '--folder', 'sky')
hbr('sky skydome', 'sky', 'skydome', '--name', 'rflux_sky.sky', '--folder', 'sky')
hbr('dmtx-group', 'multi-phase', 'dmtx-group', 'model', oct3, 'sky/rflux_sky.sky',
    '--name', 'dmx_aperture_groups', '--output-folder', 'dmtx_groups', '-ad', '512')


def expand_xform(path):
    """Replaces each '!xform FILE' line (no transform: the file as is) by FILE's text, for
    programs that do not run inline commands in sender and receiver files."""
    path = os.path.join(work, path)
    lines = []
    for line in open(path).read().splitlines():
        w = line.split()
        if len(w) == 2 and w[0] == '!xform':
            line = open(os.path.join(work, w[1])).read()
        lines.append(line)
    open(path, 'w').write('\n'.join(lines) + '\n')


if os.environ.get('MULTIPHASE_EXPAND_XFORM') == '1':
    for f in glob.glob(os.path.join(work, 'dmtx_groups/groups/*.rad')) + \
            glob.glob(os.path.join(work, 'model/receiver/*.rad')):
        expand_xform(f)
senders = json.load(open(os.path.join(work, 'dmtx_groups/groups/dmx_aperture_groups.json')))
os.makedirs(os.path.join(work, 'dmtx'), exist_ok=True)
for s in senders:
    args = ['multi-phase', 'flux-transfer', f"dmtx_groups/groups/{s['identifier']}.rad",
            'sky/rflux_sky.sky', oct3, '--rad-params', DMTX, '--output',
            f"dmtx/{s['identifier']}.dmtx"]
    dry('flux-transfer', *args)
    hbr('flux-transfer', *args)
receivers = json.load(open(os.path.join(work, 'model/receiver/_info.json')))
for r in receivers:
    args = ['multi-phase', 'view-matrix', f"model/receiver/{r['path']}", oct3,
            f"model/grid/{r['full_id']}.pts", '--rad-params',
            f"{VMTX} -o vmtx/{r['identifier']}..%s.vtmx"]
    os.makedirs(os.path.join(work, 'vmtx'), exist_ok=True)
    dry('view-matrix', *args)
    hbr('view-matrix', *args)
hbr('three-phase combinations', 'multi-phase', 'three-phase', 'combinations',
    'dmtx_groups/groups/dmx_aperture_groups.json', 'model/receiver/_info.json',
    'model/aperture_group/states.json', '--folder', 'info')
sky = os.path.join(work, 'sky', 'sky.mtx')
os.makedirs(os.path.join(work, 'results'), exist_ok=True)
results = {}
for c in json.load(open(os.path.join(work, 'info/3phase_multiplication_info.json'))):
    out = f"results/{c['identifier']}.ill"
    args = ['multi-phase', 'three-phase', 'rmtxop', f"vmtx/{c['vmtx']}",
            f"model/bsdf/{c['tmtx']}", f"dmtx/{c['dmtx']}", sky, out]
    dry('rmtxop', *args)
    if hbr('rmtxop', *args).returncode == 0:
        v = np.loadtxt(os.path.join(work, out), ndmin=2)
        results[c['identifier']] = {'shape': list(v.shape),
                                    'sensor_mean': v.mean(axis=1).tolist()}


def mtx_sum(path):
    """The sum of a RADIANCE matrix file's numbers (ascii or float body)."""
    b = open(path, 'rb').read()
    k = b.index(b'\n\n') + 2 if b.startswith(b'#?RADIANCE') else 0
    head = b[:k].decode('latin1')
    if 'FORMAT=float' in head:
        return float(np.frombuffer(b[k:], dtype='<f4').astype(float).sum())
    if 'FORMAT=double' in head:
        return float(np.frombuffer(b[k:], dtype='<f8').sum())
    return float(np.array(b[k:].split(), dtype=float).sum())


matrices = {os.path.relpath(f, work): mtx_sum(f)
            for f in sorted(glob.glob(os.path.join(work, 'vmtx/*')) + [os.path.join(work, 'dmtx_groups/apertures_vf.mtx'), os.path.join(work, 'sky/sky.mtx')] +
                            glob.glob(os.path.join(work, 'dmtx/*')))}
json.dump({'steps': steps, 'results': results, 'matrix_sums': matrices},
          open(summary_path, 'w'), indent=1)
