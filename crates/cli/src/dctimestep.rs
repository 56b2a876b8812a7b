//! `daylit dctimestep` (and `dctimestep`): results of the daylight-coefficient method,
//! a daylight-coefficient matrix times a sky matrix (2-phase), or `V T D` times a sky matrix
//! (3-phase), as RADIANCE's dctimestep computes and writes them.

use anyhow::{bail, Context};
use daylit_matrix::{self as mx, Format, HeaderMode, Loaded, Matrix, ReadOptions};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit dctimestep`, written as RADIANCE's dctimestep takes them.
#[derive(clap::Args)]
pub struct Args {
    /// dctimestep options and operands: `[-h] [-n nsteps] [-i{f|d|a}] [-o{f|d|a}] [-o file]
    /// [-x xres] [-y yres] DCspec [skyfile]` or `... Vspec Tspec Dspec [skyfile]`; the sky
    /// matrix is read from standard input when no file is given.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

const USAGE: &str = "usage: dctimestep [-h][-n nsteps][-i{f|d|a}][-o{f|d|a}][-o file][-x xres][-y yres] DCspec [skyf]\n   \
or: dctimestep [-h][-n nsteps][-i{f|d|a}][-o{f|d|a}][-o file][-x xres][-y yres] Vspec Tspec Dspec [skyf]";

/// One invocation.
struct Request {
    header: bool,
    nsteps: Option<usize>,
    sky_format: Option<Format>,
    out_format: Format,
    output: Option<PathBuf>,
    xres: usize,
    yres: usize,
    operands: Vec<String>,
}

/// Runs `daylit dctimestep`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// Runs with dctimestep's own argument list (without the program name).
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let req = parse(args)?;
    let result = compute(&req)?;
    let mut result = result;
    reshape(&mut result, req.yres, req.xres)?;
    let header = if req.header {
        let mut lines = vec![crate::output::command_line("dctimestep", args)];
        lines.extend(mx::date_lines());
        let mut h = Vec::new();
        mx::write_header(
            &mut h,
            &lines,
            result.rows(),
            result.cols(),
            result.ncomp(),
            req.out_format,
        )?;
        h
    } else {
        Vec::new()
    };
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
        out.write_all(&header)?;
        mx::write_body(&result, req.out_format, &mut out)?;
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

/// Loads the operands and multiplies them, in dctimestep's order: the sky first, so that its
/// rows size the matrix before it.
fn compute(req: &Request) -> anyhow::Result<Matrix> {
    let ops = &req.operands;
    let three_phase = ops.len() > 2;
    let sky_spec = ops.get(if three_phase { 3 } else { 1 });
    let sky_bytes = input(sky_spec.map(String::as_str))?;
    let sky_name = sky_spec.map_or("standard input", |s| s.as_str());
    let sky_opts = ReadOptions {
        format: req.sky_format,
        cols: req.nsteps,
        ncomp: Some(3),
        // `-n` announces header-less ASCII, unless a later -i asked for a binary format.
        header: if req.nsteps.is_some() && req.sky_format == Some(Format::Ascii) {
            HeaderMode::Absent
        } else {
            HeaderMode::Auto
        },
        ..ReadOptions::default()
    };
    let with = |cols: usize, rows: Option<usize>| ReadOptions {
        rows,
        cols: Some(cols),
        ncomp: Some(3),
        ..ReadOptions::default()
    };
    if !three_phase {
        let dc_spec = &ops[0];
        check_picture_spec(dc_spec)?;
        let dc_bytes = input(Some(dc_spec))?;
        // Header-less sky without -n: its rows are the columns of the matrix before it.
        let (dc, sky) = if req.nsteps.is_none()
            && mx::is_headerless(&sky_bytes)
            && !mx::is_headerless(&dc_bytes)
        {
            let dc = load(&dc_bytes, dc_spec, &ReadOptions::default().with_ncomp(3))?;
            let sky_opts = ReadOptions {
                rows: Some(dc.cols()),
                ..sky_opts
            };
            (dc, load(&sky_bytes, sky_name, &sky_opts)?)
        } else {
            let sky = load(&sky_bytes, sky_name, &sky_opts)?;
            let dc = load(&dc_bytes, dc_spec, &with(sky.rows(), None)).with_context(|| {
                format!(
                    "{dc_spec} must have as many columns as the sky matrix {sky_name} has rows ({})",
                    sky.rows()
                )
            })?;
            (dc, sky)
        };
        return Ok(mx::multiply(&dc, &sky)?);
    }
    let (v_spec, t_spec, d_spec) = (&ops[0], &ops[1], &ops[2]);
    check_picture_spec(v_spec)?;
    if t_spec.to_ascii_lowercase().ends_with(".xml") && !t_spec.starts_with('!') {
        bail!("{t_spec}: BSDF XML files are not supported yet (give the transmission as a matrix file)");
    }
    let sky = load(&sky_bytes, sky_name, &sky_opts)?;
    let t = load(
        &input(Some(t_spec))?,
        t_spec,
        &ReadOptions::default().with_ncomp(3),
    )?;
    let d = load(
        &input(Some(d_spec))?,
        d_spec,
        &with(sky.rows(), Some(t.cols())),
    )
    .with_context(|| {
        format!(
            "the daylight matrix must be {}×{} (the columns of {t_spec} × the rows of {sky_name})",
            t.cols(),
            sky.rows()
        )
    })?;
    let v = load(&input(Some(v_spec))?, v_spec, &with(t.rows(), None)).with_context(|| {
        format!(
            "the view matrix must have as many columns as {t_spec} has rows ({})",
            t.rows()
        )
    })?;
    Ok(mx::chain(&[&v, &t, &d, &sky])?)
}

/// `-x`/`-y`: the result's shape for a picture-like layout, as dctimestep's alt_dim.
fn reshape(m: &mut Matrix, yres: usize, xres: usize) -> anyhow::Result<()> {
    let n = m.rows() * m.cols();
    let (rows, cols) = match (yres, xres) {
        (0, 0) => return Ok(()),
        (r, 0) => (r, n / r),
        (0, c) => (n / c, c),
        (r, c) => (r, c),
    };
    if rows * cols != n {
        bail!(
            "bad dimensions: {rows}×{cols} does not hold the {}×{} result",
            m.rows(),
            m.cols()
        );
    }
    m.reshape(rows, cols)?;
    Ok(())
}

/// Loads a matrix, printing RADIANCE's warnings.
fn load(bytes: &[u8], name: &str, opts: &ReadOptions) -> anyhow::Result<Matrix> {
    let Loaded {
        matrix, warnings, ..
    } = mx::read_matrix(bytes, name, opts)?;
    for w in warnings {
        eprintln!("dctimestep: warning: {w}");
    }
    Ok(matrix)
}

/// The bytes of a file, of a `!command`'s output, or of standard input (`None`).
fn input(spec: Option<&str>) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match spec {
        None => {
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
        }
        Some(cmd) if cmd.starts_with('!') => {
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&cmd[1..])
                .stderr(std::process::Stdio::inherit())
                .output()
                .with_context(|| format!("cannot start command '{cmd}'"))?;
            if !out.status.success() {
                eprintln!("dctimestep: warning: error running command '{cmd}'");
            }
            bytes = out.stdout;
        }
        Some(path) => {
            bytes = std::fs::read(path).with_context(|| format!("cannot open file '{path}'"))?;
        }
    }
    Ok(bytes)
}

/// Picture specifications (`%d` in the name: one picture per sky patch) are not supported.
fn check_picture_spec(spec: &str) -> anyhow::Result<()> {
    if has_number_format(spec) {
        bail!("{spec}: summing pictures (a %d specification) is not supported yet");
    }
    Ok(())
}

/// Whether `s` holds a `%d`-like conversion (`%%` does not count), as dctimestep checks.
fn has_number_format(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if b.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if matches!(b.get(i), Some(b'd' | b'i' | b'o' | b'x' | b'X')) {
            return true;
        }
    }
    false
}

/// Parses dctimestep's options in order; the operands follow the first word that is not an
/// option.
fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut req = Request {
        header: true,
        nsteps: None,
        sky_format: None,
        out_format: Format::Ascii,
        output: None,
        xres: 0,
        yres: 0,
        operands: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let value = |what: &str| -> anyhow::Result<&String> {
            args.get(i + 1)
                .with_context(|| format!("option {a} needs {what}\n{USAGE}"))
        };
        let count = |what: &str| -> anyhow::Result<usize> {
            let w = value(what)?;
            w.parse()
                .with_context(|| format!("option {a}: expected {what}, found '{w}'"))
        };
        match a {
            // A toggle, as in RADIANCE.
            "-h" => req.header = !req.header,
            "-n" => {
                let n = count("a whole number of time steps")?;
                req.nsteps = (n > 0).then_some(n);
                req.sky_format = req.nsteps.map(|_| Format::Ascii);
                i += 1;
            }
            "-ia" => req.sky_format = Some(Format::Ascii),
            "-if" => req.sky_format = Some(Format::Float),
            "-id" => req.sky_format = Some(Format::Double),
            "-oa" => req.out_format = Format::Ascii,
            "-of" => req.out_format = Format::Float,
            "-od" => req.out_format = Format::Double,
            "-oc" => bail!("option -oc (RGBE picture output) is not supported yet"),
            "-o" => {
                let spec = value("an output file")?;
                if has_number_format(spec) {
                    bail!("option -o {spec}: one file per time step is not supported yet");
                }
                req.output = Some(PathBuf::from(spec));
                i += 1;
            }
            "-x" => {
                req.xres = count("a whole number")?;
                i += 1;
            }
            "-y" => {
                req.yres = count("a whole number")?;
                i += 1;
            }
            _ => bail!("unknown option {a}\n{USAGE}"),
        }
        i += 1;
    }
    req.operands = args[i..].to_vec();
    if req.operands.is_empty() || req.operands.len() > 4 {
        bail!(
            "expected DCspec [skyfile] or Vspec Tspec Dspec [skyfile], found {} operands\n{USAGE}",
            req.operands.len()
        );
    }
    Ok(req)
}

/// Small builder for the options of a header-only load.
trait WithNcomp {
    fn with_ncomp(self, n: usize) -> Self;
}

impl WithNcomp for ReadOptions {
    fn with_ncomp(mut self, n: usize) -> Self {
        self.ncomp = Some(n);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert!(has_number_format("img%03d.hdr"));
        assert!(!has_number_format("100%%.mtx"));
        assert!(!has_number_format("dc.mtx"));
        assert!(!has_number_format("50%"));
    }

    #[test]
    fn options() {
        let args: Vec<String> = ["-h", "-of", "-n", "4", "dc.mtx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = parse(&args).unwrap();
        assert!(!r.header);
        assert_eq!(r.out_format, Format::Float);
        assert_eq!(r.nsteps, Some(4));
        assert_eq!(r.operands, vec!["dc.mtx"]);
        assert!(parse(&["-q".to_string(), "x".to_string()]).is_err());
        assert!(parse(&[]).is_err());
    }
}
