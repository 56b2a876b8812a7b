//! daylit's `-aa 0` estimator (windows and sun patches as portals, multiple importance
//! sampling, Russian roulette) against RADIANCE's own (`--radiance-ambient`), at the same
//! options and budget: it must be unbiased (its mean over seeds within 1 % of the converged
//! RADIANCE golden) and less noisy (its mean error per run well below the RADIANCE
//! estimator's) on rooms lit by sky through windows, by sun patches and by a mirror light
//! shelf. The same estimator computes `rcontrib`'s coefficients: unbiased per sky band (within
//! three standard errors) against the RADIANCE estimator's converged mean, and less noisy in
//! the illuminance they give under a sky. (Per band, the coefficients of the mid-altitude sky,
//! which reaches the sensors mostly by reflection, can be noisier than the RADIANCE
//! estimator's in magnitude-weighted RMS: half the cosine samples go to the windows.)

mod common;

use common::numbers;
use daylit_compile::compile;
use daylit_scene::{load_scene_then_text, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::path::{Path, PathBuf};

const OPTS: &str = "-ab 8 -ad 256 -as 0 -aa 0 -lr -10 -lw 1e-6 \
                    -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0";
const SEEDS: u64 = 8;

fn validation() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation")
}

fn options(words: &str, radiance: bool, seed: u64) -> Options {
    let mut words: Vec<String> = words.split_whitespace().map(String::from).collect();
    if radiance {
        words.push("--radiance-ambient".into());
    }
    let mut opts = Options::rtrace();
    let mut i = 0;
    while i < words.len() {
        i += opts.parse_arg(&words, i).unwrap().max(1);
    }
    opts.seed = seed;
    opts
}

fn lux(v: DVec3) -> f64 {
    179.0 * (0.265 * v.x + 0.670 * v.y + 0.065 * v.z)
}

/// Illuminance at the room's sensors, one run.
fn run(case: &str, radiance: bool, seed: u64) -> Vec<f64> {
    let dir = validation().join("scenes").join(case);
    let files = std::fs::read_to_string(dir.join("scene_files.txt")).unwrap();
    let files: Vec<&str> = files.split_whitespace().collect();
    let opts = if radiance {
        format!("{OPTS} --radiance-ambient")
    } else {
        OPTS.to_string()
    };
    let r = common::renderer(&dir, &files, &opts, seed);
    common::sensors(&r, &numbers(&dir.join("sensors.pts")), |e, _| lux(e))
}

/// (mean relative bias of the mean over seeds, mean MARD per run) against `gold`.
fn score(runs: &[Vec<f64>], gold: &[f64]) -> (f64, f64) {
    let n = gold.len() as f64;
    let bias = (0..gold.len())
        .map(|i| runs.iter().map(|r| r[i]).sum::<f64>() / runs.len() as f64 / gold[i] - 1.0)
        .sum::<f64>()
        / n;
    let mard = runs
        .iter()
        .map(|r| {
            r.iter()
                .zip(gold)
                .map(|(d, g)| (d / g - 1.0).abs())
                .sum::<f64>()
                / n
        })
        .sum::<f64>()
        / runs.len() as f64;
    (bias, mard)
}

/// Checks `case`: bias within 1 %, mean MARD at most `ratio` × the RADIANCE estimator's.
fn check_room(case: &str, ratio: f64) {
    let gold: Vec<f64> = numbers(
        &validation()
            .join("goldens")
            .join(case)
            .join("illuminance.txt"),
    )
    .iter()
    .map(|l| l[0])
    .collect();
    let ours: Vec<Vec<f64>> = (1..=SEEDS).map(|s| run(case, false, s)).collect();
    let theirs: Vec<Vec<f64>> = (1..=SEEDS).map(|s| run(case, true, s)).collect();
    let (bias, mard) = score(&ours, &gold);
    let (rbias, rmard) = score(&theirs, &gold);
    eprintln!(
        "{case}: daylit bias {:+.2} %, MARD {:.2} %; RADIANCE's estimator bias {:+.2} %, MARD {:.2} %",
        100.0 * bias,
        100.0 * mard,
        100.0 * rbias,
        100.0 * rmard
    );
    assert!(bias.abs() <= 0.01, "{case}: bias {:+.2} %", 100.0 * bias);
    assert!(
        mard <= ratio * rmard,
        "{case}: MARD {:.2} % against RADIANCE's estimator's {:.2} %",
        100.0 * mard,
        100.0 * rmard
    );
}

#[test]
fn windows_as_portals_overcast() {
    check_room("06_office_overcast", 0.6);
}

#[test]
fn sun_patches_clear_sky() {
    check_room("07_office_clear_sun", 0.8);
}

#[test]
fn mirrored_sun_patches_light_shelf() {
    check_room("08_lightshelf_mirror", 0.8);
}

const SENDERS: &str = "
void glow skyglow 0 0 4 1 1 1 0
skyglow source sky 0 0 4 0 0 1 180
void glow groundglow 0 0 4 0.3 0.3 0.3 0
groundglow source ground 0 0 4 0 0 -1 180
";

/// Coefficients of the ground and four sky altitude bands at the office's sensors, summed
/// over colour (photopic), one run of `-ab 3 -lw 1e-4 -aa 0` at `-ad ad`.
fn coefficients(radiance: bool, ad: u32, seed: u64) -> Vec<[f64; 5]> {
    let dir = validation().join("scenes/06_office_overcast");
    let scene = load_scene_then_text(
        &[dir.join("scene.rad")],
        SENDERS,
        "senders",
        &LoadOptions::default(),
    )
    .unwrap();
    let compiled = compile(&scene);
    let words = format!("-ab 3 -ad {ad} -aa 0 -lw 1e-4 --daylit-ambient");
    let opts = options(&words, radiance, seed);
    let raypath = daylit_cal::RayPath::new(Vec::<&Path>::new());
    let mut r = Renderer::new(scene, compiled, opts, &raypath).unwrap();
    let spec = common::ground_and_sky_bands(&r, ("groundglow", "skyglow"), false, false);
    r.set_contributions(spec);
    common::sensors(&r, &numbers(&dir.join("sensors.pts")), |_, ctx| {
        std::array::from_fn(|b| lux(ctx.contrib[b]))
    })
}

#[test]
fn rcontrib_coefficients_unbiased_and_less_noisy() {
    // Reference: the RADIANCE estimator's mean over eight runs at 16 × the budget.
    const REF_RUNS: u64 = 8;
    let refs: Vec<Vec<[f64; 5]>> = (101..101 + REF_RUNS)
        .map(|s| coefficients(true, 4096, s))
        .collect();
    let n = refs[0].len();
    let reference: Vec<[f64; 5]> = (0..n)
        .map(|i| {
            std::array::from_fn(|b| refs.iter().map(|r| r[i][b]).sum::<f64>() / REF_RUNS as f64)
        })
        .collect();
    let ours: Vec<Vec<[f64; 5]>> = (1..=SEEDS).map(|s| coefficients(false, 256, s)).collect();
    let theirs: Vec<Vec<[f64; 5]>> = (1..=SEEDS).map(|s| coefficients(true, 256, s)).collect();
    // Unbiased per band: the band's total over sensors, mean over seeds, within three
    // standard errors (from the seeds' scatter) and 1 % of the reference.
    for b in 0..5 {
        let total = |rows: &[[f64; 5]]| rows.iter().map(|c| c[b]).sum::<f64>();
        let runs: Vec<f64> = ours.iter().map(|r| total(r)).collect();
        let mine = runs.iter().sum::<f64>() / SEEDS as f64;
        let var = runs.iter().map(|t| (t - mine).powi(2)).sum::<f64>() / (SEEDS - 1) as f64;
        let se = (var / SEEDS as f64).sqrt();
        let want = total(&reference);
        eprintln!("band {b}: daylit {mine:.1} ± {se:.1}, reference {want:.1}");
        assert!(
            (mine - want).abs() <= 3.0 * se + 0.01 * want,
            "band {b}: daylit's mean {mine:.2} ± {se:.2} against the reference's {want:.2}"
        );
    }
    // The error that matters for a sky: the illuminance the coefficients give under it, here
    // the uniform sky of the senders (all bands summed), MARD over the sensors per run.
    let sum = |c: &[f64; 5]| c.iter().sum::<f64>();
    let mard = |runs: &[Vec<[f64; 5]>]| {
        runs.iter()
            .map(|run| {
                run.iter()
                    .zip(&reference)
                    .map(|(c, r)| (sum(c) / sum(r) - 1.0).abs())
                    .sum::<f64>()
                    / n as f64
            })
            .sum::<f64>()
            / runs.len() as f64
    };
    let (e_ours, e_theirs) = (mard(&ours), mard(&theirs));
    eprintln!(
        "uniform-sky illuminance from the coefficients, MARD per run: daylit {:.2} %, \
         RADIANCE's estimator {:.2} %",
        100.0 * e_ours,
        100.0 * e_theirs
    );
    assert!(
        e_ours <= 0.6 * e_theirs,
        "daylit {e_ours:.4} against RADIANCE's estimator {e_theirs:.4}"
    );
}
