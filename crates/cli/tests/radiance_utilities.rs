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
        out.stdout = without_dates(&std::fs::read(&stdout_path).unwrap());
        let want = without_dates(&want);
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

/// `bytes` without the header's `CAPDATE=` and `GMT=` lines (the time of the run), which
/// RADIANCE's matrix programs write; the lines have a fixed length, so a binary format's
/// padding is unchanged.
fn without_dates(bytes: &[u8]) -> Vec<u8> {
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or(0, |p| p + 1);
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes[..end].split_inclusive(|&b| b == b'\n') {
        if !line.starts_with(b"CAPDATE=") && !line.starts_with(b"GMT=") {
            out.extend_from_slice(line);
        }
    }
    out.extend_from_slice(&bytes[end..]);
    out
}

#[test]
fn rcomb_matches_radiance() {
    check_cases("rcomb", "rcomb");
}

/// What needs RADIANCE's spectral tables (scotopic, melanopic, colour symbols on spectral
/// data, spectral pictures) is refused by name; a failed run writes nothing.
#[test]
fn rcomb_refuses_spectral_conversions_and_writes_nothing_on_failure() {
    let here = golden("rcomb");
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("rcomb");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    for (args, says) in [
        ("-c M a.mtx", "spectral"),
        ("-c S a.mtx", "spectral"),
        ("-c 1 0 0 0 1 0 0 0 1 1 1 1 a.mtx -c Y", "spectral"),
        ("-c 1 0 0 0 1 0 0 0 1 1 1 1 -fc a.mtx", "spectral"),
        ("short.mtx", "load error"),
        ("trunc.mtx a.mtx", "trunc.mtx"),
        ("-e co=nosuchvar a.mtx", "nosuchvar"),
    ] {
        let out = Command::new(&link)
            .args(args.split(' '))
            .current_dir(&here)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args}: {err}");
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
