//! RADIANCE's `BSDF` and `aBSDF` materials: scattering measured or simulated and given as an
//! XML file (LBNL WINDOW's Klems matrices, tensor trees), read by [`daylit_bsdf`].
//!
//! What RADIANCE does with them, kept here:
//! - The surface is not turned to face the ray: front and back reflection differ, and a
//!   surface seen from behind with `-bv-` is passed through.
//! - The file's Lambertian parts (plus the real arguments, added) go to the ambient
//!   calculation and to the sources as diffuse reflection and transmission; the rest is
//!   sampled with `-ss` samples (jittered within the data's resolution) unless its
//!   directional-hemispherical value falls below `-st`, in which case it joins the ambient
//!   coefficient. Light from the sources is the BSDF evaluated towards each source sample,
//!   less its Lambertian part.
//! - `BSDF` with a thickness is a proxy: view and shadow rays pass through it to the
//!   detailed geometry it stands for, scattered rays are offset by the thickness to the far
//!   side, and rays meeting the hidden side pass too. Without a thickness it blocks shadow
//!   rays, so direct sun reaches a room through it only by way of the ambient calculation.
//! - `aBSDF` finds a "through" (aperture) component around the straight-through direction:
//!   view and shadow rays pass with its coefficient, and samples near it are not counted
//!   twice.
//! - Patterns scale everything but the non-diffuse reflection.

use crate::material::{frame, Builder, FuncFrame, Material};
use crate::ray::{bright, perturbed, rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_bsdf::{Bsdf, Parts, Side, Value};
use daylit_cal::{CalEnv, EvalState, ExprId};
use daylit_geometry::FTINY;
use daylit_scene::Primitive;
use glam::DVec3;
use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::cell::RefCell;
use std::f64::consts::PI;
use std::sync::Arc;

/// A `BSDF` or `aBSDF` material.
#[derive(Clone, Debug)]
pub struct BsdfMaterial {
    /// The scattering data.
    pub data: Arc<Bsdf>,
    /// `aBSDF`: the aperture form, with a through component and no thickness.
    pub aperture: bool,
    /// The thickness expression (`BSDF` only).
    pub thick: Option<ExprId>,
    /// The up-vector expressions.
    pub up: [ExprId; 3],
    /// Diffuse reflectance added on the front side.
    pub front: DVec3,
    /// Diffuse reflectance added on the back side.
    pub back: DVec3,
    /// Diffuse transmittance added.
    pub trans: DVec3,
    /// Where the expressions are evaluated (its transform turns the up vector and scales
    /// the thickness).
    pub frame: FuncFrame,
}

impl Builder<'_> {
    /// `BSDF` (`aperture` false) and `aBSDF`.
    pub(crate) fn bsdf_material(
        &mut self,
        p: &Primitive,
        aperture: bool,
    ) -> Result<Material, String> {
        let (sa, f) = (&p.sargs, &p.fargs);
        let first = usize::from(!aperture);
        if sa.len() < first + 5 {
            return Err(format!(
                "needs {} string arguments ({}the BSDF file, the up vector's three variables and a function file), has {}",
                first + 5,
                if aperture { "" } else { "the thickness, " },
                sa.len()
            ));
        }
        if f.len() > 9 || f.len() % 3 != 0 {
            return Err(format!(
                "needs 0, 3, 6 or 9 real arguments (diffuse front, back, transmission), has {}",
                f.len()
            ));
        }
        let file = sa[first + 4].as_str();
        self.load(file)?;
        let thick = if aperture {
            None
        } else {
            Some(self.expr(file, &sa[0])?)
        };
        let up = [
            self.expr(file, &sa[first + 1])?,
            self.expr(file, &sa[first + 2])?,
            self.expr(file, &sa[first + 3])?,
        ];
        let data = self.bsdf_file(&sa[first])?;
        let triple = |i: usize| {
            f.get(3 * i..3 * i + 3)
                .map_or(DVec3::ZERO, |c| DVec3::new(c[0], c[1], c[2]))
        };
        Ok(Material::Bsdf(Box::new(BsdfMaterial {
            data,
            aperture,
            thick,
            up,
            front: triple(0),
            back: triple(1),
            trans: triple(2),
            frame: frame(p, first + 5, Vec::new())?,
        })))
    }
}

/// RGB of a BSDF library value.
fn rgb(v: &Value) -> DVec3 {
    DVec3::from(v.rgb())
}

/// The smallest projected solid angle of a component's resolution (`minProjSA`).
fn min_proj_sa(sd: &Bsdf, side: Side) -> f64 {
    sd.component_summary(side).map_or(0.0, |s| s.1)
}

/// Everything one hit needs: RADIANCE's `BSDFDAT`.
struct Hit<'a> {
    sd: &'a Bsdf,
    /// Perturbed normal, turned to the side the ray came from.
    pnorm: DVec3,
    /// World to BSDF coordinates (rows x, y, z).
    to_local: [DVec3; 3],
    /// The reversed ray direction in BSDF coordinates.
    vray: DVec3,
    /// Square roots of the smallest and largest projected solid angles at `vray`.
    sr_vpsa: [f64; 2],
    thick: f64,
    /// The through component (`aBSDF`) and the average BTDF around it.
    cthru: DVec3,
    cthru_surr: DVec3,
    rdiff: DVec3,
    tdiff: DVec3,
    pcol: DVec3,
    /// The ray's weight and `-ss`.
    rweight: f64,
    specjitter: f64,
    hitfront: bool,
}

impl Hit<'_> {
    fn local(&self, v: DVec3) -> DVec3 {
        DVec3::new(
            self.to_local[0].dot(v),
            self.to_local[1].dot(v),
            self.to_local[2].dot(v),
        )
        .normalize()
    }

    fn world(&self, v: DVec3) -> DVec3 {
        (self.to_local[0] * v.x + self.to_local[1] * v.y + self.to_local[2] * v.z).normalize()
    }

    /// The transmission data seen from the side the ray came from.
    fn transmission(&self) -> Option<Side> {
        let (mine, other) = if self.hitfront {
            (Side::Tf, Side::Tb)
        } else {
            (Side::Tb, Side::Tf)
        };
        [mine, other]
            .into_iter()
            .find(|&w| self.sd.has_component(w))
    }

    /// `vray` jittered within `sr_psa` (scaled by `-ss` below 1).
    fn jitter(&self, mut sr_psa: f64, rng: &mut impl Rng) -> DVec3 {
        if self.specjitter < 1.0 {
            sr_psa *= self.specjitter;
        }
        if sr_psa <= FTINY {
            return self.vray;
        }
        let mut v = self.vray;
        v.x += sr_psa * (0.5 - rng.random::<f64>());
        v.y += sr_psa * (0.5 - rng.random::<f64>());
        v.normalize()
    }

    /// The through component of an `aBSDF` (RADIANCE's `compute_through`): the BTDF near the
    /// straight-through direction, if it forms a peak clearly above its surround.
    fn compute_through(&mut self) {
        const CHECK: [[f64; 2]; 29] = [
            [0.0, 0.0],
            [-0.6, 0.0],
            [0.0, 0.6],
            [0.0, -0.6],
            [0.6, 0.0],
            [-0.6, 0.6],
            [-0.6, -0.6],
            [0.6, 0.6],
            [0.6, -0.6],
            [-1.2, 0.0],
            [0.0, 1.2],
            [0.0, -1.2],
            [1.2, 0.0],
            [-1.2, 1.2],
            [-1.2, -1.2],
            [1.2, 1.2],
            [1.2, -1.2],
            [-1.8, 0.0],
            [0.0, 1.8],
            [0.0, -1.8],
            [1.8, 0.0],
            [-1.8, 1.8],
            [-1.8, -1.8],
            [1.8, 1.8],
            [1.8, -1.8],
            [-2.4, 0.0],
            [0.0, 2.4],
            [0.0, -2.4],
            [2.4, 0.0],
        ];
        let Some(which) = self.transmission() else {
            return;
        };
        if bright(self.pcol) <= FTINY {
            return;
        }
        let min_psa = min_proj_sa(self.sd, which);
        let srchrad = min_psa.sqrt();
        let mut samples: Vec<(f64, DVec3, DVec3)> = CHECK
            .iter()
            .map(|d| {
                let dir = DVec3::new(
                    -self.vray.x + d[0] * srchrad,
                    -self.vray.y + d[1] * srchrad,
                    -self.vray.z,
                )
                .normalize();
                let v = self.sd.eval_value(self.vray, dir);
                (v.y(), dir, rgb(&v))
            })
            .collect();
        // Brightest first; equal values keep their order.
        samples.sort_by(|a, b| b.0.total_cmp(&a.0));
        if samples[0].0 <= FTINY {
            return;
        }
        let (mut vpeak, mut vsurr) = (DVec3::ZERO, DVec3::ZERO);
        let (mut vypeak, mut tomsum, mut tomsurr) = (0.0, 0.0, 0.0);
        let mut ns = 0.0;
        for i in 0..samples.len() {
            let (vy, dir, col) = samples[i];
            if i > 0 && vy == samples[i - 1].0 {
                continue;
            }
            let tomega = self.sd.size(self.vray, Some(dir)).0;
            let col = col * tomega;
            if tomega > 1.5 * min_psa || vypeak > 8.0 * vy * ns {
                if i == 0 {
                    return;
                }
                vsurr += col;
                tomsurr += tomega;
                continue;
            }
            vpeak += col;
            tomsum += tomega;
            vypeak += vy;
            ns += 1.0;
        }
        if tomsurr < 0.2 * tomsum {
            return;
        }
        vsurr /= tomsurr;
        let lamb = self.sd.lambertian();
        let btdiff = rgb(if self.vray.z > 0.0 {
            &lamb.t_front
        } else {
            &lamb.t_back
        }) / PI;
        let vpeak = (vpeak - btdiff * tomsum).max(DVec3::ZERO);
        let vsurr = (vsurr - btdiff).max(DVec3::ZERO);
        if bright(vpeak) < 0.0005 {
            return;
        }
        self.cthru_surr = vsurr * self.pcol;
        self.cthru = vpeak * self.pcol;
    }

    /// The non-Lambertian BSDF towards a source (RADIANCE's `direct_specular_OK`), `None`
    /// when there is none to count.
    fn direct_specular(&self, ldir: DVec3, omega: f64, rng: &mut impl Rng) -> Option<DVec3> {
        let vsrc = self.local(ldir);
        if !vsrc.is_finite() {
            return None;
        }
        // A source seen through the aperture is counted by the through component.
        if (vsrc.z > 0.0) != (self.vray.z > 0.0) && bright(self.cthru) > FTINY {
            let dx = vsrc.x + self.vray.x;
            let dy = vsrc.y + self.vray.y;
            let min_psa = min_proj_sa(self.sd, self.transmission()?);
            let tomega = omega * vsrc.z.abs();
            if dx * dx + dy * dy
                <= (2.5 * 4.0 / PI) * (tomega + min_psa + 2.0 * (tomega * min_psa).sqrt())
            {
                return (bright(self.cthru_surr) > FTINY).then_some(self.cthru_surr);
            }
        }
        let lamb = self.sd.lambertian();
        let has_t = self.sd.has_component(Side::Tf) || self.sd.has_component(Side::Tb);
        let diffuse = match (vsrc.z > 0.0, self.vray.z > 0.0) {
            (true, true) => self.sd.has_component(Side::Rf).then_some(&lamb.r_front),
            (false, false) => self.sd.has_component(Side::Rb).then_some(&lamb.r_back),
            (false, true) => has_t.then_some(&lamb.t_front),
            (true, false) => has_t.then_some(&lamb.t_back),
        }?;
        let (diff_y, cdiff) = if diffuse.y() > FTINY {
            (diffuse.y() / PI, rgb(diffuse) / PI)
        } else {
            (0.0, DVec3::ZERO)
        };
        let tomega = self.sd.size(self.vray, Some(vsrc)).0;
        let tsr = tomega.sqrt();
        let mut nsamp = 1;
        if tsr > 0.0 {
            nsamp = (4.0 * self.specjitter * self.rweight + 0.5) as u32;
            nsamp += u32::from(nsamp == 0);
        }
        let (mut sum, mut scnt) = (DVec3::ZERO, 0u32);
        for _ in 0..nsamp {
            let vjit = self.jitter(tsr, rng);
            let v = self.sd.eval_value(vjit, vsrc);
            if v.y() - diff_y <= FTINY {
                scnt += 1;
                continue;
            }
            // Where the resolution varies, a much finer cell is not safe to include.
            let tomega2 = self.sd.size(vjit, Some(vsrc)).0;
            if tomega2 < 0.12 * tomega {
                continue;
            }
            sum += rgb(&v);
            scnt += 1;
        }
        if scnt == 0 {
            return None;
        }
        let mut v = sum / f64::from(scnt);
        if diff_y > FTINY {
            v = (v - cdiff).max(DVec3::ZERO);
        }
        Some(v)
    }

    /// A source's coefficient: `refl` and `trans` say which sides count (RADIANCE's
    /// `dir_bsdf`, `dir_brdf`, `dir_btdf`).
    fn source_coef(
        &self,
        ldir: DVec3,
        omega: f64,
        (refl, trans): (bool, bool),
        rng: &mut impl Rng,
    ) -> DVec3 {
        let ldot = self.pnorm.dot(ldir);
        if ldot.abs() <= FTINY || (ldot > 0.0 && !refl) || (ldot < 0.0 && !trans) {
            return DVec3::ZERO;
        }
        let mut out = DVec3::ZERO;
        if ldot > 0.0 && bright(self.rdiff) > FTINY {
            out += self.rdiff * (ldot * omega / PI);
        }
        if ldot < 0.0 && bright(self.tdiff) > FTINY {
            out += self.tdiff * (-ldot * omega / PI);
        }
        if let Some(mut c) = self.direct_specular(ldir, omega, rng) {
            if ldot < 0.0 {
                c *= self.pcol;
            }
            out += c * (ldot.abs() * omega);
        }
        out
    }
}

impl Renderer {
    /// Shades a `BSDF` or `aBSDF` material (RADIANCE's `m_bsdf`).
    pub(crate) fn shade_bsdf(
        &self,
        r: &RayState,
        s: &Surf,
        m: &BsdfMaterial,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let hitfront = s.rod > 0.0;
        if !hitfront && !self.opts.backvis {
            return self.raytrans(r, s, ctx);
        }
        let cal = &self.mods.cal;
        let fray = m.frame.ray(s);
        let mut thick = match m.thick {
            Some(e) => eval_or_zero(cal, &mut ctx.eval, e, &fray),
            None => 0.0,
        };
        if thick.abs() <= FTINY {
            thick = 0.0;
        }
        // A proxy hides its detail geometry from view and shadow rays, and from rays that
        // meet its hidden side.
        if thick != 0.0
            && (r.is_shadow() || r.crtype & (SPECULAR | AMBIENT) == 0 || (thick > 0.0) != hitfront)
        {
            return self.raytrans(r, s, ctx);
        }
        let sd = &*m.data;
        let has_t = sd.has_component(Side::Tf) || sd.has_component(Side::Tb);
        if r.is_shadow() && (!m.aperture || !has_t) {
            return DVec3::ZERO;
        }
        let lamb = sd.lambertian();
        let (mut rdiff, mut tdiff) = if hitfront {
            (rgb(&lamb.r_front) + m.front, rgb(&lamb.t_front))
        } else {
            (rgb(&lamb.r_back) + m.back, rgb(&lamb.t_back))
        };
        tdiff += m.trans;
        rdiff *= pcol;
        tdiff *= pcol;
        let up = DVec3::from(std::array::from_fn::<f64, 3, _>(|k| {
            eval_or_zero(cal, &mut ctx.eval, m.up[k], &fray)
        }));
        let up = m.frame.xf.m.transform_vector3(up);
        thick *= m.frame.xf.scale;
        let (pnorm, _) = perturbed(s, pert);
        let z = pnorm.normalize();
        let x = up.cross(z);
        if !x.is_finite() || x.length_squared() <= 0.0 {
            // RADIANCE warns of an illegal orientation vector and leaves the ray black.
            return DVec3::ZERO;
        }
        let x = x.normalize();
        let to_local = [x, z.cross(x), z];
        let mut hit = Hit {
            sd,
            pnorm,
            to_local,
            vray: DVec3::ZERO,
            sr_vpsa: [0.0; 2],
            thick,
            cthru: DVec3::ZERO,
            cthru_surr: DVec3::ZERO,
            rdiff,
            tdiff,
            pcol,
            rweight: r.weight,
            specjitter: self.opts.ss,
            hitfront,
        };
        hit.vray = hit.local(-r.dir);
        if m.aperture {
            hit.compute_through();
            if r.is_shadow() {
                return match self.spawn(r, s, TRANS, Some(hit.cthru), ctx) {
                    Some((tr, c)) => self.trace(&tr, ctx).value * c,
                    None => DVec3::ZERO,
                };
            }
        }
        let (lo, hi) = sd.size(hit.vray, None);
        hit.sr_vpsa = [lo.sqrt(), hi.sqrt()];
        if !hitfront {
            hit.pnorm = -hit.pnorm;
        }
        let mut col = DVec3::ZERO;
        let (c, runsamp) = self.bsdf_sample(r, s, &hit, false, ctx);
        col += c;
        let (c, tunsamp) = self.bsdf_sample(r, s, &hit, true, ctx);
        col += c;
        let a = hit.rdiff + runsamp;
        if bright(a) > FTINY {
            col += self.multambient(a, r, s, hit.pnorm, ctx);
        }
        let a = hit.tdiff + tunsamp;
        if bright(a) > FTINY {
            let far = Surf {
                point: s.point + s.normal * thick,
                ..*s
            };
            col += self.multambient(a, r, &far, -hit.pnorm, ctx);
        }
        let rng = RefCell::new(Pcg64Mcg::seed_from_u64(ctx.rng.random()));
        let direct = |surf: &Surf, sides: (bool, bool), so_far: DVec3, ctx: &mut Ctx| {
            self.direct(
                r,
                surf,
                so_far,
                &|ldir, omega| hit.source_coef(ldir, omega, sides, &mut *rng.borrow_mut()),
                ctx,
            )
        };
        if !has_t && bright(hit.tdiff) <= FTINY {
            col += direct(s, (true, false), col, ctx);
        } else if thick == 0.0 {
            col += direct(s, (true, true), col, ctx);
        } else {
            col += direct(s, (true, false), col, ctx);
            let far = Surf {
                point: s.point - s.normal * thick,
                ..*s
            };
            col += direct(&far, (false, true), col, ctx);
        }
        col
    }

    /// Samples the non-Lambertian reflection or transmission (RADIANCE's `sample_sdf`):
    /// returns the value found and the coefficient left to the ambient calculation when the
    /// part falls below `-st`.
    fn bsdf_sample(
        &self,
        r: &RayState,
        s: &Surf,
        h: &Hit,
        xmit: bool,
        ctx: &mut Ctx,
    ) -> (DVec3, DVec3) {
        let which = if xmit {
            h.transmission()
        } else {
            Some(if h.hitfront { Side::Rf } else { Side::Rb }).filter(|&w| h.sd.has_component(w))
        };
        let Some(which) = which else {
            return (DVec3::ZERO, DVec3::ZERO);
        };
        let hasthru = xmit && r.crtype & (SPECULAR | AMBIENT) == 0 && bright(h.cthru) > FTINY;
        let mut col = DVec3::ZERO;
        let mut b = 0.0;
        let mut hasthru_sent = false;
        if hasthru {
            if let Some((tr, c)) = self.spawn(r, s, TRANS, Some(h.cthru), ctx) {
                let v = self.trace(&tr, ctx);
                col += v.value * c;
                ctx.z.seen_through(&v, c);
                b = bright(h.cthru);
                hasthru_sent = true;
            }
        }
        let max_hemi = h.sd.component_summary(which).map_or(0.0, |s| s.0);
        if max_hemi - b <= FTINY {
            b = 0.0;
        } else {
            let vjit = h.jitter(h.sr_vpsa[1], &mut ctx.rng);
            b = (h.sd.direct_hemi(vjit, parts(xmit)) - b).max(0.0);
        }
        if b <= self.opts.st + FTINY {
            let unsampled = if b <= FTINY {
                DVec3::ZERO
            } else if xmit {
                h.pcol * b
            } else {
                DVec3::splat(b)
            };
            return (col, unsampled);
        }
        col += self.bsdf_sample_part(r, s, h, xmit, hasthru_sent, ctx);
        (col, DVec3::ZERO)
    }

    /// Sends the `-ss` samples of the non-Lambertian reflection or transmission (RADIANCE's
    /// `sample_sdcomp`; daylit's BSDF data has one component a side).
    fn bsdf_sample_part(
        &self,
        r: &RayState,
        s: &Surf,
        h: &Hit,
        xmit: bool,
        hasthru: bool,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let ss = self.opts.ss;
        let mut nstarget: i64 = 1;
        if ss > 1.5 {
            nstarget = (ss * r.weight + 0.5) as i64;
            nstarget += i64::from(nstarget == 0);
        }
        let rt = if xmit { TSPECULAR } else { RSPECULAR };
        let mut col = DVec3::ZERO;
        let mut n: i64 = 0;
        while n < nstarget {
            let u = if nstarget == 1 {
                let u = ctx.rng.random::<f64>();
                if ss < 1.0 {
                    0.5 + ss * (u - 0.5)
                } else {
                    u
                }
            } else {
                (n as f64 + ctx.rng.random::<f64>()) / nstarget as f64
            };
            let vinc = h.jitter(h.sr_vpsa[0], &mut ctx.rng);
            let Some((vsmp, v)) = h.sd.sample(vinc, u, parts(xmit)) else {
                break;
            };
            if v.y() <= FTINY {
                break;
            }
            if hasthru {
                let dx = vinc.x + vsmp.x;
                let dy = vinc.y + vsmp.y;
                if dx * dx + dy * dy <= h.sr_vpsa[0] * h.sr_vpsa[0] {
                    n += 1;
                    continue;
                }
            }
            let dir = h.world(vsmp);
            if !dir.is_finite() {
                break;
            }
            let mut coef = rgb(&v);
            if nstarget > 1 {
                coef /= nstarget as f64;
            }
            if xmit {
                coef *= h.pcol;
            }
            match self.spawn(r, s, rt, Some(coef), ctx) {
                Some((mut sr, c)) => {
                    sr.dir = dir;
                    if xmit && h.thick != 0.0 {
                        sr.org -= s.normal * h.thick;
                    }
                    col += self.trace(&sr, ctx).value * c;
                }
                None => {
                    // The first sample fell below the weight limit: aim for fewer.
                    if n == 0 && nstarget > 1 {
                        let w = r.weight * coef.max_element().min(1.0);
                        let fewer = (nstarget as f64 * w / (self.opts.lw + 1e-20)) as i64;
                        if fewer == nstarget {
                            break;
                        }
                        nstarget = fewer;
                        continue;
                    }
                }
            }
            n += 1;
        }
        col
    }
}

/// The non-Lambertian transmission or reflection.
fn parts(xmit: bool) -> Parts {
    if xmit {
        Parts::SP_T
    } else {
        Parts::SP_R
    }
}

/// A real expression, 0 where it fails.
fn eval_or_zero(
    cal: &CalEnv,
    st: &mut EvalState,
    e: ExprId,
    ray: &crate::material::PatternRay,
) -> f64 {
    let v = cal.eval_expr(e, st, ray);
    if st.take_error().is_some() || !v.is_finite() {
        0.0
    } else {
        v
    }
}
