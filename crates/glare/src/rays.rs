//! Glare metrics from a set of rays — direction, solid angle, luminance — without a picture,
//! for live views and adaptive samplers whose samples are not on a pixel grid.
//!
//! The steps follow evalglare's on a picture, with the grid searches replaced by their
//! angular meaning: rays brighter than the threshold that lie within half the search radius
//! of one another (evalglare compares twice the angular distance with `-r`) form one source;
//! with peak extraction, rays above the peak limit leave their source and form sources of
//! their own by the same rule; a source's direction is its luminance × solid-angle weighted
//! mean direction (evalglare 3.06's centre). The index formulas are [`crate::metrics`]'s.

use crate::geometry::{angles_of, normalize, posindex_of, PI_EG};
use crate::metrics::{self, DgpCoefficients, GlareSource};
use crate::GlareError;
use glam::DVec3;
use serde::Serialize;
use std::collections::HashMap;

/// One sample of the view: unit direction, solid angle (sr), luminance (cd/m²).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    pub dir: DVec3,
    pub omega: f64,
    pub lum: f64,
}

/// Options of [`evaluate_rays`] (evalglare's meaning and defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct RayOptions {
    /// Above 100: threshold in cd/m²; otherwise a factor of the mean luminance. Default 2000.
    pub threshold: f64,
    /// Search radius as evalglare's `-r` (twice the angular distance, radians).
    pub search_radius: f64,
    pub peak_extraction: bool,
    pub peak_limit: f64,
    /// 0 (Ev − Edir)/π, 1 mean luminance outside the sources, 2 Ev/π.
    pub background: i32,
    pub low_light: bool,
    pub dgp: DgpCoefficients,
    pub posindex_model: i32,
}

impl Default for RayOptions {
    fn default() -> Self {
        RayOptions {
            threshold: 2000.0,
            search_radius: 0.2,
            peak_extraction: true,
            peak_limit: 50000.0,
            background: 0,
            low_light: false,
            dgp: DgpCoefficients::default(),
            posindex_model: 0,
        }
    }
}

/// The metrics of a ray set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RayEvaluation {
    pub ev: f64,
    pub ev_dir: f64,
    pub avlum: f64,
    pub lum_backg: f64,
    pub threshold: f64,
    pub omega_total: f64,
    pub dgp: f64,
    pub dgps: f64,
    pub ugr: f32,
    pub ugp: f32,
    pub ugp2: f32,
    pub dgi: f32,
    pub cgi: f32,
    pub vcp: f32,
    pub dgr: f32,
    pub lveil: f32,
    pub sources: Vec<GlareSource>,
}

/// Union–find over ray indices.
struct Sets(Vec<usize>);

impl Sets {
    fn find(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }
    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

/// Groups the rays `members` (indices into `rays`) whose directions are within `angle` of one
/// another, transitively; groups in order of their first member.
fn cluster(rays: &[Ray], members: &[usize], angle: f64) -> Vec<Vec<usize>> {
    let cos_a = angle.cos();
    // Cells of the chord length of `angle`: neighbours lie in adjacent cells.
    let cell = (2.0 * (angle / 2.0).sin()).max(1e-9);
    let key = |d: DVec3| {
        (
            (d.x / cell).floor() as i64,
            (d.y / cell).floor() as i64,
            (d.z / cell).floor() as i64,
        )
    };
    let mut grid: HashMap<(i64, i64, i64), Vec<usize>> = HashMap::new();
    for (k, &m) in members.iter().enumerate() {
        grid.entry(key(rays[m].dir)).or_default().push(k);
    }
    let mut sets = Sets((0..members.len()).collect());
    for (k, &m) in members.iter().enumerate() {
        let d = rays[m].dir;
        let (cx, cy, cz) = key(d);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if let Some(v) = grid.get(&(cx + dx, cy + dy, cz + dz)) {
                        for &o in v {
                            if o > k && d.dot(rays[members[o]].dir) >= cos_a {
                                sets.join(k, o);
                            }
                        }
                    }
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for (k, &m) in members.iter().enumerate() {
        let r = sets.find(k);
        let g = *slot.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(m);
    }
    groups
}

/// Evaluates glare for a view direction `vdir` and up vector `vup` from rays. Rays behind the
/// eye (direction against `vdir`) do not count, as behind an angular fisheye.
pub fn evaluate_rays(
    rays: &[Ray],
    vdir: DVec3,
    vup: DVec3,
    opt: &RayOptions,
) -> Result<RayEvaluation, GlareError> {
    let (mut vd, mut vu) = (vdir, vup);
    if normalize(&mut vd) == 0.0 || normalize(&mut vu) == 0.0 || vd.cross(vu).length() < 1e-9 {
        return Err(GlareError::Input(
            "view direction and up vector must be non-zero and not parallel".into(),
        ));
    }
    if let Some((k, _)) = rays.iter().enumerate().find(|(_, r)| {
        !(r.omega.is_finite() && r.lum.is_finite() && r.dir.is_finite()) || r.omega < 0.0
    }) {
        return Err(GlareError::Input(format!(
            "ray {k}: direction, solid angle and luminance must be finite, the solid angle non-negative"
        )));
    }
    let rays: Vec<Ray> = rays
        .iter()
        .map(|r| Ray {
            dir: r.dir.normalize_or_zero(),
            ..*r
        })
        .collect();
    let front: Vec<usize> = (0..rays.len())
        .filter(|&i| rays[i].dir.dot(vd) >= 0.0 && rays[i].omega > 0.0)
        .collect();
    let (mut sang, mut ev, mut avlum) = (0.0, 0.0, 0.0);
    for &i in &front {
        let r = &rays[i];
        sang += r.omega;
        ev += r.dir.dot(vd) * r.omega * r.lum;
        avlum += r.omega * r.lum;
    }
    if sang > 0.0 {
        avlum /= sang;
    }
    let lum_source = if opt.threshold > 100.0 {
        opt.threshold
    } else {
        opt.threshold * avlum
    };
    let glare: Vec<usize> = front
        .iter()
        .copied()
        .filter(|&i| rays[i].lum > lum_source)
        .collect();
    let max_lum = glare.iter().map(|&i| rays[i].lum).fold(0.0, f64::max);
    let mut groups = Vec::new();
    for g in cluster(&rays, &glare, opt.search_radius / 2.0) {
        if opt.peak_extraction && max_lum > opt.peak_limit {
            let (peak, rest): (Vec<usize>, Vec<usize>) =
                g.iter().partition(|&&i| rays[i].lum >= opt.peak_limit);
            if !rest.is_empty() {
                groups.push(rest);
            }
            groups.extend(cluster(&rays, &peak, opt.search_radius / 2.0));
        } else {
            groups.push(g);
        }
    }
    let sources: Vec<GlareSource> = groups
        .iter()
        .map(|g| {
            let (mut om, mut lw, mut e, mut lmax) = (0.0, 0.0, 0.0, 0.0f64);
            let mut c = DVec3::ZERO;
            for &i in g {
                let r = &rays[i];
                om += r.omega;
                lw += r.lum * r.omega;
                e += r.dir.dot(vd) * r.omega * r.lum;
                c += r.dir * (r.lum * r.omega);
                lmax = lmax.max(r.lum);
            }
            let d = c.normalize_or_zero();
            let a = angles_of(vd, vu, d);
            GlareSource {
                luminance: lw / om,
                omega: om,
                posindex: posindex_of(&a, opt.posindex_model),
                direction: [d.x, d.y, d.z],
                sigma: a.sigma,
                e_glare: e,
                pixels: g.len() as f64,
                max_luminance: lmax,
                position: None,
            }
        })
        .collect();
    let ev_dir: f64 = sources.iter().map(|s| s.e_glare).sum();
    let (ls, os) = sources.iter().fold((0.0, 0.0), |(l, o), s| {
        (l + s.luminance * s.omega, o + s.omega)
    });
    let lum_backg = match opt.background {
        1 if sang > os => (sang * avlum - ls) / (sang - os),
        1 => avlum,
        2 => ev / PI_EG,
        _ => (ev - ev_dir) / PI_EG,
    };
    let mut dgp = metrics::dgp(ev, &sources, &opt.dgp);
    if opt.low_light {
        dgp *= metrics::low_light_factor(ev);
    }
    let none = sources.is_empty();
    let z = |v: f32| if none { 0.0 } else { v };
    let dgr = metrics::dgr(avlum, &sources);
    Ok(RayEvaluation {
        ev,
        ev_dir,
        avlum,
        lum_backg,
        threshold: lum_source,
        omega_total: sang,
        dgp,
        dgps: metrics::dgps(ev),
        ugr: z(metrics::ugr(lum_backg, &sources)),
        ugp: z(metrics::ugp(lum_backg, &sources)),
        ugp2: z(metrics::ugp2(lum_backg, &sources)),
        dgi: z(metrics::dgi(lum_backg as f32, &sources)),
        cgi: z(metrics::cgi(ev, ev_dir, &sources)),
        vcp: if none { 100.0 } else { metrics::vcp(dgr) },
        dgr: z(dgr),
        lveil: metrics::veiling_luminance(&sources),
        sources,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// Rays over the hemisphere in front of the eye, in equal-area rings.
    fn hemisphere(n: usize, lum: impl Fn(DVec3) -> f64) -> Vec<Ray> {
        let mut out = Vec::new();
        let om = 2.0 * PI / (n * n) as f64;
        for i in 0..n {
            // equal-area bands in cos(theta) about +y
            let c = 1.0 - (i as f64 + 0.5) / n as f64;
            let s = (1.0 - c * c).sqrt();
            for j in 0..n {
                let p = 2.0 * PI * (j as f64 + 0.5) / n as f64;
                let d = DVec3::new(s * p.cos(), c, s * p.sin());
                out.push(Ray {
                    dir: d,
                    omega: om,
                    lum: lum(d),
                });
            }
        }
        out
    }

    #[test]
    fn uniform_hemisphere_gives_pi_l() {
        let rays = hemisphere(200, |_| 1000.0);
        let e = evaluate_rays(&rays, DVec3::Y, DVec3::Z, &RayOptions::default()).unwrap();
        assert!((e.ev - PI * 1000.0).abs() < 1e-3 * PI * 1000.0, "{}", e.ev);
        assert!(e.sources.is_empty());
        assert_eq!(e.ugr, 0.0);
    }

    #[test]
    fn small_source_on_axis_by_hand() {
        let lb = 100.0;
        let mut rays = hemisphere(100, |_| lb);
        // A source of 1e-3 sr at 2e5 cd/m² on the axis, made of 4 rays.
        for k in 0..4 {
            let a = 0.002 * k as f64;
            rays.push(Ray {
                dir: DVec3::new(a, 1.0, 0.0).normalize(),
                omega: 2.5e-4,
                lum: 2e5,
            });
        }
        let e = evaluate_rays(&rays, DVec3::Y, DVec3::Z, &RayOptions::default()).unwrap();
        assert_eq!(e.sources.len(), 1);
        let s = &e.sources[0];
        assert!((s.omega - 1e-3).abs() < 1e-12);
        assert!((s.posindex - 1.0).abs() < 1e-2, "{}", s.posindex);
        let ev = PI * lb + 2e5 * 1e-3 * 0.99999;
        assert!((e.ev - ev).abs() < 2e-3 * ev);
        let want = 5.87e-5 * e.ev
            + 0.159
            + 0.092 * (1.0 + 4e10 * 1e-3 / (s.posindex as f64).powi(2) / e.ev.powf(1.87)).log10();
        assert!((e.dgp - want).abs() < 1e-9);
        let lbg = (e.ev - e.ev_dir) / PI_EG;
        let ugr = 8.0 * (0.25 / lbg * 4e10 * 1e-3 / (s.posindex as f64).powi(2)).log10();
        assert!((e.ugr as f64 - ugr).abs() < 1e-4);
    }

    #[test]
    fn separate_sources_and_peaks() {
        let mut rays = hemisphere(60, |_| 50.0);
        for (x, l) in [(-0.5, 5000.0), (0.5, 5000.0), (0.51, 1e6)] {
            rays.push(Ray {
                dir: DVec3::new(x, 1.0, 0.0).normalize(),
                omega: 1e-4,
                lum: l,
            });
        }
        let e = evaluate_rays(&rays, DVec3::Y, DVec3::Z, &RayOptions::default()).unwrap();
        // Left source, right source, and the right one's peak split off.
        assert_eq!(e.sources.len(), 3);
        let no_peak = RayOptions {
            peak_extraction: false,
            ..RayOptions::default()
        };
        assert_eq!(
            evaluate_rays(&rays, DVec3::Y, DVec3::Z, &no_peak)
                .unwrap()
                .sources
                .len(),
            2
        );
        assert!(evaluate_rays(&rays, DVec3::Y, DVec3::Y, &no_peak).is_err());
    }
}
