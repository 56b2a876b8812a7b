//! Banded colour scales: a value falls into one of the bands between increasing edges, and
//! each band is one flat colour. A designer reads "300–500 lux" off a band at a glance, where
//! a continuous scale only gives a shade; logarithmic edges keep a window's 20 000 lux from
//! flattening the back of a room into one colour.

use crate::palette::Palette;

/// Mantissas of the logarithmic edges: 1, 2, 3, 5 × 10^k, nearly even steps in log (×2,
/// ×1.5, ×1.67, ×2) that include the thresholds designers use (100, 300, 2000, 3000 lux).
const LOG_MANTISSAS: [f64; 4] = [1.0, 2.0, 3.0, 5.0];

/// Increasing band edges; band `k` holds values in `[edges[k], edges[k + 1])`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bands {
    edges: Vec<f64>,
}

/// Edges that cannot make bands.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("band edges must be at least two finite, strictly increasing numbers, found {0:?}")]
pub struct BandsError(pub Vec<f64>);

impl Bands {
    /// Bands between `edges` (at least two, finite, strictly increasing).
    pub fn new(edges: Vec<f64>) -> Result<Bands, BandsError> {
        let ok = edges.len() >= 2
            && edges.iter().all(|e| e.is_finite())
            && edges.windows(2).all(|w| w[0] < w[1]);
        if ok {
            Ok(Bands { edges })
        } else {
            Err(BandsError(edges))
        }
    }

    /// Even bands of width `step` from `lo` up to the first edge at or above `hi` (at least
    /// one band; `step` must be positive).
    pub fn linear(lo: f64, hi: f64, step: f64) -> Result<Bands, BandsError> {
        if !(step > 0.0 && lo.is_finite() && hi.is_finite()) {
            return Err(BandsError(vec![lo, hi, step]));
        }
        let n = (((hi - lo) / step) - 1e-9).ceil().max(1.0) as usize;
        Bands::new((0..=n).map(|k| lo + k as f64 * step).collect())
    }

    /// Logarithmic bands with edges at 1, 2, 3, 5 × 10^k: from the largest such edge at or
    /// below `lo` to the smallest at or above `hi` (`0 < lo`; at least one band).
    pub fn log_steps(lo: f64, hi: f64) -> Result<Bands, BandsError> {
        if !(lo > 0.0 && lo.is_finite() && hi.is_finite()) {
            return Err(BandsError(vec![lo, hi]));
        }
        let hi = hi.max(lo);
        let mut decade = 10f64.powf(lo.log10().floor() - 1.0);
        let mut edges: Vec<f64> = Vec::new();
        loop {
            for m in LOG_MANTISSAS {
                // Round away the binary noise of m × 10^k (0.3 × 10 = 3.0000000000000004).
                let e = round_sig(m * decade);
                if e <= lo * (1.0 + 1e-12) {
                    edges.clear();
                }
                edges.push(e);
                if e >= hi * (1.0 - 1e-12) && edges.len() >= 2 {
                    return Bands::new(edges);
                }
            }
            decade *= 10.0;
        }
    }

    /// The edges, increasing.
    pub fn edges(&self) -> &[f64] {
        &self.edges
    }

    /// Number of bands (one fewer than the edges).
    pub fn count(&self) -> usize {
        self.edges.len() - 1
    }

    /// The band holding `v`: values below the first edge fall in the first band, values at or
    /// above the last in the last (and NaN in the first).
    pub fn band(&self, v: f64) -> usize {
        // Edges above v: the band is the number of edges at or below v, less one.
        let at_or_below = self.edges.partition_point(|&e| e <= v);
        at_or_below.saturating_sub(1).min(self.count() - 1)
    }

    /// Position of band `k`'s middle along a palette, 0..1.
    pub fn position(&self, k: usize) -> f64 {
        (k.min(self.count() - 1) as f64 + 0.5) / self.count() as f64
    }

    /// The display colour of `v`'s band in `palette`.
    pub fn colour(&self, palette: Palette, v: f64) -> [u8; 3] {
        palette.display8(self.position(self.band(v)))
    }
}

/// `x` rounded to 12 significant digits.
fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let p = 10f64.powi(11 - x.abs().log10().floor() as i32);
    (x * p).round() / p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_bands_cover_the_range_at_1_2_3_5() {
        let b = Bands::log_steps(40.0, 14_000.0).unwrap();
        assert_eq!(
            b.edges(),
            &[
                30.0, 50.0, 100.0, 200.0, 300.0, 500.0, 1000.0, 2000.0, 3000.0, 5000.0, 10_000.0,
                20_000.0
            ]
        );
        assert_eq!(b.count(), 11);
        // Values go to the band whose lower edge is at or below them.
        assert_eq!(b.band(299.9), 3);
        assert_eq!(b.band(300.0), 4);
        assert_eq!(b.band(1.0), 0);
        assert_eq!(b.band(1e9), 10);
        assert_eq!(b.band(f64::NAN), 0);
        // Edges on the sequence are kept, and small decades are exact.
        let b = Bands::log_steps(0.3, 3.0).unwrap();
        assert_eq!(b.edges(), &[0.3, 0.5, 1.0, 2.0, 3.0]);
        let b = Bands::log_steps(100.0, 100.0).unwrap();
        assert_eq!(b.edges(), &[100.0, 200.0]);
        assert!(Bands::log_steps(0.0, 10.0).is_err());
    }

    #[test]
    fn linear_bands_and_colours() {
        let b = Bands::linear(0.0, 1.0, 0.1).unwrap();
        assert_eq!(b.count(), 10);
        assert_eq!(b.band(0.5), 5);
        assert_eq!(b.band(0.4999), 4);
        assert_eq!(b.band(1.0), 9);
        assert_eq!(b.position(0), 0.05);
        assert_eq!(
            b.colour(Palette::Viridis, 2.0),
            Palette::Viridis.display8(0.95)
        );
        assert!(Bands::new(vec![1.0, 1.0]).is_err());
        assert!(Bands::new(vec![1.0]).is_err());
        assert!(Bands::linear(0.0, 1.0, 0.0).is_err());
    }
}
