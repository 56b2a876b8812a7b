//! Compiles a [`Scene`] into geometry that can be traced: every surface becomes a [`Shape`] in
//! one [`Accel`] (BVH), distant `source`s are kept aside, and degenerate or doubtful geometry is
//! reported with the place it was defined.

mod functions;
pub mod smooth;

pub use functions::check_functions;
pub use smooth::{mesh_point, MeshPoint};

use daylit_geometry::{Accel, Cone, DVec3, GeometryError, Polygon, Ring, Shape, Sphere, Triangle};
use daylit_scene::{Loc, PrimId, PrimType, Scene};
use rayon::prelude::*;
use std::fmt;

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
    /// One shape per traceable surface.
    pub shapes: Vec<Shape>,
    /// Where each shape came from.
    pub origins: Vec<Origin>,
    /// Distant sources.
    pub sources: Vec<DistantSource>,
    /// Degenerate (dropped) and doubtful (kept) geometry.
    pub findings: Vec<Finding>,
}

impl Shapes {
    /// Axis-aligned bounds of all shapes, or `None` for a scene without surfaces.
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        self.shapes
            .iter()
            .map(Shape::bounds)
            .reduce(|(a0, a1), (b0, b1)| (a0.min(b0), a1.max(b1)))
    }
}

/// Compiles `scene`. Degenerate primitives are dropped and reported, as RADIANCE drops them.
pub fn compile(scene: &Scene) -> CompiledScene {
    let s = shapes(scene);
    CompiledScene {
        accel: Accel::build(s.shapes),
        origins: s.origins,
        sources: s.sources,
        findings: s.findings,
    }
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
    for (mi, mesh) in scene.meshes.iter().enumerate() {
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
        if bad > 0 {
            findings.push(Finding {
                severity: Severity::Degenerate,
                loc: Loc::new(mesh.source.as_str().into(), 0, 0),
                what: "mesh".into(),
                msg: format!("{bad} zero-area triangles dropped"),
            });
        }
    }
    Shapes {
        shapes,
        origins,
        sources,
        findings,
    }
}
