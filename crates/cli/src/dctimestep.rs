//! `daylit dctimestep` (and `dctimestep`): results of the daylight-coefficient method,
//! a daylight-coefficient matrix times a sky matrix (2-phase), or `V T D` times a sky matrix
//! (3-phase), as RADIANCE's dctimestep computes and writes them: one result matrix, one file
//! per time step (`-o name%d`), pictures (`-oc`), or sums of component pictures when the
//! first operand names pictures (`view%03d.hdr`, one per sky patch or window bin).

use anyhow::{bail, Context};
use daylit_image::HdrImage;
use daylit_matrix::{self as mx, Format, HeaderMode, Loaded, Matrix, ReadOptions};
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

/// What the results are written as: a matrix format (`-oa/-of/-od`) or RGBE pictures (`-oc`).
#[derive(Clone, Copy, PartialEq)]
enum Out {
    Matrix(Format),
    Picture,
}

/// One invocation.
struct Request {
    header: bool,
    nsteps: Option<usize>,
    sky_format: Option<Format>,
    out: Out,
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
    if has_number_format(&req.operands[0]) {
        sum_pictures(&req, &command)?;
        return Ok(ExitCode::SUCCESS);
    }
    let result = compute(&req)?;
    match req.output.as_deref().filter(|o| per_step(o, &result)) {
        Some(spec) => {
            // One file per time step, each holding that step's column.
            for step in 0..result.cols() {
                let mut column = column_of(&result, step)?;
                reshape(&mut column, req.yres, req.xres)?;
                let frame = format!("FRAME={step}");
                emit(Some(frame_name(spec, step)), |out| {
                    results(&req, &command, Some(&frame), &column, out)
                })?;
            }
        }
        None => {
            let mut result = result;
            reshape(&mut result, req.yres, req.xres)?;
            emit(req.output.as_deref().map(|o| frame_name(o, 0)), |out| {
                results(&req, &command, None, &result, out)
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `-o spec` makes one file per time step: it holds a `%d` and there are several
/// (with one, the name takes 0 and that file holds the result).
fn per_step(spec: &str, result: &Matrix) -> bool {
    has_number_format(spec) && result.cols() > 1
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
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
    match req.out {
        Out::Matrix(format) => {
            if req.header {
                mx::write_header(&mut out, &lines, m.rows(), m.cols(), m.ncomp(), format)?;
            }
            mx::write_body(m, format, &mut out)?;
        }
        Out::Picture => {
            if req.header {
                out.write_all(picture_header(&lines).as_bytes())?;
            }
            let picture = crate::rmtxop::to_picture(m, Vec::new())
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let mut bytes = Vec::new();
            picture.encode_pixels(true, &mut bytes);
            out.write_all(&bytes)?;
        }
    }
    out.flush()
}

/// A picture header without its resolution line: `#?RADIANCE`, `lines`, `FORMAT=`, blank.
fn picture_header(lines: &[String]) -> String {
    daylit_radfile::header::header_start(lines) + "FORMAT=32-bit_rle_rgbe\n\n"
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

/// Column `step` of `m`: one time step's results.
fn column_of(m: &Matrix, step: usize) -> anyhow::Result<Matrix> {
    let n = m.ncomp();
    let data = (0..m.rows())
        .flat_map(|r| m.get(r, step).iter().copied())
        .collect();
    Ok(Matrix::new(m.rows(), 1, n, data)?)
}

/// The first operand names component pictures (`%d`: one per row of the coefficients): each
/// time step's picture is their sum weighted by that step's coefficients.
fn sum_pictures(req: &Request, command: &str) -> anyhow::Result<()> {
    if req.out != Out::Picture {
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
            let mut bytes = picture_header(&head).into_bytes();
            summer
                .sum(spec, &column_of(&coefs, step)?)?
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
            column_of(&coefs, step)
                .and_then(|c| summer.sum(spec, &c))
                .map_err(|e| std::io::Error::other(format!("{e:#}")))?
                .encode_pixels(true, &mut bytes);
            out.write_all(&bytes)?;
        }
        Ok(())
    })
}

/// Sums of component pictures, in float as dctimestep sums them, alternating the order of
/// the components from one sum to the next (so a file read last stays cached for the next).
#[derive(Default)]
struct PictureSum {
    calls: usize,
}

impl PictureSum {
    /// The pictures `spec` (`%d` = row of `coefs`), weighted by the RGB coefficients of the
    /// one-column matrix `coefs` and summed. A picture whose coefficients are all zero is not
    /// read, unless no other is.
    fn sum(&mut self, spec: &str, coefs: &Matrix) -> anyhow::Result<HdrImage> {
        let n = coefs.rows();
        let backwards = self.calls % 2 == 1;
        self.calls += 1;
        let mut total: Option<HdrImage> = None;
        for k in 0..n {
            let r = if backwards { n - 1 - k } else { k };
            let c = coefs.get(r, 0);
            if c.iter().all(|&v| v == 0.0) && (total.is_some() || k + 1 < n) {
                continue;
            }
            let name = frame_name(spec, r);
            let pic = HdrImage::read(Path::new(&name))
                .map_err(|e| anyhow::anyhow!("cannot read component picture: {e}"))?;
            let acc = total.get_or_insert_with(|| HdrImage::new(pic.width, pic.height));
            if (pic.width, pic.height) != (acc.width, acc.height) {
                bail!(
                    "picture '{name}' is {}×{}, the first one read is {}×{}",
                    pic.width,
                    pic.height,
                    acc.width,
                    acc.height
                );
            }
            for (a, p) in acc.pixels.iter_mut().zip(&pic.pixels) {
                for i in 0..3 {
                    a[i] += p[i] * c[i];
                }
            }
        }
        total.context("no component pictures to sum (the coefficients have no rows)")
    }
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
    sky_read_options(req.nsteps, req.sky_format)
}

/// How dctimestep and dcglare read a sky matrix: `nsteps` columns (`-n`) and the `-i` format.
pub(crate) fn sky_read_options(nsteps: Option<usize>, format: Option<Format>) -> ReadOptions {
    ReadOptions {
        format,
        cols: nsteps,
        ncomp: Some(3),
        // `-n` announces header-less ASCII, unless a later -i asked for a binary format.
        header: if nsteps.is_some() && format == Some(Format::Ascii) {
            HeaderMode::Absent
        } else {
            HeaderMode::Auto
        },
        ..ReadOptions::default()
    }
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

/// `spec` with its first `%d`-like conversion (flags and width as printf takes them) replaced
/// by `n`, and `%%` by `%`: the name of picture or time step `n`.
pub(crate) fn frame_name(spec: &str, n: usize) -> String {
    let mut out = String::new();
    let mut rest = spec;
    let mut done = false;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p]);
        let tail = &rest[p + 1..];
        if let Some(after) = tail.strip_prefix('%') {
            out.push('%');
            rest = after;
            continue;
        }
        let flags = tail
            .find(|c: char| !"-+ #0".contains(c))
            .unwrap_or(tail.len());
        let width_end = flags
            + tail[flags..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(tail.len() - flags);
        let conv = tail[width_end..].chars().next();
        match conv {
            Some(c @ ('d' | 'i' | 'o' | 'x' | 'X')) if !done => {
                let digits = match c {
                    'o' => format!("{n:o}"),
                    'x' => format!("{n:x}"),
                    'X' => format!("{n:X}"),
                    _ => n.to_string(),
                };
                out += &daylit_radfile::printf::pad(digits, &tail[..width_end], true);
                done = true;
                rest = &tail[width_end + 1..];
            }
            _ => {
                out.push('%');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Parses dctimestep's options in order; the operands follow the first word that is not an
/// option.
fn parse(args: &[String]) -> anyhow::Result<Request> {
    let mut req = Request {
        header: true,
        nsteps: None,
        sky_format: None,
        out: Out::Matrix(Format::Ascii),
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
            "-oa" => req.out = Out::Matrix(Format::Ascii),
            "-of" => req.out = Out::Matrix(Format::Float),
            "-od" => req.out = Out::Matrix(Format::Double),
            "-oc" => req.out = Out::Picture,
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
    fn number_formats() {
        assert!(has_number_format("img%03d.hdr"));
        assert!(!has_number_format("100%%.mtx"));
        assert!(!has_number_format("dc.mtx"));
        assert!(!has_number_format("50%"));
    }

    #[test]
    fn frame_names_follow_printf() {
        assert_eq!(frame_name("img%03d.hdr", 7), "img007.hdr");
        assert_eq!(frame_name("a%d_%%_%d", 12), "a12_%_%d");
        assert_eq!(frame_name("[%-4d][%4i]", 5), "[5   ][%4i]");
        assert_eq!(frame_name("%x.%o", 255), "ff.%o");
        assert_eq!(frame_name("plain.mtx", 3), "plain.mtx");
    }

    #[test]
    fn options() {
        let args: Vec<String> = ["-h", "-of", "-n", "4", "dc.mtx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = parse(&args).unwrap();
        assert!(!r.header);
        assert!(r.out == Out::Matrix(Format::Float));
        assert_eq!(r.nsteps, Some(4));
        assert_eq!(r.operands, vec!["dc.mtx"]);
        assert!(parse(&["-q".to_string(), "x".to_string()]).is_err());
        assert!(parse(&[]).is_err());
    }
}
