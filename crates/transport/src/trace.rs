//! Following a ray: intersection, the hit surface's modifiers, and the materials that are not
//! RADIANCE's "normal" ones (`glass`, `dielectric`, `mirror`, the emitters, `antimatter`).

use crate::clip::Antimatter;
use crate::contrib::BinRay;
use crate::material::{LightKind, Material, Mixture, Modifier};
use crate::ray::{bright, perturbed, rtype::*, Beyond, Radiance, RayState, Surf, FHUGE};
use crate::{Ctx, Renderer, ShapeMod};
use daylit_geometry::{Ray, Tracer, FTINY};
use daylit_scene::PrimId;
use glam::DVec3;
use rand::Rng;

/// Longest modifier chain followed (guards against a cycle).
const MAX_CHAIN: usize = 1000;

impl Renderer {
    /// Starts a ray of type `rt` from `parent`'s hit point with coefficient `coef` (`None`: a
    /// straight continuation). Applies RADIANCE's limits: returns `None` when the ray is not
    /// traced, else the ray and its (possibly promoted) coefficient.
    pub(crate) fn spawn(
        &self,
        parent: &RayState,
        s: &Surf,
        rt: u16,
        coef: Option<DVec3>,
        ctx: &mut Ctx,
    ) -> Option<(RayState, DVec3)> {
        let (mut r, c) = self.spawn_limited(parent, s, rt, coef, ctx)?;
        r.coef = parent.coef * c;
        Some((r, c))
    }

    fn spawn_limited(
        &self,
        parent: &RayState,
        s: &Surf,
        rt: u16,
        coef: Option<DVec3>,
        ctx: &mut Ctx,
    ) -> Option<(RayState, DVec3)> {
        let (rw, mut c) = match coef {
            None => (1.0, DVec3::ONE),
            Some(c) => (c.max_element().min(1.0), c),
        };
        let mut r = RayState {
            org: s.point,
            dir: parent.dir,
            weight: parent.weight * rw,
            level: parent.level + u32::from(rt & RAYREFL != 0),
            rtype: rt,
            crtype: parent.crtype | rt,
            rsrc: if rt & RAYREFL != 0 { None } else { parent.rsrc },
            adepth: parent.adepth,
            cext: parent.cext,
            from: s.shape.filter(|_| s.flat),
            primary_dist: parent.primary_dist,
            coef: parent.coef,
            clip: parent.clip,
            scatter: parent.scatter,
        };
        if parent.cext.max_element() > 0.0 {
            let re = parent.cext.min_element() * s.t;
            if re > 0.1 {
                r.weight = if re > 92.0 {
                    0.0
                } else {
                    r.weight * (-re).exp()
                };
            }
        }
        if r.crtype & PRIMARY != 0 && rt == TRANS {
            r.primary_dist += s.t;
        }
        if r.weight <= 0.0 {
            return None;
        }
        if r.crtype & SHADOW != 0 {
            return Some((r, c));
        }
        let o = &self.opts;
        if (o.lr <= 0 || o.daylit_roulette()) && coef.is_some() {
            // Russian roulette, with a hard limit at |-lr| unless it is 0. daylit's `-aa 0`
            // estimator always uses it: ending rays below `-lw` loses their light.
            if o.lr != 0 && r.level > o.lr.unsigned_abs() {
                return None;
            }
            if r.weight >= o.lw {
                return Some((r, c));
            }
            if ctx.rng.random::<f64>() > r.weight / o.lw {
                return None;
            }
            c *= o.lw / r.weight;
            r.weight = o.lw;
            return Some((r, c));
        }
        if r.weight >= o.lw && r.level <= o.lr.unsigned_abs() {
            Some((r, c))
        } else {
            None
        }
    }

    /// Traces `r` and returns its value (RADIANCE's `rayvalue`).
    pub fn trace(&self, r: &RayState, ctx: &mut Ctx) -> Radiance {
        let hit = self.first_hit(r);
        self.trace_hit(r, hit, ctx)
    }

    /// The first surface `r` meets (never the one it left).
    pub(crate) fn first_hit(&self, r: &RayState) -> Option<daylit_geometry::Hit> {
        let ray = Ray::new(r.org, r.dir);
        let from = r.from;
        let tmin = FTINY * (1.0 + r.org.abs().max_element() * 1e-4);
        self.tracer()
            .closest_hit_filtered(&ray, tmin, FHUGE, |p| Some(p) != from)
    }

    /// [`Renderer::trace`] once the ray's first hit is known.
    pub(crate) fn trace_hit(
        &self,
        r: &RayState,
        hit: Option<daylit_geometry::Hit>,
        ctx: &mut Ctx,
    ) -> Radiance {
        // The contributing modifier slot of what the ray reached, when gathering.
        let mut slot = None;
        // Where it reached it: point, normal, distance (a distant source when `None`).
        let mut reached = None;
        let mut out = match hit {
            Some(h) => {
                let sm = self.shape_mods[h.prim as usize];
                let s = Surf {
                    point: h.point,
                    normal: h.normal,
                    rod: -r.dir.dot(h.normal),
                    t: h.t,
                    shape: Some(h.prim),
                    flat: sm.flat,
                    dir: r.dir,
                    uv: [0.0; 2],
                };
                if let Some(t) = self.contrib.as_deref() {
                    // A shadow ray counts only on the source it aims at.
                    let on_source = r
                        .rsrc
                        .is_none_or(|i| self.sources[i as usize].shape == Some(h.prim));
                    slot = Some(t.shape_slot[h.prim as usize]).filter(|_| on_source);
                    reached = Some((h.point, h.normal, h.t));
                }
                ctx.medium = None;
                ctx.scatter = None;
                let hidden = (!r.clip.is_empty())
                    .then(|| self.shape_modifier(h.prim as usize))
                    .flatten()
                    .filter(|&m| r.clip.hides(Some(m)));
                // This ray's record; the parent's is put back after.
                let parent = std::mem::take(&mut ctx.z);
                let value = match hidden {
                    // Cut away by antimatter: pass through, counting the crossing.
                    Some(m) => {
                        slot = None;
                        let mut through = *r;
                        through.clip.cross(m, s.rod > 0.0);
                        self.raytrans(&through, &s, ctx)
                    }
                    // No material: RADIANCE's rayshade finds none and the ray goes on.
                    None if sm.material.is_none() && sm.mixed.is_none() => {
                        self.raytrans(r, &s, ctx)
                    }
                    None => self.shade(r, &s, sm, ctx),
                };
                std::mem::replace(&mut ctx.z, parent).at(value, h.t)
            }
            None => {
                let parent = std::mem::take(&mut ctx.z);
                let (value, src) = self.source_hit(r, ctx);
                if let (Some(t), Some(i)) = (self.contrib.as_deref(), src) {
                    slot = Some(t.source_slot[i]);
                }
                let z = std::mem::replace(&mut ctx.z, parent);
                Radiance {
                    value,
                    dist: FHUGE,
                    extent: FHUGE,
                    mirror: z.mirror,
                    mirror_dist: FHUGE,
                }
            }
        };
        if let Some(k) = slot.filter(|&k| k != u32::MAX) {
            let (point, normal, dist) = reached.unwrap_or((r.org + r.dir * FHUGE, -r.dir, FHUGE));
            let at = BinRay {
                org: r.org,
                dir: r.dir,
                point,
                normal,
                dist,
            };
            self.record(r, &at, k, out.value, ctx);
        }
        let cext = ctx.medium.take().unwrap_or(r.cext);
        let scatter = ctx.scatter.take().unwrap_or(r.scatter);
        if cext.max_element() > 0.0 {
            out.value = self.participate(r, cext, &scatter, out.value, out.dist, ctx);
        }
        out
    }

    /// A ray that hit no surface: the value of the distant source in its direction, as
    /// `sourcehit` picks it, and which source that is.
    fn source_hit(&self, r: &RayState, ctx: &mut Ctx) -> (DVec3, Option<usize>) {
        let s = |_: usize| Surf {
            point: r.org,
            normal: -r.dir,
            rod: 1.0,
            t: FHUGE,
            shape: None,
            flat: true,
            dir: r.dir,
            uv: [0.0; 2],
        };
        if let Some(i) = r.rsrc {
            let src = &self.sources[i as usize];
            if src.relay.is_none() && src.contains_dir(r.dir) {
                let i = i as usize;
                return (self.shade(r, &s(i), self.source_mods[i], ctx), Some(i));
            }
            return (DVec3::ZERO, None);
        }
        let mut glow = None;
        let mut trans_illum = false;
        for (i, src) in self.sources.iter().enumerate() {
            if src.relay.is_some() || !src.is_distant() || !src.contains_dir(r.dir) {
                continue;
            }
            if src.skip {
                glow.get_or_insert(i);
                continue;
            }
            if let Material::Light {
                kind: LightKind::Illum(None),
                ..
            } = self.mods.material(src.material)
            {
                trans_illum = true;
                continue;
            }
            return (self.shade(r, &s(i), self.source_mods[i], ctx), Some(i));
        }
        if trans_illum && r.crtype & (AMBIENT | SPECULAR) != 0 {
            return (DVec3::ZERO, None);
        }
        match glow {
            Some(i) => (self.shade(r, &s(i), self.source_mods[i], ctx), Some(i)),
            None => (DVec3::ZERO, None),
        }
    }

    /// Shades a hit with its modifiers (RADIANCE's `rayshade`).
    pub(crate) fn shade(&self, r: &RayState, s: &Surf, sm: ShapeMod, ctx: &mut Ctx) -> DVec3 {
        let mut pcol = DVec3::ONE;
        let mut pert = DVec3::ZERO;
        let on_mesh;
        let s = match self.mesh_point(s) {
            Some((m, p)) => {
                pert = p;
                on_mesh = m;
                &on_mesh
            }
            None => s,
        };
        // A surface without a material (`void`, or patterns alone) is not there: RADIANCE's
        // rayshade finds no material and the ray goes on through it.
        if let Some(first) = sm.mixed {
            return match self.shade_chain(r, s, Some(first), &mut pcol, &mut pert, ctx) {
                Some(v) => v,
                None => self.raytrans(r, s, ctx),
            };
        }
        let Some(mat_id) = sm.material else {
            return self.raytrans(r, s, ctx);
        };
        // Geometry sampling for the irradiance cache keeps only where rays land: an emitter
        // ends the ray, so its patterns (a sky's brightness function) need not be evaluated.
        if ctx.collect.is_some()
            && matches!(
                self.mods.material(mat_id),
                Material::Light {
                    kind: LightKind::Light | LightKind::Glow(_) | LightKind::Spot(_),
                    ..
                }
            )
        {
            return DVec3::ZERO;
        }
        let (a, b) = sm.pats;
        for &p in &self.pattern_pool[a as usize..b as usize] {
            self.pattern(p)
                .apply(&self.mods.cal, &mut ctx.eval, s, &mut pcol, &mut pert);
        }
        self.shade_material(r, s, mat_id, pcol, pert, ctx)
    }

    /// At a hit on a mesh triangle whose vertices carry normals or (u,v): the hit with its
    /// local coordinates, and the interpolated normal as a perturbation of the geometric one
    /// (RADIANCE's `mesh`).
    pub(crate) fn mesh_point(&self, s: &Surf) -> Option<(Surf, DVec3)> {
        let origin = self.compiled.origins[s.shape? as usize];
        let mp = daylit_compile::mesh_point(&self.scene, origin, s.point)?;
        let pert = mp.normal.map_or(DVec3::ZERO, |n| n - s.normal);
        let uv = mp.uv.unwrap_or([0.0; 2]);
        Some((Surf { uv, ..*s }, pert))
    }

    /// Follows a modifier chain that holds mixtures, from `m`: patterns change `pcol` and
    /// `pert`, mixtures blend their two sides, and the first material shades the hit. `None`
    /// when the chain ends without a material.
    fn shade_chain(
        &self,
        r: &RayState,
        s: &Surf,
        mut m: Option<PrimId>,
        pcol: &mut DVec3,
        pert: &mut DVec3,
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        for _ in 0..MAX_CHAIN {
            let id = m?;
            match &self.mods.table[id as usize] {
                Some(Modifier::Pattern(p)) => p.apply(&self.mods.cal, &mut ctx.eval, s, pcol, pert),
                Some(Modifier::Mixture(mx)) => {
                    if self.irradiance_hack(r) {
                        return Some(self.lambertian(r, s, ctx));
                    }
                    if let Some(v) = self.mixture(r, s, mx, pcol, pert, ctx) {
                        return Some(v);
                    }
                }
                Some(Modifier::Material(_)) => {
                    // The material's own modifiers are its textures.
                    let textures = self.scene.prim(id).modifier;
                    let _ = self.shade_chain(r, s, textures, pcol, pert, ctx);
                    return Some(self.shade_material(r, s, id, *pcol, *pert, ctx));
                }
                None => return None,
            }
            m = self.scene.prim(id).modifier;
        }
        None
    }

    /// A mixture (RADIANCE's `raymixture`): both sides shaded with their share of the ray's
    /// weight; a side without a material lets its share through.
    fn mixture(
        &self,
        r: &RayState,
        s: &Surf,
        mx: &Mixture,
        pcol: &mut DVec3,
        pert: &mut DVec3,
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        let coef = mx.coefficient(&self.mods.cal, &mut ctx.eval, s);
        // Each side reports its own mirrored part and lengths, from the hit's so far.
        let preset = ctx.z;
        let side = |m: Option<PrimId>, w: f64, ctx: &mut Ctx| {
            let (mut pc, mut pt) = (*pcol, *pert);
            let mut rr = *r;
            rr.weight *= w;
            ctx.z = Beyond {
                extent_len: 0.0,
                ..preset
            };
            let v = if w > FTINY {
                self.shade_chain(&rr, s, m, &mut pc, &mut pt, ctx)
            } else {
                None
            };
            (v, pc, pt, rr, ctx.z)
        };
        let (mut fv, fpc, fpt, fr, mut fz) = side(mx.fore, coef, ctx);
        let (mut bv, bpc, bpt, br, mut bz) = side(mx.back, 1.0 - coef, ctx);
        match (fv.is_some(), bv.is_some()) {
            (false, true) if coef > FTINY => {
                ctx.z = preset;
                fv = Some(self.raytrans(&fr, s, ctx));
                fz = ctx.z;
            }
            (true, false) if coef < 1.0 - FTINY => {
                ctx.z = preset;
                bv = Some(self.raytrans(&br, s, ctx));
                bz = ctx.z;
            }
            _ => {}
        }
        *pert = fpt * coef + bpt * (1.0 - coef);
        *pcol = fpc * coef + bpc * (1.0 - coef);
        if fv.is_none() && bv.is_none() {
            ctx.z = preset;
            return None;
        }
        let (fv, bv) = (
            fv.unwrap_or(DVec3::ZERO) * coef,
            bv.unwrap_or(DVec3::ZERO) * (1.0 - coef),
        );
        // The side whose mirrored part is brighter gives the mirror length, the side whose
        // unmirrored part is brighter the effective length (RADIANCE's `raymixture`).
        let (fm, bm) = (fz.mirror * coef, bz.mirror * (1.0 - coef));
        let (mfore, mback) = (bright(fm), bright(bm));
        ctx.z = Beyond {
            mirror: fm + bm,
            mirror_len: if mfore > mback {
                fz.mirror_len
            } else {
                bz.mirror_len
            },
            extent_len: if bright(fv) - mfore > bright(bv) - mback {
                fz.extent_len
            } else {
                bz.extent_len
            },
        };
        Some(fv + bv)
    }

    /// Is this a ray the `-i` option turns surfaces white for (primary, or seen through
    /// transparent surfaces)?
    fn irradiance_hack(&self, r: &RayState) -> bool {
        self.opts.irradiance && r.crtype & !(PRIMARY | TRANS) == 0
    }

    /// Shades a hit with material `mat_id`, after its patterns.
    fn shade_material(
        &self,
        r: &RayState,
        s: &Surf,
        mat_id: PrimId,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let mat = self.mods.material(mat_id);
        // The -i irradiance hack: opaque, non-emitting surfaces seen by primary rays become
        // white Lambertian.
        if self.irradiance_hack(r) {
            match mat {
                Material::Light { .. } | Material::Antimatter(_) => {}
                Material::Glass { .. } | Material::Dielectric { .. } | Material::Mist(_) => {
                    return self.raytrans(r, s, ctx)
                }
                Material::Normal { trans, .. } if *trans > 0.0 => return self.raytrans(r, s, ctx),
                Material::Brtd(b) if b.transparent => return self.raytrans(r, s, ctx),
                Material::Wgmd(w) if w.transparent => return self.raytrans(r, s, ctx),
                Material::Bsdf(b) if b.aperture => return self.raytrans(r, s, ctx),
                _ => return self.lambertian(r, s, ctx),
            }
        }
        match mat {
            Material::Normal { .. } => self.shade_normal(r, s, mat, pcol, pert, ctx),
            Material::Glass { color, rindex } => {
                self.shade_glass(r, s, *color, *rindex, pcol, pert, ctx)
            }
            Material::Dielectric {
                color,
                rindex,
                front,
            } => self.shade_dielectric(r, s, (*color, *rindex), *front, pcol, pert, ctx),
            Material::Mirror { color, alternate } => {
                self.shade_mirror(r, s, *color, *alternate, pcol, pert, ctx)
            }
            Material::Light { kind, color } => self.shade_light(r, s, *kind, *color, pcol, ctx),
            Material::Antimatter(None) => self.raytrans(r, s, ctx),
            Material::Antimatter(Some(a)) => self.shade_antimatter(r, s, a, ctx),
            Material::Func(m) => self.shade_funcmat(r, s, m, pcol, pert, ctx),
            Material::Brtd(m) => self.shade_brtdfunc(r, s, m, pcol, pert, ctx),
            Material::Ashik(m) => self.shade_ashik(r, s, m, pcol, pert, ctx),
            Material::Prism(p) => self.shade_prism(r, s, p, ctx),
            Material::Mist(m) => self.shade_mist(r, s, m, pcol, ctx),
            Material::Wgmd(m) => self.shade_wgmd(r, s, m, pcol, pert, ctx),
            Material::Bsdf(m) => self.shade_bsdf(r, s, m, pcol, pert, ctx),
        }
    }

    /// An antimatter surface (RADIANCE's `m_clip`): the ray's clip set grows on the way in and
    /// shrinks on the way out; leaving inside a cut solid shows the solid's inside face.
    fn shade_antimatter(&self, r: &RayState, s: &Surf, a: &Antimatter, ctx: &mut Ctx) -> DVec3 {
        if let Some(m) = a.shade {
            if r.clip.inside(&a.set) > 0 {
                let flipped = Surf {
                    normal: -s.normal,
                    rod: -s.rod,
                    ..*s
                };
                let (mut pcol, mut pert) = (DVec3::ONE, DVec3::ZERO);
                return self
                    .shade_chain(r, &flipped, Some(m), &mut pcol, &mut pert, ctx)
                    .unwrap_or(DVec3::ZERO);
            }
        }
        let through = RayState {
            clip: r.clip.through(&a.set, s.rod > 0.0),
            ..*r
        };
        self.raytrans(&through, s, ctx)
    }

    /// The hit turned to face the ray, with its texture perturbation, for the materials that
    /// shade both sides alike; from behind with `-bv-`, `Err` holds the value of the ray
    /// continued through the surface instead (RADIANCE's back-face visibility).
    pub(crate) fn facing(
        &self,
        r: &RayState,
        s: &Surf,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> Result<(Surf, DVec3), DVec3> {
        if s.rod >= 0.0 {
            return Ok((*s, pert));
        }
        if !self.opts.backvis {
            return Err(self.raytrans(r, s, ctx));
        }
        let flipped = Surf {
            normal: -s.normal,
            rod: -s.rod,
            ..*s
        };
        Ok((flipped, -pert))
    }

    /// Continues the ray through the surface unchanged (RADIANCE's `raytrans`); what lies
    /// behind becomes this hit's mirrored part and lengths.
    pub(crate) fn raytrans(&self, r: &RayState, s: &Surf, ctx: &mut Ctx) -> DVec3 {
        let v = match self.spawn(r, s, TRANS, None, ctx) {
            Some((tr, _)) => self.trace(&tr, ctx),
            None => Radiance::default(),
        };
        ctx.z.passed(&v, DVec3::ONE);
        v.value
    }

    /// [`Renderer::shade`] of a hit met on the way to a source while another hit is being
    /// shaded: that hit's mirrored part and lengths are left alone.
    pub(crate) fn shade_apart(&self, r: &RayState, s: &Surf, sm: ShapeMod, ctx: &mut Ctx) -> DVec3 {
        let parent = std::mem::take(&mut ctx.z);
        let v = self.shade(r, s, sm, ctx);
        ctx.z = parent;
        v
    }

    /// White Lambertian shading for `-i` and `-I`: like RADIANCE, reflectance π, so the
    /// result is irradiance and child rays carry π times the weight of a white surface.
    pub(crate) fn lambertian(&self, r: &RayState, s: &Surf, ctx: &mut Ctx) -> DVec3 {
        let white = Material::Normal {
            kind: crate::material::NormalKind::Plastic,
            color: DVec3::splat(std::f64::consts::PI),
            spec: 0.0,
            rough: 0.0,
            trans: 0.0,
            tspec: 0.0,
            aniso: None,
        };
        self.shade_normal(r, s, &white, DVec3::ONE, DVec3::ZERO, ctx)
    }

    /// The alternate material `m` of an `illum` or `mirror`, shaded without the original's
    /// patterns.
    fn alternate(&self, m: u32, s: &Surf) -> ShapeMod {
        ShapeMod {
            material: self.mods.resolve(&self.scene, Some(m), &mut Vec::new()),
            pats: (0, 0),
            flat: s.flat,
            mixed: self.mods.has_mixture(&self.scene, Some(m)).then_some(m),
        }
    }

    /// Is the source the ray aims at this surface?
    fn aimed_at(&self, r: &RayState, s: &Surf) -> Option<bool> {
        let i = r.rsrc? as usize;
        let src = &self.sources[i];
        Some(match (src.relay, s.shape) {
            (Some(rel), Some(sh)) => rel.mirror == sh,
            (Some(_), None) => false,
            (None, Some(sh)) => src.shape == Some(sh),
            (None, None) => src.is_distant(),
        })
    }

    fn shade_light(
        &self,
        r: &RayState,
        s: &Surf,
        kind: LightKind,
        color: DVec3,
        pcol: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let glow_far = |d: f64| matches!(kind, LightKind::Glow(rad) if rad >= -FTINY && d > rad);
        // Ambient and specular samples must not count sources the direct calculation counts.
        if r.crtype & (AMBIENT | SPECULAR) != 0 && !(r.is_shadow() || s.rod < 0.0 || glow_far(s.t))
        {
            return DVec3::ZERO;
        }
        let aimed = self.aimed_at(r, s);
        let virtual_aim = r
            .rsrc
            .is_some_and(|i| self.sources[i as usize].relay.is_some());
        if aimed == Some(false) {
            let illum_blocks = !virtual_aim && s.rod > 0.0 && {
                let m = self
                    .mods
                    .material(self.sources[r.rsrc.unwrap_or(0) as usize].material);
                matches!(
                    m,
                    Material::Light {
                        kind: LightKind::Illum(_) | LightKind::Glow(_),
                        ..
                    }
                )
            };
            if !matches!(kind, LightKind::Illum(_)) || illum_blocks {
                return DVec3::ZERO;
            }
        }
        if let LightKind::Illum(alt) = kind {
            if aimed != Some(true) || virtual_aim {
                return match alt {
                    Some(m) => self.shade(r, s, self.alternate(m, s), ctx),
                    None => self.raytrans(r, s, ctx),
                };
            }
        }
        if !(self.opts.dv || r.is_shadow() || glow_far(r.primary_dist + s.t)) {
            return DVec3::ZERO;
        }
        if s.rod < 0.0 {
            return if self.opts.backvis {
                DVec3::ZERO
            } else {
                self.raytrans(r, s, ctx)
            };
        }
        if let LightKind::Spot(sp) = kind {
            if sp.outside(r.dir) {
                return DVec3::ZERO;
            }
        }
        // Emitters seen along the primary path belong to the direct frame. Shadow rays start
        // afresh (no ambient flag) but only ambient descendants cast them in this mode.
        if ctx.indirect_only && r.crtype & AMBIENT == 0 && !r.is_shadow() {
            return DVec3::ZERO;
        }
        color * pcol
    }

    #[allow(clippy::too_many_arguments)]
    fn shade_glass(
        &self,
        r: &RayState,
        s: &Surf,
        color: DVec3,
        rindex: f64,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        if !self.opts.backvis && s.rod <= 0.0 {
            return self.raytrans(r, s, ctx);
        }
        let hastrans = color.max_element() > 1e-15 || color.x + color.y + color.z > 1e-15;
        if !hastrans && r.is_shadow() {
            return DVec3::ZERO;
        }
        let mut s = *s;
        let mut pert = pert;
        if s.rod < 0.0 {
            s.normal = -s.normal;
            s.rod = -s.rod;
            pert = -pert;
        }
        let (pnorm, pdot) = perturbed(&s, pert);
        let hastexture = pert.length_squared() > FTINY * FTINY;
        let n2 = rindex * rindex;
        let cos2 = ((1.0 - 1.0 / n2) + pdot * pdot / n2).sqrt();
        let mc = color.max(DVec3::splat(1e-15));
        let mc = DVec3::new(
            mc.x.powf(1.0 / cos2),
            mc.y.powf(1.0 / cos2),
            mc.z.powf(1.0 / cos2),
        );
        let r1e = ((pdot - rindex * cos2) / (pdot + rindex * cos2)).powi(2);
        let r1m = ((1.0 / pdot - rindex / cos2) / (1.0 / pdot + rindex / cos2)).powi(2);
        let mut col = DVec3::ZERO;
        if hastrans {
            let t = |d: f64| {
                0.5 * (1.0 - r1e).powi(2) * d / (1.0 - r1e * r1e * d * d)
                    + 0.5 * (1.0 - r1m).powi(2) * d / (1.0 - r1m * r1m * d * d)
            };
            let coef = DVec3::new(t(mc.x), t(mc.y), t(mc.z)) * pcol;
            if let Some((mut p, c)) = self.spawn(r, &s, TRANS, Some(coef), ctx) {
                if hastexture && r.crtype & (SHADOW | AMBIENT) == 0 {
                    let d = r.dir + pert * (2.0 * (1.0 - rindex));
                    p.dir = if d.length_squared() > 0.0 {
                        d.normalize()
                    } else {
                        r.dir
                    };
                }
                let v = self.trace(&p, ctx);
                col += v.value * c;
                if !hastexture || r.crtype & (SHADOW | AMBIENT) != 0 {
                    ctx.z.seen_through(&v, c);
                }
            }
        }
        if r.is_shadow() {
            return col;
        }
        let rf = |d: f64| {
            let d = d * d;
            0.5 * r1e * (1.0 + (1.0 - 2.0 * r1e) * d) / (1.0 - r1e * r1e * d)
                + 0.5 * r1m * (1.0 + (1.0 - 2.0 * r1m) * d) / (1.0 - r1m * r1m * d)
        };
        let coef = DVec3::new(rf(mc.x), rf(mc.y), rf(mc.z));
        if let Some((mut p, c)) = self.spawn(r, &s, REFLECTED, Some(coef), ctx) {
            p.dir = (r.dir + pnorm * (2.0 * pdot)).normalize();
            let v = self.trace(&p, ctx);
            col += v.value * c;
            let image = s.flat && (!hastexture || r.crtype & AMBIENT != 0);
            ctx.z.reflected(&v, c, image);
        }
        col
    }

    /// `dielectric` and `interface`: `inside` is the medium behind the surface (transmission
    /// per metre, index), `front` the one in front (`None`: clear air).
    #[allow(clippy::too_many_arguments)]
    fn shade_dielectric(
        &self,
        r: &RayState,
        s: &Surf,
        inside: (DVec3, f64),
        front: Option<(DVec3, f64)>,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let (mut dnorm, mut cos1) = perturbed(s, pert);
        let hastexture = pert.length_squared() > FTINY * FTINY;
        // Lengths go on through a flat untextured surface (and through any surface between
        // equal indices); RADIANCE's `flatsurface`.
        let flatsurface = s.flat && (!hastexture || r.crtype & AMBIENT != 0);
        let absorb = |c: DVec3| {
            let l = |x: f64| {
                if x <= 1e-44 {
                    100.0
                } else if x >= 1.0 {
                    0.0
                } else {
                    -x.ln()
                }
            };
            DVec3::new(l(c.x), l(c.y), l(c.z))
        };
        let (front_cext, front_n) = match front {
            Some((c, n)) => (absorb(c * pcol), n),
            None => (DVec3::ZERO, 1.0),
        };
        let mut nratio = inside.1 / front_n;
        // The extinctions of the medium the ray came through and of the one the refracted
        // ray enters (a dielectric leaves the ray's own medium alone when hit from outside).
        let (cext_in, cext_out);
        if cos1 < 0.0 {
            cos1 = -cos1;
            dnorm = -dnorm;
            (cext_in, cext_out) = (absorb(inside.0 * pcol), front_cext);
        } else {
            nratio = 1.0 / nratio;
            let came = if front.is_some() { front_cext } else { r.cext };
            (cext_in, cext_out) = (came, absorb(inside.0 * pcol));
        }
        let r = &RayState {
            cext: cext_in,
            ..*r
        };
        let mut col = DVec3::ZERO;
        let d2 = 1.0 - nratio * nratio * (1.0 - cos1 * cos1);
        let refl = if d2 < FTINY {
            1.0
        } else {
            let cos2 = d2.sqrt();
            let a = (cos1 - nratio * cos2) / (cos1 + nratio * cos2);
            let b = (1.0 / cos1 - nratio / cos2) / (1.0 / cos1 + nratio / cos2);
            let refl = 0.5 * (a * a + b * b);
            let trans = (1.0 - refl) * nratio * nratio;
            // The refracted ray leaves this surface into the other medium.
            if let Some((mut p, c)) = self.spawn(r, s, REFRACTED, Some(DVec3::splat(trans)), ctx) {
                p.dir = (r.dir * nratio + dnorm * (nratio * cos1 - cos2)).normalize();
                p.cext = cext_out;
                let v = self.trace(&p, ctx);
                col += v.value * c;
                if flatsurface || (nratio - 1.0).abs() <= FTINY {
                    ctx.z.seen_through(&v, c);
                }
            }
            refl
        };
        if !r.is_shadow() {
            if let Some((mut p, c)) = self.spawn(r, s, REFLECTED, Some(DVec3::splat(refl)), ctx) {
                p.dir = (r.dir + dnorm * (2.0 * cos1)).normalize();
                let v = self.trace(&p, ctx);
                col += v.value * c;
                ctx.z.reflected(&v, c, flatsurface);
            }
        }
        ctx.medium = Some(cext_in);
        col
    }

    #[allow(clippy::too_many_arguments)]
    fn shade_mirror(
        &self,
        r: &RayState,
        s: &Surf,
        color: DVec3,
        alternate: Option<Option<u32>>,
        pcol: DVec3,
        pert: DVec3,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let aimed = self.aimed_at(r, s);
        if let Some(alt) = alternate {
            if aimed != Some(true) {
                let pass_ok = s.rod < 0.0 || r.crtype & (AMBIENT | SPECULAR) == 0;
                match alt {
                    Some(m) => {
                        let sm = self.alternate(m, s);
                        let material = sm.material;
                        let transparent = material.is_some_and(|id| {
                            matches!(
                                self.mods.material(id),
                                Material::Glass { .. } | Material::Dielectric { .. }
                            ) || matches!(self.mods.material(id), Material::Normal { trans, .. } if *trans > 0.0)
                                || matches!(self.mods.material(id), Material::Brtd(b) if b.transparent)
                                || matches!(self.mods.material(id), Material::Wgmd(w) if w.transparent)
                                || matches!(self.mods.material(id), Material::Bsdf(b) if b.aperture)
                        });
                        if pass_ok || transparent {
                            return self.shade(r, s, sm, ctx);
                        }
                        if material.is_none() {
                            return DVec3::ZERO;
                        }
                    }
                    None if pass_ok => return self.raytrans(r, s, ctx),
                    None => {}
                }
            }
        }
        if aimed == Some(false) {
            return DVec3::ZERO;
        }
        if s.rod < 0.0 {
            return if self.opts.backvis {
                DVec3::ZERO
            } else {
                self.raytrans(r, s, ctx)
            };
        }
        let mcolor = color * pcol;
        let Some((mut nr, c)) = self.spawn(r, s, REFLECTED, Some(mcolor), ctx) else {
            return DVec3::ZERO;
        };
        nr.dir = (r.dir + s.normal * (2.0 * s.rod)).normalize();
        if let Some(i) = r.rsrc {
            // Relaying a virtual source: aim on at the source it mirrors.
            nr.rsrc = self.sources[i as usize].relay.map(|rel| rel.parent as u32);
        }
        let v = self.trace(&nr, ctx);
        // RADIANCE bends an ordinary reflection by a texture (not a relayed one, nor an
        // ambient ray's), and then shows no virtual image.
        let textured =
            r.rsrc.is_none() && r.crtype & AMBIENT == 0 && pert.length_squared() > FTINY * FTINY;
        ctx.z.reflected(&v, c, !textured && s.flat);
        v.value * c
    }

    /// The radiance along a primary ray from `org` in unit direction `dir`.
    pub fn radiance(&self, org: DVec3, dir: DVec3, ctx: &mut Ctx) -> Radiance {
        self.trace(&self.primary_state(org, dir), ctx)
    }

    /// The radiance along a ray that is a specular sample (RADIANCE's `PRIMARY|SPECULAR`, as
    /// mkillum traces): light sources it or its specular descendants meet do not count, the
    /// light they shed on surfaces does.
    pub fn specular_radiance(&self, org: DVec3, dir: DVec3, ctx: &mut Ctx) -> DVec3 {
        let mut r = self.primary_state(org, dir);
        r.rtype = PRIMARY | SPECULAR;
        r.crtype = r.rtype;
        self.trace(&r, ctx).value
    }

    /// What reaches `org` from far away along unit `dir` on a shadow ray: opaque surfaces
    /// block it, transparent ones (glass, dielectrics, specular transmission) pass their
    /// transmittance, and a distant source in that direction gives its radiance. Under a
    /// sky sender of radiance 1 this is the beam transmittance toward the sun.
    pub fn shadow_value(&self, org: DVec3, dir: DVec3, ctx: &mut Ctx) -> DVec3 {
        let mut r = self.primary_state(org, dir);
        r.rtype = RSHADOW;
        r.crtype = RSHADOW;
        self.trace(&r, ctx).value
    }

    /// Irradiance at `org` on a surface facing unit `normal` (rtrace's `-I`).
    pub fn irradiance(&self, org: DVec3, normal: DVec3, ctx: &mut Ctx) -> DVec3 {
        let r = self.primary_state(org + normal, -normal);
        let s = Surf {
            point: org,
            normal,
            rod: 1.0,
            t: 1.0,
            shape: None,
            flat: true,
            dir: -normal,
            uv: [0.0; 2],
        };
        self.lambertian(&r, &s, ctx)
    }

    /// Source geometry helper for tests and reports.
    pub fn source_count(&self) -> (usize, usize) {
        let virt = self.sources.iter().filter(|s| s.relay.is_some()).count();
        (self.sources.len() - virt, virt)
    }
}
