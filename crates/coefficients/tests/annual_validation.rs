//! Annual daylight against RADIANCE 6.0a (validation/annual/make_goldens.sh) on three rooms of
//! the validation suite under the Greensboro TMY3 year, the tolerances of issue 5:
//! - daylight coefficients (rfluxmtx, same options): per-sensor coefficient sums within 3 %;
//! - the two-phase year (gendaymtx, dctimestep): per-sensor mean illuminance over occupied
//!   hours within 3 %, DA300 and UDI per sensor within 0.03 mean absolute, sDA within 2 points;
//! - the direct sun (each hour's gendaylit sun traced by rcontrib -ab 0): ASE and the sunlit
//!   hours per sensor.

use daylit_annual::{compute, AnnualMetrics, Illuminance, MetricOptions, Schedule};
use daylit_coefficients::{annual_illuminance, sky_scene, AnnualIlluminance, Sensor};
use daylit_scene::LoadOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::io::Read;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation")
}

fn f32s_gz(path: &Path) -> Vec<f32> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn lux(r: f64, g: f64, b: f64) -> f64 {
    daylit_coefficients::sun::lux(DVec3::new(r, g, b))
}

fn metrics(values: &[f32], sun: &[f32], sensors: usize, schedule: &Schedule) -> AnnualMetrics {
    let hours = schedule.len();
    compute(
        &Illuminance::sensor_major(values, sensors, hours),
        Some(&Illuminance::sensor_major(sun, sensors, hours)),
        schedule,
        &MetricOptions::default(),
    )
    .unwrap()
}

fn mean_abs(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / a.len() as f64
}

/// The 32 validation sensors of `case` and their year traced with `opts`.
fn trace_year(
    case: &str,
    opts: daylit_transport::Options,
) -> (Vec<Sensor>, daylit_sky::weather::Weather, AnnualIlluminance) {
    let scene_dir = root().join("scenes").join(case);
    let gold = root().join("annual/goldens");
    let sensors: Vec<Sensor> = std::fs::read_to_string(scene_dir.join("sensors.pts"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            Sensor::new(DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]))
        })
        .collect();
    let load = LoadOptions {
        raypath: daylit_cal::RayPath::new([scene_dir.clone()]),
        ..LoadOptions::default()
    };
    let sky = sky_scene(
        &[scene_dir.join("scene.rad")],
        &load,
        opts,
        Subdivision::TREGENZA,
    )
    .unwrap();
    let weather = daylit_sky::weather::read_weather(&gold.join("gso.wea")).unwrap();
    let year = annual_illuminance(&sky, &sensors, &weather, &|_| {}).unwrap();
    (sensors, weather, year)
}

fn check_room(case: &str) {
    let gold = root().join("annual/goldens");
    let mut opts = daylit_transport::Options::rtrace();
    // -lw low enough that -ad is not capped (with -aa 0 the divisions stop growing once
    // -ad·-lw passes about 0.8·π); the goldens are converged further (-ad 1048576).
    let words: Vec<String> = "-ab 6 -ad 131072 -lw 2e-6 -lr -10 -dj 0"
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut i = 0;
    while i < words.len() {
        i += opts.parse_arg(&words, i).unwrap().max(1);
    }
    let (sensors, weather, year) = trace_year(case, opts);
    let n = sensors.len();
    let bins = year.coefficients.bins;

    // Coefficient sums (the illuminance under a uniform sky and ground of radiance 1).
    let dc_gold: Vec<Vec<f64>> = std::fs::read_to_string(gold.join(case).join("dc.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(dc_gold.len(), n);
    let (mut worst, mut sum_err): (f64, f64) = (0.0, 0.0);
    for (s, row) in dc_gold.iter().enumerate() {
        assert_eq!(row.len(), 3 * bins);
        let g: f64 = row.chunks_exact(3).map(|c| lux(c[0], c[1], c[2])).sum();
        let d: f64 = year.coefficients.total[s * bins..(s + 1) * bins]
            .iter()
            .map(|c| lux(c[0] as f64, c[1] as f64, c[2] as f64))
            .sum();
        worst = worst.max((d - g).abs() / g);
        sum_err += (d - g).abs() / g;
    }
    let mard = sum_err / n as f64;
    eprintln!(
        "{case}: coefficient sums, MARD {:.2}%, worst sensor {:.2}%",
        100.0 * mard,
        100.0 * worst
    );
    // Issue 5: every sensor within 3 % of the converged golden (measured on the office:
    // MARD 0.4 %, worst 1.6 %).
    assert!(
        mard <= 0.01,
        "{case}: coefficient sums MARD {:.2}%",
        100.0 * mard
    );
    assert!(
        worst <= 0.03,
        "{case}: coefficient sum off by {:.2}%",
        100.0 * worst
    );

    // The two-phase year against rfluxmtx × gendaymtx × dctimestep.
    let schedule = Schedule::office(&weather.records);
    let annual_gold = f32s_gz(&gold.join(case).join("annual.f32.gz"));
    let sun_gold = f32s_gz(&gold.join(case).join("sun.f32.gz"));
    assert_eq!(annual_gold.len(), n * schedule.len());
    let g = metrics(&annual_gold, &sun_gold, n, &schedule);
    let d = metrics(&year.two_phase, &year.direct_sun, n, &schedule);
    let mean_err = g
        .mean_lux
        .iter()
        .zip(&d.mean_lux)
        .map(|(g, d)| (d - g).abs() / g)
        .fold(0.0, f64::max);
    let (da, udi) = (mean_abs(&g.da, &d.da), mean_abs(&g.udi_a, &d.udi_a));
    eprintln!(
        "{case}: mean lux worst {:.2}%, DA300 MAE {da:.4}, UDI MAE {udi:.4}, sDA {:.3} vs {:.3}",
        100.0 * mean_err,
        d.sda,
        g.sda
    );
    // Issue 5: annual mean illuminance within 3 % on every sensor.
    assert!(
        mean_err <= 0.03,
        "{case}: annual mean off by {:.2}%",
        100.0 * mean_err
    );
    assert!(
        da <= 0.03 && udi <= 0.03,
        "{case}: DA MAE {da}, UDI MAE {udi}"
    );
    // Issue 5: sDA within 2 points (with 32 sensors, one sensor is 3.1 points: equal).
    assert!(
        (d.sda - g.sda).abs() <= 0.02,
        "{case}: sDA {} vs {}",
        d.sda,
        g.sda
    );

    // ASE from the direct sun alone, against RADIANCE's hour-by-hour suns.
    let (ga, dh) = (g.ase_hours.unwrap(), d.ase_hours.unwrap());
    let worst_hours = ga
        .iter()
        .zip(&dh)
        .map(|(a, b)| (*a as i64 - *b as i64).unsigned_abs())
        .max()
        .unwrap();
    eprintln!(
        "{case}: ASE {:.3} vs {:.3}, sunlit hours worst sensor off by {worst_hours}",
        d.ase.unwrap(),
        g.ase.unwrap()
    );
    assert!((d.ase.unwrap() - g.ase.unwrap()).abs() <= 1.0 / n as f64 + 1e-9);
    assert!(
        worst_hours <= 25,
        "{case}: sunlit hours off by {worst_hours}"
    );
}

#[test]
fn reference_office_matches_radiance() {
    check_room("06_office_overcast");
}

#[test]
fn light_shelf_matches_radiance() {
    check_room("08_lightshelf_mirror");
}

#[test]
fn translucent_partition_matches_radiance() {
    check_room("09_translucent_partition");
}

/// A gzipped text matrix of make_converged.sh: one line per sensor, RGB per patch.
fn dc_gz(path: &Path) -> Vec<Vec<[f64; 3]>> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
        })
        .collect()
}

/// Lux of every sensor at every step of `sky`: `dc` times the sky matrix, sensor-major.
fn times_sky(dc: &[Vec<[f64; 3]>], sky: &daylit_sky::gendaymtx::SkyMatrix) -> Vec<f64> {
    let mut out = Vec::with_capacity(dc.len() * sky.columns);
    for row in dc {
        assert_eq!(row.len(), sky.rows);
        for c in 0..sky.columns {
            let col = &sky.data[c * sky.rows..(c + 1) * sky.rows];
            let (mut r, mut g, mut b) = (0.0, 0.0, 0.0);
            for (k, v) in row.iter().zip(col) {
                r += k[0] * v[0] as f64;
                g += k[1] * v[1] as f64;
                b += k[2] * v[2] as f64;
            }
            out.push(lux(r, g, b));
        }
    }
    out
}

/// Issue 20, item 4: `daylit annual` at its default settings against the year converged in
/// samples and bounces (validation/annual/make_converged.sh), by the same formula
/// E = DC·S − DC_d·S_sun + E_sun: mean illuminance over the occupied hours within 3 % mean
/// absolute per sensor, DA300 within 0.02. Measured (BENCHMARKS.md, "Annual defaults") on seeds
/// 1-3: MARD 1.3-2.5 %, DA300 MAE 0.006-0.013.
fn check_defaults(case: &str) {
    let gold = root().join("annual/goldens");
    let opts = daylit_coefficients::TraceSettings::default()
        .options()
        .unwrap();
    let (sensors, weather, year) = trace_year(case, opts);
    let n = sensors.len();

    use daylit_sky::gendaymtx::{sky_matrix, Options};
    let full = sky_matrix(&weather, &Options::default()).unwrap();
    let mut sun_opts = Options::default();
    sun_opts.sun_only();
    let sun_patches = sky_matrix(&weather, &sun_opts).unwrap();
    let all = times_sky(&dc_gz(&gold.join(case).join("dc_converged.txt.gz")), &full);
    let direct = times_sky(
        &dc_gz(&gold.join(case).join("dc_direct.txt.gz")),
        &sun_patches,
    );
    let sun_gold = f32s_gz(&gold.join(case).join("sun.f32.gz"));
    let reference: Vec<f32> = all
        .iter()
        .zip(&direct)
        .zip(&sun_gold)
        .map(|((a, d), s)| ((a - d).max(0.0) + *s as f64) as f32)
        .collect();
    let schedule = Schedule::office(&weather.records);
    let g = metrics(&reference, &sun_gold, n, &schedule);
    let d = metrics(&year.total, &year.direct_sun, n, &schedule);
    let mard = g
        .mean_lux
        .iter()
        .zip(&d.mean_lux)
        .map(|(g, d)| (d - g).abs() / g)
        .sum::<f64>()
        / n as f64;
    let da = mean_abs(&g.da, &d.da);
    eprintln!(
        "{case}: defaults against the converged year: mean lux MARD {:.2}%, DA300 MAE {da:.4}",
        100.0 * mard
    );
    assert!(mard <= 0.03, "{case}: mean lux MARD {:.2}%", 100.0 * mard);
    assert!(da <= 0.02, "{case}: DA300 MAE {da}");
}

#[test]
fn defaults_meet_the_converged_office() {
    check_defaults("06_office_overcast");
}

#[test]
fn defaults_meet_the_converged_light_shelf() {
    check_defaults("08_lightshelf_mirror");
}

#[test]
fn defaults_meet_the_converged_translucent_partition() {
    check_defaults("09_translucent_partition");
}
