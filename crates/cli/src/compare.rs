//! `daylit compare`: the Tregenza-patch comparison of two luminance pictures of the same view
//! (seed 001, eq. 2-5), the second being the reference. See `daylit_image::tregenza` for the
//! patch frame (the view direction is the zenith, the view up vector north).
//!
//! Beside it, the distribution-normalised MAE/MSD (and their relative forms) of seed 004,
//! eq. 2, over the compared patches (or pixels) binned by reference luminance; with `--values`
//! the same statistics for any two lists of paired results (DGP, UGP, Ev, ...).

use crate::output;
use anyhow::{bail, Context};
use daylit_image::dn_error;
use daylit_image::report::{values_report, DnReport, PictureReport};
use daylit_image::tregenza::{self, Comparison, PatchMap};
use daylit_image::{HdrImage, View};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `daylit compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The picture to judge (RADIANCE RGBE .hdr), or a list of values with --values.
    test: PathBuf,
    /// The reference picture (same view, same resolution), or list of values.
    reference: PathBuf,
    /// Print the metrics as JSON.
    #[arg(long)]
    json: bool,
    /// Also print one line per compared patch.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// View of both pictures as RADIANCE options (e.g. "-vta -vh 180 -vv 180 -vd 0 1 0"),
    /// instead of their VIEW= header lines [default: the pictures' VIEW= lines].
    #[arg(long, allow_hyphen_values = true)]
    view: Option<String>,
    /// The two files are lists of values (one case a line, paired by line; `#` lines and blank
    /// lines skipped): print only their distribution-normalised errors.
    #[arg(long)]
    values: bool,
    /// Field of each line to read with --values (1 = first; fields split by spaces or commas).
    #[arg(long, default_value_t = 1, value_parser = crate::args::whole::<usize>(1, 100_000))]
    column: usize,
    /// Bands of reference values for the distribution-normalised errors (the error in each
    /// band, averaged over the bands, so that rare values count as much as common ones):
    /// for `dgp`/`ugp` split at 0.2, 0.3 … 0.8, for `ev` at 75, 150 … 4800 lux, for
    /// `luminance` one per decade.
    #[arg(long, value_enum, default_value = "luminance")]
    metric: Metric,
    /// Bin splits instead of the metric's, e.g. 0.35,0.4,0.45 [default: the --metric's].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    bins: Option<Vec<f64>>,
    /// For pictures: the distribution-normalised errors pixel by pixel, not patch by patch.
    #[arg(long)]
    dn_pixels: bool,
}

/// Reference-value bins of the distribution-normalised errors.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
enum Metric {
    Dgp,
    Ugp,
    Ev,
    Luminance,
}

impl Args {
    fn splits(&self) -> Vec<f64> {
        match (&self.bins, self.metric) {
            (Some(b), _) => b.clone(),
            (None, Metric::Dgp | Metric::Ugp) => dn_error::GLARE_SPLITS.to_vec(),
            (None, Metric::Ev) => dn_error::EV_SPLITS.to_vec(),
            (None, Metric::Luminance) => dn_error::LUMINANCE_SPLITS.to_vec(),
        }
    }
}

/// The distribution-normalised errors of some pairs: absolute and relative.
type Dn = DnReport;

fn dn(pairs: &[(f64, f64)], splits: Vec<f64>, over: &'static str) -> anyhow::Result<Dn> {
    DnReport::new(pairs, splits, over)
        .with_context(|| format!("distribution-normalised errors over {over}"))
}

/// Numbers from a text file: the `column`th field (1-based) of every line that is neither
/// blank nor a `#` comment.
fn read_values(path: &Path, column: usize) -> anyhow::Result<Vec<f64>> {
    if column == 0 {
        bail!("--column counts from 1");
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let field = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|f| !f.is_empty())
            .nth(column - 1);
        let Some(field) = field else {
            bail!("{}:{}: no field {column}", path.display(), i + 1);
        };
        match field.parse::<f64>() {
            Ok(v) => out.push(v),
            Err(_) => bail!("{}:{}: '{field}' is not a number", path.display(), i + 1),
        }
    }
    Ok(out)
}

/// The distribution-normalised errors bin by bin, as a text table.
#[cfg(test)]
fn print_dn_bins(out: &mut String, d: &Dn) {
    d.write_bins(out);
}

/// `--values`: pairs the two lists line by line.
fn evaluate_values(a: &Args) -> anyhow::Result<Dn> {
    let t = read_values(&a.test, a.column)?;
    let r = read_values(&a.reference, a.column)?;
    if t.len() != r.len() {
        bail!(
            "{} has {} values but {} has {}: they must pair up",
            a.test.display(),
            t.len(),
            a.reference.display(),
            r.len()
        );
    }
    let pairs: Vec<(f64, f64)> = t.into_iter().zip(r).collect();
    dn(&pairs, a.splits(), "values")
}

/// Writes the distribution-normalised errors as two text lines or as the JSON member `"dn"`
/// (followed by a comma unless `last`; with the bins when `verbose`).
#[cfg(test)]
fn print_dn(out: &mut String, d: &Dn, json: bool, verbose: bool, last: bool) {
    d.write(out, json, verbose, last);
}

fn picture_view(img: &HdrImage, path: &std::path::Path) -> anyhow::Result<Option<View>> {
    img.parsed_view()
        .with_context(|| format!("{}: bad VIEW= line", path.display()))
}

/// Reads both pictures, settles the view and compares them.
fn evaluate(a: &Args) -> anyhow::Result<(View, HdrImage, Comparison)> {
    let test = HdrImage::read(&a.test)?;
    let reference = HdrImage::read(&a.reference)?;
    if (test.width, test.height) != (reference.width, reference.height) {
        bail!(
            "the pictures differ in size: {} is {}x{}, {} is {}x{}",
            a.test.display(),
            test.width,
            test.height,
            a.reference.display(),
            reference.width,
            reference.height
        );
    }
    let view = match &a.view {
        Some(s) => View::parse(s).context("--view")?,
        None => {
            let tv = picture_view(&test, &a.test)?;
            let rv = picture_view(&reference, &a.reference)?;
            match (tv, rv) {
                (Some(t), Some(r)) => {
                    if !t.same_as(&r) {
                        bail!(
                            "the pictures have different views:\n  {}: {}\n  {}: {}\n(give --view to compare them anyway)",
                            a.test.display(),
                            t.to_options(),
                            a.reference.display(),
                            r.to_options()
                        );
                    }
                    r
                }
                (Some(v), None) | (None, Some(v)) => {
                    let (has, lacks) = if test.view.is_some() {
                        (&a.test, &a.reference)
                    } else {
                        (&a.reference, &a.test)
                    };
                    eprintln!(
                        "daylit compare: {} has no VIEW= line; using the view of {}",
                        lacks.display(),
                        has.display()
                    );
                    v
                }
                (None, None) => bail!(
                    "neither picture has a VIEW= line in its header; give the view with --view"
                ),
            }
        }
    };
    let frame = view.frame()?;
    let map = PatchMap::new(&frame, reference.width, reference.height);
    let Some(c) = tregenza::compare(&map, &test.luminance_image(), &reference.luminance_image())
    else {
        bail!(
            "no Tregenza patch can be compared: {} of 145 patches are fully inside the view ({}) and none has a positive reference luminance",
            map.visible.iter().filter(|&&v| v).count(),
            view.to_options()
        );
    };
    Ok((view, reference, c))
}

pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    if a.values {
        let d = evaluate_values(a)?;
        let (t, r) = (
            a.test.display().to_string(),
            a.reference.display().to_string(),
        );
        output::print(&values_report(&t, &r, &d, a.json, a.verbose))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (view, reference, c) = evaluate(a)?;
    let d = if a.dn_pixels {
        let t = HdrImage::read(&a.test)?.luminance_image();
        let pairs: Vec<(f64, f64)> = t.into_iter().zip(reference.luminance_image()).collect();
        dn(&pairs, a.splits(), "pixels")?
    } else {
        let pairs: Vec<(f64, f64)> = c.patches.iter().map(|p| (p.test, p.reference)).collect();
        dn(&pairs, a.splits(), "patches")?
    };
    let (t, r) = (
        a.test.display().to_string(),
        a.reference.display().to_string(),
    );
    let report = PictureReport {
        test: &t,
        reference: &r,
        view: &view.to_options(),
        width: reference.width,
        height: reference.height,
        comparison: &c,
        dn: &d,
    };
    output::print(&report.render(a.json, a.verbose))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(
        dir: &std::path::Path,
        name: &str,
        n: usize,
        scale: f32,
        view: Option<&str>,
    ) -> PathBuf {
        let mut img = HdrImage::new(n, n);
        for r in 0..n {
            for c in 0..n {
                img.set(
                    c,
                    r,
                    [
                        scale * (1.0 + c as f32 / 8.0),
                        scale * (0.5 + r as f32 / 16.0),
                        scale,
                    ],
                );
            }
        }
        if let Some(v) = view {
            img.header.push(format!("VIEW= {v}"));
        }
        let path = dir.join(name);
        img.write(&path, true).unwrap();
        path
    }

    fn args(test: PathBuf, reference: PathBuf, view: Option<&str>) -> Args {
        Args {
            test,
            reference,
            json: true,
            verbose: true,
            view: view.map(str::to_string),
            values: false,
            column: 1,
            metric: Metric::Luminance,
            bins: None,
            dn_pixels: false,
        }
    }

    const FISH: &str = "-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1";

    #[test]
    fn doubled_picture_is_exactly_plus_100_percent() {
        let d = tempfile::tempdir().unwrap();
        let r = picture(d.path(), "r.hdr", 64, 1.0, Some(FISH));
        let t = picture(d.path(), "t.hdr", 64, 2.0, Some(FISH));
        let (_, _, c) = evaluate(&args(t.clone(), r.clone(), None)).unwrap();
        assert_eq!(c.patches.len(), 145);
        assert_eq!((c.mbe_rel, c.rmse_rel), (1.0, 1.0));
        let (_, _, c) = evaluate(&args(r.clone(), r.clone(), None)).unwrap();
        assert_eq!((c.mbe_rel, c.rmse_rel), (0.0, 0.0));
    }

    #[test]
    fn mismatches_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let r = picture(d.path(), "r.hdr", 32, 1.0, Some(FISH));
        let small = picture(d.path(), "s.hdr", 16, 1.0, Some(FISH));
        let other = picture(
            d.path(),
            "o.hdr",
            32,
            1.0,
            Some("-vta -vh 180 -vv 180 -vd 1 0 0"),
        );
        let bare = picture(d.path(), "b.hdr", 32, 1.0, None);
        let e = evaluate(&args(small, r.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("differ in size"), "{e}");
        let e = evaluate(&args(other.clone(), r.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("different views"), "{e}");
        assert!(evaluate(&args(other, r.clone(), Some(FISH))).is_ok());
        let e = evaluate(&args(bare.clone(), bare.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--view"), "{e}");
        assert!(evaluate(&args(bare, r, None)).is_ok());
        let e = format!(
            "{:#}",
            evaluate(&args(
                d.path().join("none.hdr"),
                d.path().join("none.hdr"),
                None
            ))
            .unwrap_err()
        );
        assert!(e.contains("none.hdr"), "{e}");
    }

    /// Distribution-normalised errors beside the patch metrics: a picture at twice the
    /// reference gives +100% in every bin, and MAE_dn equals the mean patch luminance over
    /// the bins it fills.
    #[test]
    fn dn_errors_beside_patch_metrics() {
        let d = tempfile::tempdir().unwrap();
        let r = picture(d.path(), "r.hdr", 64, 1.0, Some(FISH));
        let t = picture(d.path(), "t.hdr", 64, 2.0, Some(FISH));
        let a = args(t.clone(), r.clone(), None);
        let (_, _, c) = evaluate(&a).unwrap();
        let pairs: Vec<(f64, f64)> = c.patches.iter().map(|p| (p.test, p.reference)).collect();
        let got = dn(&pairs, a.splits(), "patches").unwrap();
        let rel = got.rel.as_ref().unwrap();
        assert!((rel.mae_dn - 1.0).abs() < 1e-12 && (rel.msd_dn - 1.0).abs() < 1e-12);
        assert_eq!(got.abs.cases, 145);
        // Patch references here are all 100..1000 cd/m² (one bin): MAE_dn is their mean.
        let mean = c.patches.iter().map(|p| p.reference).sum::<f64>() / 145.0;
        assert_eq!(got.abs.bins.iter().filter(|b| b.n > 0).count(), 1);
        assert!((got.abs.mae_dn - mean).abs() < 1e-9 * mean);
        // Printed both ways, JSON that a parser reads.
        let mut out = String::new();
        print_dn(&mut out, &got, false, false, true);
        print_dn_bins(&mut out, &got);
        assert!(out.contains("[        100,        1000)     145"), "{out}");
        assert!(
            out.contains("MAPE_dn:   100.000%  MSPD_dn: +100.000%"),
            "{out}"
        );
        let mut out = String::from("{\n");
        print_dn(&mut out, &got, true, true, true);
        out.push_str("}\n");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["dn"]["over"], "patches");
        assert_eq!(v["dn"]["mspd_dn"], 100.0);
    }

    /// Two columns of values with the paper's glare bins: the worked example of
    /// `daylit_image::dn_error` (MAE_dn 0.13, MSD_dn −0.0367), read from files.
    #[test]
    fn values_files() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("t.txt");
        let r = d.path().join("r.txt");
        std::fs::write(&t, "# dgp\n0.30\n0.10\n0.50\n\n0.45\n0.60\n0.55\n0.70\n").unwrap();
        std::fs::write(
            &r,
            "x,0.20\nx,0.30\nx,0.40\nx,0.50\nx,0.50\nx,0.55\nx,0.90\n",
        )
        .unwrap();
        let mut a = args(t.clone(), r.clone(), None);
        a.values = true;
        a.metric = Metric::Dgp;
        let e = format!("{:#}", evaluate_values(&a).unwrap_err());
        assert!(e.contains("r.txt:1: 'x' is not a number"), "{e}");
        // The second field of each reference line; the test file has only one.
        std::fs::write(
            &r,
            "0,0.20\n0,0.30\n0,0.40\n0,0.50\n0,0.50\n0,0.55\n0,0.90\n",
        )
        .unwrap();
        a.column = 2;
        let e = format!("{:#}", evaluate_values(&a).unwrap_err());
        assert!(e.contains("t.txt:2: no field 2"), "{e}");
        std::fs::write(
            &t,
            "# dgp\n.,0.30\n.,0.10\n.,0.50\n.,0.45\n.,0.60\n.,0.55\n.,0.70\n",
        )
        .unwrap();
        let got = evaluate_values(&a).unwrap();
        assert!((got.abs.mae_dn - 0.13).abs() < 1e-12, "{}", got.abs.mae_dn);
        assert!((got.abs.msd_dn + 0.11 / 3.0).abs() < 1e-12);
        assert_eq!(got.abs.empty_bins, 3);
        a.bins = Some(vec![0.4, 0.6]);
        let got = evaluate_values(&a).unwrap();
        assert!((got.abs.mae_dn - 0.1375).abs() < 1e-12);
        std::fs::write(&r, "0,0.20\n").unwrap();
        let e = evaluate_values(&a).unwrap_err().to_string();
        assert!(e.contains("must pair up"), "{e}");
    }
}
