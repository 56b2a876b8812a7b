//! Participating media: RADIANCE's `mist` material and the global medium of `-me -ma -mg -ms`.
//!
//! Every ray carries a medium: extinction per unit length ([`crate::ray::RayState::cext`]),
//! and in [`Scatter`] the scattering albedo, the Henyey–Greenstein eccentricity and the light
//! sources that scatter into it. Primary rays start in the global medium; child rays inherit
//! their parent's. A `mist` surface bounds a volume: a ray entering it (hitting the front)
//! adds the mist's extinction, takes its albedo and eccentricity and adds its listed sources;
//! a ray leaving it takes them away again (down to the global medium). A ray that leaves a
//! mist it never entered (it started inside) learns the medium it travelled through there.
//!
//! After a ray's value is known, the medium along it ([`Renderer::participate`]) attenuates it
//! by `exp(-cext·d)` (shadow rays by the absorbed part only, `exp(-cext·(1-albedo)·d)`),
//! adds the ambient value `-av` scattered in (`albedo·av·(1-exp(-cext·d))`), and adds light
//! scattered in from the ray's listed sources: at `d/-ms` positions along the ray (one to 16,
//! jittered), one shadow ray to each source (spotlights only from inside their cone),
//! weighted by the phase function, the source's solid angle and the extinction up to there.

use crate::material::Material;
use crate::ray::{bright, rtype::*, RayState, Scatter, Surf, FHUGE, MAX_LIGHTS};
use crate::{Ctx, Renderer, TransportError};
use daylit_geometry::FTINY;
use daylit_scene::{PrimId, PrimType};
use glam::DVec3;
use rand::Rng;

/// Most in-scattering positions along one ray (RADIANCE's `MAXSSAMP`).
const MAX_SCATTER_SAMPLES: usize = 16;

/// A `mist` material: `[ext_r ext_g ext_b [albedo_r albedo_g albedo_b [gecc]]]` and the names
/// of the sources that scatter in it.
#[derive(Clone, Debug)]
pub struct Mist {
    /// Extinction per unit length added inside (before patterns), RGB.
    pub ext: DVec3,
    /// Albedo inside, when given.
    pub albedo: Option<DVec3>,
    /// Eccentricity inside, when given.
    pub gecc: Option<f64>,
    /// The source names as written (`relay>source` for a virtual source).
    pub names: Vec<String>,
    /// The sources those names resolve to (after the sources are found).
    pub lights: Vec<u32>,
}

impl Mist {
    /// The material from its real and string arguments.
    pub fn new(fargs: &[f64], sargs: &[String]) -> Result<Mist, String> {
        let f = fargs;
        if !matches!(f.len(), 0 | 3 | 6 | 7) {
            return Err(format!(
                "needs 0, 3, 6 or 7 real arguments, has {}",
                f.len()
            ));
        }
        if sargs.len() > MAX_LIGHTS {
            return Err(format!(
                "lists {} light sources; daylit takes at most {MAX_LIGHTS}",
                sargs.len()
            ));
        }
        Ok(Mist {
            ext: if f.len() >= 3 {
                DVec3::new(f[0], f[1], f[2])
            } else {
                DVec3::ZERO
            },
            albedo: (f.len() >= 6).then(|| DVec3::new(f[3], f[4], f[5])),
            gecc: (f.len() >= 7).then(|| f[6]),
            names: sargs.to_vec(),
            lights: Vec::new(),
        })
    }
}

/// Resolves every mist's source names against the scene's sources, as RADIANCE does (the last
/// source that matches a name is taken). Unknown and duplicate names are warned about, as
/// RADIANCE does; mists that list more than [`MAX_LIGHTS`] sources in all are refused.
pub(crate) fn resolve_lights(r: &mut Renderer) -> Result<(), TransportError> {
    let mists: Vec<PrimId> = (0..r.scene.prims.len() as u32)
        .filter(|&i| r.scene.prim(i).ptype == PrimType::Mist)
        .collect();
    let mut total = 0;
    for id in mists {
        let lights = mist_lights(r, id);
        total += lights.len();
        let p = r.scene.prim(id);
        if total > MAX_LIGHTS {
            return Err(TransportError::Modifier {
                loc: p.loc.to_string(),
                what: format!("mist {}", p.name),
                msg: format!(
                    "the scene's mists list more than {MAX_LIGHTS} light sources in all; \
                     daylit's media carry at most {MAX_LIGHTS}"
                ),
            });
        }
        if let Some(crate::material::Modifier::Material(Material::Mist(m))) =
            r.mods.table[id as usize].as_mut()
        {
            m.lights = lights;
        }
    }
    Ok(())
}

/// The sources mist `id` names, warning about unknown and duplicate names.
fn mist_lights(r: &Renderer, id: PrimId) -> Vec<u32> {
    let Material::Mist(m) = r.mods.material(id) else {
        return Vec::new();
    };
    let relay_name = |shape: u32| match r.compiled.origins[shape as usize] {
        daylit_compile::Origin::Prim(p) => Some(r.scene.prim(p).name.as_str()),
        daylit_compile::Origin::MeshTri { .. } => None,
    };
    let matches = |s: usize, name: &str| {
        let (mut s, mut id) = (s, name);
        while let Some((relay, rest)) = id.split_once('>') {
            let Some(rel) = r.sources[s].relay else {
                return false;
            };
            if relay_name(rel.mirror) != Some(relay) {
                return false;
            }
            s = rel.parent;
            id = rest;
        }
        let src = &r.sources[s];
        src.relay.is_none() && src.prim != u32::MAX && r.scene.prim(src.prim).name == id
    };
    let p = r.scene.prim(id);
    let mut lights = Vec::new();
    for name in &m.names {
        match (0..r.sources.len()).rev().find(|&s| matches(s, name)) {
            None => eprintln!(
                "daylit: warning: {}: mist \"{}\": unknown source \"{name}\"",
                p.loc, p.name
            ),
            Some(s) if lights.contains(&(s as u32)) => eprintln!(
                "daylit: warning: {}: mist \"{}\": duplicate source \"{name}\"",
                p.loc, p.name
            ),
            Some(s) => lights.push(s as u32),
        }
    }
    lights
}

impl Renderer {
    /// Where the scene's participating medium comes from, if it has one: the first `mist`
    /// (file, line, name) or the `-me` option.
    pub fn medium_location(&self) -> Option<String> {
        if let Some(p) = self.scene.prims.iter().find(|p| p.ptype == PrimType::Mist) {
            return Some(format!("{}: mist {}", p.loc, p.name));
        }
        (self.opts.me.max_element() > 0.0).then(|| "option -me (global medium)".to_string())
    }

    /// A primary ray in the global medium (`-me -ma -mg`).
    pub(crate) fn primary_state(&self, org: DVec3, dir: DVec3) -> RayState {
        let mut r = RayState::primary(org, dir);
        r.cext = self.opts.me;
        r.scatter.albedo = self.opts.ma;
        r.scatter.gecc = self.opts.mg;
        r
    }

    /// A ray meeting a `mist` boundary (RADIANCE's `m_mist`): it goes on unchanged in
    /// direction, in the medium on the other side.
    pub(crate) fn shade_mist(
        &self,
        r: &RayState,
        s: &Surf,
        m: &Mist,
        pcol: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let mext = m.ext * pcol;
        let Some((mut p, _)) = self.spawn(r, s, TRANS, None, ctx) else {
            return DVec3::ZERO;
        };
        let mut fix = None;
        if s.rod > 0.0 {
            // Entering.
            p.cext += mext;
            if let Some(a) = m.albedo {
                p.scatter.albedo = a;
            }
            if let Some(g) = m.gecc {
                p.scatter.gecc = g;
            }
            p.scatter.lights.add(&m.lights);
        } else {
            // Leaving; a ray that never entered learns the medium it came through.
            let mut cext = r.cext;
            let removed = p.scatter.lights.remove(&m.lights);
            if removed < m.lights.len() {
                let mut sc = r.scatter;
                cext += mext;
                if let Some(a) = m.albedo {
                    sc.albedo = a;
                }
                if let Some(g) = m.gecc {
                    sc.gecc = g;
                }
                sc.lights.add(&m.lights);
                fix = Some((cext, sc));
            }
            p.cext = (cext - mext).max(self.opts.me);
            if m.albedo.is_some() {
                p.scatter.albedo = self.opts.ma;
            }
            if m.gecc.is_some() {
                p.scatter.gecc = self.opts.mg;
            }
        }
        let v = self.trace(&p, ctx);
        if let Some((cext, sc)) = fix {
            ctx.medium = Some(cext);
            ctx.scatter = Some(sc);
        }
        ctx.z.passed(&v, DVec3::ONE);
        v.value
    }

    /// The medium's effect on a ray of value `value` that travelled `dist` (RADIANCE's
    /// `rayparticipate`): extinction, ambient and source in-scattering.
    pub(crate) fn participate(
        &self,
        r: &RayState,
        cext: DVec3,
        sc: &Scatter,
        value: DVec3,
        dist: f64,
        ctx: &mut Ctx,
    ) -> DVec3 {
        if cext.max_element() <= 1.0 / FHUGE {
            return value;
        }
        let mut e = cext * dist;
        if r.is_shadow() {
            e *= DVec3::ONE - sc.albedo;
        }
        let ce = DVec3::new(extinct(e.x), extinct(e.y), extinct(e.z));
        let mut v = value * ce;
        if r.is_shadow() || sc.albedo.max_element() <= FTINY {
            return v;
        }
        v += sc.albedo * self.opts.av * (DVec3::ONE - ce);
        v + self.scatter_in(r, cext, sc, dist, ctx)
    }

    /// Light of the ray's listed sources scattered into it along `dist` (RADIANCE's
    /// `srcscatter`).
    fn scatter_in(
        &self,
        r: &RayState,
        cext: DVec3,
        sc: &Scatter,
        dist: f64,
        ctx: &mut Ctx,
    ) -> DVec3 {
        if dist >= FHUGE * 0.99 || sc.gecc >= 1.0 - FTINY || sc.lights.is_empty() {
            return DVec3::ZERO;
        }
        if ctx.collect.is_some() || (ctx.indirect_only && r.crtype & AMBIENT == 0) {
            return DVec3::ZERO;
        }
        let o = &self.opts;
        let nsamps = if o.ms <= FTINY {
            1
        } else {
            ((dist / o.ms + 0.5) as usize).clamp(1, MAX_SCATTER_SAMPLES)
        };
        let g = sc.gecc;
        let mut out = DVec3::ZERO;
        let mut samples = Vec::new();
        for &si in sc.lights.as_slice() {
            let src = &self.sources[si as usize];
            for j in 0..nsamps {
                let t = dist * (j as f64 + ctx.rng.random::<f64>()) / nsamps as f64;
                let e = cext * t;
                let cv = DVec3::new(extinct(e.x), extinct(e.y), extinct(e.z));
                if cv.max_element() <= FTINY * FTINY {
                    break;
                }
                let point = r.org + r.dir * t;
                samples.clear();
                src.samples(point, 1.0, 0.0, o.dj, &mut ctx.rng, &mut samples);
                let Some(smp) = samples.first().copied() else {
                    continue;
                };
                let mut sr = RayState::primary(point, smp.dir);
                sr.rtype = SHADOW;
                sr.crtype = SHADOW;
                sr.rsrc = Some(si);
                sr.cext = cext;
                sr.scatter = *sc;
                let val = self.trace(&sr, ctx).value;
                if bright(val) <= FTINY {
                    continue;
                }
                let phase = if g <= FTINY {
                    1.0
                } else {
                    let d = 1.0 + g * g - 2.0 * g * r.dir.dot(smp.dir);
                    (1.0 - g * g) / (d * d.sqrt())
                };
                let k = phase * smp.omega * dist / (4.0 * std::f64::consts::PI * nsamps as f64);
                out += val * k * cext * sc.albedo * cv;
            }
        }
        out
    }
}

/// `exp(-x)` as RADIANCE's media take it (1 below FTINY, 0 beyond 92).
fn extinct(x: f64) -> f64 {
    if x <= FTINY {
        1.0
    } else if x > 92.0 {
        0.0
    } else {
        (-x).exp()
    }
}
