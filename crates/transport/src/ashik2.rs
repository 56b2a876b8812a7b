//! RADIANCE's `ashik2`: the Ashikhmin–Shirley anisotropic model. A diffuse part weighted by
//! one minus Schlick's Fresnel term at the light's incidence, and an anisotropic specular lobe
//! (exponents along u and v) whose colour rises towards white at grazing view (Schlick's
//! approximation). The lobe is sampled with `-ss` unless it falls below `-st`, in which case
//! its colour joins the ambient coefficient; light from the sources is evaluated directly.
//!
//! The total reflectance is the sum of the diffuse and specular colours (the user keeps it
//! below one). Shadow rays are stopped.

use crate::material::{frame, Builder, FuncFrame, Material};
use crate::ray::{bright, perturbed, rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_cal::{CalEnv, EvalState, ExprId};
use daylit_geometry::FTINY;
use daylit_scene::Primitive;
use glam::DVec3;
use rand::Rng;
use std::f64::consts::PI;

/// Most attempts per specular sample wanted.
const MAXITER: u32 = 10;

/// An `ashik2` material.
#[derive(Clone, Debug)]
pub struct Ashik {
    /// Diffuse colour.
    pub diffuse: DVec3,
    /// Specular colour at normal incidence.
    pub specular: DVec3,
    /// Exponent along u (larger: smoother).
    pub upow: f64,
    /// Exponent along v.
    pub vpow: f64,
    /// Expressions for the u direction.
    pub udir: [ExprId; 3],
    /// Where they are evaluated (its forward transform turns u into the world).
    pub frame: FuncFrame,
}

impl Builder<'_> {
    /// `ashik2`.
    pub(crate) fn ashik_material(&mut self, p: &Primitive) -> Result<Material, String> {
        let (sa, f) = (&p.sargs, &p.fargs);
        if f.len() != 8 {
            return Err(format!(
                "needs 8 real arguments (diffuse and specular colours, u and v exponents), has {}",
                f.len()
            ));
        }
        if sa.len() < 4 {
            return Err("needs the u direction (3 expressions) and a function file".into());
        }
        let file = sa[3].as_str();
        self.load(file)?;
        let udir = [
            self.expr(file, &sa[0])?,
            self.expr(file, &sa[1])?,
            self.expr(file, &sa[2])?,
        ];
        Ok(Material::Ashik(Box::new(Ashik {
            diffuse: DVec3::new(f[0], f[1], f[2]),
            specular: DVec3::new(f[3], f[4], f[5]),
            upow: f[6],
            vpow: f[7],
            udir,
            frame: frame(p, 4, f.clone())?,
        })))
    }
}

/// Schlick's Fresnel factor (1 − cos)^5.
fn schlick(c: f64) -> f64 {
    (1.0 - c).powi(5)
}

/// One hit: the frame and colours the lobe and the sources need.
struct Hit {
    mcolor: DVec3,
    scolor: DVec3,
    refl: bool,
    u: DVec3,
    v: DVec3,
    upow: f64,
    vpow: f64,
    pnorm: DVec3,
    pdot: f64,
    dir: DVec3,
}

impl Hit {
    /// The coefficient of a source in direction `ldir` of solid angle `omega`.
    fn source_coef(&self, ldir: DVec3, omega: f64) -> DVec3 {
        let ldot = self.pnorm.dot(ldir);
        if ldot <= FTINY {
            return DVec3::ZERO;
        }
        let mut out = self.mcolor * (ldot * omega / PI * (1.0 - schlick(ldot)));
        if !self.refl {
            return out;
        }
        let h = (ldir - self.dir).normalize();
        let eu = self.u.dot(h).powi(2) * self.upow;
        let ev = self.v.dot(h).powi(2) * self.vpow;
        let nh = self.pnorm.dot(h);
        let mut d = nh.powf((eu + ev) / (1.0 - nh * nh));
        d *= ((self.upow + 1.0) * (self.vpow + 1.0)).sqrt();
        d /= 8.0 * PI * ldir.dot(h) * ldot.max(self.pdot);
        if d > FTINY {
            out += self.scolor * (d * ldot * omega);
        }
        out
    }
}

impl Ashik {
    /// The u and v directions at this hit and the exponents to use: a u along the normal
    /// leaves no orientation, so any tangent serves with a common exponent.
    fn axes(
        &self,
        cal: &CalEnv,
        st: &mut EvalState,
        s: &Surf,
        pnorm: DVec3,
    ) -> (DVec3, DVec3, f64, f64) {
        let ray = self.frame.ray(s);
        let mut u = DVec3::from(std::array::from_fn::<f64, 3, _>(|k| {
            cal.eval_expr(self.udir[k], st, &ray)
        }));
        if st.take_error().is_some() || !u.is_finite() {
            u = DVec3::ZERO;
        }
        let u = self.frame.xf.m.transform_vector3(u);
        let v = pnorm.cross(u);
        if v.length_squared() > 0.0 {
            let v = v.normalize();
            return (v.cross(pnorm), v, self.upow, self.vpow);
        }
        let u = pnorm.any_orthonormal_vector();
        let p = 2.0 / (1.0 / (self.upow + 1e-5) + 1.0 / (self.vpow + 1e-5));
        (u, pnorm.cross(u), p, p)
    }
}

impl Renderer {
    /// Shades an `ashik2` material (RADIANCE's `m_ashikhmin`).
    pub(crate) fn shade_ashik(
        &self,
        r: &RayState,
        s: &Surf,
        m: &Ashik,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        if r.is_shadow() {
            return DVec3::ZERO;
        }
        let (s, pert) = match self.facing(r, s, pert, ctx) {
            Ok(front) => front,
            Err(through) => return through,
        };
        let (pnorm, mut pdot) = perturbed(&s, pert);
        // Kept away from zero for the specular denominator.
        if pdot < 0.001 {
            pdot = 0.001;
        }
        let mcolor = m.diffuse * pcol;
        let mut scolor = m.specular;
        let refl = scolor.max_element() > FTINY;
        let mut below = false;
        if refl {
            below = self.opts.st >= bright(scolor) - FTINY;
            let f = schlick(pdot);
            scolor += (DVec3::ONE - scolor) * f;
        }
        let (u, v, upow, vpow) = m.axes(&self.mods.cal, &mut ctx.eval, &s, pnorm);
        let hit = Hit {
            mcolor,
            scolor,
            refl,
            u,
            v,
            upow,
            vpow,
            pnorm,
            pdot,
            dir: r.dir,
        };
        let mut col = DVec3::ZERO;
        if refl && !below {
            col += self.ashik_sample(r, &s, &hit, ctx);
        }
        if mcolor.max_element() > FTINY {
            let a = if below { mcolor + scolor } else { mcolor };
            col += self.multambient(a, r, &s, pnorm, ctx);
        }
        col += self.direct(r, &s, col, &|ldir, omega| hit.source_coef(ldir, omega), ctx);
        col
    }

    /// Samples the specular lobe: half vectors drawn from the Ashikhmin–Shirley distribution,
    /// reflected rays below the surface rejected, each sample weighted by the specular colour.
    fn ashik_sample(&self, r: &RayState, s: &Surf, h: &Hit, ctx: &mut Ctx) -> DVec3 {
        let Some((mut sr, mut c)) = self.spawn(r, s, RSPECULAR, Some(h.scolor), ctx) else {
            return DVec3::ZERO;
        };
        let ss = self.opts.ss;
        let mut n = 1;
        if ss > 1.5 {
            let want = (ss * r.weight + 0.5) as u32;
            let want = if sr.weight <= self.opts.lw * want as f64 {
                (sr.weight / self.opts.lw) as u32
            } else {
                want
            };
            if want > 1 {
                n = want;
                c /= n as f64;
                sr.weight /= n as f64;
            }
        }
        let (su, sv) = ((h.vpow + 1.0).sqrt(), (h.upow + 1.0).sqrt());
        let mut col = DVec3::ZERO;
        let (mut taken, mut trials) = (0, 0);
        while taken < n && trials < MAXITER * n {
            trials += 1;
            let phi = 2.0 * PI * ctx.rng.random::<f64>();
            let r1 = ctx.rng.random::<f64>();
            let (mut cp, mut sp) = (su * phi.cos(), sv * phi.sin());
            let norm = 1.0 / cp.hypot(sp);
            cp *= norm;
            sp *= norm;
            let costh = r1.powf(1.0 / (h.upow * cp * cp + h.vpow * sp * sp + 1.0));
            if costh <= FTINY {
                continue;
            }
            let sinth = (1.0 - costh * costh).sqrt();
            let hv = h.u * (cp * sinth) + h.v * (sp * sinth) + h.pnorm * costh;
            let dir = r.dir - hv * (2.0 * hv.dot(r.dir));
            if dir.dot(s.normal) <= FTINY {
                continue;
            }
            sr.dir = dir.normalize();
            col += self.trace(&sr, ctx).value * c;
            taken += 1;
        }
        col
    }
}
