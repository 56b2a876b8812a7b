//! `daylit glare --annual`: scene files, a weather year and views in; per view and occupied
//! daylight hour Ev, DGP, DGPs, UGP and UGR out (a terminal summary, JSON, CSV), computed by
//! `daylit-lightfield` (adaptive sampling of the light arriving at each view point).

use crate::glare::Args;
use crate::output;
use anyhow::{bail, Context};
use daylit_annual::glare_report::{write_glare_report, GlareView};
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

/// How this run is made: its inputs with their hashes, the settings and the seed.
fn provenance(
    a: &Args,
    weather: &std::path::Path,
    scene: &daylit_scene::Scene,
    load: &LoadOptions,
) -> anyhow::Result<daylit_radfile::Provenance> {
    let mut p = crate::provenance::start();
    crate::provenance::add_scene(&mut p, &a.inputs, scene, &load.raypath)?;
    p.add_input("weather", weather)?;
    if let Some(f) = &a.schedule {
        p.add_input("schedule", f)?;
    }
    p.add_setting("views", a.view.join("; "));
    p.add_setting("ab", a.ab);
    p.add_setting("ad", a.ad);
    p.add_setting("lw", a.lw);
    p.add_setting("idres", a.idres);
    p.add_setting("nlev", a.nlev);
    p.add_setting("accuracy", a.accuracy);
    p.add_setting("sunsamples", a.sunsamples);
    p.add_setting("sunres", a.sunres);
    p.add_setting("threshold", a.threshold.map_or(2000.0, f64::from));
    p.add_setting("radius", a.radius);
    p.add_setting("low-light", a.low_light);
    if let Some(d) = &a.load {
        p.add_setting("load", d.display());
    }
    p.seed = Some(a.seed);
    Ok(p)
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
    let load = LoadOptions {
        allow_commands: a.allow_commands,
        ..LoadOptions::default()
    };
    // Before any work: outputs that can be written, a plausible scene, views in or near it.
    crate::args::check_outputs(
        a.json.iter().chain(&a.csv).map(|p| p.as_path()),
        a.save.iter().chain(&a.report).map(|d| (d.as_path(), true)),
    )?;
    let scene = crate::annual::plausible_scene(&a.inputs, &load)?;
    let bounds = daylit_scene::extent::bounds(&scene);
    for (v, text) in views.iter().zip(&a.view) {
        daylit_annual::check_position(v.point.to_array(), v.direction.to_array(), bounds)
            .map_err(|e| anyhow::anyhow!("--view \"{text}\": {e}"))?;
    }
    let prov = provenance(a, weather_path, &scene, &load)?;
    drop(scene);
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
    let mut opts = trace.options().map_err(|e| anyhow::anyhow!("{e}"))?;
    // Annual glare keeps RADIANCE's estimator for its sky coefficients (its goldens).
    opts.daylit_ambient = false;
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
        if !d.is_dir() {
            std::fs::create_dir(d).with_context(|| format!("--save {}", d.display()))?;
        }
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
        let mut report = result.to_json(&year.hours);
        report["provenance"] = serde_json::json!(prov);
        let text = serde_json::to_string_pretty(&report)? + "\n";
        output::write_atomic(p, text.as_bytes())?;
    }
    if let Some(p) = &a.csv {
        let text = prov.csv_comment() + &result.to_csv(&year.hours);
        output::write_atomic(p, text.as_bytes())?;
    }
    output::print(&result.summary(year.hours.len()))?;
    if let Some(dir) = &a.report {
        let hours: Vec<(u32, u32, f64)> = year
            .hours
            .iter()
            .map(|h| (h.month, h.day, h.hour))
            .collect();
        let views: Vec<GlareView> = result
            .views
            .iter()
            .map(|v| {
                let (p, d) = (v.view.point, v.view.direction);
                GlareView {
                    label: format!(
                        "{:.2} {:.2} {:.2} looking {:.2} {:.2} {:.2}",
                        p.x, p.y, p.z, d.x, d.y, d.z
                    ),
                    dgp: v.series.dgp.clone(),
                }
            })
            .collect();
        let inputs = daylit_annual::html::ReportInputs {
            command_line: std::env::args().collect::<Vec<_>>().join(" "),
            version: env!("CARGO_PKG_VERSION").to_string(),
            scene_files: a.inputs.iter().map(|f| prov.described(f)).collect(),
            weather_file: prov.described(weather_path),
            site: weather.site.name.trim().to_string(),
            schedule: match &a.schedule {
                Some(f) => format!("file {}", f.display()),
                None => "8:00–18:00 every day (the default)".into(),
            },
            settings: vec![
                ("ambient bounces (-ab)".into(), a.ab.to_string()),
                ("ambient divisions (-ad)".into(), a.ad.to_string()),
                ("minimum ray weight (-lw)".into(), a.lw.to_string()),
                ("seed".into(), a.seed.to_string()),
                (
                    "sky sampling resolution (--idres)".into(),
                    a.idres.to_string(),
                ),
                ("sky sampling levels (--nlev)".into(), a.nlev.to_string()),
                (
                    "rays per sun (--sunsamples)".into(),
                    a.sunsamples.to_string(),
                ),
                ("sun grouping (--sunres)".into(), a.sunres.to_string()),
            ],
            provenance: Some(prov.clone()),
            ..Default::default()
        };
        let (_, page) = write_glare_report(dir, &hours, &views, &inputs)?;
        println!("report: {}", page.display());
    }
    Ok(ExitCode::SUCCESS)
}
