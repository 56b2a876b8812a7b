//! RADIANCE's programmable BRDF materials `plasfunc`, `metfunc`, `transfunc` (a function of the
//! light direction) and `plasdata`, `metdata`, `transdata` (interpolated data looked up at
//! coordinates that are functions of the light direction).
//!
//! As in RADIANCE, the function is used only for the specular part of light arriving straight
//! from the sources: the indirect part treats the whole reflectance (and transmittance) as
//! diffuse, and no specular rays are sent. The surface is reoriented to face the ray (the
//! back side is seen only with `-bv`), and shadow rays are always stopped, even by
//! `transfunc` and `transdata`.
//!
//! A BRDF function gets the light direction `x y z` (unit, in the function's frame) and the
//! solid angle of the source; a data function gets the interpolated value first. Besides
//! the usual ray variables they see the perturbed normal `NxP NyP NzP`, its dot product with
//! the ray `RdotP` and the material colour after patterns `CrP CgP CbP`.

use crate::data::{DataArray, MAX_DIMS};
use crate::material::{frame, Builder, FuncFrame, Material, NormalKind, PatternRay};
use crate::ray::{perturbed, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_cal::{CalEnv, EvalState, ExprId, FuncId, RayVar};
use daylit_geometry::FTINY;
use daylit_scene::{PrimType, Primitive};
use glam::DVec3;
use std::f64::consts::PI;
use std::sync::Arc;

/// A function named by a modifier, called with numeric arguments. RADIANCE also accepts the
/// name of a variable (it is then evaluated without looking at the arguments).
#[derive(Clone, Copy, Debug)]
pub enum FuncRef {
    /// A function of the `.cal` file (or the library).
    Func(FuncId),
    /// A variable or constant, evaluated as an expression.
    Expr(ExprId),
}

impl FuncRef {
    /// The value for these arguments; `None` when evaluation fails or is not finite (RADIANCE's
    /// "compute error", after which the component is left out).
    pub fn call(
        &self,
        cal: &CalEnv,
        st: &mut EvalState,
        args: &[f64],
        ray: &PatternRay,
    ) -> Option<f64> {
        let v = match *self {
            FuncRef::Func(f) => cal.call(f, args, st, ray),
            FuncRef::Expr(e) => cal.eval_expr(e, st, ray),
        };
        (st.take_error().is_none() && v.is_finite()).then_some(v)
    }
}

/// Where the specular distribution of a `*func` or `*data` material comes from.
#[derive(Clone, Debug)]
pub enum Distribution {
    /// `plasfunc`, `metfunc`, `transfunc`: `f(x, y, z, omega)`.
    Func(FuncRef),
    /// `plasdata`, `metdata`, `transdata`: `f(value, x, y, z, omega)` of the data interpolated
    /// at coordinates `xi(x, y, z, omega)`.
    Data {
        /// The data function.
        func: FuncRef,
        /// The data.
        data: Arc<DataArray>,
        /// One coordinate function per data dimension.
        coords: Vec<FuncRef>,
    },
}

/// A `plasfunc`, `metfunc`, `transfunc`, `plasdata`, `metdata` or `transdata` material.
#[derive(Clone, Debug)]
pub struct FuncMaterial {
    /// Plastic (white specular), metal (specular in the material colour) or trans.
    pub kind: NormalKind,
    /// Material colour.
    pub color: DVec3,
    /// Specular reflectance.
    pub rspec: f64,
    /// `trans` kinds: the transmitted fraction of what is not reflected specularly.
    pub trans: f64,
    /// `trans` kinds: the specular (non-Lambertian) fraction of the transmission.
    pub tspec: f64,
    /// The specular distribution.
    pub dist: Distribution,
    /// Where the functions are evaluated; its arguments are all the real arguments.
    pub frame: FuncFrame,
}

/// Most arguments RADIANCE passes to a BRDF function and to a data function.
const BRDF_ARGS: usize = 4;
const DATA_ARGS: usize = 5;

impl Builder<'_> {
    /// A function named by a modifier, defined in `file`'s context, that will be passed
    /// `nargs` arguments.
    pub(crate) fn func_ref(
        &mut self,
        file: &str,
        name: &str,
        nargs: usize,
    ) -> Result<FuncRef, String> {
        if let Some(f) = self.cal.function_in(file, name) {
            self.cal
                .check_func(f)
                .map_err(|e| format!("function \"{name}\": {e}"))?;
            let n = self.cal.func_arity(f);
            if n > nargs {
                return Err(format!(
                    "function \"{name}\" takes {n} arguments, but is given {nargs}"
                ));
            }
            return Ok(FuncRef::Func(f));
        }
        self.cal
            .compile_expr_in(file, name)
            .map(FuncRef::Expr)
            .map_err(|e| format!("\"{name}\" is not a function of {file}: {e}"))
    }

    /// `plasfunc`, `metfunc`, `transfunc`, `plasdata`, `metdata`, `transdata`.
    pub(crate) fn func_material(&mut self, p: &Primitive) -> Result<Material, String> {
        let (kind, has_data) = match p.ptype {
            PrimType::Plasfunc => (NormalKind::Plastic, false),
            PrimType::Metfunc => (NormalKind::Metal, false),
            PrimType::Transfunc => (NormalKind::Trans, false),
            PrimType::Plasdata => (NormalKind::Plastic, true),
            PrimType::Metdata => (NormalKind::Metal, true),
            _ => (NormalKind::Trans, true),
        };
        let f = &p.fargs;
        let nreal = if kind == NormalKind::Trans { 6 } else { 4 };
        if f.len() < nreal {
            return Err(format!(
                "needs at least {nreal} real arguments, has {}",
                f.len()
            ));
        }
        let sa = &p.sargs;
        let (dist, next) = if has_data {
            if sa.len() < 3 {
                return Err("needs a function, a data file and a function file".into());
            }
            let file = sa[2].as_str();
            self.load(file)?;
            let data = self.data_array(&sa[1])?;
            let nd = data.dims();
            if sa.len() < 3 + nd {
                return Err(format!(
                    "the data has {nd} dimension(s), so {nd} coordinate function(s) must follow the function file"
                ));
            }
            debug_assert!(nd <= MAX_DIMS);
            let mut coords = Vec::with_capacity(nd);
            for name in &sa[3..3 + nd] {
                coords.push(self.func_ref(file, name, BRDF_ARGS)?);
            }
            let func = self.func_ref(file, &sa[0], DATA_ARGS)?;
            (Distribution::Data { func, data, coords }, 3 + nd)
        } else {
            if sa.len() < 2 {
                return Err("needs a function and a function file".into());
            }
            let file = sa[1].as_str();
            self.load(file)?;
            (
                Distribution::Func(self.func_ref(file, &sa[0], BRDF_ARGS)?),
                2,
            )
        };
        let (trans, tspec) = if kind == NormalKind::Trans {
            (f[4], f[5])
        } else {
            (0.0, 0.0)
        };
        Ok(Material::Func(Box::new(FuncMaterial {
            kind,
            color: DVec3::new(f[0], f[1], f[2]),
            rspec: f[3],
            trans,
            tspec,
            dist,
            frame: frame(p, next, f.clone())?,
        })))
    }
}

/// Sets the variables RADIANCE defines for BRDF functions: the perturbed normal (in the
/// function's frame), its dot product with the ray and the material colour.
pub(crate) fn set_brdf_vars(
    ray: &mut PatternRay,
    frame: &FuncFrame,
    pnorm: DVec3,
    pdot: f64,
    mcolor: DVec3,
) {
    let n = frame.dir_in(pnorm);
    ray.set(RayVar::NxP, n.x);
    ray.set(RayVar::NyP, n.y);
    ray.set(RayVar::NzP, n.z);
    ray.set(RayVar::RdotP, pdot);
    ray.set(RayVar::CrP, mcolor.x);
    ray.set(RayVar::CgP, mcolor.y);
    ray.set(RayVar::CbP, mcolor.z);
}

/// One hit on a `*func`/`*data` material, as the source coefficient needs it.
struct Hit<'a> {
    m: &'a FuncMaterial,
    ray: PatternRay<'a>,
    mcolor: DVec3,
    rdiff: DVec3,
    tdiff: DVec3,
    trans: f64,
    tspec: f64,
    pnorm: DVec3,
}

impl Hit<'_> {
    /// The coefficient of a source in direction `ldir` of solid angle `omega`.
    fn source_coef(&self, cal: &CalEnv, st: &mut EvalState, ldir: DVec3, omega: f64) -> DVec3 {
        let m = self.m;
        let ldot = self.pnorm.dot(ldir);
        if ldot.abs() <= FTINY {
            return DVec3::ZERO;
        }
        let wrong_side = if ldot < 0.0 {
            self.trans <= FTINY
        } else {
            self.trans >= 1.0 - FTINY
        };
        if wrong_side {
            return DVec3::ZERO;
        }
        let mut out = if ldot > 0.0 {
            self.rdiff * (ldot * omega / PI)
        } else {
            self.tdiff * (-ldot * omega / PI)
        };
        if if ldot > 0.0 {
            m.rspec <= FTINY
        } else {
            self.tspec <= FTINY
        } {
            return out;
        }
        let l = m.frame.dir_in(ldir);
        let args = [l.x, l.y, l.z, omega];
        let v = match &m.dist {
            Distribution::Func(f) => f.call(cal, st, &args, &self.ray),
            Distribution::Data { func, data, coords } => {
                let mut pt = [0.0; MAX_DIMS];
                let mut ok = true;
                for (x, c) in pt.iter_mut().zip(coords) {
                    match c.call(cal, st, &args, &self.ray) {
                        Some(v) => *x = v,
                        None => ok = false,
                    }
                }
                if ok {
                    let dv = data.value(&pt[..coords.len()]);
                    func.call(cal, st, &[dv, l.x, l.y, l.z, omega], &self.ray)
                } else {
                    None
                }
            }
        };
        // A failed evaluation leaves the specular part out (RADIANCE warns and does so).
        let Some(v) = v.filter(|&v| v > FTINY) else {
            return out;
        };
        let mut c = DVec3::splat(v);
        if ldot > 0.0 {
            if m.kind == NormalKind::Metal {
                c *= self.mcolor;
            }
            out += c * (ldot * omega * m.rspec);
        } else {
            if m.kind == NormalKind::Trans {
                c *= self.mcolor;
            }
            out += c * (-ldot * omega * self.tspec);
        }
        out
    }
}

impl Renderer {
    /// Shades a `*func` or `*data` material (RADIANCE's `m_brdf2`).
    pub(crate) fn shade_funcmat(
        &self,
        r: &RayState,
        s: &Surf,
        m: &FuncMaterial,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        // Always opaque to shadow rays.
        if r.is_shadow() {
            return DVec3::ZERO;
        }
        let (s, pert) = match self.facing(r, s, pert, ctx) {
            Ok(front) => front,
            Err(through) => return through,
        };
        let mcolor = m.color * pcol;
        let (trans, tspec) = if m.kind == NormalKind::Trans {
            let t = m.trans * (1.0 - m.rspec);
            (t, t * m.tspec)
        } else {
            (0.0, 0.0)
        };
        let (pnorm, pdot) = perturbed(&s, pert);
        let mut col = DVec3::ZERO;
        // The indirect part takes the specular share as diffuse.
        if trans < 1.0 - FTINY {
            col += self.multambient(mcolor * (1.0 - trans), r, &s, pnorm, ctx);
        }
        if trans > FTINY {
            col += self.multambient(mcolor * trans, r, &s, -pnorm, ctx);
        }
        let mut ray = m.frame.ray(&s);
        set_brdf_vars(&mut ray, &m.frame, pnorm, pdot, mcolor);
        let hit = Hit {
            m,
            ray,
            mcolor,
            rdiff: mcolor * (1.0 - trans - m.rspec),
            tdiff: mcolor * (trans - tspec),
            trans,
            tspec,
            pnorm,
        };
        let cal = &self.mods.cal;
        col += self.direct_eval(
            r,
            &s,
            col,
            &|ldir, omega, st| hit.source_coef(cal, st, ldir, omega),
            ctx,
        );
        col
    }
}
