//! `cnt`: RADIANCE's index counter. `cnt N1 [N2 ..]` prints every combination of indices
//! `0..N1`, `0..N2`, … one per line (the last index turning fastest), each value after a tab
//! as RADIANCE's does; `-s` shuffles the lines.

use rand::seq::SliceRandom;
use std::io::Write;
use std::process::ExitCode;

/// `cnt` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (shuffle, dims) = match args.first().map(String::as_str) {
        Some("-s") => (true, &args[1..]),
        _ => (false, args),
    };
    if dims.is_empty() {
        anyhow::bail!("cnt: no counts given (usage: cnt [-s] N1 [N2 ..])");
    }
    let sizes = dims
        .iter()
        .map(|a| match a.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => anyhow::bail!("cnt: {a}: a count must be a whole number above 0"),
        })
        .collect::<anyhow::Result<Vec<u64>>>()?;
    let total = sizes
        .iter()
        .try_fold(1u64, |a, &n| a.checked_mul(n))
        .filter(|&t| !shuffle || t <= 1 << 28)
        .ok_or_else(|| anyhow::anyhow!("cnt: {} lines are too many", dims.join(" x ")))?;
    let line = |mut k: u64| {
        let mut idx = vec![0u64; sizes.len()];
        for (i, &n) in sizes.iter().enumerate().rev() {
            idx[i] = k % n;
            k /= n;
        }
        let mut s = String::new();
        for v in idx {
            s.push('\t');
            s.push_str(&v.to_string());
        }
        s.push('\n');
        s
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let res = if shuffle {
        let mut order: Vec<u64> = (0..total).collect();
        order.shuffle(&mut rand::rng());
        order
            .into_iter()
            .try_for_each(|k| out.write_all(line(k).as_bytes()))
    } else {
        (0..total).try_for_each(|k| out.write_all(line(k).as_bytes()))
    };
    match res.and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => r
            .map(|_| ExitCode::SUCCESS)
            .map_err(|e| anyhow::anyhow!("cnt: cannot write to standard output: {e}")),
    }
}
