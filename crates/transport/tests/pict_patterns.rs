//! Picture, text and spectral patterns against RADIANCE 6.0a (tests/golden/pict, made by its
//! make_goldens.sh): `colorpict` on pictures in three orientations (one with a pixel aspect,
//! an exposure and a transform) and `mixpict`; `brighttext`, `colortext` (from a file,
//! proportional, slanted) and `mixtext` in the three spacing modes; `spectrum` (resampled,
//! direct, three-band and out-of-gamut), `specfile` (even and uneven), `specdata` and
//! `specfunc`.
//!
//! Every surface is a glow seen straight on with `-ab 0`, so each value is the pattern's
//! alone and deterministic: daylit must agree to 0.5 % per channel (RADIANCE keeps colours
//! in single precision). Text values are one of two colours, so there a ray either matches
//! or is on the other side of a glyph's edge. `specfunc` jitters its wavelengths, so the
//! ramp case compares the mean of 1000 rays (1 %).

use daylit_compile::compile;
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pict")
}

fn numbers(name: &str) -> Vec<Vec<f64>> {
    std::fs::read_to_string(dir().join(name))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// The ray origins of `case`, as make_goldens.sh prints them from grids.txt.
fn rays(case: &str) -> Vec<DVec3> {
    let text = std::fs::read_to_string(dir().join("grids.txt")).unwrap();
    let mut out = Vec::new();
    for l in text
        .lines()
        .filter(|l| l.split_whitespace().next() == Some(case))
    {
        let v: Vec<f64> = l
            .split_whitespace()
            .skip(1)
            .map(|w| w.parse().unwrap())
            .collect();
        let at = |a: f64, b: f64, n: f64, k: f64| {
            let x = if n > 1.0 {
                a + (b - a) * k / (n - 1.0)
            } else {
                a
            };
            format!("{x:.6}").parse::<f64>().unwrap()
        };
        for j in 0..v[5] as usize {
            for i in 0..v[2] as usize {
                out.push(DVec3::new(
                    at(v[0], v[1], v[2], i as f64),
                    at(v[3], v[4], v[5], j as f64),
                    1.0,
                ));
            }
        }
    }
    out
}

fn renderer(scene: &str) -> Renderer {
    let raypath = daylit_cal::RayPath::new([dir()]);
    let load = LoadOptions {
        raypath: raypath.clone(),
        ..LoadOptions::default()
    };
    let scene = load_scene(&[dir().join(scene)], &load).unwrap();
    let compiled = compile(&scene);
    let words: Vec<String> = "-ab 0 -av 0 0 0"
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut opts = Options::rtrace();
    let mut i = 0;
    while i < words.len() {
        i += opts.parse_arg(&words, i).unwrap().max(1);
    }
    Renderer::new(scene, compiled, opts, &raypath).unwrap()
}

fn trace(r: &Renderer, case: &str) -> Vec<DVec3> {
    rays(case)
        .iter()
        .enumerate()
        .map(|(k, &o)| {
            let mut ctx = r.ctx(k as u64);
            r.radiance(o, DVec3::new(0.0, 0.0, -1.0), &mut ctx).value
        })
        .collect()
}

/// The worst per-channel relative difference and its ray; panics past `rel`, or when more
/// than `outliers` rays are off (text: rays on a glyph's edge).
fn compare(case: &str, got: &[DVec3], rel: f64, outliers: usize) {
    let gold = numbers(&format!("goldens/{case}.txt"));
    assert_eq!(got.len(), gold.len(), "{case}: ray count");
    let origins = rays(case);
    let mut worst = (0.0, 0);
    let mut off = Vec::new();
    for (k, (g, want)) in got.iter().zip(&gold).enumerate() {
        let err = (0..3)
            .map(|c| (g[c] - want[c]).abs() / want[c].abs().max(1e-3))
            .fold(0.0, f64::max);
        if err > rel {
            off.push(k);
        } else if err > worst.0 {
            worst = (err, k);
        }
    }
    eprintln!(
        "{case}: {} rays, worst relative difference {:.4}% (ray {}), {} off by more than {}%",
        got.len(),
        100.0 * worst.0,
        worst.1,
        off.len(),
        100.0 * rel
    );
    for &k in off.iter().take(10) {
        eprintln!(
            "  ray {k} at {:?}: daylit {:?}, RADIANCE {:?}",
            origins[k], got[k], gold[k]
        );
    }
    assert!(off.len() <= outliers, "{case}: {} rays differ", off.len());
}

#[test]
fn picture_patterns_match_radiance() {
    let r = renderer("pict.rad");
    compare("pict", &trace(&r, "pict"), 1e-4, 0);
}

#[test]
fn text_patterns_match_radiance() {
    let r = renderer("text.rad");
    compare("text", &trace(&r, "text"), 5e-3, 0);
}

#[test]
fn spectral_patterns_match_radiance() {
    let r = renderer("spec.rad");
    compare("spec", &trace(&r, "spec"), 1e-4, 0);
}

#[test]
fn jittered_specfunc_mean_matches_radiance() {
    let r = renderer("spec.rad");
    let got = trace(&r, "ramp");
    let mean = got.iter().sum::<DVec3>() / got.len() as f64;
    let want = &numbers("goldens/ramp.mean.txt")[0];
    for c in 0..3 {
        let err = (mean[c] - want[c]).abs() / want[c];
        eprintln!(
            "ramp mean channel {c}: daylit {:.6}, RADIANCE {:.6} ({:.3}%)",
            mean[c],
            want[c],
            100.0 * err
        );
        assert!(err < 0.01, "channel {c}");
    }
}

/// A scene of one glow square with `pattern` on it, in a fresh directory with `files`;
/// the error loading it or `Renderer::new` gives, if any.
fn build_error(name: &str, pattern: &str, files: &[(&str, &[u8])]) -> Option<String> {
    let d = std::env::temp_dir().join(format!("daylit_pict_{name}_{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    for (f, bytes) in files {
        std::fs::write(d.join(f), bytes).unwrap();
    }
    let scene_text = format!(
        "{pattern}\npat glow g 0 0 4 1 1 1 0\ng polygon p 0 0 12 0 0 0 1 0 0 1 1 0 0 1 0\n"
    );
    std::fs::write(d.join("scene.rad"), scene_text).unwrap();
    let raypath = daylit_cal::RayPath::new([d.clone()]);
    let load = LoadOptions {
        raypath: raypath.clone(),
        ..LoadOptions::default()
    };
    // Missing files are found out while loading, the rest when the modifiers are built.
    let r = match load_scene(&[d.join("scene.rad")], &load) {
        Ok(scene) => {
            let compiled = compile(&scene);
            Renderer::new(scene, compiled, Options::rtrace(), &raypath)
                .err()
                .map(|e| e.to_string())
        }
        Err(e) => Some(e.to_string()),
    };
    let _ = std::fs::remove_dir_all(&d);
    r
}

/// A malformed-input case: name, pattern text, files, what the error must say.
type Case<'a> = (&'a str, String, Vec<(&'a str, Vec<u8>)>, &'a str);

#[test]
fn malformed_inputs_are_located_errors() {
    let grid = std::fs::read(dir().join("grid.hdr")).unwrap();
    let hsr = std::fs::read(dir().join("spect.hsr")).unwrap();
    let cases: Vec<Case> = vec![
        (
            "truncated_picture",
            "void colorpict pat 7 noop noop noop a.hdr . Px Py\n0\n0".into(),
            vec![("a.hdr", grid[..grid.len() - 20].to_vec())],
            "scanline",
        ),
        (
            "xyze_picture",
            "void colorpict pat 7 noop noop noop a.hdr . Px Py\n0\n0".into(),
            vec![(
                "a.hdr",
                String::from_utf8_lossy(&grid)
                    .replace("rgbe", "xyze")
                    .into_bytes(),
            )],
            "FORMAT=32-bit_rle_xyze",
        ),
        (
            "missing_picture",
            "void colorpict pat 7 noop noop noop none.hdr . Px Py\n0\n0".into(),
            vec![],
            "cannot find",
        ),
        (
            "thin_picture",
            "void colorpict pat 7 noop noop noop a.hdr . Px Py\n0\n0".into(),
            vec![(
                "a.hdr",
                b"#?RADIANCE\n\n-Y 1 +X 2\n\x80\x80\x80\x81\x80\x80\x80\x81".to_vec(),
            )],
            "at least 2 pixels",
        ),
        (
            "bad_font",
            "void brighttext pat 3 f.fnt . Hi\n0\n11 0 1 0 .1 0 0 0 -.1 0 1 0".into(),
            vec![("f.fnt", b"72 2 10 10\n 20 x\n".to_vec())],
            "line 2",
        ),
        (
            "missing_text_file",
            "void brighttext pat 2 f.fnt t.txt\n0\n11 0 1 0 .1 0 0 0 -.1 0 1 0".into(),
            vec![("f.fnt", b"72 0\n".to_vec())],
            "text file",
        ),
        (
            "parallel_vectors",
            "void brighttext pat 3 f.fnt . Hi\n0\n11 0 1 0 .1 0 0 .2 0 0 1 0".into(),
            vec![("f.fnt", b"72 0\n".to_vec())],
            "motion vector",
        ),
        (
            "bad_specfile",
            "void specfile pat 1 s.dat\n0\n0".into(),
            vec![("s.dat", b"1\n380 780 3\n.5 .5\n".to_vec())],
            "data value 3",
        ),
        (
            "specfile_2d",
            "void specfile pat 1 s.dat\n0\n0".into(),
            vec![("s.dat", b"2 0 1 2 380 780 2 1 1 1 1".to_vec())],
            "one-dimensional",
        ),
        (
            "truncated_hsr",
            "void specpict pat 5 noop s.hsr . Px Py\n0\n0".into(),
            vec![("s.hsr", hsr[..hsr.len() - 7].to_vec())],
            "bytes of pixels",
        ),
        (
            "hsr_without_splits",
            "void specpict pat 5 noop s.hsr . Px Py\n0\n0".into(),
            vec![(
                "s.hsr",
                String::from_utf8_lossy(&hsr)
                    .replace("WAVELENGTH_SPLITS", "X")
                    .into_bytes(),
            )],
            "WAVELENGTH_SPLITS",
        ),
    ];
    for (name, pattern, files, want) in cases {
        let files: Vec<(&str, &[u8])> = files.iter().map(|(f, b)| (*f, b.as_slice())).collect();
        let e = build_error(name, &pattern, &files).unwrap_or_else(|| panic!("{name}: accepted"));
        assert!(e.contains(want) && e.contains("scene.rad:1"), "{name}: {e}");
    }
}
