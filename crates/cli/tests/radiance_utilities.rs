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
