//! RADIANCE's rcollate: a matrix (table) reshaped, transposed or reordered into nested blocks,
//! byte for byte as rcollate does it: ASCII records keep their words as written (one space
//! between a record's words, a tab between records, a newline after each row), binary records
//! are copied whole. The input header is copied with the command line and the new `NCOMP`,
//! `NROWS`, `NCOLS` and `FORMAT` lines. Errors and warnings use RADIANCE's words.

use daylit_radfile::scan::{atoi, is_float};

type Result<T> = std::result::Result<T, String>;

/// `return Err(format!(…))`.
macro_rules! fail {
    ($($t:tt)*) => {
        return Err(format!($($t)*))
    };
}

/// The type of the components of a record (`-f` letters `a`, `f`, `d`, `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordType {
    /// Words of text.
    Ascii,
    /// 32-bit floats.
    Float,
    /// 64-bit floats.
    Double,
    /// Bytes.
    Byte,
}

impl RecordType {
    /// The `FORMAT=` name and the bytes per component (0 for text).
    fn name_and_size(self) -> (&'static str, usize) {
        match self {
            RecordType::Ascii => ("ascii", 0),
            RecordType::Float => ("float", 4),
            RecordType::Double => ("double", 8),
            RecordType::Byte => ("byte", 1),
        }
    }
}

/// What to make of the input: rcollate's options (sizes 0 or less are not given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collate {
    /// `-ic`: input columns.
    pub in_columns: i64,
    /// `-ir`: input rows.
    pub in_rows: i64,
    /// `-oc`: output columns.
    pub out_columns: i64,
    /// `-or`: output rows.
    pub out_rows: i64,
    /// `-t`: transpose.
    pub transpose: bool,
    /// Read an input header (not `-hi`).
    pub header_in: bool,
    /// Write an output header (not `-ho`).
    pub header_out: bool,
    /// `-o RxC[xR1xC1..]` as [`block_spec`] reads it: output blocks, outermost first.
    pub blocks: Vec<(i64, i64)>,
    /// `-f[afdb][N]`: the record type and its number of components.
    pub record: Option<(RecordType, i64)>,
    /// Warnings wanted (not `-w`).
    pub warnings: bool,
    /// `-c`: check every number and the sizes.
    pub check: bool,
}

impl Default for Collate {
    fn default() -> Self {
        Collate {
            in_columns: 0,
            in_rows: 0,
            out_columns: 0,
            out_rows: 0,
            transpose: false,
            header_in: true,
            header_out: true,
            blocks: Vec::new(),
            record: None,
            warnings: true,
            check: false,
        }
    }
}

impl Collate {
    /// The output rows and columns, the outermost block's where `-o` gave blocks.
    fn out_size(&self) -> (i64, i64) {
        match self.blocks.first() {
            Some(&(r, c)) => (r, c),
            None => (self.out_rows, self.out_columns),
        }
    }

    /// Whether nothing would change: rcollate then copies its input verbatim.
    pub fn is_noop(&self) -> bool {
        let (rows, cols) = self.out_size();
        !self.transpose
            && !self.check
            && self.blocks.len() <= 1
            && self.header_in == self.header_out
            && cols == self.in_columns
            && rows == self.in_rows
    }

    /// The collated `input` (header and data) with `command_line` in its header, the
    /// `FORMAT=` line padded where `pad` (the output is a file, as RADIANCE pads it).
    /// Warnings go to `warn` as they arise; an error means no output.
    pub fn run(
        &self,
        input: &[u8],
        command_line: &str,
        pad: bool,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Vec<u8>> {
        let (no_rows, no_columns) = self.out_size();
        let (format, comp_size, n_comp) = match self.record {
            Some((t, n)) => {
                let (name, size) = t.name_and_size();
                (Some(name.to_string()), size, n)
            }
            None => (None, 0, 0),
        };
        let mut j = Job {
            ni_columns: self.in_columns,
            ni_rows: self.in_rows,
            no_columns,
            no_rows,
            transpose: self.transpose,
            i_header: self.header_in,
            o_header: self.header_out,
            blocks: self.blocks.clone(),
            format,
            comp_size,
            n_comp,
            warnings: self.warnings,
            check: self.check,
            pad,
        };
        let mut out: Vec<u8> = Vec::new();
        let mut at = 0;
        if j.i_header {
            at = header(&mut j, input, &mut out)?;
        }
        check_sizes(&mut j)?;
        if j.o_header {
            if !j.i_header {
                out.extend_from_slice(b"#?RADIANCE\n");
            }
            out.extend_from_slice(command_line.as_bytes());
            out.push(b'\n');
            out.extend_from_slice(format!("NCOMP={}\n", j.n_comp).as_bytes());
        }
        let data = &input[at..];
        let reorder = j.transpose || j.blocks.len() > 1 || (j.o_header && j.no_rows <= 0);
        if reorder {
            if data.is_empty() {
                fail!("error loading input into memory");
            }
            reorder_records(&mut j, data, &mut out)?;
        } else {
            resize(&j, data, &mut out, warn)?;
        }
        Ok(out)
    }
}

/// What the command line asks for, and what the header adds.
struct Job {
    ni_columns: i64,
    ni_rows: i64,
    no_columns: i64,
    no_rows: i64,
    transpose: bool,
    i_header: bool,
    o_header: bool,
    /// Output block nesting, rows and columns per level, outermost first (each level's
    /// counts multiplied by the levels inside it).
    blocks: Vec<(i64, i64)>,
    /// `ascii`, `float`, `double`, `byte`, or another name from the header.
    format: Option<String>,
    /// Bytes per component (0: ASCII).
    comp_size: usize,
    n_comp: i64,
    warnings: bool,
    check: bool,
    /// Pad the `FORMAT=` line (output to a file).
    pad: bool,
}

/// Reads `-o RxC[xR1xC1..]`: rows and columns per level, outermost first, each level's
/// counts multiplied by those of the levels inside it.
pub fn block_spec(spec: &str) -> Result<Vec<(i64, i64)>> {
    let mut levels = Vec::new();
    let mut rest = spec;
    loop {
        let (r, tail) = rest
            .split_once(['x'])
            .ok_or_else(|| "Bad block specification!".to_string())?;
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let (nr, nc) = (digits(r), digits(tail));
        if nr == 0 || nr != r.len() || nc == 0 {
            fail!("Bad block specification!");
        }
        levels.push((atoi(r), atoi(&tail[..nc])));
        rest = &tail[nc..];
        match rest.chars().next() {
            None => break,
            Some('x' | 'X') => rest = &rest[1..],
            Some(_) => fail!("Blocks must be separated by 'x' or 'X'"),
        }
    }
    // Each level counts the records of the levels inside it.
    for k in (0..levels.len().saturating_sub(1)).rev() {
        levels[k].0 *= levels[k + 1].0;
        levels[k].1 *= levels[k + 1].1;
    }
    Ok(levels)
}

/// Reads the input header (up to its blank line), taking the format, sizes and component count
/// and copying the other lines; returns where the data start.
fn header(j: &mut Job, input: &[u8], out: &mut Vec<u8>) -> Result<usize> {
    let mut at = 0;
    loop {
        let Some(len) = input[at..].iter().position(|&b| b == b'\n') else {
            fail!("unexpected end of input in the header (no blank line ends it)");
        };
        let raw = &input[at..at + len + 1];
        at += len + 1;
        if raw == b"\n" {
            return Ok(at);
        }
        let line = String::from_utf8_lossy(raw);
        let byte_exception = !j.check && j.comp_size == 1 && j.n_comp > 1;
        if let Some(v) = line.strip_prefix("FORMAT=") {
            let fmt: String = v
                .trim_start()
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            match &j.format {
                None => j.format = Some(fmt),
                Some(_) if byte_exception => {}
                Some(f) if *f == fmt => {}
                Some(f) => fail!("Input format '{fmt}' != '{f}'"),
            }
        } else if let Some(v) = line.strip_prefix("NROWS=") {
            let n = atoi(v);
            if j.ni_rows > 0 && n != j.ni_rows {
                fail!("Incorrect input row count");
            }
            j.ni_rows = n;
        } else if let Some(v) = line.strip_prefix("NCOLS=") {
            let n = atoi(v);
            if j.ni_columns > 0 && n != j.ni_columns {
                fail!("Incorrect input column count");
            }
            j.ni_columns = n;
        } else if let Some(v) = line.strip_prefix("NCOMP=") {
            if byte_exception {
                continue;
            }
            let n = atoi(v);
            if j.n_comp > 0 && n != j.n_comp {
                fail!("Incorrect number of components");
            }
            j.n_comp = n;
        } else if j.o_header {
            out.extend_from_slice(raw);
        }
    }
}

/// The format's component size, and the output sizes the input sizes imply.
fn check_sizes(j: &mut Job) -> Result<()> {
    match j.format.as_deref() {
        None => j.format = Some("ascii".into()),
        Some(_) if j.comp_size > 0 => {}
        Some("float") => j.comp_size = 4,
        Some("double") => j.comp_size = 8,
        Some("byte") => j.comp_size = 1,
        Some("ascii") => {}
        Some(f) => fail!("Unsupported format: {f}"),
    }
    if j.transpose && j.no_rows <= 0 && j.no_columns <= 0 {
        if j.ni_rows > 0 {
            j.no_columns = j.ni_rows;
        }
        if j.ni_columns > 0 {
            j.no_rows = j.ni_columns;
        }
    } else {
        if j.no_columns <= 0 {
            j.no_columns = j.ni_columns;
        }
        if j.no_rows <= 0 && j.no_columns > 0 && (j.ni_rows * j.ni_columns) % j.no_columns == 0 {
            j.no_rows = j.ni_rows * j.ni_columns / j.no_columns;
        }
    }
    if j.n_comp <= 0 {
        j.n_comp = 3;
    }
    Ok(())
}

fn end_header(j: &Job, out: &mut Vec<u8>, sizes: bool) {
    if !j.o_header {
        return;
    }
    if sizes || j.no_rows > 0 {
        out.extend_from_slice(format!("NROWS={}\n", j.no_rows).as_bytes());
    }
    if sizes || j.no_columns > 0 {
        out.extend_from_slice(format!("NCOLS={}\n", j.no_columns).as_bytes());
    }
    let f = j.format.as_deref().unwrap_or("ascii");
    let line = crate::write::format_line(f, out.len(), j.pad);
    out.extend_from_slice(line.as_bytes());
    out.push(b'\n');
}

/// C's `isspace`.
fn c_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

/// RADIANCE's white space between words (a NUL counts as one).
fn blank(b: u8) -> bool {
    b == 0 || c_space(b)
}

/// Where each ASCII record of `nw` words starts (and, last, the end of the data).
fn index_records(data: &[u8], nw: usize) -> Result<Vec<usize>> {
    let mut recs = Vec::new();
    let mut cp = 0;
    loop {
        while cp < data.len() && blank(data[cp]) {
            cp += 1;
        }
        if cp >= data.len() {
            break;
        }
        recs.push(cp);
        let mut n = nw;
        cp += 1;
        while cp < data.len() {
            if blank(data[cp]) {
                n -= 1;
                if n == 0 {
                    break;
                }
                loop {
                    if data[cp] == b'\n' {
                        fail!("Unexpected EOL in record!");
                    }
                    cp += 1;
                    if cp >= data.len() || !blank(data[cp]) {
                        break;
                    }
                }
            }
            cp += 1;
        }
    }
    recs.push(data.len());
    Ok(recs)
}

/// Record `n`'s words, one space apart.
fn print_record(j: &Job, data: &[u8], recs: &[usize], n: usize, out: &mut Vec<u8>) -> Result<()> {
    let words = data[recs[n]..recs[n + 1]]
        .split(|&b| blank(b))
        .filter(|w| !w.is_empty())
        .take(j.n_comp as usize);
    for (k, w) in words.enumerate() {
        if j.check && !is_float(w) {
            fail!("Badly formed number: {}", String::from_utf8_lossy(w));
        }
        if k > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(w);
    }
    Ok(())
}

/// The record of the input read for output row `r`, column `c`.
fn input_pos(j: &Job, r: i64, c: i64) -> i64 {
    if j.blocks.len() > 1 {
        let (mut r, mut c, mut n) = (r, c, 0);
        for w in j.blocks.windows(2) {
            let (sr, sc) = (r / w[1].0, c / w[1].1);
            r -= sr * w[1].0;
            c -= sc * w[1].1;
            n += sr * w[1].0 * w[0].1 + sc * w[1].0 * w[1].1;
        }
        n += r * j.blocks[j.blocks.len() - 1].1 + c;
        if j.transpose {
            let r = n / j.ni_rows;
            let c = n - r * j.ni_rows;
            n = c * j.ni_columns + r;
        }
        n
    } else if j.transpose {
        c * j.ni_columns + r
    } else {
        r * j.no_columns + c
    }
}

/// Transposes or reorders the records in memory.
fn reorder_records(j: &mut Job, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if j.ni_rows <= 0 {
        j.ni_rows = if j.transpose { j.no_columns } else { j.no_rows };
    }
    if j.ni_columns <= 0 {
        j.ni_columns = if j.transpose { j.no_rows } else { j.no_columns };
    }
    let rec_len = j.n_comp as usize * j.comp_size;
    let recs = if j.comp_size == 0 {
        let recs = index_records(data, j.n_comp as usize)?;
        if j.ni_columns <= 0 {
            // Records before the first line's end.
            let eol = data[recs[0]..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|k| recs[0] + k);
            j.ni_columns = eol.map_or(0, |e| {
                recs[..recs.len() - 1]
                    .iter()
                    .take_while(|&&s| s < e)
                    .count() as i64
            });
        }
        Some(recs)
    } else {
        None
    };
    let nrecords = match &recs {
        Some(r) => (r.len() - 1) as i64,
        None if j.ni_rows > 0 && j.ni_columns > 0 => {
            let n = j.ni_rows * j.ni_columns;
            if n > (data.len() / rec_len) as i64 {
                fail!("Input too small for specified size and type");
            }
            n
        }
        None => (data.len() / rec_len) as i64,
    };
    if j.ni_rows <= 0 && j.ni_columns > 0 {
        j.ni_rows = nrecords / j.ni_columns;
    } else if j.ni_columns <= 0 && j.ni_rows > 0 {
        j.ni_columns = nrecords / j.ni_rows;
    }
    let bad = || "Bad dimension(s)".to_string();
    if nrecords != j.ni_rows * j.ni_columns {
        return Err(bad());
    }
    if j.transpose {
        if j.no_columns <= 0 {
            j.no_columns = j.ni_rows;
        }
        if j.no_rows <= 0 {
            j.no_rows = j.ni_columns;
        }
        if j.blocks.len() <= 1 && (j.no_rows != j.ni_columns || j.no_columns != j.ni_rows) {
            return Err(bad());
        }
    } else {
        if j.no_columns <= 0 {
            j.no_columns = j.ni_columns;
        }
        if j.no_rows <= 0 {
            j.no_rows = j.ni_rows;
        }
    }
    if j.ni_rows * j.ni_columns != j.no_rows * j.no_columns {
        fail!("Number of input and output records do not match");
    }
    end_header(j, out, true);
    for r in 0..j.no_rows {
        for c in 0..j.no_columns {
            let n = input_pos(j, r, c);
            if n < 0 || n >= nrecords {
                fail!("Index past end-of-file");
            }
            let n = n as usize;
            match &recs {
                Some(recs) => {
                    print_record(j, data, recs, n, out)?;
                    out.push(if c >= j.no_columns - 1 { b'\n' } else { b'\t' });
                }
                None => out.extend_from_slice(&data[n * rec_len..(n + 1) * rec_len]),
            }
        }
    }
    Ok(())
}

/// Reshapes the records as they stream, ignoring the input's line ends between records.
fn resize(j: &Job, data: &[u8], out: &mut Vec<u8>, warn: &mut dyn FnMut(&str)) -> Result<()> {
    end_header(j, out, false);
    if j.comp_size > 0 {
        out.extend_from_slice(data);
        let want = j.no_rows * j.no_columns * j.n_comp * j.comp_size as i64;
        if j.no_rows > 0 && j.no_columns > 0 && data.len() as i64 != want {
            if j.check {
                fail!("Incorrect binary file size");
            }
            if j.warnings {
                warn("Warning -- unexpected binary file size");
            }
        }
        if data.is_empty() {
            fail!("no data");
        }
        return Ok(());
    }
    if !j.check && j.no_columns == j.ni_columns && j.no_rows == j.ni_rows {
        out.extend_from_slice(data);
        if data.is_empty() {
            fail!("no data");
        }
        return Ok(());
    }
    if j.no_columns <= 0 {
        fail!("Missing -oc specification");
    }
    // Records still expected; none known means any number (RADIANCE's count wraps below 0).
    let mut to_go = j.ni_rows * j.ni_columns;
    if to_go <= 0 && j.no_rows > 0 {
        to_go = j.no_rows * j.no_columns;
    } else if j.no_rows * j.no_columns != to_go {
        fail!(
            "Number of input and output records disagree ({}x{} != {}x{})",
            j.ni_rows,
            j.ni_columns,
            j.no_rows,
            j.no_columns
        );
    }
    let mut words = Words { data, at: 0 };
    let mut columns_to_go = j.no_columns;
    loop {
        let mut n = j.n_comp;
        let mut complete = true;
        while n > 0 {
            n -= 1;
            let Some(w) = words.next_word() else {
                if to_go != 0 || n < j.n_comp - 1 {
                    complete = false;
                    break;
                }
                return finish(j, columns_to_go, &mut words, warn);
            };
            if j.check && !is_float(w) {
                fail!("Badly formed number: {}", String::from_utf8_lossy(w));
            }
            out.extend_from_slice(w);
            if n > 0 {
                if matches!(words.peek(), None | Some(b'\n')) {
                    words.at += 1;
                    complete = false;
                    break;
                }
                out.push(b' ');
            }
        }
        if !complete {
            fail!("Incomplete record / unexpected EOF");
        }
        columns_to_go -= 1;
        if columns_to_go <= 0 {
            out.push(b'\n');
            columns_to_go = j.no_columns;
        } else {
            out.push(b'\t');
        }
        to_go -= 1;
        if to_go == 0 {
            return finish(j, columns_to_go, &mut words, warn);
        }
    }
}

/// The checks after the last record: a full last row, nothing more in the input.
fn finish(
    j: &Job,
    columns_to_go: i64,
    words: &mut Words,
    warn: &mut dyn FnMut(&str),
) -> Result<()> {
    if columns_to_go != j.no_columns {
        if j.check {
            fail!("Incomplete final row");
        }
        if j.warnings {
            warn("Warning -- incomplete final row");
        }
    }
    if words.next_word().is_some() {
        if j.check {
            fail!("Characters beyond expected EOD");
        }
        if j.warnings {
            warn("Warning -- characters beyond expected EOD");
        }
    }
    Ok(())
}

/// RADIANCE's word reader: white space skipped, at most 255 characters a word, and the blanks
/// after a word skipped up to a line end.
struct Words<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Words<'a> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.at).copied()
    }

    fn next_word(&mut self) -> Option<&'a [u8]> {
        while self.peek().is_some_and(blank) {
            self.at += 1;
        }
        self.peek()?;
        let start = self.at;
        while self.at - start < 255 && self.peek().is_some_and(|b| !c_space(b)) {
            self.at += 1;
        }
        let word = &self.data[start..self.at];
        while self.peek().is_some_and(|b| c_space(b) && b != b'\n') {
            self.at += 1;
        }
        Some(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(c: &Collate, input: &str) -> (String, Vec<String>) {
        let mut warnings = Vec::new();
        let out = c
            .run(input.as_bytes(), "rcollate", false, &mut |w| {
                warnings.push(w.to_string())
            })
            .unwrap();
        (String::from_utf8(out).unwrap(), warnings)
    }

    #[test]
    fn a_matrix_transposes() {
        let c = Collate {
            transpose: true,
            header_in: false,
            header_out: false,
            record: Some((RecordType::Ascii, 1)),
            ..Collate::default()
        };
        assert!(!c.is_noop());
        let (out, _) = run(&c, "1 2 3\n4 5 6\n");
        assert_eq!(out, "1\t4\n2\t5\n3\t6\n");
    }

    #[test]
    fn records_reshape_with_a_header() {
        let c = Collate {
            out_columns: 3,
            record: Some((RecordType::Ascii, 2)),
            ..Collate::default()
        };
        let input =
            "#?RADIANCE\nNCOLS=2\nNROWS=3\nFORMAT=ascii\n\n1 2\t3 4\n5 6\t7 8\n9 10\t11 12\n";
        let (out, warnings) = run(&c, input);
        assert_eq!(
            out,
            "#?RADIANCE\nrcollate\nNCOMP=2\nNROWS=2\nNCOLS=3\nFORMAT=ascii\n\n\
             1 2\t3 4\t5 6\n7 8\t9 10\t11 12\n"
        );
        assert!(warnings.is_empty());
    }

    #[test]
    fn blocks_and_errors() {
        assert_eq!(block_spec("2x3x4x5").unwrap(), vec![(8, 15), (4, 5)]);
        assert_eq!(block_spec("2y3").unwrap_err(), "Bad block specification!");
        let c = Collate {
            out_columns: 4,
            header_in: false,
            header_out: false,
            record: Some((RecordType::Ascii, 1)),
            in_rows: 1,
            in_columns: 3,
            ..Collate::default()
        };
        let e = c
            .run(b"1 2 3\n", "rcollate", false, &mut |_| {})
            .unwrap_err();
        assert_eq!(
            e,
            "Number of input and output records disagree (1x3 != 0x4)"
        );
    }
}
