//! `rmtxop` and `dctimestep` reading Klems BSDF XML files, against RADIANCE 6.0a's outputs
//! (golden/bsdf_matrix/make.sh). The XML files are crates/bsdf/tests/data's, unpacked here.
//!
//! Tolerance: 1e-6 relative (RADIANCE makes the matrix in single precision; daylit reads the
//! same single-precision data and scales it the same way), 1e-5 for dctimestep's products.

use daylit_matrix::{read_matrix, ReadOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/bsdf_matrix")
        .join(name)
}

fn gunzip(path: &Path) -> Vec<u8> {
    let mut b = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut b)
        .unwrap();
    b
}

/// A folder with the XML files, the made-up matrices, the sky, and links to daylit.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bsdf/tests/data");
    for n in [
        "frads-ec60",
        "frads-blinds30",
        "pyradiance-blinds",
        "rad-sawtooth",
        "pyradiance-t3",
    ] {
        let xml = gunzip(&data.join(format!("{n}.xml.gz")));
        std::fs::write(dir.path().join(format!("{n}.xml")), xml).unwrap();
    }
    for m in ["v145.mtx", "d145.mtx"] {
        let b = gunzip(&golden(&format!("{m}.gz")));
        std::fs::write(dir.path().join(m), b).unwrap();
    }
    let sky = Path::new(env!("CARGO_MANIFEST_DIR")).join("../matrix/tests/golden/sky.mtx");
    std::fs::copy(sky, dir.path().join("sky.mtx")).unwrap();
    for p in ["rmtxop", "dctimestep"] {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), dir.path().join(p)).unwrap();
    }
    dir
}

fn run(dir: &Path, prog: &str, args: &[&str]) -> std::process::Output {
    Command::new(dir.join(prog))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn compare(ours: &[u8], theirs: &[u8], rel: f32) {
    let opts = ReadOptions::default();
    let a = read_matrix(ours, "daylit", &opts).unwrap().matrix;
    let b = read_matrix(theirs, "radiance", &opts).unwrap().matrix;
    assert_eq!(
        (a.rows(), a.cols(), a.ncomp()),
        (b.rows(), b.cols(), b.ncomp())
    );
    let mut worst = 0f32;
    for (x, y) in a.data().iter().zip(b.data()) {
        let e = (x - y).abs() / y.abs().max(1e-30);
        if *y != 0.0 {
            worst = worst.max(e);
        }
        assert!((x - y).abs() <= rel * y.abs(), "{x} vs {y}");
    }
    eprintln!("worst relative difference {worst:.2e}");
}

#[test]
fn rmtxop_makes_radiances_matrices() {
    let dir = setup();
    for (n, opt) in [
        ("frads-ec60", None),
        ("frads-blinds30", None),
        ("pyradiance-blinds", None),
        ("pyradiance-blinds", Some("-rb")),
        ("rad-sawtooth", None),
        ("rad-sawtooth", Some("-rf")),
    ] {
        let xml = format!("{n}.xml");
        let mut args = vec!["-ff", "-c", "1", "0", "0"];
        args.extend(opt);
        args.push(&xml);
        let o = run(dir.path(), "rmtxop", &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let suffix = opt.map_or(String::new(), |o| format!("_{}", &o[1..]));
        eprint!("{n}{suffix}: ");
        compare(
            &o.stdout,
            &gunzip(&golden(&format!("rmtxop_{n}{suffix}.mtx.gz"))),
            1e-6,
        );
    }
}

#[test]
fn dctimestep_takes_a_bsdf_as_transmission() {
    let dir = setup();
    for n in ["frads-ec60", "frads-blinds30", "pyradiance-blinds"] {
        let xml = format!("{n}.xml");
        let o = run(
            dir.path(),
            "dctimestep",
            &["v145.mtx", &xml, "d145.mtx", "sky.mtx"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        eprint!("{n}: ");
        compare(
            &o.stdout,
            &std::fs::read(golden(&format!("dct_{n}.mtx"))).unwrap(),
            1e-5,
        );
    }
}

#[test]
fn tensor_trees_have_no_matrix() {
    let dir = setup();
    for (prog, args) in [
        ("rmtxop", vec!["pyradiance-t3.xml"]),
        (
            "dctimestep",
            vec!["v145.mtx", "pyradiance-t3.xml", "d145.mtx", "sky.mtx"],
        ),
    ] {
        let o = run(dir.path(), prog, &args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && o.stdout.is_empty(), "{prog}");
        assert!(e.contains("pyradiance-t3"), "{prog}: {e}");
    }
}
