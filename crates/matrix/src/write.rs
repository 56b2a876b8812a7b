//! Writing matrices as RADIANCE's `dctimestep` writes them: header lines, the dimensions,
//! `NCOMP=`, `BigEndian=` for binary formats, `FORMAT=` (padded for alignment), a blank line,
//! then the values
//! (ASCII: `%.6e`, elements of a row separated by tabs, one row per line).

use crate::{Format, Matrix};
use rayon::prelude::*;
use std::io::{self, Write};

/// Writes a RADIANCE matrix header: `#?RADIANCE`, `lines` (each without its newline), the
/// dimensions and format, and the blank line that ends it.
pub fn write_header(
    out: &mut impl Write,
    lines: &[String],
    rows: usize,
    cols: usize,
    ncomp: usize,
    format: Format,
) -> io::Result<()> {
    write_header_aligned(out, lines, rows, cols, ncomp, format, true)
}

/// [`write_header`], with the `FORMAT=` line padded (`align`) or not: RADIANCE pads it when
/// the output is a file and not when it is a pipe.
pub fn write_header_aligned(
    out: &mut impl Write,
    lines: &[String],
    rows: usize,
    cols: usize,
    ncomp: usize,
    format: Format,
    align: bool,
) -> io::Result<()> {
    let mut h = String::from("#?RADIANCE\n");
    for l in lines {
        h += l;
        h.push('\n');
    }
    h += &format!("NROWS={rows}\nNCOLS={cols}\nNCOMP={ncomp}\n");
    if format != Format::Ascii {
        h += if cfg!(target_endian = "big") {
            "BigEndian=1\n"
        } else {
            "BigEndian=0\n"
        };
    }
    h += &format_line(format.name(), h.len(), align);
    h.push('\n');
    out.write_all(h.as_bytes())
}

/// The `FORMAT=` line (with its newline) as RADIANCE's `fputformat` writes it at byte `pos` of
/// the output: when `align`, padded with spaces so that the data after the header's blank
/// line start at a multiple of the element size of a binary format (`float`, `double`,
/// `16-bit`…`64-bit` types), for mmap. RADIANCE pads only when it can tell the position: in a
/// file, not in a pipe.
pub fn format_line(name: &str, pos: usize, align: bool) -> String {
    let mut line = format!("FORMAT={name}");
    let size = [
        ("float", 4),
        ("double", 8),
        ("16-bit", 2),
        ("32-bit", 4),
        ("64-bit", 8),
    ]
    .iter()
    .find(|(p, _)| name.starts_with(p))
    .map(|&(_, n)| n)
    .filter(|_| align && !name.contains("_rle_"));
    if let Some(size) = size {
        let rem = (pos + line.len() + 2) % size;
        if rem > 0 {
            line.extend(std::iter::repeat_n(' ', size - rem));
        }
    }
    line.push('\n');
    line
}

/// Writes the header (with `m.header_lines`) and the values.
pub fn write_matrix(m: &Matrix, format: Format, out: &mut impl Write) -> io::Result<()> {
    write_header(out, &m.header_lines, m.rows(), m.cols(), m.ncomp(), format)?;
    write_body(m, format, out)
}

/// Rows formatted at once for ASCII output: enough to keep every thread busy, few enough to
/// bound the memory held.
const ASCII_BATCH_ROWS: usize = 64;

/// Writes the values in `format` (binary: this machine's byte order, as the header says).
pub fn write_body(m: &Matrix, format: Format, out: &mut impl Write) -> io::Result<()> {
    let data = m.data();
    match format {
        Format::Ascii => {
            let row_len = m.cols() * m.ncomp();
            // Formatting dominates: rows are formatted in parallel, written in order, into
            // buffers kept from batch to batch (fresh ones cost a page fault every 4 KiB).
            let mut texts: Vec<String> = Vec::new();
            for batch in data.chunks(row_len.max(1) * ASCII_BATCH_ROWS) {
                let rows = batch.len().div_ceil(row_len.max(1));
                texts.resize_with(rows, String::new);
                texts
                    .par_iter_mut()
                    .zip(batch.par_chunks(row_len.max(1)))
                    .for_each(|(t, row)| {
                        t.clear();
                        ascii_row(row, m.ncomp(), t);
                    });
                for t in &texts {
                    out.write_all(t.as_bytes())?;
                }
            }
            Ok(())
        }
        Format::Float => {
            let mut buf = Vec::with_capacity(1 << 16);
            for chunk in data.chunks(1 << 14) {
                buf.clear();
                chunk
                    .iter()
                    .for_each(|v| buf.extend_from_slice(&v.to_ne_bytes()));
                out.write_all(&buf)?;
            }
            Ok(())
        }
        Format::Double => {
            let mut buf = Vec::with_capacity(1 << 17);
            for chunk in data.chunks(1 << 14) {
                buf.clear();
                chunk
                    .iter()
                    .for_each(|v| buf.extend_from_slice(&f64::from(*v).to_ne_bytes()));
                out.write_all(&buf)?;
            }
            Ok(())
        }
    }
}

/// The values as rmtxop writes ASCII: each component as ` %.7e`, a tab after every element
/// (the last included), a newline after every row.
pub fn write_body_rmtxop(m: &Matrix, out: &mut impl Write) -> io::Result<()> {
    let nc = m.ncomp();
    let row_len = m.cols() * nc;
    let mut s = String::with_capacity(row_len * 16);
    for row in m.data().chunks(row_len.max(1)) {
        s.clear();
        for el in row.chunks(nc) {
            for v in el {
                s.push(' ');
                daylit_radfile::printf::push_e(&mut s, f64::from(*v), 7);
            }
            s.push('\t');
        }
        s.push('\n');
        out.write_all(s.as_bytes())?;
    }
    Ok(())
}

/// One row: components separated by spaces, elements by tabs, a newline at the end.
fn ascii_row(row: &[f32], ncomp: usize, s: &mut String) {
    let n_el = row.len() / ncomp.max(1);
    for (i, el) in row.chunks(ncomp.max(1)).enumerate() {
        for (k, v) in el.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            format_e6(f64::from(*v), s);
        }
        s.push(if i + 1 == n_el { '\n' } else { '\t' });
    }
}

/// Appends `v` as C's `%.6e` writes it (`2.200000e+01`, `-nan`, `inf`).
pub fn format_e6(v: f64, out: &mut String) {
    daylit_radfile::printf::push_e(out, v, 6)
}
