//! [`LightPoint`]: the light arriving at one position as non-uniform samples — a direction, the
//! solid angle of its Voronoi cell, and a vector of values (a luminance, or coefficients over
//! sky patches) — with a tree over the directions for look-ups (seed 004 §2.3.1).

use crate::tree::DirTree;
use crate::voronoi;
use crate::LightFieldError;
use glam::DVec3;

/// Directions closer than this (radians) are the same sample when LightPoints are merged.
pub const MERGE_TOLERANCE: f64 = 1e-9;

/// The light incident on one position, sampled over the sphere of directions.
pub struct LightPoint {
    /// Where the light is sampled.
    pub position: DVec3,
    /// What the values are (e.g. `sky:reinhart1:rgb+direct`, `sun`): kept with the file.
    pub source: String,
    dirs: Vec<DVec3>,
    omega: Vec<f64>,
    ncomp: usize,
    values: Vec<f32>,
    tree: DirTree,
}

impl std::fmt::Debug for LightPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LightPoint")
            .field("position", &self.position)
            .field("source", &self.source)
            .field("samples", &self.dirs.len())
            .field("components", &self.ncomp)
            .finish()
    }
}

impl LightPoint {
    /// A LightPoint from sample directions (normalised here; pairwise distinct, covering the
    /// sphere without a gap as wide as a hemisphere) and `ncomp` values per direction
    /// (`values[i * ncomp + c]`). The solid angles are those of the Voronoi cells.
    pub fn new(
        position: DVec3,
        source: impl Into<String>,
        dirs: Vec<DVec3>,
        ncomp: usize,
        values: Vec<f32>,
    ) -> Result<LightPoint, LightFieldError> {
        let dirs = checked_dirs(dirs)?;
        if ncomp == 0 || values.len() != dirs.len() * ncomp {
            return Err(LightFieldError::Input(format!(
                "{} values for {} directions of {ncomp} components",
                values.len(),
                dirs.len()
            )));
        }
        let tree = DirTree::new(&dirs);
        let omega = voronoi::solid_angles(&dirs, &tree)?;
        Ok(LightPoint {
            position,
            source: source.into(),
            dirs,
            omega,
            ncomp,
            values,
            tree,
        })
    }

    /// A LightPoint with solid angles given (as read from a file); they are checked to be
    /// finite and non-negative, not recomputed.
    pub fn with_solid_angles(
        position: DVec3,
        source: impl Into<String>,
        dirs: Vec<DVec3>,
        omega: Vec<f64>,
        ncomp: usize,
        values: Vec<f32>,
    ) -> Result<LightPoint, LightFieldError> {
        let dirs = checked_dirs(dirs)?;
        if omega.len() != dirs.len() || ncomp == 0 || values.len() != dirs.len() * ncomp {
            return Err(LightFieldError::Input(format!(
                "{} solid angles and {} values for {} directions of {ncomp} components",
                omega.len(),
                values.len(),
                dirs.len()
            )));
        }
        if let Some(k) = omega.iter().position(|o| !(o.is_finite() && *o >= 0.0)) {
            return Err(LightFieldError::Input(format!(
                "solid angle {k} is {}: it must be finite and non-negative",
                omega[k]
            )));
        }
        let tree = DirTree::new(&dirs);
        Ok(LightPoint {
            position,
            source: source.into(),
            dirs,
            omega,
            ncomp,
            values,
            tree,
        })
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.dirs.len()
    }

    /// Whether there are no samples (never, for a constructed LightPoint).
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Values per direction.
    pub fn components(&self) -> usize {
        self.ncomp
    }

    /// Unit sample directions.
    pub fn directions(&self) -> &[DVec3] {
        &self.dirs
    }

    /// Solid angle of each direction's Voronoi cell (sr; they sum to 4π).
    pub fn solid_angles(&self) -> &[f64] {
        &self.omega
    }

    /// All values, direction-major (`[i * components() + c]`).
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The values of sample `i`.
    pub fn value(&self, i: usize) -> &[f32] {
        &self.values[i * self.ncomp..(i + 1) * self.ncomp]
    }

    /// The sample nearest to direction `d` (need not be normalised).
    pub fn nearest(&self, d: DVec3) -> usize {
        let d = d.normalize_or(DVec3::Z);
        self.tree.nearest_one(d).map_or(0, |n| n.0)
    }

    /// The `k` samples nearest to `d`, nearest first.
    pub fn nearest_n(&self, d: DVec3, k: usize) -> Vec<usize> {
        let d = d.normalize_or(DVec3::Z);
        self.tree.nearest_n(d, k).into_iter().map(|n| n.0).collect()
    }

    /// The samples within `angle` radians of `d` (in no particular order).
    pub fn within(&self, d: DVec3, angle: f64) -> Vec<usize> {
        let d = d.normalize_or(DVec3::Z);
        let chord = 2.0 * (angle.clamp(0.0, std::f64::consts::PI) / 2.0).sin();
        self.tree.within(d, chord * chord)
    }

    /// Seed 004's merge: the union of both direction sets (a direction of `other` within
    /// [`MERGE_TOLERANCE`] of one of `self` is dropped), each carrying `self`'s components and
    /// then `other`'s, taken from the nearest sample of each; Voronoi cells recomputed.
    pub fn merge(&self, other: &LightPoint) -> Result<LightPoint, LightFieldError> {
        if self.position.distance(other.position) > 1e-9 * (1.0 + self.position.length()) {
            return Err(LightFieldError::Input(format!(
                "LightPoints at {} and {} cannot merge: they are at different positions",
                self.position, other.position
            )));
        }
        let tol = 2.0 * (MERGE_TOLERANCE / 2.0).sin();
        let mut dirs = self.dirs.clone();
        for &d in &other.dirs {
            if self.tree.nearest_one(d).is_none_or(|n| n.1 > tol * tol) {
                dirs.push(d);
            }
        }
        let ncomp = self.ncomp + other.ncomp;
        let mut values = Vec::with_capacity(dirs.len() * ncomp);
        for (k, &d) in dirs.iter().enumerate() {
            let a = if k < self.len() { k } else { self.nearest(d) };
            values.extend_from_slice(self.value(a));
            values.extend_from_slice(other.value(other.nearest(d)));
        }
        LightPoint::new(
            self.position,
            format!("{}+{}", self.source, other.source),
            dirs,
            ncomp,
            values,
        )
    }
}

fn checked_dirs(dirs: Vec<DVec3>) -> Result<Vec<DVec3>, LightFieldError> {
    dirs.into_iter()
        .enumerate()
        .map(|(k, d)| {
            let l = d.length();
            // A unit vector is kept as given, so a LightPoint read back is the one written.
            if (l - 1.0).abs() <= 1e-12 {
                Ok(d)
            } else if l.is_finite() && l > 0.0 {
                Ok(d / l)
            } else {
                Err(LightFieldError::Input(format!(
                    "direction {k} is {d}: it must be finite and non-zero"
                )))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// Cell centres of both Shirley–Chiu squares, `side × side` each.
    pub(crate) fn grid(side: usize) -> Vec<DVec3> {
        let s = side as f64;
        (0..2 * side)
            .flat_map(|i| (0..side).map(move |j| (i, j)))
            .map(|(i, j)| {
                daylit_sky::patches::shirley_chiu_direction(
                    (i as f64 + 0.5) / s,
                    (j as f64 + 0.5) / s,
                )
            })
            .collect()
    }

    #[test]
    fn grid_cells_are_nearly_equal_and_sum_to_four_pi() {
        let d = grid(16);
        let n = d.len();
        let lp = LightPoint::new(DVec3::ZERO, "t", d, 1, vec![1.0; n]).unwrap();
        let sum: f64 = lp.solid_angles().iter().sum();
        assert!((sum - 4.0 * PI).abs() < 1e-9);
        // An equal-area grid: each cell within 35 % of 4π/n (the square's corners are skewed).
        for &o in lp.solid_angles() {
            assert!((o / (4.0 * PI / n as f64) - 1.0).abs() < 0.35, "{o}");
        }
    }

    #[test]
    fn look_ups() {
        let d = grid(8);
        let n = d.len();
        let vals: Vec<f32> = (0..n).map(|k| k as f32).collect();
        let lp = LightPoint::new(DVec3::ZERO, "t", d.clone(), 1, vals).unwrap();
        for (k, &v) in d.iter().enumerate() {
            assert_eq!(lp.nearest(v * 3.0), k);
            assert_eq!(lp.value(k), &[k as f32]);
        }
        let w = lp.within(DVec3::Z, 0.5);
        assert!(w
            .iter()
            .all(|&k| d[k].angle_between(DVec3::Z) <= 0.5 + 1e-12));
        let all_inside = d
            .iter()
            .filter(|v| v.angle_between(DVec3::Z) <= 0.5)
            .count();
        assert_eq!(w.len(), all_inside);
        assert_eq!(lp.nearest_n(DVec3::Z, 3).len(), 3);
    }

    #[test]
    fn merge_keeps_both_sets_and_their_components() {
        let a = grid(8);
        let na = a.len();
        let la = LightPoint::new(DVec3::ONE, "sky", a.clone(), 2, vec![1.0; na * 2]).unwrap();
        // Other: the same grid plus a cluster at the zenith (as a sun view would add).
        let mut b = a.clone();
        for k in 0..5 {
            b.push(DVec3::new(0.001 * k as f64, 0.002, 1.0).normalize());
        }
        let nb = b.len();
        let vals: Vec<f32> = (0..nb).map(|k| if k >= na { 5.0 } else { 0.0 }).collect();
        let lb = LightPoint::new(DVec3::ONE, "sun", b, 1, vals).unwrap();
        let m = la.merge(&lb).unwrap();
        assert_eq!(m.len(), na + 5);
        assert_eq!(m.components(), 3);
        assert_eq!(m.source, "sky+sun");
        let sum: f64 = m.solid_angles().iter().sum();
        assert!((sum - 4.0 * PI).abs() < 1e-9);
        for k in na..na + 5 {
            assert_eq!(m.value(k), &[1.0, 1.0, 5.0]);
        }
        let elsewhere = LightPoint::new(DVec3::ZERO, "x", grid(4), 1, vec![0.0; 32]).unwrap();
        assert!(la.merge(&elsewhere).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        let d = grid(4);
        assert!(LightPoint::new(DVec3::ZERO, "t", d.clone(), 1, vec![0.0; 3]).is_err());
        let mut z = d.clone();
        z[0] = DVec3::ZERO;
        assert!(LightPoint::new(DVec3::ZERO, "t", z, 1, vec![0.0; 32]).is_err());
        assert!(LightPoint::with_solid_angles(
            DVec3::ZERO,
            "t",
            d,
            vec![-1.0; 32],
            1,
            vec![0.0; 32]
        )
        .is_err());
    }
}
