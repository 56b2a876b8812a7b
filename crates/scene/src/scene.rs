//! The parsed scene: primitives with their modifiers resolved, and triangle meshes.

use crate::error::{Loc, Result, SceneError};
use crate::parse::RawPrim;
use crate::types::{Class, PrimType};
use std::collections::HashMap;
use std::sync::Arc;

/// Index of a primitive in [`Scene::prims`].
pub type PrimId = u32;

/// A primitive with its modifier resolved to the definition in force when it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    /// The modifier (`None` for `void`).
    pub modifier: Option<PrimId>,
    /// The type (for an alias: the type of what it refers to).
    pub ptype: PrimType,
    /// Identifier.
    pub name: String,
    /// String arguments.
    pub sargs: Vec<String>,
    /// Real arguments.
    pub fargs: Vec<f64>,
    /// Modifiers named in string arguments (alternate materials of `illum`/`mirror`, the two
    /// sides of a mixture, `antimatter`'s list, `WGMDfunc`'s component modifiers), resolved
    /// like the main modifier; `None` for `void`.
    pub mod_refs: Vec<Option<PrimId>>,
    /// For an alias, the primitive it copies.
    pub alias_of: Option<PrimId>,
    /// Where it was defined.
    pub loc: Loc,
}

/// A compiled mesh's geometry in its own frame, read once per file and shared by every
/// placement of it.
#[derive(Debug, Default, PartialEq)]
pub struct LocalMesh {
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as vertex indices (as the placements' before any mirroring).
    pub triangles: Vec<[u32; 3]>,
}

/// Where a placed mesh's triangles come from: placements of one compiled mesh share one
/// local hierarchy in tracing instead of a copy each.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// The geometry in the mesh's own frame.
    pub local: Arc<LocalMesh>,
    /// From the mesh's frame to the scene's (column vectors: `p' = m * p`).
    pub to_world: glam::DMat4,
}

/// A triangle mesh (from a Wavefront OBJ file, or a RADIANCE compiled mesh placed by a `mesh`
/// primitive), with one modifier per `usemtl` group or mesh material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// The file it came from.
    pub source: String,
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Per-vertex unit shading normals (empty when the file has none; a vertex without one
    /// holds zeros). A triangle is smoothed only when all three of its vertices have one.
    pub normals: Vec<[f32; 3]>,
    /// Per-vertex local (u,v) coordinates, RADIANCE's `Lu` and `Lv` (empty when the file has
    /// none; a vertex without them holds NaN). Used only when all three vertices have them.
    pub uvs: Vec<[f64; 2]>,
    /// Triangles as vertex indices, counter-clockwise seen from the front.
    pub triangles: Vec<[u32; 3]>,
    /// For each triangle, an index into `modifiers`.
    pub tri_modifier: Vec<u32>,
    /// The modifiers used by the mesh (`usemtl` names resolved).
    pub modifiers: Vec<Option<PrimId>>,
    /// For a placed compiled mesh: its shared geometry and transform (`vertices` and
    /// `triangles` are that geometry placed).
    pub placement: Option<Placement>,
}

/// A whole scene, in input order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// All primitives, modifiers and surfaces, in the order read.
    pub prims: Vec<Primitive>,
    /// Triangle meshes.
    pub meshes: Vec<Mesh>,
}

impl Scene {
    /// The modifier last defined as `name` (what later primitives naming it would use).
    pub fn find_modifier(&self, name: &str) -> Option<PrimId> {
        use crate::Class;
        self.prims
            .iter()
            .rposition(|p| {
                p.name == name && matches!(p.ptype.class(), Class::Material | Class::Pattern)
            })
            .map(|i| i as PrimId)
    }

    /// The primitive `id`.
    pub fn prim(&self, id: PrimId) -> &Primitive {
        &self.prims[id as usize]
    }

    /// Ids of all surfaces (including distant sources), in order.
    pub fn surfaces(&self) -> impl Iterator<Item = PrimId> + '_ {
        self.prims
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.ptype.is_modifier())
            .map(|(i, _)| i as PrimId)
    }

    /// The material that shades a surface with this modifier: the first material found by
    /// following the modifier chain through patterns and textures (`None` for void).
    pub fn material_of(&self, mut m: Option<PrimId>) -> Option<PrimId> {
        // Chains are acyclic (a modifier can only name an earlier one), so this ends.
        while let Some(id) = m {
            let p = self.prim(id);
            match p.ptype.class() {
                Class::Material | Class::Mixture => return Some(id),
                _ => m = p.modifier,
            }
        }
        None
    }

    /// Total number of triangles in all meshes.
    pub fn mesh_triangles(&self) -> usize {
        self.meshes.iter().map(|m| m.triangles.len()).sum()
    }

    /// The vertices of the polygon last defined as `name` (a floor for a sensor grid), or
    /// `None` when no polygon has that name.
    pub fn polygon_vertices(&self, name: &str) -> Option<Vec<[f64; 3]>> {
        let p = self
            .prims
            .iter()
            .rev()
            .find(|p| p.name == name && p.ptype == PrimType::Polygon)?;
        Some(
            p.fargs
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect(),
        )
    }

    /// Whether a surface is shaded by a `BSDF` or `aBSDF` material (a window group for the
    /// matrix methods of annual runs).
    pub fn has_bsdf_surfaces(&self) -> bool {
        self.surfaces().any(|id| {
            self.material_of(self.prim(id).modifier)
                .is_some_and(|m| matches!(self.prim(m).ptype, PrimType::Bsdf | PrimType::ABsdf))
        })
    }
}

/// Builds a [`Scene`] from raw primitives, resolving names as RADIANCE does: a modifier must be
/// defined before it is used, and a new definition of a name applies to what follows it.
#[derive(Default)]
pub struct SceneBuilder {
    scene: Scene,
    modifiers: HashMap<String, PrimId>,
    /// Undefined modifiers read as `void` (see `LoadOptions::geometry_only`).
    geometry_only: bool,
}

impl SceneBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder that reads undefined modifiers as `void`, when only geometry matters.
    pub fn geometry_only(mut self, yes: bool) -> Self {
        self.geometry_only = yes;
        self
    }

    /// Looks up the modifier currently defined under `name`.
    pub fn lookup(&self, name: &str) -> Option<PrimId> {
        self.modifiers.get(name).copied()
    }

    fn resolve(&self, name: &str, loc: &Loc, what: &str) -> Result<Option<PrimId>> {
        if name == "void" {
            return Ok(None);
        }
        if self.geometry_only {
            return Ok(self.lookup(name));
        }
        self.lookup(name).map(Some).ok_or_else(|| {
            SceneError::at(
                loc,
                format!("undefined modifier \"{name}\" ({what}); a modifier must be defined before it is used"),
            )
        })
    }

    /// Adds one primitive.
    pub fn add(&mut self, raw: RawPrim) -> Result<PrimId> {
        let id = PrimId::try_from(self.scene.prims.len())
            .map_err(|_| SceneError::at(&raw.loc, "too many primitives (more than 2^32)"))?;
        let prim = if raw.ptype == PrimType::Alias {
            self.alias(raw)?
        } else {
            let what = format!("used by {} \"{}\"", raw.ptype.name(), raw.name);
            let modifier = self.resolve(&raw.modifier, &raw.loc, &what)?;
            let mod_refs = self.string_refs(&raw, modifier)?;
            Primitive {
                modifier,
                ptype: raw.ptype,
                name: raw.name,
                sargs: raw.sargs,
                fargs: raw.fargs,
                mod_refs,
                alias_of: None,
                loc: raw.loc,
            }
        };
        if prim.ptype.is_modifier() {
            self.modifiers.insert(prim.name.clone(), id);
        }
        self.scene.prims.push(prim);
        Ok(id)
    }

    fn alias(&self, raw: RawPrim) -> Result<Primitive> {
        let target = &raw.sargs[0];
        let r = self.lookup(target).ok_or_else(|| {
            SceneError::at(
                &raw.loc,
                format!(
                    "alias \"{}\": bad reference \"{target}\" (no modifier of that name is defined before it; surfaces cannot be aliased)",
                    raw.name
                ),
            )
        })?;
        let orig = self.scene.prim(r);
        let modifier = if raw.modifier == "inherit" {
            orig.modifier
        } else {
            self.resolve(
                &raw.modifier,
                &raw.loc,
                &format!("used by alias \"{}\"", raw.name),
            )?
        };
        Ok(Primitive {
            modifier,
            ptype: orig.ptype,
            name: raw.name,
            sargs: orig.sargs.clone(),
            fargs: orig.fargs.clone(),
            mod_refs: orig.mod_refs.clone(),
            alias_of: Some(r),
            loc: raw.loc,
        })
    }

    /// Resolves modifiers named in string arguments.
    fn string_refs(&self, raw: &RawPrim, main: Option<PrimId>) -> Result<Vec<Option<PrimId>>> {
        let idx: Vec<usize> = match raw.ptype {
            PrimType::Illum | PrimType::Mirror => (0..raw.sargs.len()).collect(),
            PrimType::Mixfunc | PrimType::Mixdata | PrimType::Mixpict | PrimType::Mixtext => {
                vec![0, 1]
            }
            PrimType::Antimatter => (0..raw.sargs.len()).collect(),
            PrimType::WgmdFunc => vec![0, 4, 8],
            _ => return Ok(Vec::new()),
        };
        let what = format!("named by {} \"{}\"", raw.ptype.name(), raw.name);
        idx.into_iter()
            .map(|i| match raw.sargs[i].as_str() {
                "inherit" if raw.ptype == PrimType::WgmdFunc => Ok(main),
                name => self.resolve(name, &raw.loc, &what),
            })
            .collect()
    }

    /// Adds a primitive whose main modifier is given rather than named (one read from a
    /// binary scene section, which stores modifiers by number). Modifiers named in string
    /// arguments are resolved by name as usual, and the primitive's name is made visible.
    pub fn add_resolved(&mut self, raw: RawPrim, modifier: Option<PrimId>) -> Result<PrimId> {
        let id = PrimId::try_from(self.scene.prims.len())
            .map_err(|_| SceneError::at(&raw.loc, "too many primitives (more than 2^32)"))?;
        let mod_refs = self.string_refs(&raw, modifier)?;
        let prim = Primitive {
            modifier,
            ptype: raw.ptype,
            name: raw.name,
            sargs: raw.sargs,
            fargs: raw.fargs,
            mod_refs,
            alias_of: None,
            loc: raw.loc,
        };
        if prim.ptype.is_modifier() {
            self.modifiers.insert(prim.name.clone(), id);
        }
        self.scene.prims.push(prim);
        Ok(id)
    }

    /// Adds an alias named `name` of modifier `target` with modifier `modifier` (how a binary
    /// scene section stores aliases: by reference rather than by name).
    pub fn add_alias_of(
        &mut self,
        name: String,
        loc: Loc,
        target: PrimId,
        modifier: Option<PrimId>,
    ) -> Result<PrimId> {
        let id = PrimId::try_from(self.scene.prims.len())
            .map_err(|_| SceneError::at(&loc, "too many primitives (more than 2^32)"))?;
        let orig = self.scene.prim(target);
        let prim = Primitive {
            modifier,
            ptype: orig.ptype,
            name,
            sargs: orig.sargs.clone(),
            fargs: orig.fargs.clone(),
            mod_refs: orig.mod_refs.clone(),
            alias_of: Some(target),
            loc,
        };
        self.modifiers.insert(prim.name.clone(), id);
        self.scene.prims.push(prim);
        Ok(id)
    }

    /// The scene built so far.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Appends primitives and meshes made elsewhere (the contents of an instance or a mesh)
    /// whose links already use ids of this scene, without making their names visible: what
    /// follows still sees the modifiers defined in its own file.
    pub fn append_hidden(&mut self, prims: Vec<Primitive>, meshes: Vec<Mesh>) {
        self.scene.prims.extend(prims);
        self.scene.meshes.extend(meshes);
    }

    /// Adds a mesh whose `usemtl` names have already been resolved.
    pub fn add_mesh(&mut self, mesh: Mesh) {
        self.scene.meshes.push(mesh);
    }

    /// Adds every primitive and mesh of an already-built scene (a binary scene file), keeping
    /// its links and making its modifiers visible to what follows.
    pub fn merge(&mut self, other: Scene) {
        let base = self.scene.prims.len() as PrimId;
        let shift = |m: Option<PrimId>| m.map(|i| i + base);
        for (i, mut p) in other.prims.into_iter().enumerate() {
            p.modifier = shift(p.modifier);
            p.alias_of = shift(p.alias_of);
            p.mod_refs.iter_mut().for_each(|m| *m = shift(*m));
            if p.ptype.is_modifier() {
                self.modifiers.insert(p.name.clone(), base + i as PrimId);
            }
            self.scene.prims.push(p);
        }
        for mut m in other.meshes {
            m.modifiers.iter_mut().for_each(|x| *x = shift(*x));
            self.scene.meshes.push(m);
        }
    }

    /// The scene built so far.
    pub fn finish(self) -> Scene {
        self.scene
    }
}
