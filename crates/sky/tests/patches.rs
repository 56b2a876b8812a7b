//! Sky subdivisions: solid angles, centres, and RADIANCE's own bin numbering
//! (golden: reinhartb.cal evaluated by rcalc, tests/golden/make_gendaymtx_goldens.sh).

use daylit_sky::patches::{shirley_chiu_direction, shirley_chiu_uv, Subdivision};
use glam::DVec3;
use std::f64::consts::TAU;

fn all() -> Vec<Subdivision> {
    let mut v: Vec<Subdivision> = (1..=6).map(Subdivision::Reinhart).collect();
    v.extend([1, 2, 12, 24, 33].map(Subdivision::ShirleyChiu));
    v
}

#[test]
fn counts() {
    assert_eq!(Subdivision::TREGENZA.len(), 146);
    assert_eq!(Subdivision::TREGENZA.sky_len(), 145);
    assert_eq!(Subdivision::Reinhart(2).len(), 578);
    assert_eq!(Subdivision::Reinhart(4).len(), 2306);
    assert_eq!(Subdivision::ShirleyChiu(12).sky_len(), 144);
    assert_eq!(Subdivision::ShirleyChiu(24).len(), 1152);
}

#[test]
fn solid_angles_sum_to_two_pi_per_hemisphere() {
    for s in all() {
        let (mut sky, mut ground) = (0.0, 0.0);
        for i in 0..s.len() {
            let w = s.solid_angle(i);
            assert!(w > 0.0, "{s:?} bin {i}");
            if s.is_ground(i) {
                ground += w;
            } else {
                sky += w;
            }
        }
        assert!(
            (sky - TAU).abs() < 1e-12 && (ground - TAU).abs() < 1e-12,
            "{s:?}: {sky} {ground}"
        );
        assert_eq!(s.solid_angle(s.len()), 0.0);
        assert!(s.centre(s.len()).is_none());
    }
}

#[test]
fn index_of_centre_is_the_bin() {
    for s in all() {
        for i in 0..s.len() {
            let c = s.centre(i).unwrap();
            assert!((c.length() - 1.0).abs() < 1e-12, "{s:?} {i}");
            assert_eq!(s.index(c), i, "{s:?}: centre {c} of bin {i}");
            assert_eq!(s.is_ground(i), c.z < 0.0, "{s:?} {i}");
        }
    }
}

/// Monte Carlo check of the Reinhart and Shirley-Chiu solid angles: the share of uniform
/// directions falling in each bin matches its solid angle.
#[test]
fn bins_cover_their_solid_angles() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    for s in [Subdivision::TREGENZA, Subdivision::ShirleyChiu(6)] {
        let n = 400_000;
        let mut hits = vec![0usize; s.len()];
        for _ in 0..n {
            let z: f64 = rng.random_range(-1.0..1.0);
            let a: f64 = rng.random_range(0.0..TAU);
            let r = (1.0 - z * z).sqrt();
            hits[s.index(DVec3::new(r * a.cos(), r * a.sin(), z))] += 1;
        }
        for (i, &h) in hits.iter().enumerate() {
            let want = s.solid_angle(i) / (2.0 * TAU) * n as f64;
            // Five standard deviations of a binomial count.
            assert!(
                (h as f64 - want).abs() < 5.0 * want.sqrt() + 5.0,
                "{s:?} bin {i}: {h} vs {want}"
            );
        }
    }
}

#[test]
fn reinhart_numbering_matches_radiance_reinhartb_cal() {
    let text = include_str!("golden/patches/reinhart_bins.txt");
    let mut n = 0;
    for line in text.lines() {
        let v: Vec<f64> = line
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let s = Subdivision::Reinhart(v[0] as u32);
        let got = s.index(DVec3::new(v[1], v[2], v[3]));
        assert_eq!(got, v[4] as usize, "MF {} direction {:?}", v[0], &v[1..4]);
        n += 1;
    }
    assert_eq!(n, 12800);
}

#[test]
fn tregenza_layout() {
    let t = Subdivision::TREGENZA;
    // First patch: lowest row, centred on north; second towards east.
    let c1 = t.centre(1).unwrap();
    assert!(c1.x.abs() < 1e-12 && c1.y > 0.0);
    assert!(t.centre(2).unwrap().x > 0.0);
    assert_eq!(t.index(DVec3::Z), 145);
    assert_eq!(t.index(-DVec3::Z), 0);
    assert_eq!(t.index(DVec3::ZERO), 0);
    assert_eq!(t.index(DVec3::new(f64::NAN, 0.0, 1.0)), 0);
}

#[test]
fn shirley_chiu_round_trips_and_is_raytraverse_oriented() {
    for &(u, v) in &[
        (0.1, 0.2),
        (0.5, 0.5),
        (0.9, 0.05),
        (1.3, 0.7),
        (1.99, 0.99),
        (0.25, 0.75),
    ] {
        let d = shirley_chiu_direction(u, v);
        let (u2, v2) = shirley_chiu_uv(d);
        assert!(
            (u - u2).abs() < 1e-9 && (v - v2).abs() < 1e-9,
            "({u},{v}) -> {d} -> ({u2},{v2})"
        );
    }
    // raytraverse: the zenith at the centre of the upper square, the nadir of the lower;
    // +x at u = 0 (mirrored) in the upper square, +y at v = 1.
    let (u, v) = shirley_chiu_uv(DVec3::Z);
    assert!((u - 0.5).abs() < 1e-12 && (v - 0.5).abs() < 1e-12);
    let (u, v) = shirley_chiu_uv(-DVec3::Z);
    assert!((u - 1.5).abs() < 1e-12 && (v - 0.5).abs() < 1e-12);
    let (u, _) = shirley_chiu_uv(DVec3::new(1.0, 0.0, 1e-9));
    assert!(u.abs() < 1e-6);
    let (_, v) = shirley_chiu_uv(DVec3::new(0.0, 1.0, 1e-9));
    assert!((v - 1.0).abs() < 1e-6);
}
