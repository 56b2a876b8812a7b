//! `daylit glare`: the friendly form of `daylit evalglare` — every glare and luminance metric
//! of a picture as JSON (or a short summary), a check image (PNG) with the glare sources
//! marked, a map of the Guth position index, task-area luminances of regions and their
//! contrast ratios, and the RAMMG noise metric.

use crate::output;
use anyhow::{bail, Context};
use daylit_glare::contrast::{self, Rect};
use daylit_glare::{evaluate, GlarePicture, Options, Task};
use daylit_image::{HdrImage, View};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `daylit glare`.
#[derive(clap::Args)]
pub struct Args {
    /// The picture (RADIANCE RGBE .hdr; its header must hold the view, or give --view); with
    /// --annual, the scene files (RADIANCE .rad, .obj, `daylit oconv` files) without a sky.
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// For a picture: the view as RADIANCE options (e.g. "-vta -vh 180 -vv 180") instead of
    /// the header's. With --annual: a view "x y z dx dy dz"; repeat for more [default: the
    /// picture header's view; with --annual, required].
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) view: Vec<String>,
    /// Write the metrics as JSON to this file ("-" for standard output; --annual: a file)
    /// [default: a short summary on standard output].
    #[arg(long)]
    pub(crate) json: Option<PathBuf>,
    /// Write a check image (PNG): the picture in grey, glare sources coloured by number
    /// [default: none].
    #[arg(long)]
    pub(crate) check: Option<PathBuf>,
    /// Write the Guth position index of every pixel as a PNG (dark: 1, bright: 16)
    /// [default: none].
    #[arg(long)]
    pub(crate) posindex: Option<PathBuf>,
    /// Detection threshold: above 100 in cd/m², else a factor of the task (or mean)
    /// luminance (evalglare -b) [default: 2000 cd/m²].
    #[arg(long, value_parser = crate::args::real32(f32::MIN_POSITIVE, 1e9))]
    pub(crate) threshold: Option<f32>,
    /// Search radius for joining glare pixels, radians as evalglare's -r (default 0.2).
    #[arg(long, default_value_t = 0.2, value_parser = crate::args::positive(std::f64::consts::PI))]
    pub(crate) radius: f64,
    /// Task area "x,y,angle": pixel from the top left and evalglare's angle (radians)
    /// [default: none].
    #[arg(long)]
    pub(crate) task: Option<String>,
    /// A region for task-area luminance: "name=x0,y0,x1,y1" (pixels from the top left,
    /// corners included); repeat for more [default: none].
    #[arg(long = "region")]
    pub(crate) regions: Vec<String>,
    /// A contrast ratio of two regions' luminances: "high/low" (CRv) or "surround/task"
    /// (CRd); repeat for more [default: none].
    #[arg(long = "ratio")]
    pub(crate) ratios: Vec<String>,
    /// Low-light correction of DGP below 1000 lux.
    #[arg(long)]
    pub(crate) low_light: bool,
    /// Annual glare of views in a scene over a weather year, by adaptive sampling of the light
    /// arriving at each view point: the inputs are scene files, --weather and --view are needed.
    #[arg(long)]
    pub(crate) annual: bool,
    /// --annual: weather file (EPW, WEA or TMY3 CSV) [default: none; required with --annual].
    #[arg(long)]
    pub(crate) weather: Option<PathBuf>,
    /// --annual: occupancy schedule CSV [default: 8:00-18:00 every day].
    #[arg(long)]
    pub(crate) schedule: Option<PathBuf>,
    /// --annual: one CSV row per view and hour written here [default: none].
    #[arg(long)]
    pub(crate) csv: Option<PathBuf>,
    /// --annual: write an offline glare_report.html into this folder, with each view's DGP hour
    /// by hour as a day × hour map (glare_dgp_N.png) and its hours above 0.35, 0.40 and 0.45
    /// [default: none].
    #[arg(long, value_name = "DIR")]
    pub(crate) report: Option<PathBuf>,
    /// --annual: write each position's sky LightPoint (point_N.lpt) into this folder, made if
    /// missing (its parent folder must exist) [default: none].
    #[arg(long)]
    pub(crate) save: Option<PathBuf>,
    /// --annual: read the sky LightPoints from this folder (as --save wrote them for the same
    /// views) instead of sampling the sky again [default: none: the sky is sampled].
    #[arg(long, conflicts_with = "save")]
    pub(crate) load: Option<PathBuf>,
    /// --annual: run inline `!commands` of the scene files through the shell.
    #[arg(long)]
    pub(crate) allow_commands: bool,
    /// --annual: ambient bounces of the sky samples.
    #[arg(long = "ab", default_value_t = 3, value_parser = crate::args::whole::<u32>(0, crate::args::MAX_AB))]
    pub(crate) ab: u32,
    /// --annual: ambient divisions of the sky samples.
    #[arg(long = "ad", default_value_t = 1024, value_parser = crate::args::whole::<u32>(1, crate::args::MAX_SAMPLES))]
    pub(crate) ad: u32,
    /// --annual: weight limit of the sky samples' paths (Russian roulette below it).
    #[arg(long = "lw", default_value_t = 1e-4, value_parser = crate::args::real(0.0, 1.0))]
    pub(crate) lw: f64,
    /// --annual: seed of the samples and their ray sequences.
    #[arg(long, default_value_t = 1, value_parser = crate::args::whole::<u64>(0, u64::MAX))]
    pub(crate) seed: u64,
    /// --annual: first sky sampling resolution, cells a side of each hemisphere (raytraverse idres).
    #[arg(long, default_value_t = 32, value_parser = crate::args::whole::<usize>(1, 4096))]
    pub(crate) idres: usize,
    /// --annual: sky sampling levels, each doubling the resolution (raytraverse nlev).
    #[arg(long, default_value_t = 5, value_parser = crate::args::whole::<usize>(0, 12))]
    pub(crate) nlev: usize,
    /// --annual: scales the wavelet thresholds; smaller samples more (raytraverse accuracy).
    #[arg(long, default_value_t = 1.0, value_parser = crate::args::positive(1e6))]
    pub(crate) accuracy: f64,
    /// --annual: rays over the solar disc per grouped sun.
    #[arg(long, default_value_t = 256, value_parser = crate::args::whole::<usize>(1, crate::args::MAX_SAMPLES))]
    pub(crate) sunsamples: usize,
    /// --annual: suns are grouped by the cells of a Shirley-Chiu square this many a side (0: none).
    #[arg(long, default_value_t = 256, value_parser = crate::args::whole::<u32>(0, 65536))]
    pub(crate) sunres: u32,
}

/// Options that only `--annual` takes, and whether each was given.
fn annual_only(a: &Args) -> [(&'static str, bool); 7] {
    [
        ("--weather", a.weather.is_some()),
        ("--schedule", a.schedule.is_some()),
        ("--csv", a.csv.is_some()),
        ("--report", a.report.is_some()),
        ("--save", a.save.is_some()),
        ("--load", a.load.is_some()),
        ("--allow-commands", a.allow_commands),
    ]
}

/// How a picture's evaluation was made: the picture with its hash and the settings.
fn picture_provenance(a: &Args, picture: &Path) -> anyhow::Result<daylit_radfile::Provenance> {
    let mut p = crate::provenance::start();
    p.add_input("picture", picture)?;
    if let Some(v) = a.view.first() {
        p.add_setting("view", v);
    }
    p.add_setting("threshold", a.threshold.map_or(2000.0, f64::from));
    p.add_setting("radius", a.radius);
    if let Some(t) = &a.task {
        p.add_setting("task", t);
    }
    p.add_setting("low-light", a.low_light);
    Ok(p)
}

/// `daylit glare`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    if a.annual {
        return crate::glare_annual::run(a);
    }
    if let Some((name, _)) = annual_only(a).iter().find(|(_, g)| *g) {
        bail!("{name}: only with --annual");
    }
    let [picture] = a.inputs.as_slice() else {
        bail!("one picture, or scene files with --annual");
    };
    let json_file = a.json.as_deref().filter(|p| *p != Path::new("-"));
    crate::args::check_outputs(
        json_file
            .into_iter()
            .chain(a.check.as_deref())
            .chain(a.posindex.as_deref()),
        [],
    )?;
    if a.view.len() > 1 {
        bail!("--view: a picture has one view (several views are for --annual)");
    }
    let img = HdrImage::read(picture)?;
    let name = picture.display().to_string();
    let prov = picture_provenance(a, picture)?;
    let view = match a.view.first() {
        Some(v) => Some(View::parse(v).map_err(|e| anyhow::anyhow!("--view: {e}"))?),
        None => None,
    };
    let mut pic = GlarePicture::new(&img, view.as_ref(), &name)?;
    let posmap = a.posindex.as_ref().map(|_| pic.position_index_map(0));
    let (w, h) = (pic.width, pic.height);
    let regions: Vec<(String, Rect)> = a
        .regions
        .iter()
        .map(|r| parse_region(r, w, h))
        .collect::<anyhow::Result<_>>()?;
    // Region luminances on the picture as read (evaluation colours it).
    let mut tal = Map::new();
    for (n, r) in &regions {
        let l = contrast::region_luminance(&pic, r)
            .with_context(|| format!("--region {n}: no pixel of the region takes part"))?;
        tal.insert(n.clone(), json!(l));
    }
    let mut ratios = Map::new();
    for q in &a.ratios {
        let (hi, lo) = q
            .split_once('/')
            .with_context(|| format!("--ratio {q}: expected two region names, a/b"))?;
        let get = |n: &str| {
            tal.get(n)
                .and_then(Value::as_f64)
                .with_context(|| format!("--ratio {q}: no region named {n}"))
        };
        let (lh, ll) = (get(hi)?, get(lo)?);
        ratios.insert(
            q.clone(),
            json!({"ratio": contrast::cr_d(lh, ll), "cr_min": contrast::cr_min(ll)}),
        );
    }
    let lum: Vec<f64> = img.luminance_image();
    let rammg = contrast::rammg(&lum, img.width, img.height);
    let task = match &a.task {
        Some(t) => {
            let v: Vec<f64> = t
                .split(',')
                .map(|s| s.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .ok()
                .filter(|v: &Vec<f64>| v.len() == 3)
                .with_context(|| format!("--task {t}: expected x,y,angle"))?;
            Some(Task {
                x: v[0] as i32,
                y: h as i32 - 1 - v[1] as i32,
                angle: v[2] as f32,
                colour: false,
            })
        }
        None => None,
    };
    let opts = Options {
        threshold: a.threshold,
        search_radius: a.radius,
        task,
        low_light: a.low_light,
        source_map: a.check.is_some(),
        ..Options::default()
    };
    let e = evaluate(&mut pic, &opts)?;
    for n in &e.notices {
        eprintln!("{n}");
    }
    let sources: Vec<Value> = e
        .sources
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let g = &s.source;
            json!({
                "number": k + 1,
                "luminance": g.luminance,
                "omega": g.omega,
                "posindex": g.posindex,
                "direction": g.direction,
                "angle_from_view_deg": s.sigma_deg,
                "position": g.position,
                "pixels": g.pixels,
                "max_luminance": g.max_luminance,
                "ev": g.e_glare,
                "lveil_cie": s.lveil_cie,
                "dgp_share": s.r_contrast,
            })
        })
        .collect();
    let report = json!({
        "picture": name,
        "view": pic.view.to_view().to_options(),
        "ev": e.ev,
        "ev_direct": e.ev_dir,
        "dgp": e.dgp,
        "dgps": e.dgps,
        "ugr": e.ugr,
        "ugp": e.ugp,
        "ugp2": e.ugp2,
        "dgi": e.dgi,
        "dgi_mod": e.dgi_mod,
        "cgi": e.cgi,
        "vcp": e.vcp,
        "dgr": e.dgr,
        "veiling_luminance": e.lveil,
        "veiling_luminance_cie": e.lveil_cie,
        "mean_luminance": e.avlum,
        "background_luminance": e.lum_backg,
        "task_luminance": e.lum_task,
        "threshold": e.threshold,
        "max_luminance": e.abs_max,
        "solid_angle": e.omega_total,
        "sources_luminance": e.lum_sources,
        "sources_solid_angle": e.omega_sources,
        "sources": sources,
        "regions": tal,
        "ratios": ratios,
        "rammg": rammg,
        "classes": daylit_glare::classes::Classes::of(e.ev, e.dgp as f64, e.dgps as f64, e.ugp as f64, e.ugr as f64),
        "provenance": prov,
    });
    // The pictures carry the record as PNG text chunks.
    let with_text =
        |png: Vec<u8>| daylit_falsecolor::raster::insert_png_text(&png, &prov.png_text());
    if let Some(p) = &a.check {
        output::write_atomic(p, &with_text(check_png(&pic, &e.source_map)?)?)?;
    }
    if let (Some(p), Some(m)) = (&a.posindex, &posmap) {
        output::write_atomic(p, &with_text(posindex_png(m, w, h)?)?)?;
    }
    let text = serde_json::to_string_pretty(&report)? + "\n";
    match &a.json {
        Some(p) if p == Path::new("-") => output::print(&text)?,
        Some(p) => output::write_atomic(p, text.as_bytes())?,
        None => output::print(&format!(
            "{}: Ev {:.1} lx  DGP {:.3}  DGPs {:.3}  UGR {:.1}  UGP {:.3}  DGI {:.1}  CGI {:.1}  VCP {:.1}  glare sources {}\n",
            name,
            e.ev,
            e.dgp,
            e.dgps,
            e.ugr,
            e.ugp,
            e.dgi,
            e.cgi,
            e.vcp,
            e.sources.len()
        ))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// "name=x0,y0,x1,y1" in pixels from the top left.
fn parse_region(s: &str, w: usize, h: usize) -> anyhow::Result<(String, Rect)> {
    let (name, c) = s
        .split_once('=')
        .with_context(|| format!("--region {s}: expected name=x0,y0,x1,y1"))?;
    let v: Vec<usize> = c
        .split(',')
        .map(|t| t.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("--region {s}: corners must be pixel numbers"))?;
    if v.len() != 4 {
        bail!("--region {s}: expected four numbers x0,y0,x1,y1");
    }
    let r = Rect {
        x0: v[0].min(v[2]),
        y0: v[1].min(v[3]),
        x1: v[0].max(v[2]),
        y1: v[1].max(v[3]),
    };
    if r.x1 >= w || r.y1 >= h {
        bail!("--region {s}: outside the {w} x {h} picture");
    }
    Ok((name.to_string(), r))
}

/// Grey, log-scaled luminance with glare sources in a colour per source.
fn check_png(pic: &GlarePicture, map: &[u32]) -> anyhow::Result<Vec<u8>> {
    let (w, h) = (pic.width, pic.height);
    let lum: Vec<f64> = (0..w * h)
        .map(|k| {
            let (x, y) = (k % w, h - 1 - k / w);
            if pic.is_valid(x, y) {
                pic.luminance_at(x, y)
            } else {
                0.0
            }
        })
        .collect();
    let max = lum.iter().cloned().fold(1.0, f64::max);
    let palette = [
        [255.0, 60.0, 60.0],
        [60.0, 220.0, 60.0],
        [80.0, 120.0, 255.0],
        [240.0, 200.0, 40.0],
        [220.0, 80.0, 220.0],
        [40.0, 210.0, 210.0],
    ];
    let mut data = Vec::with_capacity(w * h * 3);
    for (k, &l) in lum.iter().enumerate() {
        let t = ((1.0 + l).ln() / (1.0 + max).ln()).clamp(0.0, 1.0);
        match map.get(k).copied().unwrap_or(0) {
            0 => data.extend([(t * 255.0) as u8; 3]),
            s => {
                let c = palette[(s as usize - 1) % palette.len()];
                let f = 0.5 + 0.5 * t;
                data.extend(c.map(|v| (v * f) as u8));
            }
        }
    }
    png_rgb(&data, w, h)
}

/// The position index, 1 (black) to 16 (white) on a log scale; pixels outside the view black.
fn posindex_png(map: &[f32], w: usize, h: usize) -> anyhow::Result<Vec<u8>> {
    let data: Vec<u8> = map
        .iter()
        .flat_map(|&p| {
            if p <= 0.0 {
                return [0, 0, 0];
            }
            let t = ((p as f64).ln() / 16f64.ln()).clamp(0.0, 1.0);
            // Blue (P = 1, most sensitive) to yellow (P = 16).
            [
                (t * 255.0) as u8,
                (t * 220.0) as u8,
                ((1.0 - t) * 200.0) as u8,
            ]
        })
        .collect();
    png_rgb(&data, w, h)
}

fn png_rgb(data: &[u8], w: usize, h: usize) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().context("PNG header")?;
        wr.write_image_data(data).context("PNG data")?;
    }
    Ok(out)
}
