//! Reading RADIANCE's binary geometry files: octrees (frozen and not) and compiled meshes,
//! made by RADIANCE's oconv and obj2mesh (crates/cli/tests/golden/octree/make.sh).

use daylit_scene::octree::read_octree;
use daylit_scene::rtm::read_rtm;
use daylit_scene::{load_scene, LoadOptions, PrimType, SceneError};
use std::path::{Path, PathBuf};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/tests/golden/octree")
        .join(name)
}

fn opts() -> LoadOptions {
    LoadOptions {
        check_files: false,
        raypath: daylit_cal::RayPath::new(vec![golden("")]),
        ..Default::default()
    }
}

#[test]
fn frozen_octree_holds_the_scene_it_was_made_from() {
    let path = golden("box_f.oct");
    let oct = read_octree(&std::fs::read(&path).unwrap(), &path).unwrap();
    assert_eq!(oct.objsize, 4);
    assert!(oct.files.is_empty());
    assert_eq!(oct.info[0], "oconv -f box.rad");
    let objs = oct.objects.as_ref().unwrap();
    assert_eq!(oct.nobjects as usize, objs.len());
    let from_oct = load_scene(&[path], &opts()).unwrap();
    let from_text = load_scene(&[golden("box.rad")], &opts()).unwrap();
    assert_eq!(from_oct.prims.len(), from_text.prims.len());
    for (a, b) in from_oct.prims.iter().zip(&from_text.prims) {
        assert_eq!(
            (a.ptype, &a.name, &a.sargs, a.modifier),
            (b.ptype, &b.name, &b.sargs, b.modifier)
        );
        assert_eq!(a.fargs.len(), b.fargs.len());
        for (x, y) in a.fargs.iter().zip(&b.fargs) {
            // Reals are stored with a 31-bit mantissa.
            assert!((x - y).abs() <= 1e-9 * y.abs().max(1e-3), "{x} {y}");
        }
    }
    // The bounding cube as RADIANCE's getinfo -d prints it.
    assert_eq!(oct.cube_origin, [-2.00001, -2.00001, -1.30001]);
    assert_eq!(oct.cube_size, 4.00002);
}

#[test]
fn unfrozen_octree_names_its_scene_files() {
    let path = golden("box.oct");
    let oct = read_octree(&std::fs::read(&path).unwrap(), &path).unwrap();
    assert_eq!(oct.files, ["box.rad"]);
    assert!(oct.objects.is_none());
    assert_eq!(oct.nobjects, 8);
}

#[test]
fn compiled_mesh_patches_normals_and_coordinates() {
    let path = golden("grid.rtm");
    let m = read_rtm(&std::fs::read(&path).unwrap(), &path).unwrap();
    // obj2mesh -v: 4 materials, 32 vertices (81.2% with normals, 62.5% with uv), 32 triangles.
    assert_eq!(m.materials.len(), 4);
    assert_eq!(m.vertices.len(), 32);
    assert_eq!(m.triangles.len(), 32);
    assert_eq!(m.normals.iter().filter(|n| n.is_some()).count(), 26);
    assert_eq!(m.uvs.iter().filter(|n| n.is_some()).count(), 20);
    let names: Vec<&str> = m.materials.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["mgrey", "mred", "uvcol", "uvmat"]);
    assert_eq!(m.materials[3].ptype, PrimType::Plastic);
    assert_eq!(m.materials[3].modifier, Some(2));
    // Every vertex lies inside the bounding cube, and the height field within ±0.3.
    for v in &m.vertices {
        for (x, o) in v.iter().zip(m.cube_origin) {
            assert!(*x >= o && *x <= o + m.cube_size);
        }
        assert!(v[2].abs() <= 0.3 + 1e-6);
    }
    for n in m.normals.iter().flatten() {
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!((len - 1.0).abs() < 1e-9 && n[2] > 0.5);
    }
}

#[test]
fn radiance_test_meshes_read() {
    // RADIANCE's test meshes as the RADIANCE scene suite keeps them (cab.rtm is RADIANCE's
    // test/renders/ref/cab.rtm).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/radiance_scenes/scenes");
    let cab = dir.join("cab.rtm");
    // obj2mesh -v cab.obj: 206 vertices, 240 triangles.
    let m = read_rtm(&std::fs::read(&cab).unwrap(), &cab).unwrap();
    assert_eq!((m.vertices.len(), m.triangles.len()), (206, 240));
    let w = dir.join("woman.rtm");
    let m = read_rtm(&std::fs::read(&w).unwrap(), &w).unwrap();
    assert!(m.patches > 1 && m.triangles.len() > 10_000);
}

/// Every truncation of a valid file is an error located in that file, never a panic.
/// Reads a file's bytes, named by a path.
type Reader = dyn Fn(&[u8], &Path) -> Result<(), SceneError>;

fn check_truncations(name: &str, read: &Reader) {
    let path = golden(name);
    let bytes = std::fs::read(&path).unwrap();
    read(&bytes, &path).unwrap();
    for n in 0..bytes.len() {
        let e = read(&bytes[..n], &path).expect_err("a truncated file must fail");
        match e {
            SceneError::Binary { offset, .. } => assert!(offset as usize <= n),
            other => panic!("{n}: {other}"),
        }
    }
    // Damaged bytes: errors or (where the byte is a value) another valid file, never a panic.
    for i in 0..bytes.len() {
        for b in [0x00, 0x02, 0x7f, 0x80, 0xff] {
            let mut d = bytes.clone();
            d[i] = b;
            let _ = read(&d, &path);
        }
    }
}

#[test]
fn truncated_or_damaged_files_are_located_errors() {
    check_truncations("box_f.oct", &|b, p| read_octree(b, p).map(drop));
    check_truncations("box.oct", &|b, p| read_octree(b, p).map(drop));
    check_truncations("grid.rtm", &|b, p| read_rtm(b, p).map(drop));
}
