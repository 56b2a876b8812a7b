//! `daylit annual`: scene files, sensors and a weather year in; climate-based metrics out (a
//! terminal summary, JSON, per-sensor CSV, PNG maps with the room's plan, day × hour maps and
//! an offline report.html).

use crate::{args, SceneArgs};
use anyhow::{bail, Context};
use daylit_annual::plan::{self, PlanOptions};
use daylit_annual::{compute, html, report, Illuminance, MetricOptions, Schedule, SensorSet};
use daylit_coefficients::phases::{Method, PhaseSettings, ShadeControl};
use daylit_coefficients::study::{annual_year, method_name, resolve_method, MethodChoice};
use daylit_coefficients::{Sensor, Stage, TraceSettings};
use daylit_scene::LoadOptions;
use glam::DVec3;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `daylit annual`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Sensor file: `x y z dx dy dz` per line (RADIANCE's rtrace -I input); each sensor must
    /// lie in or near the scene [default: none; give --sensors or --floor].
    #[arg(long, conflicts_with = "floor")]
    sensors: Option<PathBuf>,
    /// Name of a floor polygon in the scene: sensors on a work-plane grid above it
    /// [default: none; give --sensors or --floor].
    #[arg(long)]
    floor: Option<String>,
    /// Work-plane height above the floor polygon, metres.
    #[arg(long, default_value_t = 0.8, value_parser = args::real(-1e6, 1e6))]
    height: f64,
    /// Grid spacing, metres.
    #[arg(long, default_value_t = 0.5, value_parser = args::positive(1e6))]
    spacing: f64,
    /// Weather file: EPW, WEA or TMY3 CSV (told apart by content) [default: none; required].
    #[arg(long)]
    weather: PathBuf,
    /// Occupancy schedule CSV [default: 8:00-18:00 every day].
    #[arg(long)]
    schedule: Option<PathBuf>,
    /// Write the results as JSON here (its folder must exist, or be the --out folder)
    /// [default: none].
    #[arg(long)]
    json: Option<PathBuf>,
    /// Folder for the per-sensor CSV and the PNG maps; made if missing (its parent folder
    /// must exist).
    #[arg(short = 'o', long, default_value = "annual")]
    out: PathBuf,
    /// DA threshold, lux (a second DA is reported at 150 lux).
    #[arg(long, default_value_t = 300.0, value_parser = args::real32(0.0, 1e6))]
    threshold: f32,
    /// UDI band, lux: lower,upper.
    #[arg(long, default_value = "100,2000", value_parser = parse_band)]
    udi: (f32, f32),
    /// Sky subdivision: Reinhart MF (1 = Tregenza's 145 patches).
    #[arg(short = 'm', long = "mf", default_value_t = 1, value_parser = args::whole::<u32>(1, 30))]
    mf: u32,
    /// Ambient bounces.
    #[arg(long = "ab", default_value_t = TraceSettings::default().ab, value_parser = args::whole::<u32>(0, args::MAX_AB))]
    ab: u32,
    /// Ambient divisions.
    #[arg(long = "ad", default_value_t = TraceSettings::default().ad, value_parser = args::whole::<u32>(1, args::MAX_SAMPLES))]
    ad: u32,
    /// Minimum ray weight (Russian roulette below it).
    #[arg(long = "lw", default_value_t = TraceSettings::default().lw, value_parser = args::real(0.0, 1.0))]
    lw: f64,
    /// Random seed (same seed and inputs, same results on any thread count).
    #[arg(long, default_value_t = TraceSettings::default().seed, value_parser = args::whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Simulation method: daylight coefficients through the scene (2phase), or the matrix
    /// methods for BSDF windows (3phase: V T D S; 5phase: with a sharp sun through the real
    /// BSDF). auto: 5phase when a polygon's material is a BSDF or aBSDF, else 2phase.
    #[arg(long, default_value = "auto", value_parser = ["auto", "2phase", "3phase", "5phase"])]
    method: String,
    /// Another state of a window group: MATERIAL=FILE.xml (repeatable; the BSDF material's
    /// own file is state 0, the open one that ASE is computed with, as LM-83 asks; these
    /// follow in order, more closed each) [default: none].
    #[arg(long = "state", value_name = "MATERIAL=FILE", value_parser = parse_state)]
    states: Vec<(String, PathBuf)>,
    /// How window groups change state (3phase/5phase): lm83 (the next state when more than
    /// 2 % of the sensors get over 1000 lx of direct sun), sun:LUX,PERCENT for another limit,
    /// illuminance:LUX,PERCENT for a limit on the whole illuminance, or view:LUX (the next
    /// state when a --shade-view point gets over LUX of direct sun).
    #[arg(
        long = "shade-rule",
        default_value = "lm83",
        conflicts_with = "shade_schedule"
    )]
    shade_rule: String,
    /// A view point for `--shade-rule view:LUX`: "x y z dx dy dz" (position, view
    /// direction); repeatable [default: none].
    #[arg(long = "shade-view", value_name = "X Y Z DX DY DZ", value_parser = parse_view)]
    shade_views: Vec<Sensor>,
    /// A CSV of window-group states per weather record instead of a rule: a first row naming
    /// the groups (their materials), then one row per record of state numbers or names
    /// [default: none; --shade-rule decides].
    #[arg(long = "shade-schedule", value_name = "FILE")]
    shade_schedule: Option<PathBuf>,
    /// Rays per Klems patch of each daylight matrix (rfluxmtx -c), 3phase/5phase.
    #[arg(long = "window-samples", default_value_t = PhaseSettings::new(Method::ThreePhase).d_samples, value_parser = args::whole::<usize>(1, args::MAX_SAMPLES))]
    window_samples: usize,
    /// Hemisphere samples per sensor for the five-phase direct sun through the BSDF.
    #[arg(long = "sun-samples", default_value_t = PhaseSettings::new(Method::FivePhase).sun_samples, value_parser = args::whole::<usize>(1, args::MAX_SAMPLES))]
    sun_samples: usize,
    /// Also write the illuminance of every sensor at every hour here (lux; a RADIANCE ASCII
    /// matrix, one row per sensor, one column per weather record, as dctimestep | rmtxop give)
    /// [default: none].
    #[arg(long = "ill", value_name = "FILE")]
    ill: Option<PathBuf>,
}

fn parse_state(s: &str) -> Result<(String, PathBuf), String> {
    let (m, f) = s
        .split_once('=')
        .filter(|(m, f)| !m.is_empty() && !f.is_empty())
        .ok_or_else(|| format!("expected MATERIAL=FILE.xml, found \"{s}\""))?;
    Ok((m.to_string(), PathBuf::from(f)))
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

/// `--shade-rule` with the view points it may need.
fn parse_rule(s: &str, views: &[Sensor]) -> Result<ShadeControl, String> {
    if s == "lm83" {
        return Ok(ShadeControl::lm83());
    }
    let bad = || {
        format!(
            "--shade-rule: expected lm83, sun:LUX,PERCENT, illuminance:LUX,PERCENT or view:LUX, found \"{s}\""
        )
    };
    let number = |w: &str, hi: f32| {
        w.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && (0.0..=hi).contains(v))
            .ok_or_else(bad)
    };
    let (kind, rest) = s.split_once(':').ok_or_else(bad)?;
    if kind == "view" {
        if views.is_empty() {
            return Err("--shade-rule view:LUX needs at least one --shade-view point".into());
        }
        return Ok(ShadeControl::ViewSun {
            views: views.to_vec(),
            lux: number(rest, f32::MAX)?,
        });
    }
    let (a, b) = rest.split_once(',').ok_or_else(bad)?;
    let (lux, fraction) = (number(a, f32::MAX)?, number(b, 100.0)? / 100.0);
    match kind {
        "sun" => Ok(ShadeControl::DirectSun { lux, fraction }),
        "illuminance" => Ok(ShadeControl::Illuminance { lux, fraction }),
        _ => Err(bad()),
    }
}

fn parse_view(s: &str) -> Result<Sensor, String> {
    let v: Vec<f64> = s
        .split_whitespace()
        .map(|w| w.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()
        .filter(|v: &Vec<f64>| v.len() == 6)
        .ok_or_else(|| format!("expected six numbers \"x y z dx dy dz\", found \"{s}\""))?;
    let dir = DVec3::new(v[3], v[4], v[5]);
    if dir.length_squared() == 0.0 {
        return Err(format!("the view direction of \"{s}\" is zero"));
    }
    Ok(Sensor::new(DVec3::new(v[0], v[1], v[2]), dir))
}

/// The scene read for the checks made before any work: a surface too large or too far away
/// to be meant is refused.
pub(crate) fn plausible_scene(
    files: &[PathBuf],
    load: &LoadOptions,
) -> anyhow::Result<daylit_scene::Scene> {
    let scene = daylit_scene::load_scene(files, load)?;
    daylit_scene::extent::refuse_implausible(&scene)?;
    Ok(scene)
}

/// Writes the hourly illuminance as a RADIANCE ASCII matrix (sensors × steps, lux).
fn write_ill(
    path: &std::path::Path,
    lux: &[f32],
    sensors: usize,
    steps: usize,
    prov: &daylit_annual::Provenance,
) -> anyhow::Result<()> {
    let mut m = daylit_matrix::Matrix::new(sensors, steps, 1, lux.to_vec())?;
    // How it was made, as header lines (RADIANCE's readers skip lines they do not know).
    m.header_lines = prov.header_lines();
    let mut bytes = Vec::new();
    daylit_matrix::write_matrix(&m, daylit_matrix::Format::Ascii, &mut bytes)?;
    daylit_annual::write_atomic(path, &bytes)?;
    Ok(())
}

/// How this run is made: its inputs with their hashes and the settings that shape the numbers.
fn provenance(
    a: &Args,
    method: &str,
    scene: &daylit_scene::Scene,
    load: &LoadOptions,
) -> anyhow::Result<daylit_annual::Provenance> {
    let mut p = crate::provenance::start();
    crate::provenance::add_scene(&mut p, &a.scene.files, scene, &load.raypath)?;
    p.add_input("weather", &a.weather)?;
    let optional = [
        ("sensors", &a.sensors),
        ("schedule", &a.schedule),
        ("shade-schedule", &a.shade_schedule),
    ];
    for (role, f) in optional {
        if let Some(f) = f {
            p.add_input(role, f)?;
        }
    }
    for (material, f) in &a.states {
        p.add_input(&format!("state {material}"), f)?;
    }
    p.add_setting("method", method);
    if let Some(floor) = &a.floor {
        p.add_setting("floor", floor);
        p.add_setting("height", a.height);
        p.add_setting("spacing", a.spacing);
    }
    p.add_setting("mf", a.mf);
    p.add_setting("ab", a.ab);
    p.add_setting("ad", a.ad);
    p.add_setting("lw", a.lw);
    p.add_setting("threshold", a.threshold);
    p.add_setting("udi", format!("{},{}", a.udi.0, a.udi.1));
    if method != "2phase" {
        p.add_setting("window-samples", a.window_samples);
        p.add_setting("sun-samples", a.sun_samples);
        if a.shade_schedule.is_none() {
            p.add_setting("shade-rule", &a.shade_rule);
        }
    }
    p.seed = Some(a.seed);
    Ok(p)
}

/// Runs `daylit annual`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let rule = parse_rule(&a.shade_rule, &a.shade_views).map_err(anyhow::Error::msg)?;
    // Every output can be written, before a year is simulated. Files directly in the output
    // folder (`--json annual/annual.json -o annual`) are answered by the folder's check.
    let plain = |p: &std::path::Path| -> Vec<std::ffi::OsString> {
        p.components()
            .filter(|c| *c != std::path::Component::CurDir)
            .map(|c| c.as_os_str().to_owned())
            .collect()
    };
    let in_out = |p: &&std::path::Path| {
        !a.out.is_dir() && p.parent().is_some_and(|d| plain(d) == plain(&a.out))
    };
    args::check_outputs(
        a.json
            .iter()
            .chain(&a.ill)
            .map(PathBuf::as_path)
            .filter(|p| !in_out(p)),
        [(a.out.as_path(), true)],
    )?;
    let load = LoadOptions {
        allow_commands: a.scene.allow_commands,
        ..LoadOptions::default()
    };
    let scene = plausible_scene(&a.scene.files, &load)?;
    let bounds = daylit_scene::extent::bounds(&scene);
    let weather = daylit_sky::weather::read_weather(&a.weather)?;
    if let Some(note) = weather.coverage_note() {
        eprintln!("annual: {note}");
    }
    let set = match (&a.sensors, &a.floor) {
        (Some(f), _) => SensorSet::read(f)?,
        (None, Some(name)) => {
            let poly = scene
                .polygon_vertices(name)
                .with_context(|| format!("--floor: no polygon named '{name}' in the scene"))?;
            let grid = daylit_annual::GridOptions {
                height: a.height,
                spacing: a.spacing,
            };
            SensorSet::from_polygon(&poly, &grid)?
        }
        (None, None) => bail!("give --sensors FILE or --floor POLYGON"),
    };
    set.validate(bounds)?;
    for v in &a.shade_views {
        daylit_annual::check_position(v.position, v.direction, bounds)
            .map_err(|e| anyhow::anyhow!("--shade-view: {e}"))?;
    }
    let schedule = match &a.schedule {
        Some(f) => Schedule::read(f, &weather.records)?,
        None => Schedule::office(&weather.records),
    };

    let trace = TraceSettings {
        ab: a.ab,
        ad: a.ad,
        lw: a.lw,
        seed: a.seed,
    };
    trace.options().map_err(|e| anyhow::anyhow!("{e}"))?;
    let sensors = &set.sensors;
    let choice = match a.method.as_str() {
        "2phase" => MethodChoice::TwoPhase,
        "3phase" => MethodChoice::Matrix(Method::ThreePhase),
        "5phase" => MethodChoice::Matrix(Method::FivePhase),
        _ => MethodChoice::Auto,
    };
    let method = resolve_method(&a.scene.files, &load, choice)?;
    if method.is_none() && !a.states.is_empty() {
        bail!("--state: window states belong to the 3phase and 5phase methods (the scene has no BSDF windows, or --method 2phase was given)");
    }

    let prov = provenance(a, method_name(method), &scene, &load)?;
    drop(scene);
    let n = sensors.len() as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(2 * n);
        b.set_style(
            indicatif::ProgressStyle::with_template("{msg:24} {bar:40} {pos}/{len} {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(if method.is_some() {
            "view matrices"
        } else {
            "daylight coefficients"
        });
        b
    });
    let progress = |stage: Stage| {
        if let Some(b) = &bar {
            if stage == Stage::Sun && b.position() <= n {
                b.set_position(n);
                b.set_message("direct sun");
            }
            b.inc(1);
        }
    };
    let settings = PhaseSettings {
        method: Method::ThreePhase,
        trace,
        d_samples: a.window_samples.max(1),
        sun_samples: a.sun_samples.max(1),
        mf: a.mf,
        states: a.states.clone(),
        shade: match &a.shade_schedule {
            Some(f) => ShadeControl::Schedule(f.clone()),
            None => rule,
        },
    };
    let year = annual_year(
        &a.scene.files,
        &load,
        method,
        &settings,
        sensors,
        &weather,
        &progress,
    )?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let windows = year.window_states(&schedule);
    let method_name = method_name(method);

    let metric_opts = MetricOptions {
        da_threshold: a.threshold,
        udi_lower: a.udi.0,
        udi_upper: a.udi.1,
        ..MetricOptions::default()
    };
    let (steps, year_total) = (year.steps, &year.total);
    let total = Illuminance::sensor_major(year_total, sensors.len(), steps);
    let sun = Illuminance::sensor_major(&year.direct_sun, sensors.len(), steps);
    let m = compute(&total, Some(&sun), &schedule, &metric_opts)?;

    let mut uncertainty = daylit_annual::uncertainty::estimate(&set, &m);
    if let Some(u) = &mut uncertainty {
        // The two-phase direct sun is one unjittered shadow ray per hour: no noise in ASE.
        u.ase = method.is_none().then_some(0.0);
    }
    print!("{}", report::summary(&m));
    if let Some(u) = &uncertainty {
        print!("{}", daylit_annual::uncertainty::summary(u));
    }
    println!();
    if a.method == "auto" && method.is_some() {
        println!("method: {method_name} (the scene has BSDF windows; --method 2phase traces through them instead)");
    }
    print!("{}", report::window_summary(&windows));
    // The output folder, as its help says; its parent was checked before any work.
    if !a.out.is_dir() {
        std::fs::create_dir(&a.out)
            .with_context(|| format!("cannot create the folder {}", a.out.display()))?;
    }
    if let Some(path) = &a.ill {
        write_ill(path, year_total, sensors.len(), steps, &prov)?;
        println!("hourly illuminance: {}", path.display());
    }
    if let Some(j) = &a.json {
        report::write_json_with(
            j,
            &m,
            method_name,
            &windows,
            Some(&prov),
            uncertainty.as_ref(),
        )?;
        println!("JSON: {}", j.display());
    }
    let csv = a.out.join("sensors.csv");
    report::write_csv_with(&csv, &set, &m, &prov)?;
    let plan = plan::cut_files(&a.scene.files, &load, &set, &PlanOptions::default())?;
    let year = html::Year {
        records: &weather.records,
        schedule: &schedule,
        total: &total,
        sun: Some(&sun),
    };
    let inputs = report_inputs(a, &weather, method_name, &prov);
    let written =
        html::write_annual_report(&a.out, &set, &m, &windows, Some(&plan), &year, &inputs)?;
    let list = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "per-sensor CSV: {}; maps: {}; day × hour maps: {}",
        csv.display(),
        list(&written.maps),
        list(&written.temporal)
    );
    println!("report: {}", written.report.display());
    Ok(ExitCode::SUCCESS)
}

/// The command line with each argument quoted where a shell would need it.
fn command_line() -> String {
    std::env::args()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c));
            if plain {
                w
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What report.html lists under "Settings and inputs".
fn report_inputs(
    a: &Args,
    weather: &daylit_sky::weather::Weather,
    method: &str,
    prov: &daylit_annual::Provenance,
) -> html::ReportInputs {
    let s = &weather.site;
    let site = format!(
        "{} ({:.2}° {}, {:.2}° {}, {:.0} m)",
        s.name.trim(),
        s.latitude.abs(),
        if s.latitude >= 0.0 { "N" } else { "S" },
        s.longitude.abs(),
        // RADIANCE's longitudes are degrees west.
        if s.longitude >= 0.0 { "W" } else { "E" },
        s.elevation
    );
    let sensors = match (&a.sensors, &a.floor) {
        (Some(f), _) => format!("file {}", f.display()),
        (None, Some(name)) => format!(
            "grid over polygon '{name}': {} m spacing, {} m above it",
            a.spacing, a.height
        ),
        (None, None) => String::new(),
    };
    let mut settings: Vec<(String, String)> = vec![
        ("ambient bounces (-ab)".into(), a.ab.to_string()),
        ("ambient divisions (-ad)".into(), a.ad.to_string()),
        ("minimum ray weight (-lw)".into(), a.lw.to_string()),
        ("seed".into(), a.seed.to_string()),
        ("sky subdivision (-m, Reinhart MF)".into(), a.mf.to_string()),
        ("DA threshold".into(), format!("{} lux", a.threshold)),
        ("UDI band".into(), format!("{}–{} lux", a.udi.0, a.udi.1)),
    ];
    if method != "2phase" {
        settings.push(("window samples".into(), a.window_samples.to_string()));
        settings.push(("sun samples".into(), a.sun_samples.to_string()));
        settings.push(("shade rule".into(), a.shade_rule.clone()));
        for (m, f) in &a.states {
            settings.push(("window state".into(), format!("{m}={}", f.display())));
        }
    }
    html::ReportInputs {
        command_line: command_line(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        scene_files: a.scene.files.iter().map(|f| prov.described(f)).collect(),
        weather_file: prov.described(&a.weather),
        site,
        schedule: match &a.schedule {
            Some(f) => format!("file {}", f.display()),
            None => "8:00–18:00 every day (the default)".into(),
        },
        sensors,
        method: method.to_string(),
        settings,
        provenance: Some(prov.clone()),
    }
}
