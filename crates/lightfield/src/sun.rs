//! The sun (seed 004 §2.2): the hours' sun positions grouped into cells of a Shirley–Chiu
//! square of the sky (one traced sun per cell, at the cell's mean direction), and the direct
//! view of each grouped sun sampled finely — `sunsamples` stratified directions over the solar
//! disc, each traced as a shadow ray, so window frames, mullions and frits that cut the disc
//! show in its transmittance. Like raytraverse's source view points, the disc samples are kept
//! apart from the sky LightPoint and added to the rays of a view with their own solid angles.

use daylit_sky::patches::{shirley_chiu_direction, Subdivision};
use daylit_transport::Renderer;
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Half the angle the solar disc subtends (RADIANCE's 0.533°), radians.
pub const SUN_HALF_ANGLE: f64 = 0.533 / 2.0 * std::f64::consts::PI / 180.0;

/// Solid angle of the solar disc, sr.
pub fn sun_solid_angle() -> f64 {
    std::f64::consts::TAU * (1.0 - SUN_HALF_ANGLE.cos())
}

/// Hours whose suns fall in one cell, traced as one sun.
#[derive(Clone, Debug, PartialEq)]
pub struct SunGroup {
    /// Unit direction of the traced sun: the mean of the hours' sun directions.
    pub dir: DVec3,
    /// The hours (indices into the caller's list) that use it.
    pub hours: Vec<usize>,
}

/// Groups `(hour, sun direction)` pairs by the cell of a `sunres × sunres` Shirley–Chiu square
/// of the upper hemisphere the sun is in (`sunres` 0: every hour its own sun). Groups come in
/// cell order, hours in the order given.
pub fn group_suns(suns: &[(usize, DVec3)], sunres: u32) -> Vec<SunGroup> {
    let mut cells: std::collections::BTreeMap<usize, (DVec3, Vec<usize>)> = Default::default();
    let grid = Subdivision::ShirleyChiu(sunres.max(1));
    for (k, &(h, d)) in suns.iter().enumerate() {
        let d = d.normalize();
        let key = if sunres == 0 { k } else { grid.index(d) };
        let e = cells.entry(key).or_insert((DVec3::ZERO, Vec::new()));
        e.0 += d;
        e.1.push(h);
    }
    cells
        .into_values()
        .map(|(sum, hours)| SunGroup {
            dir: sum.normalize(),
            hours,
        })
        .collect()
}

/// The direct view of one sun from one position.
#[derive(Clone, Debug, PartialEq)]
pub struct SunView {
    /// Unit direction of the sun's centre.
    pub dir: DVec3,
    /// Sample directions over the disc.
    pub dirs: Vec<DVec3>,
    /// Solid angle of each sample (the disc's, shared equally).
    pub omega: f64,
    /// RGB transmittance along each sample (0 where blocked).
    pub transmittance: Vec<[f32; 3]>,
}

impl SunView {
    /// Whether any sample sees the sun.
    pub fn visible(&self) -> bool {
        self.transmittance
            .iter()
            .any(|t| t.iter().any(|&c| c > 0.0))
    }
}

/// Samples the disc of the sun in direction `dir` from `position` with `n` rays (rounded up to
/// a square number): a jittered grid on the square, taken to the disc by the concentric
/// (Shirley–Chiu) map so every sample stands for an equal share of its solid angle.
pub fn sample_sun_view(rd: &Renderer, position: DVec3, dir: DVec3, n: usize, seed: u64) -> SunView {
    let dir = dir.normalize();
    let side = (n.max(1) as f64).sqrt().ceil() as usize;
    let (e1, e2) = dir.any_orthonormal_pair();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut ctx = rd.ctx(0);
    let tan = SUN_HALF_ANGLE.tan();
    let mut dirs = Vec::with_capacity(side * side);
    let mut transmittance = Vec::with_capacity(side * side);
    for i in 0..side {
        for j in 0..side {
            let u = (i as f64 + rng.random::<f64>()) / side as f64;
            let v = (j as f64 + rng.random::<f64>()) / side as f64;
            // The upper square's map: radius on the unit disc r = √(1 − z).
            let s = shirley_chiu_direction(u.min(1.0 - 1e-12), v);
            let r_disc = (1.0 - s.z).max(0.0).sqrt();
            let xy = s.truncate().normalize_or_zero() * r_disc;
            // Equal areas on the disc are equal solid angles for a cone this narrow to 1e-5.
            let d = (dir + tan * (xy.x * e1 + xy.y * e2)).normalize();
            rd.reseed(&mut ctx, seed ^ ((i * side + j) as u64));
            let t = rd.shadow_value(position, d, &mut ctx);
            dirs.push(d);
            transmittance.push(t.to_array().map(|x| x as f32));
        }
    }
    SunView {
        dir,
        omega: sun_solid_angle() / (side * side) as f64,
        dirs,
        transmittance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suns_group_by_cell() {
        let a = DVec3::new(0.3, 0.5, 0.8).normalize();
        let b = DVec3::new(0.3001, 0.5, 0.8).normalize();
        let c = DVec3::new(-0.5, 0.2, 0.3).normalize();
        let g = group_suns(&[(0, a), (1, b), (2, c)], 64);
        assert_eq!(g.len(), 2);
        assert!(g.iter().any(|s| s.hours == vec![0, 1]));
        assert_eq!(group_suns(&[(0, a), (1, b), (2, c)], 0).len(), 3);
        assert!((sun_solid_angle() - 6.8e-5).abs() < 1e-6);
    }
}
