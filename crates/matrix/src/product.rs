//! Matrix products as RADIANCE's `dctimestep` computes them: each colour component on its
//! own (`C[r][c][k] = Σj A[r][j][k] · B[j][c][k]`), summed in double precision and stored as
//! `f32`.
//!
//! The sums go through `faer`'s matrix multiply (blocked, SIMD) on `f64` copies of the
//! operands, one component plane at a time; rayon splits the rows of the result into blocks,
//! each block multiplied on one thread. `f64` rather than `f32` arithmetic: RADIANCE sums
//! `float × float` products in `double`, and a product of two `f32` is exact in `f64`, so the
//! results round to the same `f32` as RADIANCE's up to the order of the sum.

use crate::{Matrix, MatrixError};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;

/// Weights turning RGB radiance into illuminance in lux: 179 lm/W × (0.265 R + 0.670 G +
/// 0.065 B), RADIANCE's luminous efficacy and primaries.
pub const LUX_WEIGHTS: [f64; 3] = [179.0 * 0.265, 179.0 * 0.670, 179.0 * 0.065];

/// Most rows of the result one task computes: the task's `f64` block (rows × columns of the
/// result) then stays a few megabytes for a year of hours.
const MAX_ROW_BLOCK: usize = 64;

/// `a × b` per component (`a.cols() == b.rows()`, same `ncomp`), as dctimestep's product.
pub fn multiply(a: &Matrix, b: &Matrix) -> Result<Matrix, MatrixError> {
    if a.cols() != b.rows() || a.ncomp() != b.ncomp() {
        return Err(MatrixError::Shape(format!(
            "cannot multiply a {}×{} matrix ({} components) by a {}×{} matrix ({} components): \
             expected the first's columns to equal the second's rows",
            a.rows(),
            a.cols(),
            a.ncomp(),
            b.rows(),
            b.cols(),
            b.ncomp()
        )));
    }
    let nc = a.ncomp();
    let a_planes: Vec<Vec<f64>> = (0..nc).map(|k| plane(a, k, 1.0)).collect();
    let b_planes: Vec<Vec<f64>> = (0..nc).map(|k| plane(b, k, 1.0)).collect();
    let data = product_planes(&a_planes, &b_planes, a.rows(), a.cols(), b.cols());
    Matrix::new(a.rows(), b.cols(), nc, data)
}

/// The chain `M₁ M₂ … Mₙ`, multiplied from the right as dctimestep does for `V T D S`
/// (`V (T (D S))`, the cheap order when the last is a sky matrix of many hours).
pub fn chain(mats: &[&Matrix]) -> Result<Matrix, MatrixError> {
    let (last, rest) = mats
        .split_last()
        .ok_or_else(|| MatrixError::Shape("empty matrix chain".into()))?;
    let mut acc = (*last).clone();
    for m in rest.iter().rev() {
        acc = multiply(m, &acc)?;
    }
    Ok(acc)
}

/// Illuminance in lux, sensors × hours, from daylight coefficients (sensors × patches, RGB)
/// and a sky matrix (patches × hours, RGB): `Σk LUX_WEIGHTS[k] · (dc × sky)[k]`, one
/// component.
///
/// Computed as one product: the weighted component planes of `dc` side by side times the
/// planes of `sky` stacked, `[w_R D_R | w_G D_G | w_B D_B] · [S_R; S_G; S_B]`, which is the
/// same sum. When every sky element is grey (R = G = B, exactly) the three sky planes are
/// equal and the weights fold into `dc` alone: `(Σk w_k D_k) · S_R`, a third of the work.
/// Both differ from the three products summed afterwards only in `f64` rounding, far below
/// the `f32` result's.
pub fn illuminance(dc: &Matrix, sky: &Matrix) -> Result<Matrix, MatrixError> {
    if dc.ncomp() != 3 || sky.ncomp() != 3 || dc.cols() != sky.rows() {
        return Err(MatrixError::Shape(format!(
            "illuminance needs RGB daylight coefficients (sensors × patches) and an RGB sky \
             (patches × hours) with as many patches; got {}×{}×{} and {}×{}×{}",
            dc.rows(),
            dc.cols(),
            dc.ncomp(),
            sky.rows(),
            sky.cols(),
            sky.ncomp()
        )));
    }
    let (rows, patches, hours) = (dc.rows(), dc.cols(), sky.cols());
    let grey = sky
        .data()
        .chunks_exact(3)
        .all(|c| c[0] == c[1] && c[1] == c[2]);
    let (a, b, inner) = if grey {
        let mut a = vec![0.0f64; rows * patches];
        for (x, el) in a.iter_mut().zip(dc.data().chunks_exact(3)) {
            *x = (0..3).map(|k| LUX_WEIGHTS[k] * f64::from(el[k])).sum();
        }
        (a, plane(sky, 0, 1.0), patches)
    } else {
        // Row r of `a`: w_R D_R[r] | w_G D_G[r] | w_B D_B[r].
        let mut a = vec![0.0f64; rows * 3 * patches];
        for (arow, drow) in a
            .chunks_exact_mut(3 * patches)
            .zip(dc.data().chunks_exact(3 * patches))
        {
            for (j, el) in drow.chunks_exact(3).enumerate() {
                for k in 0..3 {
                    arow[k * patches + j] = LUX_WEIGHTS[k] * f64::from(el[k]);
                }
            }
        }
        let b: Vec<f64> = (0..3).flat_map(|k| plane(sky, k, 1.0)).collect();
        (a, b, 3 * patches)
    };
    let data = product_planes(&[a], &[b], rows, inner, hours);
    Matrix::new(rows, hours, 1, data)
}

/// Component `k` of `m` times `scale`, as a row-major `f64` matrix.
fn plane(m: &Matrix, k: usize, scale: f64) -> Vec<f64> {
    m.data()
        .chunks_exact(m.ncomp())
        .map(|el| f64::from(el[k]) * scale)
        .collect()
}

/// `Σj A_k[r][j] · B_k[j][c]` for each plane pair `k`, interleaved into `f32` (`rows × cols ×
/// planes`). Planes are row-major: A_k `rows × inner`, B_k `inner × cols`.
fn product_planes(
    a_planes: &[Vec<f64>],
    b_planes: &[Vec<f64>],
    rows: usize,
    inner: usize,
    cols: usize,
) -> Vec<f32> {
    let nc = a_planes.len();
    let mut out = vec![0.0f32; rows * cols * nc];
    // Columns of B that are zero in every plane (night hours of a sky matrix) give zero
    // columns: leave them out of the products, as RADIANCE skips them.
    let live: Vec<usize> = (0..cols)
        .filter(|&c| {
            b_planes
                .iter()
                .any(|bp| (0..inner).any(|j| bp[j * cols + c] != 0.0))
        })
        .collect();
    if live.is_empty() {
        return out;
    }
    let compact: Vec<Vec<f64>>;
    let b_planes = if live.len() < cols {
        compact = b_planes
            .iter()
            .map(|bp| {
                bp.chunks_exact(cols)
                    .flat_map(|row| live.iter().map(|&c| row[c]))
                    .collect()
            })
            .collect();
        &compact[..]
    } else {
        b_planes
    };
    let n = live.len();
    let threads = rayon::current_num_threads().max(1);
    // Several blocks a thread so that uneven blocks even out, each at most MAX_ROW_BLOCK.
    let block = rows.div_ceil(4 * threads).clamp(1, MAX_ROW_BLOCK);
    out.par_chunks_mut(block * cols * nc)
        .enumerate()
        .for_each(|(bi, chunk)| {
            let r0 = bi * block;
            let nr = chunk.len() / (cols * nc);
            let mut acc = vec![0.0f64; nr * n];
            for (k, (ap, bp)) in a_planes.iter().zip(b_planes).enumerate() {
                let a = MatRef::from_row_major_slice(&ap[r0 * inner..(r0 + nr) * inner], nr, inner);
                let b = MatRef::from_row_major_slice(bp, inner, n);
                let c = MatMut::from_row_major_slice_mut(&mut acc, nr, n);
                matmul(c, Accum::Replace, a, b, 1.0, Par::Seq);
                if n == cols {
                    for (o, v) in chunk.iter_mut().skip(k).step_by(nc).zip(&acc) {
                        *o = *v as f32;
                    }
                } else {
                    for (orow, arow) in chunk.chunks_exact_mut(cols * nc).zip(acc.chunks_exact(n)) {
                        for (&c, v) in live.iter().zip(arow) {
                            orow[c * nc + k] = *v as f32;
                        }
                    }
                }
            }
        });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random(rows: usize, cols: usize, rng: &mut impl Rng) -> Matrix {
        let data = (0..rows * cols * 3).map(|_| rng.random::<f32>()).collect();
        Matrix::new(rows, cols, 3, data).unwrap()
    }

    /// RADIANCE's loop: per component, summed in double.
    fn naive(a: &Matrix, b: &Matrix) -> Vec<f32> {
        let mut out = Vec::new();
        for r in 0..a.rows() {
            for c in 0..b.cols() {
                for k in 0..3 {
                    let s: f64 = (0..a.cols())
                        .map(|j| f64::from(a.get(r, j)[k]) * f64::from(b.get(j, c)[k]))
                        .sum();
                    out.push(s as f32);
                }
            }
        }
        out
    }

    #[test]
    fn matches_the_plain_loop() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        for (m, n, p) in [(1, 1, 1), (3, 146, 7), (130, 17, 65), (200, 146, 1)] {
            let (a, mut b) = (random(m, n, &mut rng), random(n, p, &mut rng));
            // Zero columns (night hours) are skipped: still zeros in the result.
            for j in 0..n {
                for c in (0..p).filter(|c| c % 3 == 1) {
                    b.data_mut()[(j * p + c) * 3..][..3].fill(0.0);
                }
            }
            let got = multiply(&a, &b).unwrap();
            for (x, y) in got.data().iter().zip(naive(&a, &b)) {
                assert!((x - y).abs() <= 1e-6 * y.abs(), "{x} vs {y}");
            }
        }
    }

    #[test]
    fn grey_sky_folds_the_weights() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(4);
        let dc = random(70, 146, &mut rng);
        let mut sky = random(146, 30, &mut rng);
        sky.data_mut().chunks_exact_mut(3).for_each(|c| {
            c[1] = c[0];
            c[2] = c[0];
        });
        let lux = illuminance(&dc, &sky).unwrap();
        let rgb = naive(&dc, &sky);
        for (l, c) in lux.data().iter().zip(rgb.chunks_exact(3)) {
            let want: f64 = (0..3).map(|k| LUX_WEIGHTS[k] * f64::from(c[k])).sum();
            assert!((f64::from(*l) - want).abs() <= 1e-6 * want, "{l} vs {want}");
        }
    }
}
