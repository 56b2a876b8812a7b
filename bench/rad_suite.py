"""RADIANCE's test suite run as RADIANCE's own Makefile runs it, `rad -v VIEW FILE.rif`, once
through RADIANCE 6.0a's rad (and its oconv, mkillum, rpict, pfilt) and once through daylit's
(links to the release build, found beside daylit's rad), at a lower RESOLUTION. Prints the
wall time of each (daylit with one thread and with all), and how the pictures compare: the
ratio of their mean luminances and the RMS of the per-pixel relative difference after both are
reduced to 32 x 32 (the noise of either program's sampling shows in the last).

Usage: rad_suite.py RES [NAMES]   (NAMES: comma-separated rad files, default all)
Environment: RADIANCE_BIN, RAYPATH (scripts/setup-reference.sh), DAYLIT (the daylit binary),
ALL=1 to time daylit with all threads as well.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
suite = os.path.join(root, "validation/radiance_scenes")
RAD = os.environ["RADIANCE_BIN"]
DAYLIT = os.environ.get("DAYLIT", os.path.join(root, "target/release/daylit"))
res = sys.argv[1] if len(sys.argv) > 1 else "128"
names = sys.argv[2].split(",") if len(sys.argv) > 2 else sorted(
    f[:-4] for f in os.listdir(os.path.join(suite, "rif")) if f.endswith(".rif"))


def first_view(rif):
    for line in open(rif):
        w = line.split("=", 1)
        if len(w) == 2 and w[0].strip().startswith("vi"):
            return w[1].split()[0]
    return "X"


def workdir(name):
    d = tempfile.mkdtemp()
    for f in os.listdir(os.path.join(suite, "scenes")):
        src = os.path.join(suite, "scenes", f)
        if os.path.isfile(src):
            shutil.copy(src, d)
    shutil.copy(os.path.join(suite, "rif", name + ".rif"), d)
    shutil.copy(os.path.join(suite, "rif", "render.opt"), d)
    return d


def run(path, cwd, rif, view, env_extra=None):
    env = dict(os.environ, PATH=path + ":" + os.environ["PATH"], **(env_extra or {}))
    t = time.time()
    p = subprocess.run(["rad", "-s", "-v", view, rif, "RES=" + res], cwd=cwd, env=env,
                       capture_output=True)
    return time.time() - t, p.returncode, p.stderr.decode(errors="replace").strip()


def luminances(pic):
    small = subprocess.run([os.path.join(RAD, "pfilt"), "-1", "-x", "32", "-y", "32", pic],
                           capture_output=True, check=True).stdout
    text = subprocess.run([os.path.join(RAD, "pvalue"), "-h", "-H", "-d", "-o"], input=small,
                          capture_output=True, check=True).stdout.decode()
    return [179 * (0.265 * float(r) + 0.670 * float(g) + 0.065 * float(b))
            for r, g, b in (l.split() for l in text.splitlines() if l.strip())]


links = tempfile.mkdtemp()
subprocess.run([DAYLIT, "install-links", links], check=True, capture_output=True)
rows = []
for name in names:
    rif = name + ".rif"
    view = first_view(os.path.join(suite, "rif", rif))
    pic = "%s_%s.hdr" % (name, view)
    d_rad, d_one = workdir(name), workdir(name)
    t_rad, rc_rad, _ = run(RAD, d_rad, rif, view)
    t_one, rc_one, err = run(links, d_one, rif, view, {"RAYON_NUM_THREADS": "1"})
    t_all = float("nan")
    if os.environ.get("ALL") and rc_one == 0:
        d_all = workdir(name)
        t_all = run(links, d_all, rif, view)[0]
        shutil.rmtree(d_all)
    if rc_rad != 0:
        print("%-11s RADIANCE failed" % name, flush=True)
        continue
    if rc_one != 0:
        print("%-11s daylit refuses: %s" % (name, err.splitlines()[-1][:140]), flush=True)
        rows.append((name, t_rad, None, None, None, None))
        continue
    a, b = luminances(os.path.join(d_rad, pic)), luminances(os.path.join(d_one, pic))
    ratio = sum(b) / sum(a)
    top = max(a)
    rel = [(y - x) / x for x, y in zip(a, b) if x > 1e-3 * top]
    rms = math.sqrt(sum(r * r for r in rel) / len(rel))
    rows.append((name, t_rad, t_one, t_all, ratio, rms))
    print("%-11s RADIANCE %7.2f s | daylit 1 thread %7.2f s, all %7.2f s | %5.2fx | mean %.3f, "
          "RMS rel. diff. %.3f" % (name, t_rad, t_one, t_all, t_rad / t_one, ratio, rms),
          flush=True)
    for d in (d_rad, d_one):
        shutil.rmtree(d)

print()
print("| rad file | RADIANCE s | daylit 1 thread s | daylit all threads s | speed-up (1 thread) "
      "| mean daylit / RADIANCE | RMS rel. difference (32 x 32) |")
print("|---|---|---|---|---|---|---|")
for name, t_rad, t_one, t_all, ratio, rms in rows:
    if t_one is None:
        print("| %s | %.2f | refused | | | | |" % (name, t_rad))
    else:
        print("| %s | %.2f | %.2f | %.2f | %.2fx | %.3f | %.3f |"
              % (name, t_rad, t_one, t_all, t_rad / t_one, ratio, rms))
done = [r for r in rows if r[2] is not None]
if done:
    g = math.exp(sum(math.log(r[1] / r[2]) for r in done) / len(done))
    print("geometric mean speed-up %.2fx (1 thread) over %d rad files; slower on %d"
          % (g, len(done), sum(1 for r in done if r[2] > r[1])))
