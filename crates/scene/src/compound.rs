//! Places the contents of `instance` (an octree) and `mesh` (a compiled mesh) primitives in
//! the scene, transformed: daylit expands them into the flat scene rather than tracing a
//! second level of acceleration structure, so each placement costs its own copy of the
//! geometry (a `mesh` of 100 000 triangles about 10 MB).
//!
//! RADIANCE's rules, from its manual and its tracing code: when the compound primitive's
//! modifier is `void`, surfaces keep the modifiers of the original description, and patterns
//! and functions among them see coordinates in the original description's frame (their
//! transforms grow by the placement's); otherwise the primitive's own modifier replaces them
//! all, in world coordinates. Materials are not rescaled (unlike `xform`'s, a dielectric's
//! absorption or a glow's radius stay as written). Distances and radii are the transformed
//! ones, as RADIANCE reports distances scaled back to world units.

use crate::rtm::RtmMesh;
use crate::scene::{LocalMesh, Mesh, Placement, PrimId, Primitive, Scene, SceneBuilder};
use crate::xform::XformSpec;
use glam::DVec3;
use std::sync::Arc;

/// Appends `content` (an octree's scene in its own frame) transformed by `spec`, with
/// `modifier` replacing the surfaces' own when it is not `void`.
pub fn place_scene(
    builder: &mut SceneBuilder,
    content: &Scene,
    spec: &XformSpec,
    modifier: Option<PrimId>,
) {
    let base = builder.scene().prims.len() as PrimId;
    let mut prims = Vec::with_capacity(content.prims.len());
    let mut meshes = Vec::with_capacity(content.meshes.len());
    match modifier {
        Some(m) => {
            for p in content.prims.iter().filter(|p| !p.ptype.is_modifier()) {
                let mut q = p.clone();
                q.modifier = Some(m);
                q.mod_refs.clear();
                spec.transform_geometry(q.ptype, &mut q.sargs, &mut q.fargs);
                prims.push(q);
            }
            for mesh in &content.meshes {
                let mut q = transformed_mesh(mesh, spec);
                q.modifiers = vec![Some(m)];
                q.tri_modifier.iter_mut().for_each(|k| *k = 0);
                meshes.push(q);
            }
        }
        None => {
            let shift = |m: Option<PrimId>| m.map(|i| i + base);
            for p in &content.prims {
                let mut q: Primitive = p.clone();
                q.modifier = shift(q.modifier);
                q.alias_of = shift(q.alias_of);
                q.mod_refs.iter_mut().for_each(|m| *m = shift(*m));
                spec.transform_geometry(q.ptype, &mut q.sargs, &mut q.fargs);
                prims.push(q);
            }
            for mesh in &content.meshes {
                let mut q = transformed_mesh(mesh, spec);
                q.modifiers.iter_mut().for_each(|m| *m = shift(*m));
                meshes.push(q);
            }
        }
    }
    builder.append_hidden(prims, meshes);
}

/// A mesh moved by `spec`: positions transformed, normals turned (and kept unit), and the
/// triangles' winding reversed under a mirroring transform, so that each keeps the side it
/// faced (RADIANCE transforms the normal of a mesh triangle rather than its vertices).
fn transformed_mesh(mesh: &Mesh, spec: &XformSpec) -> Mesh {
    let xf = &spec.xf;
    let mut q = mesh.clone();
    for v in &mut q.vertices {
        *v = xf.point(DVec3::from_array(*v)).to_array();
    }
    for n in &mut q.normals {
        let d = DVec3::new(n[0] as f64, n[1] as f64, n[2] as f64);
        if d != DVec3::ZERO {
            let t = xf.vector(d).normalize_or_zero();
            *n = [t.x as f32, t.y as f32, t.z as f32];
        }
    }
    if xf.mirrors() {
        for t in &mut q.triangles {
            t.swap(1, 2);
        }
    }
    if let Some(p) = &mut q.placement {
        p.to_world = xf.m * p.to_world;
    }
    q
}

/// Appends a compiled mesh placed by `spec`, named `source` in messages. `materials` are the
/// mesh's own modifiers, already read into a scene of their own (in the order stored, so that
/// triangle material `k` is `materials.prims[k]`); they are appended (transformed) only when
/// `modifier` is `void`.
pub fn place_mesh(
    builder: &mut SceneBuilder,
    rtm: &RtmMesh,
    materials: &Scene,
    local_mesh: &Arc<LocalMesh>,
    spec: &XformSpec,
    modifier: Option<PrimId>,
    source: &str,
) {
    let nmats = materials.prims.len() as u32;
    let (modifiers, mat_prims) = match modifier {
        Some(m) => (vec![Some(m)], Vec::new()),
        None => {
            let base = builder.scene().prims.len() as PrimId;
            let shift = |m: Option<PrimId>| m.map(|i| i + base);
            let prims: Vec<Primitive> = materials
                .prims
                .iter()
                .map(|p| {
                    let mut q = p.clone();
                    q.modifier = shift(q.modifier);
                    q.alias_of = shift(q.alias_of);
                    q.mod_refs.iter_mut().for_each(|m| *m = shift(*m));
                    spec.transform_geometry(q.ptype, &mut q.sargs, &mut q.fargs);
                    q
                })
                .collect();
            let mut mods: Vec<Option<PrimId>> = (0..nmats).map(|k| Some(base + k)).collect();
            mods.push(None);
            (mods, prims)
        }
    };
    let tri_modifier = match modifier {
        Some(_) => vec![0; rtm.triangles.len()],
        None => rtm
            .tri_material
            .iter()
            .map(|m| m.unwrap_or(nmats))
            .collect(),
    };
    let has_normals = rtm.normals.iter().any(Option::is_some);
    let has_uvs = rtm.uvs.iter().any(Option::is_some);
    let local = Mesh {
        source: source.to_string(),
        vertices: rtm.vertices.clone(),
        normals: if has_normals {
            rtm.normals
                .iter()
                .map(|n| n.map_or([0.0; 3], |n| n.map(|x| x as f32)))
                .collect()
        } else {
            Vec::new()
        },
        uvs: if has_uvs {
            rtm.uvs.iter().map(|u| u.unwrap_or([f64::NAN; 2])).collect()
        } else {
            Vec::new()
        },
        triangles: rtm.triangles.clone(),
        tri_modifier,
        modifiers,
        placement: Some(Placement {
            local: local_mesh.clone(),
            to_world: glam::DMat4::IDENTITY,
        }),
    };
    let mesh = transformed_mesh(&local, spec);
    builder.append_hidden(mat_prims, vec![mesh]);
}
