//! `pfilt`: RADIANCE's picture filter with RADIANCE's arguments: `-x`/`-y` (pixels or
//! `/factor`), `-p`, `-c`, `-e[rgb]` (multiplier or `±` f-stops), `-1`/`-2`, `-b`, `-r`, `-h`,
//! `-a`; star patterns (`-n` above 0), lamp tables (`-t`, `-f`) and `-m` are refused by name.
//! The picture comes from the file or standard input and goes to standard output with the
//! input's header, the command line and the exposure applied (`EXPOSURE=`).

use anyhow::{bail, Context};
use daylit_image::filter::{pfilt, FilterOptions, Size};
use daylit_image::HdrImage;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str =
    "usage: pfilt [-x res|/n][-y res|/n][-p rat][-c][-e[rgb] exp][-1|-2][-b|-r rad][-h lvl][-a] [picture]";

fn size(opt: &str, w: Option<&String>) -> anyhow::Result<Size> {
    let w = w.with_context(|| format!("pfilt: {opt} needs a resolution ({USAGE})"))?;
    if let Some(d) = w.strip_prefix('/') {
        let d: f64 = d
            .parse()
            .ok()
            .filter(|d: &f64| *d > 0.0)
            .with_context(|| format!("pfilt: {opt} {w}: a positive divisor expected"))?;
        Ok(Size::Divide(d))
    } else {
        w.parse()
            .map(Size::Pixels)
            .with_context(|| format!("pfilt: {opt} {w}: a pixel count or /divisor expected"))
    }
}

fn number(opt: &str, w: Option<&String>) -> anyhow::Result<f64> {
    let w = w.with_context(|| format!("pfilt: {opt} needs a value ({USAGE})"))?;
    w.parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .with_context(|| format!("pfilt: {opt} {w}: a number expected"))
}

/// `pfilt` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = FilterOptions::default();
    let mut correct_aspect = false;
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let next = args.get(i + 1);
        match a {
            "-x" => o.width = size(a, next)?,
            "-y" => o.height = size(a, next)?,
            "-p" => o.aspect = number(a, next)?,
            "-r" => o.gauss_radius = Some(number(a, next)?),
            "-h" => o.hot_level = number(a, next)?,
            "-s" => {
                number(a, next)?;
            }
            "-n" => {
                if number(a, next)? != 0.0 {
                    bail!("pfilt: -n: star patterns are not supported by daylit yet");
                }
            }
            "-e" | "-er" | "-eg" | "-eb" => {
                let w = next.with_context(|| format!("pfilt: {a} needs a value"))?;
                let v = number(a, next)?;
                // A sign means f-stops (powers of two), as in RADIANCE.
                let m = if w.starts_with(['+', '-']) {
                    2f64.powf(v)
                } else {
                    v
                };
                if m <= 0.0 {
                    bail!("pfilt: {a} {w}: exposure out of range");
                }
                match a {
                    "-er" => o.exposure[0] *= m,
                    "-eg" => o.exposure[1] *= m,
                    "-eb" => o.exposure[2] *= m,
                    _ => o.exposure.iter_mut().for_each(|e| *e *= m),
                }
            }
            "-c" => correct_aspect = true,
            "-1" => o.two_pass = false,
            "-2" => o.two_pass = true,
            "-b" => (o.gauss_radius, o.threshold) = (None, None),
            "-a" => o.average_hot = !o.average_hot,
            "-t" | "-f" => bail!("pfilt: {a}: lamp colour tables are not supported by daylit yet"),
            "-m" => {
                o.threshold = Some(number(a, next)?);
                if o.gauss_radius.is_none_or(|r| r <= 1e-6) {
                    o.gauss_radius = Some(0.6);
                }
            }
            _ => bail!("pfilt: unknown option {a} ({USAGE})"),
        }
        i += if matches!(a, "-c" | "-1" | "-2" | "-b" | "-a") {
            1
        } else {
            2
        };
    }
    let options = &args[..i.min(args.len())];
    let (name, bytes) = crate::input::read_single("pfilt", &args[i.min(args.len())..], USAGE)?;
    let input = HdrImage::decode(&bytes, &name).map_err(|e| anyhow::anyhow!("pfilt: {e}"))?;
    let f = pfilt(&input, &o).map_err(|e| anyhow::anyhow!("pfilt: {name}: {e}"))?;
    let mut image = f.image;
    image.program = input.program.clone();
    image.header = input.header.clone();
    image
        .header
        .push(daylit_radfile::header::command_line("pfilt", options));
    if let Some(a) = f.pixel_aspect.filter(|_| !correct_aspect) {
        image.header.push(format!("PIXASPECT={a:.6}"));
    }
    let b = daylit_image::filter::brightness(f.exposure);
    if (b - 1.0).abs() > 1e-6 {
        image.header.push(format!("EXPOSURE={}", format_e4(b)));
    }
    let cc = f.exposure.map(|e| f64::from(e) / b);
    if (cc[0] - cc[1]).abs() > 1e-6 || (cc[1] - cc[2]).abs() > 1e-6 {
        image
            .header
            .push(format!("COLORCORR= {:.6} {:.6} {:.6}", cc[0], cc[1], cc[2]));
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(&image.encode(true)).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("pfilt"),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// C's `%.4e`.
pub fn format_e4(v: f64) -> String {
    let mut s = String::new();
    daylit_matrix::format_e(v, 4, &mut s);
    s
}
