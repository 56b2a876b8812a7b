//! `rttree_reduce`: a full grid of tensor-tree samples (a file or standard input; `-fa` text,
//! `-ff` floats, `-fd` doubles) reduced to the `{ … }` text of a tensor tree (`-r 3|4`,
//! `-g log2`, `-t pctcull`, `-a` reciprocity averaging), after a RADIANCE header unless `-h`.
//! The work is `daylit_bsdf::tree_reduce`'s; this parses.

use anyhow::{bail, Context};
use daylit_bsdf::tree_reduce::{GridFormat, TreeGrid};
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str =
    "Usage: rttree_reduce [-h][-a][-f{a|f|d}][-r {3|4}][-g log2grid][-t trim%] [input]";

/// `rttree_reduce` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut header = true;
    let mut reciprocity = false;
    let mut rank = 4usize;
    let mut log2 = 4u32;
    let mut format = GridFormat::Ascii;
    let mut pctcull = 95.0f64;
    let mut i = 0;
    let next = |i: &mut usize, opt: &str| -> anyhow::Result<String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .with_context(|| format!("{opt} needs an argument\n{USAGE}"))
    };
    while i < args.len() && args[i].starts_with('-') {
        let a = &args[i];
        match a.as_bytes().get(1).copied() {
            Some(b'a') => reciprocity = !reciprocity,
            Some(b'h') => header = !header,
            Some(b'r') => {
                let v = next(&mut i, "-r")?;
                rank = match v.trim() {
                    "3" => 3,
                    "4" => 4,
                    _ => bail!("-r {v}: tensor rank 3 or 4 expected\n{USAGE}"),
                };
            }
            Some(b'g') => {
                let v = next(&mut i, "-g")?;
                log2 = match v.trim().parse::<u32>() {
                    Ok(g) if g > 1 => g,
                    _ => bail!("-g {v}: log2 of the grid resolution, 2 or more, expected\n{USAGE}"),
                };
            }
            Some(b't') => {
                let v = next(&mut i, "-t")?;
                pctcull = match v.trim().parse::<f64>() {
                    Ok(t) if (0.0..100.0).contains(&t) => t,
                    _ => {
                        bail!("-t {v}: a culling percentage from 0 to below 100 expected\n{USAGE}")
                    }
                };
            }
            Some(b'f') => {
                format = match &a[2..] {
                    "a" => GridFormat::Ascii,
                    "f" => GridFormat::Float,
                    "d" => GridFormat::Double,
                    _ => bail!("unknown input format '{a}' (-fa, -ff or -fd)\n{USAGE}"),
                };
            }
            _ => bail!("unknown option '{a}'\n{USAGE}"),
        }
        i += 1;
    }
    let (name, bytes) = match &args[i..] {
        [] => {
            let mut b = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut b)
                .context("cannot read standard input")?;
            ("<stdin>".to_string(), b)
        }
        [f] => (
            f.clone(),
            std::fs::read(f).with_context(|| format!("cannot open input file '{f}'"))?,
        ),
        _ => bail!("only one input allowed\n{USAGE}"),
    };
    TreeGrid::check_size(rank, log2).map_err(|e| anyhow::anyhow!("{e}\n{USAGE}"))?;
    let (mut grid, warnings) =
        TreeGrid::read(&bytes, format, rank, log2, &name).map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in warnings {
        eprintln!("{w}");
    }
    if reciprocity {
        grid.average_reciprocal();
    }
    let mut out = String::new();
    if header {
        let mut lines = vec![daylit_radfile::header::command_line("rttree_reduce", args)];
        lines.extend(daylit_radfile::header::date_lines());
        lines.push("FORMAT=ascii".into());
        out = daylit_radfile::header::header_start(&lines);
        out.push('\n');
    }
    out.push_str(&grid.reduce(pctcull));
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
