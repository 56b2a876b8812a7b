//! Sampling in distribution, located errors, and the parts of a file RADIANCE reads besides
//! the scattering data.

use daylit_bsdf::{Bsdf, Parts, Side};
use glam::DVec3;
use std::f64::consts::PI;
use std::io::Read;
use std::path::PathBuf;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    if name.ends_with(".gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        std::fs::read_to_string(path).unwrap()
    }
}

fn load(name: &str) -> Bsdf {
    Bsdf::from_str(&data(&format!("{name}.xml.gz")), &format!("{name}.xml")).unwrap()
}

/// A smooth test function of the outgoing direction, different on the two sides.
fn g(v: DVec3) -> f64 {
    if v.z > 0.0 {
        1.0 + 0.8 * v.x
    } else {
        2.0 + 0.9 * v.y - 0.5 * v.z
    }
}

/// ∫ f(in, out) g(out) |cos θ_out| dω over the sphere, by cells of 0.1° in θ and 0.25° in φ
/// whose edges fall on the Klems patch edges (each cell weighted by its exact projected solid
/// angle), so that the piecewise-constant data is integrated exactly.
fn quadrature(b: &Bsdf, inc: DVec3, parts_t: bool, parts_r: bool) -> f64 {
    let (nt, nphi) = (900, 1440);
    let mut sum = 0.0;
    for side in [1.0, -1.0] {
        let reflect = (side > 0.0) == (inc.z > 0.0);
        if (reflect && !parts_r) || (!reflect && !parts_t) {
            continue;
        }
        for i in 0..nt {
            let (t0, t1) = (
                (i as f64 / nt as f64 * 90.0).to_radians(),
                ((i + 1) as f64 / nt as f64 * 90.0).to_radians(),
            );
            let w = 0.5 * (t1.sin().powi(2) - t0.sin().powi(2)) * 2.0 * PI / nphi as f64;
            let t = 0.5 * (t0 + t1);
            for j in 0..nphi {
                let phi = 2.0 * PI * (j as f64 + 0.5) / nphi as f64;
                let out = DVec3::new(t.sin() * phi.cos(), t.sin() * phi.sin(), side * t.cos());
                sum += b.eval_value(inc, out).y() * g(out) * w;
            }
        }
    }
    sum
}

/// The mean of weight × g over stratified samples.
fn monte_carlo(b: &Bsdf, inc: DVec3, parts: Parts, n: usize) -> f64 {
    let mut sum = 0.0;
    for k in 0..n {
        let u = (k as f64 + 0.5) / n as f64;
        if let Some((out, w)) = b.sample(inc, u, parts) {
            assert!((out.length() - 1.0).abs() < 1e-6, "{out}");
            sum += w.y() * g(out);
        }
    }
    sum / n as f64
}

#[test]
fn samples_follow_the_bsdf() {
    for name in [
        "pyradiance-blinds",
        "frads-klems_aniso_high",
        "frads-blinds30",
    ] {
        let b = load(name);
        for inc in [
            DVec3::new(0.3, 0.2, 0.93).normalize(),
            DVec3::new(-0.6, 0.1, 0.5).normalize(),
            DVec3::new(0.2, -0.5, -0.7).normalize(),
        ] {
            let truth = quadrature(&b, inc, true, true);
            let mc = monte_carlo(&b, inc, Parts::ALL, 200_000);
            assert!(
                (mc - truth).abs() <= 0.02 * truth,
                "{name} {inc}: sampled {mc} vs integral {truth}"
            );
            // Each weight is the directional-hemispherical value of the parts drawn from.
            let (_, w) = b.sample(inc, 0.37, Parts::ALL).unwrap();
            assert!((w.y() - b.direct_hemi(inc, Parts::ALL)).abs() < 1e-12);
            // Transmission alone.
            let t = quadrature(&b, inc, true, false);
            let mc_t = monte_carlo(
                &b,
                inc,
                Parts::T | Parts::SPECULAR | Parts::DIFFUSE,
                100_000,
            );
            assert!(
                (mc_t - t).abs() <= 0.02 * t.max(1e-3),
                "{name} {inc}: T {mc_t} vs {t}"
            );
        }
    }
}

#[test]
fn sampling_nothing_gives_none() {
    let b = load("frads-ec60");
    // No reflection data at all.
    assert!(b
        .sample(DVec3::Z, 0.5, Parts::R | Parts::SPECULAR | Parts::DIFFUSE)
        .is_none());
    assert_eq!(
        b.direct_hemi(DVec3::Z, Parts::R | Parts::SPECULAR | Parts::DIFFUSE),
        0.0
    );
}

#[test]
fn metadata_and_lambertian_parts() {
    let b = load("pyradiance-blinds");
    assert_eq!(b.name, "pyradiance-blinds");
    assert!((b.thickness - 0.048591).abs() < 1e-12);
    assert!(b.has_component(Side::Tf) && b.has_component(Side::Rb));
    // RADIANCE splits 0.013854 of back reflection off as Lambertian for this file.
    assert!((b.lambertian().r_back.y() - 0.013853715714295582).abs() < 1e-9);
}

#[test]
fn solar_blocks_are_kept_apart() {
    let b = load("frads-ec60");
    let s = b.solar().expect("the file has Solar blocks");
    let inc = DVec3::new(0.1, 0.2, 0.97).normalize();
    let (vis, sol) = (
        b.direct_hemi(inc, Parts::ALL),
        s.direct_hemi(inc, Parts::ALL),
    );
    assert!(
        vis > 0.0 && sol > 0.0 && sol < 1.0 && (vis - sol).abs() > 1e-3,
        "{vis} {sol}"
    );
    assert!(s.solar().is_none());
    assert!(load("pyradiance-blinds").solar().is_none());
}

fn err(text: &str) -> String {
    Bsdf::from_str(text, "t.xml").unwrap_err().to_string()
}

#[test]
fn bad_files_are_located_errors() {
    let good = data("frads-ec60.xml.gz");
    // Malformed XML.
    let e = err(&good.replacen("<Optical>", "<Optical", 1));
    assert!(e.starts_with("t.xml: line "), "{e}");
    // Unknown angle basis.
    let e = err(&good.replacen(
        "<ColumnAngleBasis>LBNL/Klems Full",
        "<ColumnAngleBasis>LBNL/Klems Fool",
        1,
    ));
    assert!(
        e.contains("undefined ColumnAngleBasis 'LBNL/Klems Fool'"),
        "{e}"
    );
    let line = good
        .lines()
        .position(|l| l.contains("<ColumnAngleBasis>"))
        .unwrap()
        + 1;
    assert!(e.starts_with(&format!("t.xml: line {line}:")), "{e}");
    // Too few values.
    let start = good.find("<ScatteringData>").unwrap() + "<ScatteringData>".len();
    let mut short = good.clone();
    let cut = short[start..].find(|c: char| c.is_ascii_digit()).unwrap() + start;
    let end = short[cut..]
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap()
        + cut;
    short.replace_range(cut..end, "");
    let e = err(&short);
    assert!(
        e.contains("ScatteringData has 21024 values, expected 21025"),
        "{e}"
    );
    // A word that is no number, located on its own line.
    let mut bad = good.clone();
    bad.replace_range(cut..end, "\nzero");
    let e = err(&bad);
    assert!(
        e.contains("expected a number in ScatteringData, found 'zero'"),
        "{e}"
    );
    let zline = bad[..cut].matches('\n').count() + 2;
    assert!(e.starts_with(&format!("t.xml: line {zline}:")), "{e}");
    // Not a BSDF document.
    assert!(err("<?xml version=\"1.0\"?>\n<Window/>")
        .contains("line 2: top level node not 'WindowElement'"));
    // RADIANCE's empty templates have no data structure.
    for t in ["rad-minimalBSDFt.xml", "rad-WINDOW6BSDFt.xml"] {
        let e = err(&data(t));
        assert!(e.contains("missing IncidentDataStructure"), "{e}");
    }
    let e = err(&good.replacen(
        "<IncidentDataStructure>Columns",
        "<IncidentDataStructure>Diagonal",
        1,
    ));
    assert!(
        e.contains("unsupported IncidentDataStructure 'Diagonal'"),
        "{e}"
    );
    // An unknown unit.
    let e = err(&good.replacen(
        "<Name>ec60</Name>",
        "<Name>ec60</Name><Thickness unit=\"Furlong\">3</Thickness>",
        1,
    ));
    assert!(e.contains("unknown dimensional unit 'Furlong'"), "{e}");
    let e = Bsdf::load(std::path::Path::new("/nonexistent/x.xml"))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("/nonexistent/x.xml: cannot read"), "{e}");
}

#[test]
fn text_before_the_declaration_is_skipped() {
    let good = data("frads-ec60.xml.gz");
    let b = Bsdf::from_str(
        &format!("Recover using: genBSDF -recover /tmp/x\n{good}"),
        "r.xml",
    )
    .unwrap();
    assert!(b.has_component(Side::Tf));
    let broken = good.replacen("<Optical>", "<Optical", 1);
    let line = |e: &str| e.split(':').nth(1).unwrap().trim().to_string();
    let (e0, e1) = (err(&broken), err(&format!("junk\nmore junk\n{broken}")));
    let (l0, l1): (usize, usize) = (
        line(&e0).trim_start_matches("line ").parse().unwrap(),
        line(&e1).trim_start_matches("line ").parse().unwrap(),
    );
    assert_eq!(l1, l0 + 2, "{e0} / {e1}");
    assert!(!e1.contains(" at "), "no position of roxmltree's own: {e1}");
}

#[test]
fn bad_tensor_trees_are_located_errors() {
    let good = data("rad-testBSDF.xml.gz");
    let line_of = |pat: &str| good.lines().position(|l| l.contains(pat)).unwrap() + 1;
    // Seven values in a grid of a 3-D tree (needs 1, 8, 64 ...).
    let e = err(&good.replacen("{ 3.225000e+01 }", "{ 3.225000e+01 1 2 3 4 5 6 }", 1));
    assert!(e.contains("illegal value count in tensor tree: 7"), "{e}");
    assert!(
        e.starts_with(&format!("t.xml: line {}:", line_of("{ 3.225000e+01 }"))),
        "{e}"
    );
    let e = err(&good.replacen("{ 2.200000e+01 }", "{ 2.2x }", 1));
    assert!(
        e.contains("expected a number in tensor tree, found '2.2x'"),
        "{e}"
    );
    assert!(
        e.starts_with(&format!("t.xml: line {}:", line_of("{ 2.200000e+01 }"))),
        "{e}"
    );
    let e = err(&good.replacen("{ 0.000000e+00 }\n}", "{ 0.000000e+00 }\n} }", 1));
    assert!(
        e.contains("extra characters at the end of the tensor tree"),
        "{e}"
    );
    let e = err(&good.replacen("LBNL/Shirley-Chiu", "LBNL/Klems Full", 1));
    assert!(
        e.contains("unsupported tensor-tree angle basis 'LBNL/Klems Full'"),
        "{e}"
    );
    let b = Bsdf::from_str(&good, "t.xml").unwrap();
    assert!(b.is_tree() && b.klems(daylit_bsdf::Which::ReflectionFront).is_err());
}
