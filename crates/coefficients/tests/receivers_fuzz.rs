//! Thousands of random byte edits of valid `#@rfluxmtx` receiver files: a receiver list or a
//! located error, never a panic; and every receiver that parses gives bins in range.

use daylit_coefficients::rfluxmtx::parse_receivers;
use glam::DVec3;
use rand::{Rng, SeedableRng};

const BYTES: &[u8] = b"0123456789.-+e# \n\t=@hukrsco\"'XYZ!\xff";

fn mutate(rng: &mut impl Rng, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..rng.random_range(1..6) {
        let at = rng.random_range(0..=v.len());
        match rng.random_range(0..3) {
            0 if at < v.len() => v[at] = BYTES[rng.random_range(0..BYTES.len())],
            1 if at < v.len() => {
                v.remove(at);
            }
            _ => v.insert(at, BYTES[rng.random_range(0..BYTES.len())]),
        }
    }
    v
}

const FILES: [&str; 3] = [
    "#@rfluxmtx h=u\nvoid glow groundglow 0 0 4 1 1 1 0\ngroundglow source ground 0 0 4 0 0 -1 180\n\
     #@rfluxmtx h=r4 u=+Y o=sky_%s.mtx\nvoid glow skyglow 0 0 4 1 1 1 0\n\
     skyglow source skydome 0 0 4 0 0 1 180\n",
    "#@rfluxmtx h=-kf u=0,1,0\nvoid glow panelglow 0 0 4 1 1 1 0\n\
     panelglow polygon panel 0 0 12 -3 -3 2 -3 3 2 3 3 2 3 -3 2\n",
    "#@rfluxmtx h=sc6 u=Z\nvoid glow w 0 0 4 1 1 1 0\nw ring r 0 0 8 0 0 1 0 1 0 0.2 1\n",
];

#[test]
fn receiver_edits_never_panic() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(0xfeed);
    let (mut ok, mut err) = (0, 0);
    for base in FILES {
        assert!(parse_receivers(base, "r.rad").is_ok(), "{base}");
        for _ in 0..3000 {
            let text = String::from_utf8_lossy(&mutate(&mut rng, base.as_bytes())).into_owned();
            match parse_receivers(&text, "r.rad") {
                Ok(rs) => {
                    ok += 1;
                    for r in &rs.receivers {
                        let bins = r.bins();
                        let n = bins.len();
                        for k in 0..20 {
                            let a = k as f64 * 0.7;
                            let d = DVec3::new(a.cos(), a.sin(), (k as f64 - 10.0) / 10.0);
                            if let Some(b) = bins.bin(d.normalize()) {
                                assert!(b < n, "bin {b} of {n} for {text}");
                            }
                        }
                    }
                }
                Err(e) => {
                    err += 1;
                    // Errors name the file.
                    assert!(e.to_string().contains("r.rad"), "{e}");
                }
            }
        }
    }
    assert!(ok > 100 && err > 100, "ok {ok}, err {err}");
}
