//! `daylit glare --annual`: scene files, a weather year and views in; per view and occupied
//! daylight hour Ev, DGP, DGPs, UGP and UGR out (a terminal summary, JSON, CSV), computed by
//! `daylit-lightfield` (seed 004's adaptive light-field sampling).

use crate::glare::Args;
use crate::output;
use anyhow::{bail, Context};
use daylit_annual::Schedule;
use daylit_coefficients::{sky_scene, TraceSettings};
use daylit_lightfield::skies::skies;
use daylit_lightfield::sky::SkySampling;
use daylit_lightfield::{annual_glare, Progress, Settings, ViewSpec};
use daylit_scene::LoadOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Parses `"x y z dx dy dz"`.
fn parse_view(s: &str) -> anyhow::Result<ViewSpec> {
    let v: Vec<f64> = s
        .split_whitespace()
        .map(|w| w.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()
        .filter(|v: &Vec<f64>| v.len() == 6)
        .with_context(|| format!("--view \"{s}\": expected six numbers \"x y z dx dy dz\""))?;
    let direction = DVec3::new(v[3], v[4], v[5]);
    if direction.length_squared() == 0.0 {
        bail!("--view \"{s}\": the view direction is zero");
    }
    Ok(ViewSpec {
        point: DVec3::new(v[0], v[1], v[2]),
        direction: direction.normalize(),
    })
}

/// Options of `daylit glare` that only a picture has.
fn refuse_picture_options(a: &Args) -> anyhow::Result<()> {
    let given = [
        ("--check", a.check.is_some()),
        ("--posindex", a.posindex.is_some()),
        ("--task", a.task.is_some()),
        ("--region", !a.regions.is_empty()),
        ("--ratio", !a.ratios.is_empty()),
    ];
    if let Some((name, _)) = given.iter().find(|(_, g)| *g) {
        bail!("{name}: not available with --annual (it belongs to a picture)");
    }
    Ok(())
}

/// `daylit glare --annual`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    refuse_picture_options(a)?;
    let weather_path = a
        .weather
        .as_ref()
        .context("--annual needs --weather FILE (EPW, WEA or TMY3 CSV)")?;
    if a.view.is_empty() {
        bail!("--annual needs at least one --view \"x y z dx dy dz\"");
    }
    let views: Vec<ViewSpec> = a
        .view
        .iter()
        .map(|v| parse_view(v))
        .collect::<Result<_, _>>()?;
    let weather = daylit_sky::weather::read_weather(weather_path)?;
    if let Some(note) = weather.coverage_note() {
        eprintln!("glare: {note}");
    }
    let schedule = match &a.schedule {
        Some(f) => Schedule::read(f, &weather.records)?,
        None => Schedule::office(&weather.records),
    };
    let occupied: Vec<bool> = (0..weather.records.len())
        .map(|k| schedule.is_occupied(k))
        .collect();
    let year = skies(&weather, &occupied, 1)?;
    let trace = TraceSettings {
        ab: a.ab,
        ad: a.ad,
        lw: a.lw,
        seed: a.seed,
    };
    let opts = trace.options().map_err(|e| anyhow::anyhow!("{e}"))?;
    let load = LoadOptions {
        allow_commands: a.allow_commands,
        ..LoadOptions::default()
    };
    let settings = Settings {
        sky: SkySampling {
            idres: a.idres,
            nlev: a.nlev,
            accuracy: a.accuracy,
            seed: a.seed,
            ..SkySampling::default()
        },
        sunsamples: a.sunsamples,
        sunres: a.sunres,
        rays: daylit_glare::RayOptions {
            threshold: a.threshold.map_or(2000.0, f64::from),
            search_radius: a.radius,
            low_light: a.low_light,
            ..daylit_glare::RayOptions::default()
        },
        save: a.save.clone(),
        load: a.load.clone(),
    };
    settings.sky.check()?;
    if let Some(d) = &a.save {
        std::fs::create_dir_all(d).with_context(|| format!("--save {}", d.display()))?;
    }
    let sky = sky_scene(&a.inputs, &load, opts, Subdivision::TREGENZA)?;
    let mut points: Vec<DVec3> = Vec::new();
    for v in &views {
        if !points.contains(&v.point) {
            points.push(v.point);
        }
    }
    let npoints = points.len() as u64;
    let per_point = settings.sky.nlev as u64 + 1 + year.hours.len() as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(npoints * per_point);
        b.set_style(
            indicatif::ProgressStyle::with_template("{msg:28} {bar:40} {pos}/{len} {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let progress = |p: Progress| {
        if let Some(b) = &bar {
            match p {
                Progress::SkyLevel {
                    point,
                    level,
                    levels,
                } => b.set_message(format!(
                    "point {} sky level {}/{}",
                    point + 1,
                    level + 1,
                    levels
                )),
                Progress::Suns { point } => b.set_message(format!("point {} hours", point + 1)),
                Progress::Hour { .. } => {}
            }
            b.inc(1);
        }
    };
    let result = annual_glare(&sky, &year, &views, &settings, &progress)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(&result.to_json(&year.hours))? + "\n";
        output::write_atomic(p, text.as_bytes())?;
    }
    if let Some(p) = &a.csv {
        output::write_atomic(p, result.to_csv(&year.hours).as_bytes())?;
    }
    output::print(&result.summary(year.hours.len()))?;
    Ok(ExitCode::SUCCESS)
}
