//! `daylit rcontrib` against RADIANCE 6.0a's rcontrib (goldens in tests/rcontrib, made by
//! make_goldens.sh there): bins from the `.cal` sky bin functions (daylit's own library, no
//! RADIANCE installed), `-p` parameters, several modifiers, `-c` records, `-V`, headers, and
//! daylight coefficients of a real room.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rcontrib")
}

fn rcontrib(args: &[&str], stdin: &Path, cwd: &Path) -> Output {
    run("rcontrib", args, stdin, cwd)
}

fn run(prog: &str, args: &[&str], stdin: &Path, cwd: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .arg(prog)
        .args(args)
        .current_dir(cwd)
        // daylit's own bin functions, not RADIANCE's files.
        .env("RAYPATH", ".")
        .stdin(Stdio::from(std::fs::File::open(stdin).unwrap()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{prog} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Header lines (less the first line, command, software and dates) and the body's rows.
fn split(out: &[u8]) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    let head = head
        .lines()
        .skip(1)
        .filter(|l| {
            !["rcontrib", "rfluxmtx", "CAPDATE=", "GMT=", "SOFTWARE="]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect();
    let rows = body
        .lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    (head, rows)
}

fn golden_header(name: &str) -> Vec<String> {
    std::fs::read_to_string(dir().join(name))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A sparse golden ("record bin r g b" lines) as dense rows.
fn sparse(name: &str, rows: usize, bins: usize) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; 3 * bins]; rows];
    for l in std::fs::read_to_string(dir().join(name)).unwrap().lines() {
        let w: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
        let (r, b) = (w[0] as usize, w[1] as usize);
        m[r][3 * b..3 * b + 3].copy_from_slice(&w[2..5]);
    }
    m
}

fn sky_scene() -> PathBuf {
    dir().join("sky.rad")
}

#[test]
fn tregenza_bins_match_rcontrib_exactly() {
    let d = dir();
    let out = rcontrib(
        &[
            "-ab",
            "0",
            "-f",
            "tregenza.cal",
            "-b",
            "tbin",
            "-bn",
            "146",
            "-m",
            "skyglow",
            sky_scene().to_str().unwrap(),
        ],
        &d.join("dirs.txt"),
        &d,
    );
    let (head, rows) = split(&out.stdout);
    assert_eq!(head, golden_header("header_tregenza.txt"));
    let want = sparse("tregenza.txt", 400, 146);
    assert_eq!(rows.len(), want.len());
    for (k, (a, b)) in rows.iter().zip(&want).enumerate() {
        assert_eq!(a, b, "ray {k}");
    }
}

#[test]
fn reinhart_params_records_and_contributions_match_rcontrib() {
    let d = dir();
    let out = rcontrib(
        &[
            "-ab",
            "0",
            "-V+",
            "-c",
            "4",
            "-f",
            "reinhartb.cal",
            "-p",
            "MF=2",
            "-b",
            "rbin",
            "-bn",
            "Nrbins",
            "-m",
            "skyglow",
            "-b",
            "0",
            "-bn",
            "1",
            "-m",
            "groundglow",
            sky_scene().to_str().unwrap(),
        ],
        &d.join("dirs.txt"),
        &d,
    );
    let (head, rows) = split(&out.stdout);
    assert_eq!(head, golden_header("header_reinhart2.txt"));
    let want = sparse("reinhart2.txt", 100, 578);
    assert_eq!(rows.len(), 100);
    for (k, (a, b)) in rows.iter().zip(&want).enumerate() {
        for (x, y) in a.iter().zip(b) {
            assert!(
                (x - y).abs() <= 1e-6 * y.abs().max(1.0),
                "record {k}: {x} vs {y}"
            );
        }
    }
}

/// rfluxmtx with the sender `-`: receivers from `#@rfluxmtx` annotations, bins computed
/// natively, against RADIANCE's rfluxmtx (the ground with a Reinhart MF:2 sky, a
/// Shirley-Chiu 6×6 sky, and a full Klems basis on a polygon, which also makes a scene of
/// a single flat surface).
#[test]
fn rfluxmtx_receivers_match_radiance_exactly() {
    let d = dir();
    for (name, bins) in [("sky", 578), ("sc", 36), ("klems", 145)] {
        let out = run(
            "rfluxmtx",
            &["-ab", "0", "-", &format!("receivers_{name}.rad")],
            &d.join("dirs.txt"),
            &d,
        );
        let (head, rows) = split(&out.stdout);
        assert_eq!(
            head,
            golden_header(&format!("header_rflux_{name}.txt")),
            "{name}"
        );
        let want = sparse(&format!("rflux_{name}.txt"), 400, bins);
        assert_eq!(rows.len(), 400, "{name}");
        for (k, (a, b)) in rows.iter().zip(&want).enumerate() {
            assert_eq!(a, b, "{name}: ray {k}");
        }
    }
}

/// Daylight coefficients of the reference office (Tregenza sky and ground, -ab 2): each
/// sensor's coefficient sum (its irradiance under a uniform unit sky and ground) and the sum
/// over all sensors per sky band agree with RADIANCE's within the scatter of the two
/// Monte Carlo runs.
#[test]
fn office_daylight_coefficients_match_rcontrib() {
    let office = dir().join("../../../../validation/scenes/06_office_overcast");
    let out = rcontrib(
        &[
            "-I+",
            "-ab",
            "2",
            "-ad",
            "65536",
            "-lw",
            "1e-6",
            "-f",
            "tregenza.cal",
            "-b",
            "tbin",
            "-bn",
            "146",
            "-m",
            "skyglow",
            "-m",
            "groundglow",
            "-seed",
            "3",
            sky_scene().to_str().unwrap(),
            "scene.rad",
        ],
        &office.join("sensors.pts"),
        &office,
    );
    let (head, ours) = split(&out.stdout);
    assert_eq!(head, golden_header("header_office_dc.txt"));
    let text = std::fs::read_to_string(dir().join("office_dc.txt")).unwrap();
    let theirs: Vec<Vec<f64>> = text
        .lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(ours.len(), 32);
    let sum = |r: &[f64]| r.iter().step_by(3).sum::<f64>();
    let (mut worst, mut mard): (f64, f64) = (0.0, 0.0);
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.len(), 292 * 3);
        let d = (sum(a) / sum(b) - 1.0).abs();
        worst = worst.max(d);
        mard += d / 32.0;
    }
    // Measured: MARD 0.7%, worst 3.9% (the deepest sensors, whose values are a twentieth
    // of those by the window; RADIANCE against itself scatters as much).
    assert!(
        mard < 0.02,
        "sensor sums differ by {:.1}% on average",
        mard * 100.0
    );
    assert!(
        worst < 0.07,
        "worst sensor sum differs by {:.1}%",
        worst * 100.0
    );
    // Whole-room totals per column group: ground, then the 7 Tregenza bands and the cap.
    let total = |m: &[Vec<f64>], cols: std::ops::Range<usize>| -> f64 {
        m.iter()
            .map(|r| cols.clone().map(|c| r[3 * c]).sum::<f64>())
            .sum()
    };
    let bands = [
        1..31,
        31..61,
        61..85,
        85..109,
        109..127,
        127..139,
        139..145,
        145..146,
    ];
    for (k, b) in bands.into_iter().enumerate() {
        let (x, y) = (total(&ours, b.clone()), total(&theirs, b));
        // The zenith cap cannot be seen through the vertical window: zero in both.
        assert!(x == y || (x / y - 1.0).abs() < 0.03, "band {k}: {x} vs {y}");
    }
    let (x, y) = (total(&ours, 146..292), total(&theirs, 146..292));
    assert!((x / y - 1.0).abs() < 0.03, "ground: {x} vs {y}");
}

#[test]
fn bad_arguments_are_refused_clearly() {
    let d = dir();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_daylit"))
            .arg("rcontrib")
            .args(args)
            .current_dir(&d)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for (args, msg) in [
        (vec!["-b", "tbin", "-m", "skyglow", "sky.rad"], "bin count"),
        (
            vec!["-b", "3", "-m", "skyglow", "sky.rad"],
            "non-zero constant",
        ),
        (vec!["-m", "void", "sky.rad"], "void"),
        (
            vec!["-m", "skyglow", "-m", "skyglow", "sky.rad"],
            "duplicate",
        ),
        (vec!["-fz", "-m", "skyglow", "sky.rad"], "format"),
        (vec!["sky.rad"], "no modifiers"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// rfluxmtx's `-i system.oct` after the receiver file (how honeybee-radiance passes the
/// scene): the octree is the system, read before the receivers, and gives the same matrix as
/// the system's scene files; anything else after the receiver that looks like an option is
/// refused.
#[test]
fn rfluxmtx_reads_the_system_octree_after_i() {
    let d = dir();
    let office = d.join("../../../../validation/scenes/06_office_overcast");
    let tmp = tempfile::tempdir().unwrap();
    let oct = tmp.path().join("system.oct");
    let status = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(["oconv", "-o", oct.to_str().unwrap(), "scene.rad"])
        .current_dir(&office)
        .status()
        .unwrap();
    assert!(status.success());
    let recv = d.join("receivers_sky.rad");
    let common = [
        "-ab", "1", "-ad", "256", "-lw", "1e-3", "-seed", "5", "-I+", "-",
    ];
    let mut with_i: Vec<&str> = common.to_vec();
    with_i.extend([recv.to_str().unwrap(), "-i", oct.to_str().unwrap()]);
    let mut with_files: Vec<&str> = common.to_vec();
    with_files.extend([recv.to_str().unwrap(), "scene.rad"]);
    let sensors = office.join("sensors.pts");
    let a = run("rfluxmtx", &with_i, &sensors, &office);
    let b = run("rfluxmtx", &with_files, &sensors, &office);
    let (_, rows_a) = split(&a.stdout);
    let (_, rows_b) = split(&b.stdout);
    assert_eq!(rows_a.len(), 32);
    assert_eq!(rows_a, rows_b);
    assert!(rows_a.iter().any(|r| r.iter().any(|&v| v > 0.0)));
    let bad = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args([
            "rfluxmtx",
            "-",
            recv.to_str().unwrap(),
            "scene.rad",
            "-i",
            "x.oct",
        ])
        .current_dir(&office)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("only -i system.oct (first)"));
}

/// Pictures named by bin alone (`-o pic%03d.hdr` with `-fac`) from rfluxmtx's two receivers:
/// as RADIANCE's rcontrib does, the sky's bins are numbered after the ground's (so the
/// ground's picture is not overwritten), the command line's `-o` reaches every receiver, and
/// each picture holds that bin's column of the matrix RADIANCE's rfluxmtx computed.
#[test]
fn picture_outputs_number_bins_after_earlier_receivers() {
    let d = dir();
    let tmp = tempfile::tempdir().unwrap();
    let recv = d.join("receivers_sky.rad");
    let spec = tmp.path().join("pic%03d.hdr");
    run(
        "rfluxmtx",
        &[
            "-ab",
            "0",
            "-fac",
            "-x",
            "20",
            "-y",
            "20",
            "-o",
            spec.to_str().unwrap(),
            "-",
            recv.to_str().unwrap(),
        ],
        &d.join("dirs.txt"),
        &d,
    );
    let want = sparse("rflux_sky.txt", 400, 578);
    for bin in [0, 1, 2, 300, 577] {
        let path = tmp.path().join(format!("pic{bin:03}.hdr"));
        let pic = daylit_image::HdrImage::read(&path).unwrap();
        let (modifier, first) = if bin == 0 {
            ("groundglow", 0)
        } else {
            ("skyglow", 1)
        };
        assert!(
            pic.header.contains(&format!("MODIFIER={modifier}")),
            "{bin}"
        );
        assert!(pic.header.contains(&format!("BIN={bin}")), "{bin}: {first}");
        assert_eq!((pic.width, pic.height), (20, 20));
        for (k, px) in pic.pixels.iter().enumerate() {
            for c in 0..3 {
                let w = want[k][3 * bin + c] as f32;
                // RGBE keeps 8 bits of mantissa.
                assert!(
                    (px[c] - w).abs() <= 0.01 * w.abs() + 1e-30,
                    "bin {bin} ray {k}"
                );
            }
        }
    }
    assert!(!tmp.path().join("pic578.hdr").exists());
}

/// `-r` keeps the complete records of interrupted output files and traces only the rest: a
/// file cut in the middle of a record (float) or of a line (ASCII) is completed to the same
/// bytes as an uninterrupted run, and a record changed before the cut stays changed (it was
/// not traced again).
#[test]
fn recover_completes_interrupted_outputs() {
    let d = dir();
    let tmp = tempfile::tempdir().unwrap();
    for (fmt, cut) in [("-faf", 100_003), ("-faa", 100_003)] {
        let spec = tmp.path().join(format!("out{fmt}_%s.mtx"));
        let scene = sky_scene();
        let args = |recover: bool| {
            let mut a = vec!["-ab", "0", fmt, "-o", spec.to_str().unwrap()];
            if recover {
                a.insert(0, "-r");
            }
            a.extend(["-f", "tregenza.cal", "-b", "tbin", "-bn", "146"]);
            a.extend(["-m", "skyglow", "-m", "groundglow"]);
            a.push(scene.to_str().unwrap());
            a
        };
        rcontrib(&args(false), &d.join("dirs.txt"), &d);
        let files = ["skyglow", "groundglow"].map(|m| tmp.path().join(format!("out{fmt}_{m}.mtx")));
        let full: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        // Interrupted: the sky's file cut within a record, one byte of its first record
        // changed; the ground's file cut later.
        let head = full[0].windows(2).position(|w| w == b"\n\n").unwrap() + 2;
        let mut cut_sky = full[0][..cut].to_vec();
        cut_sky[head] = if cut_sky[head] == b'9' { b'8' } else { b'9' };
        std::fs::write(&files[0], &cut_sky).unwrap();
        std::fs::write(&files[1], &full[1][..full[1].len() - 7]).unwrap();
        rcontrib(&args(true), &d.join("dirs.txt"), &d);
        let mut want = full[0].clone();
        want[head] = cut_sky[head];
        assert!(std::fs::read(&files[0]).unwrap() == want, "{fmt}: sky");
        assert!(
            std::fs::read(&files[1]).unwrap() == full[1],
            "{fmt}: ground"
        );
    }
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `rcontrib … | head`: the reader closes the pipe after a few bytes while rcontrib still
    // has megabytes to write (4000 rays × 146 bins × 3 components); it stops quietly with
    // success, as RADIANCE's programs do when a pipe closes, not "cannot write output".
    use std::io::{Read, Write};
    let d = dir();
    let rays: String = std::fs::read_to_string(d.join("dirs.txt"))
        .unwrap()
        .lines()
        .cycle()
        .take(4000)
        .map(|l| format!("{l}\n"))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args(["rcontrib", "-ab", "0", "-f", "tregenza.cal", "-b", "tbin"])
        .args(["-bn", "146", "-m", "skyglow"])
        .arg(sky_scene())
        .current_dir(&d)
        .env("RAYPATH", ".")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(rays.as_bytes());
    });
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(first.starts_with(b"#?RADIANCE"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
