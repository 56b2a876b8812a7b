//! The ambient (indirect diffuse) component without a cache, as RADIANCE computes it with
//! `-aa 0` (daylit's own estimator, [`crate::ambient_mis`], is the default there; this one runs
//! with `--radiance-ambient` and fills the irradiance cache's gaps): a stratified,
//! cosine-weighted hemisphere of about `-ad × weight` samples (fewer for deeper, weaker rays),
//! then `-as × weight` super-samples placed where neighbouring divisions differ most. Beyond
//! `-ab` bounces the ambient value `-av` is used.

use crate::ray::{rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_geometry::FTINY;
use glam::DVec3;

/// RADIANCE's assumed average reflectance (`AVGREFL`): sets hemisphere ray weights and the
/// irradiance cache's record weights `AVGREFL^level`.
pub(crate) const AVGREFL: f64 = 0.5;
use rand::Rng;

/// Hemispheres with at most this many divisions are not super-sampled (RADIANCE: 7 × 7).
pub(crate) const MIN_SUPERSAMPLE_DIVS: usize = 49;

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
        if s.shape
            .is_some_and(|i| self.ambient_skip.get(i as usize) == Some(&true))
        {
            return aval * o.av;
        }
        let back = nrm.dot(s.normal) < 0.0;
        // Without a cache (`-aa 0`, and rcontrib and the annual runs, which never build one):
        // daylit's estimator unless RADIANCE's is asked for.
        if !o.radiance_ambient && ctx.cache.is_none() && ctx.collect.is_none() {
            return self
                .portal_hemisphere(aval, r, s, back, ctx)
                .unwrap_or(aval * o.av);
        }
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
        let wt = if gather {
            r.weight
        } else {
            self.limited_weight(r, d)
        };
        let ns = ((o.ad as f64 * wt).sqrt() * divisions + 0.5).max(1.0) as usize;
        let acoef = rcol / (ns * ns) as f64;
        let (normal, rt) = hemisphere_side(s, back);
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

    /// The weight a hemisphere of `r` with coefficient `d` (its largest channel) sizes its
    /// sample count by: RADIANCE's `-aa 0` rule lowers it where `-lw` would end the samples.
    pub(crate) fn limited_weight(&self, r: &RayState, d: f64) -> f64 {
        let o = &self.opts;
        r.weight
            .min(d * 0.8 * r.weight / (o.ad as f64 * o.lw + 1e-20))
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

    /// Adds about `count` samples to the divisions whose neighbours differ most, keeping each
    /// division's value the mean of its samples.
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
        count: usize,
        ctx: &mut Ctx,
    ) {
        let b: Vec<f64> = divs.iter().map(|d| crate::ray::bright(d.value)).collect();
        let counts = supersample_counts(&b, ns, count, &mut ctx.rng);
        for (k, n) in counts.into_iter().enumerate() {
            for _ in 0..n {
                let Some(v) =
                    self.ambient_sample(parent, s, rt, acoef, frame, (k / ns, k % ns, ns), ctx)
                else {
                    break;
                };
                let d = &mut divs[k];
                d.samples += 1;
                d.value += (v - d.value) / d.samples as f64;
            }
        }
    }
}

/// The side a hemisphere samples (the surface normal, or its reverse for diffuse
/// transmission) and the type of its rays.
pub(crate) fn hemisphere_side(s: &Surf, back: bool) -> (DVec3, u16) {
    if back {
        (-s.normal, TAMBIENT)
    } else {
        (s.normal, RAMBIENT)
    }
}

/// The eight divisions around `k` in an `ns × ns` grid (fewer at its edges), without `k`.
fn neighbours(k: usize, ns: usize) -> impl Iterator<Item = usize> {
    let (i, j) = ((k / ns) as isize, (k % ns) as isize);
    (-1..=1isize)
        .flat_map(move |di| (-1..=1isize).map(move |dj| (i + di, j + dj)))
        .filter(move |&(a, b)| {
            (a, b) != (i, j) && a >= 0 && b >= 0 && a < ns as isize && b < ns as isize
        })
        .map(move |(a, b)| a as usize * ns + b as usize)
}

/// Count, sum and sum of squares of brightness over a neighbourhood.
#[derive(Clone, Copy)]
struct Moments(f64, f64, f64);

impl Moments {
    /// Standard deviation (0 below two values).
    fn sd(self) -> f64 {
        let Moments(n, sum, sq) = self;
        if n < 2.0 {
            return 0.0;
        }
        let mean = sum / n;
        (sq / n - mean * mean).max(0.0).sqrt()
    }

    /// The same without one value `x` of it.
    fn without(self, x: f64) -> Moments {
        Moments(self.0 - 1.0, self.1 - x, self.2 - x * x)
    }
}

/// How many super-samples each division of an `ns × ns` hemisphere gets, about `count` in all,
/// from the brightness `b` of every division's first sample: in proportion to how much the
/// divisions around it differ (their standard deviation, Neyman's allocation), never from its
/// own sample. RADIANCE chooses from each division's own sample and then averages that sample
/// with the new ones, which pulls a division that caught a small bright patch down and leaves
/// one that missed it as it was, so its hemispheres come out low where light arrives in small
/// bright patches (a sunlit floor seen from a desk: −1.8 % on the dense grid of BENCHMARKS.md).
/// A count that does not depend on the division's own sample, normalised by a total that does
/// not either, keeps each division's mean, and so the hemisphere's, unbiased.
pub(crate) fn supersample_counts(
    b: &[f64],
    ns: usize,
    count: usize,
    rng: &mut impl Rng,
) -> Vec<usize> {
    supersample_shares(b, ns, count)
        .into_iter()
        .map(|x| {
            if x > 0.0 {
                (x + rng.random::<f64>()) as usize
            } else {
                0
            }
        })
        .collect()
}

/// The expected super-samples of each division (see [`supersample_counts`]): its neighbours'
/// spread over the spreads of every division as they would be without its sample.
fn supersample_shares(b: &[f64], ns: usize, count: usize) -> Vec<f64> {
    let around: Vec<Moments> = (0..ns * ns)
        .map(|k| {
            neighbours(k, ns).fold(Moments(0.0, 0.0, 0.0), |m, j| {
                Moments(m.0 + 1.0, m.1 + b[j], m.2 + b[j] * b[j])
            })
        })
        .collect();
    let sd: Vec<f64> = around.iter().map(|m| m.sd()).collect();
    let total: f64 = sd.iter().sum();
    (0..ns * ns)
        .map(|k| {
            if sd[k] <= 0.0 {
                return 0.0;
            }
            // The total as it would be without division k's sample, which enters only the
            // neighbourhoods of its neighbours.
            let without_k = total
                + neighbours(k, ns)
                    .map(|j| around[j].without(b[k]).sd() - sd[j])
                    .sum::<f64>();
            if without_k <= FTINY {
                return 0.0;
            }
            sd[k] / without_k * count as f64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A division's share of the super-samples does not move with its own sample, whatever
    /// that sample is: the property that keeps the hemisphere's mean unbiased.
    #[test]
    fn shares_ignore_the_divisions_own_sample() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let ns = 9;
        let b: Vec<f64> = (0..ns * ns)
            .map(|_| rng.random::<f64>().powi(4) * 10.0)
            .collect();
        let shares = supersample_shares(&b, ns, 200);
        // About the budget asked for (each share has its own total, so not exactly).
        let sum: f64 = shares.iter().sum();
        assert!((sum / 200.0 - 1.0).abs() < 0.2, "{sum}");
        for k in [0, 4, ns + 1, ns * ns / 2, ns * ns - 1] {
            for v in [0.0, 1e-3, 50.0, 1e4] {
                let mut c = b.clone();
                c[k] = v;
                let got = supersample_shares(&c, ns, 200)[k];
                assert!(
                    (got - shares[k]).abs() <= 1e-9 * shares[k].max(1.0),
                    "division {k}: share {} with its sample at {}, {got} at {v}",
                    shares[k],
                    b[k]
                );
            }
        }
    }

    /// Divisions that see a small bright patch now and then (a sunlit floor seen from a desk):
    /// the super-sampled mean over many hemispheres stays at the true mean, where choosing by
    /// each division's own sample (RADIANCE's way) pulls it well below.
    #[test]
    fn supersampled_mean_is_unbiased() {
        let ns = 8;
        // Division k returns 100 with probability p[k], else 1: a patch over a few divisions.
        let p: Vec<f64> = (0..ns * ns)
            .map(|k| {
                if (k % ns) > 4 && k / ns > 4 {
                    0.05
                } else {
                    0.0
                }
            })
            .collect();
        let truth: f64 = p.iter().map(|p| 1.0 + 99.0 * p).sum::<f64>() / (ns * ns) as f64;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let draw = |k: usize, rng: &mut rand_pcg::Pcg64| {
            if rng.random::<f64>() < p[k] {
                100.0
            } else {
                1.0
            }
        };
        let (mut ours, mut own, trials) = (0.0, 0.0, 40_000);
        for _ in 0..trials {
            let first: Vec<f64> = (0..ns * ns).map(|k| draw(k, &mut rng)).collect();
            let counts = supersample_counts(&first, ns, 64, &mut rng);
            let mut mean = 0.0;
            for (k, &n) in counts.iter().enumerate() {
                let extra: f64 = (0..n).map(|_| draw(k, &mut rng)).sum();
                mean += (first[k] + extra) / (1 + n) as f64;
            }
            ours += mean / (ns * ns) as f64;
            // Choosing by the division's own sample: the bright ones get the extra samples.
            let mut mean = 0.0;
            for (k, &v) in first.iter().enumerate() {
                let n = if v > 1.0 { 8 } else { 0 };
                let extra: f64 = (0..n).map(|_| draw(k, &mut rng)).sum();
                mean += (v + extra) / (1 + n) as f64;
            }
            own += mean / (ns * ns) as f64;
        }
        let (ours, own) = (ours / trials as f64, own / trials as f64);
        assert!(
            (ours / truth - 1.0).abs() < 0.01,
            "ours {ours}, truth {truth}"
        );
        assert!(
            own / truth - 1.0 < -0.1,
            "own-sample choice {own}, truth {truth}"
        );
    }
}
