//! `daylit annual`: scene files, sensors and a weather year in; climate-based metrics out (a
//! terminal summary, JSON, per-sensor CSV and PNG maps).

use crate::SceneArgs;
use anyhow::{bail, Context};
use daylit_annual::{compute, maps, report, Illuminance, MetricOptions, Schedule, SensorSet};
use daylit_coefficients::{annual_illuminance, sky_scene, Sensor, Stage, TraceSettings};
use daylit_scene::{LoadOptions, PrimType};
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `daylit annual`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Sensor file: `x y z dx dy dz` per line (RADIANCE's rtrace -I input).
    #[arg(long, conflicts_with = "floor")]
    sensors: Option<PathBuf>,
    /// Name of a floor polygon in the scene: sensors on a work-plane grid above it.
    #[arg(long)]
    floor: Option<String>,
    /// Work-plane height above the floor polygon, metres.
    #[arg(long, default_value_t = 0.8)]
    height: f64,
    /// Grid spacing, metres.
    #[arg(long, default_value_t = 0.5)]
    spacing: f64,
    /// Weather file: EPW, WEA or TMY3 CSV (told apart by content).
    #[arg(long)]
    weather: PathBuf,
    /// Occupancy schedule CSV (default: 8:00-18:00 every day).
    #[arg(long)]
    schedule: Option<PathBuf>,
    /// Write the results as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Folder for the per-sensor CSV and the PNG maps.
    #[arg(short = 'o', long, default_value = "annual")]
    out: PathBuf,
    /// DA threshold, lux (a second DA is reported at 150 lux).
    #[arg(long, default_value_t = 300.0)]
    threshold: f32,
    /// UDI band, lux: lower,upper.
    #[arg(long, default_value = "100,2000", value_parser = parse_band)]
    udi: (f32, f32),
    /// Sky subdivision: Reinhart MF (1 = Tregenza's 145 patches).
    #[arg(short = 'm', long = "mf", default_value_t = 1)]
    mf: u32,
    /// Ambient bounces.
    #[arg(long = "ab", default_value_t = TraceSettings::default().ab)]
    ab: u32,
    /// Ambient divisions.
    #[arg(long = "ad", default_value_t = TraceSettings::default().ad)]
    ad: u32,
    /// Minimum ray weight (Russian roulette below it).
    #[arg(long = "lw", default_value_t = TraceSettings::default().lw)]
    lw: f64,
    /// Random seed (same seed and inputs, same results on any thread count).
    #[arg(long, default_value_t = TraceSettings::default().seed)]
    seed: u64,
}

fn parse_band(s: &str) -> Result<(f32, f32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected lower,upper in lux, found \"{s}\""))?;
    let num = |w: &str| {
        w.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| format!("expected a number of lux, found \"{w}\""))
    };
    let (lo, hi) = (num(a)?, num(b)?);
    if lo >= hi {
        return Err(format!("the UDI band {lo},{hi} is empty"));
    }
    Ok((lo, hi))
}

/// The vertices of the polygon named `name` in the scene files.
fn floor_polygon(
    files: &[PathBuf],
    load: &LoadOptions,
    name: &str,
) -> anyhow::Result<Vec<[f64; 3]>> {
    let scene = daylit_scene::load_scene(files, load)?;
    let p = scene
        .prims
        .iter()
        .rev()
        .find(|p| p.name == name && p.ptype == PrimType::Polygon)
        .with_context(|| format!("--floor: no polygon named '{name}' in the scene"))?;
    Ok(p.fargs
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect())
}

/// Runs `daylit annual`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    if a.mf == 0 || a.mf > 30 {
        bail!("-m {}: the Reinhart subdivision must be 1 to 30", a.mf);
    }
    let load = LoadOptions {
        allow_commands: a.scene.allow_commands,
        ..LoadOptions::default()
    };
    let weather = daylit_sky::weather::read_weather(&a.weather)?;
    if let Some(note) = weather.coverage_note() {
        eprintln!("annual: {note}");
    }
    let set = match (&a.sensors, &a.floor) {
        (Some(f), _) => SensorSet::read(f)?,
        (None, Some(name)) => {
            let poly = floor_polygon(&a.scene.files, &load, name)?;
            let grid = daylit_annual::GridOptions {
                height: a.height,
                spacing: a.spacing,
            };
            SensorSet::from_polygon(&poly, &grid)?
        }
        (None, None) => bail!("give --sensors FILE or --floor POLYGON"),
    };
    let schedule = match &a.schedule {
        Some(f) => Schedule::read(f, &weather.records)?,
        None => Schedule::office(&weather.records),
    };

    let opts = TraceSettings {
        ab: a.ab,
        ad: a.ad,
        lw: a.lw,
        seed: a.seed,
    }
    .options()
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let sky = sky_scene(&a.scene.files, &load, opts, Subdivision::Reinhart(a.mf))?;
    let sensors: Vec<Sensor> = set
        .sensors
        .iter()
        .map(|s| Sensor {
            pos: DVec3::from_array(s.position),
            normal: DVec3::from_array(s.direction).normalize(),
        })
        .collect();

    let n = sensors.len() as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(2 * n);
        b.set_style(
            indicatif::ProgressStyle::with_template("{msg:24} {bar:40} {pos}/{len} {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message("daylight coefficients");
        b
    });
    let progress = |stage: Stage| {
        if let Some(b) = &bar {
            if stage == Stage::Sun && b.position() == n {
                b.set_message("direct sun");
            }
            b.inc(1);
        }
    };
    let year = annual_illuminance(&sky, &sensors, &weather, &progress)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }

    let metric_opts = MetricOptions {
        da_threshold: a.threshold,
        udi_lower: a.udi.0,
        udi_upper: a.udi.1,
        ..MetricOptions::default()
    };
    let total = Illuminance::sensor_major(&year.total, year.sensors, year.steps);
    let sun = Illuminance::sensor_major(&year.direct_sun, year.sensors, year.steps);
    let m = compute(&total, Some(&sun), &schedule, &metric_opts)?;

    println!("{}", report::summary(&m));
    let parent = a.json.as_ref().and_then(|j| j.parent());
    for dir in [Some(a.out.as_path()), parent].into_iter().flatten() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    if let Some(j) = &a.json {
        report::write_json(j, &m)?;
        println!("JSON: {}", j.display());
    }
    let csv = a.out.join("sensors.csv");
    report::write_csv(&csv, &set, &m)?;
    let pngs = maps::write_maps(&a.out, &set, &m)?;
    println!(
        "per-sensor CSV: {}; maps: {}",
        csv.display(),
        pngs.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
