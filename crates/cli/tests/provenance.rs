//! Results say how they were made: `daylit annual`'s JSON, per-sensor CSV and PNG maps and
//! `daylit render`'s picture header and PNG record the command line, daylit's version, the
//! scene and weather files with the SHA-256 of their content (computed here independently),
//! the settings and the seed.

use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

fn sha256(path: &Path) -> String {
    Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The tEXt chunks of a PNG file, (keyword, text).
fn png_text(path: &Path) -> Vec<(String, String)> {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .map(|c| (c.keyword.clone(), c.text.clone()))
        .collect()
}

fn room(dir: &Path) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        here.join("tests/golden/phases/room.rad"),
        dir.join("room.rad"),
    )
    .unwrap();
    std::fs::copy(
        here.join("../../validation/annual/goldens/gso.wea"),
        dir.join("gso.wea"),
    )
    .unwrap();
    std::fs::write(
        dir.join("window.rad"),
        "void glass pane_mat 0 0 3 .8 .8 .8\n\
         pane_mat polygon pane 0 0 12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n",
    )
    .unwrap();
    std::fs::write(dir.join("sensors.pts"), "2 1 0.8 0 0 1\n2 4 0.8 0 0 1\n").unwrap();
}

#[test]
fn annual_results_record_inputs_settings_and_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    room(d);
    let o = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .current_dir(d)
        .args([
            "annual",
            "room.rad",
            "window.rad",
            "--sensors",
            "sensors.pts",
        ])
        .args([
            "--weather",
            "gso.wea",
            "--ab",
            "1",
            "--ad",
            "32",
            "--seed",
            "9",
        ])
        .args([
            "--json",
            "out/annual.json",
            "-o",
            "out",
            "--ill",
            "out/a.ill",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The hourly matrix: the record as header lines, the numbers after them as before.
    let ill = std::fs::read_to_string(d.join("out/a.ill")).unwrap();
    let (head, body) = ill.split_once("\n\n").unwrap();
    let scene = format!("SCENE_SHA256= {} room.rad", sha256(&d.join("room.rad")));
    assert!(head.lines().any(|l| l == scene), "{head}");
    assert!(head.contains("NROWS=2") && head.contains("NCOLS=") && head.contains("SEED= 9"));
    assert_eq!(body.lines().count(), 2);
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("out/annual.json")).unwrap()).unwrap();
    let p = &j["provenance"];
    assert_eq!(p["daylit_version"], env!("CARGO_PKG_VERSION"));
    let words: Vec<&str> = p["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(&words[1..4], ["annual", "room.rad", "window.rad"]);
    assert!(words.contains(&"--seed") && words.contains(&"9"));
    let inputs = p["inputs"].as_array().unwrap();
    let want = [
        ("scene", "room.rad"),
        ("scene", "window.rad"),
        ("weather", "gso.wea"),
        ("sensors", "sensors.pts"),
    ];
    assert_eq!(inputs.len(), want.len());
    for (i, (role, file)) in inputs.iter().zip(want) {
        assert_eq!(i["role"], role);
        assert_eq!(i["path"], file);
        assert_eq!(i["sha256"], sha256(&d.join(file)), "{file}");
    }
    assert_eq!(p["seed"], 9);
    let s = &p["settings"];
    assert_eq!(s["method"], "2phase");
    assert_eq!((&s["ab"], &s["ad"]), (&"1".into(), &"32".into()));
    assert_eq!(s["lw"], "0.00001", "defaults are recorded too");

    // The CSV: comment lines first, then the same header and rows as before.
    let csv = std::fs::read_to_string(d.join("out/sensors.csv")).unwrap();
    let (comments, rows): (Vec<&str>, Vec<&str>) = csv.lines().partition(|l| l.starts_with('#'));
    assert!(csv.starts_with("# daylit "));
    let weather = format!("# weather: gso.wea sha256={}", sha256(&d.join("gso.wea")));
    assert!(comments.contains(&weather.as_str()), "{comments:?}");
    assert!(comments.contains(&"# seed: 9"));
    assert!(rows[0].starts_with("x,y,z,DA300,"));
    assert_eq!(rows.len(), 3);

    // Each map carries the record in text chunks.
    for map in ["DA300.png", "mean_lux.png", "temporal_lux.png"] {
        let text = png_text(&d.join("out").join(map));
        let get = |k: &str| {
            text.iter()
                .find(|(key, _)| key == k)
                .map(|(_, t)| t.clone())
                .unwrap_or_else(|| panic!("{map}: no tEXt chunk {k}: {text:?}"))
        };
        assert_eq!(
            get("Software"),
            format!("daylit {}", env!("CARGO_PKG_VERSION"))
        );
        let record: serde_json::Value = serde_json::from_str(&get("daylit:provenance")).unwrap();
        assert_eq!(&record, p, "{map}");
    }
}

#[test]
fn render_records_the_scene_in_header_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    room(d);
    // The sky's brightness comes from a .cal file, and its glow from a file it includes: both
    // are recorded as scene data with their hashes.
    std::fs::write(d.join("skyfunc.cal"), "bright = 1;\n").unwrap();
    std::fs::write(d.join("glow.rad"), "skyfunc glow sky_glow 0 0 4 1 1 1 0\n").unwrap();
    std::fs::write(
        d.join("sky.rad"),
        "void brightfunc skyfunc 2 bright skyfunc.cal 0 0\n!xform glow.rad\n\
         sky_glow source sky 0 0 4 0 0 1 180\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .current_dir(d)
        .env("RAYPATH", ".")
        .args(["render", "-o", "v.hdr", "sky.rad", "room.rad", "window.rad"])
        .args([
            "-vp", "2", "5", "1.5", "-vd", "0", "-1", "0", "-x", "16", "-y", "16",
        ])
        .args(["-ab", "1", "-ad", "16"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let hdr = std::fs::read(d.join("v.hdr")).unwrap();
    let end = hdr.windows(2).position(|w| w == b"\n\n").unwrap();
    let header = String::from_utf8_lossy(&hdr[..end]).to_string();
    let lines: Vec<&str> = header.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("daylit render ")));
    let version = format!("DAYLIT_VERSION= {}", env!("CARGO_PKG_VERSION"));
    assert!(lines.contains(&version.as_str()), "{header}");
    for f in ["sky.rad", "room.rad", "window.rad"] {
        let line = format!("SCENE_SHA256= {} {f}", sha256(&d.join(f)));
        assert!(lines.contains(&line.as_str()), "{line} not in\n{header}");
    }
    for f in ["glow.rad", "skyfunc.cal"] {
        let line = format!("SCENE_DATA_SHA256= {} {f}", sha256(&d.join(f)));
        assert!(lines.contains(&line.as_str()), "{line} not in\n{header}");
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("DAYLIT_SETTINGS= x=16 y=16 ")));
    assert!(lines.iter().any(|l| l.starts_with("SEED= ")));
    // The picture still reads as a RADIANCE picture.
    let img = daylit_image::HdrImage::decode(&hdr, "v.hdr").unwrap();
    assert_eq!((img.width, img.height), (16, 16));
    let text = png_text(&d.join("v.png"));
    let record = &text
        .iter()
        .find(|(k, _)| k == "daylit:provenance")
        .expect("a daylit:provenance tEXt chunk")
        .1;
    let record: serde_json::Value = serde_json::from_str(record).unwrap();
    assert_eq!(record["inputs"][1]["sha256"], sha256(&d.join("room.rad")));
}
