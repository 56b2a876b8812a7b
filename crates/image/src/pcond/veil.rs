//! Veiling glare (`-v`): light scattered in the eye. Each foveal sample receives, from every
//! other sample at angle θ, a share weighted by cos θ / (2 (1 − cos θ)) (about 1/θ² near the
//! axis); the weighted mean, as 8% of the adaptation (`VADAPT`), replaces 8% of the sample.
//! The veil is interpolated bilinearly over the full picture and mixed in the same way.
//!
//! As RADIANCE: ray directions are kept in single precision and their dot products taken in
//! single precision (the weight near θ = 0 is sensitive to both).

use super::Grid;

/// Share of the adaptation that comes from the veil.
pub const VADAPT: f64 = 0.08;
const FTINY: f64 = 1e-6;

/// `a · b` in single precision.
fn dot(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The veil of each foveal sample (`fov` is `grid.fvxr × grid.fvyr`, scan order), from the
/// samples' ray directions `dirs`.
pub fn compute(fov: &[[f32; 3]], dirs: &[[f32; 3]]) -> Vec<[f32; 3]> {
    let n = fov.len();
    let mut veil = vec![[0.0f32; 3]; n];
    for p in 0..n {
        let mut t2sum = 0.0f64;
        let mut vsum = [0.0f32; 3];
        for q in 0..n {
            if q == p {
                continue;
            }
            let t2 = f64::from(dot(&dirs[p], &dirs[q]));
            if t2 <= FTINY {
                continue;
            }
            let t2 = t2 * (0.5 / (1.0 - t2));
            for k in 0..3 {
                vsum[k] += (f64::from(fov[q][k]) * t2) as f32;
            }
            t2sum += t2;
        }
        if t2sum > FTINY {
            let s = VADAPT / t2sum;
            vsum = vsum.map(|v| (f64::from(v) * s) as f32);
        }
        veil[p] = vsum;
    }
    veil
}

/// The foveal samples as the eye adapts to them with the veil: 92% of each plus its veil.
pub fn add_to_foveal(fov: &mut [[f32; 3]], veil: &[[f32; 3]]) {
    for (f, v) in fov.iter_mut().zip(veil) {
        for k in 0..3 {
            f[k] = (f64::from(f[k]) * (1.0 - VADAPT)) as f32 + v[k];
        }
    }
}

/// Where scanline position `(x, y)` falls in the foveal grid: the lower sample index and the
/// fraction towards the next, on each axis (extrapolated at the picture's edges).
pub fn grid_position(i: usize, n: usize, fv: usize) -> (usize, f64) {
    let d = (i as f64 + 0.5) / n as f64 * fv as f64 - 0.5;
    let mut k = d as i64;
    while k >= fv as i64 - 1 {
        k -= 1;
    }
    let k = k.max(0) as usize;
    (k, d - k as f64)
}

/// Where position `i` of `n` falls on a grid of `fv` samples, as RADIANCE 6.0a's build
/// computes it in `addveil`: the lower sample, and the weights of it and the next
/// (extrapolated at the picture's edges). `t` is `(i + 0.5) / n · fv`, which that build forms
/// as `(i + 0.5) · (fv / n)` along a scanline.
fn veil_position(t: f64, fv: usize) -> (usize, f64, f64) {
    let k = ((t - 0.5) as i64).min(fv as i64 - 2).max(0);
    let kf = k as f64;
    (k as usize, (1.5 - t) + kf, (t - 0.5) - kf)
}

/// Adds the veil to scanline `y` (length `grid.scanlen`).
pub fn add_to_scan(scan: &mut [[f32; 3]], y: usize, veil: &[[f32; 3]], grid: &Grid) {
    let ty = (y as f64 + 0.5) / grid.numscans as f64 * grid.fvyr as f64;
    let (vy, wy0, wy1) = veil_position(ty, grid.fvyr);
    let xstep = grid.fvxr as f64 / grid.scanlen as f64;
    let at = |x: usize, y: usize| &veil[y * grid.fvxr + x];
    for (x, px) in scan.iter_mut().enumerate() {
        let (vx, wx0, wx1) = veil_position((x as f64 + 0.5) * xstep, grid.fvxr);
        for (i, v) in px.iter_mut().enumerate() {
            let lv = f64::from(at(vx, vy)[i]) * wy0 + f64::from(at(vx, vy + 1)[i]) * wy1;
            let uv = f64::from(at(vx + 1, vy)[i]) * wy0 + f64::from(at(vx + 1, vy + 1)[i]) * wy1;
            *v = ((1.0 - VADAPT) * f64::from(*v) + wx0 * lv + wx1 * uv) as f32;
        }
    }
}
