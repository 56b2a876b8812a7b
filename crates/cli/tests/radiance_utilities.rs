//! RADIANCE utilities and generators by name against RADIANCE's own (pyradiance's 6.0a, or
//! built from RADIANCE's public source where pyradiance has none): every case's standard output
//! byte for byte, and its exit code. tests/golden/make_cases.sh PROGRAM makes the goldens.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
}

/// Runs daylit as `program` on every line of `dir/cases.txt` (arguments; `< file args` reads
/// `file` on standard input) and compares with RADIANCE's `dir/out/N` (standard output) and
/// `dir/out/N.rc` (exit code). Where RADIANCE fails, only the exit code is compared: it may
/// have written part of its output, daylit writes none.
fn check_cases(program: &str, dir: &str) {
    let here = golden(dir);
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join(program);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    for (k, line) in cases.lines().enumerate() {
        let out_file = here.join("out").join((k + 1).to_string());
        let want = std::fs::read(&out_file).unwrap();
        let rc_file = out_file.with_extension("rc");
        let want_rc: i32 = std::fs::read_to_string(rc_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = words[1];
            words.drain(..2);
            Stdio::from(std::fs::File::open(here.join(f)).unwrap())
        } else {
            Stdio::null()
        };
        // To a file, as make_cases.sh runs RADIANCE's: binary headers are padded in files only.
        let stdout_path = tmp.path().join("stdout");
        let stdout = std::fs::File::create(&stdout_path).unwrap();
        let mut out = Command::new(&link)
            .args(&words)
            .current_dir(&here)
            .stdin(stdin)
            .stdout(stdout)
            .output()
            .unwrap();
        out.stdout = std::fs::read(&stdout_path).unwrap();
        assert_eq!(
            out.status.code(),
            Some(want_rc),
            "{program} {line}: exit code"
        );
        if want_rc == 0 {
            assert!(
                out.stdout == want,
                "{program} {line}: output differs\n got: {:?}\nwant: {:?}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&want)
            );
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.starts_with(program), "{program} {line}: error {err:?}");
        }
    }
}

#[test]
fn vwright_matches_radiance() {
    check_cases("vwright", "vwright");
}

#[test]
fn rcollate_matches_radiance() {
    check_cases("rcollate", "rcollate");
}

#[test]
fn genprism_matches_radiance() {
    check_cases("genprism", "genprism");
}

#[test]
fn genbox_matches_radiance() {
    check_cases("genbox", "genbox");
}

/// What RADIANCE writes through its OBJ library (rounded edges in segments, OBJ output,
/// smoothing) is refused by name, with nothing printed.
#[test]
fn genbox_refuses_what_radiance_writes_through_its_obj_library() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("genbox");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    for args in [
        "m b 1 2 3 -i -r .1",
        "m b 1 2 3 -r .1 -n 3",
        "m b 1 2 3 -o",
        "m b 1 2 3 -r .1 -s",
    ] {
        let out = Command::new(&link).args(args.split(' ')).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("OBJ library"), "{args}: {err}");
    }
}

#[test]
fn psign_matches_radiance() {
    check_cases("psign", "psign");
}

/// Where RADIANCE's psign reads past its arguments or divides by zero, daylit's names the
/// problem and writes nothing.
#[test]
fn psign_refuses_malformed_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("psign");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    for (args, want) in [
        ("-cf 1 0", "-cf needs"),
        ("-h ten x", "whole number"),
        ("-h 0 x", "must be positive"),
        ("-a 0 x", "aspect of 0"),
        ("-h 100000000 x", "more than"),
        ("-f", "-f needs"),
    ] {
        let out = Command::new(&link)
            .args(args.split(' '))
            .current_dir(golden("psign"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("psign: error: ") && err.contains(want),
            "{args}: {err}"
        );
    }
}

/// rsensor against RADIANCE's (tests/golden/rsensor/make.sh): each case's sensor signals within
/// its relative tolerance, set by the Monte Carlo noise of both programs at its ray counts
/// (0.5-1 % where the sampling alone or the sources alone count, 2-3 % with the walls' light).
#[test]
fn rsensor_matches_radiance_within_noise() {
    let here = golden("rsensor");
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("rsensor");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let wants = std::fs::read_to_string(here.join("out.txt")).unwrap();
    for (line, want) in cases.lines().zip(wants.lines()) {
        let mut words = line.split_whitespace();
        let scene = format!("{}.rad", words.next().unwrap());
        let tol: f64 = words.next().unwrap().parse().unwrap();
        let args: Vec<&str> = words.chain([scene.as_str()]).collect();
        let out = Command::new(&link)
            .args(&args)
            .current_dir(&here)
            .env("RAYPATH", ".")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = String::from_utf8(out.stdout).unwrap();
        let numbers = |s: &str| -> Vec<f64> {
            s.split(['|', '\n', ' '])
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().unwrap())
                .collect()
        };
        let (g, w) = (numbers(&got), numbers(want));
        assert_eq!(g.len(), w.len(), "{line}: {got:?}");
        for (g, w) in g.iter().zip(&w) {
            assert!(
                (g / w - 1.0).abs() < tol,
                "{line}: {g} against RADIANCE's {w}"
            );
        }
    }
}

/// The sampled rays themselves (`.` for the scene): a header, then origin and direction per
/// ray, as many as asked, the directions unit and inside the sensor's field.
#[test]
fn rsensor_prints_rays_for_rtrace() {
    let here = golden("rsensor");
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("rsensor");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let args = "-vp 2 2.5 2.9 -vd 0 0 -1 -vu 0 1 0 -vo 0.1 -rd 500 spot.sen .";
    let out = Command::new(&link)
        .args(args.split(' '))
        .current_dir(&here)
        .env("RAYPATH", ".")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    assert_eq!(head, format!("#?RADIANCE\nrsensor {args}\nFORMAT=ascii"));
    let rays: Vec<Vec<f64>> = body
        .lines()
        .map(|l| l.split(' ').map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(rays.len(), 500);
    for r in &rays {
        let d = glam::DVec3::new(r[3], r[4], r[5]);
        assert!((d.length() - 1.0).abs() < 1e-6);
        // spot.sen's rows reach 90 degrees: the field ends half a row further, at 112.5.
        assert!(-d.z > (112.5f64).to_radians().cos() - 1e-6, "{r:?}");
        // The origin is 0.1 along the direction from the view point.
        let o = glam::DVec3::new(r[0], r[1], r[2]);
        assert!((o - glam::DVec3::new(2.0, 2.5, 2.9) - d * 0.1).length() < 1e-4);
    }
}

/// Malformed sensor files and arguments: a located error, a non-zero exit, nothing printed.
#[test]
fn rsensor_refuses_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("rsensor");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    std::fs::write(
        tmp.path().join("bad.sen"),
        "degrees 0 90 180\n0 1 1 1\n10 1 1 1\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("cols.sen"),
        "degrees 0 90 180 270\n0 1 1 1\n",
    )
    .unwrap();
    for (args, want) in [
        ("bad.sen .", "270 or greater"),
        ("cols.sen .", "column count"),
        ("missing.sen .", "cannot open sensor file"),
        ("bad.sen", "missing sensor file"),
        ("-rd x bad.sen .", "-rd x"),
        ("-vd 0 0 0 bad.sen .", "bad view"),
        ("-rd 10 .", "missing sensor file"),
    ] {
        let out = Command::new(&link)
            .args(args.split(' '))
            .current_dir(tmp.path())
            .env("RAYPATH", ".")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args}: {err}");
    }
}
