//! `daylit glare --annual` against RADIANCE: evalglare on converged hour-by-hour rpict fisheye
//! pictures of the reference office (tests/golden/annual_glare, made by make.sh) for six hours
//! and two views, one with the winter sun in view. Tolerances are seed 004's targets for the
//! distribution-normalised errors: DGP and UGP MAE_dn ≤ 0.02, Ev MAPE_dn ≤ 5 %.

mod common;

use daylit_image::dn_error::{distribution_normalised, EV_SPLITS, GLARE_SPLITS};
use std::path::Path;
use std::process::Command;

/// (month, day, hour, view name, Ev, DGP, UGP) of goldens.txt.
fn goldens() -> Vec<(f64, f64, f64, String, f64, f64, f64)> {
    let text = std::fs::read_to_string(common::golden("annual_glare/goldens.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let f = |k: usize| w[k].parse::<f64>().unwrap();
            (f(0), f(1), f(2), w[3].to_string(), f(4), f(5), f(6))
        })
        .collect()
}

#[test]
fn annual_glare_matches_radiance_pictures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let g = common::golden("annual_glare");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("glare.json");
    let csv = out.path().join("glare.csv");
    let views = [
        ("window", "1.2 2.0 1.2 0 -1 0"),
        ("side", "2.4 3.0 1.2 1 0 0"),
    ];
    let t = std::time::Instant::now();
    let run = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .arg("glare")
        .arg("--annual")
        .arg(root.join("examples/reference_office/office.rad"))
        .arg("--weather")
        .arg(g.join("hours.wea"))
        .args(["--view", views[0].1, "--view", views[1].1])
        .args(["--ab", "4", "--ad", "1024", "--idres", "32", "--nlev", "4"])
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .arg("--save")
        .arg(out.path())
        .output()
        .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}{}",
        stdout,
        String::from_utf8_lossy(&run.stderr)
    );
    eprintln!("{stdout}daylit glare --annual: {secs:.1} s for 2 points × 1 view");
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let obj = j.as_object().unwrap();
    assert_eq!(obj.len(), 3, "exactly hours, views and provenance");
    let prov = &j["provenance"];
    assert_eq!(prov["inputs"][0]["role"], "scene");
    assert_eq!(prov["inputs"][1]["role"], "weather");
    assert_eq!(prov["seed"], 1);
    assert_eq!(prov["settings"]["ab"], "4");
    let hours: Vec<Vec<f64>> = serde_json::from_value(j["hours"].clone()).unwrap();
    let gold = goldens();
    let (mut dgp, mut ugp, mut ev) = (Vec::new(), Vec::new(), Vec::new());
    for (k, (name, _)) in views.iter().enumerate() {
        let v = &j["views"][k];
        assert_eq!(v["point"].as_array().unwrap().len(), 3);
        for (m, d, h, gv, gev, gdgp, gugp) in &gold {
            if gv != name {
                continue;
            }
            let i = hours
                .iter()
                .position(|x| x == &vec![*m, *d, *h])
                .unwrap_or_else(|| panic!("hour {m} {d} {h} not evaluated"));
            let get = |key: &str| v[key][i].as_f64().unwrap();
            eprintln!(
                "{m:>2} {d:>2} {h:>4} {name:6}  Ev {:8.1} / {gev:8.1}  DGP {:.3} / {gdgp:.3}  UGP {:.3} / {gugp:.3}",
                get("ev"),
                get("dgp"),
                get("ugp")
            );
            dgp.push((get("dgp"), *gdgp));
            ugp.push((get("ugp"), *gugp));
            ev.push((get("ev"), *gev));
        }
    }
    assert_eq!(dgp.len(), 12);
    let d = distribution_normalised(dgp, &GLARE_SPLITS, false).unwrap();
    let u = distribution_normalised(ugp, &GLARE_SPLITS, false).unwrap();
    let e = distribution_normalised(ev, &EV_SPLITS, true).unwrap();
    eprintln!(
        "DGP MAE_dn {:.4} MSD_dn {:+.4}; UGP MAE_dn {:.4} MSD_dn {:+.4}; Ev MAPE_dn {:.2} % MSPD_dn {:+.2} %",
        d.mae_dn,
        d.msd_dn,
        u.mae_dn,
        u.msd_dn,
        100.0 * e.mae_dn,
        100.0 * e.msd_dn
    );
    assert!(d.mae_dn <= 0.02, "DGP MAE_dn {}", d.mae_dn);
    assert!(u.mae_dn <= 0.02, "UGP MAE_dn {}", u.mae_dn);
    assert!(e.mae_dn <= 0.05, "Ev MAPE_dn {}", e.mae_dn);
    let rows = std::fs::read_to_string(&csv).unwrap();
    // `#` lines say how the CSV was made, then the header row and one row per view and hour.
    assert!(rows.starts_with("# daylit "));
    assert!(rows.contains("\n# weather: "));
    let data = rows.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(data, 1 + 2 * hours.len());
    // The saved LightPoints evaluate again without tracing the sky, to the same numbers.
    let again = out.path().join("again.json");
    let run = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .arg("glare")
        .arg("--annual")
        .arg(root.join("examples/reference_office/office.rad"))
        .arg("--weather")
        .arg(g.join("hours.wea"))
        .args(["--view", views[0].1, "--view", views[1].1])
        .arg("--load")
        .arg(out.path())
        .arg("--json")
        .arg(&again)
        .arg("--report")
        .arg(out.path().join("report"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The same numbers; only the record of how each file was made differs (--load).
    let numbers = |p: &Path| {
        let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("provenance");
        v
    };
    assert_eq!(numbers(&again), numbers(&json));
    // The report: a DGP map per view, and each view's hours at or above 0.35, 0.40 and 0.45
    // as the JSON's DGP series count them.
    let page = std::fs::read_to_string(out.path().join("report/glare_report.html")).unwrap();
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for (k, v) in j["views"].as_array().unwrap().iter().enumerate() {
        let dgp: Vec<f64> = v["dgp"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let counts: Vec<String> = [0.35, 0.40, 0.45]
            .iter()
            .map(|&l| {
                let n = dgp.iter().filter(|&&g| g >= l).count();
                format!(
                    "<td>{n} h ({:.1}&nbsp;%)</td>",
                    100.0 * n as f64 / dgp.len() as f64
                )
            })
            .collect();
        assert!(page.contains(&counts.concat()), "view {k}: {counts:?}");
        assert!(out
            .path()
            .join(format!("report/glare_dgp_{}.png", k + 1))
            .exists());
    }
}

#[test]
fn annual_glare_refuses_bad_input() {
    let g = common::golden("annual_glare");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_daylit"))
            .arg("glare")
            .args(args)
            .output()
            .unwrap()
    };
    let wea = g.join("hours.wea");
    let wea = wea.to_str().unwrap();
    for (args, want) in [
        (
            vec!["--annual", "x.rad", "--view", "0 0 1 0 1 0"],
            "--weather",
        ),
        (vec!["--annual", "x.rad", "--weather", wea], "--view"),
        (
            vec!["--annual", "x.rad", "--weather", wea, "--view", "0 0 1 0 1"],
            "six numbers",
        ),
        (
            vec![
                "--annual",
                "x.rad",
                "--weather",
                wea,
                "--view",
                "0 0 1 0 0 0",
            ],
            "zero",
        ),
        (
            vec![
                "--annual",
                "x.rad",
                "--weather",
                wea,
                "--view",
                "0 0 1 0 1 0",
                "--check",
                "c.png",
            ],
            "--check",
        ),
        (vec!["pic.hdr", "--weather", wea], "only with --annual"),
        (
            vec![
                "--annual",
                "missing.rad",
                "--weather",
                wea,
                "--view",
                "0 0 1 0 1 0",
            ],
            "missing.rad",
        ),
    ] {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
