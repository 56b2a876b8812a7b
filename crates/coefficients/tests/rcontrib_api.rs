//! The typed rcontrib and rfluxmtx API without the command line: jobs built in code, records
//! traced in memory or written to a buffer, against the RADIANCE 6.0a goldens of
//! `crates/cli/tests/rcontrib` (made by `make_goldens.sh` there). With `-ab 0` every ray
//! reaches one glow directly, so each record is one bin of exactly 1 (or the glow's value
//! with `-V`): the values must be equal, not close.

use daylit_coefficients::rcontrib::{
    self, Bins, CalInput, Contrib, ContribError, ContribJob, Receiver, Warning,
};
use daylit_coefficients::rfluxmtx::{self, FluxJob, SenderInput};
use daylit_geometry::Ray;
use glam::DVec3;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/rcontrib")
}

/// The 400 rays of `dirs.txt`.
fn rays() -> Vec<Ray> {
    std::fs::read_to_string(dir().join("dirs.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            Ray {
                origin: DVec3::new(v[0], v[1], v[2]),
                dir: DVec3::new(v[3], v[4], v[5]),
            }
        })
        .collect()
}

/// A sparse golden ("record bin r g b" lines) as dense rows of RGB values.
fn sparse(name: &str, rows: usize, bins: usize) -> Vec<Vec<DVec3>> {
    let mut m = vec![vec![DVec3::ZERO; bins]; rows];
    for l in std::fs::read_to_string(dir().join(name)).unwrap().lines() {
        let w: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
        m[w[0] as usize][w[1] as usize] = DVec3::new(w[2], w[3], w[4]);
    }
    m
}

fn tregenza_job() -> ContribJob {
    let mut job = ContribJob::new("rcontrib (test)".into());
    job.render.ab = 0;
    job.cal.push(CalInput::File("tregenza.cal".into()));
    job.receivers.push(Receiver {
        name: "skyglow".into(),
        bins: Bins::Expr {
            expr: Some("tbin".into()),
            count: Some("146".into()),
            params: None,
        },
        out: None,
    });
    job.scene = vec![dir().join("sky.rad")];
    job
}

#[test]
fn records_in_memory_equal_rcontrib() {
    let rays = rays();
    let mut warnings = vec![];
    let contrib = Contrib::new(tregenza_job(), &mut |w| warnings.push(w)).unwrap();
    assert_eq!(contrib.record_len(), 146);
    let records = rcontrib::records(&rays, 1, 0, 0, &mut |w| warnings.push(w)).unwrap();
    let got = contrib.trace(&rays, &records);
    assert_eq!(got, sparse("tregenza.txt", 400, 146));
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn rfluxmtx_writes_the_matrix_rfluxmtx_writes() {
    let mut out = Vec::new();
    let job = FluxJob {
        contrib: {
            let mut j = ContribJob::new("rfluxmtx (test)".into());
            j.render.ab = 0;
            j
        },
        samples: None,
        sender: SenderInput::PassThrough,
        receivers: dir().join("receivers_sc.rad"),
        system_octree: None,
        system: vec![],
        output: None,
    };
    rfluxmtx::run(job, &rays(), &mut out, &mut |w| panic!("{w}")).unwrap();
    let text = String::from_utf8(out).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    let head: Vec<&str> = head
        .lines()
        .skip(1)
        .filter(|l| {
            !["rfluxmtx", "CAPDATE=", "GMT=", "SOFTWARE="]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    let want = std::fs::read_to_string(dir().join("header_rflux_sc.txt")).unwrap();
    assert_eq!(head, want.lines().collect::<Vec<_>>());
    let rows: Vec<Vec<DVec3>> = body
        .lines()
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            v.chunks(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect()
        })
        .collect();
    assert_eq!(rows, sparse("rflux_sc.txt", 400, 36));
}

#[test]
fn bad_jobs_are_typed_errors_and_warnings() {
    let mut job = tregenza_job();
    job.receivers.push(job.receivers[0].clone());
    let e = Contrib::new(job, &mut |_| {}).err().unwrap();
    assert!(matches!(&e, ContribError::Invalid(m) if m.contains("duplicate modifier 'skyglow'")));

    let mut job = tregenza_job();
    job.receivers[0].bins = Bins::Expr {
        expr: Some("tbin(".into()),
        count: Some("146".into()),
        params: None,
    };
    let e = Contrib::new(job, &mut |_| {}).err().unwrap();
    assert!(matches!(&e, ContribError::Cal { what, .. } if what.contains("bad bin expression")));

    let mut job = tregenza_job();
    job.receivers[0].name = "nosuch".into();
    let mut warnings = vec![];
    let c = Contrib::new(job, &mut |w| warnings.push(w)).unwrap();
    assert_eq!(warnings, vec![Warning::NotInScene("nosuch".into())]);
    let rays = rays();
    let recs = rcontrib::records(&rays, 1, 0, 0, &mut |_| {}).unwrap();
    assert!(c
        .trace(&rays, &recs)
        .iter()
        .flatten()
        .all(|v| *v == DVec3::ZERO));
}
