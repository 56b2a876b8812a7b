//! daylit's ambient estimator for `-aa 0`. The budget is RADIANCE's (about `-ad × weight`
//! hemisphere samples, plus `-as × weight` on hemispheres large enough for RADIANCE to
//! super-sample, fewer where `-lw` would end the rays), but half the samples aim at the
//! windows and at the sun patches ([`crate::portals`]), spread over them by a Latin
//! hypercube, and every sample is weighted by the balance heuristic against all the ways it
//! could have been drawn, so the estimate stays unbiased and the light through small windows
//! no longer rests on the few cosine samples that find them. A hemisphere of a single sample
//! draws it from the mixture of the strategies. Weak rays go on by Russian roulette instead
//! of ending at `-lw` (see `Renderer::spawn`). `--radiance-ambient` gives RADIANCE's own
//! estimator ([`crate::ambient`]).

use crate::ambient::{hemisphere_side, square_to_disc, MIN_SUPERSAMPLE_DIVS};
use crate::portals::Selection;
use crate::ray::{RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_geometry::FTINY;
use glam::DVec3;
use rand::Rng;
use std::f64::consts::FRAC_1_PI;

/// How a hemisphere's samples are drawn: `n[0]` stratified cosine-weighted samples
/// (`ns × ns` strata), `n[1]` aimed at windows and `n[2]` at sun patches, or (`mixture`) one
/// sample drawn from the mixture whose probabilities are `n`.
struct Plan<'a> {
    ns: usize,
    n: [f64; 3],
    windows: Option<&'a Selection>,
    patches: Option<&'a Selection>,
    mixture: bool,
}

impl Renderer {
    /// The ambient value at `s` times `rcol` by daylit's estimator (samples that Russian
    /// roulette ends or that miss their aim count as dark, which keeps it unbiased); `None`
    /// for a black coefficient.
    pub(crate) fn portal_hemisphere(
        &self,
        rcol: DVec3,
        r: &RayState,
        s: &Surf,
        back: bool,
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        let o = &self.opts;
        let d = rcol.max_element();
        if d <= FTINY {
            return None;
        }
        let wt = self.limited_weight(r, d);
        let mut budget = o.ad as f64 * wt;
        if budget > MIN_SUPERSAMPLE_DIVS as f64 {
            budget += o.as_ as f64 * wt;
        }
        let (normal, rt) = hemisphere_side(s, back);
        let aim = !self.portals.is_empty()
            && (r.adepth == 0 || self.portals.len() <= crate::portals::MAX_FOR_DEEP_BOUNCES);
        let (windows, patches) = if aim {
            (
                self.portals.select(s.point, normal),
                self.portals.select_patches(s.point, normal),
            )
        } else {
            (None, None)
        };
        // Half the samples stay cosine-weighted; the other half aim, split between windows
        // and sun patches when there are both.
        let aimed = match (&windows, &patches) {
            (None, None) => [0.0, 0.0],
            (Some(_), None) => [0.5, 0.0],
            (None, Some(_)) => [0.0, 0.5],
            (Some(_), Some(_)) => [0.25, 0.25],
        };
        let mixture = aimed != [0.0, 0.0] && budget < 2.0;
        let plan = if mixture {
            Plan {
                ns: 1,
                n: [1.0 - aimed[0] - aimed[1], aimed[0], aimed[1]],
                windows: windows.as_ref(),
                patches: patches.as_ref(),
                mixture,
            }
        } else {
            let nw = (budget * aimed[0]).floor();
            let np = (budget * aimed[1]).floor();
            let ns = ((budget - nw - np).sqrt() + 0.5).max(1.0) as usize;
            Plan {
                ns,
                n: [(ns * ns) as f64, nw, np],
                windows: windows.as_ref(),
                patches: patches.as_ref(),
                mixture,
            }
        };
        let ux = normal.any_orthonormal_vector();
        let uy = normal.cross(ux);
        let mut parent = *r;
        parent.adepth += 1;
        let accel = &self.compiled.accel;
        let mut sum = DVec3::ZERO;
        let share = plan.n.iter().sum::<f64>();
        // Traces one sample; `landing` is where a sun-patch sample was aimed.
        let mut take = |dir: DVec3, landing: Option<(u32, f64)>, ctx: &mut Ctx| {
            let cos = dir.dot(normal);
            if cos <= FTINY {
                return;
            }
            // The ray as `spawn` will start it: its first hit decides the patch density.
            let probe = RayState {
                org: s.point,
                dir,
                from: s.shape.filter(|_| s.flat),
                ..parent
            };
            let hit = self.first_hit(&probe);
            if let Some((prim, dist)) = landing {
                match &hit {
                    Some(h) if h.prim == prim && (h.t - dist).abs() <= 1e-6 * dist + FTINY => {}
                    _ => return,
                }
            }
            let pc = cos * FRAC_1_PI;
            let pw = plan
                .windows
                .map_or(0.0, |sel| self.portals.density(sel, s.point, dir, accel));
            let pp = match (plan.patches, &hit) {
                (Some(sel), Some(h)) => {
                    self.portals
                        .patch_density(sel, dir, h, accel, self.tracer())
                }
                _ => 0.0,
            };
            // The sample's coefficient is the balance heuristic's: `mis` times its share of
            // the budget. An aimed sample's can be far smaller than the share; its ray's
            // weight (for `-lw` and Russian roulette) is lifted to the share or to `-lw`,
            // whichever is less, so that the roulette does not end it for that (RADIANCE
            // keeps every sample of a hemisphere above `-lw` likewise), while rays of truly
            // small weight still end early.
            let mis = pc * share / (plan.n[0] * pc + plan.n[1] * pw + plan.n[2] * pp);
            let lift = mis.max((o.lw * share / (r.weight * d)).min(1.0));
            let Some((mut ar, c)) = self.spawn(&parent, s, rt, Some(rcol * lift / share), ctx)
            else {
                return;
            };
            ar.coef *= mis / lift;
            ar.dir = dir;
            let v = self.trace_hit(&ar, hit, ctx);
            if v.dist > FTINY {
                sum += v.value * c * (mis / lift);
            }
        };
        let cosine = |i: usize, j: usize, ctx: &mut Ctx| {
            let a = (j as f64 + ctx.rng.random::<f64>()) / plan.ns as f64;
            let b = (i as f64 + ctx.rng.random::<f64>()) / plan.ns as f64;
            let (x, y) = square_to_disc(a, b);
            let z = (1.0 - x * x - y * y).max(0.0).sqrt();
            (ux * x + uy * y + normal * z).normalize()
        };
        let window = |sel: &Selection, xv: (f64, f64), ctx: &mut Ctx| {
            self.portals.sample(sel, s.point, accel, xv, &mut ctx.rng)
        };
        let patch = |sel: &Selection, xv: (f64, f64), ctx: &mut Ctx| {
            self.portals
                .sample_patch(sel, s.point, accel, self.tracer(), xv, &mut ctx.rng)
        };
        if plan.mixture {
            let x = ctx.rng.random::<f64>();
            let xv = (ctx.rng.random::<f64>(), ctx.rng.random::<f64>());
            if x < plan.n[0] {
                let dir = cosine(0, 0, ctx);
                take(dir, None, ctx);
            } else if x < plan.n[0] + plan.n[1] {
                if let Some(dir) = window(plan.windows?, xv, ctx) {
                    take(dir, None, ctx);
                }
            } else if let Some(l) = patch(plan.patches?, xv, ctx) {
                take(l.dir, Some((l.prim, l.dist)), ctx);
            }
        } else {
            for i in 0..plan.ns {
                for j in 0..plan.ns {
                    let dir = cosine(i, j, ctx);
                    take(dir, None, ctx);
                }
            }
            if let Some(sel) = plan.windows {
                for xv in latin_hypercube(plan.n[1] as usize, &mut ctx.rng) {
                    if let Some(dir) = window(sel, xv, ctx) {
                        take(dir, None, ctx);
                    }
                }
            }
            if let Some(sel) = plan.patches {
                for xv in latin_hypercube(plan.n[2] as usize, &mut ctx.rng) {
                    if let Some(l) = patch(sel, xv, ctx) {
                        take(l.dir, Some((l.prim, l.dist)), ctx);
                    }
                }
            }
        }
        Some(sum)
    }
}

/// `n` points of the unit square, one in each row and each column of an `n × n` grid (a Latin
/// hypercube): each point is uniform, so the estimate stays unbiased, and together they spread
/// the aimed samples over the windows as the cosine strata spread the others.
fn latin_hypercube(n: usize, rng: &mut impl Rng) -> Vec<(f64, f64)> {
    let mut columns: Vec<usize> = (0..n).collect();
    for k in (1..n).rev() {
        columns.swap(k, rng.random_range(0..=k));
    }
    columns
        .into_iter()
        .enumerate()
        .map(|(row, col)| {
            let x = (row as f64 + rng.random::<f64>()) / n as f64;
            let v = (col as f64 + rng.random::<f64>()) / n as f64;
            (x, v)
        })
        .collect()
}
