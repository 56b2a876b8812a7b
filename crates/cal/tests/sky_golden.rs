//! Sky functions against RADIANCE: goldens written by
//! `golden/make_sky_goldens.sh` (gensky/gendaylit + rtrace -ab 0). RADIANCE is
//! not needed here; the stored scene text and radiances are read back.
//!
//! Convention: the sky is `skyfunc glow sky_glow 0 0 4 r g b 0`, so the
//! radiance rtrace returns is the glow colour times the brightfunc value.

use daylit_cal::{CalEnv, EvalState, RayPath, SimpleRay};
use std::path::Path;

struct Prim {
    modifier: String,
    kind: String,
    name: String,
    sargs: Vec<String>,
    rargs: Vec<f64>,
}

/// Minimal RADIANCE scene reader: primitives as token sequences.
fn read_prims(text: &str) -> Vec<Prim> {
    let toks: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < toks.len() {
        let (modifier, kind, name) = (toks[i], toks[i + 1], toks[i + 2]);
        i += 3;
        let ns: usize = toks[i].parse().unwrap();
        let sargs = toks[i + 1..i + 1 + ns]
            .iter()
            .map(|s| s.to_string())
            .collect();
        i += 1 + ns;
        let ni: usize = toks[i].parse().unwrap();
        i += 1 + ni;
        let nr: usize = toks[i].parse().unwrap();
        let rargs = toks[i + 1..i + 1 + nr]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        i += 1 + nr;
        out.push(Prim {
            modifier: modifier.into(),
            kind: kind.into(),
            name: name.into(),
            sargs,
            rargs,
        });
    }
    out
}

fn check_case(dir: &Path, case: &str, worst: &mut f64) -> usize {
    let sky = std::fs::read_to_string(dir.join(format!("{case}.sky"))).unwrap();
    let dat = std::fs::read_to_string(dir.join(format!("{case}.dat"))).unwrap();
    let prims = read_prims(&sky);
    let bf = prims.iter().find(|p| p.kind == "brightfunc").unwrap();
    let glow = prims
        .iter()
        .find(|p| p.kind == "glow" && p.modifier == bf.name)
        .unwrap();
    let sun = prims
        .iter()
        .find(|p| p.kind == "source" && p.name == "sun")
        .map(|p| [p.rargs[0], p.rargs[1], p.rargs[2]]);
    let (func, file) = (&bf.sargs[0], &bf.sargs[1]);

    let mut env = CalEnv::new();
    // An empty search path: the embedded library must supply the file.
    env.load_file(file, &RayPath::new(Vec::<std::path::PathBuf>::new()))
        .unwrap();
    let expr = env.compile_expr_in(file, func).unwrap();
    let mut st = EvalState::for_env(&env);
    let mut ray = SimpleRay::with_args(&bf.rargs);
    let mut n = 0;
    for line in dat.lines() {
        let v: Vec<f64> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let d = [v[0], v[1], v[2]];
        if let Some(s) = sun {
            // The solar disc itself is the sun source, not the sky function.
            if d[0] * s[0] + d[1] * s[1] + d[2] * s[2] > 1.0f64.to_radians().cos() {
                continue;
            }
        }
        ray.set_dir(d);
        let b = env.eval_expr(expr, &mut st, &ray);
        assert!(st.error().is_none(), "{case}: {:?}", st.error());
        for c in 0..3 {
            let ours = b * glow.rargs[c];
            let theirs = v[3 + c];
            let tol = 0.005 * theirs.abs() + 1e-9;
            *worst = worst.max((ours - theirs).abs() / (theirs.abs() + 1e-9));
            assert!(
                (ours - theirs).abs() <= tol,
                "{case} dir {d:?} channel {c}: ours {ours} RADIANCE {theirs}"
            );
        }
        n += 1;
    }
    n
}

#[test]
fn skies_match_radiance() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "sky").then(|| p.file_stem().unwrap().to_string_lossy().into())
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "goldens missing: {cases:?}");
    let mut total = 0;
    let mut worst = 0.0;
    for c in &cases {
        total += check_case(&dir, c, &mut worst);
    }
    println!("{total} directions, worst relative difference {worst:.2e}");
    assert!(total >= 450, "only {total} directions checked");
}
