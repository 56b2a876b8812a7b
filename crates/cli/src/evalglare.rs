//! `daylit evalglare` (and `evalglare`): glare evaluation of an HDR picture with evalglare
//! 3.06's options, printing its output lines exactly as evalglare prints them.

use crate::output;
use anyhow::Context;
use daylit_glare::args::{self, Request};
use daylit_glare::report;
use daylit_glare::{evaluate, GlareError, GlarePicture};
use daylit_image::HdrImage;
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

/// Arguments of `daylit evalglare`, written as evalglare takes them.
#[derive(clap::Args)]
pub struct Args {
    /// evalglare options: `[-d] [-D] [-c check.hdr] [-b threshold] [-r angle] [-s] [-y | -x]
    /// [-Y lum] [-t|-T x y angle] [-B angle] [-i Ev] [-I Ev ymax ymin] [-C l+|l-] [-q 0|1|2]
    /// [-w a1 a2 a3 a4 a5 c1 c2 c3] [-u r g b] [-k Lveil] [-P 0|1] [-V] [-f] [-p]
    /// [view options, -vf file] [picture]` (standard input without a picture).
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// `daylit evalglare …`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// The version line (`evalglare -v`).
const VERSION: &str = concat!(
    "daylit evalglare ",
    env!("CARGO_PKG_VERSION"),
    " (the options and output of evalglare 3.06)"
);

/// Runs as RADIANCE's `evalglare` with its argument syntax.
pub fn run_radiance(argv: &[String]) -> anyhow::Result<ExitCode> {
    let req = args::parse(argv)?;
    if req.version {
        output::print(&format!("{VERSION} \n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (img, name) = read_picture(&req)?;
    let mut pic = GlarePicture::new(&img, req.view.as_ref(), &name)?;
    if req.view.is_some() && daylit_glare::picture::header_view(&img).is_some() {
        eprintln!("warning: overriding image view by commandline argument");
    }
    if req.posindex_picture {
        return posindex_picture(&req, &pic, argv);
    }
    let mut opts = req.options.clone();
    if req.ev_only {
        opts.statistics = false;
    }
    let e = match evaluate(&mut pic, &opts) {
        Ok(e) => e,
        Err(GlareError::BlackCorners(lines)) => {
            // evalglare prints these on standard output and stops.
            output::print(&(lines.join("\n") + "\n"))?;
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(e.into()),
    };
    for n in &e.notices {
        eprintln!("{n}");
    }
    if req.ev_only {
        output::print(&format!("{}\n", report::c_f(e.ev)))?;
        return Ok(ExitCode::SUCCESS);
    }
    output::print(&report::output(&e, req.detail))?;
    if let Some(c) = &req.check_file {
        write_picture(&pic.to_hdr(), &pic, argv, Path::new(c))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the picture named on the command line, or standard input.
fn read_picture(req: &Request) -> anyhow::Result<(HdrImage, String)> {
    match &req.picture {
        Some(p) => Ok((HdrImage::read(Path::new(p))?, p.clone())),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read the picture from standard input")?;
            Ok((HdrImage::decode(&bytes, "<stdin>")?, "<stdin>".into()))
        }
    }
}

/// Writes a picture of the evaluated view with evalglare's header lines (command line,
/// program, view), atomically.
fn write_picture(
    img: &HdrImage,
    pic: &GlarePicture,
    argv: &[String],
    path: &Path,
) -> anyhow::Result<()> {
    let mut out = img.clone();
    out.header = vec![
        format!("evalglare {}", argv.join(" ")),
        VERSION.to_string(),
        format!("VIEW= {}", pic.view.to_view().to_options()),
    ];
    output::write_atomic(path, &out.encode(true))
}

/// `-p`: the position index of every pixel as a picture (others keep their grey value).
fn posindex_picture(
    req: &Request,
    pic: &GlarePicture,
    argv: &[String],
) -> anyhow::Result<ExitCode> {
    let Some(c) = &req.check_file else {
        anyhow::bail!("-p writes the position-index picture to the file given with -c");
    };
    let map = pic.position_index_map(req.options.posindex_model);
    let mut img = pic.to_hdr();
    for (k, p) in map.iter().enumerate() {
        let (row, x) = (k / pic.width, k % pic.width);
        if pic.is_valid(x, pic.height - 1 - row) {
            let g = (*p as f64 / 179.0) as f32;
            img.pixels[k] = [g, g, g];
        }
    }
    write_picture(&img, pic, argv, Path::new(c))?;
    Ok(ExitCode::SUCCESS)
}
