//! `rfluxmtx` with surface senders (daylight matrices: a window group to the sky) and with the
//! pass-through sender `-` to a window receiver (view matrices of sensors and of pictures),
//! against RADIANCE 6.0a's rfluxmtx (goldens and the inputs in tests/golden/rfluxmtx_sender,
//! made by make.sh there).
//!
//! Both programs are Monte Carlo: the matrices are compared by what the noise leaves stable.
//! With `-ab 0` and `-c 10000` (one record of 10000 rays per sender bin) each row's sum, the
//! fraction of the bin's rays that reach the sky or ground unobstructed, agrees within 2 %
//! (within 0.003 where the row holds less than 0.15), the matrix total within 0.5 % and the
//! entries in a weighted RMS relative difference under 3 % (measured, full Klems: rows
//! 0.8 %, entries 1.1 %; Klems quarter, whose larger bins are noisier: rows 1.2 %, 2.0 %).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/rfluxmtx_sender")
}

fn daylit(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_daylit"));
    c.args(args)
        .current_dir(dir())
        .env("RAYPATH", ".")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        let mut w = child.stdin.take().unwrap();
        if let Some(b) = stdin {
            w.write_all(b).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let out = daylit(args, stdin);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Header lines (less the first, command, software and dates) and the rows' first channel,
/// checking that the three channels agree (every glow and material is grey).
fn split(out: &[u8]) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    let head = head
        .lines()
        .skip(1)
        .filter(|l| {
            !["rfluxmtx", "CAPDATE=", "GMT=", "SOFTWARE="]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect();
    let rows = body
        .lines()
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            for c in v.chunks(3) {
                assert!(
                    (c[0] - c[1]).abs() <= 1e-9 * c[0].abs() && c[1] == c[2],
                    "{c:?}"
                );
            }
            v.iter().step_by(3).copied().collect()
        })
        .collect();
    (head, rows)
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(dir().join(name))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A sparse golden ("row column value") as dense rows.
fn sparse(name: &str, rows: usize, cols: usize) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; cols]; rows];
    for l in lines(name) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let (r, c): (usize, usize) = (w[0].parse().unwrap(), w[1].parse().unwrap());
        m[r][c] = w[2].parse().unwrap();
    }
    m
}

/// How two matrices agree: the worst row-sum difference (relative where the row holds more
/// than `floor`, else absolute against `floor`), the totals' relative difference, and the
/// RMS relative difference of the entries weighted by their size.
struct Agreement {
    worst_row: f64,
    total: f64,
    weighted_rms: f64,
}

fn agreement(ours: &[Vec<f64>], want: &[Vec<f64>], floor: f64) -> Agreement {
    assert_eq!(ours.len(), want.len(), "rows");
    let mut worst_row: f64 = 0.0;
    let (mut ta, mut tb, mut num, mut den) = (0.0, 0.0, 0.0, 0.0);
    for (a, b) in ours.iter().zip(want) {
        assert_eq!(a.len(), b.len(), "columns");
        let (sa, sb): (f64, f64) = (a.iter().sum(), b.iter().sum());
        worst_row = worst_row.max((sa - sb).abs() / sb.max(floor));
        ta += sa;
        tb += sb;
        for (x, y) in a.iter().zip(b) {
            let m = 0.5 * (x + y);
            if m > 0.0 {
                let d = (x - y) / m;
                num += d * d * m;
                den += m;
            }
        }
    }
    Agreement {
        worst_row,
        total: (ta - tb).abs() / tb,
        weighted_rms: (num / den).sqrt(),
    }
}

/// Daylight matrices of the window to the ground and Tregenza sky (the usual sky receiver
/// file), `-ab 0`, with the window sampled by full Klems, Klems quarter and Reinhart (r1)
/// bins, and a sender of three surfaces facing different ways (two bay panes and a ring,
/// Klems quarter; origins drawn by projected area): the header rfluxmtx writes (NROWS =
/// sender bins, NCOLS = 1 + 145 receiver bins) and the matrices within the noise.
#[test]
fn daylight_matrices_match_radiance() {
    for (sender, golden, rows) in [
        ("window.rad", "kf", 145),
        ("window_kq.rad", "kq", 41),
        ("window_r1.rad", "r1", 145),
        ("bay.rad", "bay", 41),
    ] {
        let out = ok(
            &[
                "rfluxmtx", "-ab", "0", "-c", "10000", sender, "sky.rad", "room.rad",
            ],
            None,
        );
        let (head, m) = split(&out.stdout);
        if golden != "bay" {
            assert_eq!(head, lines(&format!("header_d_{golden}.txt")), "{sender}");
        }
        assert_eq!(m.len(), rows, "{sender}");
        let want = sparse(&format!("d_{golden}.txt"), rows, 146);
        let a = agreement(&m, &want, 0.15);
        eprintln!(
            "{sender}: worst row {:.4}, total {:.4}, weighted RMS {:.4}",
            a.worst_row, a.total, a.weighted_rms
        );
        assert!(a.worst_row < 0.02, "{sender}: row sums {}", a.worst_row);
        assert!(a.total < 0.005, "{sender}: total {}", a.total);
        assert!(
            a.weighted_rms < 0.03,
            "{sender}: entries {}",
            a.weighted_rms
        );
    }
}

/// With one diffuse bounce (`-ab 1 -ad 64`, the ground and the building across the street
/// reflecting sky light through the window), Klems quarter, 5000 rays per bin: rows within
/// 3 %, total within 1 %, entries (now every sky patch of every row) in a weighted RMS under
/// 8 % (measured: rows 1.8 %, entries 5 % at 2000 rays).
#[test]
fn daylight_matrix_with_a_bounce_matches_radiance() {
    let out = ok(
        &[
            "rfluxmtx",
            "-ab",
            "1",
            "-ad",
            "64",
            "-lw",
            "1e-4",
            "-c",
            "5000",
            "window_kq.rad",
            "sky.rad",
            "room.rad",
        ],
        None,
    );
    let (_, m) = split(&out.stdout);
    let a = agreement(&m, &sparse("d_kq_ab1.txt", 41, 146), 0.1);
    eprintln!(
        "ab 1: worst row {:.4}, total {:.4}, weighted RMS {:.4}",
        a.worst_row, a.total, a.weighted_rms
    );
    assert!(a.worst_row < 0.03, "row sums {}", a.worst_row);
    assert!(a.total < 0.01, "total {}", a.total);
    assert!(a.weighted_rms < 0.08, "entries {}", a.weighted_rms);
}

/// A view matrix: irradiance at ten sensors from each full-Klems bin of the window (sender
/// `-`, `-I+`, `-ab 1 -ad 65536`): the header (no NROWS, as RADIANCE), each sensor's sum
/// within 3 % (measured 1.8 %), entries' weighted RMS under 10 %.
#[test]
fn view_matrix_of_sensors_matches_radiance() {
    let sensors = std::fs::read(dir().join("sensors.pts")).unwrap();
    let out = ok(
        &[
            "rfluxmtx",
            "-I+",
            "-ab",
            "1",
            "-ad",
            "65536",
            "-lw",
            "1e-6",
            "-",
            "window.rad",
            "room.rad",
        ],
        Some(&sensors),
    );
    let (head, m) = split(&out.stdout);
    assert_eq!(head, lines("header_v_kf.txt"));
    let a = agreement(&m, &sparse("v_kf.txt", 10, 145), 0.05);
    eprintln!(
        "view: worst row {:.4}, total {:.4}, weighted RMS {:.4}",
        a.worst_row, a.total, a.weighted_rms
    );
    assert!(a.worst_row < 0.03, "sensor sums {}", a.worst_row);
    assert!(a.weighted_rms < 0.1, "entries {}", a.weighted_rms);
}

/// Pictures per window bin: `vwrays -ff` piped to `rfluxmtx -ffc -o frame%03d.hdr` with the
/// resolution `vwrays -d` gives (24 × 17), `-ab 0`: one picture per Klems bin, each pixel the
/// bin's value RADIANCE computed for that pixel's ray (1 where the pixel sees the window
/// through that bin), RGBE's precision apart.
#[test]
fn view_pictures_per_window_bin_match_radiance() {
    let tmp = tempfile::tempdir().unwrap();
    let view = ["-x", "24", "-y", "18", "-vf", "view.vf"];
    let res = ok(&[&["vwrays", "-d"][..], &view].concat(), None);
    let res = String::from_utf8(res.stdout).unwrap();
    let res: Vec<&str> = res.split_whitespace().collect();
    assert_eq!(res, ["-x", "24", "-y", "17"]);
    let rays = ok(&[&["vwrays", "-ff"][..], &view].concat(), None).stdout;
    let spec = tmp.path().join("frame%03d.hdr");
    let mut args = vec!["rfluxmtx", "-ffc"];
    args.extend(&res);
    args.extend([
        "-ab",
        "0",
        "-o",
        spec.to_str().unwrap(),
        "-",
        "window.rad",
        "room.rad",
    ]);
    ok(&args, Some(&rays));
    let want = sparse("pic_kf.txt", 24 * 17, 145);
    // Each bin's column: the picture it should be.
    let columns: Vec<Vec<f64>> = (0..145)
        .map(|b| want.iter().map(|row| row[b]).collect())
        .collect();
    let mut lit = 0;
    for (bin, column) in columns.iter().enumerate() {
        let path = tmp.path().join(format!("frame{bin:03}.hdr"));
        let pic = daylit_image::HdrImage::read(&path).unwrap();
        assert!(
            pic.header.contains(&"MODIFIER=windowglow".to_string()),
            "{bin}"
        );
        assert!(pic.header.contains(&format!("BIN={bin}")), "{bin}");
        assert_eq!((pic.width, pic.height), (24, 17));
        for (k, px) in pic.pixels.iter().enumerate() {
            let w = column[k] as f32;
            lit += usize::from(w > 0.0);
            assert!(
                (px[0] - w).abs() <= 0.01 * w.abs() + 1e-30,
                "bin {bin} pixel {k}: {} against {w}",
                px[0]
            );
        }
    }
    assert!(lit > 50, "the view sees the window ({lit} pixels)");
    assert!(!tmp.path().join("frame145.hdr").exists());
}

/// `-v` says how many directions the sender is sampled in, and of how many elements.
#[test]
fn verbose_reports_the_sampling() {
    let out = ok(
        &[
            "rfluxmtx", "-v", "-ab", "0", "-c", "2", "bay.rad", "sky.rad", "room.rad",
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rfluxmtx: sampling 41 directions (3 elements)"),
        "{err}"
    );
    assert!(err.contains("-c 2 -y 41"), "{err}");
}

/// Bad senders and options are errors with their place, as RADIANCE refuses them
/// (errors.txt holds its messages): no `h=`, an unknown or receiver-only basis, a source,
/// no surface at all, and `-i`/`-I` or `-c 0` with a sender file. A polygon off its plane
/// is sampled all the same (RADIANCE says nothing), with a warning.
#[test]
fn bad_senders_are_located_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases = [
        (
            write(
                "noh.rad",
                "\nvoid polygon w 0 0 12 0 0 0 1 0 0 1 0 1 0 0 1\n",
            ),
            "noh.rad:2:1: the sender has no hemisphere sampling type",
        ),
        (
            write(
                "cie.rad",
                "#@rfluxmtx h=cie\nvoid polygon w 0 0 12 0 0 0 1 0 0 1 0 1 0 0 1\n",
            ),
            "cie.rad:1:1: unrecognized sender sampling h=cie",
        ),
        (
            write(
                "kx.rad",
                "#@rfluxmtx h=kx\nvoid polygon w 0 0 12 0 0 0 1 0 0 1 0 1 0 0 1\n",
            ),
            "kx.rad:1:1: unrecognized sender sampling h=kx",
        ),
        (
            write(
                "src.rad",
                "#@rfluxmtx h=kf\nvoid source s 0 0 4 0 0 1 180\n",
            ),
            "src.rad:2:1: source 's': a source cannot be a sender",
        ),
        (
            write("none.rad", "#@rfluxmtx h=kf\nvoid sphere s 0 0 4 0 0 0 1\n"),
            "none.rad: no sender surface",
        ),
        (
            write(
                "upn.rad",
                "#@rfluxmtx h=kf u=Z\nvoid polygon w 0 0 9 0 0 0 1 0 0 0 1 0\n",
            ),
            "upn.rad:1:1: the sender's up vector is parallel to its normal",
        ),
        (
            write(
                "count.rad",
                "#@rfluxmtx h=kf\nvoid polygon w 0 0 8 0 0 0 1 0 0 1 0\n",
            ),
            "count.rad:2:1: polygon 'w': bad argument count",
        ),
    ];
    for (file, want) in &cases {
        let out = daylit(
            &[
                "rfluxmtx", "-ab", "0", "-c", "1", file, "sky.rad", "room.rad",
            ],
            None,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{file}");
        assert!(err.contains(want), "{file}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty(), "{file}: no output on error");
    }
    for (args, want) in [
        (
            &["-I+", "window.rad"][..],
            "-I+: -i and -I are for the pass-through sender '-' only",
        ),
        (&["-c", "0", "window.rad"], "-c must be a positive number"),
        (
            &["-p", "a=1", "window.rad"],
            "-p is not an option of rfluxmtx",
        ),
    ] {
        let mut a = vec!["rfluxmtx", "-ab", "0"];
        a.extend(args);
        a.extend(["sky.rad", "room.rad"]);
        let out = daylit(&a, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // Bent by a tenth of its size: sampled, with a warning naming it.
    let bent = write(
        "bent.rad",
        "#@rfluxmtx h=u\nvoid polygon w 0 0 12 0 0 0 0 0 1 1 0 1 1 0.1 0\n",
    );
    let out = ok(
        &["rfluxmtx", "-ab", "0", "-c", "10", &bent, "sky.rad"],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bent.rad:2:1: polygon 'w' is not planar"),
        "{err}"
    );
}
