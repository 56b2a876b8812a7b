//! `rlam`: RADIANCE's record laminator. Joins one record from each input per output line, in
//! turn, with each text input's separator before its record (`-tS`; `-t` alone is a newline;
//! TAB by default, cleared by a binary format; binary records are not separated); `-ia[N]`, `-if[N]`, `-id[N]`, `-ii[N]`, `-iw[N]`,
//! `-ib[N]` set the format and values per record of the inputs that follow; `-in M` stops
//! after M records; `-u` flushes each. Inputs are files, `-` (standard input, which several
//! may share) or `!command`. As RADIANCE's, output stops at the first input that runs out.

use anyhow::{bail, Context};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, ExitCode, Stdio};
use std::rc::Rc;

/// How an input's records are read.
#[derive(Clone, Copy)]
enum Format {
    /// `count` lines.
    Ascii,
    /// `count` binary values of this many bytes.
    Binary(usize),
}

struct Input {
    source: Rc<RefCell<Box<dyn BufRead>>>,
    format: Format,
    count: usize,
    sep: String,
}

/// `rlam` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut format = Format::Ascii;
    let mut count = 1;
    // The separator for text inputs that follow: TAB until a `-t` sets it or a binary format
    // clears it (as RADIANCE's does). Binary records are never separated.
    let mut sep = String::from("\t");
    let mut limit: Option<u64> = None;
    let mut flush = false;
    let mut inputs: Vec<Input> = Vec::new();
    let mut children: Vec<Child> = Vec::new();
    let stdin: Rc<RefCell<Box<dyn BufRead>>> =
        Rc::new(RefCell::new(Box::new(BufReader::new(std::io::stdin()))));
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "-in" {
            let m = args
                .get(i + 1)
                .context("rlam: -in needs a number of records")?;
            limit = Some(
                m.parse()
                    .ok()
                    .with_context(|| format!("rlam: -in {m}: a whole number expected"))?,
            );
            i += 2;
            continue;
        }
        if let Some(t) = a.strip_prefix("-t") {
            sep = if t.is_empty() { "\n".into() } else { t.into() };
        } else if a == "-u" {
            flush = true;
        } else if let Some(spec) = a.strip_prefix("-i").filter(|s| !s.is_empty()) {
            let (kind, n) = spec.split_at(1);
            format = match kind {
                "a" => Format::Ascii,
                "f" | "i" => Format::Binary(4),
                "d" => Format::Binary(8),
                "w" => Format::Binary(2),
                "b" => Format::Binary(1),
                _ => bail!(
                    "rlam: unknown input format {a} (expected -ia, -if, -id, -ii, -iw or -ib)"
                ),
            };
            if matches!(format, Format::Binary(_)) {
                sep.clear();
            }
            count = if n.is_empty() {
                1
            } else {
                match n.parse::<usize>() {
                    Ok(c) => c.max(1),
                    Err(_) => bail!("rlam: {a}: the count must be a whole number"),
                }
            };
        } else if a == "-" {
            inputs.push(Input {
                source: stdin.clone(),
                format,
                count,
                sep: sep.clone(),
            });
        } else if a.starts_with('-') && a.len() > 1 {
            bail!("rlam: unknown option {a}");
        } else {
            let reader: Box<dyn BufRead> = if let Some(cmd) = a.strip_prefix('!') {
                let mut child = Command::new("sh")
                    .args(["-c", cmd])
                    .stdout(Stdio::piped())
                    .spawn()
                    .with_context(|| format!("rlam: cannot run \"{cmd}\""))?;
                let out = child
                    .stdout
                    .take()
                    .context("rlam: no output from command")?;
                children.push(child);
                Box::new(BufReader::new(out))
            } else {
                let f =
                    std::fs::File::open(a).with_context(|| format!("rlam: {a}: cannot open"))?;
                Box::new(BufReader::new(f))
            };
            inputs.push(Input {
                source: Rc::new(RefCell::new(reader)),
                format,
                count,
                sep: sep.clone(),
            });
        }
        i += 1;
    }
    if inputs.is_empty() {
        bail!(
            "rlam: no inputs (usage: rlam [-tS][-u][-i{{a|f|d|i|w|b}}[N]][-in M] input1 input2 ..)"
        );
    }
    let eol = inputs.iter().any(|p| matches!(p.format, Format::Ascii));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let res = laminate(&inputs, eol, limit, flush, &mut out).and_then(|_| out.flush());
    for mut c in children {
        let _ = c.kill();
        let _ = c.wait();
    }
    match res {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e).context("rlam"),
        Ok(()) => Ok(ExitCode::SUCCESS),
    }
}

/// Writes records until an input runs out or `limit` records are written.
fn laminate(
    inputs: &[Input],
    eol: bool,
    limit: Option<u64>,
    flush: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut n = 0u64;
    while limit.is_none_or(|m| n < m) {
        for (k, inp) in inputs.iter().enumerate() {
            let mut src = inp.source.borrow_mut();
            for v in 0..inp.count {
                let data = match inp.format {
                    Format::Ascii => {
                        let mut line = Vec::new();
                        if src.read_until(b'\n', &mut line)? == 0 {
                            return Ok(());
                        }
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        }
                        line
                    }
                    Format::Binary(size) => {
                        let mut buf = vec![0u8; size];
                        match src.read_exact(&mut buf) {
                            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                                return Ok(())
                            }
                            r => r?,
                        }
                        buf
                    }
                };
                if (k > 0 || v > 0) && matches!(inp.format, Format::Ascii) {
                    out.write_all(inp.sep.as_bytes())?;
                }
                out.write_all(&data)?;
            }
        }
        if eol {
            out.write_all(b"\n")?;
        }
        if flush {
            out.flush()?;
        }
        n += 1;
    }
    Ok(())
}
