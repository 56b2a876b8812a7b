#![allow(dead_code)] // each test file uses a part of this module
//! Comparing generated scene text with a RADIANCE golden: the same words in the same order,
//! numbers within a relative tolerance plus one unit in the golden's last printed digit (the
//! golden is rounded to that digit).

use std::path::{Path, PathBuf};

/// One golden: its file and its command words (from its `# program ARGS` first line).
pub struct Golden {
    pub path: PathBuf,
    pub args: Vec<String>,
    pub text: String,
}

/// Every `case_*.txt` golden under `dir`, in name order.
pub fn goldens(dir: &str) -> Vec<Golden> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("case_"))
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("golden readable");
            let first = text.lines().next().unwrap_or_default();
            let args = first.split_whitespace().skip(2).map(String::from).collect();
            Golden { path, args, text }
        })
        .collect()
}

/// The size of one unit in the last digit of a printed number (`12.35` → 0.01, `1.235e+01` →
/// 0.01, `7` → 1).
fn last_digit_unit(word: &str) -> f64 {
    let (mant, exp) = match word.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (word, 0),
    };
    let decimals = mant.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    10f64.powi(exp - decimals)
}

/// Compares `ours` with `golden` word by word. Returns the largest relative difference among
/// numbers printed with at least three significant digits, or a description of the first
/// mismatch beyond `rel_tol` (relative) plus one unit in the golden's last digit.
pub fn compare(ours: &str, golden: &str, rel_tol: f64) -> Result<f64, String> {
    let a: Vec<&str> = ours.split_whitespace().collect();
    let g: Vec<&str> = golden.split_whitespace().collect();
    if a.len() != g.len() {
        return Err(format!(
            "{} words, golden has {}\n--- ours\n{ours}--- golden\n{golden}",
            a.len(),
            g.len()
        ));
    }
    let mut worst = 0.0f64;
    for (i, (x, y)) in a.iter().zip(&g).enumerate() {
        match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(u), Ok(v)) => {
                let unit = last_digit_unit(y);
                let diff = (u - v).abs();
                if diff > rel_tol * v.abs() + unit * 1.0001 {
                    return Err(format!(
                        "word {i}: {x} vs golden {y} (tolerance {:.2}% + one unit in the last digit)\n--- ours\n{ours}--- golden\n{golden}",
                        rel_tol * 100.0
                    ));
                }
                if v.abs() >= 100.0 * unit {
                    worst = worst.max(diff / v.abs());
                }
            }
            _ if x == y => {}
            _ => {
                return Err(format!(
                    "word {i}: `{x}` vs golden `{y}`\n--- ours\n{ours}--- golden\n{golden}"
                ))
            }
        }
    }
    Ok(worst)
}
