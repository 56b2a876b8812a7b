//! The distant light sources of a scene — `source` primitives, the way RADIANCE writes suns
//! and sky domes — with where each came from, and a scene with chosen surfaces left out (a
//! program that brings its own sky leaves out the user's).

use crate::scene::{Mesh, PrimId, Primitive, Scene};
use crate::types::PrimType;

/// A `source` primitive and the inputs it was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct DistantSource {
    /// The primitive.
    pub id: PrimId,
    /// Its name (`sun`, `sky`, …).
    pub name: String,
    /// Where it and its modifiers were read, the source's own first, each once: file names as
    /// given, and `!command` lines for what an inline command made (`!gensky 12 21 14 +s`).
    pub origins: Vec<String>,
}

impl Scene {
    /// The scene's `source` primitives, in order, each with the inputs that made it and its
    /// modifiers (a sky dome read from `sky.rad` whose `skyfunc` came from `!gensky …` names
    /// both).
    pub fn distant_sources(&self) -> Vec<DistantSource> {
        self.prims
            .iter()
            .enumerate()
            .filter(|(_, p)| p.ptype == PrimType::Source)
            .map(|(i, p)| {
                let mut origins: Vec<String> = Vec::new();
                let mut note = |s: &str| {
                    if !origins.iter().any(|o| o == s) {
                        origins.push(s.to_string());
                    }
                };
                note(&p.loc.source);
                // Modifier chains only point back to earlier primitives, so this ends.
                let mut m = p.modifier;
                while let Some(id) = m {
                    let q = self.prim(id);
                    note(&q.loc.source);
                    if let Some(a) = q.alias_of {
                        note(&self.prim(a).loc.source);
                    }
                    m = q.modifier;
                }
                DistantSource {
                    id: i as PrimId,
                    name: p.name.clone(),
                    origins,
                }
            })
            .collect()
    }

    /// This scene without the surfaces (never modifiers, which others may name) for which
    /// `leave_out` holds; every link is renumbered. `scene.without_surfaces(|p| p.ptype ==
    /// PrimType::Source)` is the scene without its distant sources.
    pub fn without_surfaces(&self, leave_out: impl Fn(&Primitive) -> bool) -> Scene {
        let mut new_id: Vec<Option<PrimId>> = Vec::with_capacity(self.prims.len());
        let mut prims = Vec::with_capacity(self.prims.len());
        for p in &self.prims {
            if !p.ptype.is_modifier() && leave_out(p) {
                new_id.push(None);
                continue;
            }
            new_id.push(Some(prims.len() as PrimId));
            prims.push(p.clone());
        }
        // Only surfaces went, and links name modifiers: every link has a new number.
        let map = |m: Option<PrimId>| m.and_then(|i| new_id[i as usize]);
        for p in &mut prims {
            p.modifier = map(p.modifier);
            p.alias_of = map(p.alias_of);
            p.mod_refs.iter_mut().for_each(|m| *m = map(*m));
        }
        let meshes = self
            .meshes
            .iter()
            .map(|m| Mesh {
                modifiers: m.modifiers.iter().map(|&x| map(x)).collect(),
                ..m.clone()
            })
            .collect();
        Scene { prims, meshes }
    }
}

#[cfg(test)]
mod tests {
    use crate::{load_scene_text, LoadOptions, PrimType};
    use std::path::Path;

    const ROOM: &str = "
void plastic grey
0
0
5 .5 .5 .5 0 0

grey polygon floor
0
0
12 0 0 0  1 0 0  1 1 0  0 1 0
";

    const DOME: &str = "
skyfunc glow sky_glow
0
0
4 1 1 1 0

sky_glow source sky
0
0
4 0 0 1 180

grey sphere ball
0
0
4 0 0 1 0.5
";

    #[test]
    fn sources_name_the_file_and_the_command_they_came_from() {
        let text = format!("{ROOM}\n!gensky 12 21 14 -a 37.8 -o 122.2 -m 120 +s\n{DOME}");
        let s = load_scene_text(&text, "sky.rad", Path::new("."), &LoadOptions::default()).unwrap();
        let src = s.distant_sources();
        let names: Vec<&str> = src.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["sun", "sky"]);
        let gensky = "!gensky 12 21 14 -a 37.8 -o 122.2 -m 120 +s";
        assert_eq!(src[0].origins, [gensky]);
        assert_eq!(src[1].origins, ["sky.rad", gensky]);
    }

    #[test]
    fn leaving_surfaces_out_renumbers_the_links() {
        let text = format!("{ROOM}\n!gensky 12 21 14 +s\n{DOME}");
        let s = load_scene_text(&text, "sky.rad", Path::new("."), &LoadOptions::default()).unwrap();
        let t = s.without_surfaces(|p| p.ptype == PrimType::Source);
        assert!(t.distant_sources().is_empty());
        assert_eq!(t.prims.len(), s.prims.len() - 2);
        // Every modifier stays, and what is left keeps its modifier by name.
        for p in &t.prims {
            let orig = s.prims.iter().find(|q| q.name == p.name).unwrap();
            let name = |sc: &crate::Scene, m: Option<u32>| m.map(|i| sc.prim(i).name.clone());
            assert_eq!(name(&t, p.modifier), name(&s, orig.modifier), "{}", p.name);
        }
        let ball = t.prims.iter().find(|p| p.name == "ball").unwrap();
        assert_eq!(t.prim(ball.modifier.unwrap()).name, "grey");
    }
}
