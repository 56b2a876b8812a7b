//! `daylit vwrays` (and `vwrays`): the ray origin and direction of every pixel of a view or a
//! picture, in RADIANCE's order and formats, for feeding `rtrace`.

use anyhow::{bail, Context};
use daylit_image::{HdrImage, View};
use rand::{Rng, SeedableRng};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

/// Arguments of `daylit vwrays`, written as RADIANCE's vwrays takes them.
#[derive(clap::Args)]
pub struct Args {
    /// RADIANCE vwrays options: `[-i] [-u] [-f{a|f|d}] [-c rept] [-d] [-x res] [-y res]
    /// [-pa aspect] [-pj jitter] {view options (-vf file too) | picture}`; `-seed N` seeds the
    /// jitter.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// What one invocation asks for.
struct Request {
    view: View,
    xres: usize,
    yres: usize,
    aspect: f64,
    jitter: f64,
    repeat: usize,
    format: char,
    dims_only: bool,
    from_stdin: bool,
    seed: u64,
    picture: Option<String>,
}

/// Words of a RADIANCE view file (`-vf`): every line's `-v` options, or a `VIEW=` line's.
fn view_file(path: &str) -> anyhow::Result<String> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("{path}: cannot read view file"))?;
    let words: Vec<&str> = text
        .lines()
        .flat_map(|l| l.strip_prefix("VIEW=").unwrap_or(l).split_whitespace())
        .collect();
    if !words.iter().any(|w| w.starts_with("-v")) {
        bail!("{path}: no view in file");
    }
    Ok(words.join(" "))
}

/// Collects one RADIANCE view option (`-vf file`, `-vt?`, `-vp/-vd/-vu x y z`, `-vh -vv -vo -va
/// -vs -vl v`) starting at `args[i]` into `words`; returns how many further words it used.
pub(crate) fn view_option(
    args: &[String],
    i: usize,
    words: &mut Vec<String>,
) -> anyhow::Result<usize> {
    let a = args[i].as_str();
    let value = |k: usize| -> anyhow::Result<&String> {
        args.get(i + k)
            .with_context(|| format!("option {a} needs a value"))
    };
    Ok(match a {
        "-vf" => {
            words.push(view_file(value(1)?)?);
            1
        }
        _ if a.starts_with("-vt") => {
            words.push(a.to_string());
            0
        }
        "-vp" | "-vd" | "-vu" => {
            let v = args
                .get(i..=i + 3)
                .with_context(|| format!("option {a} needs 3 numbers"))?;
            words.extend(v.iter().cloned());
            3
        }
        "-vh" | "-vv" | "-vo" | "-va" | "-vs" | "-vl" => {
            words.extend([a.to_string(), value(1)?.clone()]);
            1
        }
        _ => bail!("unknown view option {a}"),
    })
}

fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut r = Request {
        view: View::default(),
        xres: 512,
        yres: 512,
        aspect: 1.0,
        jitter: 0.0,
        repeat: 1,
        format: 'a',
        dims_only: false,
        from_stdin: false,
        seed: 0,
        picture: None,
    };
    let mut view_words: Vec<String> = Vec::new();
    let mut i = 0;
    let value = |i: usize, opt: &str| -> anyhow::Result<&String> {
        args.get(i + 1)
            .with_context(|| format!("vwrays: option {opt} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        let mut take = 0;
        match a {
            "-i" => r.from_stdin = true,
            "-u" | "-u+" | "-u-" => {}
            "-d" => r.dims_only = true,
            "-fa" | "-ff" | "-fd" => r.format = a.as_bytes()[2] as char,
            "-x" | "-y" | "-c" | "-seed" => {
                let v = value(i, a)?;
                let n: u64 = v.parse().with_context(|| {
                    format!("vwrays: {a} expects a whole number, found \"{v}\"")
                })?;
                match a {
                    "-x" => r.xres = n as usize,
                    "-y" => r.yres = n as usize,
                    "-c" => r.repeat = n as usize,
                    _ => r.seed = n,
                }
                take = 1;
            }
            "-pa" | "-pj" | "-pd" => {
                let v = value(i, a)?;
                let x: f64 = v
                    .parse()
                    .with_context(|| format!("vwrays: {a} expects a number, found \"{v}\""))?;
                match a {
                    "-pa" => r.aspect = x,
                    "-pj" => r.jitter = x,
                    // A lens aperture (depth of field) changes every ray's origin; 0 is none.
                    _ if x != 0.0 => {
                        bail!("vwrays: -pd {v}: depth of field is not supported by daylit yet")
                    }
                    _ => {}
                }
                take = 1;
            }
            _ if a.starts_with("-v") => {
                take = view_option(args, i, &mut view_words)
                    .map_err(|e| anyhow::anyhow!("vwrays: {e}"))?
            }
            _ if a.starts_with('-') => bail!("vwrays: unknown option {a}"),
            _ => r.picture = Some(a.to_string()),
        }
        i += 1 + take;
    }
    if r.xres == 0 || r.yres == 0 || r.xres > 1 << 16 || r.yres > 1 << 16 {
        bail!("vwrays: resolution must be between 1 and 65536");
    }
    if let Some(p) = &r.picture {
        let img = HdrImage::read(Path::new(p))?;
        r.view = img
            .parsed_view()
            .map_err(|e| anyhow::anyhow!("{p}: {}", e.0))?
            .with_context(|| format!("{p}: the picture has no VIEW= line"))?;
        (r.xres, r.yres) = (img.width, img.height);
        r.aspect = 0.0;
    }
    r.view
        .apply(&view_words.join(" "))
        .map_err(|e| anyhow::anyhow!("vwrays: {}", e.0))?;
    Ok(r)
}

/// RADIANCE's rule: reduce x or y so that pixels have the asked aspect (unless it is 0).
fn fit_aspect(view_aspect: f64, pixel_aspect: f64, x: &mut usize, y: &mut usize) {
    if pixel_aspect <= 1e-6 {
        return;
    }
    if view_aspect * *x as f64 > pixel_aspect * *y as f64 {
        *x = (*y as f64 / view_aspect * pixel_aspect + 0.5) as usize;
    } else {
        *y = (*x as f64 * view_aspect / pixel_aspect + 0.5) as usize;
    }
}

fn write_ray(out: &mut Vec<u8>, format: char, v: [f64; 6]) {
    match format {
        'f' => v
            .iter()
            .for_each(|x| out.extend_from_slice(&(*x as f32).to_ne_bytes())),
        'd' => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_ne_bytes())),
        _ => {
            let words: Vec<String> = v
                .iter()
                .map(|x| daylit_radfile::printf::c_exp(*x, 5))
                .collect();
            out.extend_from_slice(words.join(" ").as_bytes());
            out.push(b'\n');
        }
    }
}

/// Runs vwrays with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut r = parse(args)?;
    let frame = r
        .view
        .frame()
        .map_err(|e| anyhow::anyhow!("vwrays: {}", e.0))?;
    if r.picture.is_none() {
        fit_aspect(frame.vn / frame.hn, r.aspect, &mut r.xres, &mut r.yres);
    }
    if r.dims_only {
        let aft = if r.view.vaft > 0.0 { " -ld+" } else { "" };
        crate::output::print(&format!("-x {} -y {}{aft}\n", r.xres, r.yres))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (xres, yres) = (r.xres as f64, r.yres as f64);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(r.seed);
    let mut ray_at = |px: f64, py: f64, out: &mut Vec<u8>| {
        let (jx, jy) = if r.jitter > 0.0 {
            (
                r.jitter * (rng.random::<f64>() - 0.5),
                r.jitter * (rng.random::<f64>() - 0.5),
            )
        } else {
            (0.0, 0.0)
        };
        let v = match frame.ray((px + 0.5 + jx) / xres, (py + 0.5 + jy) / yres) {
            Some(ray) => {
                let (o, d) = (ray.origin, ray.dir);
                [o.x, o.y, o.z, d.x, d.y, d.z]
            }
            None => [0.0; 6],
        };
        for _ in 0..r.repeat {
            write_ray(out, r.format, v);
        }
    };
    let stdout = std::io::stdout();
    let mut sink = stdout.lock();
    let mut buf = Vec::new();
    let mut flush = |buf: &mut Vec<u8>| -> anyhow::Result<bool> {
        match sink.write_all(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
            r => {
                r.context("cannot write to standard output")?;
                buf.clear();
                Ok(true)
            }
        }
    };
    if r.from_stdin {
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.context("cannot read standard input")?;
            let w: Vec<f64> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    anyhow::anyhow!(
                        "standard input:{}: expected a pixel position \"x y\", found \"{line}\"",
                        n + 1
                    )
                })?;
            let [x, y] = w[..] else {
                bail!(
                    "standard input:{}: expected a pixel position \"x y\", found \"{line}\"",
                    n + 1
                )
            };
            ray_at(x, y, &mut buf);
            if !flush(&mut buf)? {
                return Ok(ExitCode::SUCCESS);
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Top scanline first, as pictures are stored.
    for row in (0..r.yres).rev() {
        for col in 0..r.xres {
            ray_at(col as f64, row as f64, &mut buf);
        }
        if buf.len() > 1 << 16 && !flush(&mut buf)? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    flush(&mut buf)?;
    Ok(ExitCode::SUCCESS)
}

/// `daylit vwrays`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}
