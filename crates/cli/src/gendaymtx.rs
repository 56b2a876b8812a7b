//! `daylit gendaymtx` (and `gendaymtx`): sky matrices from a weather file, as RADIANCE's
//! gendaymtx writes them. Reads EPW, WEA or TMY3 CSV (told apart by content).

use anyhow::{bail, Context};
use daylit_sky::gendaymtx::{self, Format, Options, OutputKind};
use daylit_sky::weather::{parse_weather, read_weather};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `daylit gendaymtx`, written as RADIANCE's gendaymtx takes them.
#[derive(clap::Args)]
pub struct Args {
    /// gendaymtx options: `[-v] [-h] [-A] [-d|-s] [-u] [-r deg] [-m N] [-g r g b] [-c r g b]
    /// [-o{a|f|d}] [-O{0|1}] [-5 ang] [-i minutes] weather-file`; daylit also takes `-fa -ff
    /// -fd` for the format and `-o file` to write the matrix to a file atomically.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// One invocation.
struct Request {
    opts: Options,
    format: Format,
    header: bool,
    verbose: bool,
    output: Option<PathBuf>,
    /// `None`: standard input.
    input: Option<PathBuf>,
    /// `-D`: where the sun descriptions go (`-` standard output).
    suns: Option<String>,
    /// `-M`: where their modifier names go.
    modifiers: Option<PathBuf>,
    /// `-n` (or `-D -`): no matrix.
    no_matrix: bool,
}

const USAGE: &str = "usage: gendaymtx [-v][-h][-A][-d|-s|-n][-u][-D sunfile [-M sunmods]][-r deg]\
[-m N][-g r g b][-c r g b][-o{a|f|d}][-O{0|1}][-5 ang][-i min][-o file] [weather-file]";

/// Runs `daylit gendaymtx`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// Runs with gendaymtx's own argument list (without the program name).
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let req = parse(args)?;
    let (weather, input_name) = match &req.input {
        Some(path) => (read_weather(path)?, path.display().to_string()),
        None => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .context("gendaymtx: cannot read the weather data from standard input")?;
            (parse_weather(&text, "<stdin>")?, "<stdin>".to_string())
        }
    };
    if req.verbose {
        let s = &weather.site;
        eprintln!(
            "gendaymtx: {} ({:?}): latitude {:.2}° N, longitude {:.2}° W, {} records",
            s.name,
            weather.format,
            s.latitude,
            s.longitude,
            weather.records.len()
        );
    }
    if let Some(note) = weather.coverage_note() {
        eprintln!("gendaymtx: {input_name}: {note}");
    }
    if req.modifiers.is_some() && req.suns.is_none() {
        eprintln!("gendaymtx: warning -M output will be empty without -D");
    }
    if req.suns.is_some() || req.modifiers.is_some() {
        let suns = gendaymtx::sun_descriptions(&weather, &req.opts);
        if let Some(path) = &req.modifiers {
            let names = if req.suns.is_some() {
                gendaymtx::sun_modifiers(&suns)
            } else {
                String::new()
            };
            crate::output::write_atomic(path, names.as_bytes())?;
        }
        match req.suns.as_deref() {
            Some("-") => crate::output::print(&gendaymtx::sun_scene(&suns))?,
            Some(path) => crate::output::write_atomic(
                Path::new(path),
                gendaymtx::sun_scene(&suns).as_bytes(),
            )?,
            None => {}
        }
    }
    if req.no_matrix {
        return Ok(ExitCode::SUCCESS);
    }
    let m = gendaymtx::sky_matrix(&weather, &req.opts).with_context(|| input_name.clone())?;
    for w in &m.warnings {
        eprintln!("gendaymtx: {w}");
    }
    let header = if req.header {
        let command = std::iter::once("gendaymtx")
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        gendaymtx::header(&m, req.format, &command)
    } else {
        String::new()
    };
    // Streamed: a Reinhart MF:4 year is a quarter of a gigabyte of floats.
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
        out.write_all(header.as_bytes())?;
        gendaymtx::write_body(&m, req.format, &mut out)?;
        out.flush()
    };
    match &req.output {
        Some(path) => crate::output::write_atomic_with(path, write)?,
        None => match write(&mut std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(e).context("cannot write to standard output")
            }
            _ => {}
        },
    }
    Ok(ExitCode::SUCCESS)
}

/// Three numbers following option `args[i]`.
fn three(args: &[String], i: usize) -> anyhow::Result<[f64; 3]> {
    let opt = &args[i];
    let words = args
        .get(i + 1..i + 4)
        .with_context(|| format!("option {opt} needs three numbers\n{USAGE}"))?;
    let mut v = [0.0; 3];
    for (x, w) in v.iter_mut().zip(words) {
        *x = number(opt, w)?;
    }
    Ok(v)
}

fn number(opt: &str, w: &str) -> anyhow::Result<f64> {
    w.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .with_context(|| format!("option {opt}: expected a number, found '{w}'"))
}

/// Parses gendaymtx's options in order (later options override earlier ones, as in RADIANCE:
/// `-d` clears the sky and ground colours, a later `-c` or `-g` sets them again).
fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut req = Request {
        opts: Options::default(),
        format: Format::Ascii,
        header: true,
        verbose: false,
        output: None,
        input: None,
        suns: None,
        modifiers: None,
        no_matrix: false,
    };
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let value = |k: usize| -> anyhow::Result<&String> {
            args.get(i + k)
                .with_context(|| format!("option {a} needs a value\n{USAGE}"))
        };
        match a {
            "-v" => req.verbose = true,
            "-h" => req.header = false,
            "-A" => req.opts.average = true,
            "-d" => req.opts.sun_only(),
            "-s" => req.opts.sky_only(),
            "-u" => req.opts.sun_hours_only = true,
            "-oa" | "-fa" => req.format = Format::Ascii,
            "-of" | "-ff" => req.format = Format::Float,
            "-od" | "-fd" => req.format = Format::Double,
            "-O0" => req.opts.output = OutputKind::Visible,
            "-O1" => req.opts.output = OutputKind::Solar,
            "-o" => {
                req.output = Some(PathBuf::from(value(1)?));
                i += 1;
            }
            "-r" | "-rz" => {
                req.opts.rotation = number(a, value(1)?)?;
                i += 1;
            }
            "-m" => {
                let w = value(1)?;
                req.opts.mf = w.parse().ok().filter(|&m| m >= 1).with_context(|| {
                    format!("option -m: expected a whole number ≥ 1, found '{w}'")
                })?;
                i += 1;
            }
            "-i" => {
                req.opts.interval_minutes = number(a, value(1)?)?;
                i += 1;
            }
            "-5" => {
                let ang = number(a, value(1)?)?;
                if ang <= 0.0 {
                    bail!("missing solar disk size argument for '-5' option");
                }
                req.opts.five_phase(ang);
                i += 1;
            }
            "-g" => {
                req.opts.ground = three(args, i)?;
                i += 3;
            }
            "-c" => {
                req.opts.sky_color = three(args, i)?;
                i += 3;
            }
            "-D" => {
                let to = value(1)?.clone();
                i += 1;
                // To standard output, the suns replace the matrix (RADIANCE's -D - implies -n).
                if to == "-" {
                    req.no_matrix = true;
                    req.opts.sun_only();
                }
                req.suns = Some(to);
            }
            "-M" => {
                req.modifiers = Some(PathBuf::from(value(1)?));
                i += 1;
            }
            "-n" => {
                req.no_matrix = true;
                req.opts.sun_only();
            }
            _ => bail!("unknown option {a}\n{USAGE}"),
        }
        i += 1;
    }
    match &args[i..] {
        [file] => req.input = Some(Path::new(file).to_path_buf()),
        [] => req.input = None,
        _ => bail!(
            "expected one weather file after the options, found {:?}\n{USAGE}",
            &args[i..]
        ),
    }
    Ok(req)
}
