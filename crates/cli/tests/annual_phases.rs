//! `daylit annual` on a scene with BSDF windows, end to end: the method it picks, the window
//! states in the summary and the JSON (their occupied hours add up to the schedule's), the
//! hourly matrix of `--ill`, and the refusals of input the matrix methods cannot honour.
//! The numbers themselves are checked against RADIANCE in
//! crates/coefficients/tests/phases_radiance.rs.

use std::io::Read;
use std::path::Path;
use std::process::Command;

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, file) in [
        ("open", "pyradiance-clear"),
        ("closed", "pyradiance-blinds"),
    ] {
        let mut xml = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(here.join(format!("../bsdf/tests/data/{file}.xml.gz"))).unwrap(),
        )
        .read_to_end(&mut xml)
        .unwrap();
        std::fs::write(dir.path().join(format!("{name}.xml")), xml).unwrap();
    }
    std::fs::copy(
        here.join("tests/golden/phases/room.rad"),
        dir.path().join("room.rad"),
    )
    .unwrap();
    std::fs::copy(
        here.join("../../validation/annual/goldens/gso.wea"),
        dir.path().join("gso.wea"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("window.rad"),
        "void BSDF glazing 6 0 open.xml 0 0 1 . 0 0\n\
         glazing polygon pane 0 0 12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sensors.pts"),
        "2 0.5 0.8 0 0 1\n2 4 0.8 0 0 1\n",
    )
    .unwrap();
    dir
}

fn annual(dir: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_daylit"))
        .current_dir(dir)
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
            "2",
            "--ad",
            "64",
            "--window-samples",
            "16",
        ])
        .args(["--sun-samples", "64"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn bsdf_windows_run_the_five_phase_method_with_lm83_blinds() {
    let dir = setup();
    let o = annual(
        dir.path(),
        &[
            "--state",
            "glazing=closed.xml",
            "--json",
            "a.json",
            "--ill",
            "ill.mtx",
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("method: 5phase"), "{out}");
    assert!(out.contains("window group glazing: open "), "{out}");
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("a.json")).unwrap()).unwrap();
    assert_eq!(j["method"], "5phase");
    let hours = &j["window_groups"][0]["occupied_hours_per_state"];
    let (open, closed) = (
        hours["open"].as_u64().unwrap(),
        hours["closed"].as_u64().unwrap(),
    );
    assert_eq!(open + closed, j["occupied_hours"].as_u64().unwrap());
    // The sensor 0.5 m from a south window of clear glass in Greensboro has sun on it in many
    // hours, so LM-83 closes the blinds often.
    assert!(
        closed > 500 && open > 500,
        "open {open} h, closed {closed} h"
    );
    let ill = std::fs::read_to_string(dir.path().join("ill.mtx")).unwrap();
    assert!(
        ill.contains("NROWS=2\nNCOLS=8760\nNCOMP=1\n"),
        "{}",
        &ill[..200]
    );
    let rows: Vec<Vec<f64>> = ill
        .split("\n\n")
        .nth(1)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|r| r.len() == 8760 && r.iter().all(|v| *v >= 0.0)));
    // Nights are dark; days are not.
    assert_eq!(rows[0][0], 0.0);
    assert!(rows[0].iter().sum::<f64>() > rows[1].iter().sum::<f64>());
}

#[test]
fn other_shade_rules_close_the_blinds_for_their_own_reasons() {
    let dir = setup();
    let closed = |extra: &[&str]| {
        let mut args = vec!["--state", "glazing=closed.xml", "--json", "a.json"];
        args.extend_from_slice(extra);
        let o = annual(dir.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("a.json")).unwrap()).unwrap();
        j["window_groups"][0]["occupied_hours_per_state"]["closed"]
            .as_u64()
            .unwrap()
    };
    // A limit no hour reaches never closes them; one every daylit hour passes always does.
    assert_eq!(closed(&["--shade-rule", "illuminance:1e9,0"]), 0);
    let always = closed(&["--shade-rule", "illuminance:0,0"]);
    // Someone 2 m from the window looking at it gets the sun in the eyes on low-sun days
    // only.
    let view = closed(&["--shade-rule", "view:100", "--shade-view", "2 2 1.2 0 -1 0"]);
    assert!(
        view > 0 && view < always / 2,
        "view rule {view} h of {always}"
    );
}

#[test]
fn the_matrix_methods_refuse_what_they_cannot_honour() {
    let dir = setup();
    let o = annual(dir.path(), &["--state", "glass=closed.xml"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("--state glass="),
        "{err}"
    );
    let o = annual(
        dir.path(),
        &["--method", "2phase", "--state", "glazing=closed.xml"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--state"), "{err}");
    let o = annual(dir.path(), &["--shade-rule", "1000"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("LUX,PERCENT"), "{err}");
    let o = annual(dir.path(), &["--shade-rule", "view:500"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--shade-view"), "{err}");
    std::fs::write(dir.path().join("s.csv"), "glazing\nopen\nshut\n").unwrap();
    let o = annual(
        dir.path(),
        &["--state", "glazing=closed.xml", "--shade-schedule", "s.csv"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("s.csv:3:") && err.contains("'shut'"),
        "{err}"
    );
}
