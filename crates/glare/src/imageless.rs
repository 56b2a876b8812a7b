//! Imageless glare from daylight coefficients, as RADIANCE's `dcglare` computes it: the
//! enhanced simplified daylight glare probability (eDGPs) of a view for each sky of a sky
//! matrix, without rendering a picture.
//!
//! The vertical illuminance Ev comes from the total daylight coefficients (all bounces) times
//! the sky. The glare sources are the sky patches the view sees directly: a patch's
//! direct-only coefficient times its sky value, spread over the patch's solid angle as seen
//! from the view, is its luminance; patches at or above the threshold enter the DGP sum with
//! the Guth position index of their centre. The sky is Reinhart's subdivision of the Tregenza
//! sky, patch 0 the ground, as `gendaymtx` and `rfluxmtx` number them.

use crate::picture::{CIE_BF, CIE_GF, CIE_RF, WHTEFFICACY};
use glam::DVec3;
use std::f64::consts::{FRAC_PI_2, PI};

/// RADIANCE's tolerance for "zero" in double precision.
const FTINY: f64 = 1e-6;

/// `-b` values below this are factors of the mean luminance (Ev/π); others are luminances.
const LUMINANCE_THRESHOLD: f64 = 100.0;

/// Patches per Tregenza band, from the horizon up (the zenith cap is one patch).
const TREGENZA_BANDS: [usize; 7] = [30, 30, 24, 24, 18, 12, 6];

/// RADIANCE's brightness of an RGB triple: the luminance weights of its primaries.
pub fn bright(c: &[f32]) -> f64 {
    CIE_RF * c[0] as f64 + CIE_GF * c[1] as f64 + CIE_BF * c[2] as f64
}

/// A Reinhart sky (each Tregenza patch split `mf` × `mf`) with the ground as patch 0: each
/// patch's centre direction and solid angle.
#[derive(Debug, Clone)]
pub struct ReinhartSky {
    /// Angle between rings, radians: 90° over the number of rings less half (the zenith cap
    /// is half a ring high).
    ring_angle: f64,
    /// First patch of each ring, from the horizon up.
    first: Vec<usize>,
    /// Patches in each ring.
    count: Vec<usize>,
    /// Solid angle of each patch of each ring.
    solid_angle: Vec<f64>,
}

impl ReinhartSky {
    /// The sky whose patches (with the ground) are the `rows` rows of a sky matrix, or `None`
    /// when no subdivision has that many (`2 + 144·mf²`: 2, 146, 578, …).
    pub fn from_rows(rows: usize) -> Option<ReinhartSky> {
        let mf = (0..=64).find(|mf| 2 + 144 * mf * mf == rows)?;
        let rings = 7 * mf + 1;
        let mut first = Vec::with_capacity(rings);
        let mut count = Vec::with_capacity(rings);
        let mut next = 1; // after the ground
        for band in TREGENZA_BANDS {
            for _ in 0..mf {
                first.push(next);
                count.push(band * mf);
                next += band * mf;
            }
        }
        first.push(next);
        count.push(1);
        let ring_angle = PI / (2 * rings - 1) as f64;
        // Caps above each ring's lower edge; a ring's patches share the band between caps.
        let cap = |i: usize| 2.0 * PI * (1.0 - (FRAC_PI_2 - ring_angle * i as f64).cos());
        let solid_angle = (0..rings)
            .map(|i| {
                let below = if i == 0 { 2.0 * PI } else { cap(i) };
                let above = if i + 1 < rings { cap(i + 1) } else { 0.0 };
                (below - above) / count[i] as f64
            })
            .collect();
        Some(ReinhartSky {
            ring_angle,
            first,
            count,
            solid_angle,
        })
    }

    /// Number of patches, the ground included.
    pub fn patches(&self) -> usize {
        self.first[self.first.len() - 1] + 1
    }

    /// The ring of sky patch `p` (not the ground).
    fn ring(&self, p: usize) -> usize {
        self.first.partition_point(|&f| f <= p) - 1
    }

    /// The centre direction of patch `p` (z up, azimuth from north, +y, towards east, +x);
    /// the ground is straight down.
    pub fn direction(&self, p: usize) -> DVec3 {
        if p == 0 {
            return DVec3::new(0.0, 0.0, -1.0);
        }
        let r = self.ring(p);
        let rings = self.first.len();
        let alt = FRAC_PI_2 - self.ring_angle * (rings - 1 - r) as f64;
        let azi = 2.0 * PI * (p - self.first[r]) as f64 / self.count[r] as f64;
        DVec3::new(alt.cos() * azi.sin(), alt.cos() * azi.cos(), alt.sin())
    }

    /// The solid angle of patch `p`; for the ground, the part of the lower hemisphere in
    /// front of a view whose direction makes `cos_theta` with the ground's visible centre.
    pub fn solid_angle(&self, p: usize, cos_theta: f64) -> f64 {
        if p == 0 {
            2.0 * (PI - 2.0 * cos_theta.acos())
        } else {
            self.solid_angle[self.ring(p)]
        }
    }
}

/// dcglare's position index of a source in direction `dir` for a view looking along
/// `forward` with up vector `up` (all unit): Guth's above the line of sight, Iwata's below,
/// at most 16.
pub fn position_index(dir: DVec3, forward: DVec3, up: DVec3) -> f64 {
    let angle = |u: DVec3, v: DVec3| u.dot(v).acos();
    let hv = forward.cross(up).normalize_or_zero();
    let vertical = forward.cross(hv);
    let phi = angle(dir, vertical) - FRAC_PI_2;
    let p = if phi >= 0.0 {
        let sigma = angle(dir, forward).to_degrees().abs();
        let h = (forward + dir / dir.dot(forward)).normalize_or_zero();
        let tau = angle(h, up).to_degrees();
        ((35.2 - 0.31889 * tau - 1.22 * (-2.0 * tau / 9.0).exp()) / 1000.0 * sigma
            + (21.0 + 0.26667 * tau - 0.002963 * tau * tau) / 100000.0 * sigma * sigma)
            .exp()
    } else {
        let mut teta = FRAC_PI_2 - angle(dir, hv);
        if teta == 0.0 {
            teta = FTINY;
        }
        let d = 1.0 / phi.tan();
        let s = teta.tan() / phi.tan();
        let r = ((1.0 + s * s) / (d * d)).sqrt();
        let fact = if r > 0.6 { 1.2 } else { 0.8 };
        1.0 + fact * r.min(3.0)
    };
    p.min(16.0)
}

/// How glare sources are found and what is reported.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// `-b`: a patch is a glare source at or above this luminance (cd/m²); below 100, this
    /// factor times Ev/π.
    pub threshold: f64,
    /// The view's up vector (unit).
    pub up: DVec3,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threshold: 2000.0,
            up: DVec3::Z,
        }
    }
}

/// The eDGPs of one view under one sky.
///
/// `ev_rgb`: the view's total irradiance (daylight coefficients times the sky, RGB);
/// `direct`: the view's direct-only coefficient of each patch (RGB triples, one per patch);
/// `sky`: each patch's radiance at this time step (RGB triples); `forward`: the view
/// direction (unit). 0 when there is no light.
pub fn edgps(
    sky_patches: &ReinhartSky,
    ev_rgb: &[f32],
    direct: &[f32],
    sky: &[f32],
    forward: DVec3,
    s: &Settings,
) -> f64 {
    let ev = WHTEFFICACY * bright(ev_rgb);
    if ev <= FTINY {
        return 0.0;
    }
    let min_luminance = if s.threshold < LUMINANCE_THRESHOLD {
        s.threshold * ev / PI
    } else {
        s.threshold
    };
    let mut sum = 0.0;
    for (p, dc) in direct.chunks_exact(3).enumerate() {
        let dc = bright(dc);
        if dc <= 0.0 {
            continue;
        }
        let mut dir = sky_patches.direction(p);
        if p == 0 {
            // The ground: towards the centre of its visible part.
            dir = (dir + forward).normalize_or_zero();
            if dir == DVec3::ZERO {
                continue;
            }
        }
        let cos_theta = forward.dot(dir);
        if cos_theta <= FTINY {
            continue;
        }
        let radiance = WHTEFFICACY * bright(&sky[3 * p..3 * p + 3]);
        let omega = sky_patches.solid_angle(p, cos_theta);
        let luminance = dc * radiance / (omega * cos_theta);
        if luminance < min_luminance {
            continue;
        }
        let pi = position_index(dir, forward, s.up);
        sum += luminance * luminance * omega / (pi * pi);
    }
    let mut dgp = 5.87e-5 * ev + 0.0918 * (1.0 + sum / ev.powf(1.87)).log10() + 0.16;
    if ev < 1000.0 {
        dgp *= crate::metrics::low_light_factor(ev);
    }
    dgp.min(1.0)
}

/// The Ev above which eDGPs is at least `limit` whatever the sources (for glare autonomy).
pub fn ev_at_limit(limit: f64) -> f64 {
    ((limit - 0.16) / 5.87e-5).max(0.0)
}

/// Whether a view with total irradiance `ev_rgb` has glare against `limit` (for glare
/// autonomy): never without light, always above [`ev_at_limit`], else when its eDGPs (`dgp`,
/// computed only then) reaches the limit.
pub fn has_glare(ev_rgb: &[f32], limit: f64, dgp: impl FnOnce() -> f64) -> bool {
    let ev = WHTEFFICACY * bright(ev_rgb);
    ev > FTINY && (ev >= ev_at_limit(limit) || dgp() >= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reinhart_patches_cover_the_sky() {
        for (rows, mf) in [(146, 1), (578, 2), (2306, 4)] {
            let s = ReinhartSky::from_rows(rows).unwrap();
            assert_eq!(s.patches(), rows, "mf {mf}");
            // The sky patches' solid angles add up to the upper hemisphere.
            let total: f64 = (1..rows).map(|p| s.solid_angle(p, 1.0)).sum();
            assert!((total - 2.0 * PI).abs() < 1e-9, "mf {mf}: {total}");
        }
        assert!(ReinhartSky::from_rows(145).is_none());
        let s = ReinhartSky::from_rows(146).unwrap();
        // Tregenza: patch 1 at 6° altitude towards north, patch 31 at 18°, zenith last.
        let d = s.direction(1);
        assert!(
            (d - DVec3::new(0.0, 6f64.to_radians().cos(), 6f64.to_radians().sin())).length()
                < 1e-12
        );
        assert!((s.direction(31).z - 18f64.to_radians().sin()).abs() < 1e-12);
        assert!((s.direction(145) - DVec3::Z).length() < 1e-12);
        // Patch 8 of the first band: 7 × 12° east of north.
        let d = s.direction(8);
        assert!((d.x.atan2(d.y).to_degrees() - 84.0).abs() < 1e-9);
    }

    #[test]
    fn position_index_is_one_on_the_line_of_sight() {
        let f = DVec3::Y;
        assert!((position_index(f, f, DVec3::Z) - 1.0).abs() < 1e-9);
        // Further off axis, larger; capped at 16.
        let a = position_index(DVec3::new(0.3, 1.0, 0.2).normalize(), f, DVec3::Z);
        let b = position_index(DVec3::new(0.9, 1.0, 0.6).normalize(), f, DVec3::Z);
        assert!(1.0 < a && a < b && b <= 16.0, "{a} {b}");
    }

    #[test]
    fn no_source_gives_the_simplified_dgp() {
        let sky = ReinhartSky::from_rows(146).unwrap();
        let direct = vec![0.0f32; 3 * 146];
        let values = vec![1.0f32; 3 * 146];
        // Ev = 179 × 20 lux: eDGPs = 5.87e-5 Ev + 0.16.
        let ev = [20.0f32; 3];
        let g = edgps(&sky, &ev, &direct, &values, DVec3::Y, &Settings::default());
        let want = 5.87e-5 * 179.0 * 20.0 * (CIE_RF + CIE_GF + CIE_BF) + 0.16;
        assert!((g - want).abs() < 1e-12, "{g} {want}");
        assert_eq!(
            edgps(
                &sky,
                &[0.0; 3],
                &direct,
                &values,
                DVec3::Y,
                &Settings::default()
            ),
            0.0
        );
    }
}
