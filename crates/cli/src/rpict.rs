//! `daylit rpict` (and `rpict`): RADIANCE's picture renderer — its options, views and RGBE
//! output with RADIANCE's header — and `daylit render`, the same engine with defaults a
//! designer can trust, a progress bar and a tone-mapped PNG beside the HDR picture.

use crate::output::write_atomic;
use crate::vwrays::view_option;
use anyhow::{bail, Context};
use daylit_compile::compile;
use daylit_image::{HdrImage, View};
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::rendering::{prepare_cache, render_frame, Frame, PictureOptions};
use daylit_transport::{Options, Renderer};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit rpict`, written as RADIANCE's rpict takes them.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// RADIANCE rpict options (views, -x -y -pa -pj, rendering options, -seed N,
    /// --radiance-ambient for RADIANCE's own -aa 0 estimator), then the
    /// scene (an octree from `daylit oconv`, or scene files). The picture goes to standard
    /// output, or to `-o file`. `-S n -o frame%03d.hdr` renders a sequence of views read from
    /// standard input (a line of -v options each), all from one irradiance cache.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// Arguments of `daylit render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// Scene files, then RADIANCE view and rendering options (`-vf view.vf`, `-vta -vh 180 ...`,
    /// `-ab 4 ...`) to change the defaults.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true, required = true)]
    args: Vec<String>,
    /// The HDR picture to write (its folder must exist); a tone-mapped PNG is written beside
    /// it [default: render.hdr].
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

/// A picture request.
struct Request {
    view: View,
    picture: PictureOptions,
    render: Options,
    scene: Vec<PathBuf>,
    /// `-S`: render a sequence of views read from standard input, numbered from this.
    sequence: Option<i64>,
    /// `-o`: where frames go, with a `%d` (printf style) for the frame number.
    output: Option<String>,
    /// `-z`: where each pixel's distance goes (4-byte floats, native order, rows as the
    /// picture's), with a `%d` in a sequence.
    zfile: Option<String>,
    /// `daylit render`: refuse surfaces too large or too far away to be meant (RADIANCE's
    /// rpict accepts them).
    plausible: bool,
}

/// Options that change nothing in daylit's pictures.
const IGNORED: &[(&str, usize)] = &[("-t", 1), ("-e", 1)];

fn parse(args: &[String], render: Options, prog: &str) -> anyhow::Result<Request> {
    let mut r = Request {
        view: View::default(),
        picture: PictureOptions {
            // rpict samples every 4th pixel by default; `daylit render` traces every pixel.
            ps: if prog == "render" { 1 } else { 4 },
            ..PictureOptions::default()
        },
        render,
        scene: vec![],
        sequence: None,
        output: None,
        zfile: None,
        plausible: prog == "render",
    };
    let mut words = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let used = r
            .render
            .parse_arg(args, i)
            .map_err(|e| anyhow::anyhow!("{prog}: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        let num = |k: usize| -> anyhow::Result<f64> {
            let w = args
                .get(i + k)
                .with_context(|| format!("{prog}: option {a} needs a value"))?;
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .with_context(|| format!("{prog}: option {a} expects a number, found \"{w}\""))
        };
        let mut take = 0;
        match a {
            "-x" | "-y" => {
                let v = num(1)?;
                if !(1.0..=65536.0).contains(&v) {
                    bail!("{prog}: {a} must be between 1 and 65536");
                }
                if a == "-x" {
                    r.picture.xres = v as usize;
                } else {
                    r.picture.yres = v as usize;
                }
                take = 1;
            }
            "-pa" => {
                r.picture.aspect = num(1)?.max(0.0);
                take = 1;
            }
            "-pj" => {
                r.picture.jitter = num(1)?.clamp(0.0, 1.0);
                take = 1;
            }
            "-ps" => {
                r.picture.ps = num(1)?.clamp(1.0, 1024.0) as usize;
                take = 1;
            }
            "-pt" => {
                r.picture.pt = num(1)?.max(0.0);
                take = 1;
            }
            "-S" => {
                r.sequence = Some(num(1)? as i64);
                take = 1;
            }
            "-o" | "-z" => {
                let w = args
                    .get(i + 1)
                    .with_context(|| format!("{prog}: option {a} needs a file name"))?
                    .clone();
                if a == "-o" {
                    r.output = Some(w);
                } else {
                    r.zfile = Some(w);
                }
                take = 1;
            }
            "-w" | "-w+" | "-w-" => {}
            // Motion blur and depth of field change the picture: only their "off" is accepted.
            "-pm" | "-pd" => {
                if num(1)? != 0.0 {
                    bail!("{prog}: option {a} (motion blur / depth of field) is not supported; give {a} 0");
                }
                take = 1;
            }
            _ if a.starts_with("-v") => {
                take =
                    view_option(args, i, &mut words).map_err(|e| anyhow::anyhow!("{prog}: {e}"))?
            }
            _ => {
                if let Some(&(_, n)) = IGNORED.iter().find(|(o, _)| *o == a) {
                    take = n;
                } else if a.starts_with('-') && a.len() > 1 {
                    bail!("{prog}: unknown option {a}");
                } else {
                    r.scene.push(PathBuf::from(a));
                }
            }
        }
        i += 1 + take;
    }
    r.view
        .apply(&words.join(" "))
        .map_err(|e| anyhow::anyhow!("{prog}: {}", e.0))?;
    if r.scene.is_empty() {
        bail!("{prog}: no scene given (an octree from daylit oconv, or scene files)");
    }
    r.render
        .validate()
        .map_err(|e| anyhow::anyhow!("{prog}: {e}"))?;
    if prog == "render" {
        // daylit's own command: counts no render would finish with are refused, in the
        // style of its other options (RADIANCE's rpict takes any).
        use crate::args::{MAX_AB, MAX_SAMPLES};
        let o = &r.render;
        for (name, v, lo, hi) in [
            ("-ab", u64::from(o.ab), 0, MAX_AB),
            ("-ad", u64::from(o.ad), 1, MAX_SAMPLES),
            ("-as", u64::from(o.as_), 0, MAX_SAMPLES),
        ] {
            if !(lo..=hi).contains(&v) {
                bail!("{prog}: {name}: expected a whole number from {lo} to {hi}, got \"{v}\"");
            }
        }
        if !(0.0..=1.0).contains(&o.lw) {
            bail!(
                "{prog}: -lw: expected a number from 0 to 1, got \"{}\"",
                o.lw
            );
        }
    }
    Ok(r)
}

/// The renderer of a request's scene with its options.
fn load(req: &Request) -> anyhow::Result<Renderer> {
    let scene = load_scene(&req.scene, &LoadOptions::default())?;
    if req.plausible {
        daylit_scene::extent::refuse_implausible(&scene)?;
    }
    let compiled = compile(&scene);
    let raypath = daylit_cal::RayPath::from_env();
    Ok(Renderer::new(
        scene,
        compiled,
        req.render.clone(),
        &raypath,
    )?)
}

/// Prints what the library says the user should hear.
fn tell(notes: &[String]) {
    for n in notes {
        eprint!("{n}");
    }
}

/// Builds the irradiance cache for `frames` (see [`prepare_cache`]).
fn prepare(renderer: &mut Renderer, frames: &[Frame], ps: usize) -> anyhow::Result<()> {
    let notes = prepare_cache(renderer, frames, ps, crate::rtrace::cache_stats_wanted())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    tell(&notes);
    Ok(())
}

/// Renders one frame, with a progress bar when `progress`: the picture with its header, and
/// the pixels' distances.
fn render_one(
    renderer: &mut Renderer,
    req: &Request,
    f: &Frame,
    argline: &str,
    progress: bool,
) -> (HdrImage, Vec<u8>) {
    let bar = progress.then(|| {
        let b = indicatif::ProgressBar::new(f.yres as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} scanlines, {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let inc = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let rendered = render_frame(
        renderer,
        &req.picture,
        f,
        crate::rtrace::cache_stats_wanted(),
        bar.as_ref().map(|_| &inc as &(dyn Fn(u64) + Sync)),
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    tell(&rendered.notes);
    let header = vec![
        argline.to_string(),
        format!("SOFTWARE= daylit {}", env!("CARGO_PKG_VERSION")),
    ];
    (
        rendered.image(f, &req.picture, header),
        rendered.depth_bytes(),
    )
}

/// Renders the picture of one request and its distances; `progress` shows a bar.
fn render(req: &Request, argline: &str, progress: bool) -> anyhow::Result<Rendered> {
    let mut renderer = load(req)?;
    let frame = Frame::new(req.view.clone(), &req.picture).map_err(|e| anyhow::anyhow!(e))?;
    prepare(&mut renderer, std::slice::from_ref(&frame), req.picture.ps)?;
    let (picture, depths) = render_one(&mut renderer, req, &frame, argline, progress);
    let referenced = renderer
        .scene
        .referenced_files(&req.scene, &daylit_cal::RayPath::from_env());
    Ok(Rendered {
        picture,
        depths,
        referenced,
    })
}

/// A picture made by [`render`].
struct Rendered {
    picture: HdrImage,
    /// The `-z` distances.
    depths: Vec<u8>,
    /// The files the scene read or names beyond the ones given (for the provenance).
    referenced: Vec<PathBuf>,
}

/// `-S`: the views of a sequence, one per line of `input` (view options, as in a view file;
/// each line changes the view before it), starting from the command line's view.
fn sequence_views(req: &Request, input: &str) -> anyhow::Result<Vec<View>> {
    let mut view = req.view.clone();
    let mut views = Vec::new();
    for (n, line) in input.lines().enumerate() {
        if !line.split_whitespace().any(|w| w.starts_with("-v")) {
            continue;
        }
        view.apply(line)
            .map_err(|e| anyhow::anyhow!("rpict: standard input, line {}: {}", n + 1, e.0))?;
        views.push(view.clone());
    }
    if views.is_empty() {
        bail!("rpict: -S: no views on standard input (lines of -v options expected)");
    }
    Ok(views)
}

/// `-o`: frame `n`'s file name (the first `%d`, `%0Nd` or `%Nd` replaced).
fn frame_path(spec: &str, n: i64) -> anyhow::Result<PathBuf> {
    let Some(at) = spec.find('%') else {
        bail!("rpict: -o {spec}: a sequence needs a %d for the frame number");
    };
    let rest = &spec[at + 1..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let Some(tail) = rest[digits.len()..].strip_prefix('d') else {
        bail!("rpict: -o {spec}: only %d (with a width) is understood");
    };
    let width: usize = digits.parse().unwrap_or(0);
    let num = if digits.starts_with('0') {
        format!("{n:0width$}")
    } else {
        format!("{n:width$}")
    };
    Ok(PathBuf::from(format!("{}{num}{tail}", &spec[..at])))
}

/// `-S`: renders every view of the sequence from one shared irradiance cache, and writes
/// each frame to its `-o` file (or all to standard output).
fn run_sequence(req: &Request, first: i64, argline: &str) -> anyhow::Result<()> {
    let mut input = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
        .context("rpict: cannot read views from standard input")?;
    let frames: Vec<Frame> = sequence_views(req, &input)?
        .into_iter()
        .map(|v| Frame::new(v, &req.picture))
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!(e))?;
    for spec in [&req.output, &req.zfile].into_iter().flatten() {
        frame_path(spec, first)?;
    }
    let mut renderer = load(req)?;
    prepare(&mut renderer, &frames, req.picture.ps)?;
    for (k, f) in frames.iter().enumerate() {
        let (img, depths) = render_one(&mut renderer, req, f, argline, false);
        let bytes = img.encode(true);
        let n = first + k as i64;
        if let Some(spec) = &req.zfile {
            write_atomic(&frame_path(spec, n)?, &depths)?;
        }
        match &req.output {
            Some(spec) => write_atomic(&frame_path(spec, n)?, &bytes)?,
            None => crate::output::print_bytes([bytes.as_slice()])?,
        }
    }
    Ok(())
}

/// Runs rpict with RADIANCE's arguments; the picture goes to standard output.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rpict", args)?;
    let req = parse(args, Options::rpict(), "rpict")?;
    let argline = format!("rpict {}", args.join(" "));
    if let Some(first) = req.sequence {
        run_sequence(&req, first, &argline)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Rendered {
        picture: img,
        depths,
        ..
    } = render(&req, &argline, false)?;
    if let Some(path) = &req.zfile {
        write_atomic(std::path::Path::new(path), &depths)?;
    }
    match &req.output {
        Some(path) => write_atomic(std::path::Path::new(path), &img.encode(true))?,
        None => crate::output::print_bytes([img.encode(true).as_slice()])?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `daylit rpict`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// How a `daylit render` picture is made: the scene files with their hashes, the picture
/// size and the rendering settings (the view is in the header's `VIEW=` line).
fn render_provenance(req: &Request) -> anyhow::Result<daylit_radfile::Provenance> {
    let mut p = crate::provenance::start();
    for f in &req.scene {
        p.add_input("scene", f)?;
    }
    let (o, pic) = (&req.render, &req.picture);
    p.add_setting("x", pic.xres);
    p.add_setting("y", pic.yres);
    p.add_setting("ps", pic.ps);
    for (k, v) in [
        ("ab", o.ab.to_string()),
        ("ad", o.ad.to_string()),
        ("as", o.as_.to_string()),
        ("aa", o.aa.to_string()),
        ("ar", o.ar.to_string()),
        ("lr", o.lr.to_string()),
        ("lw", o.lw.to_string()),
        ("dj", o.dj.to_string()),
        ("ds", o.ds.to_string()),
        ("dt", o.dt.to_string()),
        ("dc", o.dc.to_string()),
        ("dr", o.dr.to_string()),
        ("ss", o.ss.to_string()),
        ("st", o.st.to_string()),
    ] {
        p.add_setting(k, v);
    }
    p.seed = Some(o.seed);
    Ok(p)
}

/// `daylit render`: HDR picture plus tone-mapped PNG, with a progress bar.
pub fn run_render(a: &RenderArgs) -> anyhow::Result<ExitCode> {
    let req = parse(&a.args, Options::render(), "render")?;
    // `-o` among the rendering options names the picture as well as before them.
    let output = match (&req.output, &a.output) {
        (Some(_), Some(_)) => bail!("render: -o given twice"),
        (Some(o), None) => PathBuf::from(o),
        (None, o) => o.clone().unwrap_or_else(|| PathBuf::from("render.hdr")),
    };
    let png = output.with_extension("png");
    // Before any work: the picture, its PNG and the distances can be written.
    crate::args::check_outputs(
        [output.as_path(), png.as_path()]
            .into_iter()
            .chain(req.zfile.as_deref().map(std::path::Path::new)),
        [],
    )?;
    let mut prov = render_provenance(&req)?;
    let Rendered {
        picture: mut img,
        depths,
        referenced,
    } = render(
        &req,
        &format!("daylit render {}", a.args.join(" ")),
        std::io::stderr().is_terminal(),
    )?;
    for f in &referenced {
        prov.add_input("scene data", f)?;
    }
    if let Some(path) = &req.zfile {
        write_atomic(std::path::Path::new(path), &depths)?;
    }
    img.header.extend(prov.header_lines());
    write_atomic(&output, &img.encode(true))?;
    let display = daylit_falsecolor::tonemap::tone_map(&img)
        .png_with_text(&prov.png_text())
        .context("render: cannot encode the PNG")?;
    write_atomic(&png, &display)?;
    eprintln!("wrote {} and {}", output.display(), png.display());
    Ok(ExitCode::SUCCESS)
}
