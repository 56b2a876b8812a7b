//! `prism1`, `prism2` and `mist` against RADIANCE 6.0a (tests/golden/prism_mist, made by its
//! make_goldens.sh; the options of each case are in its OPTIONS.txt).
//!
//! The prism cases take direct light only, without jitter, every source tested, so every
//! value is exact: the floor lit by the prism's virtual source of the sun, the ceiling lit by
//! `prism2`'s second one, views redirected through the prism to the sky, and rays the prism
//! stops. daylit must agree to 0.1 % (RADIANCE keeps colours in single precision). The global
//! medium case (`-me -ma -mg` with `-av`) is exact as well. The mist case samples the
//! in-scattered spotlight at jittered places along each ray: RADIANCE's and daylit's values
//! are each averages of 400 traces per ray and must agree within 2 %.

mod common;

use daylit_transport::Renderer;
use glam::DVec3;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/prism_mist")
}

/// The options of `case` as OPTIONS.txt records them.
fn options(case: &str) -> String {
    let text = std::fs::read_to_string(dir().join("OPTIONS.txt")).unwrap();
    let line = text
        .lines()
        .find(|l| l.split(':').next().unwrap().split(", ").any(|c| c == case))
        .unwrap_or_else(|| panic!("{case}: no options"));
    let opts = line.split_once("rtrace -h -ov ").unwrap().1;
    opts.split(" (").next().unwrap().to_string()
}

fn numbers(name: &str) -> Vec<Vec<f64>> {
    common::numbers(&dir().join(name))
}

fn renderer(files: &[&str], case: &str, extra: &str) -> Renderer {
    common::renderer(&dir(), files, &format!("{} {extra}", options(case)), 11)
}

/// daylit's value of every ray of `rays`, averaged over `repeat` traces.
fn trace(r: &Renderer, rays: &str, repeat: u64) -> Vec<DVec3> {
    common::trace(r, &numbers(rays), repeat)
}

/// Compares per channel: |daylit − golden| ≤ rel·max(golden, floor), the floor a thousandth
/// of the ray's brightest channel (a black ray must be black); returns the worst relative
/// difference.
fn compare(case: &str, got: &[DVec3], rel: f64) -> f64 {
    let gold = numbers(&format!("{case}.golden"));
    assert_eq!(got.len(), gold.len(), "{case}: ray count");
    let mut worst = (0.0, 0);
    for (k, (g, want)) in got.iter().zip(&gold).enumerate() {
        let floor = (1e-3 * want.iter().fold(0.0f64, |a, &b| a.max(b))).max(1e-12);
        for c in 0..3 {
            let err = (g[c] - want[c]).abs() / want[c].abs().max(floor);
            if err > worst.0 {
                worst = (err, k);
            }
        }
    }
    for (k, (g, want)) in got.iter().zip(&gold).enumerate() {
        eprintln!("{case} ray {k}: daylit {g:?} RADIANCE {want:?}");
    }
    assert!(
        worst.0 <= rel,
        "{case}: ray {} differs by {:.3} % (allowed {:.1} %)",
        worst.1,
        worst.0 * 100.0,
        rel * 100.0
    );
    worst.0
}

#[test]
fn prism1_matches_radiance() {
    let r = renderer(&["room.rad", "prism1.rad"], "prism1", "");
    assert_eq!(r.source_count(), (2, 1), "sun and sky, one virtual sun");
    compare("prism1", &trace(&r, "prism.rays", 1), 1e-3);
}

#[test]
fn prism2_matches_radiance() {
    let r = renderer(&["room.rad", "prism2.rad"], "prism2", "");
    assert_eq!(r.source_count(), (2, 2), "sun and sky, two virtual suns");
    compare("prism2", &trace(&r, "prism.rays", 1), 1e-3);
}

#[test]
fn prism_without_relays_lets_no_sun_through() {
    let r = renderer(&["room.rad", "prism2.rad"], "prism2", "-dr 0");
    assert_eq!(r.source_count(), (2, 0));
    let v = trace(&r, "prism.rays", 1);
    assert_eq!(
        v[0],
        DVec3::ZERO,
        "the floor patch is lit only by the virtual source"
    );
}

#[test]
fn global_medium_matches_radiance() {
    let r = renderer(&["mistroom.rad"], "mist_global", "");
    compare("mist_global", &trace(&r, "mist.rays", 1), 1e-3);
}

#[test]
fn mist_with_spotlight_matches_radiance() {
    let r = renderer(&["mistroom.rad", "fog.rad"], "mist_fog", "");
    compare("mist_fog", &trace(&r, "mist.rays", 400), 0.02);
}
