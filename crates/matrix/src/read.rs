//! Reading matrices: with a RADIANCE header, or header-less ASCII whose dimensions come from
//! the caller (the other operand of a product).

use crate::header::{parse_header, quote, Format, Header};
use crate::{element_count, Matrix, MatrixError};
use std::io::Read;
use std::path::Path;

/// Whether the input starts with a header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeaderMode {
    /// Header-less when the first word is a number, otherwise a header.
    #[default]
    Auto,
    /// Always a header.
    Required,
    /// Never a header: dimensions and format come from [`ReadOptions`].
    Absent,
}

/// What the caller knows or expects of a matrix; a header that disagrees is an error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Expected format; the format of header-less input (ASCII when `None`).
    pub format: Option<Format>,
    /// Expected number of rows.
    pub rows: Option<usize>,
    /// Expected number of columns.
    pub cols: Option<usize>,
    /// Expected components per element (3 for header-less input when `None`).
    pub ncomp: Option<usize>,
    /// Header or not.
    pub header: HeaderMode,
}

/// A matrix read, with the warnings reading gave (data left over after the matrix).
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The matrix, exposure applied, other header lines in `header_lines`.
    pub matrix: Matrix,
    /// The format the values were stored in.
    pub format: Format,
    /// Whether the input had a header.
    pub had_header: bool,
    /// Things RADIANCE warns about but accepts.
    pub warnings: Vec<String>,
}

/// Reads a matrix file; errors name the file.
pub fn read_matrix_file(path: &Path, opts: &ReadOptions) -> Result<Loaded, MatrixError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| MatrixError::Io {
        name: name.clone(),
        source,
    })?;
    read_matrix(&bytes, &name, opts)
}

/// Reads a whole stream (standard input) as a matrix; `name` names it in errors.
pub fn read_matrix_from(
    mut input: impl Read,
    name: &str,
    opts: &ReadOptions,
) -> Result<Loaded, MatrixError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|source| MatrixError::Io {
            name: name.to_string(),
            source,
        })?;
    read_matrix(&bytes, name, opts)
}

/// Reads a matrix from bytes. Never panics, whatever the bytes.
pub fn read_matrix(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<Loaded, MatrixError> {
    let data_err = |message: String| MatrixError::Data {
        name: name.to_string(),
        message,
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(data_err("empty input: expected a matrix".into()));
    }
    let with_header = match opts.header {
        HeaderMode::Required => true,
        HeaderMode::Absent => false,
        HeaderMode::Auto => !is_headerless(bytes),
    };
    let (header, start) = if with_header {
        parse_header(bytes, name)?
    } else {
        (
            Header {
                exposure: [1.0; 3],
                ..Header::default()
            },
            0,
        )
    };
    let format = match (header.format, opts.format) {
        (Some(h), Some(o)) if h != o => {
            return Err(data_err(format!(
                "FORMAT={} in the header, expected {}",
                h.name(),
                o.name()
            )))
        }
        (Some(f), _) => f,
        (None, Some(f)) if !with_header || f == Format::Ascii => f,
        (None, None) if !with_header => Format::Ascii,
        _ => {
            return Err(data_err(
                "no FORMAT= line in the header: expected FORMAT=ascii, float or double".into(),
            ))
        }
    };
    let ncomp = agree("NCOMP", header.ncomp, opts.ncomp, name)?.unwrap_or(3);
    let rows = agree("NROWS", header.rows, opts.rows, name)?;
    let cols = agree("NCOLS", header.cols, opts.cols, name)?;
    let body = &bytes[start..];
    let mut warnings = Vec::new();
    let (values, rows, cols) = match format {
        Format::Ascii => {
            let v = parse_ascii(body, header.line_count + 1, name, rows, cols, ncomp)?;
            if let Some(w) = v.warning {
                warnings.push(w);
            }
            (v.values, v.rows, v.cols)
        }
        Format::Float | Format::Double => {
            let big = header.big_endian.unwrap_or(cfg!(target_endian = "big"));
            let b = parse_binary(body, format, big, name, rows, cols, ncomp)?;
            if let Some(w) = b.warning {
                warnings.push(w);
            }
            (b.values, b.rows, b.cols)
        }
    };
    let mut matrix = Matrix::new(rows, cols, ncomp, values).map_err(|e| data_err(e.to_string()))?;
    apply_exposure(&mut matrix, header.exposure);
    matrix.header_lines = header.lines;
    Ok(Loaded {
        matrix,
        format,
        had_header: with_header,
        warnings,
    })
}

/// A header value checked against the caller's expectation.
fn agree(
    key: &str,
    header: Option<usize>,
    expected: Option<usize>,
    name: &str,
) -> Result<Option<usize>, MatrixError> {
    match (header, expected) {
        (Some(h), Some(e)) if h != e => Err(MatrixError::Data {
            name: name.to_string(),
            message: format!("{key}={h} in the header, expected {e}"),
        }),
        (h, e) => Ok(h.or(e)),
    }
}

/// Divides by the header's exposure, as RADIANCE does when it is not within 1 %.
fn apply_exposure(m: &mut Matrix, exposure: [f64; 3]) {
    if exposure.iter().all(|e| (0.99..=1.01).contains(e)) {
        return;
    }
    let nc = m.ncomp();
    let scale: Vec<f32> = (0..nc)
        .map(|k| (1.0 / exposure[if nc == 3 { k } else { 0 }]) as f32)
        .collect();
    for el in m.data_mut().chunks_exact_mut(nc) {
        el.iter_mut().zip(&scale).for_each(|(v, s)| *v *= s);
    }
}

/// Whether the input starts with a number rather than a header: header-less ASCII (header
/// lines never start with a number).
pub fn is_headerless(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let rest = &bytes[start..];
    let end = rest
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end]).is_ok_and(|w| w.parse::<f32>().is_ok())
}

/// Values with the dimensions they settle on.
struct Body {
    values: Vec<f32>,
    rows: usize,
    cols: usize,
    warning: Option<String>,
}

/// The dimensions that `n` values (or `n` whole elements) make, given what is known; `Err`
/// carries the complaint. `exact`: both dimensions known, `n` is what is needed.
fn settle(
    n_elements: usize,
    rows: Option<usize>,
    cols: Option<usize>,
) -> Result<(usize, usize), String> {
    let whole = |unit: usize, what: &str| -> Result<usize, String> {
        if n_elements == 0 || !n_elements.is_multiple_of(unit) {
            Err(format!(
                "{n_elements} elements do not make whole {what} of {unit} elements"
            ))
        } else {
            Ok(n_elements / unit)
        }
    };
    match (rows, cols) {
        (Some(r), Some(c)) => Ok((r, c)),
        (None, Some(c)) => Ok((whole(c, "rows")?, c)),
        (Some(r), None) => Ok((r, whole(r, "columns")?)),
        (None, None) => Err(
            "unspecified matrix size: expected NROWS= and NCOLS= in the header (or the size from the other operand)"
                .into(),
        ),
    }
}

fn parse_ascii(
    body: &[u8],
    first_line: usize,
    name: &str,
    rows: Option<usize>,
    cols: Option<usize>,
    ncomp: usize,
) -> Result<Body, MatrixError> {
    let data_err = |message: String| MatrixError::Data {
        name: name.to_string(),
        message,
    };
    let need = match (rows, cols) {
        (Some(r), Some(c)) => {
            Some(element_count(r, c, ncomp).map_err(|e| data_err(e.to_string()))?)
        }
        _ => None,
    };
    // Each number takes at least two bytes with its separator: never allocate more than that,
    // whatever the header claims.
    let mut values = Vec::with_capacity(need.unwrap_or(0).min(body.len() / 2 + 1));
    let mut line = first_line;
    let mut i = 0;
    // The first word that is not part of the matrix: (line, word, whether it is a number).
    let mut stopped: Option<(usize, String, bool)> = None;
    while i < body.len() {
        let b = body[i];
        if b.is_ascii_whitespace() {
            line += usize::from(b == b'\n');
            i += 1;
            continue;
        }
        let end = body[i..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(body.len(), |n| i + n);
        let word = &body[i..end];
        let parsed = std::str::from_utf8(word)
            .ok()
            .and_then(|w| w.parse::<f32>().ok());
        if need.is_some_and(|n| values.len() == n) || parsed.is_none() {
            stopped = Some((
                line,
                quote(&String::from_utf8_lossy(word)),
                parsed.is_some(),
            ));
            break;
        }
        values.extend(parsed);
        i = end;
    }
    let bad_word = |s: &(usize, String, bool)| MatrixError::Number {
        name: name.to_string(),
        line: s.0,
        found: s.1.clone(),
    };
    let (r, c) = match need {
        Some(n) if values.len() < n => {
            return Err(match &stopped {
                Some(s) if !s.2 => bad_word(s),
                _ => data_err(format!(
                    "unexpected end of data: expected {n} numbers ({}×{}×{ncomp}), found {}",
                    rows.unwrap_or(0),
                    cols.unwrap_or(0),
                    values.len()
                )),
            });
        }
        _ => {
            if values.len() % ncomp != 0 {
                return Err(match &stopped {
                    Some(s) if !s.2 => bad_word(s),
                    _ => data_err(format!(
                        "unexpected end of data: {} numbers are not whole elements of {ncomp} components",
                        values.len()
                    )),
                });
            }
            match settle(values.len() / ncomp, rows, cols) {
                Ok(rc) => rc,
                Err(msg) => {
                    return Err(match &stopped {
                        Some(s) if !s.2 => bad_word(s),
                        _ => data_err(msg),
                    })
                }
            }
        }
    };
    let warning = stopped.map(|(l, w, _)| {
        format!("{name}: line {l}: unexpected data after the matrix ('{w}'), ignored")
    });
    Ok(Body {
        values,
        rows: r,
        cols: c,
        warning,
    })
}

fn parse_binary(
    body: &[u8],
    format: Format,
    big_endian: bool,
    name: &str,
    rows: Option<usize>,
    cols: Option<usize>,
    ncomp: usize,
) -> Result<Body, MatrixError> {
    let data_err = |message: String| MatrixError::Data {
        name: name.to_string(),
        message,
    };
    let size = format.element_size().unwrap_or(4);
    let fname = format.name();
    let elem_bytes = size * ncomp;
    let (r, c, warning) = match (rows, cols) {
        (Some(r), Some(c)) => {
            let n = element_count(r, c, ncomp).map_err(|e| data_err(e.to_string()))?;
            let need = n.saturating_mul(size);
            if body.len() < need {
                return Err(data_err(format!(
                    "unexpected end of data: expected {n} {fname} numbers ({r}×{c}×{ncomp}, {need} bytes), found {} bytes",
                    body.len()
                )));
            }
            let warning = (body.len() > need).then(|| {
                format!(
                    "{name}: {} bytes of unexpected data after the matrix, ignored",
                    body.len() - need
                )
            });
            (r, c, warning)
        }
        _ => {
            if !body.len().is_multiple_of(elem_bytes) {
                return Err(data_err(format!(
                    "improper length: {} bytes of {fname} data are not whole elements of {elem_bytes} bytes",
                    body.len()
                )));
            }
            let (r, c) = settle(body.len() / elem_bytes, rows, cols)
                .map_err(|m| data_err(format!("{m} ({} bytes of {fname} data)", body.len())))?;
            (r, c, None)
        }
    };
    let n = r * c * ncomp;
    let values = match format {
        Format::Double => {
            let (chunks, _) = body[..n * 8].as_chunks::<8>();
            chunks
                .iter()
                .map(|&b| {
                    if big_endian {
                        f64::from_be_bytes(b) as f32
                    } else {
                        f64::from_le_bytes(b) as f32
                    }
                })
                .collect()
        }
        _ => {
            let (chunks, _) = body[..n * 4].as_chunks::<4>();
            chunks
                .iter()
                .map(|&b| {
                    if big_endian {
                        f32::from_be_bytes(b)
                    } else {
                        f32::from_le_bytes(b)
                    }
                })
                .collect()
        }
    };
    Ok(Body {
        values,
        rows: r,
        cols: c,
        warning,
    })
}
