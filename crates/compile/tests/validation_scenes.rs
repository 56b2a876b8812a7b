//! The validation scenes (validation/, RADIANCE goldens for the light-transport work) load and
//! compile cleanly: no degenerate geometry, every function file and expression compiles.

use daylit_compile::{check_functions, shapes, Severity};
use daylit_scene::{load_scene, LoadOptions};
use std::path::Path;

#[test]
fn validation_scenes_load_and_compile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/scenes");
    let mut cases = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let list = std::fs::read_to_string(dir.join("scene_files.txt")).unwrap();
        let files: Vec<_> = list.split_whitespace().map(|f| dir.join(f)).collect();
        let opts = LoadOptions {
            raypath: daylit_cal::RayPath::new([dir.clone()]),
            ..Default::default()
        };
        let scene = load_scene(&files, &opts).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut s = shapes(&scene);
        let mut env = daylit_cal::CalEnv::new();
        s.findings
            .extend(check_functions(&scene, &opts.raypath, &mut env));
        let bad: Vec<String> = s
            .findings
            .iter()
            .filter(|f| f.severity != Severity::Warning)
            .map(|f| f.to_string())
            .collect();
        assert!(bad.is_empty(), "{}: {bad:?}", dir.display());
        assert!(!s.shapes.is_empty());
        cases += 1;
    }
    assert!(cases >= 10, "only {cases} validation scenes");
}
