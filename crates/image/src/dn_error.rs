//! Distribution-normalised error statistics (Wasilewski, Grobe, Wienold & Andersen 2022,
//! seed 004, §3.3 and eq. 2).
//!
//! Paired results (a test value and a reference value per case) are binned by the *reference*
//! value; each bin's mean deviation is taken, and the bin means are averaged:
//!
//! `error_dn = Σ_j (Σ_{i in bin j} Δx_i) / (n_j · nb)`
//!
//! so that every bin weighs the same however many cases fall in it, and the result does not
//! depend on how often each condition occurs in the set. With `Δx = |test − ref|` this is
//! MAE_dn, with `Δx = test − ref` MSD_dn; the relative forms divide by the reference and give
//! percentages (MAPE_dn and MSPD_dn, used for illuminance).
//!
//! Bins are given by their split points: splits `s_1 < … < s_k` make `k + 1` bins, `x < s_1`,
//! `s_1 ≤ x < s_2`, …, `x ≥ s_k`. Eq. 2 assumes every bin holds cases; a bin holding none has
//! no mean, so the average runs over the bins that hold cases and [`DnStats::empty_bins`] says
//! how many were left out.

/// The paper's bins for DGP and UGP: eight, split at 0.2, 0.3, …, 0.8 (absolute deviations).
pub const GLARE_SPLITS: [f64; 7] = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
/// The paper's bins for vertical illuminance Ev (lux): eight, split at 75 · 2^k, k = 0..6
/// (relative deviations, uniform in log Ev from 75 to 4800 lux).
pub const EV_SPLITS: [f64; 7] = [75.0, 150.0, 300.0, 600.0, 1200.0, 2400.0, 4800.0];
/// Bins for luminances (cd/m²) in picture comparisons: one per decade from 0.1 to 10⁵.
pub const LUMINANCE_SPLITS: [f64; 7] = [0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5];

/// One bin of a [`DnStats`].
#[derive(Debug, Clone, PartialEq)]
pub struct BinStat {
    /// Reference values in `[lo, hi)` (−∞ and +∞ at the ends).
    pub lo: f64,
    pub hi: f64,
    /// Cases in the bin.
    pub n: usize,
    /// Mean absolute and mean signed deviation in the bin (NaN when empty); fractions of the
    /// reference for relative statistics.
    pub mae: f64,
    pub msd: f64,
}

/// Distribution-normalised mean absolute error and mean signed deviation (eq. 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DnStats {
    /// Deviations are relative to the reference (`(test − ref) / ref`).
    pub relative: bool,
    /// MAE_dn (MAPE_dn as a fraction when relative).
    pub mae_dn: f64,
    /// MSD_dn (MSPD_dn as a fraction when relative).
    pub msd_dn: f64,
    /// Every bin, lowest first.
    pub bins: Vec<BinStat>,
    /// Bins holding no case, left out of the averages.
    pub empty_bins: usize,
    /// Cases used.
    pub cases: usize,
    /// Cases left out: a value not finite, or (relative) a reference not positive.
    pub skipped: usize,
}

/// Why no statistic could be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DnError {
    #[error("bin splits must be finite and strictly increasing")]
    BadSplits,
    #[error("no usable pair of values ({skipped} left out{})", if *.relative { ": relative errors need a positive reference" } else { ": values must be finite" })]
    NoCases { skipped: usize, relative: bool },
}

/// MAE_dn and MSD_dn of `(test, reference)` pairs binned by the reference at `splits`.
pub fn distribution_normalised(
    pairs: impl IntoIterator<Item = (f64, f64)>,
    splits: &[f64],
    relative: bool,
) -> Result<DnStats, DnError> {
    if splits.iter().any(|s| !s.is_finite()) || splits.windows(2).any(|w| w[0] >= w[1]) {
        return Err(DnError::BadSplits);
    }
    let nb = splits.len() + 1;
    let mut abs_sum = vec![0.0; nb];
    let mut sum = vec![0.0; nb];
    let mut n = vec![0usize; nb];
    let mut skipped = 0;
    for (t, r) in pairs {
        if !(t.is_finite() && r.is_finite()) || (relative && r <= 0.0) {
            skipped += 1;
            continue;
        }
        // Number of splits at or below the reference.
        let j = splits.partition_point(|&s| s <= r);
        let d = if relative { (t - r) / r } else { t - r };
        abs_sum[j] += d.abs();
        sum[j] += d;
        n[j] += 1;
    }
    let cases: usize = n.iter().sum();
    if cases == 0 {
        return Err(DnError::NoCases { skipped, relative });
    }
    let bins: Vec<BinStat> = (0..nb)
        .map(|j| BinStat {
            lo: if j == 0 {
                f64::NEG_INFINITY
            } else {
                splits[j - 1]
            },
            hi: splits.get(j).copied().unwrap_or(f64::INFINITY),
            n: n[j],
            mae: abs_sum[j] / n[j] as f64,
            msd: sum[j] / n[j] as f64,
        })
        .collect();
    let full: Vec<&BinStat> = bins.iter().filter(|b| b.n > 0).collect();
    let mean = |f: fn(&BinStat) -> f64| full.iter().map(|b| f(b)).sum::<f64>() / full.len() as f64;
    Ok(DnStats {
        relative,
        mae_dn: mean(|b| b.mae),
        msd_dn: mean(|b| b.msd),
        empty_bins: nb - full.len(),
        bins,
        cases,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worked example by hand. Splits at 0.4 and 0.6, so three bins.
    ///   bin 1 (ref < 0.4):        (0.30, 0.20), (0.10, 0.30): Δ = +0.10, −0.20
    ///                             MAE 0.15, MSD −0.05
    ///   bin 2 (0.4 ≤ ref < 0.6):  (0.50, 0.40), (0.45, 0.50), (0.60, 0.50), (0.55, 0.55):
    ///                             Δ = +0.10, −0.05, +0.10, 0 → MAE 0.0625, MSD 0.0375
    ///   bin 3 (ref ≥ 0.6):        (0.70, 0.90): Δ = −0.20 → MAE 0.20, MSD −0.20
    ///   MAE_dn = (0.15 + 0.0625 + 0.20) / 3 = 0.1375
    ///   MSD_dn = (−0.05 + 0.0375 − 0.20) / 3 = −0.070833…
    /// whereas the plain means over the 7 cases are MAE 0.75/7 = 0.1071, MSD −0.15/7.
    #[test]
    fn hand_computed_example() {
        let pairs = [
            (0.30, 0.20),
            (0.10, 0.30),
            (0.50, 0.40),
            (0.45, 0.50),
            (0.60, 0.50),
            (0.55, 0.55),
            (0.70, 0.90),
        ];
        let e = distribution_normalised(pairs, &[0.4, 0.6], false).unwrap();
        assert!((e.mae_dn - 0.1375).abs() < 1e-12, "{}", e.mae_dn);
        assert!((e.msd_dn + 0.2125 / 3.0).abs() < 1e-12, "{}", e.msd_dn);
        assert_eq!(e.bins.iter().map(|b| b.n).collect::<Vec<_>>(), [2, 4, 1]);
        assert!((e.bins[1].mae - 0.0625).abs() < 1e-12);
        assert!((e.bins[1].msd - 0.0375).abs() < 1e-12);
        assert_eq!((e.bins[0].lo, e.bins[0].hi), (f64::NEG_INFINITY, 0.4));
        assert_eq!((e.bins[2].lo, e.bins[2].hi), (0.6, f64::INFINITY));
        assert_eq!((e.cases, e.skipped, e.empty_bins), (7, 0, 0));
        // The paper's glare bins: refs 0.2 | 0.3 | 0.4 | 0.5, 0.5, 0.55 | 0.9 fill 5 of 8.
        //   MAE_dn = (0.1 + 0.2 + 0.1 + (0.05 + 0.1 + 0)/3 + 0.2) / 5 = 0.13
        //   MSD_dn = (0.1 − 0.2 + 0.1 + (−0.05 + 0.1 + 0)/3 − 0.2) / 5 = −0.036666…
        let e = distribution_normalised(pairs, &GLARE_SPLITS, false).unwrap();
        assert_eq!(
            e.bins.iter().map(|b| b.n).collect::<Vec<_>>(),
            [0, 1, 1, 1, 3, 0, 0, 1]
        );
        assert_eq!(e.empty_bins, 3);
        assert!((e.mae_dn - 0.13).abs() < 1e-12, "{}", e.mae_dn);
        assert!((e.msd_dn + 0.11 / 3.0).abs() < 1e-12, "{}", e.msd_dn);
        assert!(e.bins[0].mae.is_nan());
    }

    #[test]
    fn relative_form_and_edges() {
        // Ev pairs: 10% high at 100 lux, 20% low at 1000 lux (twice), exact at 10000.
        let pairs = [
            (110.0, 100.0),
            (800.0, 1000.0),
            (800.0, 1000.0),
            (10000.0, 10000.0),
            (5.0, 0.0),
            (f64::NAN, 3.0),
        ];
        let e = distribution_normalised(pairs, &EV_SPLITS, true).unwrap();
        assert_eq!((e.cases, e.skipped, e.empty_bins), (4, 2, 5));
        // Bins: [75,150) +0.1; [600,1200) −0.2, −0.2; [4800,∞) 0.
        assert!((e.mae_dn - 0.1).abs() < 1e-12, "{}", e.mae_dn);
        assert!((e.msd_dn + 0.1 / 3.0).abs() < 1e-12, "{}", e.msd_dn);
        // A reference exactly on a split belongs to the upper bin.
        let e = distribution_normalised([(1.0, 0.5)], &[0.5], false).unwrap();
        assert_eq!(e.bins[1].n, 1);
        assert!(matches!(
            distribution_normalised([(1.0, 0.0)], &[1.0], true),
            Err(DnError::NoCases { skipped: 1, .. })
        ));
        assert_eq!(
            distribution_normalised([(1.0, 1.0)], &[2.0, 1.0], false),
            Err(DnError::BadSplits)
        );
        // No splits: one bin, the plain mean.
        let e = distribution_normalised([(1.0, 2.0), (4.0, 1.0)], &[], false).unwrap();
        assert_eq!((e.mae_dn, e.msd_dn), (2.0, 1.0));
    }
}
