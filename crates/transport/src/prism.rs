//! Prismatic glazing: RADIANCE's `prism1` and `prism2` materials, which send a ray on in one
//! or two directions computed by `.cal` functions, each with its own coefficient, and the
//! virtual light sources they make for the direct calculation (`-dr`).
//!
//! String arguments: `coef dx dy dz` once (`prism1`) or twice (`prism2`), the function file,
//! then a transform; real arguments are the functions' `arg(n)`. The functions see the ray
//! in the material's frame; `DxA DyA DzA` are the direction to the source a shadow ray is
//! relayed to (0 for other rays).
//!
//! Shading (RADIANCE's `m_direct`): a shadow ray aimed at a virtual source of this surface is
//! redirected by that source's projection towards its parent source; a shadow ray aimed at
//! any other source is stopped; every other ray is sent on in each direction with its
//! coefficient. Patterns on a prism are ignored, as in RADIANCE.
//!
//! Virtual sources (RADIANCE's `dir_proj`): the ray from a source through the centre of the
//! surface's bounding disc is redirected by the functions; the shear (with a reflection when
//! the new direction crosses the plane) that takes the old direction to the new one, fixing
//! the surface's plane, maps the source to its virtual image ([`crate::source::Projection`]).

use crate::material::{FuncFrame, Material};
use crate::ray::{rtype::TRANS, RayState, Surf, FHUGE};
use crate::source::{Projection, Relay, SourceGeom};
use crate::{Ctx, Renderer};
use daylit_cal::{CalEnv, EvalState, ExprId, RayVar};
use daylit_geometry::{Ray, Shape, FTINY};
use glam::DVec3;

/// A `prism1` (one direction) or `prism2` (two directions).
#[derive(Clone, Debug)]
pub struct Prism {
    /// Per direction: the coefficient and the three direction components.
    pub dirs: Vec<[ExprId; 4]>,
    /// Where the functions are evaluated.
    pub frame: FuncFrame,
}

impl Prism {
    /// Direction `k`'s coefficient and unit world direction at hit `s`; `toward` is the
    /// direction to the source a shadow ray is relayed to (`DxA DyA DzA`). `None` where the
    /// functions fail (RADIANCE's "compute error") or give no direction.
    pub fn redirect(
        &self,
        cal: &CalEnv,
        st: &mut EvalState,
        s: &Surf,
        k: usize,
        toward: Option<DVec3>,
    ) -> Option<(f64, DVec3)> {
        let mut ray = self.frame.ray(s);
        if let Some(t) = toward {
            let inv = &self.frame.inv;
            let a = inv.m.transform_vector3(t) / inv.scale.abs();
            ray.set(RayVar::DxA, a.x);
            ray.set(RayVar::DyA, a.y);
            ray.set(RayVar::DzA, a.z);
        }
        let e = &self.dirs[k];
        let coef = cal.eval_expr(e[0], st, &ray);
        let d = DVec3::new(
            cal.eval_expr(e[1], st, &ray),
            cal.eval_expr(e[2], st, &ray),
            cal.eval_expr(e[3], st, &ray),
        );
        if !coef.is_finite() || !d.is_finite() {
            return None;
        }
        let w = self.frame.to_world(d);
        let len = w.length();
        if len == 0.0 || !len.is_finite() {
            return None;
        }
        Some((coef, w / len))
    }
}

/// Where a source is, as RADIANCE's `sloc`: the direction of a distant source, else its centre.
fn location(g: &SourceGeom) -> DVec3 {
    match *g {
        SourceGeom::Distant { dir, .. } => dir,
        SourceGeom::Flat { center, .. } | SourceGeom::Sphere { center, .. } => center,
    }
}

/// The plane (unit normal, offset) and bounding disc centre of a flat relay surface.
pub(crate) fn plane_and_center(shape: &Shape) -> Option<(DVec3, f64, DVec3)> {
    let (n, verts): (DVec3, Vec<DVec3>) = match shape {
        Shape::Triangle(t) => (t.normal(), t.vertices().to_vec()),
        Shape::Polygon(p) => (p.normal(), p.vertices().to_vec()),
        Shape::Ring(r) => {
            let c = r.center();
            return Some((r.normal(), r.normal().dot(c), c));
        }
        _ => return None,
    };
    let offset = n.dot(verts[0]);
    let mean = verts.iter().copied().sum::<DVec3>() / verts.len() as f64;
    let center = mean + (offset - n.dot(mean)) * n;
    Some((n, offset, center))
}

impl Renderer {
    /// The material of shape `shape` when it is a prism.
    pub(crate) fn prism_of(&self, shape: u32) -> Option<&Prism> {
        let m = self.shape_mods[shape as usize].material?;
        match self.mods.material(m) {
            Material::Prism(p) => Some(p),
            _ => None,
        }
    }

    /// A ray meeting a prism (RADIANCE's `m_direct`).
    pub(crate) fn shade_prism(&self, r: &RayState, s: &Surf, p: &Prism, ctx: &mut Ctx) -> DVec3 {
        match r.rsrc {
            Some(i) => match self.sources[i as usize].relay {
                Some(rel) if Some(rel.mirror) == s.shape => self.prism_ray(r, s, p, Some(rel), ctx),
                _ => DVec3::ZERO, // aimed at another source: the prism is opaque to it
            },
            None => self.prism_ray(r, s, p, None, ctx),
        }
    }

    /// Traces the redirected ray(s): all directions, or the one of relay `rel`.
    fn prism_ray(
        &self,
        r: &RayState,
        s: &Surf,
        p: &Prism,
        rel: Option<Relay>,
        ctx: &mut Ctx,
    ) -> DVec3 {
        let (ks, toward) = match rel {
            Some(rel) => {
                let parent = &self.sources[rel.parent];
                let toward = match parent.geom {
                    SourceGeom::Distant { dir, .. } => dir,
                    g => (location(&g) - s.point).normalize_or_zero(),
                };
                (rel.proj as usize..rel.proj as usize + 1, Some(toward))
            }
            None => (0..p.dirs.len(), None),
        };
        let mut col = DVec3::ZERO;
        for k in ks {
            let Some((coef, dir)) = p.redirect(&self.mods.cal, &mut ctx.eval, s, k, toward) else {
                continue;
            };
            let Some((mut nr, c)) = self.spawn(r, s, TRANS, Some(DVec3::splat(coef)), ctx) else {
                continue;
            };
            nr.dir = dir;
            if let Some(rel) = rel {
                nr.rsrc = Some(rel.parent as u32);
            }
            let v = self.trace(&nr, ctx);
            col += v.value * c;
            if s.flat {
                ctx.z.seen_through(&v, c);
            }
        }
        col
    }

    /// The unoccluded value of a prism's virtual source seen from `p` along `dir` (RADIANCE's
    /// `srcvalue` through the relay): the redirection's coefficient times the parent source's
    /// value along the redirected direction. `None` when the relay is not a prism.
    pub(crate) fn prism_potential(
        &self,
        rel: Relay,
        p: DVec3,
        dir: DVec3,
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        let prism = self.prism_of(rel.mirror)?;
        let shape = self.compiled.accel.shape(rel.mirror);
        let Some((t, n)) = shape.intersect(&Ray::new(p, dir), FTINY, FHUGE) else {
            return Some(DVec3::ZERO);
        };
        let s = Surf {
            point: p + dir * t,
            normal: n,
            rod: -dir.dot(n),
            t,
            shape: Some(rel.mirror),
            flat: true,
            dir,
            uv: [0.0; 2],
        };
        let parent = &self.sources[rel.parent];
        let toward = match parent.geom {
            SourceGeom::Distant { dir, .. } => dir,
            g => (location(&g) - s.point).normalize_or_zero(),
        };
        let Some((coef, nd)) = prism.redirect(
            &self.mods.cal,
            &mut ctx.eval,
            &s,
            rel.proj as usize,
            toward.into(),
        ) else {
            return Some(DVec3::ZERO);
        };
        if coef <= 0.0
            || (parent.relay.is_none() && parent.is_distant() && !parent.contains_dir(nd))
        {
            return Some(DVec3::ZERO);
        }
        Some(self.potential(rel.parent, s.point, nd, ctx) * coef)
    }
}

/// The projection prism surface `shape` (material `prism`) makes of a source at `geom` in
/// direction `k` (RADIANCE's `dir_proj`), or `None` when it makes none.
pub(crate) fn projection(
    cal: &CalEnv,
    st: &mut EvalState,
    prism: &Prism,
    shape_index: u32,
    shape: &Shape,
    geom: &SourceGeom,
    k: usize,
) -> Option<Projection> {
    let (nv, od, cent) = plane_and_center(shape)?;
    let (org, dir) = match *geom {
        SourceGeom::Distant { dir, .. } => (cent + dir, -dir),
        g => {
            let loc = location(&g);
            let d = (cent - loc).normalize_or_zero();
            if d == DVec3::ZERO {
                return None; // at the source
            }
            (loc, d)
        }
    };
    let olddot = dir.dot(nv);
    if olddot.abs() <= FTINY {
        return None;
    }
    let (t, n) = shape.intersect(&Ray::new(org, dir), FTINY, FHUGE)?;
    let s = Surf {
        point: org + dir * t,
        normal: n,
        rod: -dir.dot(n),
        t,
        shape: Some(shape_index),
        flat: true,
        dir,
        uv: [0.0; 2],
    };
    let (coef, newdir) = prism.redirect(cal, st, &s, k, None)?;
    if coef <= FTINY {
        return None;
    }
    let newdot = newdir.dot(nv);
    if newdot.abs() <= FTINY {
        return None;
    }
    let mut shift = newdir / newdot - dir / olddot;
    if (newdot > 0.0) != (olddot > 0.0) {
        shift -= 2.0 * nv;
    }
    if shift.abs().max_element() <= FTINY {
        return None; // no redirection, no virtual source
    }
    Some(Projection {
        normal: nv,
        offset: od,
        shift,
    })
}
