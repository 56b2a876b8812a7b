//! A denoiser for what the page shows, never for what it measures: the indirect part of the
//! progressive picture (the mean of the diffuse frames; frame 0's direct and specular light is
//! already sharp) smoothed by an edge-avoiding à-trous wavelet filter (Dammertz et al. 2010,
//! with the variance-guided luminance weights of SVGF, Schied et al. 2017).
//!
//! Five passes of a 5 × 5 B3-spline kernel, its taps 1, 2, 4, 8 and 16 pixels apart. A
//! neighbour counts only as far as it lies on the same surface (its primary hit near the
//! pixel's tangent plane, its normal alike) and its indirect luminance differs by no more
//! than a few standard errors of the pixel's mean — so the filter removes the noise that the
//! frames have not yet averaged out, and keeps shadows, corners and the edges of objects.
//! Glare values are computed from the picture without it, so they carry no bias from it.

use crate::progressive::PixelGrid;
use daylit_geometry::{Ray, Tracer};
use daylit_transport::Renderer;
use glam::DVec3;
use rayon::prelude::*;

/// The primary hit of each pixel: what the filter's edge weights compare.
#[derive(Clone, Debug)]
pub struct Guide {
    /// Per pixel: hit point, unit normal and distance; `None` where the ray meets nothing or
    /// the pixel lies outside the picture.
    hits: Vec<Option<(DVec3, DVec3, f64)>>,
}

impl Guide {
    /// Traces one ray per pixel of `grid` (closest hits only: no shading).
    pub fn trace(renderer: &Renderer, grid: &PixelGrid) -> Guide {
        let hits = grid
            .rays
            .par_iter()
            .map(|r| {
                let (origin, dir) = (*r)?;
                let hit =
                    renderer
                        .tracer()
                        .closest_hit(&Ray { origin, dir }, 1e-9, f64::INFINITY)?;
                Some((hit.point, hit.normal, hit.t))
            })
            .collect();
        Guide { hits }
    }

    /// A guide from known hits (tests).
    pub fn from_hits(hits: Vec<Option<(DVec3, DVec3, f64)>>) -> Guide {
        Guide { hits }
    }
}

/// How many standard errors of a pixel's mean a neighbour's luminance may differ by before it
/// stops counting.
const SIGMA_LUMINANCE: f64 = 4.0;
/// How far (as a fraction of the pixel's distance, per pixel of tap spacing) a neighbour's hit
/// may lie off the pixel's tangent plane.
const SIGMA_PLANE: f64 = 0.004;
/// Sharpness of the normal weight, `max(0, n·n')^k`.
const NORMAL_POWER: i32 = 32;
/// The B3-spline's 1-D weights.
const KERNEL: [f64; 5] = [1.0 / 16.0, 1.0 / 4.0, 3.0 / 8.0, 1.0 / 4.0, 1.0 / 16.0];

use crate::progressive::grey;

/// Smooths `indirect` (per-pixel means, row-major `width` × `height`) whose luminance means
/// have the variances `variance`, guided by `guide`. Pixels without a hit are left as they
/// are and lend nothing to their neighbours.
pub fn denoise(
    indirect: &[[f32; 3]],
    variance: &[f64],
    guide: &Guide,
    width: usize,
    height: usize,
) -> Vec<[f32; 3]> {
    let n = width * height;
    assert!(indirect.len() == n && variance.len() == n && guide.hits.len() == n);
    let mut colour = indirect.to_vec();
    let mut var = variance.to_vec();
    for pass in 0..5 {
        let step = 1usize << pass;
        let (c0, v0) = (&colour, &var);
        let out: Vec<([f32; 3], f64)> = (0..n)
            .into_par_iter()
            .map(|k| {
                let Some((p, np, dp)) = guide.hits[k] else {
                    return (c0[k], v0[k]);
                };
                let (x, y) = ((k % width) as isize, (k / width) as isize);
                let lp = grey(c0[k]);
                let spread = SIGMA_LUMINANCE * v0[k].max(0.0).sqrt() + 1e-9 * lp.abs() + 1e-12;
                let plane = SIGMA_PLANE * dp * step as f64;
                let (mut sum, mut wsum, mut vsum) = ([0.0f64; 3], 0.0, 0.0);
                for (j, ky) in KERNEL.iter().enumerate() {
                    let qy = y + (j as isize - 2) * step as isize;
                    if qy < 0 || qy >= height as isize {
                        continue;
                    }
                    for (i, kx) in KERNEL.iter().enumerate() {
                        let qx = x + (i as isize - 2) * step as isize;
                        if qx < 0 || qx >= width as isize {
                            continue;
                        }
                        let q = qy as usize * width + qx as usize;
                        let Some((pq, nq, _)) = guide.hits[q] else {
                            continue;
                        };
                        let wn = np.dot(nq).max(0.0).powi(NORMAL_POWER);
                        let wp = (-(np.dot(pq - p)).abs() / plane).exp();
                        let wl = (-(grey(c0[q]) - lp).abs() / spread).exp();
                        let w = kx * ky * wn * wp * wl;
                        if w <= 0.0 {
                            continue;
                        }
                        for (s, c) in sum.iter_mut().zip(c0[q]) {
                            *s += w * c as f64;
                        }
                        wsum += w;
                        vsum += w * w * v0[q];
                    }
                }
                // The pixel itself always counts (all its weights are 1), so wsum > 0.
                let c = sum.map(|s| (s / wsum) as f32);
                (c, vsum / (wsum * wsum))
            })
            .collect();
        for (k, (c, v)) in out.into_iter().enumerate() {
            colour[k] = c;
            var[k] = v;
        }
    }
    colour
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A floor seen from above: the left half faces up, the right half is a wall facing +x
    /// further away, with true values 1 and 3; noise of standard deviation `sd`.
    fn scene(w: usize, h: usize, sd: f64) -> (Vec<[f32; 3]>, Vec<f64>, Vec<f64>, Guide) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (mut noisy, mut truth, mut hits) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..w * h {
            let (x, y) = ((k % w) as f64, (k / w) as f64);
            let left = x < w as f64 / 2.0;
            let t = if left { 1.0 } else { 3.0 };
            // A uniform deviate scaled to standard deviation sd.
            let e = (rng.random::<f64>() - 0.5) * sd * 12f64.sqrt();
            let v = (t * (1.0 + e)) as f32;
            noisy.push([v, v, v]);
            truth.push(t);
            hits.push(Some(if left {
                (DVec3::new(x * 0.01, y * 0.01, 0.0), DVec3::Z, 2.0)
            } else {
                (DVec3::new(1.0, y * 0.01, x * 0.01), DVec3::X, 3.0)
            }));
        }
        let var = truth.iter().map(|t| (t * sd) * (t * sd)).collect();
        (noisy, truth, var, Guide::from_hits(hits))
    }

    fn rms(a: &[[f32; 3]], truth: &[f64], pick: impl Fn(usize) -> bool) -> f64 {
        let (mut s, mut n) = (0.0, 0.0);
        for (k, (c, t)) in a.iter().zip(truth).enumerate() {
            if pick(k) {
                s += ((c[1] as f64 - t) / t).powi(2);
                n += 1.0;
            }
        }
        (s / n).sqrt()
    }

    #[test]
    fn noise_falls_and_edges_stay() {
        let (w, h) = (64, 48);
        let (noisy, truth, var, guide) = scene(w, h, 0.3);
        let out = denoise(&noisy, &var, &guide, w, h);
        let all = |_: usize| true;
        let before = rms(&noisy, &truth, all);
        let after = rms(&out, &truth, all);
        assert!(
            after < before / 4.0,
            "relative RMS {before:.3} -> {after:.3}"
        );
        // Next to the edge the two surfaces do not mix: within 5 % of each side's value.
        let edge = |k: usize| (k % w).abs_diff(w / 2) <= 1;
        let at_edge = rms(&out, &truth, edge);
        assert!(at_edge < 0.05, "relative RMS next to the edge {at_edge:.3}");
        // The mean of each side is kept.
        for side in [0, 1] {
            let pick = |k: usize| ((k % w) >= w / 2) as usize == side;
            let m: f64 = out
                .iter()
                .enumerate()
                .filter(|(k, _)| pick(*k))
                .map(|(_, c)| c[1] as f64)
                .sum::<f64>()
                / (w * h / 2) as f64;
            let t = if side == 0 { 1.0 } else { 3.0 };
            assert!((m / t - 1.0).abs() < 0.01, "side {side}: mean {m}");
        }
    }

    #[test]
    fn pixels_without_a_hit_are_untouched() {
        let (w, h) = (8, 8);
        let (noisy, _, var, guide) = scene(w, h, 0.3);
        let mut hits = guide.hits.clone();
        hits[9] = None;
        let out = denoise(&noisy, &var, &Guide::from_hits(hits), w, h);
        assert_eq!(out[9], noisy[9]);
    }
}
