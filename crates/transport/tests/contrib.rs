//! Contribution coefficients must account for exactly the light the tracer returns: with the
//! senders the only light, a sensor's bins times the senders' radiances sum to its irradiance
//! from the same rays. This holds only if every path coefficient is the factor the ray's value
//! is really multiplied by, through glass, reflections and Russian roulette.

mod common;

use daylit_compile::compile;
use daylit_scene::{load_scene_then_text, LoadOptions, Scene};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::path::Path;

const SENDERS: &str = "
void glow skyglow 0 0 4 1 1 1 0
skyglow source sky 0 0 4 0 0 1 180
void glow groundglow 0 0 4 0.3 0.2 0.1 0
groundglow source ground 0 0 4 0 0 -1 180
";

fn office_with_senders() -> Scene {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/scenes/06_office_overcast");
    load_scene_then_text(
        &[dir.join("scene.rad")],
        SENDERS,
        "senders",
        &LoadOptions::default(),
    )
    .unwrap()
}

fn renderer(values: bool) -> Renderer {
    let scene = office_with_senders();
    let compiled = compile(&scene);
    let mut opts = Options::rtrace();
    for (k, v) in [
        ("-ab", "3"),
        ("-ad", "256"),
        ("-lw", "1e-3"),
        ("-lr", "-10"),
    ] {
        opts.parse_arg(&[k.to_string(), v.to_string()], 0).unwrap();
    }
    let mut r = Renderer::new(
        scene,
        compiled,
        opts,
        &daylit_cal::RayPath::new(Vec::<&Path>::new()),
    )
    .unwrap();
    // Sky bins by altitude band, so that binning itself is exercised.
    let spec = common::ground_and_sky_bands(&r, ("groundglow", "skyglow"), values, true);
    r.set_contributions(spec);
    r
}

#[test]
fn contributions_add_up_to_the_irradiance() {
    for values in [false, true] {
        let r = renderer(values);
        for (k, p) in [
            DVec3::new(1.35, 0.5, 0.8),
            DVec3::new(2.25, 4.1, 0.8),
            DVec3::new(0.45, 7.0, 0.8),
        ]
        .into_iter()
        .enumerate()
        {
            let mut ctx = r.ctx(k as u64);
            let e = r.irradiance(p, DVec3::Z, &mut ctx);
            let bins = &ctx.contrib;
            assert_eq!(bins.len(), 10);
            let ground = DVec3::new(0.3, 0.2, 0.1);
            // Coefficients: weight the ground bin by its radiance; values already carry it.
            let total =
                if values { bins[0] } else { bins[0] * ground } + bins[1..5].iter().sum::<DVec3>();
            assert!(e.y > 0.01, "sensor {k} sees the senders: {e}");
            assert!(
                (total - e).abs().max_element() <= 1e-9 * e.max_element(),
                "sensor {k}: bins {total} vs traced {e}"
            );
            // The direct set is part of the whole and, near the window, most of it.
            let direct: DVec3 = bins[5..].iter().sum();
            assert!(direct.cmple(bins[..5].iter().sum::<DVec3>() + 1e-12).all());
            if k == 0 {
                assert!(
                    direct.y > 0.3 * total.y,
                    "sensor by the window: direct {direct} of {total}"
                );
            }
        }
    }
}
