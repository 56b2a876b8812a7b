//! `rcollate`: a RADIANCE matrix (table) reshaped, transposed or reordered into nested blocks,
//! as RADIANCE's rcollate does it, byte for byte: ASCII records keep their words as written
//! (one space between a record's words, a tab between records, a newline after each row),
//! binary records are copied whole. The input header is copied with the command line and the
//! new `NCOMP`, `NROWS`, `NCOLS` and `FORMAT` lines; an unchanged shape copies the input
//! verbatim. Errors and warnings use RADIANCE's words; the output is written only when the
//! whole input was processed.

use anyhow::anyhow;
use daylit_matrix::collate::{block_spec, Collate, RecordType};
use daylit_radfile::scan::atoi;
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "[-h[io]][-w][-c][-f[afdb][N]][-t][-ic in_col][-ir in_row][-oc out_col][-or out_row][-o RxC[xR1xC1..]] [input.dat]";

/// Runs rcollate with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let usage = || anyhow!("Usage: rcollate {USAGE}");
    let mut j = Collate::default();
    let mut a = 0;
    while a < args.len() && args[a].starts_with('-') {
        let w = args[a].as_bytes();
        let value = |a: usize| args.get(a + 1).ok_or_else(usage);
        match (w.get(1), w.get(2)) {
            (Some(b'i'), Some(b'c')) => j.in_columns = atoi(value(a)?),
            (Some(b'i'), Some(b'r')) => j.in_rows = atoi(value(a)?),
            (Some(b'o'), Some(b'c')) => j.out_columns = atoi(value(a)?),
            (Some(b'o'), Some(b'r')) => j.out_rows = atoi(value(a)?),
            (Some(b'o'), None) => j.blocks = block_spec(value(a)?).map_err(anyhow::Error::msg)?,
            (Some(b'h'), k) => match k {
                Some(b'i') => j.header_in = false,
                Some(b'o') => j.header_out = false,
                None => (j.header_in, j.header_out) = (false, false),
                _ => return Err(usage()),
            },
            (Some(b't'), _) => j.transpose = !j.transpose,
            (Some(b'w'), _) => j.warnings = !j.warnings,
            (Some(b'c'), _) => j.check = true,
            (Some(b'f'), Some(&f)) => {
                let t = match f.to_ascii_lowercase() {
                    b'a' => RecordType::Ascii,
                    b'f' => RecordType::Float,
                    b'd' => RecordType::Double,
                    b'b' => RecordType::Byte,
                    _ => return Err(usage()),
                };
                let n = match w.get(3) {
                    None => 1,
                    Some(d) if d.is_ascii_digit() => atoi(&args[a][3..]),
                    Some(_) => return Err(usage()),
                };
                j.record = Some((t, n));
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
    if j.is_noop() {
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
    let command = daylit_radfile::header::command_line("rcollate", &args[..a]);
    let pad = crate::output::stdout_is_file();
    let out = j
        .run(&input, &command, pad, &mut |w| eprintln!("{w}"))
        .map_err(anyhow::Error::msg)?;
    crate::output::print_bytes([out.as_slice()])?;
    Ok(ExitCode::SUCCESS)
}
