//! RADIANCE's `mesh_def` test scene (18 placements of one compiled mesh, `woman.rtm`, through
//! nested `xform -a` arrays, one set with `-m chrome`) is traced as placements of one shared
//! hierarchy, and answers every ray as the same scene with each placement copied does.

use daylit_compile::{compile, Origin};
use daylit_geometry::Ray;
use daylit_scene::{load_scene, LoadOptions};
use glam::DVec3;
use std::path::Path;

#[test]
fn mesh_def_placements_trace_as_copies() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/radiance_scenes/scenes");
    let mut files: Vec<String> = ["basic.mat", "chrome.mat", "diorama_walls.rad"]
        .iter()
        .map(|f| dir.join(f).display().to_string())
        .collect();
    let woman = dir.join("woman.rad").display().to_string();
    for xf in [
        "-n plainclothes -s 1.5 -rx 90 -rz -80 -t 1 0 0 -a 9 -rz 40 -i 1 -t -5 2.5 0",
        "-m chrome -n shiny -s 1.5 -rx 90 -rz -105 -t 1 0 0 -rz 20 -a 9 -rz 40 -i 1 -t -5 2.5 0",
    ] {
        files.push(format!("!xform {xf} {woman}"));
    }
    let opts = LoadOptions {
        raypath: daylit_cal::RayPath::new([dir.clone()]),
        ..Default::default()
    };
    let paths: Vec<std::path::PathBuf> = files.iter().map(Into::into).collect();
    let scene = load_scene(&paths, &opts).unwrap();
    let placed = compile(&scene);
    let s = daylit_compile::shapes(&scene);
    assert_eq!((s.shared.len(), s.placements.len()), (1, 18));
    let mut copied_scene = scene.clone();
    copied_scene
        .meshes
        .iter_mut()
        .for_each(|m| m.placement = None);
    let copied = compile(&copied_scene);
    assert_eq!(placed.origins, copied.origins);
    assert_eq!(placed.accel.len(), copied.accel.len());
    let (lo, hi) = copied.accel.bounds();
    let mut hits = 0;
    for i in 0..4000u32 {
        // Rays from inside the diorama in a spiral of directions.
        let f = i as f64 / 4000.0;
        let org = lo + (hi - lo) * DVec3::new(0.2 + 0.6 * f, 0.5, 0.3 + 0.2 * (7.0 * f).sin());
        let (th, ph) = ((1.0 - 2.0 * f).acos(), 2.39996 * i as f64);
        let dir = DVec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos());
        let ray = Ray::new(org, dir);
        let (a, b) = (
            placed.accel.closest_hit(&ray, 1e-9, 1e30),
            copied.accel.closest_hit(&ray, 1e-9, 1e30),
        );
        assert_eq!(a.map(|h| h.prim), b.map(|h| h.prim), "ray {i}");
        if let (Some(a), Some(b)) = (a, b) {
            assert!((a.t - b.t).abs() < 1e-9 * b.t.max(1.0), "ray {i}");
            assert!((a.normal - b.normal).length() < 1e-7, "ray {i}");
            hits += usize::from(matches!(
                placed.origins[a.prim as usize],
                Origin::MeshTri { .. }
            ));
        }
    }
    assert!(hits > 100, "{hits} rays hit a placed mesh");
}
