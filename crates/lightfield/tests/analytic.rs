//! Analytic checks of sampling and evaluation in an empty scene: a uniform sky gives Ev = π L
//! in every view, and a sun in view adds its normal illuminance times the cosine.

use daylit_coefficients::{sky_scene, SkyRenderer, TraceSettings};
use daylit_glare::RayOptions;
use daylit_lightfield::evaluate::{evaluate_point, Summary};
use daylit_lightfield::skies::{Hour, Skies};
use daylit_lightfield::sky::{sample_sky, SkyLayout, SkySampling};
use daylit_lightfield::sun::sample_sun_view;
use daylit_scene::LoadOptions;
use daylit_sky::gendaymtx::StepSun;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::f64::consts::PI;

fn empty_sky() -> (tempfile::TempDir, SkyRenderer) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("empty.rad");
    std::fs::write(&f, "# nothing but the sky\n").unwrap();
    let opts = TraceSettings {
        ab: 1,
        ad: 16,
        lw: 1e-3,
        seed: 1,
    }
    .options()
    .unwrap();
    let sky = sky_scene(&[f], &LoadOptions::default(), opts, Subdivision::TREGENZA).unwrap();
    (dir, sky)
}

/// One hour: every patch (ground too) of radiance `l` (visible W/m² sr, grey), and `sun`.
fn uniform_hour(bins: usize, l: f32, sun: Option<StepSun>) -> Skies {
    Skies {
        hours: vec![Hour {
            record: 0,
            month: 6,
            day: 21,
            hour: 12.0,
        }],
        bins,
        full: vec![[l; 3]; bins],
        sun_only: vec![[0.0; 3]; bins],
        suns: vec![sun],
    }
}

#[test]
fn uniform_sky_gives_pi_l_and_a_sun_in_view_adds_its_illuminance() {
    let (_dir, sky) = empty_sky();
    let params = SkySampling {
        idres: 16,
        nlev: 3,
        ..SkySampling::default()
    };
    let lp = sample_sky(&sky, DVec3::ZERO, 0, &params, &|_, _| {}).unwrap();
    // An empty scene has no detail: the first level only.
    assert_eq!(lp.len(), 2 * 16 * 16);
    let sum: f64 = lp.solid_angles().iter().sum();
    assert!((sum - 4.0 * PI).abs() < 1e-9);
    let layout = SkyLayout {
        patches: sky.patches,
    };
    let bins = sky.patches.len();
    let l = 10.0f32; // × 179 lm/W: 1790 cd/m²
    let views = [DVec3::X, DVec3::new(0.0, -1.0, 0.3).normalize(), DVec3::Z];
    let skies = uniform_hour(bins, l, None);
    let s = evaluate_point(
        &lp,
        &layout,
        &skies,
        &[None],
        &views,
        &RayOptions::default(),
        &|| {},
    )
    .unwrap();
    let want = PI * 179.0 * l as f64;
    // 512 samples: cells that straddle the edge of the view's hemisphere count whole or not
    // at all, which is worth a few tenths of a percent.
    for v in &s {
        assert!(
            (v.ev[0] / want - 1.0).abs() < 5e-3,
            "Ev {} want {want}",
            v.ev[0]
        );
        // Below the 2000 cd/m² threshold: no glare source, DGP = 5.87e-5 Ev + 0.159 (evalglare 3.06).
        let dgp = 5.87e-5 * v.ev[0] + 0.159;
        assert!((v.dgp[0] - dgp).abs() < 1e-6, "{} {dgp}", v.dgp[0]);
        assert!((v.ugp[0], v.ugr[0]) == (0.0, 0.0));
    }
    // A sun 30° off the first view's axis, 100 000 lx normal illuminance.
    let sun_dir = DVec3::new(3f64.sqrt() / 2.0, 0.0, 0.5);
    let en = 100_000.0 / 179.0;
    let sun = StepSun {
        dir: sun_dir.to_array(),
        normal: [en; 3],
    };
    let view = sample_sun_view(&sky.renderer, DVec3::ZERO, sun_dir, 256, 7);
    assert!(view.transmittance.iter().all(|t| *t == [1.0; 3]));
    let skies = uniform_hour(bins, l, Some(sun));
    let s = evaluate_point(
        &lp,
        &layout,
        &skies,
        &[Some(&view)],
        &[DVec3::X],
        &RayOptions::default(),
        &|| {},
    )
    .unwrap();
    let want = want + 100_000.0 * (PI / 6.0).cos();
    assert!(
        (s[0].ev[0] / want - 1.0).abs() < 5e-3,
        "Ev {} want {want}",
        s[0].ev[0]
    );
    assert!(s[0].dgp[0] > 0.45, "the sun in view: DGP {}", s[0].dgp[0]);
    let sum = Summary::of(&s[0]);
    assert_eq!((sum.hours, sum.above_045, sum.glare_autonomy), (1, 1, 0.0));
}
