//! `rmtxop` by its RADIANCE name against RADIANCE 6.0a's output for the same arguments
//! (goldens pasted from its runs; RADIANCE is not needed to run these tests).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const A: &str = "#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=3\nFORMAT=ascii\n\n\
                 1 2 3\t4 5 6\t7 8 9\n0.1 0.2 0.3\t1e-3 2 3\t1 1 1\n";
const B: &str = "#?RADIANCE\nNROWS=3\nNCOLS=2\nNCOMP=3\nFORMAT=ascii\n\n\
                 1 1 1\t2 2 2\n3 3 3\t4 4 4\n0.5 0.5 0.5\t1 0 0\n";
const C: &str = "#?RADIANCE\nsome header line\nFORMAT=ascii\nNCOMP=3\nNROWS=1\nNCOLS=2\n\n\
                 1 2 3 4 5 6\n";
const D: &str = "#?RADIANCE\nother line\nNROWS=2\nNCOLS=1\nNCOMP=3\nFORMAT=ascii\n\n\
                 1 2 3\n4 5 6\n";

/// A directory with the matrices above and `rmtxop` linked to daylit.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("a.mtx", A), ("b.mtx", B), ("c.mtx", C), ("d.mtx", D)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let exe = dir.path().join("rmtxop");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
    (dir, exe)
}

fn rmtxop(dir: &Path, exe: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn header(args: &str, lines: &str, rows: usize, cols: usize, ncomp: usize) -> String {
    format!(
        "#?RADIANCE\nrmtxop {args}\n{lines}NROWS={rows}\nNCOLS={cols}\nNCOMP={ncomp}\nFORMAT=ascii\n\n"
    )
}

#[test]
fn ascii_results_match_radiance_byte_for_byte() {
    let (dir, exe) = setup();
    let cases: [(&[&str], String); 5] = [
        (
            &["a.mtx", "b.mtx"],
            header("a.mtx b.mtx", "", 2, 2, 3)
                + " 1.6500000e+01 2.1000000e+01 2.5500000e+01\t 2.5000000e+01 2.4000000e+01 3.0000000e+01\t\n"
                + " 6.0299999e-01 6.6999998e+00 9.8000002e+00\t 1.2040000e+00 8.3999996e+00 1.2600000e+01\t\n",
        ),
        (
            &["-c", "Y", "a.mtx"],
            header("-c Y a.mtx", "", 2, 3, 1)
                + " 3.2214316e+02\t 8.5914319e+02\t 1.3961432e+03\t\n"
                + " 3.2214317e+01\t 2.7473669e+02\t 1.7900000e+02\t\n",
        ),
        // An element-wise operation keeps the left matrix's header lines.
        (
            &["c.mtx", "+", "c.mtx"],
            header("c.mtx + c.mtx", "some header line\n", 1, 2, 3)
                + " 2.0000000e+00 4.0000000e+00 6.0000000e+00\t 8.0000000e+00 1.0000000e+01 1.2000000e+01\t\n",
        ),
        // Scale folded into the transform, then the transpose.
        (
            &["-t", "a.mtx", "-s", "2", "-c", "1", "0", "1"],
            header("-t a.mtx -s 2 -c 1 0 1", "", 3, 2, 1)
                + " 8.0000000e+00\t 8.0000001e-01\t\n"
                + " 2.0000000e+01\t 6.0019999e+00\t\n"
                + " 3.2000000e+01\t 4.0000000e+00\t\n",
        ),
        (
            &["c.mtx", "d.mtx"],
            header("c.mtx d.mtx", "", 1, 1, 3)
                + " 1.7000000e+01 2.9000000e+01 4.5000000e+01\t\n",
        ),
    ];
    for (args, want) in cases {
        let o = rmtxop(dir.path(), &exe, args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{args:?}");
    }
}

/// The output type is the lowest precision among the inputs (float < ascii < double), and a
/// binary result read back gives the same numbers.
#[test]
fn binary_formats_follow_radiance_rules() {
    let (dir, exe) = setup();
    let af = rmtxop(dir.path(), &exe, &["-ff", "a.mtx"]).stdout;
    std::fs::write(dir.path().join("af.mtx"), &af).unwrap();
    let ad = rmtxop(dir.path(), &exe, &["-fd", "a.mtx"]).stdout;
    std::fs::write(dir.path().join("ad.mtx"), &ad).unwrap();
    for (args, format) in [
        (&["a.mtx", "+", "af.mtx"][..], "float"),
        (&["ad.mtx", "b.mtx"][..], "ascii"),
        (&["ad.mtx"][..], "float"),
    ] {
        let o = rmtxop(dir.path(), &exe, args);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains(&format!("FORMAT={format}\n")),
            "{args:?}: {text}"
        );
    }
    let back = rmtxop(dir.path(), &exe, &["-fa", "af.mtx"]).stdout;
    let direct = rmtxop(dir.path(), &exe, &["a.mtx"]).stdout;
    let body = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .split("\n\n")
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(body(&back), body(&direct));
}

#[test]
fn bad_commands_fail_with_a_message_and_no_output() {
    let (dir, exe) = setup();
    let cases: [(&[&str], &str); 7] = [
        (&["a.mtx", "a.mtx"], "a.mtx: cannot multiply a 2×3 matrix"),
        (&["a.mtx", "+", "c.mtx"], "dimensions must match"),
        (&["a.mtx", "."], "missing matrix argument after '.'"),
        (&["+", "a.mtx"], "missing matrix argument before '+'"),
        (
            &["-c", "1", "1", "a.mtx"],
            "-c must have N x 3 coefficients",
        ),
        (&["missing.mtx"], "missing.mtx: cannot open"),
        (&["-rf", "glazing.xml"], "glazing.xml: cannot read"),
    ];
    for (args, want) in cases {
        let o = rmtxop(dir.path(), &exe, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(o.stdout.is_empty(), "{args:?} wrote output");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // A matrix without a header is refused, as RADIANCE refuses it.
    std::fs::write(dir.path().join("bare.mtx"), "1 2 3\n").unwrap();
    let o = rmtxop(dir.path(), &exe, &["bare.mtx"]);
    assert!(!o.status.success() && o.stdout.is_empty());
}
