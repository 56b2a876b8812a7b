//! `bsdf2klems` against RADIANCE 6.0a's (golden/bsdf2klems/make.sh): Klems XML from
//! functions (`-e`, `-f file.cal`, 3-argument functions using Dx/Dy/Dz, `+forward`,
//! `-backward`, `-h`, `-q`, `-n`, field assignments) and from a tensor-tree XML file.
//!
//! RADIANCE samples with the unseeded drand48 stream and daylit draws the same numbers in the
//! same order, so the matrices agree to the printed digits: each element within 0.2 % (one
//! unit in the fourth digit of `%.3e`, twice) or 1e-6 absolute, and every directional-
//! hemispherical sum within 0.1 % (the stated requirement is 1 %). Our XML is also read back
//! by daylit-bsdf. Malformed input: a located error, a non-zero exit and no output.

use daylit_bsdf::{Bsdf, Which};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/bsdf2klems")
        .join(name)
}

fn gunzip(path: &Path) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(golden("lobe.cal"), dir.path().join("lobe.cal")).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bsdf/tests/data");
    std::fs::write(
        dir.path().join("pyradiance-blindsT3.xml"),
        gunzip(&data.join("pyradiance-blindsT3.xml.gz")),
    )
    .unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), dir.path().join("bsdf2klems"))
        .unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(dir.join("bsdf2klems"))
        .args(args)
        .current_dir(dir)
        .env("RAYPATH", ".")
        .output()
        .unwrap()
}

/// The data blocks of a Klems XML: (direction, wavelength, values).
fn blocks(xml: &str) -> Vec<(String, String, Vec<f64>)> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let text = |n: roxmltree::Node, tag: &str| {
        n.descendants()
            .find(|d| d.has_tag_name(tag))
            .and_then(|d| d.text())
            .unwrap_or("")
            .trim()
            .to_string()
    };
    doc.descendants()
        .filter(|n| n.has_tag_name("WavelengthData"))
        .map(|w| {
            let data = text(w, "ScatteringData")
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            (
                text(w, "WavelengthDataDirection"),
                text(w, "Wavelength"),
                data,
            )
        })
        .collect()
}

/// Directional-hemispherical sums per incident patch of a row-major (exiting × incident)
/// block on the basis of `n` patches.
fn hemi_sums(values: &[f64], n: usize) -> Vec<f64> {
    let rings: &[(f64, usize)] = match n {
        145 => &[
            (0., 1),
            (5., 8),
            (15., 16),
            (25., 20),
            (35., 24),
            (45., 24),
            (55., 24),
            (65., 16),
            (75., 12),
            (90., 0),
        ],
        77 => &[
            (0., 1),
            (6.5, 8),
            (19.5, 12),
            (32.5, 16),
            (45.5, 20),
            (58.5, 12),
            (71.5, 8),
            (90., 0),
        ],
        41 => &[(0., 1), (9., 8), (27., 12), (45., 12), (63., 8), (90., 0)],
        _ => panic!("not a Klems basis: {n}"),
    };
    let mut psa = Vec::new();
    for w in rings.windows(2) {
        let (c0, c1) = (w[0].0.to_radians().cos(), w[1].0.to_radians().cos());
        for _ in 0..w[0].1 {
            psa.push(std::f64::consts::PI * (c0 * c0 - c1 * c1) / w[0].1 as f64);
        }
    }
    (0..n)
        .map(|i| (0..n).map(|o| values[o * n + i] * psa[o]).sum())
        .collect()
}

fn check_case(golden_name: &str, args: &[&str]) {
    let dir = setup();
    let out = run(dir.path(), args);
    assert!(
        out.status.success(),
        "{golden_name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = String::from_utf8(out.stdout).unwrap();
    let theirs = gunzip(&golden(&format!("{golden_name}.xml.gz")));
    let (a, b) = (blocks(&ours), blocks(&theirs));
    assert_eq!(
        a.iter().map(|x| (&x.0, &x.1)).collect::<Vec<_>>(),
        b.iter().map(|x| (&x.0, &x.1)).collect::<Vec<_>>(),
        "{golden_name}: blocks"
    );
    let mut worst = 0f64;
    for ((dir_a, wl, va), (_, _, vb)) in a.iter().zip(&b) {
        assert_eq!(va.len(), vb.len());
        let n = (va.len() as f64).sqrt() as usize;
        for (k, (x, y)) in va.iter().zip(vb).enumerate() {
            let tol = 2e-3 * x.abs().max(y.abs()) + 1e-6;
            assert!(
                (x - y).abs() <= tol,
                "{golden_name} {dir_a} {wl}: element {k} (exiting {}, incident {}): ours {x}, \
                 RADIANCE {y}",
                k / n,
                k % n
            );
            worst = worst.max((x - y).abs() / x.abs().max(y.abs()).max(1e-3));
        }
        for (i, (x, y)) in hemi_sums(va, n).iter().zip(hemi_sums(vb, n)).enumerate() {
            assert!(
                (x - y).abs() <= 1e-3 * y.abs() + 1e-6,
                "{golden_name} {dir_a} {wl}: hemispherical sum for incident patch {i}: ours \
                 {x}, RADIANCE {y}"
            );
        }
    }
    eprintln!("{golden_name}: worst relative difference {worst:.2e}");
    // daylit reads what it wrote, to the same matrix it reads from RADIANCE's file.
    let ours = Bsdf::from_str(&ours, "ours.xml").unwrap();
    let theirs = Bsdf::from_str(&theirs, "theirs.xml").unwrap();
    for which in [
        Which::Transmission,
        Which::ReflectionFront,
        Which::ReflectionBack,
    ] {
        let (Ok(x), Ok(y)) = (ours.klems(which), theirs.klems(which)) else {
            continue;
        };
        for (p, q) in x.data.iter().zip(&y.data) {
            assert!((p[1] - q[1]).abs() <= 2e-3 * p[1].abs().max(q[1].abs()) + 1e-6);
        }
    }
    assert_eq!(ours.material, theirs.material);
    assert_eq!(ours.thickness, theirs.thickness);
}

#[test]
fn lambertian_from_an_expression() {
    check_case(
        "lamb_q",
        &[
            "-p0",
            "-q",
            "+forward",
            "-e",
            "lamb(ix,iy,iz,ox,oy,oz) = if(iz*oz, 0.2, 0.1)/PI",
            "lamb",
        ],
    );
}

#[test]
fn lobes_from_a_function_file_half_basis() {
    check_case(
        "lobe_h",
        &["-p0", "-h", "-n", "64", "-f", "lobe.cal", "bsdf"],
    );
}

#[test]
fn lobes_both_sides_with_fields() {
    check_case(
        "lobe_fb_q",
        &[
            "-p0",
            "-q",
            "-n",
            "256",
            "+forward",
            "-f",
            "lobe.cal",
            "-f",
            "t=0.004;n=Lobe",
            "bsdf",
        ],
    );
}

#[test]
fn lobes_back_incidence_only() {
    check_case(
        "lobe_fwd_q",
        &[
            "-p0",
            "-q",
            "-n",
            "32",
            "+forward",
            "-backward",
            "-f",
            "lobe.cal",
            "bsdf",
        ],
    );
}

#[test]
fn three_argument_function_with_dx_dy_dz() {
    check_case(
        "dfunc_q",
        &[
            "-p0",
            "-q",
            "-n",
            "128",
            "-e",
            "tf(ix,iy,iz) = if(iz*Dz, 0.3*exp((-Dx*ix-Dy*iy-Dz*iz-1)/0.05), 0.05)",
            "tf",
        ],
    );
}

#[test]
fn tensor_tree_resampled_quarter() {
    check_case(
        "blinds_q",
        &["-p0", "-q", "-n", "64", "pyradiance-blindsT3.xml"],
    );
}

#[test]
fn tensor_tree_resampled_half() {
    check_case(
        "blinds_h",
        &["-p0", "-h", "-n", "8", "pyradiance-blindsT3.xml"],
    );
}

/// A failure: non-zero exit, nothing on standard output, and stderr holding `needles`.
fn fails(dir: &Path, args: &[&str], needles: &[&str]) {
    let out = run(dir, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?} wrote output");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{n}' not in: {err}");
    }
}

#[test]
fn malformed_input_is_a_located_error() {
    let dir = setup();
    let d = dir.path();
    std::fs::write(
        d.join("bad.cal"),
        "ok(a,b,c,d,e,f) = 1;\nbad(ix,iy,iz,ox,oy,oz) = 0.1 * (ix +;\n",
    )
    .unwrap();
    std::fs::write(d.join("broken.xml"), "<WindowElement>\n<Optical>\n").unwrap();
    fails(d, &["-e", "f(a,b,c,d,e,f) = 1 +* 2", "f"], &["-e", ":1:"]);
    fails(d, &["-f", "bad.cal", "bad"], &["bad.cal:2:"]);
    fails(d, &["-f", "missing.cal", "bsdf"], &["missing.cal"]);
    fails(d, &["-e", "g(x) = x", "g"], &["6 arguments"]);
    fails(d, &["-e", "f(a,b,c,d,e,f) = 1", "nosuch"], &["nosuch"]);
    fails(d, &["-e", "f(a,b,c,d,e,f) = undefd(a)", "f"], &["undefd"]);
    fails(
        d,
        &["-e", "f(a,b,c,d,e,f) = 1", "f", "g"],
        &["single function"],
    );
    fails(d, &["-p0", "-n", "0", "x.xml"], &["-n"]);
    fails(d, &["-x", "in.xml"], &["-x"]);
    fails(d, &["broken.xml"], &["broken.xml"]);
    fails(d, &["nosuch.xml"], &["nosuch.xml"]);
    fails(d, &["blinds.sir"], &[".sir"]);
    fails(d, &[], &[".sir"]);
    fails(
        d,
        &["-f", "t=0.1;w", "pyradiance-blindsT3.xml"],
        &["bad tag name"],
    );
}
