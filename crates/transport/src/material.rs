//! The modifier table: every material, pattern and texture of the scene, with its arguments
//! checked and its `.cal` expressions compiled once.

use crate::TransportError;
use daylit_cal::{CalEnv, EvalState, ExprId, RayContext, RayPath, RayVar};
use daylit_scene::xform::{parse_transform, Transform};
use daylit_scene::{PrimId, PrimType, Scene};
use glam::DVec3;

/// A material, as RADIANCE's shading functions see it.
#[derive(Clone, Debug)]
pub enum Material {
    /// `plastic`, `metal` and `trans` (RADIANCE's "normal" materials).
    Normal {
        /// Which of the three.
        kind: NormalKind,
        /// Diffuse colour.
        color: DVec3,
        /// Specularity.
        spec: f64,
        /// Roughness.
        rough: f64,
        /// Transmissivity and transmitted specularity (`trans` only, else 0).
        trans: f64,
        /// Fraction of the transmission that is specular.
        tspec: f64,
    },
    /// `glass`: thin glazing with two interreflecting surfaces.
    Glass {
        /// Transmissivity per channel.
        color: DVec3,
        /// Refractive index.
        rindex: f64,
    },
    /// `dielectric`: a refracting boundary.
    Dielectric {
        /// Transmission per metre (1 = clear).
        color: DVec3,
        /// Refractive index.
        rindex: f64,
        /// Hartmann constant (dispersion), 0 for none.
        hartmann: f64,
    },
    /// `mirror`: pure specular reflection and a virtual source relay.
    Mirror {
        /// Reflectance.
        color: DVec3,
        /// Alternate material for rays that are not part of the direct calculation
        /// (`Some(None)` is `void`: such rays pass through).
        alternate: Option<Option<PrimId>>,
    },
    /// `light`, `glow`, `illum`, `spotlight`.
    Light {
        /// Which emitter.
        kind: LightKind,
        /// Radiance.
        color: DVec3,
    },
    /// `antimatter`: read, but traced as a transparent surface.
    Antimatter,
}

/// The three "normal" materials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalKind {
    /// `plastic`: white specular highlight.
    Plastic,
    /// `metal`: specular highlight in the material colour.
    Metal,
    /// `trans`: plastic with diffuse and specular transmission.
    Trans,
}

/// The emitters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LightKind {
    /// `light`.
    Light,
    /// `glow` with its maximum radius of influence (0: not a source).
    Glow(f64),
    /// `illum`, with its alternate material (`None`: void).
    Illum(Option<PrimId>),
    /// `spotlight`.
    Spot(Spot),
}

/// A spotlight's cone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    /// Solid angle of the cone, sr.
    pub size: f64,
    /// Unit aim direction.
    pub aim: DVec3,
    /// Length of the aim vector as given: the focal distance behind the source.
    pub flen: f64,
}

impl Spot {
    /// Is a ray leaving the source along `dir` outside the cone?
    pub fn outside(&self, dir: DVec3) -> bool {
        self.size < 2.0 * std::f64::consts::PI * (1.0 + self.aim.dot(dir))
    }
}

/// How a pattern or texture changes what it modifies.
#[derive(Clone, Debug)]
pub enum PatternKind {
    /// `brightfunc`: one expression multiplies the colour.
    Bright(ExprId),
    /// `colorfunc`: three expressions multiply red, green and blue.
    Color([ExprId; 3]),
    /// `texfunc`: three expressions perturb the normal.
    Texture([ExprId; 3]),
}

/// A pattern or texture with its coordinate frame.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// What it computes.
    pub kind: PatternKind,
    /// The frame its function sees (from the transform after the file name).
    pub xf: Transform,
    /// The inverse, to take points and directions into that frame.
    pub inv: Transform,
    /// Real arguments (`arg(n)`).
    pub args: Vec<f64>,
}

/// One entry of the modifier table.
#[derive(Clone, Debug)]
pub enum Modifier {
    /// A material.
    Material(Material),
    /// A pattern or texture.
    Pattern(Box<Pattern>),
}

/// All modifiers of a scene, indexed by primitive id (surfaces have `None`).
pub struct Modifiers {
    /// Entry per primitive.
    pub table: Vec<Option<Modifier>>,
    /// The function environment the patterns evaluate in.
    pub cal: CalEnv,
}

fn rgb(f: &[f64]) -> DVec3 {
    DVec3::new(f[0], f[1], f[2])
}

impl Modifiers {
    /// Builds the table. Modifier types daylit cannot shade yet are refused with their place.
    pub fn build(scene: &Scene, raypath: &RayPath) -> Result<Modifiers, TransportError> {
        let mut cal = CalEnv::with_raypath(raypath).map_err(|e| TransportError::Function {
            loc: "rayinit.cal".into(),
            msg: e.to_string(),
        })?;
        let mut table = Vec::with_capacity(scene.prims.len());
        for p in &scene.prims {
            let err = |msg: String| TransportError::Modifier {
                loc: p.loc.to_string(),
                what: format!("{} \"{}\"", p.ptype.name(), p.name),
                msg,
            };
            let f = &p.fargs;
            let m = match p.ptype {
                t if !t.is_modifier() => None,
                PrimType::Plastic | PrimType::Metal | PrimType::Trans => {
                    let kind = match p.ptype {
                        PrimType::Plastic => NormalKind::Plastic,
                        PrimType::Metal => NormalKind::Metal,
                        _ => NormalKind::Trans,
                    };
                    let (trans, tspec) = if kind == NormalKind::Trans {
                        (f[5], f[6])
                    } else {
                        (0.0, 0.0)
                    };
                    Some(Modifier::Material(Material::Normal {
                        kind,
                        color: rgb(f),
                        spec: f[3],
                        rough: f[4],
                        trans,
                        tspec,
                    }))
                }
                PrimType::Glass => Some(Modifier::Material(Material::Glass {
                    color: rgb(f),
                    rindex: f.get(3).copied().unwrap_or(1.52),
                })),
                PrimType::Dielectric => Some(Modifier::Material(Material::Dielectric {
                    color: rgb(f),
                    rindex: f[3],
                    hartmann: f[4],
                })),
                PrimType::Mirror => Some(Modifier::Material(Material::Mirror {
                    color: rgb(f),
                    alternate: (!p.sargs.is_empty()).then(|| p.mod_refs.first().copied().flatten()),
                })),
                PrimType::Light | PrimType::Glow | PrimType::Illum | PrimType::Spotlight => {
                    let kind = match p.ptype {
                        PrimType::Light => LightKind::Light,
                        PrimType::Glow => LightKind::Glow(f[3]),
                        PrimType::Illum => LightKind::Illum(p.mod_refs.first().copied().flatten()),
                        _ => {
                            let aim = DVec3::new(f[4], f[5], f[6]);
                            let flen = aim.length();
                            if f[3] <= 1e-6 || flen == 0.0 {
                                return Err(err("zero spotlight angle or direction".into()));
                            }
                            LightKind::Spot(Spot {
                                size: 2.0
                                    * std::f64::consts::PI
                                    * (1.0 - (f[3].to_radians() / 2.0).cos()),
                                aim: aim / flen,
                                flen,
                            })
                        }
                    };
                    Some(Modifier::Material(Material::Light {
                        kind,
                        color: rgb(f),
                    }))
                }
                PrimType::Antimatter => Some(Modifier::Material(Material::Antimatter)),
                PrimType::Brightfunc | PrimType::Colorfunc | PrimType::Texfunc => {
                    let fi = p.ptype.funcfile_index().unwrap_or(0);
                    let file = p.sargs[fi].as_str();
                    cal.load_file(file, raypath)
                        .map_err(|e| err(format!("function file: {e}")))?;
                    let mut expr = |i: usize| {
                        cal.compile_expr_in(file, &p.sargs[i])
                            .map_err(|e| err(format!("expression \"{}\": {e}", p.sargs[i])))
                    };
                    let kind = match p.ptype {
                        PrimType::Brightfunc => PatternKind::Bright(expr(0)?),
                        PrimType::Colorfunc => PatternKind::Color([expr(0)?, expr(1)?, expr(2)?]),
                        _ => PatternKind::Texture([expr(0)?, expr(1)?, expr(2)?]),
                    };
                    let mut i = fi + 1;
                    let xf = parse_transform(&p.sargs, &mut i, &p.loc)
                        .map_err(|e| err(format!("transform: {e}")))?;
                    if i != p.sargs.len() {
                        return Err(err(format!(
                            "unexpected string argument \"{}\" after the transform",
                            p.sargs[i]
                        )));
                    }
                    Some(Modifier::Pattern(Box::new(Pattern {
                        kind,
                        inv: inverse(&xf),
                        xf,
                        args: p.fargs.clone(),
                    })))
                }
                t => {
                    return Err(err(format!(
                        "{} is not supported by daylit's light transport yet",
                        t.name()
                    )))
                }
            };
            table.push(m);
        }
        Ok(Modifiers { table, cal })
    }

    /// The material of a modifier chain and the patterns met on the way, surface first.
    pub fn resolve(
        &self,
        scene: &Scene,
        mut m: Option<PrimId>,
        patterns: &mut Vec<PrimId>,
    ) -> Option<PrimId> {
        let mut guard = 0;
        while let Some(id) = m {
            match &self.table[id as usize] {
                Some(Modifier::Material(_)) => {
                    // The material's own modifiers are its textures.
                    let mut t = scene.prim(id).modifier;
                    while let Some(tid) = t {
                        if matches!(self.table[tid as usize], Some(Modifier::Pattern(_))) {
                            patterns.push(tid);
                        }
                        t = scene.prim(tid).modifier;
                        guard += 1;
                        if guard > 1000 {
                            break;
                        }
                    }
                    return Some(id);
                }
                Some(Modifier::Pattern(_)) => patterns.push(id),
                None => return None,
            }
            m = scene.prim(id).modifier;
            guard += 1;
            if guard > 1000 {
                return None;
            }
        }
        None
    }

    /// The material entry of `id`.
    pub fn material(&self, id: PrimId) -> &Material {
        match &self.table[id as usize] {
            Some(Modifier::Material(m)) => m,
            _ => &Material::Antimatter,
        }
    }
}

/// The inverse of a regular transform.
fn inverse(xf: &Transform) -> Transform {
    Transform {
        m: xf.m.inverse(),
        scale: 1.0 / xf.scale,
    }
}

/// What a pattern sees of the ray: RADIANCE's ray variables in the pattern's frame.
pub struct PatternRay<'a> {
    vars: [f64; RayVar::COUNT],
    args: &'a [f64],
}

impl RayContext for PatternRay<'_> {
    fn ray_var(&self, v: RayVar) -> f64 {
        self.vars[v.index()]
    }
    fn args(&self) -> &[f64] {
        self.args
    }
}

/// The surface a pattern is evaluated at.
pub struct SurfacePoint {
    /// Ray direction.
    pub dir: DVec3,
    /// Hit point.
    pub point: DVec3,
    /// Surface normal (unflipped).
    pub normal: DVec3,
    /// Distance along the ray.
    pub t: f64,
    /// `-dir · normal`.
    pub rdot: f64,
}

impl Pattern {
    /// Evaluates the pattern: returns the colour factor, and adds any normal perturbation (in
    /// world coordinates) to `pert`.
    pub fn apply(
        &self,
        cal: &CalEnv,
        st: &mut EvalState,
        sp: &SurfacePoint,
        pcol: &mut DVec3,
        pert: &mut DVec3,
    ) {
        let inv = &self.inv;
        let s = inv.scale.abs();
        let d = inv.m.transform_vector3(sp.dir) / s;
        let n = inv.m.transform_vector3(sp.normal) / s;
        let p = inv.m.transform_point3(sp.point);
        let mut vars = [0.0; RayVar::COUNT];
        let set = |vars: &mut [f64; RayVar::COUNT], v: RayVar, x: f64| vars[v.index()] = x;
        for (k, (dv, nv, pv)) in [
            (RayVar::Dx, RayVar::Nx, RayVar::Px),
            (RayVar::Dy, RayVar::Ny, RayVar::Py),
            (RayVar::Dz, RayVar::Nz, RayVar::Pz),
        ]
        .into_iter()
        .enumerate()
        {
            set(&mut vars, dv, d[k]);
            set(&mut vars, nv, n[k]);
            set(&mut vars, pv, p[k]);
        }
        let xs = self.xf.scale.abs();
        set(&mut vars, RayVar::T, sp.t * s);
        set(&mut vars, RayVar::Rdot, sp.rdot);
        set(&mut vars, RayVar::S, xs);
        let tr = self.xf.m.w_axis.truncate();
        let (ix, iy, iz) = (
            self.xf.m.x_axis.truncate() / xs,
            self.xf.m.y_axis.truncate() / xs,
            self.xf.m.z_axis.truncate() / xs,
        );
        for (k, v) in [RayVar::Tx, RayVar::Ty, RayVar::Tz].into_iter().enumerate() {
            set(&mut vars, v, tr[k]);
        }
        for (axis, names) in [
            (ix, [RayVar::Ix, RayVar::Iy, RayVar::Iz]),
            (iy, [RayVar::Jx, RayVar::Jy, RayVar::Jz]),
            (iz, [RayVar::Kx, RayVar::Ky, RayVar::Kz]),
        ] {
            for k in 0..3 {
                set(&mut vars, names[k], axis[k]);
            }
        }
        let ctx = PatternRay {
            vars,
            args: &self.args,
        };
        match &self.kind {
            PatternKind::Bright(e) => *pcol *= cal.eval_expr(*e, st, &ctx),
            PatternKind::Color(es) => {
                *pcol *= DVec3::new(
                    cal.eval_expr(es[0], st, &ctx),
                    cal.eval_expr(es[1], st, &ctx),
                    cal.eval_expr(es[2], st, &ctx),
                )
            }
            PatternKind::Texture(es) => {
                let v = DVec3::new(
                    cal.eval_expr(es[0], st, &ctx),
                    cal.eval_expr(es[1], st, &ctx),
                    cal.eval_expr(es[2], st, &ctx),
                );
                *pert += self.xf.m.transform_vector3(v) / xs;
            }
        }
    }
}
