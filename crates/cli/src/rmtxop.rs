//! `rmtxop`: RADIANCE's matrix operations with RADIANCE's arguments. Matrices (files, `-`
//! for standard input, `!command`) are joined left to right by concatenation (`.`, the
//! default), element-wise sum (`+`), product (`*`) or quotient (`/`); `-t`, `-c` (numbers or
//! R G B X Y Z A) and `-s` before a matrix change it before it is used, after the last one
//! they change the result. A chain of concatenations only is evaluated from the right when
//! RADIANCE would (fewer operations: a column vector last, for instance), since the order
//! changes the last bits. RGBE pictures are read as matrices (a row per scanline from the
//! top, the exposure undone). The result goes to standard output in the lowest type among the
//! inputs (picture < float < ascii < double; double written as float, as RADIANCE keeps
//! floats) or as `-f{a|f|d|c}` says (`-fc`: a picture of one or three components). A file
//! named `*.xml` is a Klems BSDF: its transmission matrix, or with `-rf`/`-rb` before it its
//! front/back reflection matrix, as RADIANCE makes them (ascii).

use anyhow::{bail, Context};
use daylit_matrix::{self as mx, ops, Format, HeaderMode, Matrix, ReadOptions};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str =
    "usage: rmtxop [-v][-f{adf}][-t][-s sf .. | -c ce ..|-c RGBXYZA][-rf|-rb] m1 [.+*/] .. > mres";

/// Changes applied to a matrix as it is loaded (or to the result).
#[derive(Default)]
struct PreOp {
    transpose: bool,
    scale: Vec<f64>,
    numbers: Vec<f64>,
    symbols: Option<String>,
    /// The matrix of a BSDF XML operand (`-rf`, `-rb`; transmission by default).
    bsdf: Option<daylit_bsdf::Which>,
}

/// One matrix of the command line and the operation joining it to the next.
struct Operand {
    spec: String,
    pre: PreOp,
    op: Option<u8>,
}

/// Data types, in RADIANCE's order for choosing the output: the lowest among the inputs
/// (a picture only with pictures).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum DataType {
    Picture,
    Float,
    Ascii,
    Double,
}

impl DataType {
    fn of(f: Format) -> DataType {
        match f {
            Format::Float => DataType::Float,
            Format::Ascii => DataType::Ascii,
            Format::Double => DataType::Double,
        }
    }

    /// The type of a result of two operands; a picture with a matrix is a mismatch.
    fn combine(a: DataType, b: DataType) -> Option<DataType> {
        if (a == DataType::Picture) != (b == DataType::Picture) {
            None
        } else {
            Some(a.min(b))
        }
    }
}

/// A loaded, transformed operand with its data type.
struct Loaded {
    m: Matrix,
    format: DataType,
}

/// RADIANCE's `isflt`: a whole word that is a number.
fn is_number(w: &str) -> bool {
    let t = w.trim();
    !t.is_empty() && t.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `rmtxop` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut operands: Vec<Operand> = Vec::new();
    let mut pending = PreOp::default();
    let mut default_symbols: Option<String> = None;
    let mut out_format: Option<DataType> = None;
    let mut verbose = false;
    let mut stdin_used = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let b = a.as_bytes();
        if b.len() == 1 && b".+*/".contains(&b[0]) {
            match operands.last_mut() {
                Some(o) if o.op.is_none() => o.op = Some(b[0]),
                _ => bail!("rmtxop: missing matrix argument before '{a}' operation"),
            }
        } else if !a.starts_with('-') || a == "-" {
            if a == "-" && std::mem::replace(&mut stdin_used, true) {
                bail!("rmtxop: standard input used for more than one matrix");
            }
            if let Some(last) = operands.last_mut() {
                last.op.get_or_insert(b'.');
            }
            let mut pre = std::mem::take(&mut pending);
            if pre.symbols.is_none() && pre.numbers.is_empty() {
                pre.symbols = default_symbols.clone();
            }
            operands.push(Operand {
                spec: a.to_string(),
                pre,
                op: None,
            });
        } else {
            let numbers = |from: usize| -> Vec<f64> {
                args[from..]
                    .iter()
                    .take_while(|w| is_number(w))
                    .map(|w| w.trim().parse().unwrap_or(0.0))
                    .collect()
            };
            match b[1] {
                b'v' => verbose = true,
                b'f' => {
                    out_format = Some(match b.get(2) {
                        Some(b'a') => DataType::Ascii,
                        Some(b'f') => DataType::Float,
                        Some(b'd') => DataType::Double,
                        Some(b'c') => DataType::Picture,
                        _ => bail!("rmtxop: bad output format {a} ({USAGE})"),
                    })
                }
                b't' => pending.transpose = true,
                b's' => {
                    pending.scale = numbers(i + 1);
                    if pending.scale.is_empty() {
                        bail!("rmtxop: -s missing arguments ({USAGE})");
                    }
                    i += pending.scale.len();
                }
                b'c' | b'C' => match args.get(i + 1) {
                    Some(w) if !is_number(w) => {
                        pending.symbols = Some(w.clone());
                        pending.numbers.clear();
                        if b[1] == b'C' {
                            default_symbols = Some(w.clone());
                        }
                        i += 1;
                    }
                    _ if b[1] == b'C' => bail!("rmtxop: -C needs colour symbols ({USAGE})"),
                    _ => {
                        pending.numbers = numbers(i + 1);
                        if pending.numbers.is_empty() {
                            bail!("rmtxop: -c missing arguments ({USAGE})");
                        }
                        pending.symbols = None;
                        i += pending.numbers.len();
                    }
                },
                b'r' => {
                    pending.bsdf = Some(match b.get(2) {
                        Some(b'f') => daylit_bsdf::Which::ReflectionFront,
                        Some(b'b') => daylit_bsdf::Which::ReflectionBack,
                        _ => bail!("rmtxop: bad reflection option {a} ({USAGE})"),
                    })
                }
                _ => bail!("rmtxop: unknown operation '{a}' ({USAGE})"),
            }
        }
        i += 1;
    }
    let Some(last) = operands.last() else {
        bail!("rmtxop: no matrix given ({USAGE})");
    };
    if let Some(op) = last.op {
        bail!(
            "rmtxop: missing matrix argument after '{}' operation",
            op as char
        );
    }
    let mut loaded = Vec::with_capacity(operands.len());
    for o in &operands {
        let which = o.pre.bsdf.unwrap_or(daylit_bsdf::Which::Transmission);
        let mut l = if crate::input::is_bsdf_xml(&o.spec) {
            Loaded {
                m: crate::input::bsdf_matrix("rmtxop", &o.spec, which)?,
                format: DataType::Ascii,
            }
        } else {
            load(&o.spec)?
        };
        apply(&mut l.m, &o.pre, &o.spec, verbose)?;
        loaded.push(l);
    }
    let ops: Vec<u8> = operands.iter().filter_map(|o| o.op).collect();
    let mut result = evaluate(loaded, &ops, &operands, verbose)?;
    apply(&mut result.m, &pending, "trailing_ops", verbose)?;
    let m = &result.m;
    let mut lines = vec![daylit_radfile::header::command_line("rmtxop", args)];
    lines.extend(m.header_lines.iter().cloned());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Doubles are written as floats unless asked for: RADIANCE computes in float.
    let written = match out_format.unwrap_or(result.format) {
        DataType::Picture => {
            // As rmtxop writes pictures: flat pixels, RADIANCE's padded resolution line.
            out.write_all(&to_picture(m, lines)?.encode(true))
        }
        t => {
            let format = match t {
                DataType::Ascii => Format::Ascii,
                DataType::Double if out_format.is_some() => {
                    eprintln!("rmtxop: warning - writing float result as double");
                    Format::Double
                }
                _ => Format::Float,
            };
            let pad = crate::output::stdout_is_file();
            mx::write_header_aligned(&mut out, &lines, m.rows(), m.cols(), m.ncomp(), format, pad)
                .and_then(|_| match format {
                    Format::Ascii => mx::write_body_rmtxop(m, &mut out),
                    f => mx::write_body(m, f, &mut out),
                })
        }
    }
    .and_then(|_| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("rmtxop"),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Reads one operand: a file, `-` (standard input) or `!command` (its output).
fn load(spec: &str) -> anyhow::Result<Loaded> {
    let (name, bytes) = crate::input::read_operand("rmtxop", spec)?;
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    if text.trim_start().starts_with("<?xml") {
        bail!("rmtxop: {name}: XML is read as a BSDF only from a file named *.xml");
    }
    if text.contains("FORMAT=32-bit_rle_rgbe") {
        return from_picture(&bytes, &name);
    }
    if text.contains("FORMAT=32-bit_rle_") {
        bail!("rmtxop: {name}: only RGBE pictures are read by daylit's rmtxop");
    }
    let opts = ReadOptions {
        header: HeaderMode::Required,
        ..ReadOptions::default()
    };
    let l = mx::read_matrix(&bytes, &name, &opts).map_err(|e| anyhow::anyhow!("rmtxop: {e}"))?;
    for w in &l.warnings {
        eprintln!("rmtxop: warning - {w}");
    }
    Ok(Loaded {
        m: l.matrix,
        format: DataType::of(l.format),
    })
}

/// A picture as a matrix: a row per scanline from the top, RGB, its exposure undone (as a
/// scale, noted in the header as RADIANCE notes it).
fn from_picture(bytes: &[u8], name: &str) -> anyhow::Result<Loaded> {
    let img =
        daylit_image::HdrImage::decode(bytes, name).map_err(|e| anyhow::anyhow!("rmtxop: {e}"))?;
    let data = img.pixels.iter().flatten().copied().collect();
    let mut m = Matrix::new(img.height, img.width, 3, data)
        .map_err(|e| anyhow::anyhow!("rmtxop: {name}: {e}"))?;
    m.header_lines = img
        .header
        .iter()
        .filter(|l| {
            !l.trim_start().starts_with("EXPOSURE=") && !l.trim_start().starts_with("COLORCORR=")
        })
        .cloned()
        .collect();
    if img.exposure != 1.0 {
        ops::scale(&mut m, &[1.0 / img.exposure])
            .map_err(|e| anyhow::anyhow!("rmtxop: {name}: {e}"))?;
    }
    Ok(Loaded {
        m,
        format: DataType::Picture,
    })
}

/// A matrix of one (grey) or three (RGB) components as a picture, rows from the top.
pub(crate) fn to_picture(
    m: &Matrix,
    header: Vec<String>,
) -> anyhow::Result<daylit_image::HdrImage> {
    daylit_matrix::timestep::to_picture(m, header).map_err(|e| anyhow::anyhow!("rmtxop: {e}"))
}

/// The changes of `pre`, in rmtxop's order: transform (with the scale folded in), else
/// scale; then transpose.
fn apply(m: &mut Matrix, pre: &PreOp, name: &str, verbose: bool) -> anyhow::Result<()> {
    let fail = |e: mx::MatrixError| anyhow::anyhow!("rmtxop: {name}: {e}");
    let mut coefs = match &pre.symbols {
        Some(s) => ops::symbolic_transform(s, m.ncomp()).map_err(fail)?,
        None => pre.numbers.clone(),
    };
    let n = m.ncomp();
    if !coefs.is_empty() {
        if !coefs.len().is_multiple_of(n) {
            bail!("rmtxop: {name}: -c must have N x {n} coefficients");
        }
        match pre.scale.len() {
            0 => {}
            1 => coefs.iter_mut().for_each(|c| *c *= pre.scale[0]),
            k if k * n == coefs.len() => {
                for (row, s) in coefs.chunks_exact_mut(n).zip(&pre.scale) {
                    row.iter_mut().for_each(|c| *c *= s);
                }
            }
            _ => bail!(
                "rmtxop: {name}: -s must have one or {} factors",
                coefs.len() / n
            ),
        }
        *m = ops::transform(m, &coefs).map_err(fail)?;
        if verbose {
            eprintln!("{name}: applied {} x {n} transform", m.ncomp());
        }
    } else if !pre.scale.is_empty() {
        ops::scale(m, &pre.scale).map_err(fail)?;
        if verbose {
            eprintln!("{name}: applied scalar {:?}", pre.scale);
        }
    }
    if pre.transpose {
        *m = ops::transpose(m);
        if verbose {
            eprintln!("{name}: transposed rows and columns");
        }
    }
    Ok(())
}

/// Whether RADIANCE concatenates from the right: only concatenations, three matrices or
/// more, and the last one narrow (a column, or fewer columns than the first has rows).
fn right_to_left(mats: &[Loaded], ops: &[u8]) -> bool {
    if mats.len() < 3 || ops.iter().any(|&o| o != b'.') {
        return false;
    }
    let (first, last) = (&mats[0].m, &mats[mats.len() - 1].m);
    last.cols() == 1 || (last.cols() < last.rows() && last.cols() < first.rows())
}

fn evaluate(
    mut mats: Vec<Loaded>,
    ops: &[u8],
    operands: &[Operand],
    verbose: bool,
) -> anyhow::Result<Loaded> {
    let reverse = right_to_left(&mats, ops);
    let mut names: Vec<&str> = operands.iter().map(|o| o.spec.as_str()).collect();
    if reverse {
        mats.reverse();
        names.reverse();
    }
    let mut it = mats.into_iter().zip(names);
    let (mut acc, _) = it.next().expect("at least one matrix");
    for (k, (next, name)) in it.enumerate() {
        let op = if reverse { b'.' } else { ops[k] };
        let (left, right) = if reverse { (next, acc) } else { (acc, next) };
        acc = binary(left, op, right, name, verbose)?;
    }
    Ok(acc)
}

/// One operation; `name` is the right operand's (the one RADIANCE names in errors).
fn binary(
    mut left: Loaded,
    op: u8,
    right: Loaded,
    name: &str,
    verbose: bool,
) -> anyhow::Result<Loaded> {
    let fail = |e: mx::MatrixError| anyhow::anyhow!("rmtxop: {name}: {e}");
    // A picture with a matrix: RADIANCE notes it on the result and computes in float.
    let format = DataType::combine(left.format, right.format);
    let mismatch = "WARNING: data type mismatch";
    if format.is_none() && op != b'.' {
        left.m.header_lines.push(mismatch.into());
    }
    let m = match op {
        b'.' => {
            let mut m = mx::multiply(&left.m, &right.m).map_err(fail)?;
            if format.is_none() {
                m.header_lines.push(mismatch.into());
            }
            if verbose {
                eprintln!("{name}: concatenated matrix");
            }
            m
        }
        b'+' => {
            ops::add(&mut left.m, &right.m).map_err(fail)?;
            if verbose {
                eprintln!("{name}: added in matrix");
            }
            left.m
        }
        _ => {
            let divide = op == b'/';
            let zeros = ops::elementwise(&mut left.m, &right.m, divide).map_err(fail)?;
            if zeros > 0 {
                eprintln!("rmtxop: {name}: warning - error during element-wise division");
                left.m
                    .header_lines
                    .push("WARNING: zero divide(s) corrupted results".into());
            }
            if verbose {
                let what = if divide { "division" } else { "multiplication" };
                eprintln!("{name}: element-wise {what}");
            }
            left.m
        }
    };
    Ok(Loaded {
        m,
        format: format.unwrap_or(DataType::Float),
    })
}
