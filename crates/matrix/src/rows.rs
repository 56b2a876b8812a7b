//! Reading a matrix a row at a time, as RADIANCE's `rmx_load_row` does for rcomb: the header
//! first, then each row on demand, so that a matrix of millions of rows passes through in the
//! memory of one. Values are read as [`crate::read`] reads them (ASCII words parsed as `f32`,
//! binary in the header's byte order, the header's exposure divided out beyond 1 %).

use crate::header::{parse_header, Format, Header};
use crate::MatrixError;
use std::io::BufRead;

/// A matrix being read row by row.
pub struct RowReader<R: BufRead> {
    input: R,
    name: String,
    /// What the header said.
    pub header: Header,
    /// The format of the values.
    pub format: Format,
    /// Elements per row.
    pub cols: usize,
    /// Components per element.
    pub ncomp: usize,
    swap: bool,
    scale: Vec<f32>,
    /// ASCII words read from the current line and not used yet.
    words: std::collections::VecDeque<String>,
    /// 1-based line number of the last line read (for errors).
    line: usize,
    /// Bytes of a binary row.
    buf: Vec<u8>,
    /// Rows handed out so far.
    pub rows_read: usize,
}

/// Reads the header lines (through the blank line that ends them) from `input`, as bytes.
pub fn read_header_bytes(input: &mut impl BufRead, name: &str) -> Result<Vec<u8>, MatrixError> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        let n = input
            .read_until(b'\n', &mut head)
            .map_err(|source| MatrixError::Io {
                name: name.to_string(),
                source,
            })?;
        if n == 0 {
            return Err(MatrixError::Header {
                name: name.to_string(),
                line: head.iter().filter(|&&b| b == b'\n').count() + 1,
                message: "unexpected end of input in the header (expected a blank line ending it)"
                    .into(),
            });
        }
        let line = &head[start..];
        if line == b"\n" || line == b"\r\n" {
            return Ok(head);
        }
    }
}

impl<R: BufRead> RowReader<R> {
    /// A reader of the matrix whose header is `head` (as [`read_header_bytes`] gives it) and
    /// whose values follow in `input`. The header must give `NCOLS=`; its `FORMAT=` is
    /// ascii (also when absent), float or double.
    pub fn new(head: &[u8], input: R, name: &str) -> Result<Self, MatrixError> {
        Self::sized(head, input, name, None)
    }

    /// [`RowReader::new`] for a header without `NCOLS=` whose size (`rows`, `cols`) comes
    /// from elsewhere (a resolution line after the header, as rtrace writes with `-x -y`).
    pub fn sized(
        head: &[u8],
        input: R,
        name: &str,
        size: Option<(usize, usize)>,
    ) -> Result<Self, MatrixError> {
        let (mut header, _) = parse_header(head, name)?;
        if let (None, Some((rows, cols))) = (header.cols, size) {
            header.rows = Some(rows);
            header.cols = Some(cols);
        }
        let err = |message: String| MatrixError::Data {
            name: name.to_string(),
            message,
        };
        // No FORMAT= line: ascii, as RADIANCE's rmx_load_header assumes.
        let format = header.format.unwrap_or(Format::Ascii);
        let cols = header
            .cols
            .filter(|&c| c > 0)
            .ok_or_else(|| err("no NCOLS= in the header: the row length is unknown".into()))?;
        let ncomp = header.ncomp.unwrap_or(3).max(1);
        let swap = header
            .big_endian
            .is_some_and(|b| b != cfg!(target_endian = "big"));
        let e = header.exposure;
        let scale = if e.iter().all(|x| (0.99..=1.01).contains(x)) {
            Vec::new()
        } else {
            (0..ncomp)
                .map(|k| (1.0 / e[if ncomp == 3 { k } else { 0 }]) as f32)
                .collect()
        };
        Ok(RowReader {
            input,
            name: name.to_string(),
            line: header.line_count,
            header,
            format,
            cols,
            ncomp,
            swap,
            scale,
            words: Default::default(),
            buf: Vec::new(),
            rows_read: 0,
        })
    }

    /// Values per row.
    pub fn row_len(&self) -> usize {
        self.cols * self.ncomp
    }

    /// Reads the next row into `out` (`row_len` values): `Ok(false)` when the input ended
    /// before the row began, an error when it ended inside it or a word is not a number.
    pub fn read_row(&mut self, out: &mut [f32]) -> Result<bool, MatrixError> {
        let n = self.row_len();
        let out = &mut out[..n];
        let got = match self.format {
            Format::Ascii => self.read_ascii(out)?,
            Format::Float | Format::Double => self.read_binary(out)?,
        };
        if got == 0 {
            return Ok(false);
        }
        if got < n {
            return Err(MatrixError::Data {
                name: self.name.clone(),
                message: format!(
                    "unexpected end of data in row {}: {got} of {n} values",
                    self.rows_read
                ),
            });
        }
        if !self.scale.is_empty() {
            for el in out.chunks_exact_mut(self.ncomp) {
                el.iter_mut().zip(&self.scale).for_each(|(v, s)| *v *= s);
            }
        }
        self.rows_read += 1;
        Ok(true)
    }

    fn read_ascii(&mut self, out: &mut [f32]) -> Result<usize, MatrixError> {
        let mut got = 0;
        while got < out.len() {
            let Some(w) = self.words.pop_front() else {
                let mut line = String::new();
                let n = self
                    .input
                    .read_line(&mut line)
                    .map_err(|source| MatrixError::Io {
                        name: self.name.clone(),
                        source,
                    })?;
                if n == 0 {
                    return Ok(got);
                }
                self.line += 1;
                self.words
                    .extend(line.split_ascii_whitespace().map(str::to_string));
                continue;
            };
            match w.parse::<f32>() {
                Ok(v) => {
                    out[got] = v;
                    got += 1;
                }
                Err(_) => {
                    return Err(MatrixError::Number {
                        name: self.name.clone(),
                        line: self.line,
                        found: crate::header::quote(&w),
                    })
                }
            }
        }
        Ok(got)
    }

    fn read_binary(&mut self, out: &mut [f32]) -> Result<usize, MatrixError> {
        let size = if self.format == Format::Float { 4 } else { 8 };
        let mut buf = std::mem::take(&mut self.buf);
        buf.resize(out.len() * size, 0);
        let mut filled = 0;
        while filled < buf.len() {
            match self.input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(k) => filled += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(MatrixError::Io {
                        name: self.name.clone(),
                        source,
                    })
                }
            }
        }
        let whole = filled / size;
        let values = buf[..whole * size].chunks_exact(size);
        match (size, self.swap) {
            (4, false) => out.iter_mut().zip(values).for_each(|(v, b)| {
                *v = f32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
            }),
            (4, true) => out.iter_mut().zip(values).for_each(|(v, b)| {
                *v = f32::from_ne_bytes([b[3], b[2], b[1], b[0]]);
            }),
            (_, swap) => out.iter_mut().zip(values).for_each(|(v, b)| {
                let mut a = [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]];
                if swap {
                    a.reverse();
                }
                *v = f64::from_ne_bytes(a) as f32;
            }),
        }
        self.buf = buf;
        if filled > 0 && whole == 0 {
            return Err(MatrixError::Data {
                name: self.name.clone(),
                message: format!("unexpected end of data in row {}", self.rows_read),
            });
        }
        Ok(whole)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_one_at_a_time_and_the_end_is_told_apart_from_a_short_row() {
        let text = b"#?RADIANCE\nNCOLS=2\nNCOMP=1\nFORMAT=ascii\n\n1 2\n3\n4 5\n";
        let mut input = &text[..];
        let head = read_header_bytes(&mut input, "m").unwrap();
        let mut r = RowReader::new(&head, input, "m").unwrap();
        let mut row = [0.0f32; 2];
        assert!(r.read_row(&mut row).unwrap());
        assert_eq!(row, [1.0, 2.0]);
        assert!(r.read_row(&mut row).unwrap());
        assert_eq!(row, [3.0, 4.0]);
        assert!(r.read_row(&mut row).is_err());
        let mut bin = b"#?RADIANCE\nNCOLS=1\nNCOMP=1\nFORMAT=float\n\n".to_vec();
        bin.extend_from_slice(&2.5f32.to_ne_bytes());
        let mut input = &bin[..];
        let head = read_header_bytes(&mut input, "b").unwrap();
        let mut r = RowReader::new(&head, input, "b").unwrap();
        let mut one = [0.0f32];
        assert!(r.read_row(&mut one).unwrap());
        assert_eq!(one, [2.5]);
        assert!(!r.read_row(&mut one).unwrap());
    }
}
