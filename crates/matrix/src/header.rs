//! The RADIANCE information header of a matrix file: text lines up to the first blank line.

use crate::MatrixError;

/// How matrix values are stored after the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text numbers separated by white space (`FORMAT=ascii`).
    Ascii,
    /// 32-bit IEEE floats (`FORMAT=float`).
    Float,
    /// 64-bit IEEE floats (`FORMAT=double`).
    Double,
}

impl Format {
    /// The name in `FORMAT=` lines.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ascii => "ascii",
            Format::Float => "float",
            Format::Double => "double",
        }
    }

    /// The format of a `FORMAT=` value, if it is a matrix format.
    pub fn from_name(s: &str) -> Option<Format> {
        match s {
            "ascii" => Some(Format::Ascii),
            "float" => Some(Format::Float),
            "double" => Some(Format::Double),
            _ => None,
        }
    }

    /// Bytes per number of a binary format; `None` for ASCII.
    pub fn element_size(self) -> Option<usize> {
        match self {
            Format::Ascii => None,
            Format::Float => Some(4),
            Format::Double => Some(8),
        }
    }
}

/// What a matrix header says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    /// `NROWS=` (absent or 0: unknown).
    pub rows: Option<usize>,
    /// `NCOLS=` (absent or 0: unknown).
    pub cols: Option<usize>,
    /// `NCOMP=`.
    pub ncomp: Option<usize>,
    /// `FORMAT=`.
    pub format: Option<Format>,
    /// `BigEndian=`: the byte order of binary data (absent: this machine's).
    pub big_endian: Option<bool>,
    /// Product of `EXPOSURE=` and `COLORCORR=` values per component (RGB); values on file are
    /// divided by it when read, as RADIANCE does.
    pub exposure: [f64; 3],
    /// Every other line, without its newline (the `#?` identifier is left out).
    pub lines: Vec<String>,
    /// Lines the header takes, the blank line included (for line numbers in the body).
    pub line_count: usize,
}

/// Longest word quoted back in an error message.
const QUOTE_MAX: usize = 40;

/// `s` shortened for an error message.
pub(crate) fn quote(s: &str) -> String {
    if s.chars().count() > QUOTE_MAX {
        let mut q: String = s.chars().take(QUOTE_MAX).collect();
        q.push('…');
        q
    } else {
        s.to_string()
    }
}

/// Reads the header at the start of `bytes`; returns it and the offset of the data after the
/// blank line. `name` names the input in errors.
pub fn parse_header(bytes: &[u8], name: &str) -> Result<(Header, usize), MatrixError> {
    let mut h = Header {
        exposure: [1.0; 3],
        ..Header::default()
    };
    let err = |line: usize, message: String| MatrixError::Header {
        name: name.to_string(),
        line,
        message,
    };
    let mut pos = 0;
    let mut line_no = 0;
    loop {
        line_no += 1;
        let Some(len) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            return Err(err(
                line_no,
                "unexpected end of input in the header (expected a blank line ending it)".into(),
            ));
        };
        let raw = &bytes[pos..pos + len];
        pos += len + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() {
            h.line_count = line_no;
            return Ok((h, pos));
        }
        if line_no == 1
            && !raw
                .first()
                .is_some_and(|b| b.is_ascii_graphic() || *b == b' ')
        {
            return Err(err(
                1,
                "not a matrix: expected a text header (or header-less ASCII numbers)".into(),
            ));
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.as_ref();
        if line_no == 1 && line.starts_with("#?") {
            continue;
        }
        let count = |key: &str, v: &str| -> Result<Option<usize>, MatrixError> {
            v.trim()
                .parse::<usize>()
                .map(|n| (n > 0).then_some(n))
                .map_err(|_| {
                    err(
                        line_no,
                        format!("{key}{}: expected a whole number", quote(v)),
                    )
                })
        };
        if let Some(v) = line.strip_prefix("NROWS=") {
            h.rows = count("NROWS=", v)?;
        } else if let Some(v) = line.strip_prefix("NCOLS=") {
            h.cols = count("NCOLS=", v)?;
        } else if let Some(v) = line.strip_prefix("NCOMP=") {
            h.ncomp =
                Some(count("NCOMP=", v)?.ok_or_else(|| {
                    err(line_no, "NCOMP=0: expected at least one component".into())
                })?);
        } else if let Some(v) = line.strip_prefix("FORMAT=") {
            let v = v.trim();
            h.format = Some(Format::from_name(v).ok_or_else(|| {
                let what = if v.starts_with("32-bit_rle_") {
                    " (RADIANCE pictures are not read as matrices)"
                } else {
                    ""
                };
                err(
                    line_no,
                    format!("FORMAT={}: expected ascii, float or double{what}", quote(v)),
                )
            })?);
        } else if let Some(v) = line.strip_prefix("BigEndian=") {
            h.big_endian = match v.trim() {
                "0" => Some(false),
                "1" => Some(true),
                _ => {
                    return Err(err(
                        line_no,
                        format!("BigEndian={}: expected 0 or 1", quote(v)),
                    ))
                }
            };
        } else if let Some(v) = line.strip_prefix("EXPOSURE=") {
            let e = positive(v).ok_or_else(|| {
                err(
                    line_no,
                    format!("EXPOSURE={}: expected a positive number", quote(v)),
                )
            })?;
            h.exposure.iter_mut().for_each(|x| *x *= e);
        } else if let Some(v) = line.strip_prefix("COLORCORR=") {
            let c: Vec<f64> = v.split_whitespace().filter_map(positive).collect();
            if c.len() != 3 || v.split_whitespace().count() != 3 {
                return Err(err(
                    line_no,
                    format!("COLORCORR={}: expected three positive numbers", quote(v)),
                ));
            }
            h.exposure.iter_mut().zip(c).for_each(|(x, c)| *x *= c);
        } else {
            h.lines.push(line.to_string());
        }
    }
}

fn positive(s: &str) -> Option<f64> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}
