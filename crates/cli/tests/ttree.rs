//! `bsdf2ttree` and `rttree_reduce` against RADIANCE 6.0a's (golden/bsdf2ttree/make.sh,
//! golden/rttree_reduce/make.sh).
//!
//! bsdf2ttree: tensor trees from functions (`-t3`, `-t4` and its default, `-e`, `-f file.cal`,
//! a 3-argument function using Dx/Dy/Dz, `+forward`, `-backward`, `-g`, `-t` including `-1`,
//! `-n`, `-s`, `+a`, and the wrapBSDF options `-W`, `-f` fields, `-u`, `-C`). RADIANCE
//! super-samples with the unseeded drand48 and rand() streams and daylit draws the same
//! numbers, so the trees are RADIANCE's: the text outside the data must be equal, the trees
//! must have the same shape and every number must agree within 1e-6 relative (plus 1e-7,
//! the last digit of `%.7f`), and daylit's own evaluation of the two files must agree within
//! 1e-5 relative at 800 direction pairs a file. Measured: every file byte for byte equal.
//!
//! rttree_reduce: text, float and double grids, 3-D and 4-D, reciprocity averaging, several
//! culling percentages, a file or standard input, with and without the header: byte for byte
//! equal (the header's two date lines aside).
//!
//! Bad input (a malformed function, a bad option value, a short grid): a located error, a
//! non-zero exit and no output.

use daylit_bsdf::Bsdf;
use glam::DVec3;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn golden(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
        .join(name)
}

fn gunzip(path: &Path) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        golden("bsdf2ttree", "lobe.cal"),
        dir.path().join("lobe.cal"),
    )
    .unwrap();
    for name in ["bsdf2ttree", "rttree_reduce"] {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), dir.path().join(name)).unwrap();
    }
    dir
}

fn run(dir: &Path, program: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(dir.join(program))
        .args(args)
        .current_dir(dir)
        .env("RAYPATH", ".")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// A tensor tree's text as braces and numbers.
#[derive(Debug, PartialEq)]
enum Token {
    Open,
    Close,
    Num(f64),
}

fn tokens(text: &str) -> Vec<Token> {
    text.replace('{', " { ")
        .replace('}', " } ")
        .split_whitespace()
        .map(|w| match w {
            "{" => Token::Open,
            "}" => Token::Close,
            _ => Token::Num(w.parse().unwrap_or_else(|_| panic!("not a number: {w}"))),
        })
        .collect()
}

/// The XML with the contents of every `<ScatteringData>` taken out, and those contents.
fn split_data(xml: &str) -> (String, Vec<String>) {
    let mut rest = xml;
    let mut frame = String::new();
    let mut data = Vec::new();
    while let Some(p) = rest.find("<ScatteringData>") {
        let start = p + "<ScatteringData>".len();
        let end = start + rest[start..].find("</ScatteringData>").unwrap();
        frame.push_str(&rest[..start]);
        data.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    frame.push_str(rest);
    (frame, data)
}

/// Direction pairs over both hemispheres: incident and exiting at 0–85° from the normal.
fn direction_pairs() -> Vec<(DVec3, DVec3)> {
    let dir = |theta: f64, phi: f64, z: f64| {
        let (t, p) = (theta.to_radians(), phi.to_radians());
        DVec3::new(t.sin() * p.cos(), t.sin() * p.sin(), z * t.cos())
    };
    let mut pairs = Vec::new();
    for (zi, zo) in [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)] {
        for a in 0..10 {
            for b in 0..20 {
                let vin = dir(8.5 * a as f64 + 1.0, 37.0 * a as f64 + 11.0, zi);
                let vout = dir(4.25 * b as f64 + 0.5, 71.0 * b as f64 + 23.0, zo);
                pairs.push((vin, vout));
            }
        }
    }
    pairs
}

fn check_case(name: &str, args: &[&str]) {
    let dir = setup();
    let mut full = vec!["-p0"];
    full.extend_from_slice(args);
    let out = run(dir.path(), "bsdf2ttree", &full, None);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = String::from_utf8(out.stdout).unwrap();
    let theirs = gunzip(&golden("bsdf2ttree", &format!("{name}.xml.gz")));
    let (frame_a, data_a) = split_data(&ours);
    let (frame_b, data_b) = split_data(&theirs);
    assert_eq!(frame_a, frame_b, "{name}: the XML around the data");
    assert_eq!(data_a.len(), data_b.len());
    let mut worst = 0f64;
    for (k, (a, b)) in data_a.iter().zip(&data_b).enumerate() {
        let (ta, tb) = (tokens(a), tokens(b));
        assert_eq!(ta.len(), tb.len(), "{name}: block {k}: tree sizes");
        for (i, (x, y)) in ta.iter().zip(&tb).enumerate() {
            match (x, y) {
                (Token::Num(x), Token::Num(y)) => {
                    let d = (x - y).abs();
                    assert!(
                        d <= 1e-6 * x.abs().max(y.abs()) + 1e-7,
                        "{name}: block {k}, number {i}: ours {x}, RADIANCE {y}"
                    );
                    worst = worst.max(d / x.abs().max(y.abs()).max(1e-3));
                }
                _ => assert_eq!(x, y, "{name}: block {k}, token {i}: tree shapes differ"),
            }
        }
    }
    // daylit reads both files to the same function.
    let bo = Bsdf::from_str(&ours, "ours.xml").unwrap();
    let bt = Bsdf::from_str(&theirs, "theirs.xml").unwrap();
    for (vin, vout) in direction_pairs() {
        let (x, y) = (bo.eval(vin, vout)[1], bt.eval(vin, vout)[1]);
        assert!(
            (x - y).abs() <= 1e-5 * x.abs().max(y.abs()) + 1e-9,
            "{name}: BSDF from {vin} to {vout}: ours {x}, RADIANCE {y}"
        );
    }
    eprintln!(
        "{name}: worst relative difference {worst:.1e}; byte for byte equal: {}",
        ours == theirs
    );
}

#[test]
fn lambertian_isotropic_both_sides() {
    check_case(
        "lamb3",
        &[
            "-g",
            "4",
            "-t3",
            "+forward",
            "-e",
            "lamb(ix,iy,iz,ox,oy,oz) = if(iz*oz, 0.2, 0.1)/PI",
            "lamb",
        ],
    );
}

#[test]
fn phong_lobe_isotropic() {
    check_case(
        "phong3",
        &[
            "-g",
            "5",
            "-t3",
            "-e",
            "phong(ix,iy,iz,ox,oy,oz) = if(iz, .1+((iz+oz)/sqrt((ix+ox)^2+(iy+oy)^2+(iz+oz)^2))^50, 0)",
            "phong",
        ],
    );
}

#[test]
fn anisotropic_lobe_with_reciprocity() {
    check_case(
        "lobe4",
        &["-g", "4", "-t", "95", "+a", "-f", "lobe.cal", "bsdf"],
    );
}

#[test]
fn isotropic_both_sides_with_options() {
    check_case(
        "recip3",
        &[
            "-g", "4", "-t3", "+a", "+forward", "-t", "80", "-n", "16", "-s", "0.2", "-f",
            "lobe.cal", "bsdf",
        ],
    );
}

#[test]
fn three_argument_function_using_dx_dy_dz() {
    check_case(
        "dfunc3",
        &[
            "-g",
            "4",
            "-t3",
            "-e",
            "tf(ix,iy,iz) = if(iz*Dz, 0.3*exp((-Dx*ix-Dy*iy-Dz*iz-1)/0.05), 0.05)",
            "tf",
        ],
    );
}

#[test]
fn whole_grid_with_wrap_options() {
    check_case(
        "nocull4",
        &[
            "-g",
            "3",
            "-t",
            "-1",
            "-t4",
            "-W",
            "-f",
            "t=0.004;n=Lobe",
            "-u",
            "inch",
            "-C",
            "a comment",
            "+forward",
            "-backward",
            "-f",
            "lobe.cal",
            "bsdf",
        ],
    );
}

/// The header's date lines vary from run to run.
fn without_dates(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("CAPDATE=") && !l.starts_with("GMT="))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A golden's name, the arguments, and standard input.
type Case<'a> = (&'a str, &'a [&'a str], Option<&'a [u8]>);

#[test]
fn rttree_reduce_matches_radiance() {
    let dir = setup();
    let grid4 = gunzip(&golden("rttree_reduce", "grid4.txt.gz"));
    let grid3 = gunzip(&golden("rttree_reduce", "grid3.txt.gz"));
    let p = dir.path();
    std::fs::write(p.join("grid4.txt"), &grid4).unwrap();
    std::fs::write(p.join("grid3.txt"), &grid3).unwrap();
    // As rcalc -of / -od converts them: read as doubles, then cast.
    let values: Vec<f64> = grid4
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let floats: Vec<u8> = values
        .iter()
        .flat_map(|v| (*v as f32).to_ne_bytes())
        .collect();
    let doubles: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    std::fs::write(p.join("grid4.f"), floats).unwrap();
    std::fs::write(p.join("grid4.d"), doubles).unwrap();
    let cases: [Case; 5] = [
        (
            "t4_90",
            &["-h", "-r", "4", "-g", "3", "-t", "90", "grid4.txt"],
            None,
        ),
        (
            "t4_50f",
            &["-r", "4", "-g", "3", "-t", "50", "-ff", "grid4.f"],
            None,
        ),
        (
            "t4_0ad",
            &[
                "-h", "-a", "-r", "4", "-g", "3", "-t", "0", "-fd", "grid4.d",
            ],
            None,
        ),
        (
            "t3_70a",
            &["-h", "-a", "-r", "3", "-g", "4", "-t", "70", "grid3.txt"],
            None,
        ),
        (
            "t3_def",
            &["-h", "-r", "3", "-g", "4"],
            Some(grid3.as_bytes()),
        ),
    ];
    for (name, args, stdin) in cases {
        let out = run(p, "rttree_reduce", args, stdin);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = String::from_utf8(out.stdout).unwrap();
        let theirs = gunzip(&golden("rttree_reduce", &format!("{name}.txt.gz")));
        assert_eq!(without_dates(&ours), without_dates(&theirs), "{name}");
        if !args.contains(&"-h") {
            assert!(ours.starts_with("#?RADIANCE\nrttree_reduce -r 4"), "{name}");
            assert_eq!(
                ours.lines().filter(|l| l.starts_with("CAPDATE= ")).count(),
                1
            );
        }
    }
}

/// A failed run: a non-zero exit, nothing on standard output, and a message holding `want`.
fn assert_fails(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "should fail: {err}");
    assert!(out.stdout.is_empty(), "output on failure");
    assert!(err.contains(want), "message {err:?} should hold {want:?}");
}

#[test]
fn bad_input_is_a_located_error() {
    let dir = setup();
    let p = dir.path();
    let tt = |args: &[&str]| run(p, "bsdf2ttree", args, None);
    assert_fails(
        &tt(&["-t3", "-e", "f(ix,iy,iz,ox,oy,oz) = 0.3 +* 2", "f"]),
        "command line -e",
    );
    std::fs::write(p.join("bad.cal"), "ok = 1;\nf(ix,iy,iz,ox,oy,oz) = (ix;\n").unwrap();
    assert_fails(&tt(&["-f", "bad.cal", "f"]), "bad.cal");
    assert_fails(&tt(&["-f", "missing.cal", "f"]), "missing.cal");
    assert_fails(&tt(&["-t3", "-e", "f(a,b) = a", "f"]), "takes 2 arguments");
    assert_fails(
        &tt(&["-t3", "-e", "f(a,b,c) = a", "g"]),
        "'g' is not defined",
    );
    let lamb = "l(ix,iy,iz,ox,oy,oz) = 0.1";
    assert_fails(&tt(&["-g", "1", "-t3", "-e", lamb, "l"]), "-g 1");
    assert_fails(&tt(&["-g", "x", "-t3", "-e", lamb, "l"]), "-g x");
    assert_fails(&tt(&["-g", "8", "-e", lamb, "l"]), "-g 8");
    assert_fails(&tt(&["-t", "100", "-e", lamb, "l"]), "-t 100");
    assert_fails(&tt(&["-t5", "-e", lamb, "l"]), "-t5");
    assert_fails(&tt(&["-e", lamb, "l", "extra"]), "need single function");
    assert_fails(&tt(&["-f", "n=Name;t", "-e", lamb, "l"]), "assignment");
    assert_fails(&tt(&["data.sir"]), ".sir");

    let rr = |args: &[&str], input: &[u8]| run(p, "rttree_reduce", args, Some(input));
    assert_fails(&rr(&["-r", "3", "-g", "2"], b"1 2\n3\n"), "<stdin>: line 3");
    assert_fails(
        &rr(&["-r", "3", "-g", "2"], b"1 2\n3 x 5\n"),
        "line 2: expected a number",
    );
    assert_fails(
        &rr(&["-r", "4", "-g", "2", "-ff"], &[0; 40]),
        "256 values expected, 10 found",
    );
    assert_fails(&rr(&["-r", "5"], b""), "-r 5");
    assert_fails(&rr(&["-g", "1"], b""), "-g 1");
    assert_fails(&rr(&["-t", "100"], b""), "-t 100");
    assert_fails(&rr(&["-fx"], b""), "-fx");
    assert_fails(&rr(&["a", "b"], b""), "only one input");
    assert_fails(&rr(&["missing.txt"], b""), "missing.txt");
}
