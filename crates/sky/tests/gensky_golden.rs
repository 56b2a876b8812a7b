//! `gensky` against RADIANCE 6.0a: every golden's command line run through daylit must print
//! the same words, with numbers within 0.1% (plus one unit in the golden's last printed digit).

#[path = "gensky_support/compare.rs"]
mod compare;

use daylit_sky::gensky::gensky_text;

/// The tolerance for gensky.
const TOLERANCE: f64 = 0.001;

#[test]
fn gensky_matches_radiance_goldens() {
    let goldens = compare::goldens("gensky");
    assert!(goldens.len() >= 25, "only {} gensky goldens", goldens.len());
    let mut worst = 0.0f64;
    for g in &goldens {
        let out = gensky_text(&g.args)
            .unwrap_or_else(|e| panic!("{}: gensky {:?}: {e}", g.path.display(), g.args));
        match compare::compare(&out.text, &g.text, TOLERANCE) {
            Ok(w) => worst = worst.max(w),
            Err(e) => panic!(
                "{}: gensky {} differs from RADIANCE beyond 0.1%: {e}",
                g.path.display(),
                g.args.join(" ")
            ),
        }
    }
    eprintln!("gensky: largest relative difference {:.4}%", worst * 100.0);
}

/// The comparison itself fails on a 0.2% change, a changed word and a missing line.
#[test]
fn gensky_comparison_catches_differences() {
    let golden = "# x\n7 1 1.158e+01 2.374e+01 0.067850\n";
    assert!(compare::compare(golden, golden, TOLERANCE).is_ok());
    assert!(
        compare::compare("# x\n7 1 1.161e+01 2.374e+01 0.067850\n", golden, TOLERANCE).is_err()
    );
    assert!(
        compare::compare("# y\n7 1 1.158e+01 2.374e+01 0.067850\n", golden, TOLERANCE).is_err()
    );
    assert!(compare::compare("# x\n7 1 1.158e+01 2.374e+01\n", golden, TOLERANCE).is_err());
}
