//! Compiles a [`Scene`] into geometry that can be traced: every surface becomes a [`Shape`] in
//! one [`Accel`] (BVH), distant `source`s are kept aside, and degenerate or doubtful geometry is
//! reported with the place it was defined.

mod functions;
pub mod smooth;

pub use functions::check_functions;
pub use smooth::{mesh_point, MeshPoint};

use daylit_geometry::{
    placed_box, Accel, Cone, DVec3, GeometryError, Placed, Polygon, Ring, Shape, Sphere, Triangle,
};
use daylit_scene::LocalMesh;
use daylit_scene::{Loc, PrimId, PrimType, Scene};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;

/// Where a traced shape came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A surface primitive.
    Prim(PrimId),
    /// Triangle `tri` of mesh `mesh`.
    MeshTri {
        /// Index into [`Scene::meshes`].
        mesh: u32,
        /// Triangle index within the mesh.
        tri: u32,
    },
}

/// A distant light source (`source` primitive): the sun, or a sky or ground dome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistantSource {
    /// The primitive.
    pub prim: PrimId,
    /// Unit direction toward the source.
    pub dir: DVec3,
    /// Full angle subtended, in degrees (as written in the scene).
    pub angle: f64,
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Kept, but probably not what was meant (non-planar polygon).
    Warning,
    /// Cannot be traced; RADIANCE drops it with a warning.
    Degenerate,
    /// Cannot be rendered as RADIANCE would render it (a function file or expression that does
    /// not compile, geometry daylit cannot read): every renderer refuses the scene.
    Error,
}

/// A doubtful primitive.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// How serious.
    pub severity: Severity,
    /// Where it was defined.
    pub loc: Loc,
    /// Type and name, e.g. `polygon "floor"`.
    pub what: String,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Degenerate => "degenerate",
            Severity::Error => "error",
        };
        write!(f, "{}: {kind}: {}: {}", self.loc, self.what, self.msg)
    }
}

/// A polygon is reported non-planar when a vertex lies farther than this fraction of the
/// polygon's size from its plane.
pub const NONPLANAR_TOLERANCE: f64 = 1e-3;

/// The traceable scene.
pub struct CompiledScene {
    /// All surfaces in one BVH.
    pub accel: Accel,
    /// For each shape in `accel`, where it came from.
    pub origins: Vec<Origin>,
    /// Distant sources.
    pub sources: Vec<DistantSource>,
    /// Degenerate (dropped) and doubtful (kept) geometry.
    pub findings: Vec<Finding>,
}

impl CompiledScene {
    /// The findings that stop rendering ([`Severity::Error`]).
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }

    /// Number of degenerate primitives that were dropped.
    pub fn dropped(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Degenerate)
            .count()
    }
}

fn v3(f: &[f64]) -> DVec3 {
    DVec3::new(f[0], f[1], f[2])
}

/// Makes the shape for one surface primitive (`None` for distant sources and instances).
pub fn shape_of(ptype: PrimType, f: &[f64]) -> Option<Result<Shape, GeometryError>> {
    let shape = match ptype {
        PrimType::Polygon => {
            let v: Vec<DVec3> = f.chunks_exact(3).map(v3).collect();
            if v.len() == 3 {
                Triangle::new([v[0], v[1], v[2]]).map(Shape::Triangle)
            } else {
                Polygon::new(v).map(Shape::from)
            }
        }
        PrimType::Sphere | PrimType::Bubble => {
            Sphere::new(v3(f), f[3], ptype == PrimType::Bubble).map(Shape::Sphere)
        }
        PrimType::Cone => Cone::cone(v3(f), v3(&f[3..]), f[6], f[7]).map(Shape::Cone),
        PrimType::Cup => Cone::cup(v3(f), v3(&f[3..]), f[6], f[7]).map(Shape::Cone),
        PrimType::Cylinder => Cone::cylinder(v3(f), v3(&f[3..]), f[6]).map(Shape::Cone),
        PrimType::Tube => Cone::tube(v3(f), v3(&f[3..]), f[6]).map(Shape::Cone),
        PrimType::Ring => Ring::new(v3(f), v3(&f[3..]), f[6], f[7]).map(Shape::Ring),
        _ => return None,
    };
    Some(shape)
}

/// The shapes of a scene before the BVH is built.
pub struct Shapes {
    /// One shape per traceable surface, except the triangles of shared meshes: shape `i` has
    /// id `i`, and the placements' ids follow.
    pub shapes: Vec<Shape>,
    /// Where each shape id came from (every shape, then every placement's triangles).
    pub origins: Vec<Origin>,
    /// Compiled meshes placed several times, each traced once in its own frame.
    pub shared: Vec<SharedMesh>,
    /// Their placements, ids in order after `shapes`.
    pub placements: Vec<MeshPlacement>,
    /// Distant sources.
    pub sources: Vec<DistantSource>,
    /// Degenerate (dropped) and doubtful (kept) geometry.
    pub findings: Vec<Finding>,
}

/// A compiled mesh's triangles in its own frame, shared by its placements.
pub struct SharedMesh {
    /// Its triangles (zero-area ones dropped).
    pub shapes: Vec<Shape>,
    /// For each shape, the triangle's index in the mesh.
    pub tris: Vec<u32>,
}

/// One placement of a [`SharedMesh`].
pub struct MeshPlacement {
    /// Index into [`Shapes::shared`].
    pub shared: usize,
    /// From the mesh's frame to the scene's.
    pub to_world: glam::DMat4,
    /// Id of its first triangle.
    pub base: u32,
}

impl Shapes {
    /// Axis-aligned bounds of all shapes, or `None` for a scene without surfaces.
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        let union = |(a0, a1): (DVec3, DVec3), (b0, b1): (DVec3, DVec3)| (a0.min(b0), a1.max(b1));
        let placed = self.placements.iter().filter_map(|p| {
            let (lo, hi) = self.shared[p.shared]
                .shapes
                .iter()
                .map(Shape::bounds)
                .reduce(union)?;
            Some(placed_box(lo, hi, &glam::DAffine3::from_mat4(p.to_world)))
        });
        self.shapes
            .iter()
            .map(Shape::bounds)
            .chain(placed)
            .reduce(union)
    }
}

/// Compiles `scene`. Degenerate primitives are dropped and reported, as RADIANCE drops them.
pub fn compile(scene: &Scene) -> CompiledScene {
    let s = shapes(scene);
    let shared: Vec<Arc<Accel>> = s
        .shared
        .iter()
        .map(|m| Arc::new(Accel::build(m.shapes.clone())))
        .collect();
    let placed = s
        .placements
        .iter()
        .map(|p| {
            Placed::new(shared[p.shared].clone(), p.to_world, p.base)
                .expect("placements are checked rigid when chosen")
        })
        .collect();
    CompiledScene {
        accel: Accel::build(s.shapes).with_placements(placed),
        origins: s.origins,
        sources: s.sources,
        findings: s.findings,
    }
}

/// A compiled mesh is traced as placements of one shared hierarchy when it is placed at least
/// this many times (once, a copy costs the same)...
const MIN_PLACEMENTS: usize = 2;

/// ... and has at least this many triangles (small meshes cost little to copy, and every
/// placement is tested on each ray that crosses its box).
const MIN_SHARED_TRIANGLES: usize = 256;

/// At most this many placements are traced as such, the largest meshes first; the rest are
/// copied into the scene's tree.
const MAX_PLACEMENTS: usize = 64;

/// Reports a mesh's zero-area triangles, which are dropped.
fn dropped_triangles(findings: &mut Vec<Finding>, mesh: &daylit_scene::Mesh, bad: usize) {
    if bad > 0 {
        findings.push(Finding {
            severity: Severity::Degenerate,
            loc: Loc::new(mesh.source.as_str().into(), 0, 0),
            what: "mesh".into(),
            msg: format!("{bad} zero-area triangles dropped"),
        });
    }
}

/// Whether surfaces with modifier `m` need nothing of their geometry beyond hits and normals:
/// no light sources, mirrors or prisms (their geometry makes sources and virtual sources) and
/// no media or antimatter, along the modifier chain and the modifiers it names.
fn plain_modifier(scene: &Scene, m: Option<PrimId>, depth: u32) -> bool {
    let Some(id) = m else {
        return true;
    };
    let p = scene.prim(id);
    depth < 32
        && !matches!(
            p.ptype,
            PrimType::Light
                | PrimType::Glow
                | PrimType::Illum
                | PrimType::Spotlight
                | PrimType::Mirror
                | PrimType::Prism1
                | PrimType::Prism2
                | PrimType::Mist
                | PrimType::Antimatter
        )
        && plain_modifier(scene, p.modifier, depth + 1)
        && plain_modifier(scene, p.alias_of, depth + 1)
        && p.mod_refs
            .iter()
            .all(|&r| plain_modifier(scene, r, depth + 1))
}

/// The compiled meshes of `scene` to trace as placements, and for each mesh the index of the
/// one it places, if any.
fn shared_meshes(scene: &Scene) -> (Vec<Arc<LocalMesh>>, Vec<Option<usize>>) {
    let fits = |m: &daylit_scene::Mesh| {
        m.placement.as_ref().is_some_and(|p| {
            Placed::rigid(p.to_world)
                && p.local.triangles.len() >= MIN_SHARED_TRIANGLES
                && m.modifiers.iter().all(|&k| plain_modifier(scene, k, 0))
        })
    };
    let mut groups: Vec<(Arc<LocalMesh>, Vec<usize>)> = Vec::new();
    for (i, m) in scene.meshes.iter().enumerate() {
        let Some(p) = m.placement.as_ref().filter(|_| fits(m)) else {
            continue;
        };
        match groups.iter_mut().find(|g| Arc::ptr_eq(&g.0, &p.local)) {
            Some(g) => g.1.push(i),
            None => groups.push((p.local.clone(), vec![i])),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.0.triangles.len()));
    let mut chosen = Vec::new();
    let mut of_mesh = vec![None; scene.meshes.len()];
    let mut left = MAX_PLACEMENTS;
    for (local, members) in groups {
        if members.len() < MIN_PLACEMENTS || members.len() > left {
            continue;
        }
        left -= members.len();
        for i in members {
            of_mesh[i] = Some(chosen.len());
        }
        chosen.push(local);
    }
    (chosen, of_mesh)
}

/// Makes the shapes of every surface of `scene` and reports doubtful geometry.
pub fn shapes(scene: &Scene) -> Shapes {
    let mut shapes = Vec::new();
    let mut origins = Vec::new();
    let mut sources = Vec::new();
    let mut findings = Vec::new();
    for id in scene.surfaces() {
        let p = scene.prim(id);
        let what = format!("{} \"{}\"", p.ptype.name(), p.name);
        let finding = |severity, msg: String| Finding {
            severity,
            loc: p.loc.clone(),
            what: what.clone(),
            msg,
        };
        match p.ptype {
            PrimType::Source => {
                let dir = v3(&p.fargs);
                if dir.length_squared() > 0.0 && dir.is_finite() {
                    sources.push(DistantSource {
                        prim: id,
                        dir: dir.normalize(),
                        angle: p.fargs[3],
                    });
                } else {
                    findings.push(finding(Severity::Degenerate, "zero direction".into()));
                }
                continue;
            }
            // The loader has placed their contents in the scene (daylit_scene::compound).
            PrimType::Instance | PrimType::Mesh => continue,
            _ => {}
        }
        match shape_of(p.ptype, &p.fargs) {
            Some(Ok(shape)) => {
                let flipped = match &shape {
                    Shape::Cone(c) => c.was_inverted(),
                    Shape::Sphere(sp) => sp.is_bubble() != (p.ptype == PrimType::Bubble),
                    _ => false,
                };
                if flipped {
                    findings.push(finding(
                        Severity::Warning,
                        "negative radius: the surface faces the other way (as in RADIANCE)".into(),
                    ));
                }
                if let Shape::Polygon(poly) = &shape {
                    let dev = poly.max_nonplanarity();
                    if dev > NONPLANAR_TOLERANCE {
                        findings.push(finding(
                            Severity::Warning,
                            format!("non-planar: a vertex is {:.2}% of the polygon's size off its plane", dev * 100.0),
                        ));
                    }
                }
                shapes.push(shape);
                origins.push(Origin::Prim(id));
            }
            Some(Err(e)) => findings.push(finding(Severity::Degenerate, e.to_string())),
            None => {}
        }
    }
    let (locals, shared_by) = shared_meshes(scene);
    for (mi, mesh) in scene.meshes.iter().enumerate() {
        if shared_by[mi].is_some() {
            continue;
        }
        let tris: Vec<(u32, Result<Triangle, GeometryError>)> = mesh
            .triangles
            .par_iter()
            .enumerate()
            .map(|(ti, t)| {
                let v = t.map(|k| DVec3::from_array(mesh.vertices[k as usize]));
                (ti as u32, Triangle::new(v))
            })
            .collect();
        let mut bad = 0usize;
        for (ti, t) in tris {
            match t {
                Ok(t) => {
                    shapes.push(Shape::Triangle(t));
                    origins.push(Origin::MeshTri {
                        mesh: mi as u32,
                        tri: ti,
                    });
                }
                Err(_) => bad += 1,
            }
        }
        dropped_triangles(&mut findings, mesh, bad);
    }
    // Shared meshes: their triangles once in their own frame, then each placement's ids.
    let shared: Vec<SharedMesh> = locals
        .iter()
        .map(|local| {
            let made: Vec<(u32, Triangle)> = local
                .triangles
                .par_iter()
                .enumerate()
                .filter_map(|(ti, t)| {
                    let v = t.map(|k| DVec3::from_array(local.vertices[k as usize]));
                    Triangle::new(v).ok().map(|t| (ti as u32, t))
                })
                .collect();
            SharedMesh {
                tris: made.iter().map(|m| m.0).collect(),
                shapes: made.into_iter().map(|m| Shape::Triangle(m.1)).collect(),
            }
        })
        .collect();
    let mut placements = Vec::new();
    for (mi, mesh) in scene.meshes.iter().enumerate() {
        let (Some(k), Some(p)) = (shared_by[mi], &mesh.placement) else {
            continue;
        };
        let base = origins.len() as u32;
        origins.extend(shared[k].tris.iter().map(|&tri| Origin::MeshTri {
            mesh: mi as u32,
            tri,
        }));
        dropped_triangles(
            &mut findings,
            mesh,
            locals[k].triangles.len() - shared[k].tris.len(),
        );
        placements.push(MeshPlacement {
            shared: k,
            to_world: p.to_world,
            base,
        });
    }
    Shapes {
        shapes,
        origins,
        shared,
        placements,
        sources,
        findings,
    }
}
