//! `total`: RADIANCE's column totals. Sums (`-sE`: of `|x|^E`), products (`-p`), maxima
//! (`-u`) or minima (`-l`) of each input column, or their means (`-m`: arithmetic, with the
//! inverse power after `-sE`; geometric for products); text or binary input (`-i{f|d}[N]`)
//! and output (`-o{f|d}`); a result every `-N` records (`-r`: running, not reset), at each
//! blank line and at the end of each file; a blank line right after a result ends the file,
//! as in RADIANCE's. `-in M` reads at most M records per file, `-on M` writes at most M
//! results; `-tC` sets the column separator.

use anyhow::{bail, Context};
use daylit_coefficients::rfluxmtx::format_g_digits;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    /// Sum of `x` (power 0) or of `|x|^power`.
    Sum(f64),
    Product,
    Max,
    Min,
}

struct Options {
    op: Op,
    mean: bool,
    /// Binary input: bytes per value and values per record.
    input: Option<(usize, usize)>,
    /// Binary output: bytes per value.
    output: Option<usize>,
    in_limit: Option<u64>,
    out_limit: Option<u64>,
    tab: Option<char>,
    every: Option<u64>,
    running: bool,
}

/// Running results per column.
struct Totals {
    acc: Vec<f64>,
    /// For geometric means: sum of `ln|x|`, negative count, a zero seen.
    logs: Vec<(f64, u32, bool)>,
    records: u64,
}

impl Totals {
    fn new() -> Totals {
        Totals {
            acc: Vec::new(),
            logs: Vec::new(),
            records: 0,
        }
    }

    fn add(&mut self, op: Op, values: &[f64]) {
        for (c, &x) in values.iter().enumerate() {
            if c == self.acc.len() {
                self.acc.push(match op {
                    Op::Sum(_) => 0.0,
                    Op::Product => 1.0,
                    Op::Max => f64::NEG_INFINITY,
                    Op::Min => f64::INFINITY,
                });
                self.logs.push((0.0, 0, false));
            }
            let a = &mut self.acc[c];
            match op {
                Op::Sum(0.0) => *a += x,
                Op::Sum(p) => *a += x.abs().powf(p),
                Op::Product => {
                    *a *= x;
                    let l = &mut self.logs[c];
                    if x == 0.0 {
                        l.2 = true;
                    } else {
                        l.0 += x.abs().ln();
                        l.1 += u32::from(x < 0.0);
                    }
                }
                Op::Max => *a = a.max(x),
                Op::Min => *a = a.min(x),
            }
        }
        self.records += 1;
    }

    fn result(&self, o: &Options) -> Vec<f64> {
        let n = self.records.max(1) as f64;
        (0..self.acc.len())
            .map(|c| match (o.op, o.mean) {
                (Op::Sum(p), true) if p != 0.0 => (self.acc[c] / n).powf(1.0 / p),
                (Op::Sum(_), true) => self.acc[c] / n,
                (Op::Product, true) => {
                    let (ln, neg, zero) = self.logs[c];
                    if zero {
                        0.0
                    } else {
                        let g = (ln / n).exp();
                        if neg % 2 == 1 {
                            -g
                        } else {
                            g
                        }
                    }
                }
                _ => self.acc[c],
            })
            .collect()
    }
}

/// `total` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options {
        op: Op::Sum(0.0),
        mean: false,
        input: None,
        output: None,
        in_limit: None,
        out_limit: None,
        tab: None,
        every: None,
        running: false,
    };
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let number = |what: &str| -> anyhow::Result<u64> {
            let v = args
                .get(i + 1)
                .with_context(|| format!("total: {what} needs a count"))?;
            v.parse()
                .ok()
                .with_context(|| format!("total: {what} {v}: a whole number expected"))
        };
        match a {
            "-m" => o.mean = true,
            "-p" => o.op = Op::Product,
            "-u" => o.op = Op::Max,
            "-l" => o.op = Op::Min,
            "-r" => o.running = true,
            "-in" => {
                o.in_limit = Some(number("-in")?);
                i += 1;
            }
            "-on" => {
                o.out_limit = Some(number("-on")?);
                i += 1;
            }
            "-" => files.push(None),
            _ if a.starts_with("-s") => {
                let e = &a[2..];
                let p: f64 = if e.is_empty() {
                    0.0
                } else {
                    e.parse()
                        .ok()
                        .filter(|p: &f64| p.is_finite())
                        .with_context(|| format!("total: {a}: a number must follow -s"))?
                };
                o.op = Op::Sum(p);
            }
            _ if a.starts_with("-t") => {
                let mut c = a[2..].chars();
                o.tab = match (c.next(), c.next()) {
                    (Some(t), None) => Some(t),
                    _ => bail!("total: {a}: -t takes one character"),
                };
            }
            _ if a.starts_with("-i") && a.len() > 2 => {
                let size = match &a[2..3] {
                    "f" => 4,
                    "d" => 8,
                    _ => bail!("total: unknown input format {a} (expected -if or -id)"),
                };
                let n = &a[3..];
                let n = if n.is_empty() {
                    1
                } else {
                    n.parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .with_context(|| format!("total: {a}: bad count"))?
                };
                o.input = Some((size, n));
            }
            "-of" => o.output = Some(4),
            "-od" => o.output = Some(8),
            _ if a.len() > 1 && a[1..].bytes().all(|b| b.is_ascii_digit()) => {
                o.every = Some(a[1..].parse::<u64>()?.max(1));
            }
            _ if a.starts_with('-') => bail!(
                "total: unknown option {a} (usage: total [-m][-sE|-p|-u|-l][-tC][-i{{f|d}}[N]][-o{{f|d}}][-in M][-on M][-N [-r]] [file ..])"
            ),
            _ => files.push(Some(a.to_string())),
        }
        i += 1;
    }
    if o.mean && matches!(o.op, Op::Max | Op::Min) {
        bail!("total: -m cannot be combined with -u or -l (a mean of maxima or minima)");
    }
    if files.is_empty() {
        files.push(None);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut written = 0u64;
    for f in &files {
        let reader: Box<dyn BufRead> = match f {
            None => Box::new(BufReader::new(std::io::stdin())),
            Some(name) => Box::new(BufReader::new(
                std::fs::File::open(name).with_context(|| format!("total: {name}: cannot open"))?,
            )),
        };
        if !one_file(reader, &o, &mut out, &mut written)? {
            break;
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("total"),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Totals one input; false once `-on` results are written.
fn one_file(
    mut input: Box<dyn BufRead>,
    o: &Options,
    out: &mut impl Write,
    written: &mut u64,
) -> anyhow::Result<bool> {
    let mut t = Totals::new();
    let mut since = 0u64;
    let mut read = 0u64;
    // Writes a result; false when the output limit is reached.
    let mut emit = |t: &mut Totals, since: &mut u64, reset: bool| -> anyhow::Result<bool> {
        if *since > 0 {
            write_result(out, &t.result(o), o)?;
            *written += 1;
            *since = 0;
            if reset {
                *t = Totals::new();
            }
        }
        Ok(o.out_limit.is_none_or(|m| *written < m))
    };
    loop {
        if o.in_limit.is_some_and(|m| read >= m) {
            break;
        }
        let values = match o.input {
            Some((size, n)) => {
                let mut buf = vec![0u8; size * n];
                match input.read_exact(&mut buf) {
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                    r => r?,
                }
                buf.chunks_exact(size)
                    .map(|c| match size {
                        4 => f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64,
                        _ => f64::from_ne_bytes(c.try_into().expect("8 bytes")),
                    })
                    .collect::<Vec<f64>>()
            }
            None => {
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    break;
                }
                if line.trim().is_empty() {
                    // A blank line gives a result; one right after a result ends the file.
                    if since == 0 {
                        return Ok(true);
                    }
                    if !emit(&mut t, &mut since, !o.running)? {
                        return Ok(false);
                    }
                    continue;
                }
                let words: Vec<&str> = match o.tab {
                    Some(c) => line.trim_end_matches(['\n', '\r']).split(c).collect(),
                    None => line.split_whitespace().collect(),
                };
                words
                    .iter()
                    .map(|w| daylit_radfile::scan::atof(w))
                    .collect()
            }
        };
        read += 1;
        t.add(o.op, &values);
        since += 1;
        if o.every.is_some_and(|n| since >= n) && !emit(&mut t, &mut since, !o.running)? {
            return Ok(false);
        }
    }
    emit(&mut t, &mut since, true)
}

fn write_result(out: &mut impl Write, v: &[f64], o: &Options) -> std::io::Result<()> {
    match o.output {
        Some(4) => v
            .iter()
            .try_for_each(|&x| out.write_all(&(x as f32).to_ne_bytes())),
        Some(_) => v.iter().try_for_each(|&x| out.write_all(&x.to_ne_bytes())),
        None => {
            let sep = o.tab.unwrap_or('\t').to_string();
            let text: Vec<String> = v.iter().map(|&x| format_g_digits(x, 9)).collect();
            writeln!(out, "{}", text.join(&sep))
        }
    }
}
