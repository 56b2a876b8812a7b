//! `daylit rcontrib` (and `rcontrib`): RADIANCE's rcontrib command line read into a typed
//! [`ContribJob`] and run by `daylit_coefficients::rcontrib` (scene, bins, tracing and the
//! outputs live there); this front end reads the rays from standard input and reports
//! warnings and errors under the program's name.

use crate::rtrace::read_rays;
use anyhow::{bail, Context};
use daylit_coefficients::rcontrib::{
    Bins, CalInput, Contrib, ContribError, ContribJob, OutputFormat, Receiver, Warning,
};
use daylit_geometry::Ray;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit rcontrib`, written as RADIANCE's rcontrib takes them.
#[derive(clap::Args)]
pub struct Args {
    /// RADIANCE rcontrib options (`-m`, `-M`, `-b`, `-bn`, `-p`, `-f`, `-e`, `-o`, `-c`, `-V`,
    /// `-I`, `-f[adf][adfc]`, rendering options, `-seed N`, `--daylit-ambient` for daylit's
    /// `-aa 0` estimator instead of RADIANCE's), then the scene.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// What rcontrib's options say: the job, and what the front end itself needs.
pub struct Parsed {
    /// The contribution job.
    pub job: ContribJob,
    /// Input format of the rays (`a`, `f`, `d`).
    pub fmt_in: char,
    /// The last `-o` of the options (where rfluxmtx's receivers without `o=` write).
    pub output: Option<String>,
}

/// Parses a RADIANCE `-f` format suffix (`a`, `ff`, `fc`, ...) into input and output formats.
fn parse_format(prog: &str, f: &str) -> anyhow::Result<(char, OutputFormat)> {
    let c: Vec<char> = f.chars().collect();
    let (i, o) = match c[..] {
        [i] if "adf".contains(i) => (i, i),
        [i, o] if "adf".contains(i) && "adfc".contains(o) => (i, o),
        _ => bail!(
            "{prog}: illegal i/o format -f{f} (expected one of a, f, d, then one of a, f, d, c)"
        ),
    };
    let o = match o {
        'f' => OutputFormat::Float,
        'd' => OutputFormat::Double,
        'c' => OutputFormat::Rgbe,
        _ => OutputFormat::Ascii,
    };
    Ok((i, o))
}

/// A RADIANCE switch (`-h`, `-h+`, `-h-`) named `name`: its new value, or `None` if `a` is not it.
fn switch(a: &str, name: &str, cur: bool) -> Option<bool> {
    match a.strip_prefix(name)? {
        "" => Some(!cur),
        "+" => Some(true),
        "-" => Some(false),
        _ => None,
    }
}

/// Parses rcontrib's arguments.
fn parse(args: &[String]) -> anyhow::Result<Parsed> {
    let mut p = Parsed::new(format!("rcontrib {}", args.join(" ")));
    let i = parse_options(&mut p, args, "rcontrib")?;
    p.job.scene = args[i..].iter().map(PathBuf::from).collect();
    if p.job.scene.is_empty() {
        bail!("rcontrib: no scene given (an octree from daylit oconv, or scene files)");
    }
    if p.job.receivers.is_empty() {
        bail!("rcontrib: no modifiers given (-m name or -M file)");
    }
    Ok(p)
}

impl Parsed {
    /// rcontrib's defaults; `command` heads the outputs.
    pub fn new(command: String) -> Parsed {
        Parsed {
            job: ContribJob::new(command),
            fmt_in: 'a',
            output: None,
        }
    }
}

/// Reads rcontrib's options into `p` up to the first word that is not one (or `-`), and
/// returns that word's index. `prog` names the program in errors.
pub fn parse_options(p: &mut Parsed, args: &[String], prog: &str) -> anyhow::Result<usize> {
    let job = &mut p.job;
    let (mut out, mut params, mut bin, mut count) = (None, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') || a == "-" {
            break;
        }
        let value = |k: usize| -> anyhow::Result<String> {
            args.get(i + k)
                .cloned()
                .with_context(|| format!("{prog}: option {a} needs a value"))
        };
        let whole = |k: usize| -> anyhow::Result<usize> {
            let v = value(k)?;
            v.parse()
                .with_context(|| format!("{prog}: {a} expects a whole number, found \"{v}\""))
        };
        let used = job
            .render
            .parse_arg(args, i)
            .map_err(|e| anyhow::anyhow!("{prog}: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        let mut take = 1;
        if let Some(v) = switch(a, "-I", job.irradiance_at_points) {
            job.irradiance_at_points = v;
            take = 0;
        } else if let Some(v) = switch(a, "-V", job.values) {
            job.values = v;
            take = 0;
        } else if let Some(v) = switch(a, "-h", job.header) {
            job.header = v;
            take = 0;
        } else if let Some(v) = switch(a, "-fo", job.force) {
            job.force = v;
            take = 0;
        } else if let Some(v) = switch(a, "-r", job.recover) {
            job.recover = v;
            take = 0;
        } else if switch(a, "-w", true).is_some() || switch(a, "-ld", true).is_some() {
            take = 0;
        } else {
            match a {
                "-n" => job.threads = whole(1)?,
                "-x" => job.xres = whole(1)?,
                "-y" => job.yres = whole(1)?,
                "-c" => job.accumulate = whole(1)?,
                "-t" => {
                    whole(1)?;
                }
                "-f" => job.cal.push(CalInput::File(value(1)?)),
                "-e" => job.cal.push(CalInput::Expr(value(1)?)),
                "-o" => out = Some(value(1)?),
                "-p" => params = Some(value(1)?),
                "-b" => bin = Some(value(1)?),
                "-bn" => count = Some(value(1)?),
                "-m" | "-M" => {
                    let names = if a == "-m" {
                        vec![value(1)?]
                    } else {
                        let f = value(1)?;
                        let text = std::fs::read_to_string(&f)
                            .with_context(|| format!("{prog}: cannot read modifier file {f}"))?;
                        text.split_whitespace().map(str::to_string).collect()
                    };
                    for name in names {
                        job.receivers.push(Receiver {
                            name,
                            bins: Bins::Expr {
                                expr: bin.clone(),
                                count: count.clone(),
                                params: params.clone(),
                            },
                            out: out.clone(),
                        });
                    }
                }
                _ => match a.strip_prefix("-f") {
                    Some(f) => {
                        (p.fmt_in, job.format) = parse_format(prog, f)?;
                        take = 0;
                    }
                    None => bail!("{prog}: unknown option {a}"),
                },
            }
        }
        i += 1 + take;
    }
    p.output = out;
    Ok(i)
}

/// Runs rcontrib with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rcontrib", args)?;
    let p = parse(args)?;
    run_job(p.job, None, p.fmt_in, "rcontrib")
}

/// `daylit rcontrib`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// Runs a contribution job (rcontrib's, or one rfluxmtx made) on `rays`, or on the rays of
/// standard input in format `fmt_in` once the scene is loaded; records without a file go
/// to standard output. Warnings and errors are named by `prog`.
pub fn run_job(
    job: ContribJob,
    rays: Option<Vec<Ray>>,
    fmt_in: char,
    prog: &str,
) -> anyhow::Result<ExitCode> {
    let mut warn = warner(prog);
    let contrib = Contrib::new(job, &mut warn).map_err(|e| located(e, prog))?;
    let rays = match rays {
        Some(r) => r,
        None => read_rays(fmt_in)?,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout());
    match contrib.run(&rays, &mut out, &mut warn) {
        // A reader that stops early (`| head`) is not an error.
        Err(ContribError::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            return Ok(ExitCode::SUCCESS)
        }
        r => r.map_err(|e| located(e, prog))?,
    }
    match out.flush() {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.with_context(|| format!("{prog}: cannot write to standard output"))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the library's warnings as RADIANCE's programs do.
pub fn warner(prog: &str) -> impl FnMut(Warning) + '_ {
    move |w| eprintln!("{prog}: warning: {w}")
}

/// A library error under the program's name.
pub fn located(e: ContribError, prog: &str) -> anyhow::Error {
    anyhow::Error::new(e).context(prog.to_string())
}
