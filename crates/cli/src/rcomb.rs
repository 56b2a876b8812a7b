//! `rcomb`: RADIANCE's row-by-row matrix combiner with RADIANCE's arguments. Inputs
//! (matrices in ascii, float or double; RGBE or XYZE pictures; files, `-`, `!command`) are
//! each changed by the `-c`/`-C` transform and `-s` factors before them
//! (`daylit_matrix::combine`), then summed, or combined by `co` / `co(p)` (or `ro`, `go`,
//! `bo`) of calcomp definitions (`-e`, `-f`) that see `ci(i[,p])`, `ri(i)`, `gi(i)`, `bi(i)`,
//! `r`, `c`, `nfiles`, `nrows`, `ncols`, `ncomp`, `R`, `G`, `B`, `wl(p)` and `PI`. A `-c`/`-s`
//! after the last input changes the result; `-m[t] mcat` multiplies it by a matrix, before or
//! after those trailing changes as their order on the line says. The output (lowest input
//! type, or `-f{a|f|d|c}`) gets rcomb's header: each input's information lines under its name
//! (not with `-h`), the command line and the date.
//!
//! Matrices are read a row at a time (`daylit_matrix::rows`) and the result written as it
//! comes, held back for its first 16 MiB so that a run failing early writes nothing; pictures
//! and the `-m` matrix are read whole. `-n` is accepted and runs one process (RADIANCE's
//! children give the same rows in the same order). Spectral pictures and spectral colour
//! conversions are refused by name, and an input's `WLSPLIT=` is not read (`wl(p)` uses
//! RADIANCE's default 380–780 nm bands). Matrix exposures are undone as the matrix reader
//! undoes them (beyond 1 %); picture exposures as rcomb does (beyond 2.5 %, through the scale
//! factors).

use anyhow::{anyhow, bail, Context};
use daylit_cal::RayPath;
use daylit_matrix::combine::{self, Combiner, DataType, Definition, ElementOp, Resolved};
use daylit_matrix::rows::RowReader;
use daylit_matrix::{self as mx, Matrix};
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

const USAGE: &str =
    "Usage: rcomb [-h][-f{adfc}][-n nproc][-e expr][-f file][-s sf .. | -c ce ..] m1 .. -m mcat > mres";

/// One input as given: its specification and the changes before it.
struct InputSpec {
    spec: String,
    op: ElementOp,
}

/// An input opened, its header read and its change resolved.
struct Input {
    /// Name in headers and errors (`<stdin>` for `-`).
    name: String,
    rows: Rows,
    /// The change of each row.
    op: Resolved,
    /// Elements per row.
    cols: usize,
    /// Information lines of its header.
    info: Vec<String>,
}

/// Where an input's rows come from: a matrix read row by row, or a picture read whole.
enum Rows {
    Stream(RowReader<Box<dyn BufRead>>),
    Whole { m: Matrix, next: usize },
}

impl Rows {
    /// Components of the stored values.
    fn ncomp(&self) -> usize {
        match self {
            Rows::Stream(r) => r.ncomp,
            Rows::Whole { m, .. } => m.ncomp(),
        }
    }

    /// The next row as stored, or `None` at the end.
    fn next(&mut self) -> anyhow::Result<Option<Vec<f32>>> {
        match self {
            Rows::Stream(r) => {
                let mut row = vec![0.0f32; r.row_len()];
                let more = r.read_row(&mut row).map_err(|e| anyhow!("rcomb: {e}"))?;
                Ok(more.then_some(row))
            }
            Rows::Whole { m, next } => {
                if *next >= m.rows() {
                    return Ok(None);
                }
                let n = m.cols() * m.ncomp();
                let row = m.data()[*next * n..(*next + 1) * n].to_vec();
                *next += 1;
                Ok(Some(row))
            }
        }
    }
}

/// An input opened: its rows, what its header said.
struct Opened {
    name: String,
    rows: Rows,
    /// Rows the header gave (`None`: not given).
    nrows: Option<usize>,
    cols: usize,
    dtype: DataType,
    info: Vec<String>,
    exposure: [f64; 3],
}

/// RADIANCE's `isflt`: a whole word that is a number.
fn is_number(w: &str) -> bool {
    let t = w.trim();
    !t.is_empty() && t.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `rcomb` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let usage = || anyhow!("rcomb: bad arguments\n{USAGE}");
    let mut inputs: Vec<InputSpec> = Vec::new();
    let mut pending = ElementOp::default();
    let mut default_symbols: Option<String> = None;
    let mut out_format: Option<DataType> = None;
    let mut echo_header = true;
    let mut warnings = true;
    let mut stdin_used = false;
    let mut program: Vec<Definition> = Vec::new();
    let mut mcat_spec: Option<String> = None;
    let mut transpose_mcat = false;
    let mut mcat_last = false;
    let numbers = |from: usize, max: usize| -> Vec<f64> {
        args[from.min(args.len())..]
            .iter()
            .take(max)
            .take_while(|w| is_number(w))
            .map(|w| daylit_radfile::scan::atof(w))
            .collect()
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let b = a.as_bytes();
        let n = args.len() - 1 - i;
        if !a.starts_with('-') || a == "-" {
            if a == "-" && std::mem::replace(&mut stdin_used, true) {
                bail!("rcomb: <stdin> used for more than one input");
            }
            let mut op = std::mem::take(&mut pending);
            if op.symbols.is_none() {
                op.symbols.clone_from(&default_symbols);
            }
            inputs.push(InputSpec {
                spec: a.to_string(),
                op,
            });
            i += 1;
            continue;
        }
        match b[1] {
            b'h' => echo_header = !echo_header,
            b'w' => warnings = !warnings,
            b'n' => {
                let np = args.get(i + 1).map_or(0, |w| daylit_radfile::scan::atoi(w));
                if np <= 0 {
                    return Err(usage());
                }
                i += 1;
            }
            b'e' => {
                if n == 0 {
                    return Err(usage());
                }
                program.push(Definition::Expression(args[i + 1].clone()));
                i += 1;
            }
            b'f' => match b.get(2) {
                None => {
                    if n == 0 {
                        return Err(usage());
                    }
                    program.push(Definition::File(args[i + 1].clone()));
                    i += 1;
                }
                Some(b'd') => out_format = Some(DataType::Double),
                Some(b'f') => out_format = Some(DataType::Float),
                Some(b'a') => out_format = Some(DataType::Ascii),
                Some(b'c') => out_format = Some(DataType::Rgbe),
                _ => return Err(usage()),
            },
            b's' => {
                pending.scale = numbers(i + 1, n.min(combine::MAX_FACTORS));
                if pending.scale.is_empty() {
                    bail!("rcomb: -s missing arguments\n{USAGE}");
                }
                i += pending.scale.len();
            }
            b'C' => {
                mcat_last = false;
                match args.get(i + 1) {
                    Some(w) if !is_number(w) => {
                        default_symbols = Some(w.clone());
                        pending.symbols = Some(w.clone());
                        pending.coefs.clear();
                        i += 1;
                    }
                    _ => return Err(usage()),
                }
            }
            b'c' => {
                mcat_last = false;
                match args.get(i + 1) {
                    Some(w) if !is_number(w) => {
                        pending.symbols = Some(w.clone());
                        pending.coefs.clear();
                        i += 1;
                    }
                    _ => {
                        pending.coefs = numbers(i + 1, n.min(combine::MAX_COEFFICIENTS));
                        if pending.coefs.is_empty() {
                            bail!("rcomb: -c missing arguments\n{USAGE}");
                        }
                        i += pending.coefs.len();
                        pending.symbols = None;
                    }
                }
            }
            b'm' => {
                if n == 0 {
                    return Err(usage());
                }
                mcat_last = true;
                transpose_mcat = b.get(2) == Some(&b't');
                let spec = &args[i + 1];
                if spec == "-" && std::mem::replace(&mut stdin_used, true) {
                    bail!("rcomb: <stdin> used for more than one input");
                }
                mcat_spec = Some(spec.clone());
                i += 1;
            }
            _ => bail!("rcomb: unknown option '{a}'\n{USAGE}"),
        }
        i += 1;
    }
    if inputs.is_empty() {
        bail!("rcomb: need at least one input matrix\n{USAGE}");
    }
    let trailing = pending;

    let mcat = match &mcat_spec {
        Some(spec) => {
            let o = open_input(spec)
                .with_context(|| format!("rcomb: error loading concatenation matrix: {spec}"))?;
            let exposure = o.exposure;
            let mut m = read_all(o)?;
            if combine::bright(exposure) != 1.0 {
                let s: Vec<f64> = (0..m.ncomp()).map(|k| 1.0 / exposure[k.min(2)]).collect();
                mx::ops::scale(&mut m, &s).map_err(|e| anyhow!("rcomb: {e}"))?;
            }
            if transpose_mcat {
                m = mx::ops::transpose(&m);
            }
            Some(m)
        }
        None => None,
    };

    // Each input opened, its change resolved and checked against the first.
    let mut loaded: Vec<Input> = Vec::with_capacity(inputs.len());
    let mut out_type: Option<DataType> = None;
    let mut in_rows: Option<usize> = None;
    for spec in &inputs {
        let o = open_input(&spec.spec)?;
        let name = o.name.clone();
        let op = with_reference(&spec.op, &name)?;
        let res = op
            .resolve(&name, o.rows.ncomp(), o.dtype, o.exposure)
            .map_err(|e| anyhow!("rcomb: {e}"))?;
        out_type = match out_type {
            None => Some(res.dtype),
            Some(t) => match DataType::combine(res.dtype, t) {
                Some(t) => Some(t),
                None => {
                    if warnings {
                        eprintln!("rcomb: {name}: warning - data type mismatch");
                    }
                    Some(t)
                }
            },
        };
        if let Some(first) = loaded.first() {
            if o.cols != first.cols
                || res.ncomp != first.op.ncomp
                || matches!((in_rows, o.nrows), (Some(a), Some(b)) if a != b)
            {
                bail!("rcomb: {name}: mismatch in size or #components");
            }
        }
        if in_rows.is_none() {
            in_rows = o.nrows;
        }
        loaded.push(Input {
            name,
            rows: o.rows,
            op: res,
            cols: o.cols,
            info: o.info,
        });
    }
    let (ncols, ncomp) = (loaded[0].cols, loaded[0].op.ncomp);
    let out_type = out_type.unwrap_or(DataType::Ascii);

    // The definitions.
    let mut combiner = Combiner::new(
        loaded.len(),
        in_rows,
        ncols,
        ncomp,
        &program,
        &RayPath::from_env(),
    )
    .map_err(|e| anyhow!("rcomb: {e}"))?;
    let trailing = with_reference(&trailing, "trailing_ops")?
        .resolve("trailing_ops", ncomp, out_type, [1.0; 3])
        .map_err(|e| anyhow!("rcomb: {e}"))?;
    let mut out_cols = ncols;
    if let Some(mc) = &mcat {
        let spec = mcat_spec.as_deref().unwrap_or("");
        if mc.rows() != ncols {
            bail!("rcomb: number of input columns does not match number of rows in '{spec}'");
        }
        let want = if mcat_last { trailing.ncomp } else { ncomp };
        if mc.ncomp() != want {
            bail!("rcomb: number of components does not match those in '{spec}'");
        }
        out_cols = mc.cols();
    }
    let out_ncomp = trailing.ncomp;
    let written = combine::output_type(out_format, trailing.dtype, out_ncomp)
        .map_err(|e| anyhow!("rcomb: {e}"))?;
    if out_format == Some(DataType::Double) && warnings {
        eprintln!("rcomb: warning - writing float result as double");
    }

    // The header, then the rows as they are combined.
    let mut head = String::from("#?RADIANCE\n");
    if echo_header {
        for l in &loaded {
            head += &l.name;
            head += ":\n";
            for line in l.info.iter().filter(|s| !s.is_empty()) {
                head.push('\t');
                head += line;
                head.push('\n');
            }
        }
    }
    head += &daylit_radfile::header::command_line("rcomb", args);
    head.push('\n');
    for l in daylit_radfile::header::date_lines() {
        head += &l;
        head.push('\n');
    }
    let pad = crate::output::stdout_is_file();
    head += &combine::header_tail(in_rows, out_cols, out_ncomp, written, head.len(), pad);
    let mut out = HeldOutput::default();
    out.buf.extend_from_slice(head.as_bytes());
    if written.is_picture() {
        if let Some(r) = in_rows {
            out.buf
                .extend_from_slice(combine::resolution_line(r, out_cols).as_bytes());
        }
    }
    let mut row = 0usize;
    'rows: while in_rows.is_none_or(|n| row < n) {
        // Each input's next row, changed; where the headers gave no row count the first
        // input to end ends the run.
        let mut changed: Vec<Vec<f32>> = Vec::with_capacity(loaded.len());
        for l in loaded.iter_mut() {
            match l.rows.next()? {
                Some(raw) if l.op.is_identity() => changed.push(raw),
                Some(raw) => {
                    let nc = l.rows.ncomp();
                    let m = Matrix::new(1, l.cols, nc, raw).map_err(|e| anyhow!("rcomb: {e}"))?;
                    let m = l.op.apply(&m).map_err(|e| anyhow!("rcomb: {e}"))?;
                    changed.push(m.into_data());
                }
                None if in_rows.is_none() && row > 0 => break 'rows,
                None => bail!("rcomb: {}: load error at row {row}", l.name),
            }
        }
        let combined = combiner
            .combine_row(&changed, row)
            .map_err(|e| anyhow!("rcomb: {e}"))?;
        let result = match &mcat {
            None if trailing.is_identity() => Ok(combined),
            None => trailing.apply(&combined),
            Some(mc) if mcat_last => trailing.apply(&combined).and_then(|m| mx::multiply(&m, mc)),
            Some(mc) => mx::multiply(&combined, mc).and_then(|m| trailing.apply(&m)),
        }
        .map_err(|e| anyhow!("rcomb: {e}"))?;
        combine::write_values(&result, written, &mut out.buf);
        out.spill()?;
        row += 1;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Standard output held back until it is large: a run that fails early (a malformed input,
/// an undefined name) writes nothing, one of millions of rows still streams.
#[derive(Default)]
struct HeldOutput {
    buf: Vec<u8>,
}

impl HeldOutput {
    const HOLD: usize = 16 << 20;

    fn spill(&mut self) -> anyhow::Result<()> {
        if self.buf.len() >= Self::HOLD {
            self.write()?;
        }
        Ok(())
    }

    fn write(&mut self) -> anyhow::Result<()> {
        let mut o = std::io::stdout().lock();
        match o.write_all(&self.buf).and_then(|_| o.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(e).context("rcomb: write error")
            }
            _ => {}
        }
        self.buf.clear();
        Ok(())
    }

    fn finish(mut self) -> anyhow::Result<()> {
        self.write()
    }
}

/// `-c file`: the symbols the file's colour space stands for (RADIANCE's reference file:
/// three components RGB or XYZ, one Y); a file of the input's own components changes
/// nothing.
fn with_reference(op: &ElementOp, name: &str) -> anyhow::Result<ElementOp> {
    let Some(sym) = op.symbols.as_deref().filter(|s| s.contains('.')) else {
        return Ok(op.clone());
    };
    let raw = open_input(sym).map_err(|_| anyhow!("rcomb: {sym}: cannot read info header"))?;
    let symbols = combine::reference_symbols(raw.rows.ncomp(), raw.dtype, sym, name)
        .map_err(|e| anyhow!("rcomb: {e}"))?;
    Ok(ElementOp {
        symbols: Some(symbols.to_string()),
        ..op.clone()
    })
}

/// Opens one input (a file, `-`, `!command`) and reads its header: a matrix to be read row
/// by row, or a picture (RGBE or XYZE, standard orientation) read whole.
fn open_input(spec: &str) -> anyhow::Result<Opened> {
    let (name, mut input): (String, Box<dyn BufRead>) = if spec == "-" {
        (
            "<stdin>".to_string(),
            Box::new(std::io::BufReader::new(std::io::stdin())),
        )
    } else if spec.starts_with('!') {
        let (name, bytes) = crate::input::read_operand("rcomb", spec)?;
        (name, Box::new(std::io::Cursor::new(bytes)))
    } else {
        let f = std::fs::File::open(spec)
            .map_err(|_| anyhow!("rcomb: Cannot open for reading: {spec}"))?;
        (spec.to_string(), Box::new(std::io::BufReader::new(f)))
    };
    let bad = |e: mx::MatrixError| anyhow!("rcomb: Bad header from: {name} ({e})");
    let head = mx::rows::read_header_bytes(&mut input, &name).map_err(bad)?;
    let format = header_format(&head);
    match format.as_deref().and_then(DataType::from_name) {
        Some(t @ (DataType::Rgbe | DataType::Xyze)) => {
            let mut bytes = head;
            input
                .read_to_end(&mut bytes)
                .with_context(|| format!("rcomb: cannot read {name}"))?;
            read_picture(&bytes, &name, t)
        }
        Some(DataType::Spectral) => {
            bail!("rcomb: {name}: spectral pictures (Radiance_spectra) are not supported by daylit yet")
        }
        _ => {
            // No NCOLS=: the size is on a resolution line, as rtrace writes it with -x -y.
            let (h, _) = mx::parse_header(&head, &name).map_err(bad)?;
            let size = if h.cols.is_none_or(|c| c == 0) {
                let mut line = String::new();
                input
                    .read_line(&mut line)
                    .with_context(|| format!("rcomb: cannot read {name}"))?;
                let r = daylit_image::codes::Resolution::parse(&line).ok_or_else(|| {
                    anyhow!("rcomb: Bad header from: {name} (no NCOLS= and no resolution line)")
                })?;
                Some((r.scans(), r.scan_len()))
            } else {
                None
            };
            let r = RowReader::sized(&head, input, &name, size).map_err(bad)?;
            let dtype = match r.format {
                mx::Format::Ascii => DataType::Ascii,
                mx::Format::Float => DataType::Float,
                mx::Format::Double => DataType::Double,
            };
            Ok(Opened {
                name,
                nrows: r.header.rows.filter(|&n| n > 0),
                cols: r.cols,
                dtype,
                info: r.header.lines.clone(),
                exposure: [1.0; 3],
                rows: Rows::Stream(r),
            })
        }
    }
}

/// Every row of an opened input, as one matrix.
fn read_all(mut o: Opened) -> anyhow::Result<Matrix> {
    let nc = o.rows.ncomp();
    let mut data = Vec::new();
    let mut rows = 0;
    while let Some(r) = o.rows.next()? {
        data.extend(r);
        rows += 1;
        if o.nrows == Some(rows) {
            break;
        }
    }
    if o.nrows.is_some_and(|n| n != rows) {
        bail!("rcomb: {}: load error at row {rows}", o.name);
    }
    Matrix::new(rows, o.cols, nc, data).map_err(|e| anyhow!("rcomb: {}: {e}", o.name))
}

/// The `FORMAT=` value of a header, if it has one.
fn header_format(bytes: &[u8]) -> Option<String> {
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(bytes.len().min(1 << 16));
    let head = String::from_utf8_lossy(&bytes[..end]);
    head.lines()
        .find_map(|l| l.trim_start().strip_prefix("FORMAT="))
        .map(|v| v.trim().to_string())
}

/// A picture as an input: a row per scanline from the top, three components; the exposure
/// returned to be undone as rcomb undoes it.
fn read_picture(bytes: &[u8], name: &str, dtype: DataType) -> anyhow::Result<Opened> {
    let p = combine::read_picture(bytes, name).map_err(|e| anyhow!("rcomb: {e}"))?;
    let (nrows, cols) = (p.matrix.rows(), p.matrix.cols());
    Ok(Opened {
        name: name.to_string(),
        rows: Rows::Whole {
            m: p.matrix,
            next: 0,
        },
        nrows: Some(nrows),
        cols,
        dtype,
        info: p.info,
        exposure: p.exposure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolved_identity() {
        let r: combine::Resolved = ElementOp::default()
            .resolve("m", 3, DataType::Float, [1.0; 3])
            .unwrap();
        assert!(r.is_identity());
    }
}
