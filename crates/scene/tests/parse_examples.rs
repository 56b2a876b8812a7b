//! Every primitive and modifier type parses from example files, with RADIANCE's name rules.

use daylit_scene::{load_scene, load_scene_text, LoadOptions, PrimType, Scene};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn scenes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes")
}

fn load_in_scenes_dir(name: &str) -> Scene {
    // Function and data files are found on RAYPATH, here the folder of the test scenes.
    let opts = LoadOptions {
        raypath: daylit_cal::RayPath::new([scenes()]),
        ..Default::default()
    };
    load_scene(&[scenes().join(name)], &opts).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_type_parses() {
    let scene = load_in_scenes_dir("all_types.rad");
    let seen: BTreeSet<PrimType> = scene.prims.iter().map(|p| p.ptype).collect();
    // Aliases take the type of what they copy; every other type appears.
    let missing: Vec<&str> = PrimType::ALL
        .iter()
        .filter(|t| **t != PrimType::Alias && !seen.contains(t))
        .map(|t| t.name())
        .collect();
    assert!(missing.is_empty(), "types not parsed: {missing:?}");
    let ball = scene.prims.iter().find(|p| p.name == "ball").unwrap();
    assert_eq!(ball.fargs, [0.0, 0.0, 1.0, 0.5]);
    assert_eq!(scene.prim(ball.modifier.unwrap()).name, "white");
}

fn by_name<'a>(s: &'a Scene, name: &str) -> Vec<&'a daylit_scene::Primitive> {
    s.prims.iter().filter(|p| p.name == name).collect()
}

#[test]
fn aliases_copy_type_and_arguments() {
    let s = load_in_scenes_dir("all_types.rad");
    let white = s.prims.iter().position(|p| p.name == "white").unwrap() as u32;
    let w2 = by_name(&s, "white2")[0];
    assert_eq!(
        (w2.ptype, &w2.fargs, w2.modifier),
        (PrimType::Plastic, &s.prim(white).fargs, None)
    );
    assert_eq!(w2.alias_of, Some(white));
    // A non-void modifier on an alias replaces the original's.
    let sw = by_name(&s, "shiny_white")[0];
    assert_eq!(s.prim(sw.modifier.unwrap()).name, "alu");
    // "inherit" keeps the modifier of what is aliased (white2's: void).
    assert_eq!(by_name(&s, "white3")[0].modifier, None);
    // Modifiers named in string arguments are resolved too.
    let mix = by_name(&s, "mix")[0];
    let names: Vec<&str> = mix
        .mod_refs
        .iter()
        .map(|m| s.prim(m.unwrap()).name.as_str())
        .collect();
    assert_eq!(names, ["white", "alu"]);
    let wgmd = by_name(&s, "wgmd")[0];
    assert_eq!(wgmd.mod_refs, vec![None, wgmd.modifier, None]);
}

#[test]
fn later_definitions_apply_to_what_follows() {
    let text = "void plastic m 0 0 5 .1 .1 .1 0 0\nm sphere a 0 0 4 0 0 0 1\n\
                void plastic m 0 0 5 .9 .9 .9 0 0\nm sphere b 0 0 4 0 0 0 1\n";
    let s = load_scene_text(text, "t", Path::new("."), &LoadOptions::default()).unwrap();
    let refl = |n: &str| s.prim(by_name(&s, n)[0].modifier.unwrap()).fargs[0];
    assert_eq!((refl("a"), refl("b")), (0.1, 0.9));
    assert_eq!(s.material_of(by_name(&s, "b")[0].modifier), Some(2));
}

#[test]
fn comments_quotes_and_several_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.rad");
    let b = dir.path().join("b.rad");
    std::fs::write(
        &a,
        "# materials\nvoid plastic 'my mat' 0 0 5 .5 .5 .5 0 0\n",
    )
    .unwrap();
    std::fs::write(&b, "\"my mat\" sphere s\n0\n0\n4 1 2 3 4\n").unwrap();
    let s = load_scene(&[a, b], &LoadOptions::default()).unwrap();
    assert_eq!(s.prims.len(), 2);
    assert_eq!(s.prim(1).loc.line, 1);
    assert!(s.prim(1).loc.source.ends_with("b.rad"));
}
