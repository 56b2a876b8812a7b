//! `daylit compare`'s reports: the Tregenza-patch comparison of two pictures (seed 001) and
//! the distribution-normalised errors beside it (seed 004), as text or JSON, and the same
//! errors for two lists of values.

use crate::dn_error::{self, DnError, DnStats};
use crate::tregenza::{self, Comparison};
use std::fmt::Write as _;

/// `writeln!` into a `String` (writing to a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// The distribution-normalised errors of some pairs (test, reference): absolute and
/// relative.
#[derive(Debug)]
pub struct DnReport {
    /// What the cases are ("patches", "pixels", "values").
    pub over: &'static str,
    /// The bin splits of the reference values.
    pub splits: Vec<f64>,
    /// Absolute deviations.
    pub abs: DnStats,
    /// Relative deviations; `None` when no reference is positive.
    pub rel: Option<DnStats>,
}

impl DnReport {
    /// The errors of `pairs` binned at `splits`.
    pub fn new(
        pairs: &[(f64, f64)],
        splits: Vec<f64>,
        over: &'static str,
    ) -> Result<DnReport, DnError> {
        let abs = dn_error::distribution_normalised(pairs.iter().copied(), &splits, false)?;
        let rel = dn_error::distribution_normalised(pairs.iter().copied(), &splits, true).ok();
        Ok(DnReport {
            over,
            splits,
            abs,
            rel,
        })
    }

    /// Appends the errors bin by bin, as a text table.
    pub fn write_bins(&self, out: &mut String) {
        let d = self;
        outln!(
            out,
            "\nbin of reference values        cases          MAE          MSD"
        );
        for b in &d.abs.bins {
            let num = |x: f64| {
                if b.n > 0 {
                    format!("{x:>12.4e}")
                } else {
                    format!("{:>12}", "-")
                }
            };
            outln!(
                out,
                "[{:>11}, {:>11})  {:>6} {} {}",
                b.lo,
                b.hi,
                b.n,
                num(b.mae),
                num(b.msd)
            );
        }
    }

    /// Appends the errors as two text lines, or with `json` as the JSON member `"dn"`
    /// (followed by a comma unless `last`; with the bins when `verbose`).
    pub fn write(&self, out: &mut String, json: bool, verbose: bool, last: bool) {
        let d = self;
        let splits = d
            .splits
            .iter()
            .map(|s| format!("{s}"))
            .collect::<Vec<_>>()
            .join(", ");
        let (rel_mae, rel_msd) = d
            .rel
            .as_ref()
            .map_or((f64::NAN, f64::NAN), |r| (r.mae_dn, r.msd_dn));
        let used = d.abs.bins.len() - d.abs.empty_bins;
        if json {
            outln!(out, "  \"dn\": {{");
            outln!(
                out,
                "    \"over\": \"{}\", \"cases\": {}, \"skipped\": {},",
                d.over,
                d.abs.cases,
                d.abs.skipped
            );
            outln!(out, "    \"splits\": [{splits}], \"bins_used\": {used},");
            outln!(
                out,
                "    \"mae_dn\": {}, \"msd_dn\": {},",
                json_num(d.abs.mae_dn),
                json_num(d.abs.msd_dn)
            );
            outln!(
                out,
                "    \"mape_dn\": {}, \"mspd_dn\": {}{}",
                json_num(100.0 * rel_mae),
                json_num(100.0 * rel_msd),
                if verbose { "," } else { "" }
            );
            if verbose {
                let rows: Vec<String> = d
                    .abs
                    .bins
                    .iter()
                    .map(|b| {
                        format!(
                            "{{\"lo\": {}, \"hi\": {}, \"n\": {}, \"mae\": {}, \"msd\": {}}}",
                            json_num(b.lo),
                            json_num(b.hi),
                            b.n,
                            json_num(b.mae),
                            json_num(b.msd)
                        )
                    })
                    .collect();
                outln!(out, "    \"bins\": [{}]", rows.join(", "));
            }
            outln!(out, "  }}{}", if last { "" } else { "," });
        } else {
            outln!(
                out,
                "MAE_dn:    {:.6}  MSD_dn: {:+.6}  ({} {}, {used} of {} bins by reference, split at {splits})",
                d.abs.mae_dn,
                d.abs.msd_dn,
                d.abs.cases,
                d.over,
                d.abs.bins.len()
            );
            outln!(
                out,
                "MAPE_dn:   {:.3}%  MSPD_dn: {:+.3}%",
                100.0 * rel_mae,
                100.0 * rel_msd
            );
        }
    }
}

/// What a picture comparison reports.
pub struct PictureReport<'a> {
    /// The picture judged, as named to the user.
    pub test: &'a str,
    /// The reference picture, as named.
    pub reference: &'a str,
    /// The view, as RADIANCE options.
    pub view: &'a str,
    /// Pixels across.
    pub width: usize,
    /// Pixels down.
    pub height: usize,
    /// The Tregenza-patch comparison.
    pub comparison: &'a Comparison,
    /// The distribution-normalised errors (over patches or pixels).
    pub dn: &'a DnReport,
}

impl PictureReport<'_> {
    /// The report as text, or as JSON with `json`; `verbose` adds the bins and a line per
    /// patch.
    pub fn render(&self, json: bool, verbose: bool) -> String {
        let mut out = String::new();
        let (c, d) = (self.comparison, self.dn);
        if json {
            outln!(out, "{{");
            outln!(out, "  \"view\": \"{}\",", self.view);
            outln!(
                out,
                "  \"width\": {}, \"height\": {},",
                self.width,
                self.height
            );
            outln!(out, "  \"patches_visible\": {},", c.visible);
            outln!(out, "  \"patches_compared\": {},", c.patches.len());
            outln!(out, "  \"patches_dark_reference\": {},", c.dark_reference);
            outln!(out, "  \"mbe_rel\": {},", json_num(c.mbe_rel));
            outln!(out, "  \"abs_mbe_rel\": {},", json_num(c.mbe_rel.abs()));
            outln!(out, "  \"rmse_rel\": {},", json_num(c.rmse_rel));
            d.write(&mut out, true, verbose, false);
            outln!(
                out,
                "  \"within\": {{\"0.05\": {}, \"0.10\": {}, \"0.20\": {}}}{}",
                json_num(c.within[0].1),
                json_num(c.within[1].1),
                json_num(c.within[2].1),
                if verbose { "," } else { "" }
            );
            if verbose {
                outln!(out, "  \"per_patch\": [");
                for (i, p) in c.patches.iter().enumerate() {
                    outln!(
                        out,
                        "    {{\"patch\": {}, \"test\": {}, \"reference\": {}, \"rel_error\": {}, \"covered_sr\": {}, \"patch_sr\": {}}}{}",
                        p.patch + 1,
                        json_num(p.test),
                        json_num(p.reference),
                        json_num(p.rel_error),
                        json_num(p.covered_sr),
                        json_num(p.patch_sr),
                        if i + 1 < c.patches.len() { "," } else { "" }
                    );
                }
                outln!(out, "  ]");
            }
            outln!(out, "}}");
        } else {
            outln!(out, "test:      {}", self.test);
            outln!(out, "reference: {}", self.reference);
            outln!(out, "view:      {}", self.view);
            outln!(
                out,
                "patches:   {} compared ({} fully visible, {} with a black reference)",
                c.patches.len(),
                c.visible,
                c.dark_reference
            );
            outln!(out, "MBE_rel:   {:+.3}%", 100.0 * c.mbe_rel);
            outln!(out, "RMSE_rel:  {:.3}%", 100.0 * c.rmse_rel);
            d.write(&mut out, false, false, true);
            for (t, f) in c.within {
                outln!(
                    out,
                    "within {:>2.0}%: {:.1}% of patches",
                    100.0 * t,
                    100.0 * f
                );
            }
            if verbose {
                d.write_bins(&mut out);
                outln!(
                    out,
                    "\npatch  band  test(cd/m2)  reference(cd/m2)  error  covered/patch sr"
                );
                for p in &c.patches {
                    let (band, _) = tregenza::patch_band(p.patch);
                    outln!(
                        out,
                        "{:>5}  {:>4}  {:>11.4e}  {:>16.4e}  {:>+6.2}%  {:.4}/{:.4}",
                        p.patch + 1,
                        band + 1,
                        p.test,
                        p.reference,
                        100.0 * p.rel_error,
                        p.covered_sr,
                        p.patch_sr
                    );
                }
            }
        }
        out
    }
}

/// The report of two lists of values (`--values`): their distribution-normalised errors as
/// text (with the bins when `verbose`) or JSON.
pub fn values_report(
    test: &str,
    reference: &str,
    d: &DnReport,
    json: bool,
    verbose: bool,
) -> String {
    let mut out = String::new();
    if json {
        outln!(out, "{{");
        d.write(&mut out, true, verbose, true);
        outln!(out, "}}");
    } else {
        outln!(out, "test:      {test}");
        outln!(out, "reference: {reference}");
        d.write(&mut out, false, false, true);
        if verbose {
            d.write_bins(&mut out);
        }
    }
    out
}

/// A JSON number (non-finite values as null).
pub fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dn_error`'s worked example with the paper's glare bins: MAE_dn 0.13, MSD_dn −0.0367.
    fn example() -> DnReport {
        let t = [0.30, 0.10, 0.50, 0.45, 0.60, 0.55, 0.70];
        let r = [0.20, 0.30, 0.40, 0.50, 0.50, 0.55, 0.90];
        let pairs: Vec<(f64, f64)> = t.into_iter().zip(r).collect();
        DnReport::new(&pairs, dn_error::GLARE_SPLITS.to_vec(), "values").unwrap()
    }

    #[test]
    fn values_report_as_text_and_json() {
        let d = example();
        let text = values_report("t.txt", "r.txt", &d, false, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "test:      t.txt");
        assert!(
            lines[2].starts_with("MAE_dn:    0.130000  MSD_dn: -0.036667  (7 values, 5 of 8 bins"),
            "{text}"
        );
        assert!(text.contains("bin of reference values"), "{text}");
        let json = values_report("t.txt", "r.txt", &d, true, false);
        assert!(
            json.starts_with(
                "{\n  \"dn\": {\n    \"over\": \"values\", \"cases\": 7, \"skipped\": 0,\n"
            ),
            "{json}"
        );
        assert!(json.ends_with("  }\n}\n"), "{json}");
        assert_eq!(json_num(f64::NAN), "null");
        assert_eq!(json_num(0.25), "0.25");
    }
}
