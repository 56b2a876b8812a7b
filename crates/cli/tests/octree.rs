//! RADIANCE's binary geometry as scene input: octrees from `oconv` (frozen and not), compiled
//! meshes from `obj2mesh`, and the `instance` and `mesh` primitives that place them, traced by
//! `daylit rtrace` and compared with RADIANCE's rtrace (goldens in tests/golden/octree, made
//! by its make.sh).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/octree")
}

/// Runs `daylit rtrace args` in the golden folder with `rays` on standard input.
fn rtrace(args: &[&str], rays: &str) -> Result<String, String> {
    let dir = golden_dir();
    let input = std::fs::read(dir.join(rays)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .arg("rtrace")
        .args(args)
        .current_dir(&dir)
        .env("RAYPATH", ".")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn numbers(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// Largest difference per column group between two tables, with `tol` per column; panics
/// listing the worst row when any column exceeds its tolerance. Returns the largest
/// differences per column.
fn compare(what: &str, ours: &str, theirs: &str, tol: &[f64], relative: &[bool]) -> Vec<f64> {
    let (a, b) = (numbers(ours), numbers(theirs));
    assert_eq!(a.len(), b.len(), "{what}: row counts differ");
    let mut worst = vec![0.0f64; tol.len()];
    for (k, (ra, rb)) in a.iter().zip(&b).enumerate() {
        assert_eq!(
            ra.len(),
            tol.len(),
            "{what}: row {k} has {} columns",
            ra.len()
        );
        assert_eq!(rb.len(), tol.len(), "{what}: golden row {k}");
        for c in 0..tol.len() {
            let mut d = (ra[c] - rb[c]).abs();
            if relative[c] {
                d /= rb[c].abs().max(1e-3);
            }
            worst[c] = worst[c].max(d);
            assert!(
                d <= tol[c],
                "{what}: row {k} column {c}: daylit {} RADIANCE {} (difference {d:.3e} over {})\ndaylit:   {ra:?}\nRADIANCE: {rb:?}",
                ra[c],
                rb[c],
                tol[c]
            );
        }
    }
    eprintln!("{what}: largest differences per column {worst:?}");
    worst
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(golden_dir().join(name)).unwrap()
}

const VALUE_OPTS: &[&str] = &[
    "-h", "-ab", "0", "-av", ".1", ".1", ".1", "-dj", "0", "-ds", "0", "-dt", "0", "-dc", "1",
    "-lr", "6",
];

fn values(scene: &[&str], rays: &str) -> String {
    let mut args: Vec<&str> = VALUE_OPTS.to_vec();
    args.push("-oLv");
    args.extend_from_slice(scene);
    rtrace(&args, rays).unwrap_or_else(|e| panic!("rtrace {scene:?}: {e}"))
}

/// Distance (absolute) and the three value components (relative).
const VALUE_TOL: [f64; 4] = [2e-5, 2e-3, 2e-3, 2e-3];
const VALUE_REL: [bool; 4] = [false, true, true, true];

#[test]
fn frozen_and_unfrozen_octrees_trace_as_the_text_scene() {
    let text = values(&["sky.rad", "box.rad"], "rays_box.txt");
    let frozen = values(&["scene_f.oct"], "rays_box.txt");
    let unfrozen = values(&["scene.oct"], "rays_box.txt");
    // The frozen octree's reals are stored to 31 bits: the same to print precision.
    compare(
        "frozen vs text",
        &frozen,
        &text,
        &[1e-6; 4],
        &[false, true, true, true],
    );
    assert_eq!(unfrozen, text, "an unfrozen octree reads its scene files");
    compare(
        "box vs RADIANCE",
        &frozen,
        &golden("box_values.txt"),
        &VALUE_TOL,
        &VALUE_REL,
    );
}

#[test]
fn compiled_mesh_vertices_normals_and_local_coordinates_match_radiance() {
    // Distance, point, unperturbed normal, interpolated normal, (u,v).
    let ours = rtrace(&["-h", "-oLpNnc", "mesh.oct"], "rays_mesh.txt").unwrap();
    let mut tol = vec![2e-6; 12];
    // The interpolated normal: vertex normals kept in single precision.
    for t in &mut tol[7..10] {
        *t = 2e-6;
    }
    compare(
        "mesh geometry",
        &ours,
        &golden("mesh_geometry.txt"),
        &tol,
        &[false; 12],
    );
    let v = values(&["mesh.oct"], "rays_mesh.txt");
    compare(
        "mesh values (Lu, Lv pattern)",
        &v,
        &golden("mesh_values.txt"),
        &VALUE_TOL,
        &VALUE_REL,
    );
}

#[test]
fn instances_and_meshes_with_transforms_match_radiance() {
    let ours = rtrace(&["-h", "-oLpNc", "inst.oct"], "rays_inst.txt").unwrap();
    compare(
        "instance geometry",
        &ours,
        &golden("inst_geometry.txt"),
        &[2e-5, 2e-5, 2e-5, 2e-5, 2e-6, 2e-6, 2e-6, 2e-6, 2e-6],
        &[false; 9],
    );
    let v = values(&["inst.oct"], "rays_inst.txt");
    compare(
        "instance values",
        &v,
        &golden("inst_values.txt"),
        &VALUE_TOL,
        &VALUE_REL,
    );
    // The same placements read from scene text.
    let t = values(&["sky.rad", "inst.rad"], "rays_inst.txt");
    assert_eq!(t, v);
}

/// Copies `name` from the golden folder cut to `keep` bytes (or with byte `flip` changed).
fn damaged(dir: &Path, name: &str, keep: Option<usize>, flip: Option<usize>) -> PathBuf {
    let mut b = std::fs::read(golden_dir().join(name)).unwrap();
    if let Some(k) = keep {
        b.truncate(k);
    }
    if let Some(i) = flip {
        b[i] = 0x77;
    }
    let p = dir.join(format!("bad_{name}"));
    std::fs::write(&p, b).unwrap();
    p
}

#[test]
fn damaged_octrees_and_meshes_are_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_daylit"))
            .arg("rtrace")
            .args(args)
            .current_dir(dir.path())
            .env("RAYPATH", ".")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!err.contains("panicked"), "{err}");
        err
    };
    let len = std::fs::metadata(golden_dir().join("box_f.oct"))
        .unwrap()
        .len() as usize;
    for keep in [20, 80, 100, len / 2, len - 1] {
        let p = damaged(dir.path(), "box_f.oct", Some(keep), None);
        let err = run(&["-h", "-oL", p.to_str().unwrap()]);
        assert!(err.contains("bad_box_f.oct: byte "), "{err}");
    }
    // The octree's node codes start after the object count: a bad code is "damaged".
    let len = std::fs::metadata(golden_dir().join("grid.rtm"))
        .unwrap()
        .len() as usize;
    for keep in [60, 120, len / 2, len - 1] {
        damaged(dir.path(), "grid.rtm", Some(keep), None);
        std::fs::write(
            dir.path().join("m.rad"),
            "void mesh m\n1 bad_grid.rtm\n0\n0\n",
        )
        .unwrap();
        let err = run(&["-h", "-oL", "m.rad"]);
        assert!(err.contains("bad_grid.rtm: byte "), "{err}");
    }
    // Not an octree at all, and an octree instancing a mesh file.
    std::fs::write(
        dir.path().join("i.rad"),
        format!(
            "void instance i\n1 {}\n0\n0\n",
            golden_dir().join("grid.rtm").display()
        ),
    )
    .unwrap();
    let err = run(&["-h", "-oL", "i.rad"]);
    assert!(err.contains("not a RADIANCE octree"), "{err}");
}

/// RADIANCE's own test scenes, as the RADIANCE scene suite keeps them.
fn radiance_tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/radiance_scenes/scenes")
}

fn run_in(dir: &Path, args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(args)
        .current_dir(dir)
        .env("RAYPATH", ".")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn radiance_test_scenes_load_and_trace() {
    // porsche.octf's smoothed triangles use tmesh.cal: daylit's built-in text of it.
    let dir = radiance_tests();
    // The first porsche of porsches.rad (the second is made of ashik2), and woman.rad.
    let tmp = tempfile::tempdir().unwrap();
    let porsche = dir.join("porsche.octf");
    std::fs::write(
        tmp.path().join("p.rad"),
        format!(
            "void instance \"porsche #1\"\n9 {} -rx 90 -s .15 -t -4 2 1\n0\n0\n",
            porsche.display()
        ),
    )
    .unwrap();
    // Rays down onto the car, whose RADIANCE distances are in tests/golden/octree.
    let rays = golden("rays_porsche.txt");
    let out = run_in(tmp.path(), &["rtrace", "-h", "-oLN", "p.rad"], &rays);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    compare(
        "porsche",
        &String::from_utf8(out.stdout).unwrap(),
        &golden("porsche_geometry.txt"),
        &[2e-5, 2e-5, 2e-5, 2e-5],
        &[false; 4],
    );
    let out = run_in(
        &dir,
        &["rtrace", "-h", "-oLN", "woman.rad"],
        &golden("rays_woman.txt"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    compare(
        "woman",
        &String::from_utf8(out.stdout).unwrap(),
        &golden("woman_geometry.txt"),
        &[2e-5, 2e-5, 2e-5, 2e-5],
        &[false; 4],
    );
}
