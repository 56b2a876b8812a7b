//! `daylit dctimestep` and `dctimestep` end to end, against RADIANCE 6.0a's outputs in
//! crates/matrix/tests/golden (made by make_goldens.sh there).

use daylit_matrix::{read_matrix, HeaderMode, ReadOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../matrix/tests/golden")
        .join(name)
}

fn dctimestep(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_daylit"));
    cmd.arg("dctimestep")
        .args(args)
        .current_dir(golden(""))
        .stdin(match stdin {
            Some(f) => Stdio::from(std::fs::File::open(golden(f)).unwrap()),
            None => Stdio::null(),
        });
    cmd.output().unwrap()
}

/// Header lines, less the command line and the dates.
fn header_lines(bytes: &[u8]) -> Vec<String> {
    let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap();
    String::from_utf8_lossy(&bytes[..end])
        .lines()
        .filter(|l| {
            !l.starts_with("dctimestep") && !l.starts_with("CAPDATE=") && !l.starts_with("GMT=")
        })
        .map(String::from)
        .collect()
}

fn compare(ours: &[u8], radiance: &str, headerless: Option<(usize, usize)>) {
    let theirs = std::fs::read(golden(radiance)).unwrap();
    let opts = match headerless {
        Some((r, c)) => ReadOptions {
            rows: Some(r),
            cols: Some(c),
            header: HeaderMode::Absent,
            ..ReadOptions::default()
        },
        None => {
            assert_eq!(header_lines(ours), header_lines(&theirs), "header");
            assert!(ours.starts_with(b"#?RADIANCE\ndctimestep "));
            ReadOptions::default()
        }
    };
    let a = read_matrix(ours, "daylit", &opts).unwrap().matrix;
    let b = read_matrix(&theirs, radiance, &opts).unwrap().matrix;
    assert_eq!((a.rows(), a.cols()), (b.rows(), b.cols()));
    for (x, y) in a.data().iter().zip(b.data()) {
        assert!((x - y).abs() <= 1e-5 * y.abs().max(0.1), "{x} vs {y}");
    }
}

fn ok(args: &[&str], stdin: Option<&str>) -> Vec<u8> {
    let o = dctimestep(args, stdin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn two_phase_matches_radiance() {
    compare(&ok(&["dc.mtx", "sky.mtx"], None), "out_2ph_aa.mtx", None);
    compare(
        &ok(&["-of", "dc_f.mtx", "sky_f.mtx"], None),
        "out_2ph_ff.mtx",
        None,
    );
    compare(
        &ok(&["-if", "-od", "dc.mtx", "sky_f.mtx"], None),
        "out_2ph_fd.mtx",
        None,
    );
    compare(
        &ok(&["-h", "-n", "6", "dc.mtx", "sky_h.txt"], None),
        "out_2ph_h.mtx",
        Some((4, 6)),
    );
    // Sky on standard input; header-less sky sized by the matrix before it.
    compare(&ok(&["dc.mtx"], Some("sky.mtx")), "out_2ph_aa.mtx", None);
    compare(
        &ok(&["-h", "dc.mtx", "sky_h.txt"], None),
        "out_2ph_h.mtx",
        Some((4, 6)),
    );
}

#[test]
fn three_phase_matches_radiance() {
    compare(
        &ok(&["v.mtx", "t.mtx", "d.mtx", "sky.mtx"], None),
        "out_3ph_aa.mtx",
        None,
    );
    compare(
        &ok(&["-of", "v.mtx", "t.mtx", "d.mtx"], Some("sky_f.mtx")),
        "out_3ph_ff.mtx",
        None,
    );
}

/// `ours` against RADIANCE's `theirs` byte for byte, less the header lines that name the
/// command and the dates.
fn same_bytes(ours: &[u8], theirs: &str) {
    let theirs = std::fs::read(golden(theirs)).unwrap();
    let strip = |b: &[u8]| -> Vec<u8> {
        let mut out = Vec::new();
        let mut rest = b;
        // Header lines up to the first picture's resolution line ("-Y ..." or "+Y ...").
        while let Some(n) = rest.iter().position(|&c| c == b'\n') {
            let line = &rest[..=n];
            if line.starts_with(b"-Y") || line.starts_with(b"+Y") {
                break;
            }
            if !(line.starts_with(b"dctimestep")
                || line.starts_with(b"CAPDATE=")
                || line.starts_with(b"GMT="))
            {
                out.extend_from_slice(line);
            }
            rest = &rest[n + 1..];
        }
        out.extend_from_slice(rest);
        out
    };
    assert!(
        strip(ours) == strip(&theirs),
        "differs from RADIANCE's output"
    );
}

#[test]
fn pictures_match_radiance_byte_for_byte() {
    // Component pictures weighted by a sky (several frames in one stream).
    same_bytes(&ok(&["vpic%d.hdr", "sky8.mtx"], None), "out_2ph_pics.hdr");
    // A matrix result as one picture.
    same_bytes(&ok(&["-oc", "dc.mtx", "sky.mtx"], None), "out_2ph_oc.hdr");
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // 3-phase with a picture view matrix, one file per time step.
    let spec = out("frame%02d.hdr");
    ok(
        &["-o", &spec, "vpic%d.hdr", "t.mtx", "d.mtx", "sky.mtx"],
        None,
    );
    // Each time step of a matrix result in its own file, as a picture and as floats.
    let (pics, mats) = (out("step%d.hdr"), out("step%d.mtx"));
    ok(&["-oc", "-x", "2", "-o", &pics, "dc.mtx", "sky.mtx"], None);
    ok(&["-of", "-o", &mats, "dc.mtx", "sky.mtx"], None);
    for step in 0..6 {
        let ours = |n: String| std::fs::read(dir.path().join(n)).unwrap();
        same_bytes(
            &ours(format!("frame{step:02}.hdr")),
            &format!("out_3ph_frame{step:02}.hdr"),
        );
        same_bytes(
            &ours(format!("step{step}.hdr")),
            &format!("out_step{step}.hdr"),
        );
        same_bytes(
            &ours(format!("step{step}.mtx")),
            &format!("out_step{step}.mtx"),
        );
    }
    assert!(!dir.path().join("frame06.hdr").exists());
}

#[test]
fn missing_component_picture_is_an_error() {
    let e = fails(&["vpic%d.hdr", "sky.mtx"]);
    // The first time step is at night: its zero coefficients skip every picture but the last.
    assert!(
        e.contains("cannot read component picture: vpic145.hdr"),
        "{e}"
    );
}

#[test]
fn called_as_dctimestep() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dctimestep");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let o = Command::new(&link)
        .args(["-of", "dc_f.mtx", "sky_f.mtx"])
        .current_dir(golden(""))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    compare(&o.stdout, "out_2ph_ff.mtx", None);
}

fn fails(args: &[&str]) -> String {
    let o = dctimestep(args, None);
    assert!(!o.status.success());
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn errors_name_the_file_and_what_was_expected() {
    let e = fails(&["dc.mtx", "missing.mtx"]);
    assert!(e.contains("cannot open file 'missing.mtx'"), "{e}");
    // A 4 × 146 matrix where the sky (t.mtx, 8 rows) wants 8 columns.
    let e = fails(&["dc.mtx", "t.mtx"]);
    assert!(
        e.contains("dc.mtx: NCOLS=146 in the header, expected 8"),
        "{e}"
    );
    let e = fails(&["-if", "dc.mtx", "sky.mtx"]);
    assert!(
        e.contains("sky.mtx: FORMAT=ascii in the header, expected float"),
        "{e}"
    );
    let e = fails(&["-q", "dc.mtx"]);
    assert!(
        e.contains("unknown option -q") && e.contains("usage:"),
        "{e}"
    );
    let e = fails(&["-o", "x%d.mtx", "-oz", "dc.mtx", "sky.mtx"]);
    assert!(e.contains("unknown option -oz"), "{e}");
    // A BSDF XML transmission is read (crates/cli/tests/bsdf_matrix.rs); a missing one is named.
    let e = fails(&["v.mtx", "t.xml", "d.mtx", "sky.mtx"]);
    assert!(e.contains("t.xml: cannot read"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.mtx");
    let text = std::fs::read_to_string(golden("sky.mtx")).unwrap();
    std::fs::write(&bad, text.replacen("6.66 6.66", "6.66 six", 1)).unwrap();
    let e = fails(&["dc.mtx", bad.to_str().unwrap()]);
    assert!(
        e.contains("bad.mtx: line 10: expected a number, found 'six'"),
        "{e}"
    );
}
