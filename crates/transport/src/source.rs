//! Light sources as RADIANCE finds them: surfaces whose material is `light`, `spotlight`,
//! `illum` or a `glow` with a positive radius, distant `source` objects, and the virtual sources
//! that planar mirrors and prisms ([`crate::prism`]) make of them (`-dr` relays). Sampling follows RADIANCE's scheme: flat
//! sources are split into parts until each part is small against its distance (`-ds`), each
//! part is aimed at its centre, optionally jittered (`-dj`).

use crate::material::{LightKind, Material, Modifiers, Spot};
use daylit_compile::{CompiledScene, Origin};
use daylit_geometry::{Shape, FTINY};
use daylit_scene::{PrimId, PrimType, Scene};
use glam::DVec3;
use rand::Rng;
use std::f64::consts::PI;

/// Most parts a source is split into (RADIANCE's `MAXSPART`).
const MAX_PARTS: u32 = 64;

/// Geometry of a source.
#[derive(Clone, Copy, Debug)]
pub enum SourceGeom {
    /// A distant source: unit direction towards it, solid angle, and two half-size vectors
    /// across its disc (for jitter).
    Distant {
        /// Direction to the source.
        dir: DVec3,
        /// Solid angle, sr.
        omega: f64,
        /// Half-size vectors across the disc.
        u: DVec3,
        /// Second half-size vector.
        v: DVec3,
    },
    /// A flat source (polygon, triangle, disc).
    Flat {
        /// Centre.
        center: DVec3,
        /// Unit normal (the emitting side).
        normal: DVec3,
        /// Area.
        area: f64,
        /// Half-size vectors spanning the source.
        u: DVec3,
        /// Second half-size vector.
        v: DVec3,
        /// Circular (disc): jitter is trimmed to the disc.
        round: bool,
    },
    /// A sphere.
    Sphere {
        /// Centre.
        center: DVec3,
        /// Radius.
        radius: f64,
    },
}

/// A mirror or prism relaying a source (a virtual source).
#[derive(Clone, Copy, Debug)]
pub struct Relay {
    /// The source seen in the mirror.
    pub parent: usize,
    /// The relaying surface's shape index (a mirror or a prism).
    pub mirror: u32,
    /// Which of the relay's directions (a `prism2` has two; 0 otherwise).
    pub proj: u8,
}

/// The affine map a relay applies to the sources it relays: `p ↦ p + (n·p − offset)·shift`
/// for points, `v ↦ v + (n·v)·shift` for directions (a mirror: `shift = −2n`; a prism: the
/// shear along its plane that redirects the source's central ray, with a reflection when the
/// ray crosses back).
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    /// Unit normal of the relay's plane.
    pub normal: DVec3,
    /// Its offset (`n · p` on the plane).
    pub offset: f64,
    /// How far a point moves per unit of distance from the plane.
    pub shift: DVec3,
}

impl Projection {
    /// The image of point `p`.
    pub fn point(&self, p: DVec3) -> DVec3 {
        p + (self.normal.dot(p) - self.offset) * self.shift
    }

    /// The image of direction `v` (not normalised).
    pub fn vector(&self, v: DVec3) -> DVec3 {
        v + self.normal.dot(v) * self.shift
    }
}

/// One light source.
#[derive(Clone, Debug)]
pub struct Source {
    /// Where it is.
    pub geom: SourceGeom,
    /// Its surface's shape index (local real sources).
    pub shape: Option<u32>,
    /// Its material.
    pub material: PrimId,
    /// The surface or `source` primitive (`u32::MAX` for a mesh triangle).
    pub prim: PrimId,
    /// The modifier its surface names (a mesh triangle's own).
    pub modifier: Option<PrimId>,
    /// Spotlight cone.
    pub spot: Option<Spot>,
    /// A glow's radius of influence.
    pub prox: Option<f64>,
    /// Distant glows (skies) are found by ambient rays, not by the direct calculation.
    pub skip: bool,
    /// Set for virtual sources.
    pub relay: Option<Relay>,
}

/// One sample of a source seen from a point.
#[derive(Clone, Copy, Debug)]
pub struct SourceSample {
    /// Unit direction from the point.
    pub dir: DVec3,
    /// Solid angle the sample stands for.
    pub omega: f64,
}

fn perpendicular(n: DVec3) -> DVec3 {
    // RADIANCE takes a fixed perpendicular; any one serves the sampling.
    n.any_orthonormal_vector()
}

impl Source {
    /// Is this a distant source (real or virtual)?
    pub fn is_distant(&self) -> bool {
        matches!(self.geom, SourceGeom::Distant { .. })
    }

    /// Is `dir` within the distant source's disc?
    pub fn contains_dir(&self, d: DVec3) -> bool {
        match self.geom {
            SourceGeom::Distant { dir, omega, .. } => 2.0 * PI * (1.0 - dir.dot(d)) <= omega,
            _ => false,
        }
    }

    /// Samples of this source seen from `org` for a ray of weight `weight`, appended to `out`.
    pub fn samples(
        &self,
        org: DVec3,
        weight: f64,
        ds: f64,
        dj: f64,
        rng: &mut impl Rng,
        out: &mut Vec<SourceSample>,
    ) {
        if self.skip {
            return;
        }
        match self.geom {
            SourceGeom::Distant { dir, omega, u, v } => {
                let mut d = dir;
                if dj > FTINY {
                    let (a, b) = disc_point(rng);
                    // u and v span a square of the disc's area; 1.128 = 2/sqrt(pi) fits the disc.
                    d += (u * a + v * b) * dj * std::f64::consts::FRAC_2_SQRT_PI;
                }
                // A spotlight on a distant source: RADIANCE only warns; no cone is applied.
                out.push(SourceSample {
                    dir: d.normalize(),
                    omega,
                });
            }
            SourceGeom::Sphere { center, radius } => {
                if let Some(p) = self.prox {
                    if org.distance_squared(center) > (p + radius) * (p + radius) {
                        return;
                    }
                }
                let mut target = center;
                if dj > FTINY {
                    let j = DVec3::new(
                        rng.random::<f64>() * 2.0 - 1.0,
                        rng.random::<f64>() * 2.0 - 1.0,
                        rng.random::<f64>() * 2.0 - 1.0,
                    );
                    target += j * (dj * 0.7236 * radius);
                }
                let to = target - org;
                let d = to.length();
                if d == 0.0 {
                    return;
                }
                self.push_local(to / d, d, PI * radius * radius / (d * d), out);
            }
            SourceGeom::Flat {
                center,
                normal,
                area,
                u,
                v,
                round,
            } => {
                if (org - center).dot(normal) <= 0.0 {
                    return; // behind the source
                }
                if let Some(p) = self.prox {
                    let r2 = u.length_squared().max(v.length_squared()) * 2.0;
                    if org.distance(center) > p + r2.sqrt() {
                        return;
                    }
                }
                let mut parts = Vec::new();
                if ds <= FTINY {
                    parts.push((0.0, 0.0, 1.0, 1.0));
                } else {
                    let lim = 2.0 * weight / ds;
                    let du2 = lim * lim * u.length_squared();
                    let dv2 = lim * lim * v.length_squared();
                    partition(
                        org,
                        center,
                        u,
                        v,
                        (0.0, 0.0, 1.0, 1.0),
                        du2,
                        dv2,
                        MAX_PARTS,
                        &mut parts,
                    );
                }
                for (cu, cv, su, sv) in parts {
                    let (mut a, mut b) = (cu, cv);
                    if dj > FTINY {
                        let (mut ja, mut jb) = (
                            dj * (1.0 - 2.0 * rng.random::<f64>()) * su,
                            dj * (1.0 - 2.0 * rng.random::<f64>()) * sv,
                        );
                        if round {
                            // Keep jittered aims on the disc.
                            let k = std::f64::consts::FRAC_2_SQRT_PI;
                            (ja, jb) = (
                                ja * k * (1.0 - 0.5 * jb * jb).sqrt(),
                                jb * k * (1.0 - 0.5 * ja * ja).sqrt(),
                            );
                        }
                        a += ja;
                        b += jb;
                    }
                    let to = center + u * a + v * b - org;
                    let d = to.length();
                    if d == 0.0 {
                        continue;
                    }
                    let dir = to / d;
                    let form = -normal.dot(dir) * su * sv;
                    if form <= 1e-4 * su * sv {
                        continue;
                    }
                    self.push_local(dir, d, form * area / (d * d), out);
                }
            }
        }
    }

    fn push_local(&self, dir: DVec3, d: f64, mut omega: f64, out: &mut Vec<SourceSample>) {
        if let Some(p) = self.prox {
            if d > p {
                return;
            }
        }
        if let Some(s) = self.spot {
            if s.outside(dir) {
                return;
            }
            // The cone's focus lies `flen` behind the source: RADIANCE scales the solid angle so.
            omega *= d * d / ((d + s.flen) * (d + s.flen));
        }
        out.push(SourceSample { dir, omega });
    }
}

/// A uniform point in the square [-1,1]², as the disc jitter expects.
fn disc_point(rng: &mut impl Rng) -> (f64, f64) {
    (
        rng.random::<f64>() * 2.0 - 1.0,
        rng.random::<f64>() * 2.0 - 1.0,
    )
}

/// Splits a flat source into parts small against their distance from `org`: RADIANCE's rule,
/// halving the longer side while the part's centre is nearer than `size / -ds`.
#[allow(clippy::too_many_arguments)]
fn partition(
    org: DVec3,
    center: DVec3,
    u: DVec3,
    v: DVec3,
    cell: (f64, f64, f64, f64),
    du2: f64,
    dv2: f64,
    max: u32,
    out: &mut Vec<(f64, f64, f64, f64)>,
) {
    let (cu, cv, su, sv) = cell;
    let c = center + u * cu + v * cv;
    let d2 = org.distance_squared(c);
    if max < 2 || (d2 >= du2 && d2 >= dv2) {
        out.push(cell);
        return;
    }
    if du2 > dv2 {
        let h = su * 0.5;
        partition(
            org,
            center,
            u,
            v,
            (cu - h, cv, h, sv),
            du2 * 0.25,
            dv2,
            max / 2,
            out,
        );
        partition(
            org,
            center,
            u,
            v,
            (cu + h, cv, h, sv),
            du2 * 0.25,
            dv2,
            max / 2,
            out,
        );
    } else {
        let h = sv * 0.5;
        partition(
            org,
            center,
            u,
            v,
            (cu, cv - h, su, h),
            du2,
            dv2 * 0.25,
            max / 2,
            out,
        );
        partition(
            org,
            center,
            u,
            v,
            (cu, cv + h, su, h),
            du2,
            dv2 * 0.25,
            max / 2,
            out,
        );
    }
}

/// Finds the scene's sources, then the virtual sources its mirrors make (up to `relays` deep).
pub fn find_sources(
    scene: &Scene,
    compiled: &CompiledScene,
    mods: &Modifiers,
    relays: u32,
) -> Vec<Source> {
    let mut out = Vec::new();
    let mut pats = Vec::new();
    for (idx, origin) in compiled.origins.iter().enumerate() {
        let (modifier, prim) = match *origin {
            Origin::Prim(id) => (scene.prim(id).modifier, id),
            Origin::MeshTri { mesh, tri } => {
                let m = &scene.meshes[mesh as usize];
                // A `mesh` primitive's triangles are never light sources in RADIANCE (it looks
                // for sources among the scene's own surfaces only): an emitting material there
                // glows where it is seen, and lights nothing directly.
                if m.placement.is_some() {
                    continue;
                }
                (m.modifiers[m.tri_modifier[tri as usize] as usize], u32::MAX)
            }
        };
        pats.clear();
        let Some(mat) = mods.resolve(scene, modifier, &mut pats) else {
            continue;
        };
        let Some((kind, color)) = light_of(mods.material(mat)) else {
            continue;
        };
        if color.max_element() <= FTINY {
            continue;
        }
        let (prox, spot) = match kind {
            LightKind::Glow(r) if r <= FTINY => continue, // seen only by ambient rays
            LightKind::Glow(r) => (Some(r), None),
            LightKind::Spot(s) => (None, Some(s)),
            _ => (None, None),
        };
        let Some(geom) = local_geom(compiled.accel.shape(idx as u32)) else {
            continue;
        };
        out.push(Source {
            geom,
            shape: Some(idx as u32),
            material: mat,
            prim,
            modifier,
            spot,
            prox,
            skip: false,
            relay: None,
        });
    }
    for ds in &compiled.sources {
        let p = scene.prim(ds.prim);
        pats.clear();
        let Some(mat) = mods.resolve(scene, p.modifier, &mut pats) else {
            continue;
        };
        let Some((kind, color)) = light_of(mods.material(mat)) else {
            continue;
        };
        if color.max_element() <= FTINY {
            continue;
        }
        let theta = (ds.angle / 2.0).to_radians();
        if theta <= FTINY {
            continue;
        }
        // RADIANCE keeps a source's solid angle in single precision; rounding it so decides
        // which tangent directions a hemisphere dome still contains (the horizon, for one).
        let omega = (2.0 * PI * (1.0 - theta.cos())) as f32 as f64;
        let u = perpendicular(ds.dir) * 0.5 * omega.sqrt();
        let v = ds.dir.cross(u);
        out.push(Source {
            geom: SourceGeom::Distant {
                dir: ds.dir,
                omega,
                u,
                v,
            },
            shape: None,
            material: mat,
            prim: ds.prim,
            modifier: p.modifier,
            spot: match kind {
                LightKind::Spot(s) => Some(s),
                _ => None,
            },
            prox: None,
            skip: matches!(kind, LightKind::Glow(_)),
            relay: None,
        });
    }
    add_virtual_sources(scene, compiled, mods, relays, &mut out);
    out
}

fn light_of(m: &Material) -> Option<(LightKind, DVec3)> {
    match m {
        Material::Light { kind, color } => Some((*kind, *color)),
        _ => None,
    }
}

fn local_geom(shape: &Shape) -> Option<SourceGeom> {
    match shape {
        Shape::Triangle(t) => {
            let v = t.vertices();
            flat_geom(&v)
        }
        Shape::Polygon(p) => flat_geom(p.vertices()),
        Shape::Sphere(s) if !s.is_bubble() => Some(SourceGeom::Sphere {
            center: s.center(),
            radius: s.radius(),
        }),
        Shape::Ring(r) => {
            let (center, normal) = (r.center(), r.normal());
            let (r0, r1) = r.radii();
            if r0 > FTINY {
                return None; // RADIANCE cannot aim at an annulus' centre
            }
            let area = PI * r1 * r1;
            let u = perpendicular(normal) * 0.5 * area.sqrt();
            Some(SourceGeom::Flat {
                center,
                normal,
                area,
                u,
                v: normal.cross(u),
                round: true,
            })
        }
        _ => None,
    }
}

fn flat_geom(v: &[DVec3]) -> Option<SourceGeom> {
    let n = v.len();
    let center = v.iter().copied().sum::<DVec3>() / n as f64;
    let mut cross = DVec3::ZERO;
    for i in 0..n {
        cross += v[i].cross(v[(i + 1) % n]);
    }
    let area = cross.length() * 0.5;
    if area == 0.0 {
        return None;
    }
    let normal = cross.normalize();
    let (u, w) = if n == 4 {
        ((v[1] - v[0]) * 0.5, (v[3] - v[0]) * 0.5)
    } else {
        let u = perpendicular(normal) * 0.5 * area.sqrt();
        (u, normal.cross(u))
    };
    Some(SourceGeom::Flat {
        center,
        normal,
        area,
        u,
        v: w,
        round: false,
    })
}

/// A planar relay: its shape index, unit normal and plane offset (`n · p`), and for a prism
/// its material.
struct MirrorPlane {
    shape: u32,
    normal: DVec3,
    offset: f64,
    prism: Option<PrimId>,
}

fn mirror_planes(scene: &Scene, compiled: &CompiledScene, mods: &Modifiers) -> Vec<MirrorPlane> {
    let mut out = Vec::new();
    let mut pats = Vec::new();
    for (idx, origin) in compiled.origins.iter().enumerate() {
        let modifier = match *origin {
            Origin::Prim(id) => scene.prim(id).modifier,
            Origin::MeshTri { mesh, tri } => {
                let m = &scene.meshes[mesh as usize];
                m.modifiers[m.tri_modifier[tri as usize] as usize]
            }
        };
        pats.clear();
        let Some(mat) = mods.resolve(scene, modifier, &mut pats) else {
            continue;
        };
        let prism = match scene.prim(mat).ptype {
            PrimType::Mirror => None,
            PrimType::Prism1 | PrimType::Prism2 => Some(mat),
            _ => continue,
        };
        let (normal, point) = match compiled.accel.shape(idx as u32) {
            Shape::Triangle(t) => (t.normal(), t.vertices()[0]),
            Shape::Polygon(p) => (p.normal(), p.vertices()[0]),
            Shape::Ring(r) => (r.normal(), r.center()),
            _ => continue, // curved mirrors and prisms make no virtual sources
        };
        out.push(MirrorPlane {
            shape: idx as u32,
            normal,
            offset: normal.dot(point),
            prism,
        });
    }
    out
}

fn add_virtual_sources(
    scene: &Scene,
    compiled: &CompiledScene,
    mods: &Modifiers,
    relays: u32,
    out: &mut Vec<Source>,
) {
    if relays == 0 {
        return;
    }
    let mirrors = mirror_planes(scene, compiled, mods);
    if mirrors.is_empty() {
        return;
    }
    let mut eval = daylit_cal::EvalState::for_env(&mods.cal);
    let mut start = 0;
    for _ in 0..relays {
        let end = out.len();
        for si in start..end {
            for m in &mirrors {
                let s = &out[si];
                if s.skip || s.relay.is_some_and(|r| r.mirror == m.shape) {
                    continue;
                }
                // A mirror: the source must lie in front of it.
                let projections: Vec<(u8, Projection)> = match m.prism {
                    None => {
                        let front = match s.geom {
                            SourceGeom::Distant { dir, .. } => dir.dot(m.normal) > FTINY,
                            SourceGeom::Sphere { center, radius } => {
                                center.dot(m.normal) - m.offset > radius
                            }
                            SourceGeom::Flat { center, .. } => {
                                center.dot(m.normal) - m.offset > FTINY
                            }
                        };
                        if !front {
                            continue;
                        }
                        vec![(
                            0,
                            Projection {
                                normal: m.normal,
                                offset: m.offset,
                                shift: -2.0 * m.normal,
                            },
                        )]
                    }
                    Some(mat) => {
                        let Material::Prism(p) = mods.material(mat) else {
                            continue;
                        };
                        let shape = compiled.accel.shape(m.shape);
                        (0..p.dirs.len())
                            .filter_map(|k| {
                                crate::prism::projection(
                                    &mods.cal, &mut eval, p, m.shape, shape, &s.geom, k,
                                )
                                .map(|pr| (k as u8, pr))
                            })
                            .collect()
                    }
                };
                for (k, pr) in projections {
                    let s = &out[si];
                    let geom = match s.geom {
                        SourceGeom::Distant { dir, omega, u, v } => SourceGeom::Distant {
                            dir: pr.vector(dir).normalize(),
                            omega,
                            u: pr.vector(u),
                            v: pr.vector(v),
                        },
                        SourceGeom::Sphere { center, radius } => SourceGeom::Sphere {
                            center: pr.point(center),
                            radius,
                        },
                        SourceGeom::Flat {
                            center,
                            normal,
                            area,
                            u,
                            v,
                            round,
                        } => SourceGeom::Flat {
                            center: pr.point(center),
                            normal: pr.vector(normal).normalize(),
                            area,
                            u: pr.vector(u),
                            v: pr.vector(v),
                            round,
                        },
                    };
                    let spot = s.spot.map(|sp| Spot {
                        aim: pr.vector(sp.aim).normalize(),
                        ..sp
                    });
                    let new = Source {
                        geom,
                        shape: None,
                        material: s.material,
                        prim: s.prim,
                        modifier: s.modifier,
                        spot,
                        prox: s.prox,
                        skip: false,
                        relay: Some(Relay {
                            parent: si,
                            mirror: m.shape,
                            proj: k,
                        }),
                    };
                    out.push(new);
                }
            }
        }
        start = end;
    }
}
