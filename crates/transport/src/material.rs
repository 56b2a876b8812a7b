//! The modifier table: every material, pattern and texture of the scene, with its arguments
//! checked and its `.cal` expressions compiled once.

use crate::clip::Antimatter;
use crate::data::{DataArray, MAX_DIMS};
use crate::ray::Surf;
use crate::TransportError;
use daylit_cal::{CalEnv, EvalState, ExprId, FuncId, RayContext, RayPath, RayVar};
use daylit_scene::xform::{parse_transform, Transform};
use daylit_scene::{PrimId, PrimType, Primitive, Scene};
use glam::DVec3;
use std::collections::HashMap;
use std::sync::Arc;

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
        /// `plastic2`, `metal2`, `trans2`: the second roughness and the orientation.
        aniso: Option<Box<Anisotropy>>,
    },
    /// `glass`: thin glazing with two interreflecting surfaces.
    Glass {
        /// Transmissivity per channel.
        color: DVec3,
        /// Refractive index.
        rindex: f64,
    },
    /// `dielectric` and `interface`: a refracting boundary.
    Dielectric {
        /// Transmission per metre of the medium behind the surface (1 = clear).
        color: DVec3,
        /// Its refractive index (`dielectric`: with the Hartmann dispersion term at 500 nm).
        rindex: f64,
        /// `interface`: the medium in front of the surface (transmission per metre, index);
        /// `None` for a `dielectric`, which has clear air in front.
        front: Option<(DVec3, f64)>,
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
    /// `antimatter` (`None`: nothing to cut; also what a chain without a material reads as).
    Antimatter(Option<Box<Antimatter>>),
    /// `plasfunc`, `metfunc`, `transfunc`, `plasdata`, `metdata`, `transdata`: a BRDF
    /// given by a function or data, used for the specular part of direct light.
    Func(Box<crate::funcmat::FuncMaterial>),
    /// `BRTDfunc`: programmable specular, diffuse and directional-diffuse components.
    Brtd(Box<crate::brtdfunc::BrtdFunc>),
    /// `ashik2`: Ashikhmin–Shirley anisotropic reflection.
    Ashik(Box<crate::ashik2::Ashik>),
    /// `prism1` and `prism2`: redirecting glazing ([`crate::prism`]).
    Prism(Box<crate::prism::Prism>),
    /// `mist`: the boundary of a participating medium ([`crate::mist`]).
    Mist(Box<crate::mist::Mist>),
    /// `WGMDfunc`: programmable anisotropic Gaussian reflection and transmission
    /// ([`crate::wgmdfunc`]).
    Wgmd(Box<crate::wgmdfunc::Wgmd>),
    /// `BSDF` and `aBSDF`: scattering from an XML data file ([`crate::bsdf`]).
    Bsdf(Box<crate::bsdf::BsdfMaterial>),
}

/// The three "normal" materials (and their anisotropic forms).
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
    /// `brightdata`: a function of an interpolated data value multiplies the colour.
    BrightData(DataLookup<1>),
    /// `colordata`: functions of three interpolated values multiply red, green and blue.
    ColorData(DataLookup<3>),
    /// `texdata`: functions of three interpolated values perturb the normal.
    TexData(DataLookup<3>),
    /// `colorpict`: functions of a picture's colour multiply red, green and blue.
    Picture(crate::picture::PictLookup),
    /// `brighttext`, `colortext`: one colour on the glyphs, another off them.
    Text {
        /// The laid-out text.
        text: Arc<crate::text::Text>,
        /// Factor on a glyph.
        fore: DVec3,
        /// Factor elsewhere.
        back: DVec3,
    },
    /// `spectrum`, `specfile`, `specfunc`, `specdata`, `specpict`: a spectrum's RGB multiplies
    /// the colour.
    Spectral(crate::spectral::Spectral),
}

/// Data arrays looked up at coordinates computed per ray, then passed through functions.
#[derive(Clone, Debug)]
pub struct DataLookup<const N: usize> {
    /// The functions applied to the interpolated values.
    pub funcs: [FuncId; N],
    /// Their declared parameter counts (`colordata` passes one value to a one-parameter
    /// function, all three otherwise).
    pub arity: [usize; N],
    /// The data arrays (the same array may appear more than once).
    pub data: [Arc<DataArray>; N],
    /// One coordinate expression per data dimension.
    pub coords: Vec<ExprId>,
}

impl<const N: usize> DataLookup<N> {
    /// The interpolated values at this ray's coordinates.
    fn values(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay) -> [f64; N] {
        let mut pt = [0.0; MAX_DIMS];
        for (p, &e) in pt.iter_mut().zip(&self.coords) {
            *p = cal.eval_expr(e, st, ray);
        }
        let n = self.coords.len();
        std::array::from_fn(|i| self.data[i].value(&pt[..n]))
    }

    /// The function values for this ray, as RADIANCE's data patterns compute them.
    fn eval(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay) -> [f64; N] {
        let v = self.values(cal, st, ray);
        std::array::from_fn(|i| {
            let args = if N == 1 || (i > 0 && self.arity[i] < 3) {
                &v[i..=i]
            } else {
                &v[..]
            };
            cal.call(self.funcs[i], args, st, ray)
        })
    }
}

/// The coordinate frame and real arguments a function-driven modifier is evaluated in.
#[derive(Clone, Debug)]
pub struct FuncFrame {
    /// The frame the functions see (from the transform after the file name).
    pub xf: Transform,
    /// The inverse, to take points and directions into that frame.
    pub inv: Transform,
    /// Real arguments (`arg(n)`).
    pub args: Vec<f64>,
}

/// A pattern or texture with its coordinate frame.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// What it computes.
    pub kind: PatternKind,
    /// Where its functions are evaluated.
    pub frame: FuncFrame,
}

/// How a mixture's coefficient is computed.
#[derive(Clone, Debug)]
pub enum MixCoef {
    /// `mixfunc`: an expression.
    Func(ExprId),
    /// `mixdata`: a function of an interpolated data value.
    Data(DataLookup<1>),
    /// `mixpict`: a function of a picture's colour.
    Picture(crate::picture::PictLookup),
    /// `mixtext`: all foreground on the glyphs, all background elsewhere.
    Text(Arc<crate::text::Text>),
}

/// `mixfunc` and `mixdata`: a blend of two modifiers (materials or patterns).
#[derive(Clone, Debug)]
pub struct Mixture {
    /// The modifier weighted by the coefficient (`None`: void).
    pub fore: Option<PrimId>,
    /// The modifier weighted by one minus the coefficient (`None`: void).
    pub back: Option<PrimId>,
    /// The coefficient.
    pub coef: MixCoef,
    /// Where it is evaluated.
    pub frame: FuncFrame,
}

impl Mixture {
    /// The coefficient at this hit, clamped to 0..1.
    pub fn coefficient(&self, cal: &CalEnv, st: &mut EvalState, s: &Surf) -> f64 {
        let ray = self.frame.ray(s);
        let c = match &self.coef {
            MixCoef::Func(e) => cal.eval_expr(*e, st, &ray),
            MixCoef::Data(d) => d.eval(cal, st, &ray)[0],
            MixCoef::Picture(d) => d.coef(cal, st, &ray),
            MixCoef::Text(t) => f64::from(u8::from(t.foreground(s.point))),
        };
        if c.is_nan() {
            0.0
        } else {
            c.clamp(0.0, 1.0)
        }
    }
}

/// The orientation of an anisotropic material (`plastic2`, `metal2`, `trans2`).
#[derive(Clone, Debug)]
pub struct Anisotropy {
    /// Roughness along v (the u roughness is the material's `rough`).
    pub vrough: f64,
    /// Expressions for the u direction.
    pub udir: [ExprId; 3],
    /// Where they are evaluated.
    pub frame: FuncFrame,
}

impl Anisotropy {
    /// The u direction at this hit, in world coordinates (not yet projected on the surface).
    pub fn u(&self, cal: &CalEnv, st: &mut EvalState, s: &Surf) -> DVec3 {
        let ray = self.frame.ray(s);
        let u = DVec3::from(std::array::from_fn::<f64, 3, _>(|k| {
            cal.eval_expr(self.udir[k], st, &ray)
        }));
        if st.take_error().is_some() || !u.is_finite() {
            return DVec3::ZERO;
        }
        self.frame.xf.m.transform_vector3(u)
    }
}

/// One entry of the modifier table.
#[derive(Clone, Debug)]
pub enum Modifier {
    /// A material.
    Material(Material),
    /// A pattern or texture.
    Pattern(Box<Pattern>),
    /// A mixture of two modifiers.
    Mixture(Box<Mixture>),
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
    /// Builds the table. Modifiers daylit cannot shade are refused with their place: one
    /// error as it is, several in one error with a line each.
    pub fn build(scene: &Scene, raypath: &RayPath) -> Result<Modifiers, TransportError> {
        let (table, mut errors) = Self::compile_all(scene, raypath)?;
        match errors.len() {
            0 => Ok(table),
            1 => Err(errors.remove(0)),
            _ => Err(TransportError::Untraceable(
                errors
                    .iter()
                    .map(|e| format!("  {e}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
        }
    }

    /// Every modifier that cannot be shaded, with its place, in scene order (`daylit check`
    /// lists them all without tracing anything).
    pub fn problems(scene: &Scene, raypath: &RayPath) -> Vec<TransportError> {
        match Self::compile_all(scene, raypath) {
            Ok((_, errors)) => errors,
            Err(e) => vec![e],
        }
    }

    /// Compiles every modifier, going on past the ones that fail.
    fn compile_all(
        scene: &Scene,
        raypath: &RayPath,
    ) -> Result<(Modifiers, Vec<TransportError>), TransportError> {
        let cal = CalEnv::with_raypath(raypath).map_err(|e| TransportError::Function {
            loc: "rayinit.cal".into(),
            msg: e.to_string(),
        })?;
        let mut b = Builder {
            cal,
            raypath,
            data: HashMap::new(),
            pictures: HashMap::new(),
            fonts: HashMap::new(),
            spec_pictures: HashMap::new(),
            bsdfs: HashMap::new(),
        };
        let mut table = Vec::with_capacity(scene.prims.len());
        let mut errors = Vec::new();
        for p in &scene.prims {
            let located = |msg| TransportError::Modifier {
                loc: p.loc.to_string(),
                what: format!("{} \"{}\"", p.ptype.name(), p.name),
                msg,
            };
            let entry = if p.ptype.is_modifier() {
                b.modifier(p).map_err(|m| errors.push(located(m))).ok()
            } else {
                None
            };
            if let Some(Modifier::Material(Material::Wgmd(m))) = &entry {
                if let Err(msg) = crate::wgmdfunc::check_parts(scene, &table, m) {
                    errors.push(located(msg));
                }
            }
            table.push(entry);
            if p.ptype == PrimType::Antimatter {
                let all = table.iter().filter_map(|e| match e {
                    Some(Modifier::Material(Material::Antimatter(Some(a)))) => Some(&**a),
                    _ => None,
                });
                if let Err(m) = crate::clip::check_capacity(all) {
                    errors.push(located(m));
                }
            }
        }
        Ok((Modifiers { table, cal: b.cal }, errors))
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
                // Mixtures are followed per hit (see `has_mixture`).
                Some(Modifier::Mixture(_)) | None => return None,
            }
            m = scene.prim(id).modifier;
            guard += 1;
            if guard > 1000 {
                return None;
            }
        }
        None
    }

    /// Does the chain from `m` (with the material's textures) hold a mixture?
    pub fn has_mixture(&self, scene: &Scene, mut m: Option<PrimId>) -> bool {
        for _ in 0..1000 {
            let Some(id) = m else {
                return false;
            };
            if matches!(self.table[id as usize], Some(Modifier::Mixture(_))) {
                return true;
            }
            m = scene.prim(id).modifier;
        }
        false
    }

    /// The material entry of `id`.
    pub fn material(&self, id: PrimId) -> &Material {
        match &self.table[id as usize] {
            Some(Modifier::Material(m)) => m,
            _ => &Material::Antimatter(None),
        }
    }
}

/// Compiles modifiers one by one, sharing function files, data arrays, pictures and fonts.
pub(crate) struct Builder<'a> {
    pub(crate) cal: CalEnv,
    pub(crate) raypath: &'a RayPath,
    data: HashMap<String, Arc<DataArray>>,
    /// Pictures read so far, by name.
    pub(crate) pictures: HashMap<String, Arc<crate::picture::Picture>>,
    /// Fonts read so far, by name.
    pub(crate) fonts: HashMap<String, Arc<daylit_image::font::Font>>,
    /// Hyperspectral pictures read so far, by name.
    pub(crate) spec_pictures: HashMap<String, Arc<crate::spectral::SpecPicture>>,
    /// BSDF files read so far, by name.
    bsdfs: HashMap<String, Arc<daylit_bsdf::Bsdf>>,
}

impl Builder<'_> {
    /// The table entry of modifier `p`; the error says what is wrong with it.
    fn modifier(&mut self, p: &Primitive) -> Result<Modifier, String> {
        let f = &p.fargs;
        let reals = |n: usize| -> Result<(), String> {
            if f.len() == n {
                Ok(())
            } else {
                Err(format!("needs {n} real arguments, has {}", f.len()))
            }
        };
        Ok(match p.ptype {
            PrimType::Plastic | PrimType::Metal | PrimType::Trans => {
                Modifier::Material(normal_material(p.ptype, f, None))
            }
            PrimType::Plastic2 | PrimType::Metal2 | PrimType::Trans2 => {
                reals(if p.ptype == PrimType::Trans2 { 8 } else { 6 })?;
                if f[4] <= FTINY_ROUGH || f[5] <= FTINY_ROUGH {
                    return Err(
                        "roughness too small (anisotropic materials need both above 0)".into(),
                    );
                }
                let file = p.sargs[3].as_str();
                self.load(file)?;
                let udir = [
                    self.expr(file, &p.sargs[0])?,
                    self.expr(file, &p.sargs[1])?,
                    self.expr(file, &p.sargs[2])?,
                ];
                let aniso = Anisotropy {
                    vrough: f[5],
                    udir,
                    frame: frame(p, 4, Vec::new())?,
                };
                // The anisotropic reals put v-roughness before trans and tspec.
                let g = [
                    f[0],
                    f[1],
                    f[2],
                    f[3],
                    f[4],
                    *f.get(6).unwrap_or(&0.0),
                    *f.get(7).unwrap_or(&0.0),
                ];
                Modifier::Material(normal_material(p.ptype, &g, Some(Box::new(aniso))))
            }
            PrimType::Glass => Modifier::Material(Material::Glass {
                color: rgb(f),
                rindex: f.get(3).copied().unwrap_or(1.52),
            }),
            PrimType::Dielectric => Modifier::Material(Material::Dielectric {
                color: rgb(f),
                rindex: f[3] + f[4] / 500.0,
                front: None,
            }),
            PrimType::Interface => Modifier::Material(Material::Dielectric {
                color: rgb(f),
                rindex: f[3],
                front: Some((rgb(&f[4..]), f[7])),
            }),
            PrimType::Mirror => Modifier::Material(Material::Mirror {
                color: rgb(f),
                alternate: (!p.sargs.is_empty()).then(|| p.mod_refs.first().copied().flatten()),
            }),
            PrimType::Light | PrimType::Glow | PrimType::Illum | PrimType::Spotlight => {
                Modifier::Material(light_material(p)?)
            }
            PrimType::Antimatter => {
                if p.sargs.is_empty() {
                    return Err("needs at least one modifier name".into());
                }
                let mut set: Vec<PrimId> = Vec::new();
                for m in p.mod_refs.iter().flatten() {
                    if !set.contains(m) {
                        set.push(*m);
                    }
                }
                Modifier::Material(Material::Antimatter(Some(Box::new(Antimatter {
                    set,
                    shade: p.mod_refs.first().copied().flatten(),
                }))))
            }
            PrimType::Plasfunc
            | PrimType::Metfunc
            | PrimType::Transfunc
            | PrimType::Plasdata
            | PrimType::Metdata
            | PrimType::Transdata => Modifier::Material(self.func_material(p)?),
            PrimType::BrtdFunc => Modifier::Material(self.brtd_material(p)?),
            PrimType::Ashik2 => Modifier::Material(self.ashik_material(p)?),
            PrimType::WgmdFunc => Modifier::Material(self.wgmd_material(p)?),
            PrimType::Bsdf => Modifier::Material(self.bsdf_material(p, false)?),
            PrimType::ABsdf => Modifier::Material(self.bsdf_material(p, true)?),
            PrimType::Prism1 | PrimType::Prism2 => {
                let n = if p.ptype == PrimType::Prism1 { 1 } else { 2 };
                let file = p.sargs[4 * n].as_str();
                self.load(file)?;
                let mut dirs = Vec::with_capacity(n);
                for k in 0..n {
                    dirs.push([
                        self.expr(file, &p.sargs[4 * k])?,
                        self.expr(file, &p.sargs[4 * k + 1])?,
                        self.expr(file, &p.sargs[4 * k + 2])?,
                        self.expr(file, &p.sargs[4 * k + 3])?,
                    ]);
                }
                Modifier::Material(Material::Prism(Box::new(crate::prism::Prism {
                    dirs,
                    frame: frame(p, 4 * n + 1, p.fargs.clone())?,
                })))
            }
            PrimType::Mist => Modifier::Material(Material::Mist(Box::new(crate::mist::Mist::new(
                &p.fargs, &p.sargs,
            )?))),
            PrimType::Brightfunc | PrimType::Colorfunc | PrimType::Texfunc => {
                let file = p.sargs[p.ptype.funcfile_index().unwrap_or(0)].as_str();
                self.load(file)?;
                let mut e = |i: usize| self.expr(file, &p.sargs[i]);
                let (kind, nexpr) = match p.ptype {
                    PrimType::Brightfunc => (PatternKind::Bright(e(0)?), 1),
                    PrimType::Colorfunc => (PatternKind::Color([e(0)?, e(1)?, e(2)?]), 3),
                    _ => (PatternKind::Texture([e(0)?, e(1)?, e(2)?]), 3),
                };
                pattern(kind, frame(p, nexpr + 1, p.fargs.clone())?)
            }
            PrimType::Brightdata => {
                let (d, next) = self.lookup::<1>(p, 0)?;
                pattern(PatternKind::BrightData(d), frame(p, next, p.fargs.clone())?)
            }
            PrimType::Colordata | PrimType::Texdata => {
                let (d, next) = self.lookup::<3>(p, 0)?;
                let kind = if p.ptype == PrimType::Colordata {
                    PatternKind::ColorData(d)
                } else {
                    PatternKind::TexData(d)
                };
                pattern(kind, frame(p, next, p.fargs.clone())?)
            }
            PrimType::Mixfunc | PrimType::Mixdata => {
                let (coef, next) = if p.ptype == PrimType::Mixfunc {
                    let file = p.sargs[3].as_str();
                    self.load(file)?;
                    (MixCoef::Func(self.expr(file, &p.sargs[2])?), 4)
                } else {
                    let (d, next) = self.lookup::<1>(p, 2)?;
                    (MixCoef::Data(d), next)
                };
                let side = |i: usize| p.mod_refs.get(i).copied().flatten();
                Modifier::Mixture(Box::new(Mixture {
                    fore: side(0),
                    back: side(1),
                    coef,
                    frame: frame(p, next, p.fargs.clone())?,
                }))
            }
            PrimType::Colorpict | PrimType::Mixpict => self.picture(p)?,
            PrimType::Brighttext | PrimType::Colortext | PrimType::Mixtext => self.text(p)?,
            PrimType::Spectrum
            | PrimType::Specfile
            | PrimType::Specfunc
            | PrimType::Specdata
            | PrimType::Specpict => self.spectral(p)?,
            t => {
                return Err(format!(
                    "{} is not supported by daylit's light transport yet",
                    t.name()
                ))
            }
        })
    }

    /// Loads a function file into the shared environment.
    pub(crate) fn load(&mut self, file: &str) -> Result<(), String> {
        self.cal
            .load_file(file, self.raypath)
            .map_err(|e| format!("function file: {e}"))
    }

    /// Compiles one expression in a function file's context.
    pub(crate) fn expr(&mut self, file: &str, text: &str) -> Result<ExprId, String> {
        self.cal
            .compile_expr_in(file, text)
            .map_err(|e| format!("expression \"{text}\": {e}"))
    }

    /// A BSDF file, read once per run however many materials name it.
    pub(crate) fn bsdf_file(&mut self, name: &str) -> Result<Arc<daylit_bsdf::Bsdf>, String> {
        if let Some(d) = self.bsdfs.get(name) {
            return Ok(d.clone());
        }
        let path = self
            .raypath
            .find(name)
            .ok_or_else(|| format!("BSDF file \"{name}\" not found in the RAYPATH"))?;
        let d = Arc::new(daylit_bsdf::Bsdf::load(&path).map_err(|e| e.to_string())?);
        self.bsdfs.insert(name.to_string(), d.clone());
        Ok(d)
    }

    /// A data array, read once per run however many modifiers name it.
    pub(crate) fn data_array(&mut self, name: &str) -> Result<Arc<DataArray>, String> {
        if let Some(d) = self.data.get(name) {
            return Ok(d.clone());
        }
        let path = self
            .raypath
            .find(name)
            .ok_or_else(|| format!("data file \"{name}\" not found in the RAYPATH"))?;
        let d = Arc::new(DataArray::load(&path).map_err(|e| format!("data file {e}"))?);
        self.data.insert(name.to_string(), d.clone());
        Ok(d)
    }

    /// The string arguments of a data modifier from `first`: `N` function names, `N` data
    /// files, the function file, then one coordinate expression per data dimension. Returns
    /// the lookup and the index of the first transform argument.
    fn lookup<const N: usize>(
        &mut self,
        p: &Primitive,
        first: usize,
    ) -> Result<(DataLookup<N>, usize), String> {
        let sa = &p.sargs;
        let file_at = first + 2 * N;
        if sa.len() <= file_at {
            return Err(format!(
                "needs {N} function name(s), {N} data file(s) and a function file, then coordinates"
            ));
        }
        let file = sa[file_at].as_str();
        self.load(file)?;
        let mut data = Vec::with_capacity(N);
        for i in 0..N {
            data.push(self.data_array(&sa[first + N + i])?);
        }
        let nd = data[0].dims();
        if let Some(d) = data.iter().find(|d| d.dims() != nd) {
            return Err(format!(
                "data files differ in dimensions ({nd} and {})",
                d.dims()
            ));
        }
        if sa.len() < file_at + 1 + nd {
            return Err(format!(
                "the data has {nd} dimension(s), so {nd} coordinate expression(s) must follow the function file"
            ));
        }
        let mut coords = Vec::with_capacity(nd);
        for text in &sa[file_at + 1..file_at + 1 + nd] {
            coords.push(self.expr(file, text)?);
        }
        let mut funcs = Vec::with_capacity(N);
        let mut arity = [0; N];
        for (i, name) in sa[first..first + N].iter().enumerate() {
            let fid = self
                .cal
                .function_in(file, name)
                .ok_or_else(|| format!("function \"{name}\" is not defined"))?;
            self.cal
                .check_func(fid)
                .map_err(|e| format!("function \"{name}\": {e}"))?;
            arity[i] = self.cal.func_arity(fid);
            funcs.push(fid);
        }
        let lookup = DataLookup {
            funcs: funcs.try_into().map_err(|_| "function count")?,
            arity,
            data: data.try_into().map_err(|_| "data count")?,
            coords,
        };
        Ok((lookup, file_at + 1 + nd))
    }
}

/// Roughness below which RADIANCE refuses an anisotropic material.
const FTINY_ROUGH: f64 = 1e-6;

/// `plastic`, `metal`, `trans` and their anisotropic forms from reals
/// `r g b spec rough [trans tspec]`.
fn normal_material(t: PrimType, f: &[f64], aniso: Option<Box<Anisotropy>>) -> Material {
    let kind = match t {
        PrimType::Plastic | PrimType::Plastic2 => NormalKind::Plastic,
        PrimType::Metal | PrimType::Metal2 => NormalKind::Metal,
        _ => NormalKind::Trans,
    };
    let (trans, tspec) = if kind == NormalKind::Trans {
        (f[5], f[6])
    } else {
        (0.0, 0.0)
    };
    Material::Normal {
        kind,
        color: rgb(f),
        spec: f[3],
        rough: f[4],
        trans,
        tspec,
        aniso,
    }
}

/// `light`, `glow`, `illum`, `spotlight`.
fn light_material(p: &Primitive) -> Result<Material, String> {
    let f = &p.fargs;
    let kind = match p.ptype {
        PrimType::Light => LightKind::Light,
        PrimType::Glow => LightKind::Glow(f[3]),
        PrimType::Illum => LightKind::Illum(p.mod_refs.first().copied().flatten()),
        _ => {
            let aim = DVec3::new(f[4], f[5], f[6]);
            let flen = aim.length();
            if f[3] <= 1e-6 || flen == 0.0 {
                return Err("zero spotlight angle or direction".into());
            }
            LightKind::Spot(Spot {
                size: 2.0 * std::f64::consts::PI * (1.0 - (f[3].to_radians() / 2.0).cos()),
                aim: aim / flen,
                flen,
            })
        }
    };
    Ok(Material::Light {
        kind,
        color: rgb(f),
    })
}

pub(crate) fn pattern(kind: PatternKind, frame: FuncFrame) -> Modifier {
    Modifier::Pattern(Box::new(Pattern { kind, frame }))
}

/// The frame from the transform that starts at string argument `at`, which must run to the end.
pub(crate) fn frame(p: &Primitive, at: usize, args: Vec<f64>) -> Result<FuncFrame, String> {
    let mut i = at;
    let xf = parse_transform(&p.sargs, &mut i, &p.loc).map_err(|e| format!("transform: {e}"))?;
    if i != p.sargs.len() {
        return Err(format!(
            "unexpected string argument \"{}\" after the transform",
            p.sargs[i]
        ));
    }
    Ok(FuncFrame {
        inv: inverse(&xf),
        xf,
        args,
    })
}

/// The inverse of a regular transform.
fn inverse(xf: &Transform) -> Transform {
    Transform {
        m: xf.m.inverse(),
        scale: 1.0 / xf.scale,
    }
}

/// What a function sees of the ray: RADIANCE's ray variables in the modifier's frame.
pub struct PatternRay<'a> {
    vars: [f64; RayVar::COUNT],
    args: &'a [f64],
}

impl PatternRay<'_> {
    /// Sets one ray variable (the perturbed normal and colour of the `*func` materials, the
    /// source direction `DxA`… of the prisms).
    pub(crate) fn set(&mut self, v: RayVar, x: f64) {
        self.vars[v.index()] = x;
    }
}

impl RayContext for PatternRay<'_> {
    fn ray_var(&self, v: RayVar) -> f64 {
        self.vars[v.index()]
    }
    fn args(&self) -> &[f64] {
        self.args
    }
}

impl FuncFrame {
    /// The ray variables of hit `s` as this frame's functions see them.
    pub fn ray(&self, s: &Surf) -> PatternRay<'_> {
        let inv = &self.inv;
        let sc = inv.scale.abs();
        let d = inv.m.transform_vector3(s.dir) / sc;
        let n = inv.m.transform_vector3(s.normal) / sc;
        let p = inv.m.transform_point3(s.point);
        let mut vars = [0.0; RayVar::COUNT];
        let mut set = |v: RayVar, x: f64| vars[v.index()] = x;
        for (k, (dv, nv, pv)) in [
            (RayVar::Dx, RayVar::Nx, RayVar::Px),
            (RayVar::Dy, RayVar::Ny, RayVar::Py),
            (RayVar::Dz, RayVar::Nz, RayVar::Pz),
        ]
        .into_iter()
        .enumerate()
        {
            set(dv, d[k]);
            set(nv, n[k]);
            set(pv, p[k]);
        }
        let xs = self.xf.scale.abs();
        set(RayVar::T, s.t * sc);
        set(RayVar::Lu, s.uv[0]);
        set(RayVar::Lv, s.uv[1]);
        set(RayVar::Rdot, s.rod);
        set(RayVar::S, xs);
        let tr = self.xf.m.w_axis.truncate();
        for (k, v) in [RayVar::Tx, RayVar::Ty, RayVar::Tz].into_iter().enumerate() {
            set(v, tr[k]);
        }
        for (axis, names) in [
            (self.xf.m.x_axis, [RayVar::Ix, RayVar::Iy, RayVar::Iz]),
            (self.xf.m.y_axis, [RayVar::Jx, RayVar::Jy, RayVar::Jz]),
            (self.xf.m.z_axis, [RayVar::Kx, RayVar::Ky, RayVar::Kz]),
        ] {
            for k in 0..3 {
                set(names[k], axis[k] / xs);
            }
        }
        PatternRay {
            vars,
            args: &self.args,
        }
    }

    /// A world direction as this frame's functions see it (unit length kept under scaling),
    /// as RADIANCE passes a light direction to a BRDF function.
    pub(crate) fn dir_in(&self, v: DVec3) -> DVec3 {
        self.inv.m.transform_vector3(v) / self.inv.scale.abs()
    }

    /// A perturbation computed in this frame, in world coordinates.
    pub(crate) fn to_world(&self, v: DVec3) -> DVec3 {
        self.xf.m.transform_vector3(v) / self.xf.scale.abs()
    }
}

impl Pattern {
    /// Evaluates the pattern at hit `s`: multiplies `pcol` by its colour factor and adds any
    /// normal perturbation (in world coordinates) to `pert`.
    pub fn apply(
        &self,
        cal: &CalEnv,
        st: &mut EvalState,
        s: &Surf,
        pcol: &mut DVec3,
        pert: &mut DVec3,
    ) {
        let ray = self.frame.ray(s);
        let e3 = |es: &[ExprId; 3], st: &mut EvalState| {
            DVec3::from(std::array::from_fn::<f64, 3, _>(|k| {
                cal.eval_expr(es[k], st, &ray)
            }))
        };
        match &self.kind {
            PatternKind::Bright(e) => *pcol *= cal.eval_expr(*e, st, &ray),
            PatternKind::Color(es) => *pcol *= e3(es, st),
            PatternKind::Texture(es) => *pert += self.frame.to_world(e3(es, st)),
            PatternKind::BrightData(d) => *pcol *= d.eval(cal, st, &ray)[0],
            PatternKind::ColorData(d) => *pcol *= DVec3::from(d.eval(cal, st, &ray)),
            PatternKind::TexData(d) => {
                let v = d.values(cal, st, &ray);
                // Each function sees all three interpolated values.
                let disp = DVec3::from(std::array::from_fn::<f64, 3, _>(|k| {
                    cal.call(d.funcs[k], &v, st, &ray)
                }));
                *pert += self.frame.to_world(disp);
            }
            PatternKind::Picture(d) => *pcol *= DVec3::from(d.color(cal, st, &ray)),
            PatternKind::Text { text, fore, back } => {
                *pcol *= if text.foreground(s.point) {
                    *fore
                } else {
                    *back
                }
            }
            PatternKind::Spectral(sp) => *pcol *= sp.color(cal, st, &ray, crate::spectral::seed(s)),
        }
    }
}
