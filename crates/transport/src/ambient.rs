//! The ambient (indirect diffuse) component without a cache, as RADIANCE computes it with
//! `-aa 0`: a stratified, cosine-weighted hemisphere of about `-ad × weight` samples (fewer for
//! deeper, weaker rays), then `-as × weight` super-samples placed where neighbouring divisions
//! differ most. Beyond `-ab` bounces the ambient value `-av` is used.

use crate::irradiance_cache::AVGREFL;
use crate::trace::{rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_geometry::FTINY;
use glam::DVec3;
use rand::Rng;

/// Hemispheres with at most this many divisions are not super-sampled (RADIANCE: 7 × 7).
const MIN_SUPERSAMPLE_DIVS: usize = 49;

/// Divisions per side, as a fraction of the usual, of the hemisphere that answers a gap in a
/// cache level below the first (`-aa` above 0). Such a point is one sample of a hemisphere of
/// hundreds above it, so a sparse hemisphere answers it without bias and adds little noise,
/// where a full one would cost as much as a whole record (and its own gaps as much again).
/// Level 0, the values asked for, always gets the full hemisphere.
pub(crate) const GAP_DIVISIONS: f64 = 0.125;

/// Maps the unit square onto the unit disc, keeping strata compact (Shirley and Chiu's
/// concentric map).
pub fn square_to_disc(a: f64, b: f64) -> (f64, f64) {
    let (x, y) = (2.0 * a - 1.0, 2.0 * b - 1.0);
    if x == 0.0 && y == 0.0 {
        return (0.0, 0.0);
    }
    let (r, phi) = if x * x > y * y {
        (x, std::f64::consts::FRAC_PI_4 * (y / x))
    } else {
        (
            y,
            std::f64::consts::FRAC_PI_2 - std::f64::consts::FRAC_PI_4 * (x / y),
        )
    };
    (r * phi.cos(), r * phi.sin())
}

struct Division {
    value: DVec3,
    samples: u32,
}

impl Renderer {
    /// The ambient value at `s`, multiplied by the coefficient `aval` (RADIANCE's
    /// `multambient`). `nrm` is the side to sample: the surface normal, or its reverse for
    /// diffuse transmission.
    pub(crate) fn multambient(
        &self,
        aval: DVec3,
        r: &RayState,
        s: &Surf,
        nrm: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let o = &self.opts;
        if o.ad == 0 || r.adepth >= o.ab {
            return aval * o.av;
        }
        let back = nrm.dot(s.normal) < 0.0;
        let mut divisions = 1.0;
        if o.aa > 0.0 && (ctx.collect.is_some() || ctx.cache.is_some()) {
            if let Some(v) = self.cached_ambient(aval, r, s, nrm, back, ctx) {
                return v;
            }
            if r.adepth > 0 {
                divisions = GAP_DIVISIONS;
            }
        }
        // A gap in the cache stands in for a record: its rays are weighted as a record's are,
        // not cut by `-lw` as an `-aa 0` hemisphere's are.
        let gather = o.aa > 0.0 && ctx.cache.is_some();
        match self.hemisphere(aval, r, s, back, (divisions, gather), ctx) {
            Some(v) => v,
            None => aval * o.av,
        }
    }

    /// The ambient value from a hemisphere of `divisions` × the usual divisions per side.
    /// With `gather` (a point the irradiance cache leaves uncovered) its rays are weighted by
    /// the assumed reflectance, as a record's are, and their coefficient applied after, so
    /// that `-lw` does not end them; otherwise RADIANCE's `-aa 0` rule applies, which lowers
    /// the division count where `-lw` would end the rays and drops those it still ends.
    pub(crate) fn hemisphere(
        &self,
        rcol: DVec3,
        r: &RayState,
        s: &Surf,
        back: bool,
        (divisions, gather): (f64, bool),
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        let o = &self.opts;
        let d = rcol.max_element();
        if d <= FTINY {
            return None;
        }
        let mut wt = r.weight;
        let limit = d * 0.8 * r.weight / (o.ad as f64 * o.lw + 1e-20);
        if wt > limit && !gather {
            wt = limit;
        }
        let ns = ((o.ad as f64 * wt).sqrt() * divisions + 0.5).max(1.0) as usize;
        let acoef = rcol / (ns * ns) as f64;
        let (normal, rt) = if back {
            (-s.normal, TAMBIENT)
        } else {
            (s.normal, RAMBIENT)
        };
        let ux = normal.any_orthonormal_vector();
        let uy = normal.cross(ux);
        let mut parent = *r;
        parent.adepth += 1;
        let mut divs: Vec<Division> = Vec::with_capacity(ns * ns);
        let mut ok = 0;
        for i in 0..ns {
            for j in 0..ns {
                let v = self.ambient_sample(
                    &parent,
                    s,
                    (rt, gather),
                    acoef,
                    (normal, ux, uy),
                    (i, j, ns),
                    ctx,
                );
                ok += usize::from(v.is_some());
                divs.push(Division {
                    value: v.unwrap_or(DVec3::ZERO),
                    samples: 1,
                });
            }
        }
        if ok == 0 {
            return None;
        }
        if ok == ns * ns && ok > MIN_SUPERSAMPLE_DIVS {
            let extra = (o.as_ as f64 * wt * divisions * divisions + 0.5) as usize;
            if extra >= 4 * ns {
                self.supersample(
                    &parent,
                    s,
                    (rt, gather),
                    acoef,
                    (normal, ux, uy),
                    ns,
                    &mut divs,
                    extra,
                    ctx,
                );
            }
        }
        Some(divs.iter().map(|d| d.value).sum())
    }

    /// One sample in division `(i, j)`: its value times its coefficient.
    #[allow(clippy::too_many_arguments)]
    fn ambient_sample(
        &self,
        parent: &RayState,
        s: &Surf,
        (rt, gather): (u16, bool),
        acoef: DVec3,
        frame: (DVec3, DVec3, DVec3),
        (i, j, ns): (usize, usize, usize),
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        let (mut ar, c) = if gather {
            let (ar, c) = self.spawn(parent, s, rt, Some(DVec3::splat(AVGREFL)), ctx)?;
            (ar, c * acoef / AVGREFL)
        } else {
            self.spawn(parent, s, rt, Some(acoef), ctx)?
        };
        let a = (j as f64 + ctx.rng.random::<f64>()) / ns as f64;
        let b = (i as f64 + ctx.rng.random::<f64>()) / ns as f64;
        let (x, y) = square_to_disc(a, b);
        let z = (1.0 - x * x - y * y).max(0.0).sqrt();
        let (n, ux, uy) = frame;
        ar.dir = (ux * x + uy * y + n * z).normalize();
        let v = self.trace(&ar, ctx);
        if v.dist <= FTINY {
            return None;
        }
        Some(v.value * c)
    }

    /// Adds `count` samples to the divisions whose neighbours differ most, keeping each
    /// division's value the mean of its samples (biased, as RADIANCE says of its own).
    #[allow(clippy::too_many_arguments)]
    fn supersample(
        &self,
        parent: &RayState,
        s: &Surf,
        rt: (u16, bool),
        acoef: DVec3,
        frame: (DVec3, DVec3, DVec3),
        ns: usize,
        divs: &mut [Division],
        mut count: usize,
        ctx: &mut Ctx,
    ) {
        let b: Vec<f64> = divs.iter().map(|d| crate::trace::bright(d.value)).collect();
        let err = division_errors(&b, ns, crate::trace::bright(acoef));
        let mut remaining: f64 = err.iter().sum();
        for k in 0..ns * ns {
            if remaining <= FTINY || count == 0 {
                break;
            }
            let n = (err[k] / remaining * count as f64 + ctx.rng.random::<f64>()) as usize;
            for _ in 0..n {
                let Some(v) =
                    self.ambient_sample(parent, s, rt, acoef, frame, (k / ns, k % ns, ns), ctx)
                else {
                    break;
                };
                let d = &mut divs[k];
                d.samples += 1;
                d.value += (v - d.value) / d.samples as f64;
                count -= 1;
                if count == 0 {
                    break;
                }
            }
            remaining -= err[k];
        }
    }
}

/// Estimated error of each division from brightness differences with its neighbours (above,
/// left and upper-left, each pair counted in both cells), scaled up at edges and corners for
/// their missing neighbours, then blurred to reduce bias. This is RADIANCE's scheme; which
/// divisions get super-samples decides how biased the result is, so daylit keeps it.
/// `b` holds each division's brightness.
pub(crate) fn division_errors(b: &[f64], ns: usize, coef_bright: f64) -> Vec<f64> {
    let norm = 1.0 / (coef_bright + FTINY);
    let diff = |x: f64, y: f64| (x - y) * (x - y) * norm / (x + y + FTINY);
    let mut raw = vec![0.0f64; ns * ns];
    for i in 0..ns {
        for j in 0..ns {
            let k = i * ns + j;
            let mut pair = |other: usize| {
                let d = diff(b[k], b[other]);
                raw[k] += d;
                raw[other] += d;
            };
            if i > 0 {
                pair(k - ns);
            }
            if j > 0 {
                pair(k - 1);
                if i > 0 {
                    pair(k - ns - 1);
                }
            }
        }
    }
    if ns > 1 {
        for k in [0, ns - 1, (ns - 1) * ns, ns * ns - 1] {
            raw[k] *= 2.0;
        }
        for i in 1..ns - 1 {
            raw[i * ns] *= 1.2;
            raw[i * ns + ns - 1] *= 1.2;
            raw[i] *= 1.2;
            raw[(ns - 1) * ns + i] *= 1.2;
        }
    }
    let mut err = vec![0.0f64; ns * ns];
    for i in 0..ns.saturating_sub(1) {
        for j in 0..ns - 1 {
            let k = i * ns + j;
            err[k] += 0.5 * raw[k] + 0.125 * (raw[k + 1] + raw[k + ns]);
            err[k + 1] += 0.125 * raw[k];
            err[k + ns] += 0.125 * raw[k];
        }
    }
    err
}
