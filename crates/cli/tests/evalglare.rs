//! `daylit evalglare` and `evalglare` (the multicall name) end to end: the lines evalglare 3.06
//! printed for a golden picture, character for character; the check image; bad input.
//! (Every option set on every golden picture is compared number by number in
//! crates/glare/tests/evalglare_goldens.rs.)

use sha2::Digest as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn golden(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../validation/glare/goldens")
        .join(case)
}

/// evalglare's output for `opts` from a golden's evalglare.txt.
fn expected(case: &str, opts: &str) -> String {
    let text = std::fs::read_to_string(golden(case).join("evalglare.txt")).unwrap();
    let mut out = String::new();
    let mut on = false;
    for line in text.lines() {
        if let Some(o) = line.strip_prefix("## evalglare") {
            on = o.trim() == opts;
        } else if on {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(!out.is_empty(), "no golden for {opts:?}");
    out
}

fn run(cmd: &mut Command) -> (Output, String, String) {
    let o = cmd.output().unwrap();
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (so, se) = (s(&o.stdout), s(&o.stderr));
    (o, so, se)
}

#[test]
fn prints_what_evalglare_printed() {
    let case = "13_lightshelf_vta";
    let pic = golden(case).join("picture.hdr");
    for opts in ["", "-d", "-D", "-T 180 110 0.4 -d", "-B 0.35 -d", "-i 2500"] {
        let (o, out, err) = run(Command::new(env!("CARGO_BIN_EXE_daylit"))
            .arg("evalglare")
            .args(opts.split_whitespace())
            .arg(&pic));
        assert!(o.status.success(), "{opts}: {err}");
        assert_eq!(out, expected(case, opts), "daylit evalglare {opts}");
    }
    // Called as evalglare, reading the picture from standard input.
    let dir = tempfile::tempdir().unwrap();
    let eg = dir.path().join("evalglare");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &eg).unwrap();
    let (o, out, err) = run(Command::new(&eg)
        .arg("-d")
        .stdin(std::fs::File::open(&pic).unwrap()));
    assert!(o.status.success(), "{err}");
    assert_eq!(out, expected(case, "-d"));
    // -V: the vertical illuminance alone, as the -d line gives it.
    let (_, ev, _) = run(Command::new(&eg).arg("-V").arg(&pic));
    let d = expected(case, "-d");
    let last = d.lines().last().unwrap();
    let want = last
        .split(": ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .nth(2)
        .unwrap();
    assert_eq!(ev.trim(), want);
}

#[test]
fn writes_the_check_image() {
    let case = "01_outdoor_sun_vta";
    let dir = tempfile::tempdir().unwrap();
    let chk = dir.path().join("check.hdr");
    let (o, out, err) = run(Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(["evalglare", "-d", "-c"])
        .arg(&chk)
        .arg(golden(case).join("picture.hdr")));
    assert!(o.status.success(), "{err}");
    // Pixels of the glare sources, from the source table.
    let npix: f64 = out
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("dgp"))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<f64>().unwrap())
        .sum();
    let img = daylit_image::HdrImage::read(&chk).unwrap();
    assert_eq!((img.width, img.height), (361, 361));
    assert!(
        img.parsed_view().unwrap().is_some(),
        "the check image keeps the view"
    );
    // The sun (one pixel at the centre column, row 130 from the top) is coloured as a
    // glare source: no longer grey.
    let sun = img.get(180, 130);
    assert!(sun[0] != sun[1] || sun[1] != sun[2], "{sun:?}");
    // The glare sources' pixels are coloured, everything else stays grey (or black).
    let coloured = img
        .pixels
        .iter()
        .filter(|p| !(p[0] == p[1] && p[1] == p[2]))
        .count();
    assert!(npix > 0.0);
    assert_eq!(coloured as f64, npix);
}

#[test]
fn bad_input_is_a_clear_error() {
    let daylit = env!("CARGO_BIN_EXE_daylit");
    let (o, _, err) = run(Command::new(daylit).args(["evalglare", "/nonexistent.hdr"]));
    assert!(
        !o.status.success() && err.contains("/nonexistent.hdr"),
        "{err}"
    );
    let pic = golden("01_outdoor_sun_vta").join("picture.hdr");
    let (o, _, err) = run(Command::new(daylit).args(["evalglare", "-b"]).arg(&pic));
    assert!(!o.status.success() && err.contains("-b"), "{err}");
    let (o, _, err) = run(Command::new(daylit)
        .args(["evalglare", "-Q", "1"])
        .arg(&pic));
    assert!(
        !o.status.success() && err.contains("not supported"),
        "{err}"
    );
    // A view on the command line needs its type and both angles.
    let (o, _, err) = run(Command::new(daylit).args(["evalglare", "-vta"]).arg(&pic));
    assert!(
        !o.status.success() && err.contains("-vt -vv and -vh"),
        "{err}"
    );
    // A picture without a view.
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("noview.hdr");
    daylit_image::HdrImage::new(8, 8)
        .write(&plain, true)
        .unwrap();
    let (o, _, err) = run(Command::new(daylit).arg("evalglare").arg(&plain));
    assert!(
        !o.status.success() && err.contains("no valid view"),
        "{err}"
    );
    // Not a picture.
    let junk = dir.path().join("junk.hdr");
    std::fs::write(&junk, b"not a picture").unwrap();
    let (o, _, err) = run(Command::new(daylit).arg("evalglare").arg(&junk));
    assert!(!o.status.success() && err.contains("junk.hdr"), "{err}");
}

#[test]
fn glare_reports_the_same_metrics_as_json_and_pngs() {
    let case = "13_lightshelf_vta";
    let dir = tempfile::tempdir().unwrap();
    let (check, pos) = (dir.path().join("check.png"), dir.path().join("pos.png"));
    let (o, out, err) = run(Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(["glare", "--json", "-", "--check"])
        .arg(&check)
        .arg("--posindex")
        .arg(&pos)
        .args([
            "--region",
            "desk=150,250,210,300",
            "--region",
            "wall=150,100,210,150",
        ])
        .args(["--ratio", "wall/desk"])
        .arg(golden(case).join("picture.hdr")));
    assert!(o.status.success(), "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    // evalglare -d's summary line: dgp av_lum E_v lum_backg E_v_dir dgi ugr ...
    let d = expected(case, "-d");
    let v: Vec<f64> = d
        .lines()
        .last()
        .unwrap()
        .split(": ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    let close = |k: &str, want: f64| {
        let got = j[k].as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{k}: {got} vs {want}"
        );
    };
    close("dgp", v[0]);
    close("ev", v[2]);
    close("ugr", v[6]);
    assert_eq!(
        j["sources"].as_array().unwrap().len(),
        d.lines().count() - 2
    );
    let (wall, desk) = (
        j["regions"]["wall"].as_f64().unwrap(),
        j["regions"]["desk"].as_f64().unwrap(),
    );
    assert!(
        (j["ratios"]["wall/desk"]["ratio"].as_f64().unwrap() - wall / desk).abs()
            < 1e-9 * wall / desk
    );
    assert!(j["rammg"].as_f64().unwrap() > 0.0);
    // Each value's class, and how the evaluation was made (the picture with its hash).
    let class = |v: f64, limits: [f64; 3]| {
        ["imperceptible", "perceptible", "disturbing", "intolerable"]
            [limits.iter().filter(|&&l| v >= l).count()]
    };
    assert_eq!(j["classes"]["dgp"], class(v[0], [0.35, 0.40, 0.45]));
    assert_eq!(j["classes"]["ugr"], class(v[6], [13.0, 22.0, 28.0]));
    let input = &j["provenance"]["inputs"][0];
    assert_eq!(input["role"], "picture");
    let bytes = std::fs::read(golden(case).join("picture.hdr")).unwrap();
    let hash: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(input["sha256"], hash);
    for p in [&check, &pos] {
        let png = std::fs::read(p).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        assert!(png.windows(18).any(|w| w == b"daylit:provenance\0"));
    }
    // A region outside the picture is an error naming it.
    let (o, _, err) = run(Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(["glare", "--region", "x=0,0,999,10"])
        .arg(golden(case).join("picture.hdr")));
    assert!(
        !o.status.success() && err.contains("--region x=0,0,999,10"),
        "{err}"
    );
}
