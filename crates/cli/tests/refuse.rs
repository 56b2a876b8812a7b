//! Impossible input is refused before any work, in one message style, with the file and line
//! where it applies; every command's `--help` exits 0 and speaks a lighting designer's words.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn daylit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_daylit"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn office() -> PathBuf {
    root().join("examples/reference_office/office.rad")
}

fn weather() -> PathBuf {
    root().join("examples/weather/723170TYA.CSV")
}

/// Runs `cmd`: its output, standard error as text, and how long it took.
fn run(cmd: &mut Command) -> (Output, String, Duration) {
    let t = Instant::now();
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, err, t.elapsed())
}

/// A refusal: exit code `rc`, standard error holding `want`, and no simulation done (a year
/// of the reference office takes minutes in a debug build; a refusal, seconds).
fn refused(cmd: &mut Command, rc: i32, want: &str) -> String {
    let (o, err, took) = run(cmd);
    assert_eq!(o.status.code(), Some(rc), "{err}");
    assert!(err.contains(want), "expected «{want}» in:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(took < Duration::from_secs(60), "took {took:?}: {err}");
    err
}

/// `daylit annual` on the reference office with these sensors and extra arguments.
fn annual(dir: &Path, sensors: &str, extra: &[&str]) -> Command {
    let pts = dir.join("grid.pts");
    std::fs::write(&pts, sensors).unwrap();
    let mut c = daylit();
    c.current_dir(dir)
        .arg("annual")
        .arg(office())
        .arg("--sensors")
        .arg(&pts)
        .arg("--weather")
        .arg(weather())
        .args(extra);
    c
}

#[test]
fn a_sensor_far_outside_the_scene_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let err = refused(
        &mut annual(
            dir.path(),
            "1.8 4 0.8 0 0 1\n1e308 1e308 1e308 0 0 1\n",
            &["--json", "r.json"],
        ),
        1,
        "grid.pts:2: sensor at (1e+308, 1e+308, 1e+308) is 1.73205e+308 from the scene's \
         bounding box, more than 10 times the scene's size",
    );
    assert!(
        err.contains("sensors must lie in or near the scene"),
        "{err}"
    );
    // Nothing written: no JSON, no output folder.
    assert!(!dir.path().join("r.json").exists());
    assert!(!dir.path().join("annual").exists());
    // Non-finite numbers are refused where the file is read.
    refused(
        &mut annual(dir.path(), "1.8 4 0.8 0 0 1\n1.8 inf 0.8 0 0 1\n", &[]),
        1,
        "grid.pts:2: expected a number for y, found 'inf'",
    );
}

#[test]
fn glare_views_far_outside_the_scene_are_refused() {
    refused(
        daylit()
            .args(["glare", "--annual"])
            .arg(office())
            .arg("--weather")
            .arg(weather())
            .args(["--view", "1.8 4 1.2 0 -1 0", "--view", "1e9 4 1.2 0 -1 0"]),
        1,
        "--view \"1e9 4 1.2 0 -1 0\": sensor at (1e+09, 4, 1.2) is 1e+09 from the scene's bounding box",
    );
}

/// A scene with a sphere of radius 1e300 on line 3.
fn absurd_scene(dir: &Path) -> PathBuf {
    let p = dir.join("bad.rad");
    std::fs::write(
        &p,
        "void plastic m 0 0 5 .5 .5 .5 0 0\n\
         m polygon floor 0 0 12 0 0 0 4 0 0 4 6 0 0 6 0\n\
         m sphere ball 0 0 4 0 0 0 1e300\n\
         m polygon wall 0 0 12 0 0 0 0 0 3 4 0 3 4 0 0\n",
    )
    .unwrap();
    p
}

#[test]
fn check_lists_absurd_sizes_and_daylits_own_commands_refuse_them() {
    let dir = tempfile::tempdir().unwrap();
    let scene = absurd_scene(dir.path());
    let (o, _, _) = run(daylit().arg("check").arg(&scene));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("; 1 surfaces too large or too far away to be meant)"),
        "{out}"
    );
    assert!(
        out.contains("bad.rad:3:1: implausible: sphere \"ball\": its coordinates reach 1e300"),
        "{out}"
    );
    assert!(
        out.contains("to (1.0000e300, 1.0000e300, 1.0000e300)"),
        "{out}"
    );
    let want = "bad.rad:3:1: sphere \"ball\": its coordinates reach 1e300";
    let pts = dir.path().join("p.pts");
    std::fs::write(&pts, "1 1 0.8 0 0 1\n").unwrap();
    refused(
        daylit()
            .arg("annual")
            .arg(&scene)
            .arg("--sensors")
            .arg(&pts)
            .arg("--weather")
            .arg(weather()),
        1,
        want,
    );
    refused(
        daylit()
            .current_dir(dir.path())
            .arg("render")
            .arg(&scene)
            .args(["-vp", "2", "3", "1", "-x", "8", "-y", "8"]),
        1,
        want,
    );
    // RADIANCE's own programs keep accepting what RADIANCE accepts.
    let (o, err, _) = run(daylit().arg("rtrace").args(["-h", "-ab", "0"]).arg(&scene));
    assert!(o.status.success(), "{err}");
}

#[test]
fn output_paths_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a_file"), "x").unwrap();
    let sensors = "1.8 4 0.8 0 0 1\n";
    refused(
        &mut annual(d, sensors, &["--json", "a_file/r.json"]),
        1,
        "cannot write a_file/r.json: a_file is a file, not a folder",
    );
    refused(
        &mut annual(d, sensors, &["--json", "no/such/r.json"]),
        1,
        "cannot write no/such/r.json: the folder no/such does not exist (daylit does not create it)",
    );
    assert!(!d.join("no").exists(), "a folder was made");
    refused(
        &mut annual(d, sensors, &["--ill", "a_file/hourly.mtx"]),
        1,
        "cannot write a_file/hourly.mtx: a_file is a file, not a folder",
    );
    // A file in the output folder that the run will make is fine (the README's main job):
    // the run gets past the output checks, to the sensors, checked next.
    let err = refused(
        &mut annual(
            d,
            "1e9 0 0 0 0 1\n",
            &["--json", "./res/a.json", "-o", "res"],
        ),
        1,
        "grid.pts:1: sensor at (1e+09, 0, 0)",
    );
    assert!(!err.contains("cannot write"), "{err}");
    assert!(!d.join("res").exists());
    refused(
        &mut annual(d, sensors, &["-o", "no/maps"]),
        1,
        "cannot write no/maps: the folder no does not exist (daylit does not create it)",
    );
    refused(
        &mut annual(d, sensors, &["-o", "a_file"]),
        1,
        "cannot write a_file: it is a file, not a folder",
    );
    // render names the user's path, never a hidden temporary file.
    let err = refused(
        daylit()
            .current_dir(d)
            .arg("render")
            .arg(root().join("examples/office/office.rad"))
            .args(["-o", "missing/pic.hdr", "-x", "8", "-y", "8"]),
        1,
        "cannot write missing/pic.hdr: the folder missing does not exist",
    );
    assert!(!err.contains(".tmp"), "{err}");
    refused(
        daylit()
            .current_dir(d)
            .arg("falsecolor")
            .arg(root().join("crates/cli/tests/golden/pictures/ra_rgbe_in.hdr"))
            .args(["-o", "a_file/fc.png"]),
        1,
        "cannot write a_file/fc.png: a_file is a file, not a folder",
    );
    refused(
        daylit()
            .current_dir(d)
            .arg("glare")
            .arg(root().join("crates/cli/tests/golden/pictures/ra_rgbe_in.hdr"))
            .args(["--check", "none/check.png"]),
        1,
        "cannot write none/check.png: the folder none does not exist",
    );
    refused(
        daylit()
            .current_dir(d)
            .args(["glare", "--annual"])
            .arg(office())
            .arg("--weather")
            .arg(weather())
            .args(["--view", "1.8 4 1.2 0 -1 0", "--csv", "a_file/g.csv"]),
        1,
        "cannot write a_file/g.csv: a_file is a file, not a folder",
    );
}

#[test]
fn options_out_of_range_get_one_message_style() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--ad=1e12"],
            "daylit annual: --ad: expected a whole number from 1 to 1000000, got \"1e12\"",
        ),
        (
            &["--ab", "1000000000"],
            "daylit annual: --ab: expected a whole number from 0 to 100, got \"1000000000\"",
        ),
        (
            &["--ad=-5"],
            "daylit annual: --ad: expected a whole number from 1 to 1000000, got \"-5\"",
        ),
        (
            &["--lw", "nan"],
            "daylit annual: --lw: expected a number from 0 to 1, got \"nan\"",
        ),
        (
            &["--spacing", "0"],
            "daylit annual: --spacing: expected a number above 0 and at most 1000000, got \"0\"",
        ),
        (
            &["--mf", "31"],
            "daylit annual: --mf: expected a whole number from 1 to 30, got \"31\"",
        ),
    ];
    for (extra, want) in cases {
        let err = refused(&mut annual(dir.path(), "1 1 1 0 0 1\n", extra), 2, want);
        assert_eq!(err.trim(), *want);
    }
    refused(
        daylit().args(["glare", "--annual", "x.rad", "--nlev=40"]),
        2,
        "daylit glare: --nlev: expected a whole number from 0 to 12, got \"40\"",
    );
    // `daylit render` takes RADIANCE's option syntax; its counts have the same ranges.
    let err = refused(
        daylit()
            .arg("render")
            .arg(office())
            .args(["-ab", "1000000000", "-x", "8", "-y", "8"]),
        1,
        "render: -ab: expected a whole number from 0 to 100, got \"1000000000\"",
    );
    assert!(!err.contains("panicked"), "{err}");
    refused(
        daylit().args(["falsecolor", "x.hdr", "-o", "y.png", "-n", "0"]),
        2,
        "daylit falsecolor: --ndivs: expected a whole number from 1 to 1000, got \"0\"",
    );
}

/// The subcommands `daylit --help` lists.
fn subcommands() -> Vec<String> {
    let (o, err, _) = run(daylit().arg("--help"));
    assert!(o.status.success(), "{err}");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let list = out.split("Commands:").nth(1).expect("a list of commands");
    let names: Vec<String> = list
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect();
    assert!(names.len() > 20, "{out}");
    names
}

/// Words from the project's own documents that mean nothing to a lighting designer.
const INTERNAL: &[&str] = &["seed 0", "thesis", "issue "];

fn plain(text: &str, what: &str) {
    let lower = text.to_lowercase();
    for w in INTERNAL {
        assert!(!lower.contains(w), "{what} speaks of «{w}»:\n{text}");
    }
}

#[test]
fn every_help_exits_0_in_plain_words() {
    let (o, _, _) = run(daylit().arg("--help"));
    plain(&String::from_utf8_lossy(&o.stdout), "daylit --help");
    for sub in subcommands() {
        let (o, err, _) = run(daylit().args([sub.as_str(), "--help"]));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(0), "daylit {sub} --help: {err}");
        assert!(out.len() > 100, "daylit {sub} --help printed only: {out}");
        plain(&out, &format!("daylit {sub} --help"));
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    plain(&readme, "README.md");
}

/// RADIANCE's programs answer `--help` with their usage and exit code 1 (it is not one of
/// their options); daylit's links keep that, and never panic.
#[test]
fn radiance_names_answer_help_as_radiance_does() {
    let bin = tempfile::tempdir().unwrap();
    let (o, err, _) = run(daylit().arg("install-links").arg(bin.path()));
    assert!(o.status.success(), "{err}");
    for e in std::fs::read_dir(bin.path()).unwrap() {
        let prog = e.unwrap().path();
        let name = prog.file_name().unwrap().to_string_lossy().into_owned();
        let o = Command::new(&prog)
            .arg("--help")
            .current_dir(bin.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!all.contains("panicked"), "{name} --help: {all}");
        assert_ne!(o.status.code(), Some(0), "{name} --help: {all}");
        assert!(!all.trim().is_empty(), "{name} --help says nothing");
        plain(&all, &format!("{name} --help"));
    }
}

/// Every option of daylit's own commands that takes a value says its default (or that there
/// is none, or its choices).
#[test]
fn every_option_shows_its_default() {
    let own = [
        "annual",
        "glare",
        "render",
        "check",
        "falsecolor",
        "compare",
        "oconv",
        "getinfo",
        "bench-rays",
        "vwrays",
        "install-links",
    ];
    for sub in own {
        let (o, err, _) = run(daylit().args([sub, "--help"]));
        assert!(o.status.success(), "{err}");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let options = out.split("Options:").nth(1).unwrap_or("");
        // One block per option: from a line that starts with `-` to the next.
        let mut blocks: Vec<String> = Vec::new();
        for line in options.lines() {
            let t = line.trim_start();
            if t.starts_with('-') && line.len() - t.len() <= 6 {
                blocks.push(String::new());
            }
            if let Some(b) = blocks.last_mut() {
                b.push_str(line);
                b.push('\n');
            }
        }
        for b in blocks {
            let head = b.trim_start().split("  ").next().unwrap_or("");
            if head.contains('<') {
                assert!(
                    b.contains("[default") || b.contains("[possible values"),
                    "daylit {sub}: no default shown for {b}"
                );
            }
        }
    }
}
