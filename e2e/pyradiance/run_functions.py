"""pyradiance's functions on the bundled reference office, with whatever programs are in
pyradiance's bin folder (RADIANCE's, or daylit's links there), summarised as JSON.

Usage: run_functions.py WORK_DIR SUMMARY_JSON
Each step is one pyradiance call (or a pipe of them); a step that fails is recorded with its
error instead of a value, so the comparison names it.
"""
import datetime
import json
import os
import sys

import numpy as np
import pyradiance as pr
from pyradiance import px

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.dirname(here))
import rgbe  # noqa: E402  (e2e/rgbe.py)
work, summary_path = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(work, exist_ok=True)
os.chdir(work)
office = os.path.join(root, 'examples/reference_office/office.rad')
# The Greensboro year as a WEA (RADIANCE's gendaymtx does not read TMY3).
weather = os.path.join(root, 'validation/annual/goldens/gso.wea')
PARAMS = ['-ab', '2', '-ad', '1024', '-as', '256', '-aa', '0.1', '-ar', '64', '-lw', '0.002']
VIEW = ['-vta', '-vh', '180', '-vv', '180', '-vp', '1.8', '4.5', '1.2', '-vd', '0', '-1', '0',
        '-vu', '0', '0', '1']
# A 3 x 4 grid of upward sensors at desk height.
points = [(x, y, 0.8, 0, 0, 1) for x in (0.9, 1.8, 2.7) for y in (1.5, 3.5, 5.5, 7.5)]
rays = ''.join(' '.join(str(v) for v in p) + '\n' for p in points).encode()
summary = {}


def step(name):
    def wrap(f):
        try:
            summary[name] = {'value': float(f())}
        except Exception as e:  # recorded, so the comparison names the failing step
            summary[name] = {'error': f'{type(e).__name__}: {e}'[:500]}
        print(name, summary[name], flush=True)
    return wrap


def numbers(b):
    return np.array(b.split(), dtype=float)


sky = pr.gensky(dt=datetime.datetime(2025, 6, 21, 12, 0), latitude=36.1, longitude=79.95,
                timezone=75, sunny_with_sun=True)
open('sky.rad', 'wb').write(sky + b'\nskyfunc glow sky_glow 0 0 4 1 1 1 0\n'
                            b'sky_glow source sky 0 0 4 0 0 1 180\n'
                            b'skyfunc glow ground_glow 0 0 4 1 1 1 0\n'
                            b'ground_glow source ground 0 0 4 0 0 -1 180\n')
open('scene.oct', 'wb').write(pr.oconv('sky.rad', office))


@step('rtrace -I | rcalc: mean illuminance (lx)')
def _():
    irr = pr.rtrace(rays, 'scene.oct', irradiance=True, header=False, params=PARAMS)
    return numbers(pr.rcalc(irr, expr='$1=179*(0.265*$1+0.67*$2+0.065*$3)')).mean()


@step('rtrace -I | total -m: mean irradiance (W/m2, red)')
def _():
    irr = pr.rtrace(rays, 'scene.oct', irradiance=True, header=False, params=PARAMS)
    return numbers(pr.total(irr, mean=True))[0]


@step('getbbox: scene size (m)')
def _():
    b = np.array(pr.getbbox(office, header=False), dtype=float).ravel()
    return (b[1] - b[0]) + (b[3] - b[2]) + (b[5] - b[4])


@step('rpict | pfilt -x /2: mean luminance (cd/m2)')
def _():
    pic = pr.rpict(VIEW, 'scene.oct', xres=128, yres=128, params=PARAMS)
    open('view.hdr', 'wb').write(pic)
    return rgbe.luminance(pr.pfilt(pic, xres='/2', yres='/2', gaussian_filter_radius=0.6)).mean()


@step('evalglare: DGP')
def _():
    out = pr.evalglare('view.hdr').decode()
    line = [l for l in out.splitlines() if l.startswith('dgp')][0]
    return float(line.split()[1].rstrip(','))


@step('vwrays | rtrace: mean of the view rays\' red radiance')
def _():
    vr = pr.vwrays(view=VIEW, xres=32, yres=32)
    return numbers(pr.rtrace(vr, 'scene.oct', header=False, params=PARAMS)).reshape(-1, 3)[:, 0].mean()


dome = ('#@rfluxmtx h=u u=Y\nvoid glow ground_glow 0 0 4 1 1 1 0\n'
        'ground_glow source ground 0 0 4 0 0 -1 180\n'
        '#@rfluxmtx h=r1 u=Y\nvoid glow sky_glow 0 0 4 1 1 1 0\n'
        'sky_glow source sky 0 0 4 0 0 1 180\n')
open('skydome.rad', 'w').write(dome)


@step('rfluxmtx | gendaymtx | dctimestep | rmtxop -c: mean annual illuminance (lx)')
def _():
    dc = pr.rfluxmtx('skydome.rad', rays=rays, scene=[office],
                     params=['-I+', '-y', str(len(points))] + PARAMS)
    open('dc.mtx', 'wb').write(dc)
    open('sky.mtx', 'wb').write(pr.gendaymtx(weather, mfactor=1))
    open('ill.mtx', 'wb').write(pr.dctimestep('dc.mtx', 'sky.mtx'))
    lux = pr.rmtxop('ill.mtx', outform='a', transform=[47.4, 119.9, 11.6])
    return numbers(pr.getinfo(lux, strip_header=True)).mean()


def scene_numbers(text):
    """Every number of a generator's scene text (the words after the argument counts)."""
    vals = []
    for line in text.decode().splitlines():
        if line.startswith('\t'):
            vals += [float(w) for w in line.split()]
    return np.array(vals)


@step('genbox -b: sum of the coordinates')
def _():
    return scene_numbers(pr.genbox('wall_mat', 'box', 4.2, 0.2, 2.7, beveled=0.01)).sum()


@step('genbox -r: sum of the coordinates and radii')
def _():
    return scene_numbers(pr.genbox('m', 'post', 0.3, 0.3, 2.5, rounded=0.05)).sum()


@step('genprism -l: sum of the coordinates')
def _():
    return scene_numbers(pr.genprism('m', 'shelf', [0, 0, 1.2, 0, 1.2, 0.3, 0, 0.45],
                                     lvect=[0, 0, 0.02])).sum()


@step('Xform -n -rz -t -a: sum of the coordinates')
def _():
    box = pr.genbox('m', 'crate', 0.6, 0.4, 0.3)
    text = pr.Xform(box, iprefix='stack').rotatez(30).translate(1, 2, 0).array(3).translate(0, 0, 0.3)()
    vals = [float(w) for line in text.decode().splitlines() if line.startswith(' ')
            for w in line.split()]
    return np.array(vals).sum()


@step('obj2rad: sum of the coordinates of RADIANCE\'s cab.obj')
def _():
    obj = os.path.join(root, 'validation/radiance_scenes/scenes/cab.obj')
    vals = [float(w) for line in pr.obj2rad(obj).decode().splitlines() if line.startswith(' ')
            for w in line.split()]
    return np.array(vals).sum()


PICTURE = os.path.join(root, 'validation/radiance_scenes/goldens/wgmdf_close.hdr')


@step('ra_ppm: mean 8-bit sample')
def _():
    ppm = pr.ra_ppm(PICTURE)
    header_end = 0
    for _ in range(3):  # "P6", "W H", "255", each ended by a newline
        header_end = ppm.index(b'\n', header_end) + 1
    return np.frombuffer(ppm[header_end:], dtype=np.uint8).mean()


@step('ra_tiff -w then ra_tiff -r: mean luminance (cd/m2)')
def _():
    pr.ra_tiff(PICTURE, out='pic.tif', primary=True)
    return rgbe.luminance(pr.ra_tiff('pic.tif', reverse=True)).mean()


@step('ies2rad -s | rtrace -I: mean illuminance under an LED luminaire (lx)')
def _():
    ies = os.path.join(root, 'crates/cli/tests/golden/ies2rad/inputs/philips_led.ies')
    open('led.rad', 'wb').write(pr.ies2rad(ies, stdout=True, outname='led', lamp_type='default'))
    open('led.oct', 'wb').write(pr.oconv('led.rad'))
    below = b''.join(f'{x} {y} -2.5 0 0 1\n'.encode() for x in (0, 0.8, 1.6) for y in (0, 0.8))
    irr = pr.rtrace(below, 'led.oct', irradiance=True, header=False, params=['-ab', '0'])
    return 179 * numbers(irr).reshape(-1, 3)[:, 0].mean()


# render() runs `rad -n` for its options file (QUALITY, DETAIL, VARIABILITY, ZONE), then rpict.
render_scene = pr.Scene('rendered')
render_scene.add_source('sky.rad')
render_scene.add_surface(office)
render_scene.add_view(pr.parse_view(' '.join(VIEW)))


@step('render (rad -n, rpict), QUALITY=Low: mean luminance (cd/m2)')
def _():
    return rgbe.luminance(pr.render(render_scene, quality='Low', resolution=(64, 64))).mean()


@step('render (rad -n, rpict), QUALITY=Medium, -ab 1, ambient file: mean luminance (cd/m2)')
def _():
    pic = pr.render(render_scene, quality='Medium', resolution=(64, 64), ambbounce=1)
    return rgbe.luminance(pic).mean()


@step('pcond -h: mean of the conditioned picture')
def _():
    return rgbe.luminance(pr.pcond(PICTURE, human=True)).mean()


# RADIANCE's font, which pyradiance's lib folder lacks: from the current folder (RAYPATH ".").
with open(os.path.join(root, 'validation/radiance_scenes/scenes/helvet.fnt'), 'rb') as f:
    open('helvet.fnt', 'wb').write(f.read())


@step('psign: mean of the sign (white on black, squeezed)')
def _():
    pic = px.psign('daylit 0.3', background=(0, 0, 0), foreground=(1, 1, 1), height=24,
                   spacing=-0.1)
    return rgbe.luminance(pic).mean()


# A small OBJ: a unit cube with normals on two faces and a duplicate face.
open('cube.obj', 'w').write(
    'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n'
    'vn 0 0 -1\nvn 0 0 1\ng cube\nusemtl grey\n'
    'f 1//1 4//1 3//1 2//1\nf 5//2 6//2 7//2 8//2\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\n'
    'f 4 1 5 8\nf 1 2 6 5\n')
open('grey.mat', 'w').write('void plastic grey 0 0 5 .5 .5 .5 0 0\n')


@step('robjutil +r: sum of the coordinates of the cleaned cube')
def _():
    text = pr.robjutil('cube.obj', radout=True)
    return np.array([float(w) for line in text.decode().splitlines() if line.startswith('\t')
                     for w in line.split()]).sum()


@step('obj2mesh | oconv | rtrace: mean radiance of a lit mesh cube\'s top (W/sr/m2)')
def _():
    open('cube.rtm', 'wb').write(pr.obj2mesh('cube.obj', matfiles=['grey.mat']))
    open('mesh.rad', 'w').write('void mesh cube 1 cube.rtm 0 0\n'
                                'void light bright 0 0 3 100 100 100\n'
                                'bright sphere bulb 0 0 4 0.5 0.5 3 0.2\n')
    open('mesh.oct', 'wb').write(pr.oconv('grey.mat', 'mesh.rad'))
    pts = b''.join(f'{x} {y} 1.5 0 0 -1\n'.encode() for x in (0.2, 0.5, 0.8) for y in (0.2, 0.8))
    rad = pr.rtrace(pts, 'mesh.oct', header=False, params=['-ab', '0'])
    return numbers(rad).reshape(-1, 3)[:, 0].mean()


@step('Rcomb -e | total: mean annual illuminance from ill.mtx (lx)')
def _():
    lux = pr.Rcomb(expression='co=47.4*ci(1,1)+119.9*ci(1,2)+11.6*ci(1,3)',
                   outform='a').add_input('ill.mtx')()
    return numbers(pr.getinfo(lux, strip_header=True)).mean()


# Two layers' spectral data (front and back reflectance, transmittance; 300-1000 nm).
wl = np.arange(300, 1001, 10)
for name, (rf, rb, t) in {'clear': (0.08 + 0 * wl, 0.08 + 0 * wl, 0.88 - 0.1 * np.exp(-(wl - 300) / 60)),
                          'tint': (0.2 + 0.05 * np.cos(wl / 80), 0.15 + 0 * wl, 0.4 + 0.1 * np.sin(wl / 90))}.items():
    with open(f'{name}.dat', 'w') as f:
        f.write(f'2\n0 2 3\n{wl[0]} {wl[-1]} {len(wl)}\n')
        f.write(''.join(f'{v:.4f}\n' for v in np.concatenate([rf, rb, t])))


@step('genglaze (GenGlaze): mean of the system\'s transmittance table')
def _():
    pr.GenGlaze(prefix='system').add_monolithic('clear.dat', 0.006).add_coated('tint.dat')()
    return np.array([float(l) for l in open('system_t.dat').read().splitlines()[4:]]).mean()


json.dump(summary, open(summary_path, 'w'), indent=1, sort_keys=True)
