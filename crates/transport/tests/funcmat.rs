//! The function and data materials against RADIANCE 6.0a (tests/golden/funcmat, made by its
//! make_goldens.sh): `plasfunc` (Ward's anisotropic lobe through rayinit.cal's local frame),
//! `metfunc` (with a colour pattern and a transformed frame, on a floor and a sphere),
//! `plasdata` and `metdata` (a 2-D table with an uneven axis, a texture, a scaled frame),
//! `transfunc` and `transdata` (seen from both sides), `BRTDfunc` (expressions of `Rdot`,
//! `RdotP` and `CrP`, directional-diffuse functions on both sides, then an opaque one with
//! a pattern and a texture), a mixture with `plasfunc`, and `ashik2` (floor and sphere).
//!
//! `det`: direct light only, no jitter, ashik2's lobe below `-st`, so every value is exact:
//! daylit must agree to 0.1 % (RADIANCE keeps colours in single precision). `sampled`:
//! ashik2's lobe sampled, 400 traces per ray averaged by both: 3 % per ray. `ambient`: one
//! bounce of 4096 stratified samples (the sky glow is the only indirect light, so both
//! estimates are within a fraction of a percent of converged): 2 % per ray.

mod common;

use daylit_compile::compile;
use daylit_scene::{load_scene_text, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/funcmat")
}

fn numbers(name: &str) -> Vec<Vec<f64>> {
    common::numbers(&dir().join(name))
}

fn renderer(options: &str) -> Renderer {
    common::renderer(&dir(), &["sun.rad", "funcmat.rad"], options, 11)
}

/// daylit's value of every ray of `case`, averaged over `repeat` traces.
fn trace(r: &Renderer, case: &str, repeat: u64) -> Vec<DVec3> {
    common::trace(r, &numbers(&format!("{case}.rays")), repeat)
}

const DET: &str = "-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12";

/// Compares per channel: |daylit − golden| ≤ rel·max(golden, floor).
fn compare(case: &str, got: &[DVec3], golden: &str, rel: f64) {
    let gold = numbers(golden);
    assert_eq!(got.len(), gold.len(), "{case}: ray count");
    let scale = gold.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    let floor = 1e-4 * scale;
    let mut worst = (0.0, 0);
    let mut sum = 0.0;
    for (k, (g, want)) in got.iter().zip(&gold).enumerate() {
        for c in 0..3 {
            let err = (g[c] - want[c]).abs() / want[c].abs().max(floor);
            sum += err;
            if err > worst.0 {
                worst = (err, k);
            }
        }
    }
    let k = worst.1;
    eprintln!(
        "{case}: worst relative difference {:.4}% (ray {k}), mean {:.4}%",
        100.0 * worst.0,
        100.0 * sum / (3 * got.len()) as f64
    );
    assert!(
        worst.0 <= rel,
        "{case}: ray {k} (line {}): daylit {:?}, RADIANCE {:?}: off by {:.3}% (limit {}%)",
        k + 1,
        got[k],
        gold[k],
        100.0 * worst.0,
        100.0 * rel
    );
}

#[test]
fn function_and_data_materials_direct_match_radiance() {
    let r = renderer(DET);
    compare(
        "funcs",
        &trace(&r, "funcs", 1),
        "goldens/funcs.det.txt",
        1e-3,
    );
}

#[test]
fn ashik2_direct_matches_radiance() {
    let r = renderer(DET);
    compare(
        "ashik",
        &trace(&r, "ashik", 1),
        "goldens/ashik.det.txt",
        1e-3,
    );
}

#[test]
fn ashik2_specular_sampling_matches_radiance() {
    let r = renderer("-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 0 -ss 1 -lw 1e-6 -lr 12");
    compare(
        "ashik sampled",
        &trace(&r, "ashik", 400),
        "goldens/ashik.sampled.txt",
        0.03,
    );
}

#[test]
fn function_materials_indirect_matches_radiance() {
    let r =
        renderer("-ab 1 -aa 0 -ad 4096 -as 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12");
    compare(
        "ambient",
        &trace(&r, "ambient", 1),
        "goldens/ambient.txt",
        0.02,
    );
}

/// The error of a one-modifier scene (with a surface using it), as `Renderer::new` gives it.
fn setup_error(text: &str) -> String {
    let raypath = daylit_cal::RayPath::new([dir()]);
    let load = LoadOptions {
        raypath: raypath.clone(),
        ..LoadOptions::default()
    };
    let scene = match load_scene_text(text, "bad.rad", &dir(), &load) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    let compiled = compile(&scene);
    match Renderer::new(scene, compiled, Options::rtrace(), &raypath) {
        Ok(_) => panic!("no error for {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_arguments_are_located_errors() {
    for (text, want) in [
        (
            "void plasfunc m 2 nosuch funcmat.cal 0 4 .5 .5 .5 .1",
            "\"nosuch\" is not a function",
        ),
        (
            "void transfunc m 2 dscale funcmat.cal 0 6 .5 .5 .5 .1 .5 .5",
            "takes 5 arguments, but is given 4",
        ),
        (
            "void plasdata m 4 dscale lobe.dat funcmat.cal cmir 0 4 .5 .5 .5 .1",
            "2 coordinate function(s)",
        ),
        (
            "void metdata m 5 dscale nosuch.dat funcmat.cal cmir cinc 0 4 .5 .5 .5 .1",
            "nosuch.dat",
        ),
        (
            "void plasfunc m 3 phong funcmat.cal -rz 0 4 .5 .5 .5 .1",
            "transform",
        ),
        (
            "void BRTDfunc m 10 0 0 0 0 0 0 dd nosuch 0 funcmat.cal 0 9 0 0 0 0 0 0 0 0 0",
            "\"nosuch\" is not a function",
        ),
        (
            "void BRTDfunc m 10 0 0 (0 0 0 0 0 0 0 funcmat.cal 0 9 0 0 0 0 0 0 0 0 0",
            "expression \"(0\"",
        ),
        (
            "void ashik2 m 4 0 nosuchvar 1 . 0 8 .1 .1 .1 .1 .1 .1 10 10",
            "expression \"nosuchvar\"",
        ),
    ] {
        let e = setup_error(&format!("{text}\nm sphere s 0 0 4 0 0 0 1\n"));
        assert!(e.contains("bad.rad:1"), "{text}: {e}");
        assert!(e.contains(want), "{text}: {e}");
    }
}
