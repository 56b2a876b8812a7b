//! Native xform, genbox, genblinds, genrev, gensurf and genworm against RADIANCE 6.0a's own output
//! (tests/golden, made by make_goldens.sh).

use daylit_scene::{load_scene_text, LoadOptions, PrimType, Scene};
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn opts() -> LoadOptions {
    LoadOptions {
        check_files: false,
        ..Default::default()
    }
}

/// genbox output names a material it does not define.
const PRELUDE: &str = "void plastic mat 0 0 5 .5 .5 .5 0 0\n";

fn load_golden(path: &Path) -> Scene {
    let text = std::fs::read_to_string(path).unwrap();
    load_scene_text(
        &format!("{PRELUDE}{text}"),
        &path.display().to_string(),
        &golden_dir(),
        &opts(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn cases(file: &str) -> Vec<String> {
    std::fs::read_to_string(golden_dir().join(file))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect()
}

/// RADIANCE prints 12 significant digits (6 for dielectric, interface and mist colours).
fn close(a: f64, b: f64, t: PrimType) -> bool {
    let rel = match t {
        PrimType::Dielectric | PrimType::Interface | PrimType::Mist => 2e-6,
        _ => 1e-11,
    };
    (a - b).abs() <= 1e-9 + rel * b.abs().max(a.abs())
}

fn mod_name(s: &Scene, m: Option<u32>) -> String {
    m.map_or("void".into(), |i| s.prim(i).name.clone())
}

#[test]
fn xform_and_genbox_match_radiance() {
    let dir = golden_dir();
    for (i, case) in cases("cases.txt").iter().enumerate() {
        let ours = load_scene_text(&format!("{PRELUDE}!{case}\n"), "case", &dir, &opts())
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let golden = load_golden(&dir.join(format!("xform/{i:02}.rad")));
        assert_eq!(
            ours.prims.len(),
            golden.prims.len(),
            "{case}: primitive count"
        );
        for (a, b) in ours.prims.iter().zip(&golden.prims) {
            let ctx = format!("{case}: {} {}", b.ptype.name(), b.name);
            assert_eq!(a.ptype, b.ptype, "{ctx}");
            assert_eq!(a.name, b.name, "{ctx}");
            assert_eq!(
                mod_name(&ours, a.modifier),
                mod_name(&golden, b.modifier),
                "{ctx}"
            );
            assert_eq!(a.sargs, b.sargs, "{ctx}");
            assert_eq!(a.fargs.len(), b.fargs.len(), "{ctx}");
            for (x, y) in a.fargs.iter().zip(&b.fargs) {
                assert!(
                    close(*x, *y, a.ptype),
                    "{ctx}: {:?} vs {:?}",
                    a.fargs,
                    b.fargs
                );
            }
        }
    }
}

/// A surface as a comparable key: type, and its numbers rounded (polygons: the vertex cycle
/// rotated to start at its smallest vertex, so the start point does not matter).
fn geometry_keys(s: &Scene) -> Vec<(PrimType, Vec<i64>)> {
    let mut keys: Vec<(PrimType, Vec<i64>)> = s
        .surfaces()
        .map(|id| {
            let p = s.prim(id);
            let q: Vec<i64> = p.fargs.iter().map(|v| (v * 1e6).round() as i64).collect();
            let key = match p.ptype {
                PrimType::Polygon => {
                    let verts: Vec<&[i64]> = q.chunks(3).collect();
                    let start = (0..verts.len()).min_by_key(|&k| verts[k]).unwrap();
                    verts[start..]
                        .iter()
                        .chain(&verts[..start])
                        .flat_map(|v| v.iter().copied())
                        .collect()
                }
                PrimType::Cylinder | PrimType::Tube => {
                    // The axis may run either way.
                    let (a, b) = (q[0..3].to_vec(), q[3..6].to_vec());
                    let (a, b) = if a <= b { (a, b) } else { (b, a) };
                    [a, b, vec![q[6]]].concat()
                }
                _ => q,
            };
            (p.ptype, key)
        })
        .collect();
    keys.sort();
    keys
}

#[test]
fn rounded_and_bevelled_boxes_match_radiance_geometry() {
    let dir = golden_dir();
    for (i, case) in cases("cases_geometry.txt").iter().enumerate() {
        let ours = load_scene_text(&format!("{PRELUDE}!{case}\n"), "case", &dir, &opts()).unwrap();
        let golden = load_golden(&dir.join(format!("genbox/{i:02}.rad")));
        assert_eq!(geometry_keys(&ours), geometry_keys(&golden), "{case}");
    }
}

/// genrev and genworm refuse what they cannot honour with the command's location.
#[test]
fn curve_generators_refuse_bad_arguments() {
    let dir = golden_dir();
    for (case, want) in [
        ("genrev mat v 't' 'sqrt(' 4", "genrev: \"sqrt(\""),
        ("genrev mat v 't' '1' 0", "from 1 to a million"),
        ("genrev mat v 't' '1' 3 -q", "unknown option \"-q\""),
        ("genrev mat v 't' 'undefined_r(t)' 3", "genrev"),
        (
            "genworm mat w 0 t 0 0.1 4 -f no_such_file.cal",
            "no_such_file.cal",
        ),
        ("genworm mat w 0 t 0", "usage: genworm"),
        ("gensurf mat g s t 0 4 4 -o", "writes a Wavefront OBJ file"),
        ("gensurf mat g s t missing.dat 4 4", "gensurf"),
        (
            "gensurf mat g s t heights.dat 5 5",
            "heights.dat: 12 values, expected 36",
        ),
    ] {
        let e = load_scene_text(&format!("{PRELUDE}\n!{case}\n"), "in.rad", &dir, &opts())
            .err()
            .unwrap_or_else(|| panic!("{case}: accepted"))
            .to_string();
        assert!(e.contains("in.rad:3") && e.contains(want), "{case}: {e}");
    }
}
