//! BSDF queries against RADIANCE 6.0a's BSDF library (goldens from `golden/make.py`, which runs
//! pyradiance.bsdf, RADIANCE's own library, on the same files).
//!
//! Tolerances: BSDF values (CIE Y) 1e-6 relative (single-precision data read the same way),
//! X and Z 1e-5 (RADIANCE keeps chromaticity in single precision); directional-hemispherical
//! values 1e-6 relative; resolution (projected solid angle) 1e-6; Lambertian parts 1e-6.

use daylit_bsdf::{Bsdf, Parts, Side};
use glam::DVec3;
use std::io::Read;
use std::path::PathBuf;

fn here(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

fn gunzip(path: PathBuf) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

/// The direction pyradiance makes of (theta, phi) in degrees.
fn dir(t: f64, p: f64) -> DVec3 {
    let deg = std::f64::consts::PI / 180.0;
    let (t, p) = (t * deg, p * deg);
    DVec3::new(t.sin() * p.cos(), t.sin() * p.sin(), t.cos())
}

fn close(a: f64, b: f64, rel: f64, abs: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(a.abs()) + abs
}

fn check(name: &str) {
    let text = gunzip(here(&format!("data/{name}.xml.gz")));
    let bsdf = Bsdf::from_str(&text, &format!("{name}.xml")).unwrap();
    let golden = gunzip(here(&format!("golden/{name}.txt.gz")));
    let mut fails = Vec::new();
    let (mut n_eval, mut worst) = (0, 0f64);
    for line in golden.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let f = |k: usize| w[k].parse::<f64>().unwrap();
        match w[0] {
            "meta" => {
                let parts: Vec<&str> = line.splitn(3, " | ").collect();
                assert!(close(bsdf.width, f(1), 1e-9, 0.0), "{name} width");
                assert!(close(bsdf.height, f(2), 1e-9, 0.0), "{name} height");
                assert!(close(bsdf.thickness, f(3), 1e-9, 0.0), "{name} thickness");
                assert_eq!(bsdf.material, parts[1], "{name} material");
                assert_eq!(bsdf.manufacturer, parts[2], "{name} manufacturer");
            }
            "lamb" => {
                let l = bsdf.lambertian();
                for (k, v) in [l.r_front, l.r_back, l.t_front, l.t_back]
                    .iter()
                    .enumerate()
                {
                    let (y, x, yy) = (f(1 + 3 * k), f(2 + 3 * k), f(3 + 3 * k));
                    assert!(
                        close(v.y(), y, 1e-6, 1e-12),
                        "{name} lamb {k}: {} vs {y}",
                        v.y()
                    );
                    if y > 0.0 {
                        let (cx, cy) = v.xy();
                        assert!(
                            close(cx, x, 1e-5, 0.0) && close(cy, yy, 1e-5, 0.0),
                            "{name} lamb {k} colour"
                        );
                    }
                }
            }
            "comp" => {
                let side = match w[1] {
                    "rf" => Side::Rf,
                    "rb" => Side::Rb,
                    "tf" => Side::Tf,
                    _ => Side::Tb,
                };
                let Some((mh, mp)) = bsdf.component_summary(side) else {
                    fails.push(format!("{name}: no component {}", w[1]));
                    continue;
                };
                if !close(mh, f(2), 1e-6, 1e-9) || !close(mp, f(3), 1e-6, 0.0) {
                    fails.push(format!(
                        "{name}: {} summary {mh} {mp} vs {} {}",
                        w[1], w[2], w[3]
                    ));
                }
            }
            "eval" => {
                let v = bsdf.eval_value(dir(f(1), f(2)), dir(f(3), f(4)));
                n_eval += 1;
                let want = [f(5), f(6), f(7)];
                let e = (v.y() - want[1]).abs() / want[1].abs().max(1e-9);
                worst = worst.max(e);
                if !close(v.y(), want[1], 1e-6, 1e-9)
                    || !close(v.xyz[0], want[0], 1e-5, 1e-9)
                    || !close(v.xyz[2], want[2], 1e-5, 1e-9)
                {
                    fails.push(format!("{name}: {line} -> {:?}", v.xyz));
                }
            }
            "hemi" => {
                let h = bsdf.direct_hemi(dir(f(1), f(2)), Parts(w[3].parse().unwrap()));
                if !close(h, f(4), 1e-6, 1e-9) {
                    fails.push(format!("{name}: {line} -> {h}"));
                }
            }
            "size" => {
                let (lo, hi) = bsdf.size(dir(f(1), f(2)), None);
                if !close(lo, f(3), 1e-6, 0.0) || !close(hi, f(4), 1e-6, 0.0) {
                    fails.push(format!("{name}: {line} -> {lo} {hi}"));
                }
            }
            _ => panic!("bad golden line {line}"),
        }
    }
    assert!(n_eval > 0);
    eprintln!("{name}: {n_eval} values, worst relative error {worst:.2e}");
    assert!(
        fails.is_empty(),
        "{} of the goldens differ:\n{}",
        fails.len(),
        fails[..fails.len().min(20)].join("\n")
    );
}

#[test]
fn klems_blinds_four_components() {
    check("pyradiance-blinds");
}

#[test]
fn klems_back_only_blinds() {
    check("frads-blinds30");
}

#[test]
fn klems_electrochromic_with_solar() {
    check("frads-ec60");
}

#[test]
fn klems_anisotropic_fabric() {
    check("frads-klems_aniso_high");
}

#[test]
fn klems_sawtooth_reflection_back_only() {
    check("rad-sawtooth");
}

#[test]
fn klems_clear_glass() {
    check("pyradiance-clear");
}

#[test]
fn tensor_tree_blinds_isotropic() {
    check("pyradiance-blindsT3");
}

#[test]
fn tensor_tree_analytic_isotropic() {
    check("pyradiance-t3");
}

#[test]
fn tensor_tree_radiance_test_file() {
    check("rad-testBSDF");
}

#[test]
fn tensor_tree_anisotropic() {
    check("rad-aniso-t4");
}
