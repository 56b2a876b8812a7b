//! Intersections and normals against RADIANCE 6.0a's rtrace on every surface type
//! (tests/golden/rays.txt, made by make_golden.sh): the same surface, the same distance and the
//! same unperturbed normal (`-oLNs`), far from the origin.

use daylit_compile::{compile, Origin};
use daylit_geometry::{DVec3, Ray};
use daylit_scene::{load_scene_text, LoadOptions};
use std::path::Path;

#[test]
fn hits_match_rtrace() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    // Inline commands run in the current folder, as RADIANCE's oconv runs them.
    let text = std::fs::read_to_string(dir.join("mixed.rad")).unwrap();
    let scene = load_scene_text(&text, "mixed.rad", &dir, &LoadOptions::default()).unwrap();
    let compiled = compile(&scene);
    let text = std::fs::read_to_string(dir.join("rays.txt")).unwrap();
    let mut hits = 0;
    for (i, line) in text.lines().enumerate() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |k: usize| w[k].parse::<f64>().unwrap();
        let ray = Ray::new(
            DVec3::new(num(0), num(1), num(2)),
            DVec3::new(num(3), num(4), num(5)).normalize(),
        );
        let got = compiled.accel.closest_hit(&ray, 0.0, f64::INFINITY);
        let ctx = format!("ray {} ({line})", i + 1);
        if w[10] == "*" {
            assert!(
                got.is_none(),
                "{ctx}: RADIANCE misses, daylit hits {:?}",
                got
            );
            continue;
        }
        hits += 1;
        let h = got.unwrap_or_else(|| panic!("{ctx}: RADIANCE hits {}, daylit misses", w[10]));
        let Origin::Prim(id) = compiled.origins[h.prim as usize] else {
            panic!("{ctx}: not a primitive")
        };
        assert_eq!(scene.prim(id).name, w[10], "{ctx}");
        let t = num(6);
        assert!(
            (h.t - t).abs() <= 2e-6 * t.max(1.0),
            "{ctx}: t {} vs {t}",
            h.t
        );
        let n = DVec3::new(num(7), num(8), num(9));
        assert!(
            (h.normal - n).length() < 1e-5,
            "{ctx}: normal {} vs {n}",
            h.normal
        );
    }
    assert!(hits > 1000, "only {hits} hits");
}
