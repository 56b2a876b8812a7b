//! The files a scene rests on beyond the ones given on the command line: files its inline
//! commands read (`!xform` of another file, where each primitive was read from), meshes, and
//! the data its primitives name — `.cal` programs, data files, pictures, fonts, BSDF XML —
//! found as RADIANCE finds them, along `RAYPATH`. A result's provenance hashes them too, so a
//! changed `.cal` file or window XML shows in the record.

use crate::Scene;
use daylit_cal::RayPath;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

impl Scene {
    /// The files this scene was read from or names, less `given` (compared as canonical
    /// paths), each once, in a stable order (sorted).
    pub fn referenced_files(&self, given: &[PathBuf], raypath: &RayPath) -> Vec<PathBuf> {
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let given: BTreeSet<PathBuf> = given.iter().map(|p| canonical(p)).collect();
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut add = |p: PathBuf| {
            // `./x.cal` (RAYPATH's `.` joined) reads as the user wrote it: `x.cal`.
            let p = p.strip_prefix(".").map(Path::to_path_buf).unwrap_or(p);
            let c = canonical(&p);
            if !given.contains(&c) && seen.insert(c) {
                out.push(p);
            }
        };
        for prim in &self.prims {
            let source = Path::new(&*prim.loc.source);
            if source.is_file() {
                add(source.to_path_buf());
            }
            // String arguments that name a file RADIANCE would open (a bare word like `.` or
            // a modifier name finds no file and is skipped).
            for word in &prim.sargs {
                if word.contains(['.', '/']) {
                    if let Some(p) = raypath.find(word) {
                        add(p);
                    }
                }
            }
        }
        for mesh in &self.meshes {
            let p = Path::new(&mesh.source);
            if p.is_file() {
                add(p.to_path_buf());
            }
        }
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::{load_scene, LoadOptions};
    use daylit_cal::RayPath;

    #[test]
    fn included_files_and_named_data_are_listed_once() {
        let d = tempfile::tempdir().unwrap();
        let p = |n: &str| d.path().join(n);
        std::fs::write(p("sky.cal"), "f = 1;\n").unwrap();
        std::fs::write(p("part.rad"), "void plastic grey 0 0 5 .5 .5 .5 0 0\n").unwrap();
        std::fs::write(
            p("main.rad"),
            format!(
                "!xform {}\nvoid brightfunc b 2 f sky.cal 0 0\nb glow g 0 0 4 1 1 1 0\n\
                 grey sphere s 0 0 4 0 0 0 1\nvoid plastic other 0 0 5 .2 .2 .2 0 0\n",
                p("part.rad").display()
            ),
        )
        .unwrap();
        let raypath = RayPath::new([d.path().to_path_buf()]);
        let load = LoadOptions {
            raypath: raypath.clone(),
            ..LoadOptions::default()
        };
        let scene = load_scene(&[p("main.rad")], &load).unwrap();
        let files = scene.referenced_files(&[p("main.rad")], &raypath);
        assert_eq!(files, vec![p("part.rad"), p("sky.cal")]);
    }
}
