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
//! Inputs are read whole rather than a row at a time (the result is the same); `-n` is
//! accepted and runs one process. Spectral pictures and spectral colour conversions are
//! refused by name, and an input's `WLSPLIT=` is not read (`wl(p)` uses RADIANCE's default
//! 380–780 nm bands). Matrix exposures are undone as the matrix reader undoes them (beyond
//! 1 %); picture exposures as rcomb does (beyond 2.5 %, through the scale factors).

use anyhow::{anyhow, bail, Context};
use daylit_cal::{CalEnv, EvalState, FuncId, RayContext, RayPath, RayVar, VarId};
use daylit_matrix::combine::{self, DataType, ElementOp};
use daylit_matrix::{self as mx, HeaderMode, Matrix, ReadOptions};
use std::process::ExitCode;

const USAGE: &str =
    "Usage: rcomb [-h][-f{adfc}][-n nproc][-e expr][-f file][-s sf .. | -c ce ..] m1 .. -m mcat > mres";

/// RADIANCE's default wavelength partition (nm), longest first.
const WLPART: [f64; 4] = [780.0, 588.0, 480.0, 380.0];

/// One input as given: its specification and the changes before it.
struct InputSpec {
    spec: String,
    op: ElementOp,
}

/// An input read and changed.
struct Input {
    /// Name in headers and errors (`<stdin>` for `-`).
    name: String,
    /// Values after the change.
    m: Matrix,
    /// Information lines of its header.
    info: Vec<String>,
}

/// A matrix or picture as read, before any change.
struct Raw {
    m: Matrix,
    rows: Option<usize>,
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
    let mut program: Vec<(char, String)> = Vec::new();
    let mut mcat_spec: Option<String> = None;
    let mut transpose_mcat = false;
    let mut mcat_last = false;
    let numbers = |from: usize, max: usize| -> Vec<f64> {
        args[from.min(args.len())..]
            .iter()
            .take(max)
            .take_while(|w| is_number(w))
            .map(|w| daylit_cal::scan::atof(w))
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
                let np = args.get(i + 1).map_or(0, |w| daylit_cal::scan::atoi(w));
                if np <= 0 {
                    return Err(usage());
                }
                i += 1;
            }
            b'e' => {
                if n == 0 {
                    return Err(usage());
                }
                program.push(('e', args[i + 1].clone()));
                i += 1;
            }
            b'f' => match b.get(2) {
                None => {
                    if n == 0 {
                        return Err(usage());
                    }
                    program.push(('f', args[i + 1].clone()));
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
            let raw = read_input(spec)
                .with_context(|| format!("rcomb: error loading concatenation matrix: {spec}"))?;
            let mut m = raw.m;
            if bright(raw.exposure) != 1.0 {
                let s: Vec<f64> = (0..m.ncomp())
                    .map(|k| 1.0 / raw.exposure[k.min(2)])
                    .collect();
                mx::ops::scale(&mut m, &s).map_err(|e| anyhow!("rcomb: {e}"))?;
            }
            if transpose_mcat {
                m = mx::ops::transpose(&m);
            }
            Some(m)
        }
        None => None,
    };

    // Each input read, changed and checked against the first.
    let mut loaded: Vec<Input> = Vec::with_capacity(inputs.len());
    let mut out_type: Option<DataType> = None;
    let mut in_rows: Option<usize> = None;
    for spec in &inputs {
        let name = if spec.spec == "-" {
            "<stdin>".to_string()
        } else {
            spec.spec.clone()
        };
        let raw = read_input(&spec.spec)?;
        let op = with_reference(&spec.op, &name)?;
        let res = op
            .resolve(&name, raw.m.ncomp(), raw.dtype, raw.exposure)
            .map_err(|e| anyhow!("rcomb: {e}"))?;
        let m = res.apply(&raw.m).map_err(|e| anyhow!("rcomb: {e}"))?;
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
            if m.cols() != first.m.cols()
                || m.ncomp() != first.m.ncomp()
                || matches!((in_rows, raw.rows), (Some(a), Some(b)) if a != b)
            {
                bail!("rcomb: {name}: mismatch in size or #components");
            }
        }
        if in_rows.is_none() {
            in_rows = raw.rows;
        }
        loaded.push(Input {
            name,
            m,
            info: raw.info,
        });
    }
    let first = &loaded[0].m;
    let (ncols, ncomp) = (first.cols(), first.ncomp());
    let out_type = out_type.unwrap_or(DataType::Ascii);
    // Rows processed: as the headers say, else as long as every input lasts.
    let rows = in_rows.unwrap_or_else(|| loaded.iter().map(|l| l.m.rows()).min().unwrap_or(0));
    for l in &loaded {
        if l.m.rows() < rows || rows == 0 {
            bail!("rcomb: {}: load error at row {}", l.name, l.m.rows());
        }
    }

    // The definitions.
    let mut env = CalEnv::plain();
    for name in EXTERNALS {
        env.define_external(name);
    }
    let constants = format!(
        "PI : 3.14159265358979323846; nfiles : {}; nrows : {}; ncols : {ncols}; \
         ncomp : {ncomp}; R : 1; G : 2; B : 3; \
         ri(i) = ci(i,R); gi(i) = ci(i,G); bi(i) = ci(i,B);",
        loaded.len(),
        in_rows.unwrap_or(0)
    );
    env.load_str("<rcomb>", &constants)
        .map_err(|e| anyhow!("rcomb: {e}"))?;
    let raypath = RayPath::from_env();
    for (kind, text) in &program {
        let fail = |e: daylit_cal::CalError| anyhow!("rcomb: {e}");
        if *kind == 'e' {
            env.load_str("command line -e", text).map_err(fail)?;
        } else {
            env.load_file_global(text, &raypath).map_err(|e| match e {
                daylit_cal::CalError::NotFound { .. } => {
                    anyhow!("rcomb: cannot find file '{text}'")
                }
                e => fail(e),
            })?;
        }
    }
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
    let written = output_type(out_format, trailing.dtype, out_ncomp)?;
    if out_format == Some(DataType::Double) && warnings {
        eprintln!("rcomb: warning - writing float result as double");
    }

    // The combination, then the trailing changes and the concatenation.
    let combined = combine_inputs(&env, &loaded, rows)?;
    let result = match &mcat {
        None => trailing.apply(&combined),
        Some(mc) if mcat_last => trailing.apply(&combined).and_then(|m| mx::multiply(&m, mc)),
        Some(mc) => mx::multiply(&combined, mc).and_then(|m| trailing.apply(&m)),
    }
    .map_err(|e| anyhow!("rcomb: {e}"))?;
    debug_assert_eq!((result.cols(), result.ncomp()), (out_cols, out_ncomp));

    // The header and the values.
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
    head += &crate::output::command_line("rcomb", args);
    head.push('\n');
    for l in mx::date_lines() {
        head += &l;
        head.push('\n');
    }
    let known_rows = in_rows.map(|_| result.rows());
    let pad = crate::output::stdout_is_file();
    head += &combine::header_tail(known_rows, out_cols, out_ncomp, written, head.len(), pad);
    let mut body = head.into_bytes();
    write_values(&result, written, known_rows.is_some(), &mut body);
    crate::output::print_bytes([body.as_slice()])?;
    Ok(ExitCode::SUCCESS)
}

/// The names rcomb gives the definitions, in the order they are registered.
const EXTERNALS: [&str; 4] = ["ci", "wl", "r", "c"];

/// The element being computed and the changed inputs.
struct Element<'a> {
    inputs: &'a [Input],
    ncomp: usize,
    row: usize,
    col: usize,
    chan: usize,
}

impl RayContext for Element<'_> {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
    fn external(&self, id: u32, args: &[f64]) -> f64 {
        match EXTERNALS[id as usize] {
            "r" => self.row as f64,
            "c" => self.col as f64,
            "ci" => {
                let inp = args.first().copied().unwrap_or(0.0);
                // C's conversion truncates toward zero.
                let mi = (inp - 0.5) as i64;
                if mi < 0 || mi >= self.inputs.len() as i64 {
                    return 0.0;
                }
                if inp < 0.5 {
                    return self.inputs.len() as f64;
                }
                let chan = match args.get(1) {
                    Some(&cv) => {
                        let ch = (cv - 0.5) as i64;
                        if cv < 0.5 || ch >= self.ncomp as i64 {
                            return 0.0;
                        }
                        ch as usize
                    }
                    None => self.chan,
                };
                f64::from(self.inputs[mi as usize].m.get(self.row, self.col)[chan])
            }
            _ => {
                // wl(p): the central wavelength of channel p, or the count for 0.
                let comp = args.first().copied().unwrap_or(0.0);
                let n = self.ncomp as f64;
                if comp < -0.5 || comp >= n + 0.5 {
                    return 0.0;
                }
                if comp < 0.5 {
                    return n;
                }
                if self.ncomp == 3 {
                    let w0 = (comp - 0.5) as usize;
                    return WLPART[w0] + (comp - 0.5) * (WLPART[w0 + 1] - WLPART[w0]);
                }
                WLPART[0] + (comp - 0.5) / n * (WLPART[3] - WLPART[0])
            }
        }
    }
}

/// What the definitions ask for: `co(p)`, `co`, or nothing (the sum).
enum Output {
    Sum,
    Function(FuncId),
    Variable(VarId),
}

/// The inputs combined element by element: summed, or through the definitions.
fn combine_inputs(env: &CalEnv, inputs: &[Input], rows: usize) -> anyhow::Result<Matrix> {
    let (ncols, ncomp) = (inputs[0].m.cols(), inputs[0].m.ncomp());
    let mut how = match (env.function("co"), env.variable("co")) {
        (Some(f @ FuncId::User(_)), _) => Output::Function(f),
        (_, Some(v)) => Output::Variable(v),
        _ => Output::Sum,
    };
    if matches!(how, Output::Sum)
        && ncomp == 3
        && ["ro", "go", "bo"].iter().all(|n| env.variable(n).is_some())
    {
        let mut env2 = env.clone();
        env2.load_str("<rcomb>", "co(p) = select(p, ro, go, bo);")
            .map_err(|e| anyhow!("rcomb: {e}"))?;
        if let Some(f) = env2.function("co") {
            how = Output::Function(f);
            return evaluate(&env2, inputs, rows, ncols, ncomp, &how);
        }
    }
    if matches!(how, Output::Sum) {
        let parts: Vec<Matrix> = inputs
            .iter()
            .map(|l| first_rows(&l.m, rows))
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow!("rcomb: {e}"))?;
        let refs: Vec<&Matrix> = parts.iter().collect();
        return combine::sum(&refs).map_err(|e| anyhow!("rcomb: {e}"));
    }
    evaluate(env, inputs, rows, ncols, ncomp, &how)
}

/// The first `rows` rows of `m`.
fn first_rows(m: &Matrix, rows: usize) -> Result<Matrix, mx::MatrixError> {
    let n = rows * m.cols() * m.ncomp();
    Matrix::new(rows, m.cols(), m.ncomp(), m.data()[..n].to_vec())
}

fn evaluate(
    env: &CalEnv,
    inputs: &[Input],
    rows: usize,
    ncols: usize,
    ncomp: usize,
    how: &Output,
) -> anyhow::Result<Matrix> {
    let mut st = EvalState::for_env(env);
    let mut data = Vec::with_capacity(rows * ncols * ncomp);
    for row in 0..rows {
        for col in 0..ncols {
            for chan in 0..ncomp {
                let el = Element {
                    inputs,
                    ncomp,
                    row,
                    col,
                    chan,
                };
                let v = match how {
                    Output::Function(f) => env.call(*f, &[(chan + 1) as f64], &mut st, &el),
                    Output::Variable(v) => env.eval_var(*v, &mut st, &el),
                    Output::Sum => 0.0,
                };
                if let Some(e) = st.take_error() {
                    bail!("rcomb: {e}");
                }
                data.push(v as f32);
            }
        }
    }
    Matrix::new(rows, ncols, ncomp, data).map_err(|e| anyhow!("rcomb: {e}"))
}

/// RADIANCE's brightness of an exposure triple.
fn bright(e: [f64; 3]) -> f64 {
    combine::bright(e)
}

/// `-c file`: the symbols the file's colour space stands for (RADIANCE's reference file:
/// three components RGB or XYZ, one Y); a file of the input's own components changes
/// nothing.
fn with_reference(op: &ElementOp, name: &str) -> anyhow::Result<ElementOp> {
    let Some(sym) = op.symbols.as_deref().filter(|s| s.contains('.')) else {
        return Ok(op.clone());
    };
    let raw = read_input(sym).map_err(|_| anyhow!("rcomb: {sym}: cannot read info header"))?;
    let symbols = match raw.m.ncomp() {
        3 if raw.dtype == DataType::Xyze => "XYZ",
        3 => "RGB",
        1 => "Y",
        2 => bail!("rcomb: {sym}: cannot convert to 2 components"),
        _ => bail!(
            "rcomb: {name}: -c {sym}: conversion to spectral components is not supported by daylit yet"
        ),
    };
    Ok(ElementOp {
        symbols: Some(symbols.to_string()),
        ..op.clone()
    })
}

/// The type the output is written in (RADIANCE's `rmx_write_header`): as asked, else the
/// result's (double written as float); more than three components make a spectral picture
/// of a picture.
fn output_type(
    asked: Option<DataType>,
    result: DataType,
    ncomp: usize,
) -> anyhow::Result<DataType> {
    let mut t = match asked {
        None if result == DataType::Double => DataType::Float,
        None => result,
        Some(DataType::Rgbe) if result == DataType::Xyze => DataType::Xyze,
        Some(t) => t,
    };
    if t < DataType::Spectral && ncomp > 3 {
        t = DataType::Spectral;
    } else if t == DataType::Spectral && ncomp <= 3 {
        bail!("rcomb: unsupported output format");
    }
    if t == DataType::Spectral {
        bail!("rcomb: spectral picture output ({ncomp} components) is not supported by daylit yet");
    }
    if t.is_picture() && ncomp != 1 && ncomp != 3 {
        bail!("rcomb: unsupported output format");
    }
    Ok(t)
}

/// Appends the values in `t`, row by row, as rcomb writes them.
fn write_values(m: &Matrix, t: DataType, picture_rows: bool, out: &mut Vec<u8>) {
    let nc = m.ncomp();
    match t {
        DataType::Ascii => {
            let _ = mx::write_body_rmtxop(m, out);
        }
        DataType::Float => {
            let _ = mx::write_body(m, mx::Format::Float, out);
        }
        DataType::Double => {
            let _ = mx::write_body(m, mx::Format::Double, out);
        }
        _ => {
            if picture_rows {
                out.extend_from_slice(combine::resolution_line(m.rows(), m.cols()).as_bytes());
            }
            for row in 0..m.rows() {
                let line: Vec<[u8; 4]> = (0..m.cols())
                    .map(|c| {
                        let v = m.get(row, c);
                        let p = if nc == 1 {
                            [v[0]; 3]
                        } else {
                            [v[0], v[1], v[2]]
                        };
                        daylit_image::hdr::float_to_rgbe(p)
                    })
                    .collect();
                daylit_image::hdr::write_scanline(&line, true, out);
            }
        }
    }
}

/// Reads one input (a file, `-`, `!command`): a picture (RGBE or XYZE, standard
/// orientation) or a matrix with a header.
fn read_input(spec: &str) -> anyhow::Result<Raw> {
    let (name, bytes) = crate::input::read_operand("rcomb", spec)?;
    let format = header_format(&bytes);
    match format.as_deref().and_then(DataType::from_name) {
        Some(t @ (DataType::Rgbe | DataType::Xyze)) => read_picture(&bytes, &name, t),
        Some(DataType::Spectral) => {
            bail!("rcomb: {name}: spectral pictures (Radiance_spectra) are not supported by daylit yet")
        }
        _ => {
            let bad = |e: mx::MatrixError| anyhow!("rcomb: Bad header from: {name} ({e})");
            let opts = ReadOptions {
                header: HeaderMode::Required,
                ..ReadOptions::default()
            };
            let (h, _) = mx::parse_header(&bytes, &name).map_err(bad)?;
            let l = mx::read_matrix(&bytes, &name, &opts)
                .map_err(|e| anyhow!("rcomb: {name}: load error ({e})"))?;
            let dtype = match l.format {
                mx::Format::Ascii => DataType::Ascii,
                mx::Format::Float => DataType::Float,
                mx::Format::Double => DataType::Double,
            };
            let mut m = l.matrix;
            let info = std::mem::take(&mut m.header_lines);
            Ok(Raw {
                m,
                rows: h.rows.filter(|&r| r > 0),
                dtype,
                info,
                exposure: [1.0; 3],
            })
        }
    }
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

/// A picture as a matrix: a row per scanline from the top, three components; the exposure
/// (`EXPOSURE=`, `COLORCORR=`) returned to be undone as rcomb undoes it.
fn read_picture(bytes: &[u8], name: &str, dtype: DataType) -> anyhow::Result<Raw> {
    let bad = |what: String| anyhow!("rcomb: Bad header from: {name} ({what})");
    let mut pos = 0;
    let mut info = Vec::new();
    let mut exposure = [1.0f64; 3];
    let mut first = true;
    loop {
        let Some(len) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            return Err(bad("header not ended by an empty line".into()));
        };
        let line = String::from_utf8_lossy(&bytes[pos..pos + len]).to_string();
        pos += len + 1;
        if std::mem::take(&mut first) && line.starts_with("#?") {
            continue;
        }
        if line.is_empty() {
            break;
        }
        let t = line.trim_start();
        let value = |p: &str| t.strip_prefix(p).map(str::trim);
        if value("FORMAT=").is_some() || value("BigEndian=").is_some() {
        } else if let Some(v) = value("EXPOSURE=") {
            let e = daylit_cal::scan::atof(v);
            if e <= 0.0 {
                return Err(bad(format!("EXPOSURE={v}")));
            }
            // RADIANCE keeps the exposure as floats.
            exposure
                .iter_mut()
                .for_each(|x| *x = f64::from(*x as f32 * e as f32));
        } else if let Some(v) = value("COLORCORR=") {
            let w: Vec<f64> = v.split_whitespace().map(daylit_cal::scan::atof).collect();
            if w.len() != 3 {
                return Err(bad(format!("COLORCORR={v}")));
            }
            exposure
                .iter_mut()
                .zip(w)
                .for_each(|(x, c)| *x = f64::from(*x as f32 * c as f32));
        } else if let Some(v) = value("NCOMP=") {
            if daylit_cal::scan::atoi(v) != 3 {
                return Err(bad(format!("NCOMP={v} in a picture")));
            }
        } else if value("NROWS=").is_some()
            || value("NCOLS=").is_some()
            || value("WLSPLIT=").is_some()
        {
        } else {
            info.push(line);
        }
    }
    let raw =
        daylit_image::hdr::read_raw_pixels(bytes, pos, name).map_err(|e| anyhow!("rcomb: {e}"))?;
    let w: Vec<&str> = raw.resolution.split_whitespace().collect();
    if w.len() != 4 || w[0] != "-Y" || w[2] != "+X" {
        return Err(bad(format!(
            "resolution {:?}: the picture must be in standard orientation",
            raw.resolution
        )));
    }
    let (height, width) = (raw.scans.len(), raw.scans.first().map_or(0, Vec::len));
    let data: Vec<f32> = raw
        .scans
        .iter()
        .flatten()
        .flat_map(|&c| daylit_image::hdr::rgbe_to_float(c))
        .collect();
    let m = Matrix::new(height, width, 3, data).map_err(|e| anyhow!("rcomb: {name}: {e}"))?;
    Ok(Raw {
        m,
        rows: Some(height),
        dtype,
        info,
        exposure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_type_follows_rmx_write_header() {
        assert_eq!(
            output_type(None, DataType::Double, 3).unwrap(),
            DataType::Float
        );
        assert_eq!(
            output_type(Some(DataType::Rgbe), DataType::Xyze, 3).unwrap(),
            DataType::Xyze
        );
        assert!(output_type(Some(DataType::Rgbe), DataType::Float, 2).is_err());
        assert!(output_type(Some(DataType::Rgbe), DataType::Float, 5).is_err());
    }

    #[test]
    fn resolved_identity() {
        let r: combine::Resolved = ElementOp::default()
            .resolve("m", 3, DataType::Float, [1.0; 3])
            .unwrap();
        assert!(r.is_identity());
    }
}
