//! The binary scene file round-trips and refuses damaged input; OBJ meshes resolve usemtl names.

use daylit_scene::{archive, load_scene, load_scene_text, LoadOptions};
use std::path::Path;

const SCENE: &str = "void plastic m 0 0 5 .5 .5 .5 0 0\nvoid alias n m\n\
                     m polygon f 0 0 12 0 0 0 1 0 0 1 1 0 0 1 0\n!genbox n b 1 2 3\n";

#[test]
fn archive_round_trip_and_damage() {
    let scene = load_scene_text(SCENE, "t.rad", Path::new("."), &LoadOptions::default()).unwrap();
    let bytes = archive::encode(&scene, &["oconv t.rad".into()]);
    assert!(archive::is_archive(&bytes));
    assert_eq!(
        archive::header_lines(&bytes).unwrap()[..2],
        ["#?DAYLIT_SCENE", "oconv t.rad"]
    );
    assert_eq!(archive::decode(&bytes).unwrap(), scene);
    // Truncation, a flipped byte and a future version are all refused with a reason.
    let short = &bytes[..bytes.len() - 3];
    assert!(archive::decode(short).unwrap_err().contains("truncated"));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 5;
    flipped[last] ^= 0x40;
    assert!(archive::decode(&flipped).unwrap_err().contains("checksum"));
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let tag = text.find("DLSC").unwrap();
    let mut newer = bytes.clone();
    newer[tag + 4] = 9;
    assert!(archive::decode(&newer).unwrap_err().contains("version 9"));
    // Every prefix of the file decodes to an error, never a panic.
    for n in 0..bytes.len() {
        assert!(archive::decode(&bytes[..n]).is_err());
    }
}

#[test]
fn archive_loads_in_place_of_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let scene = load_scene_text(SCENE, "t.rad", Path::new("."), &LoadOptions::default()).unwrap();
    let oct = dir.path().join("s.oct");
    std::fs::write(&oct, archive::encode(&scene, &[])).unwrap();
    // A later text file can use the modifiers the binary file defines.
    let more = dir.path().join("more.rad");
    std::fs::write(&more, "n sphere extra 0 0 4 0 0 0 1\n").unwrap();
    let s = load_scene(&[oct, more], &LoadOptions::default()).unwrap();
    assert_eq!(s.prims.len(), scene.prims.len() + 1);
    let extra = s.prims.last().unwrap();
    assert_eq!(s.prim(extra.modifier.unwrap()).name, "n");
}

#[test]
fn obj_meshes_use_modifiers_by_usemtl_name() {
    let dir = tempfile::tempdir().unwrap();
    let mats = dir.path().join("m.rad");
    std::fs::write(
        &mats,
        "void plastic wood 0 0 5 .5 .3 .1 0 0\nvoid plastic steel 0 0 5 .6 .6 .6 0 0\n",
    )
    .unwrap();
    let obj = dir.path().join("chair.obj");
    std::fs::write(
        &obj,
        "o chair\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nusemtl wood\nf 1//1 2//1 3//1 4//1\nusemtl steel\nf 1 2 3\n",
    )
    .unwrap();
    let s = load_scene(&[mats.clone(), obj.clone()], &LoadOptions::default()).unwrap();
    let m = &s.meshes[0];
    assert_eq!(m.triangles.len(), 3, "the quad is triangulated");
    let names: Vec<&str> = m
        .tri_modifier
        .iter()
        .map(|&k| s.prim(m.modifiers[k as usize].unwrap()).name.as_str())
        .collect();
    assert_eq!(names, ["wood", "wood", "steel"]);

    // Undefined usemtl names and malformed lines are located errors.
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 1 1 0\nusemtl glass\nf 1 2 3\n").unwrap();
    let e = load_scene(&[mats.clone(), obj.clone()], &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chair.obj:4:1") && e.contains("usemtl \"glass\""),
        "{e}"
    );
    std::fs::write(&obj, "v 0 0 0\nv 1 0 x\nv 1 1 0\nusemtl wood\nf 1 2 3\n").unwrap();
    let e = load_scene(&[mats.clone(), obj.clone()], &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chair.obj:2:1") && e.contains("bad vertex position"),
        "{e}"
    );
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 1 1 0\nusemtl wood\nf 1 2 7\n").unwrap();
    let e = load_scene(&[mats.clone(), obj.clone()], &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("chair.obj:5:1") && e.contains("bad face"), "{e}");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n").unwrap();
    let e = load_scene(&[mats, obj], &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chair.obj:4:1") && e.contains("before any usemtl"),
        "{e}"
    );
}
