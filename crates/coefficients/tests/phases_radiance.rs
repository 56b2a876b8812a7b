//! The three- and five-phase methods against RADIANCE 6.0a's pipelines (the LBNL tutorial's
//! recipe, crates/cli/tests/golden/phases/make.sh, converged settings): the side-lit room of
//! bench/three_phase with a clear pane and venetian blinds as two states of one window group,
//! 12 work-plane sensors, a Greensboro year.
//!
//! Per sensor, the annual mean illuminance (all 8760 hours) within 3 % (issue 22), for each
//! state by each method and for the five-phase year with the blinds closed in the hours of
//! RADIANCE's LM-83 schedule; the five-phase direct sun through the open state within 5 %
//! where it is large (see below). The LM-83 rule on daylit's own direct sun closes the blinds
//! in the same hours as on RADIANCE's but for 5 % of them (measured 3 %: the suns differ in
//! position, see below).
//!
//! RADIANCE's five-phase direct sun is taken in rcontrib's values mode (make.sh): its
//! coefficient mode drops part of the sun through the blinds, which put its five-phase
//! closed state 17-19 % below its own three-phase one near the window; in values mode the two
//! agree within 2 %, as daylit's do.

use daylit_coefficients::phases::{
    annual_phases, GroupStates, Method, PhaseSettings, ShadeControl,
};
use daylit_coefficients::{Sensor, TraceSettings};
use daylit_scene::LoadOptions;
use glam::DVec3;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

fn gold() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/golden/phases")
}

fn gunzip(path: &Path) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

/// `results.txt`: (method, state, sensor) → annual mean over all hours.
fn reference() -> HashMap<(String, String, usize), f64> {
    std::fs::read_to_string(gold().join("results.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (
                (w[0].to_string(), w[1].to_string(), w[2].parse().unwrap()),
                w[3].parse().unwrap(),
            )
        })
        .collect()
}

/// Runs `method` in the room with the LM-83 rule; the one window group's record.
fn run(method: Method) -> (GroupStates, usize) {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bsdf/tests/data");
    for (state, file) in [
        ("open", "pyradiance-clear"),
        ("closed", "pyradiance-blinds"),
    ] {
        std::fs::write(
            dir.path().join(format!("{state}.xml")),
            gunzip(&data.join(format!("{file}.xml.gz"))),
        )
        .unwrap();
    }
    let window = dir.path().join("window.rad");
    std::fs::write(
        &window,
        "void BSDF window 6 0 open.xml 0 0 1 . 0 0\n\
         window polygon pane 0 0 12 0.5 0 0.8  0.5 0 2.5  3.5 0 2.5  3.5 0 0.8\n",
    )
    .unwrap();
    let sensors: Vec<Sensor> = std::fs::read_to_string(gold().join("sensors.pts"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            Sensor::new(DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]))
        })
        .collect();
    let weather = daylit_sky::weather::read_weather(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/annual/goldens/gso.wea"),
    )
    .unwrap();
    let load = LoadOptions {
        raypath: daylit_cal::RayPath::new([dir.path().to_path_buf()]),
        ..LoadOptions::default()
    };
    let settings = PhaseSettings {
        trace: TraceSettings {
            ab: 6,
            ad: 16384,
            lw: 1e-6,
            seed: 1,
        },
        states: vec![("window".into(), dir.path().join("closed.xml"))],
        shade: ShadeControl::lm83(),
        ..PhaseSettings::new(method)
    };
    let year = annual_phases(
        &[gold().join("room.rad"), window],
        &load,
        &settings,
        &sensors,
        &weather,
        &|_| {},
    )
    .unwrap();
    assert_eq!(year.groups.len(), 1);
    (year.groups.into_iter().next().unwrap(), year.steps)
}

fn mean(v: &[f32], s: usize, steps: usize) -> f64 {
    v[s * steps..(s + 1) * steps]
        .iter()
        .map(|x| *x as f64)
        .sum::<f64>()
        / steps as f64
}

/// Prints every sensor and notes in `failures` the comparisons with a sensor beyond `tol`.
fn check(failures: &mut Vec<String>, what: &str, got: &[f64], want: &[f64], tol: f64) {
    let mut worst = 0f64;
    for (s, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (g - w) / w;
        eprintln!(
            "{what} sensor {s}: daylit {g:.1} RADIANCE {w:.1} ({:+.2} %)",
            100.0 * e
        );
        worst = worst.max(e.abs());
    }
    if worst > tol {
        failures.push(format!(
            "{what}: a sensor is {:.2} % off (allowed {:.0} %)",
            100.0 * worst,
            100.0 * tol
        ));
    }
}

#[test]
fn three_and_five_phase_match_radiance_per_sensor() {
    let r = reference();
    let want = |m: &str, st: &str| {
        (0..12)
            .map(|s| r[&(m.to_string(), st.to_string(), s)])
            .collect::<Vec<_>>()
    };
    let schedule: Vec<bool> = gunzip(&gold().join("schedule.txt.gz"))
        .lines()
        .map(|l| l.trim() == "1")
        .collect();

    let mut failures = Vec::new();
    let (g3, steps) = run(Method::ThreePhase);
    for (k, st) in ["open", "closed"].iter().enumerate() {
        let got: Vec<f64> = (0..12).map(|s| mean(&g3.through[k], s, steps)).collect();
        check(
            &mut failures,
            &format!("3-phase, {st}"),
            &got,
            &want("3ph", st),
            0.03,
        );
    }

    let (g5, steps) = run(Method::FivePhase);
    for (k, st) in ["open", "closed"].iter().enumerate() {
        let got: Vec<f64> = (0..12).map(|s| mean(&g5.through[k], s, steps)).collect();
        check(
            &mut failures,
            &format!("5-phase, {st}"),
            &got,
            &want("5ph", st),
            0.03,
        );
    }
    // The year with RADIANCE's schedule.
    let sched: Vec<f64> = (0..12)
        .map(|s| {
            (0..steps)
                .map(|h| g5.through[usize::from(schedule[h])][s * steps + h] as f64)
                .sum::<f64>()
                / steps as f64
        })
        .collect();
    check(
        &mut failures,
        "5-phase, scheduled",
        &sched,
        &want("5ph", "sched"),
        0.03,
    );
    // The direct sun alone where it is a tenth of the open state's year or more (the two
    // rows nearest the window), within 5 %: RADIANCE puts each hour's sun at the nearest of
    // 5185 patch centres, daylit where it is, which moves the sun term of the second row by
    // up to 4 % (at patch centres daylit's is within 2.9 % of RADIANCE's everywhere there).
    // Further back the sun term is 3 to 5 % of the year and differs more (18-35 against
    // 30-41 lux in the third row; it does not converge to RADIANCE's as samples grow): only
    // the totals are held there.
    let total: Vec<f64> = (0..12).map(|s| mean(&g5.through[0], s, steps)).collect();
    let sun: Vec<f64> = (0..12).map(|s| mean(&g5.direct_sun[0], s, steps)).collect();
    let sun_want = want("direct", "open");
    let big: Vec<usize> = (0..12).filter(|&s| sun_want[s] >= 0.1 * total[s]).collect();
    assert_eq!(big.len(), 6, "rows 0 and 1 get the sun");
    check(
        &mut failures,
        "5-phase direct sun, open",
        &big.iter().map(|&s| sun[s]).collect::<Vec<_>>(),
        &big.iter().map(|&s| sun_want[s]).collect::<Vec<_>>(),
        0.05,
    );
    for (s, v) in sun.iter().enumerate().skip(9) {
        if *v > 1.0 {
            failures.push(format!(
                "direct sun at the back row, sensor {s}: {v:.2} lux"
            ));
        }
    }
    // LM-83's rule on daylit's direct sun against RADIANCE's.
    let differ = g5
        .chosen
        .iter()
        .zip(&schedule)
        .filter(|(c, s)| (**c == 1) != **s)
        .count();
    let closed = schedule.iter().filter(|s| **s).count();
    eprintln!("LM-83: RADIANCE closes {closed} hours; daylit's choice differs in {differ}");
    if differ as f64 > 0.05 * closed as f64 {
        failures.push(format!("LM-83: {differ} hours differ of {closed}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
