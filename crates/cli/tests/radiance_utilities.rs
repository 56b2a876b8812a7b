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

/// Every file under `dir`, as paths relative to it, with their bytes.
fn files_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// ies2rad on RADIANCE's example luminaire, a manufacturer's LED file and files of every
/// LM-63 version, shape, symmetry, tilt source and photometric type, with its naming, unit,
/// colour and library options (tests/golden/ies2rad, made by its make_cases.sh): standard
/// output, exit code and every file written, byte for byte. Where RADIANCE fails, each file
/// daylit wrote (for the other inputs of the run) must be RADIANCE's.
#[test]
fn ies2rad_matches_radiance() {
    let here = golden("ies2rad");
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.path().join("ies2rad")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let inputs = files_under(&here.join("inputs"));
    for (k, line) in cases.lines().enumerate() {
        let out = here.join("out").join((k + 1).to_string());
        let want_rc: i32 = std::fs::read_to_string(out.with_extension("rc"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let work = tempfile::tempdir().unwrap();
        for (rel, bytes) in &inputs {
            std::fs::write(work.path().join(rel), bytes).unwrap();
        }
        for d in ["lib/source/ies", "local"] {
            std::fs::create_dir_all(work.path().join(d)).unwrap();
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = work.path().join(words[1]);
            words.drain(..2);
            Stdio::from(std::fs::File::open(f).unwrap())
        } else {
            Stdio::null()
        };
        // By name, as RADIANCE's was run: the program name goes into the scene text; no lamp
        // table on the RAYPATH, so daylit's own is used.
        let got = Command::new("ies2rad")
            .args(&words)
            .env("PATH", &path)
            .env("RAYPATH", ".")
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(
            got.status.code(),
            Some(want_rc),
            "ies2rad {line}: exit code ({err})"
        );
        let mut written = files_under(work.path());
        written.retain(|rel, _| !inputs.contains_key(rel));
        let want_files = if out.with_extension("d").exists() {
            files_under(&out.with_extension("d"))
        } else {
            Default::default()
        };
        for (rel, bytes) in &written {
            let want = want_files.get(rel);
            assert!(
                want == Some(bytes),
                "ies2rad {line}: {} differs\n got: {}\nwant: {}",
                rel.display(),
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(want.map_or(&[][..], |w| w))
            );
        }
        if want_rc == 0 {
            assert_eq!(
                written.keys().collect::<Vec<_>>(),
                want_files.keys().collect::<Vec<_>>(),
                "ies2rad {line}: files written"
            );
            let want = std::fs::read(&out).unwrap();
            assert!(
                got.stdout == want,
                "ies2rad {line}: standard output differs\n got: {}\nwant: {}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want)
            );
        } else {
            assert!(err.starts_with("ies2rad"), "ies2rad {line}: error {err:?}");
        }
    }
}

/// Luminaires from daylit's ies2rad light a floor as RADIANCE's light it (tests/golden/ies2rad
/// trace/, out/trace.txt from make_cases.sh): tilt data from the IES file and from a file of its
/// own through tilt.cal, type B photometry, a sphere; direct irradiance at 12 points within 2 %
/// (the sources are sampled by area, so both carry a little noise).
#[test]
fn ies2rad_luminaires_light_as_radiance_s() {
    let here = golden("ies2rad");
    let work = tempfile::tempdir().unwrap();
    for (rel, bytes) in files_under(&here.join("inputs")) {
        std::fs::write(work.path().join(rel), bytes).unwrap();
    }
    std::fs::copy(here.join("trace/scene.rad"), work.path().join("scene.rad")).unwrap();
    let daylit = |prog: &str, args: &[&str], stdin: Stdio| {
        let link = work.path().join(prog);
        if !link.exists() {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
        }
        let out = Command::new(&link)
            .args(args)
            .env("RAYPATH", ".")
            .env("PATH", format!("{}:/usr/bin:/bin", work.path().display()))
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{prog}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let files = [
        "downlight_tilt.ies",
        "ellipse_tiltfile.ies",
        "roadway_typeB.ies",
        "globe_2002.ies",
    ];
    daylit(
        "ies2rad",
        &[&["-t", "default"][..], &files[..]].concat(),
        Stdio::null(),
    );
    let sensors = std::fs::File::open(here.join("trace/sensors.pts")).unwrap();
    let args = ["-h", "-I", "-ab", "0", "-ds", ".05", "scene.rad"];
    let got = String::from_utf8(daylit("rtrace", &args, Stdio::from(sensors))).unwrap();
    let want = std::fs::read_to_string(here.join("out/trace.txt")).unwrap();
    let first = |l: &str| l.split_whitespace().next().unwrap().parse::<f64>().unwrap();
    assert_eq!(got.lines().count(), want.lines().count());
    for (g, w) in got.lines().zip(want.lines()) {
        let (g, w) = (first(g), first(w));
        assert!((g - w).abs() <= 0.02 * w, "irradiance {g}, RADIANCE {w}");
    }
}
