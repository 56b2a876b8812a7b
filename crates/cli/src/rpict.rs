//! `daylit rpict` (and `rpict`): RADIANCE's picture renderer — its options, views and RGBE
//! output with RADIANCE's header — and `daylit render`, the same engine with defaults a
//! designer can trust, a progress bar and a tone-mapped PNG beside the HDR picture.

use crate::output::write_atomic;
use crate::vwrays::view_option;
use anyhow::{bail, Context};
use daylit_compile::compile;
use daylit_image::{HdrImage, View, ViewFrame};
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use rand::Rng;
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
    /// The HDR picture to write; a tone-mapped PNG is written beside it.
    #[arg(short = 'o', long, default_value = "render.hdr")]
    output: PathBuf,
}

/// A picture request.
struct Request {
    view: View,
    xres: usize,
    yres: usize,
    aspect: f64,
    jitter: f64,
    /// Pixel sample spacing (`-ps`; 1 traces every pixel).
    ps: usize,
    /// Pixel sample tolerance (`-pt`).
    pt: f64,
    render: Options,
    scene: Vec<PathBuf>,
    /// `-S`: render a sequence of views read from standard input, numbered from this.
    sequence: Option<i64>,
    /// `-o`: where frames go, with a `%d` (printf style) for the frame number.
    output: Option<String>,
    /// `-z`: where each pixel's distance goes (4-byte floats, native order, rows as the
    /// picture's), with a `%d` in a sequence.
    zfile: Option<String>,
}

/// Options that change nothing in daylit's pictures.
const IGNORED: &[(&str, usize)] = &[("-t", 1), ("-e", 1)];

fn parse(args: &[String], render: Options, prog: &str) -> anyhow::Result<Request> {
    let mut r = Request {
        view: View::default(),
        xres: 512,
        yres: 512,
        aspect: 1.0,
        jitter: 0.67,
        // rpict samples every 4th pixel by default; `daylit render` traces every pixel.
        ps: if prog == "render" { 1 } else { 4 },
        pt: 0.05,
        render,
        scene: vec![],
        sequence: None,
        output: None,
        zfile: None,
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
                    r.xres = v as usize;
                } else {
                    r.yres = v as usize;
                }
                take = 1;
            }
            "-pa" => {
                r.aspect = num(1)?.max(0.0);
                take = 1;
            }
            "-pj" => {
                r.jitter = num(1)?.clamp(0.0, 1.0);
                take = 1;
            }
            "-ps" => {
                r.ps = num(1)?.clamp(1.0, 1024.0) as usize;
                take = 1;
            }
            "-pt" => {
                r.pt = num(1)?.max(0.0);
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
    Ok(r)
}

/// RADIANCE's `normaspect`: fits the resolution to the view's aspect and the pixel aspect.
fn fit_resolution(view_aspect: f64, pa: f64, x: usize, y: usize) -> (usize, usize) {
    if pa <= 1e-6 {
        return (x, y);
    }
    if view_aspect * x as f64 > pa * y as f64 {
        (((y as f64) / view_aspect * pa + 0.5) as usize, y)
    } else {
        (x, ((x as f64) * view_aspect / pa + 0.5) as usize)
    }
}

/// The renderer of a request's scene with its options.
fn load(req: &Request) -> anyhow::Result<Renderer> {
    let scene = load_scene(&req.scene, &LoadOptions::default())?;
    let compiled = compile(&scene);
    let raypath = daylit_cal::RayPath::from_env();
    Ok(Renderer::new(
        scene,
        compiled,
        req.render.clone(),
        &raypath,
    )?)
}

/// One picture to render: its view and resolution.
struct Frame {
    view: View,
    frame: ViewFrame,
    xres: usize,
    yres: usize,
}

impl Frame {
    fn new(req: &Request, view: View) -> anyhow::Result<Frame> {
        let frame = view
            .frame()
            .map_err(|e| anyhow::anyhow!("bad view: {}", e.0))?;
        let (xres, yres) = fit_resolution(frame.vn / frame.hn, req.aspect, req.xres, req.yres);
        Ok(Frame {
            view,
            frame,
            xres: xres.max(1),
            yres: yres.max(1),
        })
    }
}

/// Builds (or reads, with `-af`) one irradiance cache for all `frames`, from the rays of the
/// pixels that adaptive sampling traces first (every `-ps`-th pixel of every `-ps`-th row, or
/// sparser when there are many), before any pixel is traced; [`render_frame`] adds records
/// for the pixels each level of refinement traces. RADIANCE's lazy cache, too, makes records
/// only where pixels are traced (`-ps 4` gives it about half the records of `-ps 1`).
fn prepare_cache(renderer: &mut Renderer, frames: &[Frame], ps: usize) -> anyhow::Result<()> {
    let per_frame = (crate::rtrace::CACHE_PRIMARIES / frames.len().max(1)).max(1 << 12);
    let grids: Vec<(usize, usize, usize)> = frames
        .iter()
        .map(|f| {
            let step = ((f.xres * f.yres) as f64 / per_frame as f64)
                .sqrt()
                .ceil()
                .max(ps.max(1) as f64) as usize;
            (step, f.xres.div_ceil(step), f.yres.div_ceil(step))
        })
        .collect();
    // Frame k's primaries start at starts[k].
    let starts: Vec<usize> = grids
        .iter()
        .scan(0, |n, &(_, nx, ny)| {
            let at = *n;
            *n += nx * ny;
            Some(at)
        })
        .collect();
    let total: usize = grids.iter().map(|&(_, nx, ny)| nx * ny).sum();
    let prepared = renderer
        .prepare_irradiance_cache(total, |rd, i, ctx| {
            let k = starts.partition_point(|&s| s <= i) - 1;
            let (f, (step, nx, _)) = (&frames[k], grids[k]);
            let i = i - starts[k];
            let (col, row) = ((i % nx) * step, (i / nx) * step);
            let x = (col as f64 + 0.5) / f.xres as f64;
            let y = 1.0 - (row as f64 + 0.5) / f.yres as f64;
            if let Some(ray) = f.frame.ray(x, y) {
                rd.radiance(ray.origin, ray.dir, ctx);
            }
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in &prepared.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(c) = renderer
        .irradiance_cache()
        .filter(|_| crate::rtrace::cache_stats_wanted())
    {
        eprint!("{}", prepared.stats.report(c));
    }
    Ok(())
}

/// Renders the picture of one request and its distances; `progress` shows a bar.
fn render(req: &Request, argline: &str, progress: bool) -> anyhow::Result<(HdrImage, Vec<f32>)> {
    let mut renderer = load(req)?;
    let frame = Frame::new(req, req.view.clone())?;
    prepare_cache(&mut renderer, std::slice::from_ref(&frame), req.ps)?;
    Ok(render_frame(&mut renderer, req, &frame, argline, progress))
}

/// Traces one frame with a prepared renderer: the picture and each pixel's distance.
fn render_frame(
    renderer: &mut Renderer,
    req: &Request,
    f: &Frame,
    argline: &str,
    progress: bool,
) -> (HdrImage, Vec<f32>) {
    let (frame, xres, yres) = (&f.frame, f.xres, f.yres);
    let bar = progress.then(|| {
        let b = indicatif::ProgressBar::new(yres as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} scanlines, {eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let jitter = req.jitter;
    // Pixel (col, row)'s ray, jittered from the pixel's own random sequence.
    let pixel_ray = |ctx: &mut daylit_transport::Ctx, col: usize, row: usize| {
        renderer.reseed(ctx, (row * xres + col) as u64);
        let (mut jx, mut jy) = (0.5, 0.5);
        if jitter > 0.0 {
            jx += jitter * (ctx.rng.random::<f64>() - 0.5);
            jy += jitter * (ctx.rng.random::<f64>() - 0.5);
        }
        let x = (col as f64 + jx) / xres as f64;
        let y = 1.0 - (row as f64 + jy) / yres as f64;
        frame.ray(x, y)
    };
    let trace =
        |ctx: &mut daylit_transport::Ctx, col: usize, row: usize| match pixel_ray(ctx, col, row) {
            Some(ray) => {
                let r = renderer.radiance(ray.origin, ray.dir, ctx);
                let v: DVec3 = r.value;
                // The z-file's distance, also what refinement compares: RADIANCE's
                // `raydistance` (through glass, or to the image in a mirror).
                ([v.x as f32, v.y as f32, v.z as f32], r.distance())
            }
            None => ([0.0; 3], 0.0),
        };
    // The cache was built from the first grid of samples; each level of refinement adds
    // records where its pixels find none, before they are traced.
    let cache = std::sync::RwLock::new(renderer.irradiance_cache().cloned());
    let current = || cache.read().unwrap_or_else(|e| e.into_inner()).clone();
    let mut round = 0;
    let refine = |at: &[usize]| {
        let Some(c) = current() else { return };
        let primary = |rd: &Renderer, i: usize, ctx: &mut daylit_transport::Ctx| {
            if let Some(ray) = pixel_ray(ctx, at[i] % xres, at[i] / xres) {
                rd.radiance(ray.origin, ray.dir, ctx);
            }
        };
        let (more, st) = renderer.extend_irradiance_cache(&c, at.len(), primary, round);
        round += 1;
        if crate::rtrace::cache_stats_wanted() {
            eprint!("refinement {round}: {}", st.report(&more));
        }
        *cache.write().unwrap_or_else(|e| e.into_inner()) = Some(std::sync::Arc::new(more));
    };
    let init = || {
        let mut ctx = renderer.ctx(0);
        ctx.use_irradiance_cache(current());
        ctx
    };
    let (pixels, depths) = crate::sampling::fill(
        xres,
        yres,
        (req.ps, req.pt),
        init,
        trace,
        refine,
        bar.as_ref(),
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // Later frames of a sequence start from the records this one added; `-af` keeps them.
    let grown = cache.into_inner().unwrap_or_else(|e| e.into_inner());
    let added = grown.as_ref().map(|c| c.len()) != renderer.irradiance_cache().map(|c| c.len());
    renderer.set_irradiance_cache(grown);
    if added {
        if let Some(w) = renderer.save_irradiance_cache() {
            eprintln!("warning: {w}");
        }
    }
    if let Some(c) = renderer
        .irradiance_cache()
        .filter(|_| crate::rtrace::cache_stats_wanted())
    {
        eprintln!(
            "irradiance cache: final gathers per level while rendering: {:?}",
            c.gathers()
        );
    }
    let mut img = HdrImage::new(0, 0);
    (img.width, img.height, img.pixels) = (xres, yres, pixels);
    img.program = "RADIANCE".into();
    img.header.push(argline.to_string());
    img.header
        .push(format!("SOFTWARE= daylit {}", env!("CARGO_PKG_VERSION")));
    let view = f.view.to_options();
    img.header.push(format!("VIEW= {view}"));
    img.view = Some(view);
    if req.aspect > 0.0 && (req.aspect - 1.0).abs() > 1e-9 {
        img.header.push(format!("PIXASPECT= {}", req.aspect));
    }
    (img, depths)
}

/// The z-file's bytes: each distance a 4-byte float in the machine's order, as RADIANCE's rpict
/// writes them.
fn depth_bytes(depths: &[f32]) -> Vec<u8> {
    depths.iter().flat_map(|d| d.to_ne_bytes()).collect()
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
        .map(|v| Frame::new(req, v))
        .collect::<anyhow::Result<_>>()?;
    for spec in [&req.output, &req.zfile].into_iter().flatten() {
        frame_path(spec, first)?;
    }
    let mut renderer = load(req)?;
    prepare_cache(&mut renderer, &frames, req.ps)?;
    for (k, f) in frames.iter().enumerate() {
        let (img, depths) = render_frame(&mut renderer, req, f, argline, false);
        let bytes = img.encode(true);
        let n = first + k as i64;
        if let Some(spec) = &req.zfile {
            write_atomic(&frame_path(spec, n)?, &depth_bytes(&depths))?;
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
    let (img, depths) = render(&req, &argline, false)?;
    if let Some(path) = &req.zfile {
        write_atomic(std::path::Path::new(path), &depth_bytes(&depths))?;
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

/// `daylit render`: HDR picture plus tone-mapped PNG, with a progress bar.
pub fn run_render(a: &RenderArgs) -> anyhow::Result<ExitCode> {
    let mut req = parse(&a.args, Options::render(), "render")?;
    req.jitter = 0.67;
    let (img, depths) = render(
        &req,
        &format!("daylit render {}", a.args.join(" ")),
        std::io::stderr().is_terminal(),
    )?;
    if let Some(path) = &req.zfile {
        write_atomic(std::path::Path::new(path), &depth_bytes(&depths))?;
    }
    write_atomic(&a.output, &img.encode(true))?;
    let png = a.output.with_extension("png");
    write_atomic(&png, &tone_map_png(&img)?)?;
    eprintln!("wrote {} and {}", a.output.display(), png.display());
    Ok(ExitCode::SUCCESS)
}

/// A tone-mapped 8-bit sRGB PNG of `img`: exposure from the log-average luminance, then a
/// Reinhard curve so that bright windows keep some detail.
pub fn tone_map_png(img: &HdrImage) -> anyhow::Result<Vec<u8>> {
    let lum: Vec<f64> = img.luminance_image();
    let n = lum.iter().filter(|l| **l > 0.0).count().max(1);
    let logavg = (lum
        .iter()
        .filter(|l| **l > 0.0)
        .map(|l| (l + 1e-4).ln())
        .sum::<f64>()
        / n as f64)
        .exp();
    let key = 0.18 / logavg.max(1e-9);
    let srgb = daylit_image::srgb8;
    let mut data = Vec::with_capacity(img.width * img.height * 3);
    for (p, l) in img.pixels.iter().zip(&lum) {
        let scaled = l * key;
        let k = if *l > 0.0 { key / (1.0 + scaled) } else { 0.0 };
        // Luminance values are in cd/m² (179 lm/W); pixel values in W/sr/m².
        for c in p {
            data.push(srgb(*c as f64 * 179.0 * k));
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().context("PNG header")?;
        w.write_image_data(&data).context("PNG data")?;
    }
    Ok(out)
}
