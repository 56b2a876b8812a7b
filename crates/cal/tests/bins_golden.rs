//! The embedded sky and hemisphere bin files (tregenza.cal, reinhart.cal, reinhartb.cal,
//! disk2square.cal, klems_*.cal, cieskyscan.cal) against RADIANCE's own files: goldens
//! written by `golden/bins/make_bin_goldens.sh` (RADIANCE's rcalc with RADIANCE's .cal
//! files). Every value must be equal exactly: a bin one off at a row edge is a wrong bin.
//!
//! RADIANCE is not needed here; an empty search path makes the embedded files answer.

use daylit_cal::{CalEnv, EvalState, RayPath, SimpleRay};
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bins")
}

fn no_path() -> RayPath {
    RayPath::new(Vec::<PathBuf>::new())
}

/// An environment with `file` from the embedded library, `settings` (rcalc `-e` text,
/// `;`-separated) loaded after it in its context, and `expr` compiled there.
fn setup(file: &str, settings: &str, expr: &str) -> (CalEnv, daylit_cal::ExprId) {
    let mut env = CalEnv::new();
    env.load_file(file, &no_path())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    if !settings.is_empty() {
        env.load_str_in(file, "settings", &format!("{settings};"))
            .unwrap_or_else(|e| panic!("{file} {settings}: {e}"));
    }
    let id = env
        .compile_expr_in(file, expr)
        .unwrap_or_else(|e| panic!("{file} {expr}: {e}"));
    (env, id)
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number '{s}'"))
}

struct Column {
    file: String,
    settings: String,
    expr: String,
}

fn check_frame(name: &str) -> usize {
    let path = golden_dir().join(format!("frame_{name}.dat"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cols = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(spec) = line.strip_prefix("# col ") {
            let parts: Vec<&str> = spec.split(" | ").collect();
            assert_eq!(parts.len(), 4, "{line}");
            cols.push(Column {
                file: parts[1].trim().into(),
                settings: parts[2].trim().into(),
                expr: parts[3].trim().into(),
            });
        } else if !line.starts_with('#') {
            let v: Vec<f64> = line.split_whitespace().map(num).collect();
            assert_eq!(v.len(), 3 + cols.len(), "{line}");
            rows.push(v);
        }
    }
    assert!(rows.len() > 200 && !cols.is_empty());
    let mut checked = 0;
    for (c, col) in cols.iter().enumerate() {
        let (env, id) = setup(&col.file, &col.settings, &col.expr);
        let mut st = EvalState::for_env(&env);
        let mut ray = SimpleRay::default();
        let mut bad = Vec::new();
        for r in &rows {
            ray.set_dir([r[0], r[1], r[2]]);
            let v = env.eval_expr(id, &mut st, &ray);
            assert!(st.error().is_none(), "{:?}", st.take_error());
            // Bit-for-bit (so -0 and 0 differ only if RADIANCE's did).
            if v != r[3 + c] {
                bad.push(format!(
                    "  D = {:?} {:?} {:?}: daylit {v}, RADIANCE {}",
                    r[0],
                    r[1],
                    r[2],
                    r[3 + c]
                ));
            }
            checked += 1;
        }
        assert!(
            bad.is_empty(),
            "frame {name}, {} [{}] {}: {} of {} differ:\n{}",
            col.file,
            col.settings,
            col.expr,
            bad.len(),
            rows.len(),
            bad[..bad.len().min(10)].join("\n")
        );
    }
    checked
}

#[test]
fn sky_frame_bins_equal_radiance() {
    // Also the world-frame files (tregenza.cal, reinhart.cal) and every file's defaults.
    assert!(check_frame("sky") > 60_000);
}

#[test]
fn wall_frame_bins_equal_radiance() {
    assert!(check_frame("wall") > 30_000);
}

#[test]
fn oblique_frame_bins_equal_radiance() {
    assert!(check_frame("oblique") > 30_000);
}

#[test]
fn floor_frame_bins_equal_radiance() {
    assert!(check_frame("floor") > 25_000);
}

/// `in_square_*` → `out_disk_*` and `in_disk_*` → `out_square_*`, exactly.
#[test]
fn disk_square_conversions_equal_radiance() {
    for (golden, inputs, outputs) in [
        (
            "square2disk.dat",
            "in_square_x = arg(1); in_square_y = arg(2)",
            ["out_disk_x", "out_disk_y"],
        ),
        (
            "disk2square.dat",
            "in_disk_x = arg(1); in_disk_y = arg(2)",
            ["out_square_x", "out_square_y"],
        ),
    ] {
        let text = std::fs::read_to_string(golden_dir().join(golden)).unwrap();
        let mut env = CalEnv::new();
        env.load_file("disk2square.cal", &no_path()).unwrap();
        env.load_str_in("disk2square.cal", "inputs", &format!("{inputs};"))
            .unwrap();
        let ids = outputs.map(|o| env.compile_expr_in("disk2square.cal", o).unwrap());
        let mut st = EvalState::for_env(&env);
        let mut n = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let v: Vec<f64> = line.split_whitespace().map(num).collect();
            let ray = SimpleRay::with_args(&v[..2]);
            for (k, id) in ids.iter().enumerate() {
                let got = env.eval_expr(*id, &mut st, &ray);
                assert!(
                    got.to_bits() == v[2 + k].to_bits(),
                    "{golden} {:?}: {} = {got:?}, RADIANCE {:?}",
                    &v[..2],
                    outputs[k],
                    v[2 + k]
                );
            }
            n += 1;
        }
        assert!(n > 400, "{golden}: {n} points");
    }
}

#[test]
fn bin_counts_equal_radiance() {
    let text = std::fs::read_to_string(golden_dir().join("counts.dat")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let p: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let (env, id) = setup(p[0], p[1], p[2]);
        let mut st = EvalState::for_env(&env);
        let got = env.eval_expr(id, &mut st, &SimpleRay::default());
        assert_eq!(got, num(p[3]), "{line}");
        n += 1;
    }
    assert!(n >= 20);
}

/// Files on the search path take precedence over the embedded ones.
#[test]
fn raypath_file_replaces_embedded_bins() {
    let dir = std::env::temp_dir().join(format!("daylit-bins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tregenza.cal"), "tbin = 7; Ntbins : 1;\n").unwrap();
    let mut env = CalEnv::new();
    env.load_file("tregenza.cal", &RayPath::new(vec![dir.clone()]))
        .unwrap();
    let id = env.compile_expr_in("tregenza.cal", "tbin").unwrap();
    let mut st = EvalState::for_env(&env);
    assert_eq!(env.eval_expr(id, &mut st, &SimpleRay::default()), 7.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn degenerate_frame_bins_equal_radiance() {
    // Up along the normal: the azimuth comes from signed zeros.
    assert!(check_frame("degenerate") > 4_000);
}
