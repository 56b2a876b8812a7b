//! RADIANCE's `BRTDfunc`: mirror reflection and straight transmission with coefficients from
//! expressions, diffuse reflection (front and back) and transmission, and a directional-
//! diffuse part from three functions of the light direction, counted for light arriving
//! straight from the sources (the indirect part sees only the diffuse coefficients, as in
//! RADIANCE).
//!
//! Unlike other materials the surface is not turned to face the ray: the expressions see the
//! ray variables as they are (`Rdot` negative from behind) and only the perturbed `NxP NyP NzP`
//! and `RdotP` are reoriented. Shadow rays pass with the transmission coefficients.

use crate::funcmat::{set_brdf_vars, FuncRef};
use crate::material::{frame, Builder, FuncFrame, Material, PatternRay};
use crate::ray::{bright, perturbed, rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_cal::{CalEnv, EvalState, ExprId};
use daylit_geometry::FTINY;
use daylit_scene::Primitive;
use glam::DVec3;
use std::f64::consts::PI;

/// One channel of the directional-diffuse function.
#[derive(Clone, Copy, Debug)]
pub enum BrtdChannel {
    /// The name `0`: no directional-diffuse part in this channel.
    Zero,
    /// The same function name as an earlier channel: its value is reused.
    Same(usize),
    /// A function of the light direction and solid angle.
    Func(FuncRef),
}

/// A `BRTDfunc` material.
#[derive(Clone, Debug)]
pub struct BrtdFunc {
    /// Mirror reflection coefficients (red, green, blue expressions).
    pub refl: [ExprId; 3],
    /// Straight transmission coefficients.
    pub trans: [ExprId; 3],
    /// Directional-diffuse functions per channel.
    pub brtd: [BrtdChannel; 3],
    /// Diffuse reflectance of the front side.
    pub front: DVec3,
    /// Diffuse reflectance of the back side.
    pub back: DVec3,
    /// Diffuse transmittance.
    pub tdiff: DVec3,
    /// Whether any transmission expression is other than `0` (RADIANCE then counts the
    /// material as transparent: `-i` looks through it, the ambient leak test passes it).
    pub transparent: bool,
    /// Whether the red directional-diffuse function is named (other than `0…`): the direct
    /// part is then computed even without diffuse components.
    pub directional: bool,
    /// Where the expressions and functions are evaluated.
    pub frame: FuncFrame,
}

impl Builder<'_> {
    /// `BRTDfunc`.
    pub(crate) fn brtd_material(&mut self, p: &Primitive) -> Result<Material, String> {
        let (sa, f) = (&p.sargs, &p.fargs);
        if sa.len() < 10 {
            return Err(format!(
                "needs at least 10 string arguments (3 reflection and 3 transmission expressions, 3 functions, a function file), has {}",
                sa.len()
            ));
        }
        if f.len() < 9 {
            return Err(format!(
                "needs at least 9 real arguments (front, back and transmitted diffuse colours), has {}",
                f.len()
            ));
        }
        let file = sa[9].as_str();
        self.load(file)?;
        let mut e = |i: usize| self.expr(file, &sa[i]);
        let refl = [e(0)?, e(1)?, e(2)?];
        let trans = [e(3)?, e(4)?, e(5)?];
        let mut brtd = [BrtdChannel::Zero; 3];
        for k in 0..3 {
            let name = sa[6 + k].as_str();
            brtd[k] = if name == "0" {
                BrtdChannel::Zero
            } else if let Some(j) = (0..k).find(|&j| sa[6 + j] == name) {
                BrtdChannel::Same(j)
            } else {
                BrtdChannel::Func(self.func_ref(file, name, 4)?)
            };
        }
        let rgb = |i: usize| DVec3::new(f[i], f[i + 1], f[i + 2]);
        Ok(Material::Brtd(Box::new(BrtdFunc {
            refl,
            trans,
            brtd,
            front: rgb(0),
            back: rgb(3),
            tdiff: rgb(6),
            transparent: sa[3..6].iter().any(|s| s != "0"),
            directional: !sa[6].starts_with('0'),
            frame: frame(p, 10, f.clone())?,
        })))
    }
}

/// Three expressions evaluated for one ray; `None` if one fails (RADIANCE: "compute error").
fn eval3(cal: &CalEnv, st: &mut EvalState, es: &[ExprId; 3], ray: &PatternRay) -> Option<DVec3> {
    let mut v = [0.0; 3];
    for (o, &e) in v.iter_mut().zip(es) {
        *o = cal.eval_expr(e, st, ray);
        if st.take_error().is_some() || !o.is_finite() {
            return None;
        }
    }
    Some(DVec3::from(v))
}

/// One hit, as the source coefficient needs it.
struct Hit<'a> {
    m: &'a BrtdFunc,
    ray: PatternRay<'a>,
    rdiff: DVec3,
    tdiff: DVec3,
    pnorm: DVec3,
}

impl Hit<'_> {
    /// The coefficient of a source in direction `ldir` of solid angle `omega`.
    fn source_coef(&self, cal: &CalEnv, st: &mut EvalState, ldir: DVec3, omega: f64) -> DVec3 {
        let ldot = self.pnorm.dot(ldir);
        if ldot.abs() <= FTINY {
            return DVec3::ZERO;
        }
        let out = if ldot > 0.0 {
            self.rdiff * (ldot * omega / PI)
        } else {
            self.tdiff * (-ldot * omega / PI)
        };
        let l = self.m.frame.dir_in(ldir);
        let args = [l.x, l.y, l.z, omega];
        let mut c = [0.0; 3];
        for k in 0..3 {
            c[k] = match self.m.brtd[k] {
                BrtdChannel::Zero => 0.0,
                BrtdChannel::Same(j) => c[j],
                BrtdChannel::Func(f) => match f.call(cal, st, &args, &self.ray) {
                    Some(v) => v,
                    None => return out,
                },
            };
        }
        let c = DVec3::from(c);
        if bright(c) <= FTINY {
            return out;
        }
        out + c * (ldot.abs() * omega)
    }
}

impl Renderer {
    /// Shades a `BRTDfunc` material (RADIANCE's `m_brdf`).
    pub(crate) fn shade_brtdfunc(
        &self,
        r: &RayState,
        s: &Surf,
        m: &BrtdFunc,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let rdiff = if s.rod > 0.0 { m.front } else { m.back } * pcol;
        let tdiff = m.tdiff * pcol;
        let hastexture = pert.length_squared() > FTINY * FTINY;
        let (mut pnorm, mut pdot) = perturbed(s, pert);
        let mut pert = pert;
        // Only the perturbed values are turned towards the ray.
        if s.rod < 0.0 {
            pdot = -pdot;
            pnorm = -pnorm;
            pert = -pert;
        }
        let hasrefl = rdiff.max_element() > FTINY;
        let hastrans = tdiff.max_element() > FTINY;
        let mut ray = m.frame.ray(s);
        set_brdf_vars(&mut ray, &m.frame, pnorm, pdot, pcol);
        let cal = &self.mods.cal;
        let mut col = DVec3::ZERO;
        if let Some(tc) = eval3(cal, &mut ctx.eval, &m.trans, &ray) {
            if let Some((mut tr, c)) = self.spawn(r, s, TRANS, Some(tc), ctx) {
                if hastexture && r.crtype & (SHADOW | AMBIENT) == 0 {
                    let d = r.dir - pert;
                    if d.length_squared() > 0.0 {
                        tr.dir = d.normalize();
                    }
                }
                let v = self.trace(&tr, ctx);
                col += v.value * c;
                // RADIANCE weighs the straight part as 1 against the diffuse ones.
                if (!hastexture || r.crtype & (SHADOW | AMBIENT) != 0)
                    && 1.0 > bright(tdiff) + bright(rdiff)
                {
                    ctx.z.seen_through(&v, c);
                }
            }
        }
        if r.is_shadow() {
            return col;
        }
        if let Some(rc) = eval3(cal, &mut ctx.eval, &m.refl, &ray) {
            if let Some((mut rr, c)) = self.spawn(r, s, REFLECTED, Some(rc), ctx) {
                rr.dir = (r.dir + pnorm * (2.0 * pdot)).normalize();
                let v = self.trace(&rr, ctx);
                col += v.value * c;
                let image = s.flat && (!hastexture || r.crtype & AMBIENT != 0);
                ctx.z.reflected(&v, c, image);
            }
        }
        if hasrefl {
            col += self.multambient(rdiff, r, s, pnorm, ctx);
        }
        if hastrans {
            col += self.multambient(tdiff, r, s, -pnorm, ctx);
        }
        if hasrefl || hastrans || m.directional {
            let hit = Hit {
                m,
                ray,
                rdiff,
                tdiff,
                pnorm,
            };
            col += self.direct_eval(
                r,
                s,
                col,
                &|ldir, omega, st| hit.source_coef(cal, st, ldir, omega),
                ctx,
            );
        }
        col
    }
}
