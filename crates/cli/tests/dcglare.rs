//! `dcglare` (imageless annual glare from daylight coefficients) against RADIANCE's dcglare,
//! built from RADIANCE's public source by tests/golden/dcglare/make.sh (pyradiance's RADIANCE
//! has no dcglare): hourly eDGPs with the default and a lower luminance threshold, a
//! threshold factor, one view direction for all, glare autonomy by hours and by a schedule,
//! and a Reinhart MF:2 sky.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/dcglare")
        .join(name)
}

/// Runs daylit as `dcglare` (the name RADIANCE's tools call it by).
fn dcglare(args: &[&str], stdin: Option<&str>) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dcglare");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    Command::new(&link)
        .args(args)
        .current_dir(golden(""))
        .stdin(match stdin {
            Some(f) => Stdio::from(std::fs::File::open(golden(f)).unwrap()),
            None => Stdio::null(),
        })
        .output()
        .unwrap()
}

/// Header lines other than the command and dates, and the values.
fn parse(bytes: &[u8]) -> (Vec<String>, Vec<f64>) {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    let head = head
        .lines()
        .filter(|l| {
            !["dcglare", "CAPDATE=", "GMT="]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect();
    let values = body
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    (head, values)
}

fn matches(args: &[&str], stdin: Option<&str>, radiance: &str) {
    let o = dcglare(args, stdin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (head, ours) = parse(&o.stdout);
    let (want_head, theirs) = parse(&std::fs::read(golden(radiance)).unwrap());
    assert_eq!(head, want_head, "{radiance}");
    assert_eq!(ours.len(), theirs.len(), "{radiance}");
    assert!(
        theirs.iter().any(|&v| v > 0.0),
        "{radiance}: an all-zero golden tests nothing"
    );
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a - b).abs() <= 2e-6 * b.abs().max(1e-3),
            "{radiance} value {k}: {a} vs {b}"
        );
    }
}

#[test]
fn hourly_dgp_matches_radiance() {
    let dc = ["dc_direct.mtx", "dc_total.mtx"];
    matches(
        &["-vf", "views.txt", dc[0], dc[1], "sky.mtx"],
        None,
        "out_hourly.dgp",
    );
    matches(
        &[
            "-b",
            "500",
            "-vu",
            "0",
            "0",
            "1",
            "-vf",
            "views.txt",
            dc[0],
            dc[1],
        ],
        Some("sky.mtx"),
        "out_b500.dgp",
    );
    matches(
        &["-b", "5", "-vd", "0", "-1", "0", dc[0], dc[1], "sky.mtx"],
        None,
        "out_factor.dgp",
    );
    matches(
        &[
            "-vf",
            "views.txt",
            "dc_direct_mf2.mtx",
            "dc_total_mf2.mtx",
            "sky_mf2.mtx",
        ],
        None,
        "out_mf2.dgp",
    );
}

#[test]
fn glare_autonomy_matches_radiance() {
    let dc = ["dc_direct.mtx", "dc_total.mtx", "sky.mtx"];
    let mut a = vec!["-l", "0.4", "-ss", "1", "-se", "4", "-vf", "views.txt"];
    a.extend(dc);
    matches(&a, None, "out_autonomy.dgp");
    let mut a = vec!["-l", "0.45", "-sf", "schedule.csv", "-vf", "views.txt"];
    a.extend(dc);
    matches(&a, None, "out_schedule.dgp");
}

fn fails(args: &[&str]) -> String {
    let o = dcglare(args, None);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty(), "no partial output");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_input_is_refused_clearly() {
    let dc = ["dc_direct.mtx", "dc_total.mtx"];
    let e = fails(&[dc[0], dc[1], "sky.mtx"]);
    assert!(e.contains("missing view direction"), "{e}");
    let e = fails(&["-vd", "0", "0", "0", dc[0], dc[1], "sky.mtx"]);
    assert!(e.contains("-vd: the vector must not be zero"), "{e}");
    let e = fails(&["-vd", "0", "-1", "0", dc[0], dc[1], "sky_mf2.mtx"]);
    assert!(
        e.contains("dc_total.mtx must have a column per sky patch"),
        "{e}"
    );
    let e = fails(&["-vf", "schedule.csv", dc[0], dc[1], "sky.mtx"]);
    assert!(e.contains("schedule.csv: view 1: expected a number"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let six = dir.path().join("six.csv");
    std::fs::write(&six, "1\n1\n0\n1\n1\n1\n").unwrap();
    let six = six.to_str().unwrap();
    let e = fails(&[
        "-vf",
        "views.txt",
        "-l",
        "0.4",
        "-sf",
        six,
        dc[0],
        dc[1],
        "sky.mtx",
    ]);
    assert!(
        e.contains("six.csv: 6 schedule entries for the 4 time steps"),
        "{e}"
    );
    let e = fails(&[
        "-vd", "0", "-1", "0", dc[0], "v.mtx", "t.xml", "d.mtx", "sky.mtx",
    ]);
    assert!(e.contains("V T D form"), "{e}");
    let e = fails(&["-vd", "0", "-1", "0", "-q", dc[0], dc[1]]);
    assert!(e.contains("unknown option -q"), "{e}");
}
