//! daylit's evalglare against evalglare 3.06 on the pictures of `validation/glare/goldens`
//! (rendered by RADIANCE's rpict; `validation/glare/make_goldens.sh` regenerates them).
//!
//! Every option set stored for every picture is evaluated and its output compared with
//! evalglare's, line by line and number by number:
//! - the bar: DGP within 0.005 on average and 0.01 at worst, UGR within 0.3, Ev within
//!   0.5%;
//! - every other printed number (all indices, every glare source's row, band statistics)
//!   within the tolerance measured for it, which is the last printed digit: the two programs
//!   follow the same steps, and what differs is the rounding of sums that evalglare's build
//!   (compiled with -ffast-math) reorders;
//! - the same lines, labels and number of glare sources.

use daylit_glare::report;
use daylit_glare::{args, evaluate, GlarePicture};
use daylit_image::HdrImage;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn goldens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/glare/goldens")
}

/// The option sets of one case and evalglare's output for each.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(o) = line.strip_prefix("## evalglare") {
            out.push((o.trim().to_string(), String::new()));
        } else if let Some(b) = out.last_mut() {
            b.1.push_str(line);
            b.1.push('\n');
        }
    }
    out
}

/// Largest difference seen per quantity, and where.
#[derive(Default)]
struct Worst {
    abs: f64,
    rel: f64,
    at: String,
}

#[derive(Default)]
struct Stats {
    worst: BTreeMap<String, Worst>,
    dgp_diffs: Vec<f64>,
    compared: usize,
}

impl Stats {
    fn note(&mut self, name: &str, ours: f64, theirs: f64, at: &str) {
        let abs = (ours - theirs).abs();
        let rel = abs / theirs.abs().max(1e-300);
        let w = self.worst.entry(name.to_string()).or_default();
        if abs > w.abs || (abs == w.abs && w.at.is_empty()) {
            w.abs = abs;
            w.rel = rel;
            w.at = at.to_string();
        }
        self.compared += 1;
    }
}

/// Names of the numbers on a line: `label,label,...: v v ...` or a glare-source row.
fn numbers(line: &str) -> (Vec<String>, Vec<f64>) {
    let parse = |s: &str| -> f64 {
        match s {
            "nan" | "-nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => s
                .parse()
                .unwrap_or_else(|_| panic!("not a number: {s:?} in {line:?}")),
        }
    };
    if let Some((labels, vals)) = line.split_once(": ") {
        let names = labels
            .split(',')
            .map(|s| s.rsplit(':').next().unwrap_or(s).trim().to_string())
            .collect();
        (names, vals.split_whitespace().map(parse).collect())
    } else {
        let cols = [
            "n",
            "npix",
            "x",
            "y",
            "L_s",
            "Omega_s",
            "Posindx",
            "L_b",
            "L_t",
            "E_v",
            "Edir",
            "Max_Lum",
            "Sigma",
            "xdir",
            "ydir",
            "zdir",
            "Eglare",
            "Lveil_cie",
            "teta",
            "zone",
            "r_contrast",
            "r_dgp",
        ];
        (
            cols.iter().map(|s| format!("source.{s}")).collect(),
            line.split_whitespace().map(parse).collect(),
        )
    }
}

/// Allowed difference of one printed number: the last printed digit (a float's or a
/// double's, as evalglare keeps the quantity) and, for source rows, what a glare-source
/// centre on a pixel boundary does to its angles.
fn tolerance(name: &str, theirs: f64) -> f64 {
    let last_digit = 2e-6 + 2e-7 * theirs.abs();
    match name {
        "source.Omega_s" => 2e-10 + 2e-7 * theirs.abs(),
        _ => last_digit,
    }
}

#[test]
fn matches_evalglare_3_06_on_the_goldens() {
    let root = goldens();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("validation/glare/goldens")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("evalglare.txt").exists())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 15,
        "expected at least 15 golden pictures, found {}",
        cases.len()
    );
    let mut st = Stats::default();
    let mut runs = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let img = HdrImage::read(&case.join("picture.hdr")).unwrap();
        let text = std::fs::read_to_string(case.join("evalglare.txt")).unwrap();
        // The picture's geometry once; each option set evaluates a copy (evaluation colours
        // the picture as evalglare does).
        let base = GlarePicture::new(&img, None, &name).unwrap();
        let outputs: Vec<(String, String, String)> = blocks(&text)
            .into_par_iter()
            .map(|(opts, theirs)| {
                let mut argv: Vec<String> = opts
                    .split_whitespace()
                    .map(|a| match a {
                        "view.vf" => case.join(a).display().to_string(),
                        _ => a.to_string(),
                    })
                    .collect();
                argv.push("picture.hdr".into());
                let req = args::parse(&argv).unwrap();
                // A view on the command line replaces the picture's (and its geometry).
                let mut pic = match &req.view {
                    Some(v) => GlarePicture::new(&img, Some(v), &name).unwrap(),
                    None => base.clone(),
                };
                let e = evaluate(&mut pic, &req.options).unwrap();
                (opts, theirs, report::output(&e, req.detail))
            })
            .collect();
        for (opts, theirs, ours) in outputs {
            runs += 1;
            let at = format!("{name} [{opts}]");
            let (ol, tl): (Vec<&str>, Vec<&str>) =
                (ours.lines().collect(), theirs.lines().collect());
            assert_eq!(
                ol.len(),
                tl.len(),
                "{at}: line count\nours:\n{ours}\ntheirs:\n{theirs}"
            );
            for (o, t) in ol.iter().zip(&tl) {
                if t.contains(" No pixels ") {
                    // The source table's header, with the number of sources.
                    assert_eq!(o, t, "{at}: glare sources");
                    continue;
                }
                let (on, ov) = numbers(o);
                let (tn, tv) = numbers(t);
                assert_eq!(on, tn, "{at}: labels");
                assert_eq!(ov.len(), tv.len(), "{at}: fields\n{o}\n{t}");
                for ((n, &a), &b) in tn.iter().zip(&ov).zip(&tv) {
                    if a.is_nan() && b.is_nan() {
                        continue;
                    }
                    st.note(n, a, b, &at);
                    assert!(
                        (a - b).abs() <= tolerance(n, b),
                        "{at}: {n} ours {a} evalglare {b}\nours:  {o}\ntheirs: {t}"
                    );
                }
                // The bars, on the lines that carry DGP, UGR and Ev.
                for (k, n) in tn.iter().enumerate() {
                    match n.as_str() {
                        "dgp" => {
                            st.dgp_diffs.push((ov[k] - tv[k]).abs());
                        }
                        "ugr" => assert!((ov[k] - tv[k]).abs() <= 0.3, "{at}: UGR"),
                        "E_v" => assert!((ov[k] - tv[k]).abs() <= 0.005 * tv[k].abs(), "{at}: Ev"),
                        _ => {}
                    }
                }
            }
        }
    }
    let n = st.dgp_diffs.len() as f64;
    let mean = st.dgp_diffs.iter().sum::<f64>() / n;
    let worst = st.dgp_diffs.iter().cloned().fold(0.0, f64::max);
    eprintln!(
        "{} pictures, {runs} evalglare runs, {} numbers compared; DGP |diff| mean {mean:.2e} worst {worst:.2e}",
        cases.len(),
        st.compared
    );
    for (k, w) in &st.worst {
        eprintln!(
            "  {k:<14} worst abs {:.3e} rel {:.3e}  {}",
            w.abs, w.rel, w.at
        );
    }
    assert!(
        mean <= 0.005 && worst <= 0.01,
        "DGP mean {mean} worst {worst}"
    );
}
