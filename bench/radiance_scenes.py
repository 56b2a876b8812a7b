#!/usr/bin/env python3
"""daylit against RADIANCE 6.0a on scenes nobody here wrote, in one run (issue 18).

Scenes: every `expect match` case of validation/radiance_scenes/cases.txt (RADIANCE's own test
scenes and generator outputs) and the `corner` scene of RADIANCE's test data. Per scene, both
programs run three jobs on one process/thread each (RADIANCE's rpict has no threads; daylit is
held to one rayon thread), then daylit again on two threads:
  rpict_default  `rpict` at RADIANCE's defaults (512 x 512, -ab 0, -ps 4 -pt .05)
  rpict_ab1      `rpict -x 64 -y 64 -ab 1` (the irradiance cache at its defaults)
  rtrace_ab2     `rtrace -ab 2` on the 24 x 24 pixel rays of the view (vwrays -ff)
Error: mean absolute relative error of luminance per pixel/ray against a converged RADIANCE
reference of the same job (-ps 1 -pj 0; -aa 0 -ad 1024 for -ab 1; -ab 2 -aa .05 -ad 1024 -as
512 -ar 256 for the rtrace job). Times are the best of ROUNDS runs. Prints a table and the
geometric mean of the speed ratios.

Usage: bench/radiance_scenes.sh [ROUNDS]   (RADIANCE comes from scripts/setup-reference.sh;
ONLY=corner,gen_box limits the scenes and sets their order; JOBS=rpict_default,rtrace_ab2 the jobs)
"""
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "validation", "radiance_scenes")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
DAYLIT = os.environ.get("DAYLIT", os.path.join(ROOT, "target", "release", "daylit"))
RAD = os.environ["RADIANCE_BIN"]


def cases():
    out, cur = [], None
    for line in open(os.path.join(SUITE, "cases.txt")):
        line = line.rstrip("\n")
        key, _, rest = line.partition(" ")
        if key == "case":
            cur = {"name": rest, "files": [], "view": [], "opts": [], "match": False}
            out.append(cur)
        elif cur is None:
            continue
        elif key == "files":
            cur["files"] += rest.split()
        elif key == "file":
            cur["files"].append(rest)
        elif key == "view":
            cur["view"] = rest.split()
        elif key == "opts":
            cur["opts"] = rest.split()
        elif key == "expect":
            cur["match"] = rest == "match"
    return [c for c in out if c["match"]]


def corner():
    """RADIANCE's test data `corner` scene (a 1 m cube, two faces open) under its sky."""
    src = os.path.join(ROOT, "bench", "corner")
    return {
        "name": "corner",
        "files": [os.path.join(src, "default.sky"), os.path.join(src, "corner.rad")],
        "view": "-vp 2.2 -1.4 1.6 -vd -0.8 0.9 -0.55 -vh 50 -vv 50".split(),
        "opts": [],
        "cwd": src,
    }


def run(cmd, cwd, stdin=None, threads=None):
    env = dict(os.environ)
    env["PATH"] = RAD + os.pathsep + env["PATH"]
    env["RAYPATH"] = "." + os.pathsep + env.get("RAYPATH", "")
    if threads:
        env["RAYON_NUM_THREADS"] = str(threads)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(map(shlex.quote, cmd)), p.stderr.decode()[-2000:]))
    return p.stdout, dt


def best(cmd, cwd, stdin=None, threads=None):
    out, t = None, 1e99
    for _ in range(ROUNDS):
        out, dt = run(cmd, cwd, stdin, threads)
        t = min(t, dt)
    return out, t


def lum_picture(data, tmp):
    path = os.path.join(tmp, "p.hdr")
    open(path, "wb").write(data)
    out, _ = run([os.path.join(RAD, "pvalue"), "-h", "-H", "-d", path], tmp)
    return lum_text(out)


def lum_text(data):
    v = []
    for line in data.decode().splitlines():
        w = line.split()
        if len(w) >= 3:
            v.append(0.265 * float(w[0]) + 0.670 * float(w[1]) + 0.065 * float(w[2]))
    return v


def mare(got, ref):
    assert len(got) == len(ref), (len(got), len(ref))
    top = max(ref) if ref else 1.0
    pairs = [(g, r) for g, r in zip(got, ref) if r > 1e-3 * top]
    return 100.0 * sum(abs(g - r) / r for g, r in pairs) / max(1, len(pairs))


def main():
    tmp = tempfile.mkdtemp()
    scenes = cases() + [corner()]
    only = os.environ.get("ONLY")
    if only:
        by_name = {c["name"]: c for c in scenes}
        scenes = [by_name[n] for n in only.split(",") if n in by_name]
    rows = []
    for c in scenes:
        cwd = c.get("cwd", os.path.join(SUITE, "scenes"))
        oct_path = os.path.join(tmp, c["name"] + ".oct")
        data, _ = run([os.path.join(RAD, "oconv")] + c["files"], cwd)
        open(oct_path, "wb").write(data)
        view, opts = c["view"], c["opts"]
        rays, _ = run([os.path.join(RAD, "vwrays"), "-ff", "-x", "24", "-y", "24"] + view, cwd)
        jobs = {
            "rpict_default": (
                ["rpict"] + opts + view,
                ["rpict", "-ps", "1", "-pj", "0", "-dj", "0", "-ds", ".05"] + opts + view,
                None,
            ),
            "rpict_ab1": (
                ["rpict", "-x", "64", "-y", "64", "-ab", "1"] + opts + view,
                ["rpict", "-x", "64", "-y", "64", "-ps", "1", "-pj", "0", "-ab", "1", "-aa", "0", "-ad", "1024", "-as", "0"] + opts + view,
                None,
            ),
            "rtrace_ab2": (
                ["rtrace", "-h", "-ffa", "-ov", "-ab", "2"] + opts,
                ["rtrace", "-h", "-ffa", "-ov", "-ab", "2", "-aa", ".05", "-ad", "1024", "-as", "512", "-ar", "256"] + opts,
                rays,
            ),
        }
        wanted = os.environ.get("JOBS")
        for job, (cmd, ref_cmd, stdin) in jobs.items():
            if wanted and job not in wanted.split(","):
                continue
            picture = stdin is None
            ref_out, _ = run([os.path.join(RAD, ref_cmd[0])] + ref_cmd[1:] + [oct_path], cwd, stdin)
            ref = lum_picture(ref_out, tmp) if picture else lum_text(ref_out)
            rad_out, t_rad = best([os.path.join(RAD, cmd[0])] + cmd[1:] + [oct_path], cwd, stdin)
            d_cmd = [DAYLIT, cmd[0]] + cmd[1:] + c["files"]
            d_out, t_d1 = best(d_cmd, cwd, stdin, threads=1)
            _, t_d2 = best(d_cmd, cwd, stdin, threads=2)
            err = lambda o: mare(lum_picture(o, tmp) if picture else lum_text(o), ref)
            rows.append((c["name"], job, t_rad, err(rad_out), t_d1, t_d2, err(d_out)))
            r = rows[-1]
            print("%-15s %-14s RADIANCE %7.2f s %6.2f %% | daylit 1 thread %7.2f s, 2 threads %7.2f s, %6.2f %% | %5.1fx" % (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[2] / r[4]), flush=True)
    print()
    print("| scene | job | RADIANCE s | RADIANCE error | daylit 1 thread s | daylit 2 threads s | daylit error | speed-up (1 thread) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %.2f | %.2f %% | %.2f | %.2f | %.2f %% | %.1fx |" % (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[2] / r[4]))
    for job in ("rpict_default", "rpict_ab1", "rtrace_ab2"):
        rs = [r for r in rows if r[1] == job]
        if not rs:
            continue
        g = math.exp(sum(math.log(r[2] / r[4]) for r in rs) / len(rs))
        worse = sum(1 for r in rs if r[6] > r[3])
        slower = sum(1 for r in rs if r[4] > r[2])
        print("%s: geometric mean speed-up %.2fx (1 thread) over %d scenes; daylit slower on %d, error higher on %d" % (job, g, len(rs), slower, worse))
    g = math.exp(sum(math.log(r[2] / r[4]) for r in rows) / len(rows))
    print("all jobs: geometric mean speed-up %.2fx (1 thread)" % g)


main()
