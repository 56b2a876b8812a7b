//! The parallel multiple-bounce irradiance cache (issue 7) on the validation rooms.
//!
//! Sensors: `rtrace -I` grids at `-aa 0.1` (and 0.05, 0.2 in the overcast office) against the
//! converged references (validation/goldens/NN/illuminance.txt, `-ab 8 -ad 16384 -aa 0`);
//! daylit's cache must do no
//! worse than RADIANCE's own lazy cache run at the same options (validation/irradiance_cache/
//! goldens, made by make_goldens.sh there), with a margin for Monte Carlo noise.
//! Pictures: the office fisheye at `-aa 0.2` against the converged `-aa 0` golden by
//! Tregenza patches, with the pixels left to a final gather counted.

use daylit_compile::compile;
use daylit_image::{tregenza, HdrImage, View};
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation")
}

/// Options of the cached sensor runs, shared with validation/irradiance_cache/make_goldens.sh.
pub const SENSOR_OPTS: &str =
    "-ab 8 -ad 1024 -as 256 -aa 0.1 -ar 128 -lr -10 -lw 1e-4 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0";

fn renderer(case: &str, opts_text: &str, opts: Options) -> Renderer {
    renderer_seeded(case, opts_text, opts, 1)
}

fn renderer_seeded(case: &str, opts_text: &str, mut opts: Options, seed: u64) -> Renderer {
    let dir = root().join("scenes").join(case);
    let files: Vec<PathBuf> = std::fs::read_to_string(dir.join("scene_files.txt"))
        .unwrap()
        .split_whitespace()
        .map(|f| dir.join(f))
        .collect();
    let scene = load_scene(&files, &LoadOptions::default()).unwrap();
    let compiled = compile(&scene);
    let words: Vec<String> = opts_text.split_whitespace().map(String::from).collect();
    let mut i = 0;
    while i < words.len() {
        i += opts.parse_arg(&words, i).unwrap().max(1);
    }
    opts.seed = seed;
    let raypath = daylit_cal::RayPath::new([dir]);
    Renderer::new(scene, compiled, opts, &raypath).unwrap()
}

fn lux(v: DVec3) -> f64 {
    179.0 * (0.265 * v.x + 0.670 * v.y + 0.065 * v.z)
}

fn numbers(path: &Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// Mean absolute relative difference and its 95th percentile.
fn errors(got: &[f64], reference: &[f64]) -> (f64, f64) {
    let mut e: Vec<f64> = got
        .iter()
        .zip(reference)
        .map(|(g, r)| ((g - r) / r.max(1e-9)).abs())
        .collect();
    e.sort_by(f64::total_cmp);
    let mard = e.iter().sum::<f64>() / e.len() as f64;
    (
        mard,
        e[((0.95 * e.len() as f64).ceil() as usize).max(1) - 1],
    )
}

/// Mean relative error.
fn bias(got: &[f64], reference: &[f64]) -> f64 {
    got.iter()
        .zip(reference)
        .map(|(g, r)| g / r - 1.0)
        .sum::<f64>()
        / got.len() as f64
}

/// daylit's cached illuminance at the sensors of `case` with `opts`, and the final gathers
/// at level 0.
fn cached_sensors(case: &str, opts: &str, seed: u64) -> (Vec<f64>, u64) {
    let pts = root().join("scenes").join(case).join("sensors.pts");
    cached_sensors_at(case, &pts, opts, seed)
}

/// The same for the sensors of the file `pts`.
fn cached_sensors_at(case: &str, pts: &Path, opts: &str, seed: u64) -> (Vec<f64>, u64) {
    let mut r = renderer_seeded(case, opts, Options::rtrace(), seed);
    let pts: Vec<(DVec3, DVec3)> = numbers(pts)
        .iter()
        .map(|p| {
            (
                DVec3::new(p[0], p[1], p[2]),
                DVec3::new(p[3], p[4], p[5]).normalize(),
            )
        })
        .collect();
    let prepared = r
        .prepare_irradiance_cache(pts.len(), |rd, i, ctx| {
            rd.irradiance(pts[i].0, pts[i].1, ctx);
        })
        .unwrap();
    let cache = r.irradiance_cache().unwrap().clone();
    eprint!("{case}: {}", prepared.stats.report(&cache));
    let lx: Vec<f64> = pts
        .par_iter()
        .enumerate()
        .map(|(k, (p, n))| {
            let mut ctx = r.ctx(k as u64);
            lux(r.irradiance(*p, *n, &mut ctx))
        })
        .collect();
    (lx, cache.gathers()[0])
}

/// Checks `case` at `-aa aa` against RADIANCE's lazy cache at the same options
/// (validation/irradiance_cache/goldens/`case`/`goldens`, one file per RADIANCE run): daylit's
/// MARD and p95, averaged over `seeds`, may exceed RADIANCE's, averaged over its runs, by at
/// most `margin` (fractions).
fn check_sensors(case: &str, aa: &str, goldens: &[&str], seeds: &[u64], margin: (f64, f64)) {
    let opts = SENSOR_OPTS.replace("-aa 0.1", &format!("-aa {aa}"));
    let reference: Vec<f64> = numbers(&root().join("goldens").join(case).join("illuminance.txt"))
        .iter()
        .map(|l| l[0])
        .collect();
    let mean = |e: &[(f64, f64, f64)]| {
        let n = e.len() as f64;
        e.iter().fold((0.0, 0.0, 0.0), |a, x| {
            (a.0 + x.0 / n, a.1 + x.1 / n, a.2 + x.2 / n)
        })
    };
    let radiance: Vec<(f64, f64, f64)> = goldens
        .iter()
        .map(|g| {
            let v: Vec<f64> = numbers(&root().join("irradiance_cache/goldens").join(case).join(g))
                .iter()
                .map(|l| l[0])
                .collect();
            let (m, p) = errors(&v, &reference);
            (m, p, bias(&v, &reference))
        })
        .collect();
    let daylit: Vec<(f64, f64, f64)> = seeds
        .iter()
        .map(|&seed| {
            let (got, gathers) = cached_sensors(case, &opts, seed);
            let (m, p) = errors(&got, &reference);
            eprintln!(
                "{case} -aa {aa} seed {seed}: daylit MARD {:.2}% p95 {:.2}% bias {:.2}% ({gathers} sensors gathered)",
                100.0 * m,
                100.0 * p,
                100.0 * bias(&got, &reference)
            );
            (m, p, bias(&got, &reference))
        })
        .collect();
    let (d_mard, d_p95, d_bias) = mean(&daylit);
    let (r_mard, r_p95, r_bias) = mean(&radiance);
    eprintln!(
        "{case} -aa {aa}: daylit cache MARD {:.2}% p95 {:.2}% bias {:.2}% ({} seeds); RADIANCE lazy cache MARD {:.2}% p95 {:.2}% bias {:.2}% ({} runs)",
        100.0 * d_mard,
        100.0 * d_p95,
        100.0 * d_bias,
        seeds.len(),
        100.0 * r_mard,
        100.0 * r_p95,
        100.0 * r_bias,
        goldens.len()
    );
    assert!(
        d_mard <= r_mard + margin.0,
        "{case} -aa {aa}: MARD {:.2}%",
        100.0 * d_mard
    );
    assert!(
        d_p95 <= r_p95 + margin.1,
        "{case} -aa {aa}: p95 {:.2}%",
        100.0 * d_p95
    );
}

/// No worse than RADIANCE's cache, allowing 1 % MARD and 2 % p95 for the noise of one run of
/// each (32 sensors: p95 is the second-worst sensor).
const NO_WORSE: (f64, f64) = (0.01, 0.02);

/// No worse than RADIANCE's cache on average over four runs of each, whose noise is half
/// that of one.
const MEANS_NO_WORSE: (f64, f64) = (0.005, 0.01);

#[test]
fn office_overcast_sensors() {
    // Measured: daylit MARD 1.43 %, p95 3.96 %; RADIANCE 2.80 %, 10.81 %.
    check_sensors(
        "06_office_overcast",
        "0.1",
        &["illuminance.txt"],
        &[1],
        NO_WORSE,
    );
}

#[test]
fn office_overcast_sensors_aa_005() {
    // Four RADIANCE runs against four daylit seeds: a single run's p95 (the second-worst of 32
    // sensors) moves by several % between runs. Measured: daylit MARD 2.03 %, p95 6.97 %;
    // RADIANCE 2.49 %, 8.52 %.
    check_sensors(
        "06_office_overcast",
        "0.05",
        &[
            "illuminance_aa0.05.txt",
            "illuminance_aa0.05_run2.txt",
            "illuminance_aa0.05_run3.txt",
            "illuminance_aa0.05_run4.txt",
        ],
        &[1, 2, 3, 4],
        MEANS_NO_WORSE,
    );
}

#[test]
fn office_overcast_sensors_aa_02() {
    // Four runs of each, as at -aa 0.05: RADIANCE's p95 moves from 5.5 to 11.8 % between its
    // runs. Measured: daylit MARD 2.21 %, p95 7.60 % (seeds 1-4: 2.50/2.07/2.31/1.94 %);
    // RADIANCE 2.69 %, 7.24 % (2.45/2.26/3.55/2.52 %).
    check_sensors(
        "06_office_overcast",
        "0.2",
        &[
            "illuminance_aa0.2.txt",
            "illuminance_aa0.2_run2.txt",
            "illuminance_aa0.2_run3.txt",
            "illuminance_aa0.2_run4.txt",
        ],
        &[1, 2, 3, 4],
        MEANS_NO_WORSE,
    );
}

#[test]
fn office_clear_sun_sensors() {
    // Six daylit seeds: one run's MARD moves between 1.2 and 2.0 % with the seed (the sun
    // patch's edge falls between records differently). Measured: daylit MARD 1.08 %, p95
    // 3.66 % (mean of six); RADIANCE 0.98 %, 3.56 % (one run).
    check_sensors(
        "07_office_clear_sun",
        "0.1",
        &["illuminance.txt"],
        &[1, 2, 3, 4, 5, 6],
        NO_WORSE,
    );
}

/// Options of the dense-grid goldens (make_goldens.sh --dense: DENSE_OPTS).
const DENSE_OPTS: &str =
    "-ab 5 -ad 1024 -as 256 -aa 0.1 -ar 256 -lw 1e-4 -lr -10 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0";

/// Issue 20, item 2: 1219 sensors 0.15 m apart in the clear-sun office, where the cache used to
/// read 2 % low (its super-sampling was biased). Against RADIANCE's converged grid (two runs
/// without a cache averaged), daylit's MARD over two seeds must not exceed that of RADIANCE's
/// lazy cache over four runs at the same options, and daylit's mean error must stay within
/// ±1 % (the converged grid carries about ±0.2 % of its own in the mean).
/// Measured: daylit MARD 1.22/1.24 %, bias −0.15/−0.69 % (seeds 1, 2; before the fix 2.05/2.11 %,
/// −1.8/−1.9 %); RADIANCE 1.96/3.04/2.21/2.66 %, bias +1.7 to +2.9 %.
#[test]
fn dense_grid_no_worse_than_radiance() {
    let case = "07_office_clear_sun";
    let gold = root().join("irradiance_cache/goldens").join(case);
    let column = |f: &str| -> Vec<f64> { numbers(&gold.join(f)).iter().map(|l| l[0]).collect() };
    let reference = column("dense_converged.txt");
    let radiance: Vec<f64> = (1..=4)
        .map(|k| errors(&column(&format!("dense_aa0.1_run{k}.txt")), &reference).0)
        .collect();
    let r_mard = radiance.iter().sum::<f64>() / radiance.len() as f64;
    let mut d_mard = 0.0;
    for seed in [1, 2] {
        let (got, _) = cached_sensors_at(case, &gold.join("dense_grid.pts"), DENSE_OPTS, seed);
        assert_eq!(got.len(), reference.len());
        let (m, p) = errors(&got, &reference);
        let b = bias(&got, &reference);
        eprintln!(
            "dense grid seed {seed}: daylit MARD {:.2}% p95 {:.2}% bias {:+.2}%",
            100.0 * m,
            100.0 * p,
            100.0 * b
        );
        assert!(
            b.abs() <= 0.01,
            "dense grid seed {seed}: bias {:+.2}%",
            100.0 * b
        );
        d_mard += m / 2.0;
    }
    eprintln!(
        "dense grid: daylit MARD {:.2}% (2 seeds), RADIANCE lazy cache {:.2}% (4 runs: {:?})",
        100.0 * d_mard,
        100.0 * r_mard,
        radiance
            .iter()
            .map(|m| (1e4 * m).round() / 100.0)
            .collect::<Vec<_>>()
    );
    assert!(
        d_mard <= r_mard,
        "dense grid: MARD {:.2}% against RADIANCE's {:.2}%",
        100.0 * d_mard,
        100.0 * r_mard
    );
}

/// Options of the cached pictures, shared with make_goldens.sh there (rpict's defaults for the
/// cache: -aa 0.2 -ar 64).
pub const PICTURE_OPTS: &str =
    "-ab 4 -ad 512 -as 0 -aa 0.2 -ar 64 -lr -10 -lw 1e-5 -dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0";

#[test]
fn office_fisheye_picture() {
    let case = "06_office_overcast";
    let mut r = renderer(case, PICTURE_OPTS, Options::rpict());
    let dir = root().join("scenes").join(case);
    let vf = std::fs::read_to_string(dir.join("view.vf")).unwrap();
    let words: Vec<&str> = vf
        .split_whitespace()
        .skip_while(|w| !w.starts_with("-v"))
        .collect();
    let view = View::parse(&words.join(" ")).unwrap();
    let frame = view.frame().unwrap();
    let gold = HdrImage::read(&root().join("goldens").join(case).join("view.hdr")).unwrap();
    let lazy = HdrImage::read(
        &root()
            .join("irradiance_cache/goldens")
            .join(case)
            .join("view.hdr"),
    )
    .unwrap();
    let (w, h) = (gold.width, gold.height);
    let prepared = r
        .prepare_irradiance_cache(w * h, |rd, k, ctx| {
            if let Some(ray) = frame.pixel_ray(w, h, k % w, k / w) {
                rd.radiance(ray.origin, ray.dir, ctx);
            }
        })
        .unwrap();
    let cache = r.irradiance_cache().unwrap().clone();
    eprint!("{case} picture: {}", prepared.stats.report(&cache));
    let lum: Vec<f64> = (0..w * h)
        .into_par_iter()
        .map(|k| {
            let mut ctx = r.ctx(k as u64);
            match frame.pixel_ray(w, h, k % w, k / w) {
                Some(ray) => lux(r.radiance(ray.origin, ray.dir, &mut ctx).value),
                None => 0.0,
            }
        })
        .collect();
    let gathers = cache.gathers()[0];
    let map = tregenza::PatchMap::new(&frame, w, h);
    let ours = tregenza::compare(&map, &lum, &gold.luminance_image()).unwrap();
    let theirs = tregenza::compare(&map, &lazy.luminance_image(), &gold.luminance_image()).unwrap();
    eprintln!(
        "{case} picture: daylit cache MBE_rel {:.2}% RMSE_rel {:.2}%, {gathers} of {} pixels gathered; RADIANCE lazy cache MBE_rel {:.2}% RMSE_rel {:.2}%",
        100.0 * ours.mbe_rel,
        100.0 * ours.rmse_rel,
        w * h,
        100.0 * theirs.mbe_rel,
        100.0 * theirs.rmse_rel
    );
    // No worse than RADIANCE's lazy cache, with 1 % (of the patch luminance) for the noise of
    // one picture each (two RADIANCE runs differ by 1.4 % MBE_rel and 2.8 % RMSE_rel).
    // Measured: daylit MBE_rel +3.1 %, RMSE_rel 8.2 %, 59 pixels gathered; RADIANCE +5.6 %,
    // 10.3 % (without the leak tests daylit was at +7.8 %, 12.4 %).
    assert!(
        ours.mbe_rel.abs() <= theirs.mbe_rel.abs() + 0.01,
        "MBE_rel {:.2}%",
        100.0 * ours.mbe_rel
    );
    assert!(
        ours.rmse_rel <= theirs.rmse_rel + 0.01,
        "RMSE_rel {:.2}%",
        100.0 * ours.rmse_rel
    );
    // Few pixels left to the final gather: no blotches of uncovered surface.
    assert!(
        (gathers as f64) <= 0.01 * (w * h) as f64,
        "{gathers} pixels gathered"
    );
}
