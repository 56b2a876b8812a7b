//! The Tregenza-patch comparison of two luminance images (Jones & Reinhart, seed 001, eq. 2-5).
//!
//! **Patches.** Tregenza's 145 patches: seven 12° altitude bands from the horizon with 30, 30,
//! 24, 24, 18, 12 and 6 patches, and a zenith cap above 84° (as RADIANCE's `tregenza.cal`:
//! patch 0 is centred on "north" at the horizon, numbering continues towards "east", then band
//! by band upwards; patch 144 is the cap).
//!
//! **Frame.** The hemisphere is the one *around the view direction*: the view direction is the
//! zenith, the view up vector is north and the view's right (`vdir × vup`) is east. This is the
//! reading of seed 001: its 180° angular fisheye renderings "give complete visibility to all 145
//! Tregenza patches" and its Figure 4 draws the patches in a fisheye-like projection centred on
//! the zenith — true only when the hemisphere is centred on the camera axis (a horizontal camera
//! with a world-up zenith would see half the patches behind it). It also makes the comparison
//! independent of where the camera points, as the paper intends ("regardless of the image
//! resolution or projection").
//!
//! **Metric.** Per patch, the solid-angle-weighted mean luminance of the pixels whose centre
//! direction falls in it (eq. 2). Only patches *fully visible* in the view are compared (the
//! paper's "n fully-visible Tregenza patches"): a patch counts when a 9×9 grid of directions
//! over it, edges included, all project inside the picture, and it holds at least one pixel and
//! the reference's mean is positive. With `e_i = (L_test,i − L_ref,i) / L_ref,i` (eq. 3 with
//! the sign turned so that over-prediction is positive), `MBE_rel = mean(e_i)` (eq. 4 is its
//! absolute value) and `RMSE_rel = sqrt(mean(e_i²))` (eq. 5).

use crate::view::{ViewFrame, ViewType};
use glam::DVec3;

/// Number of Tregenza patches.
pub const TREGENZA_PATCHES: usize = 145;
/// Patches per band, from the horizon up; the last is the zenith cap.
pub const BAND_COUNTS: [usize; 8] = [30, 30, 24, 24, 18, 12, 6, 1];
/// Band height in degrees.
pub const BAND_DEG: f64 = 12.0;

/// First patch index of each band.
fn band_start(b: usize) -> usize {
    BAND_COUNTS[..b].iter().sum()
}

/// (band, index in band) of a patch.
pub fn patch_band(p: usize) -> (usize, usize) {
    let mut s = 0;
    for (b, &n) in BAND_COUNTS.iter().enumerate() {
        if p < s + n {
            return (b, p - s);
        }
        s += n;
    }
    (BAND_COUNTS.len() - 1, 0)
}

/// Patch of a direction given as altitude and azimuth (degrees; azimuth from north towards
/// east), or `None` below the horizon.
pub fn patch_of_alt_az(alt: f64, az: f64) -> Option<usize> {
    if alt.is_nan() || alt < 0.0 {
        return None;
    }
    let band = ((alt / BAND_DEG).floor() as usize).min(BAND_COUNTS.len() - 1);
    let n = BAND_COUNTS[band];
    if n == 1 {
        return Some(band_start(band));
    }
    let inc = 360.0 / n as f64;
    let az = az.rem_euclid(360.0);
    let k = ((az + 0.5 * inc) / inc).floor() as usize % n;
    Some(band_start(band) + k)
}

/// Altitude and azimuth bounds (degrees) of a patch: (alt_lo, alt_hi, az_lo, az_hi); the cap
/// spans all azimuths.
pub fn patch_bounds(p: usize) -> (f64, f64, f64, f64) {
    let (b, k) = patch_band(p);
    let lo = b as f64 * BAND_DEG;
    let hi = if b == BAND_COUNTS.len() - 1 {
        90.0
    } else {
        lo + BAND_DEG
    };
    let n = BAND_COUNTS[b];
    if n == 1 {
        return (lo, hi, 0.0, 360.0);
    }
    let inc = 360.0 / n as f64;
    (lo, hi, (k as f64 - 0.5) * inc, (k as f64 + 0.5) * inc)
}

/// Solid angle of a patch (sr).
pub fn patch_solid_angle(p: usize) -> f64 {
    let (lo, hi, a0, a1) = patch_bounds(p);
    (a1 - a0).to_radians() * (hi.to_radians().sin() - lo.to_radians().sin())
}

/// Which patch each pixel of a view belongs to, the pixel's solid angle, and which patches the
/// view shows fully. Built once per view and size.
#[derive(Debug, Clone)]
pub struct PatchMap {
    pub width: usize,
    pub height: usize,
    /// Per pixel (row 0 at the top): patch and solid angle, `None` for pixels without a
    /// direction, below the view's horizon, or in a patch not fully visible.
    pub pixels: Vec<Option<(u16, f64)>>,
    /// Per patch: whether it is entirely inside the picture.
    pub visible: Vec<bool>,
}

impl PatchMap {
    pub fn new(frame: &ViewFrame, width: usize, height: usize) -> PatchMap {
        let to_world = |alt: f64, az: f64| -> DVec3 {
            let (alt, az) = (alt.to_radians(), az.to_radians());
            alt.sin() * frame.vdir + alt.cos() * (az.cos() * frame.vu + az.sin() * frame.hu)
        };
        let eps = 1e-9;
        let visible: Vec<bool> = (0..TREGENZA_PATCHES)
            .map(|p| {
                if frame.view.typ == ViewType::Parallel {
                    return false;
                }
                let (lo, hi, a0, a1) = patch_bounds(p);
                (0..9).all(|i| {
                    (0..9).all(|j| {
                        let alt = lo + (hi - lo) * i as f64 / 8.0;
                        let az = a0 + (a1 - a0) * j as f64 / 8.0;
                        let d = to_world(alt, az);
                        match frame.project(d) {
                            Some((x, y)) => {
                                (-eps..=1.0 + eps).contains(&x)
                                    && (-eps..=1.0 + eps).contains(&y)
                                    && frame.ray(x.clamp(0.0, 1.0), y.clamp(0.0, 1.0)).is_some()
                            }
                            None => false,
                        }
                    })
                })
            })
            .collect();
        let mut pixels = Vec::with_capacity(width * height);
        for row in 0..height {
            for col in 0..width {
                let px = frame.pixel_ray(width, height, col, row).and_then(|r| {
                    let up = r.dir.dot(frame.vdir).clamp(-1.0, 1.0);
                    let alt = up.asin().to_degrees();
                    let az = r.dir.dot(frame.hu).atan2(r.dir.dot(frame.vu)).to_degrees();
                    let p = patch_of_alt_az(alt, az)?;
                    visible[p].then(|| (p as u16, frame.pixel_solid_angle(width, height, col, row)))
                });
                pixels.push(px);
            }
        }
        PatchMap {
            width,
            height,
            pixels,
            visible,
        }
    }

    /// Solid-angle-weighted mean luminance per patch (eq. 2) and the solid angle summed; `None`
    /// for patches not fully visible or holding no pixel.
    pub fn patch_means(&self, lum: &[f64]) -> Vec<Option<(f64, f64)>> {
        assert_eq!(lum.len(), self.pixels.len(), "luminance image size");
        let mut sum = vec![0.0; TREGENZA_PATCHES];
        let mut w = vec![0.0; TREGENZA_PATCHES];
        for (px, &l) in self.pixels.iter().zip(lum) {
            if let Some((p, om)) = *px {
                sum[p as usize] += l * om;
                w[p as usize] += om;
            }
        }
        (0..TREGENZA_PATCHES)
            .map(|p| (w[p] > 0.0).then(|| (sum[p] / w[p], w[p])))
            .collect()
    }
}

/// One patch in a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchStat {
    pub patch: usize,
    /// Solid angle of the pixels binned into it (sr) and the patch's exact solid angle.
    pub covered_sr: f64,
    pub patch_sr: f64,
    pub test: f64,
    pub reference: f64,
    /// (test − reference) / reference.
    pub rel_error: f64,
}

/// The result of [`compare`].
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Compared patches, in patch order.
    pub patches: Vec<PatchStat>,
    /// Patches fully visible in the view.
    pub visible: usize,
    /// Fully visible patches left out because the reference's mean is 0 (or not finite).
    pub dark_reference: usize,
    /// Mean relative error (signed; eq. 4 is its absolute value).
    pub mbe_rel: f64,
    /// Root mean square relative error (eq. 5).
    pub rmse_rel: f64,
    /// Fraction of compared patches with |relative error| ≤ 5%, 10%, 20%.
    pub within: [(f64, f64); 3],
}

/// Compares two luminance images (cd/m², row 0 at the top) of the same view and size, the
/// second being the reference. `None` when no patch can be compared.
pub fn compare(map: &PatchMap, test: &[f64], reference: &[f64]) -> Option<Comparison> {
    let t = map.patch_means(test);
    let r = map.patch_means(reference);
    let mut patches = Vec::new();
    let mut dark = 0;
    for p in 0..TREGENZA_PATCHES {
        if let (Some((tv, om)), Some((rv, _))) = (t[p], r[p]) {
            if !(rv > 0.0 && rv.is_finite()) {
                dark += 1;
                continue;
            }
            patches.push(PatchStat {
                patch: p,
                covered_sr: om,
                patch_sr: patch_solid_angle(p),
                test: tv,
                reference: rv,
                rel_error: (tv - rv) / rv,
            });
        }
    }
    if patches.is_empty() {
        return None;
    }
    let n = patches.len() as f64;
    let mbe = patches.iter().map(|p| p.rel_error).sum::<f64>() / n;
    let rmse = (patches.iter().map(|p| p.rel_error.powi(2)).sum::<f64>() / n).sqrt();
    let frac = |th: f64| patches.iter().filter(|p| p.rel_error.abs() <= th).count() as f64 / n;
    Some(Comparison {
        within: [(0.05, frac(0.05)), (0.10, frac(0.10)), (0.20, frac(0.20))],
        visible: map.visible.iter().filter(|&&v| v).count(),
        dark_reference: dark,
        mbe_rel: mbe,
        rmse_rel: rmse,
        patches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::View;

    #[test]
    fn patch_definition() {
        assert_eq!(BAND_COUNTS.iter().sum::<usize>(), TREGENZA_PATCHES);
        let total: f64 = (0..TREGENZA_PATCHES).map(patch_solid_angle).sum();
        assert!((total - 2.0 * std::f64::consts::PI).abs() < 1e-12);
        // tregenza.cal: bin 1 due north at the horizon, 2 towards east, 31 starts band 2.
        assert_eq!(patch_of_alt_az(6.0, 0.0), Some(0));
        assert_eq!(patch_of_alt_az(6.0, 12.0), Some(1));
        assert_eq!(patch_of_alt_az(6.0, 354.0), Some(0));
        assert_eq!(patch_of_alt_az(6.0, 353.9), Some(29));
        assert_eq!(patch_of_alt_az(13.0, 0.0), Some(30));
        assert_eq!(patch_of_alt_az(25.0, 8.0), Some(61));
        assert_eq!(patch_of_alt_az(85.0, 100.0), Some(144));
        assert_eq!(patch_of_alt_az(-0.1, 0.0), None);
        for p in 0..TREGENZA_PATCHES {
            let (lo, hi, a0, a1) = patch_bounds(p);
            assert_eq!(patch_of_alt_az((lo + hi) / 2.0, (a0 + a1) / 2.0), Some(p));
        }
    }

    fn fisheye(n: usize) -> PatchMap {
        let f = View::parse("-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1")
            .unwrap()
            .frame()
            .unwrap();
        PatchMap::new(&f, n, n)
    }

    /// A smoothly varying positive luminance image.
    fn scene(map: &PatchMap) -> Vec<f64> {
        (0..map.pixels.len())
            .map(|i| {
                let (c, r) = ((i % map.width) as f64, (i / map.width) as f64);
                100.0 + 50.0 * (c * 0.05).sin() + 30.0 * (r * 0.03).cos()
            })
            .collect()
    }

    #[test]
    fn fisheye_sees_all_patches_and_covers_them() {
        let map = fisheye(256);
        assert_eq!(map.visible.iter().filter(|&&v| v).count(), 145);
        let lum = scene(&map);
        let c = compare(&map, &lum, &lum).unwrap();
        assert_eq!(c.patches.len(), 145);
        for p in &c.patches {
            assert!(
                (p.covered_sr / p.patch_sr - 1.0).abs() < 0.06,
                "patch {} {} {}",
                p.patch,
                p.covered_sr,
                p.patch_sr
            );
        }
        let total: f64 = c.patches.iter().map(|p| p.covered_sr).sum();
        assert!((total / (2.0 * std::f64::consts::PI) - 1.0).abs() < 0.005);
    }

    #[test]
    fn self_scaled_and_one_patch() {
        let map = fisheye(128);
        let lum = scene(&map);
        let c = compare(&map, &lum, &lum).unwrap();
        assert_eq!((c.mbe_rel, c.rmse_rel), (0.0, 0.0));
        assert_eq!(c.within[0].1, 1.0);
        let scaled: Vec<f64> = lum.iter().map(|l| l * 1.1).collect();
        let c = compare(&map, &scaled, &lum).unwrap();
        assert!((c.mbe_rel - 0.1).abs() < 1e-12, "{}", c.mbe_rel);
        assert!((c.rmse_rel - 0.1).abs() < 1e-12);
        assert_eq!(c.within[0].1, 0.0);
        assert_eq!(c.within[2].1, 1.0);
        // Double the luminance in patch 40 only: one error of +1, the rest 0.
        let mut one = lum.clone();
        for (l, px) in one.iter_mut().zip(&map.pixels) {
            if matches!(px, Some((40, _))) {
                *l *= 2.0;
            }
        }
        let c = compare(&map, &one, &lum).unwrap();
        let n = c.patches.len() as f64;
        assert_eq!(n, 145.0);
        assert!((c.mbe_rel - 1.0 / n).abs() < 1e-12);
        assert!((c.rmse_rel - (1.0 / n).sqrt()).abs() < 1e-12);
        assert!((c.within[2].1 - 144.0 / 145.0).abs() < 1e-12);
        let bad: Vec<_> = c.patches.iter().filter(|p| p.rel_error != 0.0).collect();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].patch, 40);
        assert!((bad[0].rel_error - 1.0).abs() < 1e-12);
    }

    #[test]
    fn perspective_sees_only_some_patches() {
        let f = View::parse("-vtv -vh 90 -vv 90").unwrap().frame().unwrap();
        let map = PatchMap::new(&f, 64, 64);
        let n = map.visible.iter().filter(|&&v| v).count();
        assert!(n > 0 && n < 145, "{n}");
        assert!(map.visible[144]); // the zenith cap is the view direction
        assert!(!map.visible[0]);
    }
}
