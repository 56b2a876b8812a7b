//! Metrics against hand-computed cases.

use daylit_annual::{compute, Illuminance, MetricOptions, MetricsError, Schedule};
use rand::{Rng, SeedableRng};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Hours 8..18 of one day occupied.
fn day_schedule() -> Schedule {
    Schedule::from_flags((0..24).map(|h| (8..18).contains(&h)).collect())
}

/// 3 sensors × 24 hours, sensor-major. Unoccupied hours hold huge values that must not count.
fn three_sensors() -> Vec<f32> {
    let mut v = vec![1e6f32; 3 * 24];
    let s1 = [
        0.0, 50.0, 100.0, 150.0, 299.0, 300.0, 2000.0, 2001.0, 5000.0, 600.0,
    ];
    for h in 8..18 {
        v[h] = 300.0; // sensor 0: exactly at the threshold
        v[24 + h] = s1[h - 8];
        v[48 + h] = 0.0; // sensor 2: dark
    }
    v
}

#[test]
fn three_sensors_by_hand() {
    let v = three_sensors();
    let m = compute(
        &Illuminance::sensor_major(&v, 3, 24),
        None,
        &day_schedule(),
        &MetricOptions::default(),
    )
    .unwrap();
    assert_eq!((m.sensors, m.hours, m.occupied_hours), (3, 24, 10));
    // Sensor 0: E = 300 counts as meeting 300 lux.
    assert_eq!(m.da[0], 1.0);
    assert_eq!(m.cda[0], 1.0);
    assert_eq!((m.udi_n[0], m.udi_a[0], m.udi_e[0]), (0.0, 1.0, 0.0));
    assert!(close(m.mean_lux[0], 300.0));
    // Sensor 1.
    assert!(close(m.da[1], 0.5));
    assert!(close(m.da_low[1], 0.7));
    let cda = (0.0 + 50.0 / 300.0 + 100.0 / 300.0 + 0.5 + 299.0 / 300.0 + 5.0) / 10.0;
    assert!(close(m.cda[1], cda), "{} vs {cda}", m.cda[1]);
    // 100 and 2000 are in band; 2001 is above.
    assert!(close(m.udi_n[1], 0.2) && close(m.udi_a[1], 0.6) && close(m.udi_e[1], 0.2));
    assert!(close(m.mean_lux[1], 1050.0));
    // Sensor 2.
    assert_eq!(
        (m.da[2], m.cda[2], m.udi_n[2], m.mean_lux[2]),
        (0.0, 0.0, 1.0, 0.0)
    );
    // sDA: DA ≥ 0.5 counts (sensor 1 at exactly 0.5).
    assert!(close(m.sda, 2.0 / 3.0));
    assert_eq!((m.ase, m.ase_hours), (None, None));
}

#[test]
fn custom_thresholds() {
    let v = three_sensors();
    let o = MetricOptions {
        da_threshold: 2000.0,
        udi_lower: 300.0,
        udi_upper: 3000.0,
        sda_fraction: 0.3,
        ..Default::default()
    };
    let m = compute(
        &Illuminance::sensor_major(&v, 3, 24),
        None,
        &day_schedule(),
        &o,
    )
    .unwrap();
    assert!(close(m.da[1], 0.3));
    assert!(close(m.udi_n[1], 0.5) && close(m.udi_a[1], 0.4) && close(m.udi_e[1], 0.1));
    assert!(close(m.sda, 1.0 / 3.0));
}

/// ASE counts sensors sunlit (≥ 1000 lux direct) for MORE than 250 occupied hours.
#[test]
fn ase_250_vs_251() {
    let hours = 600;
    // Every other hour unoccupied: 300 occupied hours.
    let schedule = Schedule::from_flags((0..hours).map(|h| h % 2 == 0).collect());
    let occ: Vec<usize> = schedule.occupied_indices();
    let mut direct = vec![0f32; 4 * hours];
    for (k, &h) in occ.iter().enumerate() {
        if k < 250 {
            direct[h] = 1000.0; // sensor 0: exactly 250 hours at exactly 1000 lux
        }
        if k < 251 {
            direct[hours + h] = 1500.0; // sensor 1: 251 hours
        }
        if k < 250 {
            direct[2 * hours + h] = 1000.0; // sensor 2: 250 occupied hours ...
        }
        if k < 260 {
            direct[3 * hours + h] = 999.9; // sensor 3: just below the threshold
        }
    }
    direct[2 * hours + 1] = 5000.0; // ... plus one unoccupied hour, which does not count
    let total = vec![500f32; 4 * hours];
    let m = compute(
        &Illuminance::sensor_major(&total, 4, hours),
        Some(&Illuminance::sensor_major(&direct, 4, hours)),
        &schedule,
        &MetricOptions::default(),
    )
    .unwrap();
    assert_eq!(m.ase_hours.as_deref(), Some(&[250, 251, 250, 0][..]));
    assert_eq!(m.ase, Some(0.25));
    assert_eq!(m.sda, 1.0);
}

#[test]
fn layouts_agree() {
    let (s, h) = (137, 300);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let sm: Vec<f32> = (0..s * h).map(|_| rng.random_range(0.0..3000.0)).collect();
    let dm: Vec<f32> = (0..s * h).map(|_| rng.random_range(0.0..2000.0)).collect();
    let transpose = |v: &[f32]| {
        let mut t = vec![0f32; s * h];
        for i in 0..s {
            for k in 0..h {
                t[k * s + i] = v[i * h + k];
            }
        }
        t
    };
    let (st, dt) = (transpose(&sm), transpose(&dm));
    let sched = Schedule::from_flags((0..h).map(|k| k % 3 != 0).collect());
    let o = MetricOptions::default();
    let a = compute(
        &Illuminance::sensor_major(&sm, s, h),
        Some(&Illuminance::sensor_major(&dm, s, h)),
        &sched,
        &o,
    )
    .unwrap();
    let b = compute(
        &Illuminance::hour_major(&st, s, h),
        Some(&Illuminance::hour_major(&dt, s, h)),
        &sched,
        &o,
    )
    .unwrap();
    assert_eq!(a, b);
}

#[test]
fn input_errors() {
    let o = MetricOptions::default();
    let sched = day_schedule();
    let v = vec![0f32; 48];
    let e = compute(&Illuminance::sensor_major(&v, 3, 24), None, &sched, &o).unwrap_err();
    assert!(matches!(e, MetricsError::Shape { expected: 72, .. }), "{e}");
    let e = compute(
        &Illuminance::sensor_major(&v, 2, 24),
        None,
        &Schedule::from_flags(vec![false; 24]),
        &o,
    )
    .unwrap_err();
    assert_eq!(e, MetricsError::NoOccupiedHours);
    let e = compute(&Illuminance::sensor_major(&v, 4, 12), None, &sched, &o).unwrap_err();
    assert!(matches!(e, MetricsError::Mismatch(_)), "{e}");
    let d = vec![0f32; 24];
    let e = compute(
        &Illuminance::sensor_major(&v, 2, 24),
        Some(&Illuminance::sensor_major(&d, 1, 24)),
        &sched,
        &o,
    )
    .unwrap_err();
    assert!(matches!(e, MetricsError::Mismatch(_)), "{e}");
    let mut bad = v.clone();
    bad[24 + 9] = f32::NAN;
    bad[24 + 3] = f32::INFINITY; // unoccupied: ignored
    let e = compute(&Illuminance::sensor_major(&bad, 2, 24), None, &sched, &o).unwrap_err();
    assert!(
        matches!(
            e,
            MetricsError::NotFinite {
                sensor: 1,
                hour: 9,
                ..
            }
        ),
        "{e}"
    );
}

/// 10⁴ sensors × 8760 hours: well under a second with optimisation.
#[test]
fn ten_thousand_sensors_fast() {
    let (s, h) = (10_000, 8760);
    let v: Vec<f32> = (0..s * h).map(|k| (k % 4001) as f32).collect();
    let recs: Vec<bool> = (0..h).map(|k| (8..18).contains(&(k % 24))).collect();
    let sched = Schedule::from_flags(recs);
    let t = std::time::Instant::now();
    let m = compute(
        &Illuminance::sensor_major(&v, s, h),
        Some(&Illuminance::sensor_major(&v, s, h)),
        &sched,
        &MetricOptions::default(),
    )
    .unwrap();
    let dt = t.elapsed().as_secs_f64();
    eprintln!("10^4 sensors × 8760 hours (total and direct): {dt:.3} s");
    assert_eq!(m.occupied_hours, 3650);
    // Unoptimised test builds get more room; release builds must stay under a second.
    let limit = if cfg!(debug_assertions) { 5.0 } else { 1.0 };
    assert!(dt < limit, "{dt} s");
}
