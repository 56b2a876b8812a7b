//! Thousands of random byte edits of valid schedule and sensor files: errors, never panics.

use daylit_annual::{GridOptions, Schedule, SensorSet};
use daylit_sky::weather::Record;
use rand::{Rng, SeedableRng};

const BYTES: &[u8] = b"0123456789.,-+eE# \n\t;xnaif\xff\xef\xbb\xbf";

fn mutate(rng: &mut impl Rng, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..rng.random_range(1..8) {
        let at = rng.random_range(0..=v.len());
        match rng.random_range(0..4) {
            0 if at < v.len() => v[at] = BYTES[rng.random_range(0..BYTES.len())],
            1 if at < v.len() => {
                v.remove(at);
            }
            2 => v.insert(at, BYTES[rng.random_range(0..BYTES.len())]),
            _ => {
                let end = (at + rng.random_range(0..40)).min(v.len());
                let chunk: Vec<u8> = v[at.min(end)..end].to_vec();
                let to = rng.random_range(0..=v.len());
                v.splice(to..to, chunk);
            }
        }
    }
    v
}

fn records(n: usize) -> Vec<Record> {
    (0..n)
        .map(|k| Record {
            month: 1,
            day: 1 + (k / 24) as u32,
            hour: (k % 24) as f64 + 0.5,
            direct: 0.0,
            diffuse: 0.0,
            dew_point: None,
        })
        .collect()
}

#[test]
fn schedule_edits_never_panic() {
    let recs = records(48);
    let mut daysim = String::from("# Daysim occupancy file\nmonth,day,hour,occupancy\n");
    let mut plain = String::from("occupancy\n");
    for r in &recs {
        let occ = u8::from(r.hour > 8.0 && r.hour < 18.0);
        daysim.push_str(&format!("{},{},{},{occ}\n", r.month, r.day, r.hour));
        plain.push_str(&format!("{occ}\n"));
    }
    let mut rng = rand_pcg::Pcg64::seed_from_u64(0x5eed);
    let mut ok = 0;
    for base in [daysim.as_bytes(), plain.as_bytes()] {
        assert!(Schedule::parse(&String::from_utf8_lossy(base), "s.csv", &recs).is_ok());
        for _ in 0..3000 {
            let text = String::from_utf8_lossy(&mutate(&mut rng, base)).into_owned();
            match Schedule::parse(&text, "s.csv", &recs) {
                Ok(s) => {
                    assert_eq!(s.len(), recs.len());
                    ok += 1;
                }
                Err(e) => assert!(e.to_string().starts_with("s.csv"), "{e}"),
            }
        }
    }
    assert!(ok > 0);
}

#[test]
fn sensor_edits_never_panic() {
    let grid = SensorSet::from_polygon(
        &[
            [0.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [3.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ],
        &GridOptions::default(),
    )
    .unwrap();
    let base = format!("# sensors\n{}", grid.to_radiance_text());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(42);
    for _ in 0..5000 {
        let text = String::from_utf8_lossy(&mutate(&mut rng, base.as_bytes())).into_owned();
        match SensorSet::parse(&text, "p.pts") {
            Ok(s) => assert!(!s.is_empty()),
            Err(e) => assert!(e.to_string().starts_with("p.pts"), "{e}"),
        }
    }
}
