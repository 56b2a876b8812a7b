//! The sky sampler in the reference office: refinement adds samples where the light field
//! varies (the window's edges), the run is reproducible, and its file reads back the same.

use daylit_coefficients::{sky_scene, TraceSettings};
use daylit_lightfield::io;
use daylit_lightfield::sky::{sample_sky, SkySampling};
use daylit_scene::LoadOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::path::Path;

#[test]
fn refinement_follows_the_window_and_repeats_exactly() {
    let office =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/reference_office/office.rad");
    let opts = TraceSettings {
        ab: 1,
        ad: 64,
        lw: 1e-3,
        seed: 3,
    }
    .options()
    .unwrap();
    let sky = sky_scene(
        &[office],
        &LoadOptions::default(),
        opts,
        Subdivision::TREGENZA,
    )
    .unwrap();
    let p = SkySampling {
        idres: 16,
        nlev: 3,
        ..SkySampling::default()
    };
    let pos = DVec3::new(1.2, 2.0, 1.2);
    let a = sample_sky(&sky, pos, 0, &p, &|_, _| {}).unwrap();
    let first = 2 * 16 * 16;
    assert!(a.len() > first, "{} samples: no refinement", a.len());
    // The window (y = 0, x 0.2..3.4, z 0.8..2.6) seen from the eye: refined samples fall
    // near its outline far more often than their share of the sphere.
    let towards_window = |d: DVec3| {
        let t = -pos.y / d.y;
        d.y < 0.0 && {
            let h = pos + t * d;
            (-0.3..3.9).contains(&h.x) && (0.3..3.1).contains(&h.z)
        }
    };
    let refined = &a.directions()[first..];
    let near = refined.iter().filter(|&&d| towards_window(d)).count();
    let share: f64 = a
        .directions()
        .iter()
        .zip(a.solid_angles())
        .filter(|(d, _)| towards_window(**d))
        .map(|(_, o)| o)
        .sum::<f64>()
        / (4.0 * std::f64::consts::PI);
    assert!(
        near as f64 / refined.len() as f64 > 3.0 * share,
        "{near} of {} refined samples towards the window, which is {share:.3} of the sphere",
        refined.len()
    );
    let b = sample_sky(&sky, pos, 0, &p, &|_, _| {}).unwrap();
    assert_eq!(a.directions(), b.directions());
    assert_eq!(a.values(), b.values());
    let back = io::from_bytes(&io::to_bytes(&a)).unwrap();
    assert_eq!(back.values(), a.values());
    assert_eq!(back.solid_angles(), a.solid_angles());
}
