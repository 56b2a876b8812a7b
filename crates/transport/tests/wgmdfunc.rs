//! The `WGMDfunc` material against RADIANCE 6.0a (tests/golden/wgmdfunc, made by its
//! make_goldens.sh): rough anisotropic reflection with expressions of `RdotP`, a mirror part
//! with its own pattern and the Fresnel estimate, a clear pane that shadow rays pass with a
//! diffuse transmission that inherits the main modifier, a rough pane bent by a texture in a
//! transformed frame seen from both sides, and a sphere whose roughness uses the function
//! file and a tenth real argument.
//!
//! `det`: direct light only, no jitter, rough lobes below `-st`, so every value is exact:
//! daylit must agree to 0.1 % (RADIANCE keeps colours in single precision). `sampled`: the
//! rough lobes sampled, 400 traces per ray averaged by both: 3 % per ray. `ambient`: one
//! bounce of 4096 stratified samples: 2 % per ray.

mod common;

use daylit_transport::Renderer;
use glam::DVec3;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/wgmdfunc")
}

fn renderer(options: &str) -> Renderer {
    common::renderer(&dir(), &["../funcmat/sun.rad", "wgmd.rad"], options, 5)
}

/// Per ray and channel: |daylit − golden| ≤ rel·max(golden, 1e-4 of the largest golden).
fn compare(case: &str, rays: &str, repeat: u64, options: &str, golden: &str, rel: f64) {
    let got = common::trace(
        &renderer(options),
        &common::numbers(&dir().join(rays)),
        repeat,
    );
    let gold = common::numbers(&dir().join(golden));
    assert_eq!(got.len(), gold.len(), "{case}: ray count");
    let floor = 1e-4 * gold.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    let err = |g: &DVec3, w: &[f64], c: usize| (g[c] - w[c]).abs() / w[c].abs().max(floor);
    let (k, c) = (0..got.len())
        .flat_map(|k| (0..3).map(move |c| (k, c)))
        .max_by(|a, b| err(&got[a.0], &gold[a.0], a.1).total_cmp(&err(&got[b.0], &gold[b.0], b.1)))
        .unwrap();
    let worst = err(&got[k], &gold[k], c);
    eprintln!(
        "{case}: worst relative difference {:.4}% (ray {k})",
        100.0 * worst
    );
    assert!(
        worst <= rel,
        "{case}: ray {k} (line {}): daylit {:?}, RADIANCE {:?}: off by {:.3}% (limit {}%)",
        k + 1,
        got[k],
        gold[k],
        100.0 * worst,
        100.0 * rel
    );
}

#[test]
fn wgmdfunc_direct_matches_radiance() {
    compare(
        "det",
        "wgmd.rays",
        1,
        "-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12",
        "goldens/wgmd.det.txt",
        1e-3,
    );
}

#[test]
fn wgmdfunc_specular_sampling_matches_radiance() {
    compare(
        "sampled",
        "wgmd.rays",
        400,
        "-ab 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 0 -ss 1 -lw 1e-6 -lr 12",
        "goldens/wgmd.sampled.txt",
        0.03,
    );
}

#[test]
fn wgmdfunc_indirect_matches_radiance() {
    compare(
        "ambient",
        "ambient.rays",
        1,
        "-ab 1 -aa 0 -ad 4096 -as 0 -av 0 0 0 -dj 0 -dt 0 -dc 1 -st 1 -lw 1e-6 -lr 12",
        "goldens/ambient.txt",
        0.02,
    );
}
