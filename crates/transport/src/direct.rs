//! The direct component (RADIANCE's `direct`): every sample of every source gets a coefficient
//! from the material, the samples are ordered by their unoccluded contribution, and shadow rays
//! are sent to them in that order until the rest falls below `-dt` of the value so far (with
//! `-dc` deciding how far ahead to look). Untested samples are counted at the hit rate of the
//! tested ones.

use crate::ray::{bright, rtype::*, RayState, Surf, FHUGE};
use crate::source::SourceSample;
use crate::{Ctx, Renderer};
use daylit_cal::EvalState;
use daylit_geometry::{Ray, FTINY};
use glam::DVec3;

/// Shadow-test at least this many contributions.
const MIN_SHADOW_COUNT: usize = 2;

/// One source sample's contribution.
#[derive(Clone, Copy, Debug)]
pub struct Contribution {
    src: u32,
    dir: DVec3,
    coef: DVec3,
    /// The source's unoccluded value in this direction, and times `coef`.
    pot: DVec3,
    val: DVec3,
    brt: f64,
}

impl Renderer {
    /// The direct contribution at `s` for a material whose source coefficient is `coef`.
    /// `so_far` is the value computed already (it sets the threshold).
    pub(crate) fn direct(
        &self,
        r: &RayState,
        s: &Surf,
        so_far: DVec3,
        coef: &dyn Fn(DVec3, f64) -> DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        self.direct_eval(r, s, so_far, &|d, omega, _| coef(d, omega), ctx)
    }

    /// [`Renderer::direct`] for a material whose source coefficient evaluates `.cal`
    /// functions: `coef` gets the thread's evaluator too.
    pub(crate) fn direct_eval(
        &self,
        r: &RayState,
        s: &Surf,
        so_far: DVec3,
        coef: &dyn Fn(DVec3, f64, &mut EvalState) -> DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        // Geometry sampling for the irradiance cache needs only where rays go.
        if self.sources.is_empty()
            || ctx.collect.is_some()
            || (ctx.indirect_only && r.crtype & crate::ray::rtype::AMBIENT == 0)
        {
            return DVec3::ZERO;
        }
        let mut cnts = std::mem::take(&mut ctx.samples);
        cnts.clear();
        let mut samples: Vec<SourceSample> = Vec::new();
        for (i, src) in self.sources.iter().enumerate() {
            samples.clear();
            src.samples(
                s.point,
                r.weight,
                self.opts.ds,
                self.opts.dj,
                &mut ctx.rng,
                &mut samples,
            );
            for smp in &samples {
                let c = coef(smp.dir, smp.omega, &mut ctx.eval);
                if c.max_element() <= 0.0 {
                    continue;
                }
                let pot = self.potential(i, s.point, smp.dir, ctx);
                let val = c * pot;
                let brt = bright(val);
                if brt <= 0.0 {
                    continue;
                }
                cnts.push(Contribution {
                    src: i as u32,
                    dir: smp.dir,
                    coef: c,
                    pot,
                    val,
                    brt,
                });
            }
        }
        let n = cnts.len();
        let mut col = DVec3::ZERO;
        if n == 0 {
            ctx.samples = cnts;
            return col;
        }
        cnts.sort_by(|a, b| b.brt.total_cmp(&a.brt));
        // Tail sums: tail[k] = brightness of contributions k.. together.
        let mut tail = vec![0.0; n + 1];
        for k in (0..n).rev() {
            tail[k] = tail[k + 1] + cnts[k].brt;
        }
        let check = ((n as f64).powf(self.opts.dc) + 0.5) as usize;
        let thresh = self.opts.dt / r.weight;
        let mut tested = 0;
        let mut hits = 0;
        for k in 0..n {
            if k >= MIN_SHADOW_COUNT {
                let ahead = if k + check >= n {
                    tail[k]
                } else {
                    tail[k] - tail[k + check]
                };
                if ahead < thresh * bright(so_far + col) {
                    break;
                }
            }
            tested += 1;
            let c = cnts[k];
            let through = c.dir.dot(s.normal) < -FTINY;
            let rt = if through { TSHADOW } else { RSHADOW };
            let Some((mut sr, _)) = self.spawn(r, s, rt, None, ctx) else {
                continue;
            };
            sr.dir = c.dir;
            sr.rsrc = Some(c.src);
            sr.coef = r.coef * c.coef;
            // A shadow ray whose first hit is its (local) source takes the value found while
            // ordering the samples, as RADIANCE's `direct` does, instead of shading the source
            // again: a luminaire's distribution (`brightdata` and its `.cal` functions) is
            // evaluated once per sample, not twice. Anything else in the way is traced in full,
            // as is every ray when contributions are gathered or a medium is crossed.
            let hit = self.first_hit(&sr);
            let src = &self.sources[c.src as usize];
            let reached = src.relay.is_none()
                && src.shape.is_some()
                && hit.is_some_and(|h| Some(h.prim) == src.shape)
                && self.contrib.is_none()
                && sr.clip.is_empty()
                && sr.cext.max_element() <= 0.0;
            let v = if reached {
                c.pot
            } else {
                self.trace_hit(&sr, hit, ctx).value
            };
            if v.element_sum() / 3.0 <= FTINY {
                continue;
            }
            col += v * c.coef;
            hits += 1;
        }
        if tested < n {
            // RADIANCE scales untested sources by their hit rate; daylit uses this point's rate
            // so that results do not depend on the order rays were traced in.
            let rate = if tested > 0 {
                hits as f64 / tested as f64
            } else {
                0.5
            };
            for c in &cnts[tested..] {
                col += c.val * rate;
            }
        }
        ctx.samples = cnts;
        col
    }

    /// The unoccluded value of source `i` seen from `p` along `dir` (RADIANCE's `srcvalue`
    /// without the shadow test; virtual sources are estimated from the mirror's colour).
    pub(crate) fn potential(&self, i: usize, p: DVec3, dir: DVec3, ctx: &mut Ctx) -> DVec3 {
        let src = &self.sources[i];
        let mut shadow = RayState::primary(p, dir);
        shadow.crtype = RSHADOW;
        shadow.rtype = RSHADOW;
        shadow.rsrc = Some(i as u32);
        if let Some(rel) = src.relay {
            if let Some(v) = self.prism_potential(rel, p, dir, ctx) {
                return v;
            }
            let mirror = self.shape_mods[rel.mirror as usize]
                .material
                .map(|m| match self.mods.material(m) {
                    crate::material::Material::Mirror { color, .. } => *color,
                    _ => DVec3::ZERO,
                })
                .unwrap_or(DVec3::ZERO);
            let hit =
                self.compiled
                    .accel
                    .shape(rel.mirror)
                    .intersect(&Ray::new(p, dir), FTINY, FHUGE);
            if hit.is_none() {
                return DVec3::ZERO;
            }
            let parent = &self.sources[rel.parent];
            return mirror * self.material_color(parent.material);
        }
        match src.shape {
            None => {
                let s = Surf {
                    point: p,
                    normal: -dir,
                    rod: 1.0,
                    t: FHUGE,
                    shape: None,
                    flat: true,
                    dir,
                    uv: [0.0; 2],
                };
                self.shade_apart(&shadow, &s, self.source_mods[i], ctx)
            }
            Some(sh) => {
                let Some((t, n)) =
                    self.compiled
                        .accel
                        .shape(sh)
                        .intersect(&Ray::new(p, dir), FTINY, FHUGE)
                else {
                    return DVec3::ZERO;
                };
                let s = Surf {
                    point: p + dir * t,
                    normal: n,
                    rod: -dir.dot(n),
                    t,
                    shape: Some(sh),
                    flat: true,
                    dir,
                    uv: [0.0; 2],
                };
                self.shade_apart(&shadow, &s, self.shape_mods[sh as usize], ctx)
            }
        }
    }

    fn material_color(&self, m: u32) -> DVec3 {
        match self.mods.material(m) {
            crate::material::Material::Light { color, .. } => *color,
            _ => DVec3::ZERO,
        }
    }
}
