//! `histo`: RADIANCE's histogram of the columns on standard input. `histo min max n` counts
//! each column's values in `n` equal bins over `[min, max)` (printing each bin's centre);
//! `histo imin imax` takes integer bins `imin..=imax`. `-c` gives cumulative counts, values
//! below `min` included (printing each bin's upper edge, after a first row at the lower
//! edge); `-p` gives percentages of the number of input lines.

use anyhow::{bail, Context};
use daylit_coefficients::rfluxmtx::format_g;
use std::io::BufRead;
use std::process::ExitCode;

/// `histo` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (mut cumulative, mut percent) = (false, false);
    let mut nums = Vec::new();
    for a in args {
        match a.as_str() {
            "-c" => cumulative = true,
            "-p" => percent = true,
            o if o.starts_with('-') && o.parse::<f64>().is_err() => bail!(
                "histo: unknown option {o} (usage: histo [-c][-p] min max n, or histo [-c][-p] imin imax)"
            ),
            n => nums.push(n),
        }
    }
    let real = |s: &str| -> anyhow::Result<f64> {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .with_context(|| format!("histo: {s}: a number expected"))
    };
    let (lo, hi, bins) = match nums.as_slice() {
        [a, b, n] => {
            let n: usize = n.parse().ok().filter(|&n| n > 0).with_context(|| {
                format!("histo: {n}: the number of bins must be a whole number above 0")
            })?;
            (real(a)?, real(b)?, n)
        }
        [a, b] => {
            let whole = |s: &str| -> anyhow::Result<i64> {
                s.parse().ok().with_context(|| {
                    format!("histo: {s}: a whole number expected (or give the number of bins)")
                })
            };
            let (i, j) = (whole(a)?, whole(b)?);
            if j < i {
                bail!("histo: the maximum {j} is below the minimum {i}");
            }
            (i as f64 - 0.5, j as f64 + 0.5, (j - i + 1) as usize)
        }
        _ => bail!("histo: usage: histo [-c][-p] min max n, or histo [-c][-p] imin imax"),
    };
    if hi <= lo || bins > 1 << 24 {
        bail!("histo: the range {lo} to {hi} in {bins} bins is empty or too fine");
    }
    let width = (hi - lo) / bins as f64;
    // Per column: the count below `lo`, then one per bin.
    let mut counts: Vec<Vec<u64>> = Vec::new();
    let mut lines = 0u64;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.context("histo: cannot read standard input")?;
        lines += 1;
        for (c, w) in line.split_whitespace().enumerate() {
            if c == counts.len() {
                counts.push(vec![0; bins + 1]);
            }
            let x = daylit_radfile::scan::atof(w);
            if x < lo {
                counts[c][0] += 1;
            } else if x < hi {
                let b = (((x - lo) / width) as usize).min(bins - 1);
                counts[c][b + 1] += 1;
            }
        }
    }
    let show = |n: u64| {
        if percent {
            format!("{:.6}", 100.0 * n as f64 / lines.max(1) as f64)
        } else {
            n.to_string()
        }
    };
    let mut out = String::new();
    let mut row = |x: f64, values: Vec<u64>| {
        out += &format_g(x);
        for v in values {
            out.push('\t');
            out += &show(v);
        }
        out.push('\n');
    };
    if cumulative {
        let mut sum: Vec<u64> = counts.iter().map(|c| c[0]).collect();
        row(lo, sum.clone());
        for b in 0..bins {
            for (s, c) in sum.iter_mut().zip(&counts) {
                *s += c[b + 1];
            }
            row(lo + width * (b + 1) as f64, sum.clone());
        }
    } else {
        for b in 0..bins {
            row(
                lo + width * (b as f64 + 0.5),
                counts.iter().map(|c| c[b + 1]).collect(),
            );
        }
    }
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
