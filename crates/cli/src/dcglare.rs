//! `dcglare`: RADIANCE's imageless annual glare. For every view (a position and direction)
//! and every sky of a sky matrix, the enhanced simplified DGP from two daylight-coefficient
//! matrices, the direct-only one (glare sources) and the total one (Ev); or, with `-l`, each
//! view's glare autonomy (the share of occupied hours below the limit). The arithmetic is in
//! `daylit_glare::imageless`.

use anyhow::{bail, Context};
use daylit_glare::imageless::{edgps, has_glare, ReinhartSky, Settings};
use daylit_matrix::{self as mx, Format, Matrix, ReadOptions};
use glam::DVec3;
use rayon::prelude::*;
use std::process::ExitCode;

const USAGE: &str = "usage: dcglare [-n nsteps][-h][-i{f|d|a}][-o{f|d|a}][-l limit][-b threshold][{-sf occupancy|-ss start -se end}]{-vf views [-vi{f|d|a}]|-vd x y z}[-vu x y z] DCdirect DCtotal [skyf]";

/// One invocation.
struct Request {
    header: bool,
    nsteps: Option<usize>,
    sky_format: Option<Format>,
    out_format: Format,
    /// `-l`: glare autonomy against this DGP limit instead of hourly values.
    limit: Option<f64>,
    settings: Settings,
    schedule: Option<String>,
    start_hour: i64,
    end_hour: i64,
    direction: Option<DVec3>,
    views: Option<String>,
    view_format: Format,
    operands: Vec<String>,
}

/// Runs with dcglare's own argument list (without the program name).
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let req = parse(args)?;
    let ops = &req.operands;
    let sky_spec = ops.get(2).map_or("-", String::as_str);
    let (sky_name, sky_bytes) = crate::input::read_operand("dcglare", sky_spec)?;
    let sky = load(
        &sky_bytes,
        &sky_name,
        &daylit_matrix::timestep::sky_read_options(req.nsteps, req.sky_format),
    )?;
    let patches = ReinhartSky::from_rows(sky.rows()).with_context(|| {
        format!(
            "{sky_name}: {} sky patches is not a Reinhart sky with its ground (2 + 144·MF² rows: 146, 578, 1298, …)",
            sky.rows()
        )
    })?;
    let coefficients = |spec: &str, rows: Option<usize>| -> anyhow::Result<Matrix> {
        let (name, bytes) = crate::input::read_operand("dcglare", spec)?;
        let opts = ReadOptions {
            rows,
            cols: Some(sky.rows()),
            ncomp: Some(3),
            ..ReadOptions::default()
        };
        load(&bytes, &name, &opts).with_context(|| {
            format!(
                "{spec} must have a column per sky patch of {sky_name} ({})",
                sky.rows()
            )
        })
    };
    let total = coefficients(&ops[1], None)?;
    let direct = coefficients(&ops[0], Some(total.rows()))
        .with_context(|| format!("{} must have a row per view of {}", ops[0], ops[1]))?;
    let ev = mx::multiply(&total, &sky)?;
    let views = views(&req, ev.rows())?;
    let occupied = occupancy(&req, sky.cols())?;

    let steps = sky.cols();
    // The sky by time step: each step's patches side by side.
    let by_step = mx::ops::transpose(&sky);
    let width = 3 * sky.rows();
    let rows: Vec<Vec<f32>> = (0..ev.rows())
        .into_par_iter()
        .map(|p| {
            let dc = &direct.data()[p * width..(p + 1) * width];
            let dgp = |t: usize| {
                let sky_t = &by_step.data()[t * width..(t + 1) * width];
                edgps(&patches, ev.get(p, t), dc, sky_t, views[p], &req.settings)
            };
            match req.limit {
                Some(limit) => {
                    let (mut hours, mut glare) = (0usize, 0usize);
                    for t in (0..steps).filter(|&t| occupied[t]) {
                        hours += 1;
                        glare += usize::from(has_glare(ev.get(p, t), limit, || dgp(t)));
                    }
                    vec![(hours - glare) as f32 / hours as f32]
                }
                None => (0..steps)
                    .map(|t| if occupied[t] { dgp(t) as f32 } else { 0.0 })
                    .collect(),
            }
        })
        .collect();
    let cols = rows.first().map_or(0, Vec::len);
    let result = Matrix::new(ev.rows(), cols, 1, rows.concat())?;
    let mut out = Vec::new();
    if req.header {
        let mut lines = vec![daylit_radfile::header::command_line("dcglare", args)];
        lines.extend(daylit_radfile::header::date_lines());
        mx::write_header(&mut out, &lines, result.rows(), cols, 1, req.out_format)?;
    }
    mx::write_body(&result, req.out_format, &mut out)?;
    crate::output::print_bytes([out.as_slice()])?;
    Ok(ExitCode::SUCCESS)
}

/// Loads a matrix, printing RADIANCE's warnings.
fn load(bytes: &[u8], name: &str, opts: &ReadOptions) -> anyhow::Result<Matrix> {
    crate::dctimestep::load_as("dcglare", bytes, name, opts)
}

/// Each view's direction (unit): from the `-vf` file (a position and a direction per view,
/// as rcontrib reads them), or `-vd` for all.
fn views(req: &Request, n: usize) -> anyhow::Result<Vec<DVec3>> {
    let Some(path) = &req.views else {
        let d = req
            .direction
            .context("missing view direction (give -vd x y z or -vf file)")?;
        return Ok(vec![d; n]);
    };
    let (name, bytes) = crate::input::read_operand("dcglare", path)?;
    let numbers: Vec<f64> = match req.view_format {
        Format::Ascii => {
            let text = String::from_utf8_lossy(&bytes);
            let mut v = Vec::new();
            for (k, w) in text.split_whitespace().take(6 * n).enumerate() {
                v.push(w.parse().map_err(|_| {
                    anyhow::anyhow!("{name}: view {}: expected a number, found '{w}'", k / 6 + 1)
                })?);
            }
            v
        }
        Format::Float => bytes
            .chunks_exact(4)
            .take(6 * n)
            .map(|b| f32::from_ne_bytes(b.try_into().unwrap()) as f64)
            .collect(),
        Format::Double => bytes
            .chunks_exact(8)
            .take(6 * n)
            .map(|b| f64::from_ne_bytes(b.try_into().unwrap()))
            .collect(),
    };
    if numbers.len() < 6 * n {
        bail!(
            "{name}: unexpected end of input: {} views for the {n} rows of the coefficients",
            numbers.len() / 6
        );
    }
    numbers
        .chunks_exact(6)
        .enumerate()
        .map(|(k, v)| {
            let d = DVec3::new(v[3], v[4], v[5]);
            if !(d.length() > 0.0 && d.is_finite()) {
                bail!("{name}: view {}: zero length direction", k + 1);
            }
            Ok(d.normalize())
        })
        .collect()
}

/// Which time steps are occupied: the `-sf` schedule (the last comma-separated value of each
/// line, `#` lines skipped, above zero when occupied), else hours `-ss` to `-se` of each day
/// (24 steps a day).
fn occupancy(req: &Request, steps: usize) -> anyhow::Result<Vec<bool>> {
    let Some(path) = &req.schedule else {
        return Ok((0..steps)
            .map(|i| {
                let hour = (i % 24) as i64;
                hour >= req.start_hour && hour < req.end_hour
            })
            .collect());
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot open input file \"{path}\""))?;
    let mut occupied = Vec::with_capacity(steps);
    for (k, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        let field = line.rsplit(',').next().unwrap_or("").trim();
        let v: f64 = field.parse().map_err(|_| {
            anyhow::anyhow!(
                "{path}: line {}: expected a number after the last comma, found '{field}'",
                k + 1
            )
        })?;
        occupied.push(v > 0.0);
    }
    if occupied.len() != steps {
        bail!(
            "{path}: {} schedule entries for the {steps} time steps of the sky matrix",
            occupied.len()
        );
    }
    Ok(occupied)
}

/// Parses dcglare's options in order; the operands follow the first word that is not one.
fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut req = Request {
        header: true,
        nsteps: None,
        sky_format: None,
        out_format: Format::Ascii,
        limit: None,
        settings: Settings::default(),
        schedule: None,
        start_hour: 0,
        end_hour: 24,
        direction: None,
        views: None,
        view_format: Format::Ascii,
        operands: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let word = |k: usize| -> anyhow::Result<&String> {
            args.get(i + k)
                .with_context(|| format!("option {a} needs a value\n{USAGE}"))
        };
        let number = |k: usize| -> anyhow::Result<f64> {
            let w = word(k)?;
            w.parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .with_context(|| format!("option {a}: expected a number, found '{w}'"))
        };
        let vector = || -> anyhow::Result<DVec3> {
            let v = DVec3::new(number(1)?, number(2)?, number(3)?);
            if v.length() == 0.0 {
                bail!("option {a}: the vector must not be zero");
            }
            Ok(v.normalize())
        };
        let mut take = 1;
        match a {
            "-h" => {
                req.header = !req.header;
                take = 0;
            }
            "-n" => {
                let w = word(1)?;
                let n: usize = w.parse().with_context(|| {
                    format!("option -n: expected a whole number of time steps, found '{w}'")
                })?;
                req.nsteps = (n > 0).then_some(n);
                req.sky_format = req.nsteps.map(|_| Format::Ascii);
            }
            "-ia" | "-if" | "-id" | "-oa" | "-of" | "-od" | "-via" | "-vif" | "-vid" => {
                let f = match a.as_bytes()[a.len() - 1] {
                    b'a' => Format::Ascii,
                    b'f' => Format::Float,
                    _ => Format::Double,
                };
                match &a[1..2] {
                    "i" => req.sky_format = Some(f),
                    "o" => req.out_format = f,
                    _ => req.view_format = f,
                }
                take = 0;
            }
            "-l" => req.limit = Some(number(1)?),
            "-b" => req.settings.threshold = number(1)?,
            "-sf" => req.schedule = Some(word(1)?.clone()),
            "-ss" | "-se" => {
                let w = word(1)?;
                let h: i64 = w
                    .parse()
                    .with_context(|| format!("option {a}: expected a whole hour, found '{w}'"))?;
                if a == "-ss" {
                    req.start_hour = h;
                } else {
                    req.end_hour = h;
                }
            }
            "-vd" => {
                req.direction = Some(vector()?);
                take = 3;
            }
            "-vu" => {
                req.settings.up = vector()?;
                take = 3;
            }
            "-vf" => req.views = Some(word(1)?.clone()),
            "-o" => bail!("option -o: dcglare writes no pictures (standard output only)\n{USAGE}"),
            _ => bail!("unknown option {a}\n{USAGE}"),
        }
        i += 1 + take;
    }
    req.operands = args[i..].to_vec();
    match req.operands.len() {
        2 | 3 => Ok(req),
        4 | 5 => bail!(
            "the V T D form (a view, a BSDF and a daylight matrix) is not supported by daylit: give DCdirect DCtotal [skyf] (make DCtotal with dctimestep first)"
        ),
        n => bail!("expected DCdirect DCtotal [skyf], found {n} operands\n{USAGE}"),
    }
}
