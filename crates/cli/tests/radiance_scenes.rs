//! RADIANCE's own test scenes (`validation/radiance_scenes`: the scene lists and views of
//! RADIANCE's test/renders `.rif` files and its test/gen generator outputs), rendered by
//! `daylit rpict` and `daylit rtrace -I` at the settings of `settings.sh`, against the
//! pictures and sensor values RADIANCE 6.0a made at the same settings (`make_goldens.sh`).
//!
//! A case marked `expect match` must agree with RADIANCE within 3 % in mean picture value
//! (per channel, of the mean over all pixels) and in mean irradiance over its sensors (daylit: the
//! mean of eight seeds); both programs run one ambient bounce with 2048 samples, so each estimate scatters
//! well under 1 %. A case marked `expect differs` must render (its difference is printed: an
//! open item, noted in cases.txt). A case marked `expect refused TEXT` holds something daylit cannot trace
//! yet: it must stop with a located error (a file and line) that holds TEXT, never render.

use daylit_image::hdr::HdrImage;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Largest relative difference of a mean from RADIANCE's.
const TOLERANCE: f64 = 0.03;

/// Seeds daylit's sensor values are averaged over.
const SENSOR_SEEDS: u64 = 8;

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/radiance_scenes")
}

#[derive(Default, Debug)]
struct Case {
    name: String,
    files: Vec<String>,
    view: Vec<String>,
    opts: Vec<String>,
    /// Sensor file (relative to the suite), when sensors are compared.
    sensors: Option<String>,
    /// `None`: must match; `Some(text)`: must be refused with `text` in the error.
    refused: Option<String>,
    /// Renders, but is known to differ from RADIANCE by more than the tolerance.
    differs: bool,
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(suite().join("cases.txt")).unwrap();
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "case" {
            out.push(Case {
                name: rest.to_string(),
                ..Case::default()
            });
            continue;
        }
        let Some(c) = out.last_mut() else { continue };
        match key {
            "files" => c.files.extend(words(rest)),
            "file" => c.files.push(rest.to_string()),
            "view" => c.view = words(rest),
            "opts" => c.opts = words(rest),
            "sensors" => {
                c.sensors = Some(if rest.is_empty() {
                    "sensors.txt".into()
                } else {
                    format!("scenes/{rest}")
                })
            }
            "expect" => {
                c.refused = rest.strip_prefix("refused ").map(|t| t.trim().to_string());
                c.differs = rest == "differs";
                assert!(
                    c.refused.is_some() || c.differs || rest == "match",
                    "cases.txt: bad expectation {rest:?}"
                );
            }
            _ => {}
        }
    }
    out
}

/// `RES`, `SETTINGS` and `PICTURE` of settings.sh.
fn settings() -> (String, Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(suite().join("settings.sh")).unwrap();
    let get = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{k}=")))
            .unwrap_or_else(|| panic!("settings.sh has no {k}"))
            .trim_matches('"')
            .to_string()
    };
    (get("RES"), words(&get("SETTINGS")), words(&get("PICTURE")))
}

fn daylit(prog: &str, args: &[String]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_daylit"));
    cmd.arg(prog)
        .args(args)
        .current_dir(suite().join("scenes"))
        .env("RAYPATH", ".");
    cmd
}

fn mean_rgb(rows: impl Iterator<Item = [f64; 3]>) -> [f64; 3] {
    let (mut s, mut n) = ([0.0; 3], 0.0);
    for v in rows {
        for c in 0..3 {
            s[c] += v[c];
        }
        n += 1.0;
    }
    s.map(|x| x / n)
}

fn numbers(path: &Path) -> Vec<[f64; 3]> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

/// The worst relative difference of `got` from `want` per channel, against the brightest
/// channel of `want` for channels that are nearly black.
fn worst(got: [f64; 3], want: [f64; 3]) -> f64 {
    let floor = 0.01 * want.iter().fold(0.0f64, |a, &b| a.max(b));
    (0..3)
        .map(|c| (got[c] - want[c]).abs() / want[c].abs().max(floor))
        .fold(0.0, f64::max)
}

/// Renders `case` and compares; `Err` says what differs.
fn check(case: &Case) -> Result<String, String> {
    let (res, settings, picture) = settings();
    let mut args = settings.clone();
    args.extend(picture);
    args.extend(case.opts.iter().cloned());
    args.extend(["-x".into(), res.clone(), "-y".into(), res]);
    args.extend(case.view.iter().cloned());
    args.extend(case.files.iter().cloned());
    let out = daylit("rpict", &args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if let Some(text) = &case.refused {
        // A located error: "file:line:" (or "file:line:col:") before the message.
        let located = err.split(|c: char| c.is_whitespace()).any(|w| {
            w.split(':')
                .nth(1)
                .is_some_and(|l| l.parse::<u32>().is_ok())
        });
        return if out.status.success() {
            Err("rendered a scene it should refuse".into())
        } else if !err.contains(text.as_str()) || !located {
            Err(format!("refused without a located \"{text}\": {err}"))
        } else {
            Ok(format!("refused: {}", err.lines().next().unwrap_or("")))
        };
    }
    if !out.status.success() {
        return Err(format!("rpict failed: {err}"));
    }
    let pic = HdrImage::decode(&out.stdout, &case.name).map_err(|e| e.to_string())?;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("radiance_scenes");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{}.hdr", case.name)), &out.stdout).unwrap();
    let got = mean_rgb(
        pic.pixels
            .iter()
            .map(|p| p.map(|v| f64::from(v) / pic.exposure)),
    );
    let goldens = suite().join("goldens");
    let want = numbers(&goldens.join(format!("{}.mean", case.name)))[0];
    let mut report = format!("picture mean off by {:.2}%", 100.0 * worst(got, want));
    if case.differs {
        return Ok(format!(
            "{report} (known to differ: {got:?}, RADIANCE {want:?})"
        ));
    }
    if worst(got, want) > TOLERANCE {
        return Err(format!("mean picture value {got:?}, RADIANCE {want:?}"));
    }
    if let Some(file) = &case.sensors {
        // Nine sensors scatter by 2-3 % from run to run where a sun patch or a mirrored sun
        // lights them (RADIANCE's single run too): daylit's value is the mean of eight seeds.
        let sensors = std::fs::read(suite().join(file)).unwrap();
        let mut rows = Vec::new();
        for seed in 1..=SENSOR_SEEDS {
            let mut args = vec!["-h".to_string(), "-I".to_string()];
            args.extend(settings.iter().cloned());
            args.extend(case.opts.iter().cloned());
            args.extend(["-seed".to_string(), seed.to_string()]);
            args.extend(case.files.iter().cloned());
            let mut child = daylit("rtrace", &args)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child.stdin.take().unwrap().write_all(&sensors).unwrap();
            let out = child.wait_with_output().unwrap();
            if !out.status.success() {
                return Err(format!(
                    "rtrace -I failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let tmp = dir.join(format!("{}.{seed}.sensors", case.name));
            std::fs::write(&tmp, &out.stdout).unwrap();
            rows.extend(numbers(&tmp));
        }
        let got = mean_rgb(rows.into_iter());
        let want = mean_rgb(numbers(&goldens.join(format!("{}.sensors", case.name))).into_iter());
        let w = worst(got, want);
        report += &format!(", sensor mean off by {:.2}%", 100.0 * w);
        if w > TOLERANCE {
            return Err(format!(
                "{report}: mean sensor irradiance {got:?}, RADIANCE {want:?}"
            ));
        }
    }
    Ok(report)
}

#[test]
fn radiance_test_scenes_render_as_radiance_renders_them() {
    let cases = cases();
    assert!(cases.len() >= 20, "cases.txt lost its cases");
    let mut failures = Vec::new();
    for case in &cases {
        match check(case) {
            Ok(what) => eprintln!("{}: {what}", case.name),
            Err(e) => {
                eprintln!("{}: FAILED: {e}", case.name);
                failures.push(format!("{}: {e}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
