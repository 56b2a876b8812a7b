//! Wavelet-guided choice of new samples over the Shirley–Chiu square of both hemispheres
//! (seed 004 §2.1, Fig. 3–4): a weight per cell (the feature of the sample in it, or of the
//! coarser cell it came from), up-sampled by two each level; the detail of a cell is the sum of
//! the magnitudes of its Haar differences with its four neighbours; cells whose detail passes
//! the level's threshold get a sample.
//!
//! The square is `2·res × res` cells: `u ∈ [0, 2)` (the upper hemisphere `u < 1`, the lower
//! `u ≥ 1`, as [`daylit_sky::patches::shirley_chiu_uv`]), `v ∈ [0, 1)`.

/// A weight image over the square at one resolution.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Cells per side of each hemisphere's square.
    pub res: usize,
    /// `2·res × res` weights, `[i · res + j]` with `i` along `u` and `j` along `v`.
    pub w: Vec<f64>,
}

impl Weights {
    /// All zero at `res`.
    pub fn new(res: usize) -> Weights {
        Weights {
            res,
            w: vec![0.0; 2 * res * res],
        }
    }

    /// The cell `(i, j)` holding square point `(u, v)`.
    pub fn cell(&self, u: f64, v: f64) -> (usize, usize) {
        let r = self.res as f64;
        let i = ((u * r).floor().max(0.0) as usize).min(2 * self.res - 1);
        let j = ((v * r).floor().max(0.0) as usize).min(self.res - 1);
        (i, j)
    }

    /// Sets the weight of the cell holding `(u, v)`.
    pub fn set(&mut self, u: f64, v: f64, value: f64) {
        let (i, j) = self.cell(u, v);
        self.w[i * self.res + j] = value;
    }

    /// Each cell split in 2 × 2 cells of its weight.
    pub fn upsample(&self) -> Weights {
        let res = 2 * self.res;
        let mut w = vec![0.0; 2 * res * res];
        for i in 0..2 * res {
            for j in 0..res {
                w[i * res + j] = self.w[(i / 2) * self.res + j / 2];
            }
        }
        Weights { res, w }
    }

    /// The detail of every cell: the sum of `|w − w_neighbour|` over its four neighbours,
    /// halved (each difference is a Haar detail coefficient shared by two cells). A missing
    /// neighbour at the edge of a hemisphere's square counts as the cell itself (reflection).
    pub fn detail(&self) -> Vec<f64> {
        let (res, w) = (self.res, &self.w);
        let at = |i: usize, j: usize| w[i * res + j];
        let mut d = vec![0.0; w.len()];
        for i in 0..2 * res {
            // The two hemispheres do not neighbour each other along u.
            let (lo, hi) = if i < res {
                (0, res - 1)
            } else {
                (res, 2 * res - 1)
            };
            for j in 0..res {
                let c = at(i, j);
                let mut s = 0.0;
                if i > lo {
                    s += (c - at(i - 1, j)).abs();
                }
                if i < hi {
                    s += (c - at(i + 1, j)).abs();
                }
                if j > 0 {
                    s += (c - at(i, j - 1)).abs();
                }
                if j + 1 < res {
                    s += (c - at(i, j + 1)).abs();
                }
                d[i * res + j] = 0.5 * s;
            }
        }
        d
    }
}

/// The detail threshold at `level` of `levels`: raytraverse's linear ramp from `t0` (first
/// level) to `t1` (last), times `accuracy` (smaller samples more).
pub fn threshold(level: usize, levels: usize, t0: f64, t1: f64, accuracy: f64) -> f64 {
    let f = if levels > 1 {
        level as f64 / (levels - 1) as f64
    } else {
        1.0
    };
    accuracy * (t0 + (t1 - t0) * f)
}

/// The cells (`(i, j)` at `weights.res`) whose detail passes `t` and that hold no sample yet
/// (`taken[i · res + j]`), in row-major order.
pub fn cells_to_sample(weights: &Weights, taken: &[bool], t: f64) -> Vec<(usize, usize)> {
    let res = weights.res;
    weights
        .detail()
        .iter()
        .enumerate()
        .filter(|&(k, &d)| d > t && !taken[k])
        .map(|(k, _)| (k / res, k % res))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_weights_have_no_detail_and_an_edge_has_some() {
        let mut w = Weights::new(4);
        assert!(w.detail().iter().all(|&d| d == 0.0));
        // A bright cell in the upper square: it and its four neighbours pass.
        w.w[4 + 1] = 1.0; // cell (1, 1)
        let up = w.upsample();
        assert_eq!(up.res, 8);
        assert_eq!(up.w.iter().filter(|&&v| v == 1.0).count(), 4);
        let taken = vec![false; up.w.len()];
        let cells = cells_to_sample(&up, &taken, 0.1);
        // The 2×2 block's cells all touch the edge of the block, plus 8 cells around it.
        assert_eq!(cells.len(), 4 + 8);
        assert!(cells.contains(&(2, 2)) && cells.contains(&(1, 2)));
        assert!(cells_to_sample(&up, &vec![true; up.w.len()], 0.1).is_empty());
    }

    #[test]
    fn hemispheres_are_not_neighbours() {
        let mut w = Weights::new(2);
        for j in 0..2 {
            w.w[j] = 1.0;
            w.w[2 + j] = 1.0;
        }
        // u-columns 0 and 1 (upper) are 1, 2 and 3 (lower) 0: no detail across u = 1.
        assert!(w.detail().iter().all(|&d| d == 0.0));
        assert!((threshold(0, 5, 0.5, 1.0, 2.0) - 1.0).abs() < 1e-12);
        assert!((threshold(4, 5, 0.5, 1.0, 2.0) - 2.0).abs() < 1e-12);
    }
}
