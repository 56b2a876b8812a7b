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
        if want_rc == 0 && world_points_in_doubles(program, line) {
            assert!(
                same_doubles_after_header(&out.stdout, &want),
                "{program} {line}: output differs beyond 1e-12"
            );
        } else if want_rc == 0 {
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

/// rcode_depth's world points written as doubles (`-p -fd`): RADIANCE's `viewray` groups the
/// products of the image-plane vectors differently from daylit's, so the last bit of a
/// coordinate may differ (ascii and float output round it away).
fn world_points_in_doubles(program: &str, line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    program == "rcode_depth" && w.contains(&"-p") && w.contains(&"-fd")
}

/// The same header (up to the resolution line) and doubles within 1e-12 of each other after it.
fn same_doubles_after_header(got: &[u8], want: &[u8]) -> bool {
    let body = |b: &[u8]| {
        let end = b.windows(2).position(|w| w == b"\n\n").map_or(0, |p| p + 2);
        let end = b[end..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(end, |p| end + p + 1);
        end
    };
    let (g, w) = (body(got), body(want));
    if got[..g] != want[..w] || got.len() != want.len() || !(got.len() - g).is_multiple_of(8) {
        return false;
    }
    got[g..].chunks(8).zip(want[w..].chunks(8)).all(|(a, b)| {
        let x = f64::from_ne_bytes(a.try_into().unwrap());
        let y = f64::from_ne_bytes(b.try_into().unwrap());
        (x - y).abs() <= 1e-12 * y.abs().max(1.0)
    })
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
        ("-c Y w4.mtx", "spectral"),
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

/// rcode_depth, rcode_norm and rcode_ident against RADIANCE's (built from its source):
/// rtrace's distances, normals and modifiers of a small view (tests/golden/rcode_depth/
/// make_inputs.sh) encoded in every input format and header mode, RADIANCE's encoded maps
/// decoded to values, world points and identifiers, whole or at pixels read from standard
/// input, and malformed arguments and maps.
#[test]
fn rcode_depth_matches_radiance() {
    check_cases("rcode_depth", "rcode_depth");
}

#[test]
fn rcode_norm_matches_radiance() {
    check_cases("rcode_norm", "rcode_norm");
}

#[test]
fn rcode_ident_matches_radiance() {
    check_cases("rcode_ident", "rcode_ident");
}

/// The rcode programs' second file argument gets what standard output would (RADIANCE pads
/// `FORMAT=` in both, as both are files), and no file at all when the run fails.
#[test]
fn rcode_programs_write_output_files_whole_or_not_at_all() {
    let tmp = tempfile::tempdir().unwrap();
    for (program, case, args, ok) in [
        ("rcode_depth", 1, "-d 2/meter depth.txt", true),
        ("rcode_depth", 13, "-r depth.dpt", true),
        ("rcode_norm", 1, "norm.txt", true),
        ("rcode_ident", 1, "mods.txt", true),
        ("rcode_ident", 10, "-r mods.idx", true),
        ("rcode_depth", 0, "-d 2 depth_short.txt", false),
        ("rcode_norm", 0, "-r norm.txt", false),
        ("rcode_ident", 0, "-h -x 9 -y 9 mods_bare.txt", false),
    ] {
        let here = golden(program);
        let link = tmp.path().join(program);
        if !link.exists() {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
        }
        let target = tmp.path().join(format!("{program}-{case}.out"));
        let out = Command::new(&link)
            .args(args.split(' '))
            .arg(&target)
            .current_dir(&here)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.success(), ok, "{program} {args}");
        assert!(out.stdout.is_empty(), "{program} {args}");
        if ok {
            let want = std::fs::read(here.join("out").join(case.to_string())).unwrap();
            let got = std::fs::read(&target).unwrap();
            assert!(
                without_dates(&got) == without_dates(&want),
                "{program} {args}: file differs"
            );
        } else {
            assert!(!target.exists(), "{program} {args}: partial output file");
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
