//! `daylit rtrace` (and `rtrace`): RADIANCE's ray-tracing front end: values (`v V w l`, with
//! `-I` irradiance at points and `-i` irradiance at surfaces) from the light-transport engine,
//! and the geometric outputs (origin, direction, distance, point, normal, surface, modifier
//! and material names).

use anyhow::{bail, Context};
use daylit_compile::compile;
use daylit_geometry::Ray;
use daylit_scene::{load_scene, LoadOptions, PrimType};
use daylit_transport::rtrace::{Engine, Format, Output, RtraceOptions};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit rtrace`, written as RADIANCE's rtrace takes them.
#[derive(clap::Args)]
pub struct Args {
    /// RADIANCE rtrace options (with `-seed N`, and `--radiance-ambient` for RADIANCE's own
    /// `-aa 0` estimator instead of daylit's), then the scene (an octree from `daylit oconv`,
    /// or scene files).
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// rtrace options that take values and do not change the result (photon maps, cache
/// files, reporting).
const VALUE_OPTIONS: &[(&str, usize)] = &[
    ("-af", 1),
    ("-e", 1),
    ("-t", 1),
    ("-P", 1),
    ("-PP", 1),
    ("-pm", 1),
];

/// Switches (each may end in `+` or `-`) accepted without effect on geometric outputs.
const SWITCHES: &[&str] = &["-w", "-ld", "-co", "-dm"];

struct Options {
    render: daylit_transport::Options,
    irradiance_at_points: bool,
    outputs: Vec<Output>,
    fmt_in: char,
    fmt_out: char,
    header: bool,
    res: Option<(usize, usize)>,
    threads: usize,
    scene: Vec<PathBuf>,
}

fn parse(args: &[String]) -> anyhow::Result<Options> {
    let mut o = Options {
        render: daylit_transport::Options::rtrace(),
        irradiance_at_points: false,
        outputs: vec![],
        fmt_in: 'a',
        fmt_out: 'a',
        header: true,
        res: None,
        threads: 0,
        scene: vec![],
    };
    let mut spec = "v".to_string();
    let (mut x, mut y) = (0usize, 0usize);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |k: usize| -> anyhow::Result<&str> {
            args.get(i + k)
                .map(String::as_str)
                .with_context(|| format!("rtrace: option {a} needs a value"))
        };
        let mut take = 0;
        let used = o
            .render
            .parse_arg(args, i)
            .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        if matches!(a, "-I" | "-I+" | "-I-") {
            o.irradiance_at_points = match a {
                "-I+" => true,
                "-I-" => false,
                _ => !o.irradiance_at_points,
            };
        } else if let Some(s) = a.strip_prefix("-o") {
            spec = s.to_string();
        } else if let Some(f) = a.strip_prefix("-f") {
            let c: Vec<char> = f.chars().collect();
            match c[..] {
                [io] if "adf".contains(io) => (o.fmt_in, o.fmt_out) = (io, io),
                [i_, o_] if "adf".contains(i_) && "adf".contains(o_) => {
                    (o.fmt_in, o.fmt_out) = (i_, o_)
                }
                _ => {
                    bail!("rtrace: bad format {a} (expected -f followed by one or two of a, f, d)")
                }
            }
        } else if matches!(a, "-h" | "-h+" | "-h-") {
            // RADIANCE switches: alone they toggle, `+`/`-` set.
            o.header = match a {
                "-h+" => true,
                "-h-" => false,
                _ => !o.header,
            };
        } else if a == "-x" || a == "-y" || a == "-n" {
            let v = value(1)?;
            let n: usize = v
                .parse()
                .with_context(|| format!("rtrace: {a} expects a whole number, found \"{v}\""))?;
            match a {
                "-x" => x = n,
                "-y" => y = n,
                _ => o.threads = n,
            }
            take = 1;
        } else if let Some(&(_, n)) = VALUE_OPTIONS.iter().find(|(name, _)| *name == a) {
            for k in 1..=n {
                value(k)?;
            }
            take = n;
        } else if SWITCHES.iter().any(|s| {
            a.strip_prefix(s)
                .is_some_and(|r| r.is_empty() || r == "+" || r == "-")
        }) {
        } else if a.starts_with('-') && a.len() > 1 {
            bail!("rtrace: unknown option {a}");
        } else {
            o.scene.push(PathBuf::from(a));
        }
        i += 1 + take;
    }
    for c in spec.chars() {
        o.outputs.push(match Output::from_letter(c) {
            Some(out) => out,
            None if matches!(c, 'W' | '~') => bail!(
                "rtrace: output -o{c} is not in this version of daylit; v V w l r R x X and the geometric outputs (o d L p N n c s m M) work"
            ),
            None => bail!("rtrace: unknown output -o{c}"),
        });
    }
    if x > 0 && y > 0 {
        o.res = Some((x, y));
    }
    if o.scene.is_empty() {
        bail!("rtrace: no scene given (an octree from daylit oconv, or scene files)");
    }
    o.render
        .validate()
        .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
    Ok(o)
}

/// The format of a `-f` letter the argument parser accepted.
fn format(c: char) -> Format {
    Format::from_letter(c).unwrap_or_default()
}

/// Rays from standard input in format `fmt` (`a`, `f` or `d`).
pub(crate) fn read_rays(fmt: char) -> anyhow::Result<Vec<Ray>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    daylit_transport::rtrace::decode_rays(&bytes, format(fmt), "standard input")
        .map_err(anyhow::Error::msg)
}

/// Runs rtrace with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rtrace", args)?;
    let o = parse(args)?;
    if o.fmt_out != 'a' && o.outputs.iter().any(|x| x.is_name()) {
        bail!("rtrace: names (-os -om -oM) can only be written in ASCII output (-fa)");
    }
    if (o.irradiance_at_points || o.render.irradiance)
        && o.outputs.iter().any(|x| x.is_mirror_split())
    {
        eprintln!("rtrace: warning - -orRxX options incompatible with -I+ and -i+");
    }
    let scene = load_scene(&o.scene, &LoadOptions::default())?;
    let has_textures = scene
        .prims
        .iter()
        .any(|p| matches!(p.ptype, PrimType::Texfunc | PrimType::Texdata));
    if has_textures && args.iter().any(|a| a.starts_with("-o") && a.contains('n')) {
        bail!("rtrace: -on (perturbed normal) with textures needs the light-transport engine; -oN gives the surface normal");
    }
    let compiled = compile(&scene);
    let (mut renderer, plain) = if o.outputs.iter().any(|x| x.needs_transport()) {
        let raypath = daylit_cal::RayPath::from_env();
        let r = daylit_transport::Renderer::new(scene, compiled, o.render.clone(), &raypath)?;
        (Some(r), None)
    } else {
        (None, Some((scene, compiled)))
    };
    let rays = read_rays(o.fmt_in)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()?;
    if let Some(rd) = renderer.as_mut() {
        // One irradiance cache for all the run's rays, built (or read) before tracing.
        let prepared = pool
            .install(|| rd.prepare_for_rays(&rays, o.irradiance_at_points))
            .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
        for w in &prepared.warnings {
            eprintln!("rtrace: warning: {w}");
        }
        if let Some(c) = rd.irradiance_cache().filter(|_| cache_stats_wanted()) {
            eprint!("rtrace: {}", prepared.stats.report(c));
        }
    }
    let engine = match (&renderer, &plain) {
        (Some(r), _) => Engine::Transport(r),
        (None, Some((s, c))) => Engine::Geometry(s, c),
        (None, None) => unreachable!("one of the two is always set"),
    };
    let opts = RtraceOptions {
        outputs: o.outputs.clone(),
        irradiance_at_points: o.irradiance_at_points,
        format: format(o.fmt_out),
        backvis: o.render.backvis,
    };
    let mut text = Vec::new();
    if o.header {
        let command = format!("rtrace {}", args.join(" "));
        text.extend_from_slice(daylit_transport::rtrace::header(&command, &opts).as_bytes());
    }
    if let Some((x, y)) = o.res {
        text.extend_from_slice(daylit_transport::rtrace::resolution_line(x, y).as_bytes());
    }
    // Rays are traced in parallel in chunks; output keeps the input order.
    let records = pool.install(|| daylit_transport::rtrace::trace_records(engine, &rays, &opts));
    crate::output::print_bytes(std::iter::once(&text).chain(&records).map(Vec::as_slice))?;
    if let Some(c) = renderer
        .as_ref()
        .and_then(|r| r.irradiance_cache())
        .filter(|_| cache_stats_wanted())
    {
        eprintln!(
            "rtrace: irradiance cache: final gathers per level while tracing: {:?}",
            c.gathers()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether to print irradiance cache statistics to stderr (`DAYLIT_IC_STATS` set and not 0).
pub(crate) fn cache_stats_wanted() -> bool {
    std::env::var("DAYLIT_IC_STATS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `daylit rtrace`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}
