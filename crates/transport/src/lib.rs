//! daylit-transport: light transport with RADIANCE's semantics.
//!
//! A [`Renderer`] holds a compiled scene, its modifier table ([`material`]) and its light
//! sources ([`source`]). [`Renderer::radiance`] follows one ray as RADIANCE's `rayvalue` does:
//! materials spawn reflected, transmitted, specular and ambient rays ([`normal`], [`trace`]), the
//! direct component comes from shadow rays to every source sample ([`direct`]), and the
//! indirect component from stratified hemisphere sampling without a cache, as `-aa 0` does
//! ([`ambient`]), or with `-aa` above 0 from a parallel multiple-bounce irradiance cache built
//! for the run's rays before tracing ([`irradiance_cache`]). Ray weights, levels and Russian roulette (`-lr`, `-lw`) follow RADIANCE, so
//! the same options give the same answer; random numbers come from a seeded generator per
//! primary ray, so the same seed gives the same output on any number of threads.

pub mod ambient;
pub mod ambient_mis;
pub mod ashik2;
pub mod brtdfunc;
pub mod bsdf;
pub mod clip;
pub mod contrib;
pub mod data;
pub mod direct;
pub mod funcmat;
pub mod glazing;
pub mod irradiance_cache;
pub mod material;
pub mod mist;
pub mod mkillum;
pub mod normal;
pub mod options;
pub mod picture;
pub mod portals;
pub mod prism;
pub mod ray;
pub mod rendering;
pub mod rtrace;
pub mod sensor;
pub mod source;
pub mod spectral;
pub mod text;
pub mod trace;
pub mod wgmdfunc;

pub use options::Options;
pub use ray::Radiance;

use daylit_cal::{EvalState, RayPath};
use daylit_compile::{CompiledScene, Origin};
use daylit_geometry::{Shape, Tracer};
use daylit_scene::{PrimId, Scene};
use material::{Modifier, Modifiers};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use source::Source;

/// Errors in setting up light transport, each naming the modifier and its place.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// A modifier daylit cannot use.
    #[error("{loc}: {what}: {msg}")]
    Modifier {
        /// Where it was defined.
        loc: String,
        /// Type and name.
        what: String,
        /// What is wrong.
        msg: String,
    },
    /// A function file that does not load.
    #[error("{loc}: {msg}")]
    Function {
        /// The file.
        loc: String,
        /// What is wrong.
        msg: String,
    },
    /// Bad options.
    #[error("{0}")]
    Options(String),
    /// Parts of the scene that cannot be traced as RADIANCE would trace them, one per line.
    #[error("the scene cannot be traced as given:\n{0}")]
    Untraceable(String),
}

/// The material and patterns of one shape (or distant source).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShapeMod {
    /// The material, or `None` when the chain has none (RADIANCE: "material not found").
    pub material: Option<PrimId>,
    /// Patterns, as a range of [`Renderer::pattern_pool`].
    pub pats: (u32, u32),
    /// A flat shape cannot be hit again by a ray leaving it.
    pub flat: bool,
    /// The first modifier of a chain that holds a mixture: such chains are followed per hit.
    pub mixed: Option<PrimId>,
}

/// Per-thread working state: the random generator and the function evaluator.
pub struct Ctx {
    /// Random numbers for this primary ray.
    pub rng: Pcg64Mcg,
    /// Evaluator state for patterns.
    pub eval: EvalState,
    /// Scratch for source samples.
    pub(crate) samples: Vec<direct::Contribution>,
    /// The medium a dielectric found the ray in: a ray cannot know it travels inside glass
    /// or water until it hits the boundary from within (RADIANCE sets the ray's extinction
    /// there too). Set by the shading of the hit, read once by `trace`.
    pub(crate) medium: Option<glam::DVec3>,
    /// The rest of that medium, set by a `mist` a ray leaves without having entered it
    /// (see [`mist`]), read once by `trace`.
    pub(crate) scatter: Option<ray::Scatter>,
    /// Contribution bins gathered so far (see [`Renderer::set_contributions`]).
    pub contrib: Vec<glam::DVec3>,
    /// The irradiance cache ambient values are read from (`-aa` above 0).
    pub(crate) cache: Option<std::sync::Arc<irradiance_cache::IrradianceCache>>,
    /// While sampling the cache's geometry: the places ambient values were asked for (no
    /// ambient or direct values are computed then).
    pub(crate) collect: Option<Vec<irradiance_cache::Candidate>>,
    /// Indirect only: along the primary ray and its specular and transmitted descendants,
    /// no direct (shadow-ray) contributions and no emitters are counted, only what ambient
    /// rays bring back. Progressive rendering adds this to an `-ab 0` frame (thesis eq. 7.1).
    pub indirect_only: bool,
    /// The mirrored part and distances the shading of the current hit reports (RADIANCE's
    /// `mcol`, `rmt`, `rxt` of the ray being shaded); `trace` keeps one per ray in flight.
    pub(crate) z: ray::Beyond,
}

/// A scene ready to render.
pub struct Renderer {
    /// The scene.
    pub scene: Scene,
    /// Its geometry.
    pub compiled: CompiledScene,
    /// Rendering options.
    pub opts: Options,
    pub(crate) mods: Modifiers,
    /// Light sources, real then virtual.
    pub sources: Vec<Source>,
    pub(crate) shape_mods: Vec<ShapeMod>,
    pub(crate) source_mods: Vec<ShapeMod>,
    pub(crate) contrib: Option<Box<contrib::ContribTable>>,
    pub(crate) pattern_pool: Vec<PrimId>,
    pub(crate) cache: Option<std::sync::Arc<irradiance_cache::IrradianceCache>>,
    /// The windows and sun patches ambient sampling without a cache aims at (see [`portals`]).
    pub(crate) portals: portals::Portals,
    /// Per shape: `-ae`/`-ai` leave it out of the ambient calculation (empty: none are).
    pub(crate) ambient_skip: Vec<bool>,
}

impl Renderer {
    /// Prepares `scene` for rendering.
    pub fn new(
        scene: Scene,
        compiled: CompiledScene,
        opts: Options,
        raypath: &RayPath,
    ) -> Result<Renderer, TransportError> {
        opts.validate().map_err(TransportError::Options)?;
        let errors: Vec<String> = compiled.errors().map(|f| format!("  {f}")).collect();
        if !errors.is_empty() {
            return Err(TransportError::Untraceable(errors.join("\n")));
        }
        let mods = Modifiers::build(&scene, raypath)?;
        let mut pattern_pool = Vec::new();
        let mut resolve = |m: Option<PrimId>, flat: bool| {
            let mut pats = Vec::new();
            let material = mods.resolve(&scene, m, &mut pats);
            let start = pattern_pool.len() as u32;
            pattern_pool.extend_from_slice(&pats);
            ShapeMod {
                material,
                pats: (start, pattern_pool.len() as u32),
                flat,
                mixed: m.filter(|_| mods.has_mixture(&scene, m)),
            }
        };
        let shape_mods: Vec<ShapeMod> = compiled
            .origins
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let m = origin_modifier(&scene, *o);
                let flat = matches!(
                    compiled.accel.shape(i as u32),
                    Shape::Triangle(_) | Shape::Polygon(_) | Shape::Ring(_)
                );
                resolve(m, flat)
            })
            .collect();
        let sources = source::find_sources(&scene, &compiled, &mods, opts.dr);
        let source_mods = sources.iter().map(|s| resolve(s.modifier, true)).collect();
        let is_window = |i: u32| {
            shape_mods[i as usize].material.is_some_and(|m| {
                matches!(
                    mods.material(m),
                    material::Material::Glass { .. } | material::Material::Dielectric { .. }
                )
            })
        };
        let portals = portals::Portals::find(
            &compiled.accel,
            &compiled.accel,
            is_window,
            &portals::Beam::suns(&sources),
        );
        let ambient_skip = match &opts.ambient_set {
            None => Vec::new(),
            Some(set) => compiled
                .origins
                .iter()
                .map(|o| {
                    let name = origin_modifier(&scene, *o).map_or("void", |m| &scene.prim(m).name);
                    set.skips(name)
                })
                .collect(),
        };
        let mut renderer = Renderer {
            scene,
            compiled,
            opts,
            mods,
            sources,
            shape_mods,
            source_mods,
            contrib: None,
            pattern_pool,
            cache: None,
            portals,
            ambient_skip,
        };
        mist::resolve_lights(&mut renderer)?;
        Ok(renderer)
    }

    /// What every intersection query of the transport goes through: the backend that traces
    /// the scene (the CPU BVH of [`CompiledScene::accel`]). The shapes themselves, for
    /// normals and sampling, are read from `compiled.accel` whichever backend traces.
    #[inline]
    pub fn tracer(&self) -> &impl Tracer {
        &self.compiled.accel
    }

    /// The modifier of compiled shape `i`.
    pub(crate) fn shape_modifier(&self, i: usize) -> Option<PrimId> {
        origin_modifier(&self.scene, self.compiled.origins[i])
    }

    /// Working state for primary ray number `index`: its random sequence depends only on the
    /// seed and the index.
    pub fn ctx(&self, index: u64) -> Ctx {
        Ctx {
            rng: self.rng_for(index),
            eval: EvalState::for_env(&self.mods.cal),
            samples: Vec::new(),
            medium: None,
            scatter: None,
            contrib: vec![glam::DVec3::ZERO; self.contrib_len()],
            cache: self.cache.clone(),
            collect: None,
            indirect_only: false,
            z: ray::Beyond::default(),
        }
    }

    /// Re-seeds `ctx` for primary ray `index` (cheaper than a new context).
    pub fn reseed(&self, ctx: &mut Ctx, index: u64) {
        ctx.rng = self.rng_for(index);
    }

    fn rng_for(&self, index: u64) -> Pcg64Mcg {
        let s = (self.opts.seed ^ 0x9e37_79b9_7f4a_7c15)
            .wrapping_add(index.wrapping_mul(0xbf58_476d_1ce4_e5b9));
        Pcg64Mcg::seed_from_u64(s)
    }

    pub(crate) fn pattern(&self, id: PrimId) -> &material::Pattern {
        match &self.mods.table[id as usize] {
            Some(Modifier::Pattern(p)) => p,
            _ => unreachable!("pattern pool holds patterns only"),
        }
    }
}

/// The modifier a compiled shape came with.
fn origin_modifier(scene: &Scene, o: Origin) -> Option<PrimId> {
    match o {
        Origin::Prim(id) => scene.prim(id).modifier,
        Origin::MeshTri { mesh, tri } => {
            let m = &scene.meshes[mesh as usize];
            m.modifiers[m.tri_modifier[tri as usize] as usize]
        }
    }
}
