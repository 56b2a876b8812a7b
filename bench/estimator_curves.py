"""Time against error without a cache (issue 20, item 3): daylit and RADIANCE 6.0a side by side.

For each room and each program (`rtrace -I+` on the room's 32 sensors, `rcontrib -I+` of the
sky patches on the same sensors) both tools run the same options over a sweep of `-ad`;
error is the illuminance MARD against a converged reference. For each RADIANCE point the
time daylit needs for the same error is read off daylit's curve (log-log interpolation on its
lower envelope), and the ratio printed: the speed lead at equal error. daylit's rcontrib runs
with `--daylit-ambient` (contribution runs keep RADIANCE's estimator by default).

  rtrace reference:   validation/goldens/NN/illuminance.txt (RADIANCE -ab 8 -ad 16384 -aa 0)
  rcontrib reference: RADIANCE rcontrib -ab 8 -ad 65536 -lw 1e-7 of the same sky patches,
                      made once into bench-out/estimator/ (about a minute per room)

Usage: bench/estimator_curves.sh [ROOM...]   (env REPS=2, PROGRAMS="rtrace rcontrib",
       DAYLIT_FLAGS="" to pass e.g. --radiance-estimator to daylit)
"""
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DAYLIT = os.path.join(HERE, 'target/release/daylit')
RBIN = os.environ['RADIANCE_BIN']
OUT = os.path.join(HERE, 'bench-out/estimator')
DIRECT = '-dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0'
REPS = int(os.environ.get('REPS', '2'))
FLAGS = os.environ.get('DAYLIT_FLAGS', '').split()
ROOMS = sys.argv[1:] or ['06_office_overcast', '07_office_clear_sun', '08_lightshelf_mirror']
PROGRAMS = os.environ.get('PROGRAMS', 'rtrace rcontrib').split()
SKY = os.path.join(HERE, 'validation/annual/sky_sender.rad')

RTRACE = {  # option set -> (RADIANCE -ad sweep, daylit -ad sweep)
    '-ab 8 -as 0 -lr -10 -lw 1e-6': ([512, 1024, 2048, 4096], [64, 128, 256, 512, 1024, 2048, 4096]),
    '-ab 5 -as 256 -lr -10 -lw 1e-4': ([512, 1024, 2048, 4096], [64, 128, 256, 512, 1024, 2048]),
}
RCONTRIB = {
    '-ab 8 -lw 1e-6': ([1024, 2048, 4096, 8192], [64, 128, 256, 512, 1024, 2048, 4096]),
}


def run(cmd, stdin, env=None):
    """Runs cmd with stdin from a file; returns (seconds, stdout)."""
    t0 = time.perf_counter()
    with open(stdin, 'rb') as f:
        out = subprocess.run(cmd, stdin=f, capture_output=True, check=True, env=env).stdout
    return time.perf_counter() - t0, out.decode()


def lux_rows(text, ncol=3):
    """Illuminance per line from R G B triples (rtrace) or a row of patch triples summed."""
    rows = []
    for line in text.splitlines():
        v = [float(x) for x in line.split()]
        if not v:
            continue
        r, g, b = (sum(v[k::3]) for k in range(3))
        rows.append(179 * (0.265 * r + 0.670 * g + 0.065 * b))
    return rows


def patch_rows(text):
    """Per sensor, per patch illuminance (rcontrib output, no header)."""
    rows = []
    for line in text.splitlines():
        v = [float(x) for x in line.split()]
        if v:
            rows.append([179 * (0.265 * v[k] + 0.670 * v[k + 1] + 0.065 * v[k + 2])
                         for k in range(0, len(v), 3)])
    return rows


def mard(x, ref):
    return 100 * sum(abs(a - b) / b for a, b in zip(x, ref)) / len(ref)


def dc_error(x, ref):
    """Daylight coefficients' error: MARD of the illuminance under a uniform sky (all
    patches summed) and the mean relative RMS over patches, per sensor."""
    tot = mard([sum(r) for r in x], [sum(r) for r in ref])
    rms = 0.0
    for a, b in zip(x, ref):
        s = sum(b) / len(b)
        rms += math.sqrt(sum((p - q) ** 2 for p, q in zip(a, b)) / len(b)) / s
    return tot, 100 * rms / len(ref)


def equal_error_time(curve, err):
    """Time on `curve` (list of (seconds, error)) to reach `err`, log-log interpolated on the
    curve's lower envelope; None if it never does."""
    pts = sorted(curve)
    env, best = [], math.inf
    for t, e in pts:
        if e < best:
            best = e
            env.append((t, e))
    for k, (t, e) in enumerate(env):
        if e <= err:
            if k == 0:
                return t
            t0, e0 = env[k - 1]
            f = (math.log(err) - math.log(e0)) / (math.log(e) - math.log(e0))
            return math.exp(math.log(t0) + f * (math.log(t) - math.log(t0)))
    return None


def sweep(label, cmds, score):
    """Runs both tools' command lists REPS times; prints and returns their curves."""
    curves = {}
    for tool, points in cmds.items():
        curve = []
        for ad, argv, stdin in points:
            ts, es, e2s = [], [], []
            for rep in range(REPS):
                a = list(argv)
                if tool == 'daylit':
                    a[2:2] = ['-seed', str(rep + 1)]
                t, out = run(a, stdin, env=dict(os.environ, PATH=RBIN + ':' + os.environ['PATH']))
                ts.append(t)
                e = score(out)
                e, e2 = e if isinstance(e, tuple) else (e, None)
                es.append(e)
                e2s.append(e2)
            t, e = sum(ts) / REPS, sum(es) / REPS
            curve.append((t, e))
            more = '' if e2s[0] is None else '  (patch RMS %.2f %%)' % (sum(e2s) / REPS)
            print('  %-8s -ad %-6d %7.2f s  error %6.2f %%%s' % (tool, ad, t, e, more), flush=True)
        curves[tool] = curve
    ratios = []
    for t, e in curves['radiance']:
        td = equal_error_time(curves['daylit'], e)
        if td is None:
            print('  RADIANCE %.2f s at %.2f %%: daylit never reaches it' % (t, e))
        else:
            ratios.append(t / td)
            print('  RADIANCE %.2f s at %.2f %%: daylit %.2f s, %.1fx' % (t, e, td, t / td))
    if ratios:
        g = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print('  %s: speed at equal error %.1f-%.1fx, geometric mean %.1fx' %
              (label, min(ratios), max(ratios), g))
    return curves


def main():
    os.makedirs(OUT, exist_ok=True)
    done_geometry = set()  # rooms that differ only in their sky share rcontrib's run
    for room in ROOMS:
        scene = os.path.join(HERE, 'validation/scenes', room)
        gold = os.path.join(HERE, 'validation/goldens', room)
        files = open(os.path.join(scene, 'scene_files.txt')).read().split()
        files = [os.path.join(scene, f) for f in files]
        pts = os.path.join(scene, 'sensors.pts')
        oct_ = os.path.join(OUT, room + '.oct')
        env = dict(os.environ, PATH=RBIN + ':' + os.environ['PATH'])
        with open(oct_, 'wb') as f:
            subprocess.run([RBIN + '/oconv'] + files, stdout=f, check=True, cwd=scene, env=env)
        if 'rtrace' in PROGRAMS:
            ref = [float(l.split()[0]) for l in open(os.path.join(gold, 'illuminance.txt')) if l.strip()]
            for opts, (rad_ads, day_ads) in RTRACE.items():
                label = '%s rtrace -n 2 -I+ -aa 0 %s' % (room, opts)
                print('== ' + label, flush=True)
                base = ['-h', '-I+', '-ov', '-aa', '0'] + opts.split() + DIRECT.split()
                cmds = {
                    'radiance': [(ad, [RBIN + '/rtrace', '-n', '2'] + base + ['-ad', str(ad), oct_], pts)
                                 for ad in rad_ads],
                    'daylit': [(ad, [DAYLIT, 'rtrace', '-n', '2'] + FLAGS + base + ['-ad', str(ad)] + files, pts)
                               for ad in day_ads],
                }
                sweep(label, cmds, lambda out: mard(lux_rows(out), ref))
        geometry = open(os.path.join(scene, 'scene.rad')).read()
        if 'rcontrib' in PROGRAMS and geometry not in done_geometry:
            done_geometry.add(geometry)
            rc_oct = os.path.join(OUT, room + '.scene.oct')
            scene_only = [f for f in files if not f.endswith('sky.rad')]
            with open(rc_oct, 'wb') as f:
                subprocess.run([RBIN + '/oconv'] + scene_only + [SKY], stdout=f, check=True, cwd=scene,
                               env=env)
            sky_args = ['-f', 'reinhart.cal', '-b', 'rbin', '-bn', 'Nrbins', '-m', 'skyglow']
            refp = os.path.join(OUT, room + '.rcontrib_ref.txt')
            if not os.path.exists(refp):
                print('== making the rcontrib reference for %s' % room, flush=True)
                _, out = run([RBIN + '/rcontrib', '-n', '2', '-h', '-I+', '-aa', '0', '-ab', '8', '-ad',
                              '65536', '-lw', '1e-7', '-lr', '-12', '-e', 'MF:1'] + sky_args + [rc_oct],
                             pts, env=env)
                with open(refp + '.tmp', 'w') as f:
                    f.write(out)
                os.replace(refp + '.tmp', refp)
            ref = patch_rows(open(refp).read())
            for opts, (rad_ads, day_ads) in RCONTRIB.items():
                label = '%s rcontrib -n 2 -I+ -aa 0 %s' % (room, opts)
                print('== ' + label + ' (error: MARD of the sum over patches, as under a uniform sky)', flush=True)
                base = ['-h', '-I+', '-aa', '0', '-e', 'MF:1'] + opts.split() + sky_args
                cmds = {
                    'radiance': [(ad, [RBIN + '/rcontrib', '-n', '2'] + base + ['-ad', str(ad), rc_oct], pts)
                                 for ad in rad_ads],
                    'daylit': [(ad, [DAYLIT, 'rcontrib', '-n', '2', '--daylit-ambient'] + FLAGS + base +
                               ['-ad', str(ad)] +
                                scene_only + [SKY], pts) for ad in day_ads],
                }
                sweep(label, cmds, lambda out: dc_error(patch_rows(out), ref))


if __name__ == '__main__':
    main()
