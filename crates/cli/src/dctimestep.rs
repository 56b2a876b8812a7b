//! `daylit dctimestep` (and `dctimestep`): results of the daylight-coefficient method,
//! a daylight-coefficient matrix times a sky matrix (2-phase), or `V T D` times a sky matrix
//! (3-phase), as RADIANCE's dctimestep computes and writes them: one result matrix, one file
//! per time step (`-o name%d`), pictures (`-oc`), or sums of component pictures when the
//! first operand names pictures (`view%03d.hdr`, one per sky patch or window bin).

use anyhow::{bail, Context};
use daylit_matrix::timestep::{self, frame_name, per_step, PictureSum, ResultKind};
use daylit_matrix::{self as mx, Format, Loaded, Matrix, ReadOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// Arguments of `daylit dctimestep`, written as RADIANCE's dctimestep takes them.
#[derive(clap::Args)]
pub struct Args {
    /// dctimestep options and operands: `[-h] [-n nsteps] [-i{f|d|a}] [-o{f|d|a|c}] [-o spec]
    /// [-x xres] [-y yres] DCspec [skyfile]` or `... Vspec Tspec Dspec [skyfile]`; the sky
    /// matrix is read from standard input when no file is given.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

const USAGE: &str = "usage: dctimestep [-h][-n nsteps][-i{f|d|a}][-o{f|d|a|c}][-o ospec][-x xres][-y yres] DCspec [skyf]\n   \
or: dctimestep [-h][-n nsteps][-i{f|d|a}][-o{f|d|a|c}][-o ospec][-x xres][-y yres] Vspec Tspec Dspec [skyf]";

/// One invocation.
struct Request {
    header: bool,
    nsteps: Option<usize>,
    sky_format: Option<Format>,
    out: ResultKind,
    /// `-o`: one file, or one per time step when it holds a `%d`.
    output: Option<String>,
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
    let command = daylit_radfile::header::command_line("dctimestep", args);
    if timestep::has_number_format(&req.operands[0]) {
        sum_pictures(&req, &command)?;
        return Ok(ExitCode::SUCCESS);
    }
    let result = compute(&req)?;
    match req.output.as_deref().filter(|o| per_step(o, &result)) {
        Some(spec) => {
            // One file per time step, each holding that step's column.
            for step in 0..result.cols() {
                let mut column = timestep::column_of(&result, step)?;
                timestep::reshape(&mut column, req.yres, req.xres).map_err(anyhow::Error::msg)?;
                let frame = format!("FRAME={step}");
                emit(Some(frame_name(spec, step)), |out| {
                    results(&req, &command, Some(&frame), &column, out)
                })?;
            }
        }
        None => {
            let mut result = result;
            timestep::reshape(&mut result, req.yres, req.xres).map_err(anyhow::Error::msg)?;
            emit(req.output.as_deref().map(|o| frame_name(o, 0)), |out| {
                results(&req, &command, None, &result, out)
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A result (the whole matrix or one time step's column) as dctimestep writes it: a header
/// (unless `-h`) with `FRAME=` for one of several files, then the values or the picture.
fn results(
    req: &Request,
    command: &str,
    frame: Option<&str>,
    m: &Matrix,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut lines = vec![command.to_string()];
    lines.extend(daylit_radfile::header::date_lines());
    lines.extend(frame.map(String::from));
    timestep::write_result(req.out, req.header, &lines, m, out)
}

/// Writes through `write` to the file `path` (atomically) or to standard output (a reader
/// that stops early is not an error).
fn emit(
    path: Option<String>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    match path {
        Some(p) => crate::output::write_atomic_with(Path::new(&p), write),
        None => match write(&mut std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(e).context("while writing to standard output")
            }
            _ => Ok(()),
        },
    }
}

/// The first operand names component pictures (`%d`: one per row of the coefficients): each
/// time step's picture is their sum weighted by that step's coefficients.
fn sum_pictures(req: &Request, command: &str) -> anyhow::Result<()> {
    if req.out != ResultKind::Picture {
        eprintln!("dctimestep: warning - changing output type to -oc");
    }
    let coefs = coefficients(req)?;
    let spec = &req.operands[0];
    let mut lines = vec![command.to_string()];
    lines.extend(daylit_radfile::header::date_lines());
    let mut summer = PictureSum::default();
    if let Some(ospec) = req.output.as_deref().filter(|o| per_step(o, &coefs)) {
        for step in 0..coefs.cols() {
            let mut head = lines.clone();
            head.push(format!("FRAME={step}"));
            let mut bytes = timestep::picture_header(&head).into_bytes();
            summer
                .sum(spec, &timestep::column_of(&coefs, step)?)
                .map_err(anyhow::Error::msg)?
                .encode_pixels(true, &mut bytes);
            crate::output::write_atomic(Path::new(&frame_name(ospec, step)), &bytes)?;
        }
        return Ok(());
    }
    // One stream: the header, then each frame's FORMAT= line and picture (after a FRAME=
    // line when there are several), as dctimestep writes them, each frame as it is summed.
    emit(req.output.as_deref().map(|o| frame_name(o, 0)), |out| {
        out.write_all(daylit_radfile::header::header_start(&lines).as_bytes())?;
        for step in 0..coefs.cols() {
            let mut bytes = Vec::new();
            if coefs.cols() > 1 {
                bytes.extend_from_slice(format!("FRAME={step}\n").as_bytes());
            }
            bytes.extend_from_slice(b"FORMAT=32-bit_rle_rgbe\n\n");
            timestep::column_of(&coefs, step)
                .map_err(|e| e.to_string())
                .and_then(|c| summer.sum(spec, &c))
                .map_err(std::io::Error::other)?
                .encode_pixels(true, &mut bytes);
            out.write_all(&bytes)?;
        }
        Ok(())
    })
}

/// Loads the operands and multiplies them, in dctimestep's order: the sky first, so that its
/// rows size the matrix before it.
fn compute(req: &Request) -> anyhow::Result<Matrix> {
    let ops = &req.operands;
    if ops.len() <= 2 {
        let dc_spec = &ops[0];
        let (sky_bytes, sky_name) = sky_input(req)?;
        let dc_bytes = input(Some(dc_spec))?;
        // Header-less sky without -n: its rows are the columns of the matrix before it.
        let (dc, sky) = if req.nsteps.is_none()
            && mx::is_headerless(&sky_bytes)
            && !mx::is_headerless(&dc_bytes)
        {
            let dc = load(&dc_bytes, dc_spec, &ReadOptions::default().with_ncomp(3))?;
            let sky_opts = ReadOptions {
                rows: Some(dc.cols()),
                ..sky_options(req)
            };
            (dc, load(&sky_bytes, sky_name, &sky_opts)?)
        } else {
            let sky = load(&sky_bytes, sky_name, &sky_options(req))?;
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
    let (t, d, sky) = transmission_daylight_sky(req)?;
    let (v_spec, t_spec) = (&ops[0], &ops[1]);
    let v = load(&input(Some(v_spec))?, v_spec, &with(t.rows(), None)).with_context(|| {
        format!(
            "the view matrix must have as many columns as {t_spec} has rows ({})",
            t.rows()
        )
    })?;
    Ok(mx::chain(&[&v, &t, &d, &sky])?)
}

/// The coefficients of the component pictures: the sky matrix (2-phase), or `T (D s)`
/// (3-phase), multiplied in dctimestep's order.
fn coefficients(req: &Request) -> anyhow::Result<Matrix> {
    if req.operands.len() <= 2 {
        let (bytes, name) = sky_input(req)?;
        return load(&bytes, name, &sky_options(req));
    }
    let (t, d, sky) = transmission_daylight_sky(req)?;
    Ok(mx::multiply(&t, &mx::multiply(&d, &sky)?)?)
}

/// The bytes and name of the sky operand (standard input when there is none).
fn sky_input(req: &Request) -> anyhow::Result<(Vec<u8>, &str)> {
    let ops = &req.operands;
    let spec = ops.get(if ops.len() > 2 { 3 } else { 1 });
    Ok((
        input(spec.map(String::as_str))?,
        spec.map_or("standard input", |s| s.as_str()),
    ))
}

/// How the sky is read: `-n` and `-i` as given.
fn sky_options(req: &Request) -> ReadOptions {
    timestep::sky_read_options(req.nsteps, req.sky_format)
}

/// Options for a 3-component matrix of `cols` columns (and `rows` rows when known).
fn with(cols: usize, rows: Option<usize>) -> ReadOptions {
    ReadOptions {
        rows,
        cols: Some(cols),
        ncomp: Some(3),
        ..ReadOptions::default()
    }
}

/// The T, D and sky operands of the 3-phase form, sizes checked.
fn transmission_daylight_sky(req: &Request) -> anyhow::Result<(Matrix, Matrix, Matrix)> {
    let (t_spec, d_spec) = (&req.operands[1], &req.operands[2]);
    let (sky_bytes, sky_name) = sky_input(req)?;
    let sky = load(&sky_bytes, sky_name, &sky_options(req))?;
    // A BSDF XML file gives its transmission matrix, as RADIANCE's cm_loadBTDF makes it.
    let t = if crate::input::is_bsdf_xml(t_spec) {
        crate::input::bsdf_matrix("dctimestep", t_spec, daylit_bsdf::Which::Transmission)?
    } else {
        load(
            &input(Some(t_spec))?,
            t_spec,
            &ReadOptions::default().with_ncomp(3),
        )?
    };
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
    Ok((t, d, sky))
}

/// Loads a matrix, printing RADIANCE's warnings.
fn load(bytes: &[u8], name: &str, opts: &ReadOptions) -> anyhow::Result<Matrix> {
    load_as("dctimestep", bytes, name, opts)
}

/// Loads a matrix for program `prog` (dctimestep, dcglare), printing RADIANCE's warnings.
pub(crate) fn load_as(
    prog: &str,
    bytes: &[u8],
    name: &str,
    opts: &ReadOptions,
) -> anyhow::Result<Matrix> {
    let Loaded {
        matrix, warnings, ..
    } = mx::read_matrix(bytes, name, opts)?;
    for w in warnings {
        eprintln!("{prog}: warning: {w}");
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

/// Parses dctimestep's options in order; the operands follow the first word that is not an
/// option.
fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut req = Request {
        header: true,
        nsteps: None,
        sky_format: None,
        out: ResultKind::Matrix(Format::Ascii),
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
            "-oa" => req.out = ResultKind::Matrix(Format::Ascii),
            "-of" => req.out = ResultKind::Matrix(Format::Float),
            "-od" => req.out = ResultKind::Matrix(Format::Double),
            "-oc" => req.out = ResultKind::Picture,
            "-o" => {
                req.output = Some(value("an output specification")?.clone());
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
    fn options() {
        let args: Vec<String> = ["-h", "-of", "-n", "4", "dc.mtx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = parse(&args).unwrap();
        assert!(!r.header);
        assert!(r.out == ResultKind::Matrix(Format::Float));
        assert_eq!(r.nsteps, Some(4));
        assert_eq!(r.operands, vec!["dc.mtx"]);
        assert!(parse(&["-q".to_string(), "x".to_string()]).is_err());
        assert!(parse(&[]).is_err());
    }
}
