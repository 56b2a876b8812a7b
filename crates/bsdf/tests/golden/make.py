#!/usr/bin/env python3
"""Regenerates the BSDF goldens with RADIANCE 6.0a's own BSDF library (pyradiance.bsdf).

Run with the reference environment's python from this folder's crate:
    /work/main/.venv-ref/bin/python crates/bsdf/tests/golden/make.py
For each tests/data/NAME.xml.gz it writes tests/golden/NAME.txt.gz with lines
    meta  width height thickness | matn | makr
    lamb  rLambFront rLambBack tLambFront tLambBack   (cie_y x y each)
    comp  rf|rb|tf|tb maxHemi minProjSA                (present components)
    eval  theta_in phi_in theta_out phi_out X Y Z      (SDevalBSDF, degrees, CIE XYZ)
    hemi  theta phi flags value                        (SDdirectHemi)
    size  theta phi min max                            (SDsizeBSDF, SDqueryMin+SDqueryMax)
The inputs are real files (genBSDF, WINDOW, bsdf2klems, bsdf2ttree outputs from pyradiance's,
frads' and RADIANCE's test data), but rad-aniso-t4 was made here with RADIANCE 6.0a, as
    bsdf2ttree -t4 -g 4 -e 'aniso(ix,iy,iz,ox,oy,oz)=if(iz*oz,0.05+0.3*exp(-12*((ox+ix)*(ox+ix)+2*(oy+iy)*(oy+iy)))+0.2*(1+ox),0.04+0.5*exp(-8*((ox+ix)*(ox+ix)+(oy-iy)*(oy-iy))));' aniso
Directions are pyradiance's: (sin t cos p, sin t sin p, cos t), both pointing away from the
surface, theta > 90 on the back side.
"""
import gzip, os, sys, tempfile
import pyradiance.bsdf as b

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
THETAS = [0, 17, 38, 62, 84, 103, 131, 166]
PHIS = [0, 47, 222]
FLAGS = [15, 4, 8, 5, 6, 1, 2, 9, 10]

def dirs():
    for t in THETAS:
        for p in PHIS:
            if t in (0, 180) and p != 0:
                continue
            yield t, p

def one(name):
    with gzip.open(os.path.join(DATA, name + ".xml.gz")) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name + ".xml")
        with open(path, "wb") as f:
            f.write(text)
        sd = b.load_file(path)
        out = []
        w, h, t = sd.dim
        out.append(f"meta {w:.9e} {h:.9e} {t:.9e} | {sd.matn} | {sd.makr}")
        lamb = []
        for n in ["rLambFront", "rLambBack", "tLambFront", "tLambBack"]:
            v = getattr(sd, n)
            lamb.append(f"{v.cie_y:.9e} {v.spec.cx:.9e} {v.spec.cy:.9e}")
        out.append("lamb " + " ".join(lamb))
        for n in ["rf", "rb", "tf", "tb"]:
            c = getattr(sd, n)
            if c is not None:
                out.append(f"comp {n} {c.maxHemi:.9e} {c.minProjSA:.9e}")
        for ti, pi in dirs():
            for to, po in dirs():
                x, y, z = b.query(sd, ti, pi, to, po)
                out.append(f"eval {ti} {pi} {to} {po} {x:.9e} {y:.9e} {z:.9e}")
        for ti, pi in dirs():
            for fl in FLAGS:
                out.append(f"hemi {ti} {pi} {fl} {b.direct_hemi(sd, ti, pi, fl):.9e}")
            lo, hi = b.size(sd, ti, pi, 3)
            out.append(f"size {ti} {pi} {lo:.9e} {hi:.9e}")
    with gzip.GzipFile(os.path.join(HERE, name + ".txt.gz"), "wb", mtime=0) as f:
        f.write(("\n".join(out) + "\n").encode())

if __name__ == "__main__":
    if sys.argv[1:]:
        for n in sys.argv[1:]:
            one(n)
            print(n)
    else:
        # One process per file: RADIANCE's library keeps global state between loads.
        import subprocess
        for n in sorted(n[:-7] for n in os.listdir(DATA) if n.endswith(".xml.gz")):
            subprocess.run([sys.executable, __file__, n], check=True)
