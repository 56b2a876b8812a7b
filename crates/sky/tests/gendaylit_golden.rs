//! `gendaylit` against RADIANCE 6.0a: every golden's command line run through daylit must print
//! the same words, with numbers within 0.5% (plus one unit in the golden's last printed digit).

#[path = "gensky_support/compare.rs"]
mod compare;

use daylit_sky::gendaylit::gendaylit_text;

/// The tolerance for gendaylit.
const TOLERANCE: f64 = 0.005;

#[test]
fn gendaylit_matches_radiance_goldens() {
    let goldens = compare::goldens("gendaylit");
    assert!(
        goldens.len() >= 10,
        "only {} gendaylit goldens",
        goldens.len()
    );
    let mut worst = 0.0f64;
    for g in &goldens {
        let out = gendaylit_text(&g.args)
            .unwrap_or_else(|e| panic!("{}: gendaylit {:?}: {e}", g.path.display(), g.args));
        match compare::compare(&out.text, &g.text, TOLERANCE) {
            Ok(w) => worst = worst.max(w),
            Err(e) => panic!(
                "{}: gendaylit {} differs from RADIANCE beyond 0.5%: {e}",
                g.path.display(),
                g.args.join(" ")
            ),
        }
    }
    eprintln!(
        "gendaylit: largest relative difference {:.4}%",
        worst * 100.0
    );
}
