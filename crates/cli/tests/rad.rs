//! `rad`, RADIANCE's executive, against RADIANCE 6.0a's: the dry runs (`-n`) of RADIANCE's
//! own test-suite rad files (test/renders) and of files written for every variable, view kind
//! and error, byte for byte (the variables with `-e`, views with `-V`, the commands and the
//! options file); then a real run that builds the octree and renders through daylit's programs.

mod common;
use common::{exit_code_agrees, run_cases};
use std::process::Command;

/// Every dry run prints what RADIANCE's prints and writes the same options file; where
/// RADIANCE fails, daylit fails too, with nothing on standard output.
#[test]
fn dry_runs_match_radiance() {
    let (cases, inputs) = run_cases("rad", "rad");
    assert!(cases.len() >= 30);
    for c in &cases {
        let written = c.written(&inputs);
        if !exit_code_agrees("rad", c) {
            assert!(
                written.is_empty(),
                "rad {}: files written on failure",
                c.line
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "rad {}: output differs\n got: {}\nwant: {}",
            c.line,
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
        let written: std::collections::BTreeMap<_, _> = written.into_iter().collect();
        assert_eq!(written, c.want_files, "rad {}: files written", c.line);
    }
}

/// What daylit has no program for is refused by name before anything runs.
#[test]
fn refuses_what_daylit_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rad"),
        "void plastic p 0 0 5 .5 .5 .5 0 0\n",
    )
    .unwrap();
    for (extra, named) in [
        ("PGMAP= g.pm 1000", "mkpmap"),
        ("PCMAP= c.pm 1000", "mkpmap"),
    ] {
        let rif = dir.path().join("x.rif");
        std::fs::write(
            &rif,
            format!("scene= a.rad\nZONE= I 0 1 0 1 0 1\n{extra}\n"),
        )
        .unwrap();
        let out = rad(dir.path(), &["-n", "x.rif"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(named),
            "{extra}: {err}"
        );
        assert!(out.stdout.is_empty(), "{extra}: commands printed");
    }
    let out = rad(dir.path(), &["-o", "x11", "x.rif"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("rvu"));
}

/// Runs daylit's rad in `dir` with only daylit's rad, oconv, rpict and pfilt (and `more`) on
/// the PATH, found beside the rad link.
fn rad_with(dir: &std::path::Path, args: &[&str], more: &[&str]) -> std::process::Output {
    let bin = dir.join("bin");
    if !bin.exists() {
        std::fs::create_dir(&bin).unwrap();
        for p in ["rad", "oconv", "rpict", "pfilt"].iter().chain(more) {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.join(p)).unwrap();
        }
    }
    Command::new(bin.join("rad"))
        .args(args)
        .current_dir(dir)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap()
}

fn rad(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    rad_with(dir, args, &[])
}

/// The mean of a RADIANCE picture's values (of all channels).
fn picture_mean(path: &std::path::Path) -> (f64, (usize, usize)) {
    let img = daylit_image::HdrImage::read(path).unwrap();
    let n = img.pixels.len() as f64;
    let sum: f64 = img
        .pixels
        .iter()
        .map(|p| (p[0] + p[1] + p[2]) as f64 / 3.0)
        .sum();
    (sum / n, (img.width, img.height))
}

/// A real run on RADIANCE's `wgmdf` test scene, with only daylit's programs on the PATH
/// (rad finds them beside itself): the octree is built, each view rendered at twice the size
/// and filtered down, the raw pictures removed; a second run finds everything up to date and
/// runs nothing. The picture agrees with RADIANCE's rad run of the same file
/// (`tests/golden/rad/make_pictures.sh`) within 5 % in mean value.
#[test]
fn renders_through_daylits_programs_as_radiance_does() {
    let inputs = common::golden("rad").join("inputs");
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in common::files_under(&inputs) {
        std::fs::write(dir.path().join(rel), bytes).unwrap();
    }
    let args = [
        "-v",
        "def",
        "wgmdf.rif",
        "RES=48",
        "render=-aa 0 -ab 1 -ad 256 -as 0",
    ];
    let out = rad(dir.path(), &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.contains("\toconv ") && log.contains("pfilt"), "{log}");
    let pic = dir.path().join("wgmdf_def.hdr");
    assert!(!dir.path().join("wgmdf_def.unf").exists());
    let (mean, size) = picture_mean(&pic);
    assert_eq!(size, (48, 48));
    let want: f64 = std::fs::read_to_string(common::golden("rad").join("wgmdf_def.mean"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        (mean / want - 1.0).abs() < 0.05,
        "picture mean {mean} against RADIANCE's {want}"
    );
    let again = rad(dir.path(), &args);
    assert!(again.status.success());
    assert!(
        again.stdout.is_empty(),
        "second run: {}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// RADIANCE's own test suite's `test-rad` target (test/renders/Makefile): `rad -v 0 inst.rif`
/// builds the octree, then `rad -n -s -e inst.rif` must print RADIANCE's reference
/// (`ref/inst_rad.txt` of RADIANCE's repository, kept in tests/golden/rad/suite): the
/// variables with every default, the ambient resolution from the octree's cube.
#[test]
fn radiance_test_suite_rad_target_passes() {
    let scenes = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../validation/radiance_scenes/scenes");
    let suite = common::golden("rad").join("suite");
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "basic.mat",
        "diorama_walls.rad",
        "closed_end.rad",
        "front_cap.rad",
        "porsches.rad",
        "porsche.octf",
        "spotlights.rad",
        "rect_fixture.rad",
        "rect_fixture.dat",
        "glowbulb.rad",
    ] {
        std::fs::copy(scenes.join(f), dir.path().join(f)).unwrap();
    }
    let rifs = scenes.join("../rif");
    std::fs::copy(rifs.join("inst.rif"), dir.path().join("inst.rif")).unwrap();
    let out = rad(dir.path(), &["-v", "0", "inst.rif"]);
    assert!(
        out.status.success() && dir.path().join("inst.oct").exists(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = rad(dir.path(), &["-n", "-s", "-e", "inst.rif"]);
    assert!(out.status.success());
    let want = std::fs::read_to_string(suite.join("inst_rad.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}

/// RADIANCE's `tfunc` test scene, whose rad file turns its window into a light source with
/// mkillum (`illum = illum_tfunc.rad`): rad builds the octree, the octree with the window,
/// runs mkillum and freezes the result, printing RADIANCE's commands, and renders a picture
/// whose mean is within 4 % of RADIANCE's rad run of the same file
/// (`tests/golden/rad/make_pictures.sh`).
#[test]
fn illum_sources_through_mkillum() {
    let scenes = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../validation/radiance_scenes/scenes");
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "basic.mat",
        "diorama_walls.rad",
        "rect_opening.rad",
        "front_cap.rad",
        "ball_in_cube.rad",
        "sunset_sky.rad",
        "sunset.hdr",
        "fisheye.cal",
        "aniso.cal",
        "illum_tfunc.rad",
        "inside.vf",
    ] {
        std::fs::copy(scenes.join(f), dir.path().join(f)).unwrap();
    }
    for f in ["tfunc.rif", "render.opt"] {
        std::fs::copy(scenes.join("../rif").join(f), dir.path().join(f)).unwrap();
    }
    let args = [
        "-v",
        "def",
        "tfunc.rif",
        "RES=32",
        "mkillum=-ab 0",
        "render=-ab 0 -aa 0 -dj 0 -ps 1 -pj 0",
    ];
    let out = rad_with(dir.path(), &args, &["mkillum"]);
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{log}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let steps: Vec<&str> = log.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        steps[..6],
        ["\toconv", "\toconv", "\tmkillum", "\trm", "\toconv", "\trm"],
        "{log}"
    );
    assert!(
        log.contains("oconv -i tfunc.oct illum_tfunc.rad > tfunc0.oct"),
        "{log}"
    );
    assert!(log.contains("mkillum -ab 1 -ab 0 tfunc0.oct \"<\" illum_tfunc.rad > il"));
    assert!(log.contains("oconv -f -i tfunc.oct il") && log.contains("> tfunc1.oct"));
    assert!(dir.path().join("tfunc_ill.dat").exists());
    assert!(!dir.path().join("tfunc0.oct").exists());
    let (mean, _) = picture_mean(&dir.path().join("tfunc_def.hdr"));
    let want: f64 = std::fs::read_to_string(common::golden("rad").join("tfunc_def.mean"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        (mean / want - 1.0).abs() < 0.04,
        "picture mean {mean} against RADIANCE's {want}"
    );
}
