//! `rcollate`: a RADIANCE matrix (table) reshaped, transposed or reordered into nested blocks,
//! as RADIANCE's rcollate does it, byte for byte: ASCII records keep their words as written
//! (one space between a record's words, a tab between records, a newline after each row),
//! binary records are copied whole. The input header is copied with the command line and the
//! new `NCOMP`, `NROWS`, `NCOLS` and `FORMAT` lines; an unchanged shape copies the input
//! verbatim. Errors and warnings use RADIANCE's words; the output is written only when the
//! whole input was processed.

use anyhow::{anyhow, bail};
use daylit_radfile::scan::{atoi, is_float};
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "[-h[io]][-w][-c][-f[afdb][N]][-t][-ic in_col][-ir in_row][-oc out_col][-or out_row][-o RxC[xR1xC1..]] [input.dat]";

/// What the command line asks for, and what the header adds.
struct Job {
    ni_columns: i64,
    ni_rows: i64,
    no_columns: i64,
    no_rows: i64,
    transpose: bool,
    i_header: bool,
    o_header: bool,
    /// Output block nesting (`-o RxC[xR1xC1..]`), rows and columns per level, outermost
    /// first (each level's counts multiplied by the levels inside it).
    blocks: Vec<(i64, i64)>,
    /// `ascii`, `float`, `double`, `byte`, or another name from the header.
    format: Option<String>,
    /// Bytes per component (0: ASCII).
    comp_size: usize,
    n_comp: i64,
    warnings: bool,
    check: bool,
}

/// Reads `-o RxC[xR1xC1..]`.
fn block_spec(spec: &str) -> anyhow::Result<Vec<(i64, i64)>> {
    let mut levels = Vec::new();
    let mut rest = spec;
    loop {
        let (r, tail) = rest
            .split_once(['x'])
            .ok_or_else(|| anyhow!("Bad block specification!"))?;
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let (nr, nc) = (digits(r), digits(tail));
        if nr == 0 || nr != r.len() || nc == 0 {
            bail!("Bad block specification!");
        }
        levels.push((atoi(r), atoi(&tail[..nc])));
        rest = &tail[nc..];
        match rest.chars().next() {
            None => break,
            Some('x' | 'X') => rest = &rest[1..],
            Some(_) => bail!("Blocks must be separated by 'x' or 'X'"),
        }
    }
    // Each level counts the records of the levels inside it.
    for k in (0..levels.len().saturating_sub(1)).rev() {
        levels[k].0 *= levels[k + 1].0;
        levels[k].1 *= levels[k + 1].1;
    }
    Ok(levels)
}

/// Runs rcollate with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let usage = || anyhow!("Usage: rcollate {USAGE}");
    let mut j = Job {
        ni_columns: 0,
        ni_rows: 0,
        no_columns: 0,
        no_rows: 0,
        transpose: false,
        i_header: true,
        o_header: true,
        blocks: Vec::new(),
        format: None,
        comp_size: 0,
        n_comp: 0,
        warnings: true,
        check: false,
    };
    let mut a = 0;
    while a < args.len() && args[a].starts_with('-') {
        let w = args[a].as_bytes();
        let value = |a: usize| args.get(a + 1).ok_or_else(usage);
        match (w.get(1), w.get(2)) {
            (Some(b'i'), Some(b'c')) => j.ni_columns = atoi(value(a)?),
            (Some(b'i'), Some(b'r')) => j.ni_rows = atoi(value(a)?),
            (Some(b'o'), Some(b'c')) => j.no_columns = atoi(value(a)?),
            (Some(b'o'), Some(b'r')) => j.no_rows = atoi(value(a)?),
            (Some(b'o'), None) => j.blocks = block_spec(value(a)?)?,
            (Some(b'h'), k) => match k {
                Some(b'i') => j.i_header = false,
                Some(b'o') => j.o_header = false,
                None => (j.i_header, j.o_header) = (false, false),
                _ => return Err(usage()),
            },
            (Some(b't'), _) => j.transpose = !j.transpose,
            (Some(b'w'), _) => j.warnings = !j.warnings,
            (Some(b'c'), _) => j.check = true,
            (Some(b'f'), Some(&f)) => {
                let (name, size) = match f.to_ascii_lowercase() {
                    b'a' => ("ascii", 0),
                    b'f' => ("float", 4),
                    b'd' => ("double", 8),
                    b'b' => ("byte", 1),
                    _ => return Err(usage()),
                };
                j.format = Some(name.into());
                j.comp_size = size;
                j.n_comp = match w.get(3) {
                    None => 1,
                    Some(d) if d.is_ascii_digit() => atoi(&args[a][3..]),
                    Some(_) => return Err(usage()),
                };
            }
            _ => return Err(usage()),
        }
        if matches!(
            (w.get(1), w.get(2)),
            (Some(b'i' | b'o'), Some(b'c' | b'r')) | (Some(b'o'), None)
        ) {
            a += 1;
        }
        a += 1;
    }
    if a + 1 < args.len() {
        return Err(usage());
    }
    if let Some(&(r, c)) = j.blocks.first() {
        (j.no_rows, j.no_columns) = (r, c);
    }
    let input = match args.get(a) {
        Some(path) => {
            std::fs::read(path).map_err(|_| anyhow!("{path}: cannot open for reading"))?
        }
        None => {
            let mut v = Vec::new();
            std::io::stdin().read_to_end(&mut v)?;
            v
        }
    };
    let noop = !j.transpose
        && !j.check
        && j.blocks.len() <= 1
        && j.i_header == j.o_header
        && j.no_columns == j.ni_columns
        && j.no_rows == j.ni_rows;
    if noop {
        if j.warnings {
            eprintln!("rcollate: no-op -- copying input verbatim");
        }
        crate::output::print_bytes([input.as_slice()])?;
        return Ok(if input.is_empty() {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        });
    }
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0;
    if j.i_header {
        at = header(&mut j, &input, &mut out)?;
    }
    check_sizes(&mut j)?;
    if j.o_header {
        if !j.i_header {
            out.extend_from_slice(b"#?RADIANCE\n");
        }
        out.extend_from_slice(
            daylit_radfile::header::command_line("rcollate", &args[..a]).as_bytes(),
        );
        out.push(b'\n');
        out.extend_from_slice(format!("NCOMP={}\n", j.n_comp).as_bytes());
    }
    let data = &input[at..];
    let reorder = j.transpose || j.blocks.len() > 1 || (j.o_header && j.no_rows <= 0);
    let done = if reorder {
        if data.is_empty() {
            bail!("error loading input into memory");
        }
        reorder_records(&mut j, data, &mut out)
    } else {
        resize(&j, data, &mut out)
    };
    match done {
        Ok(()) => {
            crate::output::print_bytes([out.as_slice()])?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
    }
}

/// Reads the input header (up to its blank line), taking the format, sizes and component count
/// and copying the other lines; returns where the data start.
fn header(j: &mut Job, input: &[u8], out: &mut Vec<u8>) -> anyhow::Result<usize> {
    let mut at = 0;
    loop {
        let Some(len) = input[at..].iter().position(|&b| b == b'\n') else {
            bail!("unexpected end of input in the header (no blank line ends it)");
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
                Some(f) => bail!("Input format '{fmt}' != '{f}'"),
            }
        } else if let Some(v) = line.strip_prefix("NROWS=") {
            let n = atoi(v);
            if j.ni_rows > 0 && n != j.ni_rows {
                bail!("Incorrect input row count");
            }
            j.ni_rows = n;
        } else if let Some(v) = line.strip_prefix("NCOLS=") {
            let n = atoi(v);
            if j.ni_columns > 0 && n != j.ni_columns {
                bail!("Incorrect input column count");
            }
            j.ni_columns = n;
        } else if let Some(v) = line.strip_prefix("NCOMP=") {
            if byte_exception {
                continue;
            }
            let n = atoi(v);
            if j.n_comp > 0 && n != j.n_comp {
                bail!("Incorrect number of components");
            }
            j.n_comp = n;
        } else if j.o_header {
            out.extend_from_slice(raw);
        }
    }
}

/// The format's component size, and the output sizes the input sizes imply.
fn check_sizes(j: &mut Job) -> anyhow::Result<()> {
    match j.format.as_deref() {
        None => j.format = Some("ascii".into()),
        Some(_) if j.comp_size > 0 => {}
        Some("float") => j.comp_size = 4,
        Some("double") => j.comp_size = 8,
        Some("byte") => j.comp_size = 1,
        Some("ascii") => {}
        Some(f) => bail!("Unsupported format: {f}"),
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
    let line = daylit_matrix::write::format_line(f, out.len(), crate::output::stdout_is_file());
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
fn index_records(data: &[u8], nw: usize) -> anyhow::Result<Vec<usize>> {
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
                        bail!("Unexpected EOL in record!");
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
fn print_record(
    j: &Job,
    data: &[u8],
    recs: &[usize],
    n: usize,
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    let words = data[recs[n]..recs[n + 1]]
        .split(|&b| blank(b))
        .filter(|w| !w.is_empty())
        .take(j.n_comp as usize);
    for (k, w) in words.enumerate() {
        if j.check && !is_float(w) {
            bail!("Badly formed number: {}", String::from_utf8_lossy(w));
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
fn reorder_records(j: &mut Job, data: &[u8], out: &mut Vec<u8>) -> anyhow::Result<()> {
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
                bail!("Input too small for specified size and type");
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
    let bad = || anyhow!("Bad dimension(s)");
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
        bail!("Number of input and output records do not match");
    }
    end_header(j, out, true);
    for r in 0..j.no_rows {
        for c in 0..j.no_columns {
            let n = input_pos(j, r, c);
            if n < 0 || n >= nrecords {
                bail!("Index past end-of-file");
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
fn resize(j: &Job, data: &[u8], out: &mut Vec<u8>) -> anyhow::Result<()> {
    end_header(j, out, false);
    if j.comp_size > 0 {
        out.extend_from_slice(data);
        let want = j.no_rows * j.no_columns * j.n_comp * j.comp_size as i64;
        if j.no_rows > 0 && j.no_columns > 0 && data.len() as i64 != want {
            if j.check {
                bail!("Incorrect binary file size");
            }
            if j.warnings {
                eprintln!("Warning -- unexpected binary file size");
            }
        }
        if data.is_empty() {
            bail!("no data");
        }
        return Ok(());
    }
    if !j.check && j.no_columns == j.ni_columns && j.no_rows == j.ni_rows {
        out.extend_from_slice(data);
        if data.is_empty() {
            bail!("no data");
        }
        return Ok(());
    }
    if j.no_columns <= 0 {
        bail!("Missing -oc specification");
    }
    // Records still expected; none known means any number (RADIANCE's count wraps below 0).
    let mut to_go = j.ni_rows * j.ni_columns;
    if to_go <= 0 && j.no_rows > 0 {
        to_go = j.no_rows * j.no_columns;
    } else if j.no_rows * j.no_columns != to_go {
        bail!(
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
                return finish(j, columns_to_go, &mut words);
            };
            if j.check && !is_float(w) {
                bail!("Badly formed number: {}", String::from_utf8_lossy(w));
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
            bail!("Incomplete record / unexpected EOF");
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
            return finish(j, columns_to_go, &mut words);
        }
    }
}

/// The checks after the last record: a full last row, nothing more in the input.
fn finish(j: &Job, columns_to_go: i64, words: &mut Words) -> anyhow::Result<()> {
    if columns_to_go != j.no_columns {
        if j.check {
            bail!("Incomplete final row");
        }
        if j.warnings {
            eprintln!("Warning -- incomplete final row");
        }
    }
    if words.next_word().is_some() {
        if j.check {
            bail!("Characters beyond expected EOD");
        }
        if j.warnings {
            eprintln!("Warning -- characters beyond expected EOD");
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
