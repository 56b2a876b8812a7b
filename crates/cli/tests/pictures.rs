//! `pfilt` and `pcompos` by their RADIANCE names against RADIANCE 6.0a's pictures for the
//! same arguments (tests/golden/pictures/make_goldens.sh): the same pixels, bit for bit, and
//! the same exposure and aspect lines.

use daylit_image::HdrImage;
use std::path::{Path, PathBuf};
use std::process::Command;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pictures")
}

/// Header lines that carry numbers a reader uses.
fn key_lines(img: &HdrImage) -> Vec<String> {
    img.header
        .iter()
        .filter(|l| l.starts_with("EXPOSURE=") || l.starts_with("PIXASPECT="))
        .cloned()
        .collect()
}

fn check(program: &str, args: &[&str], golden: &str) {
    let dir = tempfile::tempdir().unwrap();
    for f in ["in.hdr", "small.hdr", "spot.hdr", "helvet.fnt"] {
        std::fs::copy(golden_dir().join(f), dir.path().join(f)).unwrap();
    }
    let exe = dir.path().join(program);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
    let o = Command::new(&exe)
        .args(args)
        .current_dir(dir.path())
        .env("RAYPATH", ".")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let ours = HdrImage::decode(&o.stdout, "ours").unwrap();
    let theirs = HdrImage::read(&golden_dir().join(golden)).unwrap();
    assert_eq!(
        (ours.width, ours.height),
        (theirs.width, theirs.height),
        "{golden}"
    );
    let differ = ours
        .pixels
        .iter()
        .zip(&theirs.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differ, 0, "{golden}: {differ} pixels differ");
    assert_eq!(key_lines(&ours), key_lines(&theirs), "{golden}");
}

#[test]
fn pfilt_matches_radiance_pixel_for_pixel() {
    check(
        "pfilt",
        &["-r", "0.6", "-x", "/2", "-y", "/2", "in.hdr"],
        "pfilt_gauss_half.hdr",
    );
    check(
        "pfilt",
        &["-x", "/3", "-y", "/3", "in.hdr"],
        "pfilt_box_third.hdr",
    );
    check(
        "pfilt",
        &[
            "-1", "-e", "+1", "-er", "2", "-x", "25", "-y", "11", "in.hdr",
        ],
        "pfilt_one_pass.hdr",
    );
    check(
        "pfilt",
        &["-a", "-r", "0.5", "-x", "64", "-y", "48", "in.hdr"],
        "pfilt_up.hdr",
    );
}

/// The threshold filter (`-m`, rad's HIGH quality): a hot corner and a single bright pixel
/// spread until no input pixel gives more than the fraction of an output pixel.
#[test]
fn pfilt_threshold_matches_radiance() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["-m", ".25", "-x", "/3", "-y", "/3", "in.hdr"],
            "pfilt_threshold_third.hdr",
        ),
        (
            &[
                "-1", "-e", "2", "-m", ".1", "-r", ".8", "-x", "/2", "-y", "/2", "in.hdr",
            ],
            "pfilt_threshold_half.hdr",
        ),
        (
            &["-1", "-m", ".25", "-x", "/3", "-y", "/3", "spot.hdr"],
            "pfilt_threshold_spot.hdr",
        ),
        (
            &["-1", "-m", ".25", "-x", "60", "-y", "45", "spot.hdr"],
            "pfilt_threshold_up.hdr",
        ),
    ];
    for (args, golden) in cases {
        check("pfilt", args, golden);
    }
}

#[test]
fn pcompos_matches_radiance_pixel_for_pixel() {
    check(
        "pcompos",
        &[
            "-a",
            "2",
            "-la",
            "-lh",
            "12",
            "in.hdr",
            "-l",
            "Second",
            "small.hdr",
        ],
        "pcompos_labels.hdr",
    );
    check(
        "pcompos",
        &[
            "in.hdr",
            "0",
            "0",
            "-t",
            "0.1",
            "+t",
            "0.3",
            "small.hdr",
            "5",
            "5",
            "+t",
            "0.2",
            "small.hdr",
            "30",
            "2",
        ],
        "pcompos_thresholds.hdr",
    );
    check(
        "pcompos",
        &["-a", "2", "-s", "3", "in.hdr", "small.hdr", "small.hdr"],
        "pcompos_rows.hdr",
    );
    check(
        "pcompos",
        &[
            "-b",
            "1",
            "0",
            "0.5",
            "-x",
            "50",
            "-y",
            "40",
            "in.hdr",
            "0",
            "0",
            "=00",
            "small.hdr",
            "45",
            "35",
        ],
        "pcompos_placed.hdr",
    );
}

#[test]
fn pcomb_matches_radiance_pixel_for_pixel() {
    check(
        "pcomb",
        &[
            "-e",
            "ro=ri(1,2,-1);go=gi(1,-1,3);bo=bi(1)*x/xres+y",
            "in.hdr",
        ],
        "pcomb_offsets.hdr",
    );
    check(
        "pcomb",
        &[
            "-x", "xmax/3", "-y", "ymax*2", "-s", "0.5", "in.hdr", "-o", "-c", "1", "0", "2",
            "in.hdr",
        ],
        "pcomb_sum.hdr",
    );
    check(
        "pcomb",
        &["-x", "10", "-y", "8", "-e", "lo=x*y/PI"],
        "pcomb_noinput.hdr",
    );
}

#[test]
fn bad_pictures_and_options_fail_without_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.hdr"),
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 4\n\x01",
    )
    .unwrap();
    for f in ["in.hdr", "small.hdr", "spot.hdr", "helvet.fnt"] {
        std::fs::copy(golden_dir().join(f), dir.path().join(f)).unwrap();
    }
    for (program, args, want) in [
        ("pfilt", &["bad.hdr"][..], "bad.hdr"),
        ("pfilt", &["-n", "4", "in.hdr"][..], "star patterns"),
        ("pfilt", &["-x", "/0", "in.hdr"][..], "positive divisor"),
        ("pcompos", &["in.hdr", "0", "0", "-l"][..], "needs a label"),
        (
            "pcompos",
            &["-t", "x", "in.hdr", "0", "0"][..],
            "a number expected",
        ),
        ("pcompos", &["in.hdr", "0"][..], "y position"),
        ("pcomb", &["-e", "ro=Ox(1)", "in.hdr"][..], "Ox"),
        ("pcomb", &["in.hdr", "small.hdr"][..], "resolution mismatch"),
        ("pcomb", &["-ff", "in.hdr"][..], "-ff"),
    ] {
        let exe = dir.path().join(program);
        let _ = std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe);
        let o = Command::new(&exe)
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && o.stdout.is_empty(),
            "{program} {args:?}"
        );
        assert!(err.contains(want), "{program} {args:?}: {err}");
    }
}

#[test]
fn pvalue_matches_radiance_byte_for_byte() {
    for (args, golden) in [
        (&["small.hdr"][..], "pvalue_default.txt"),
        (
            &["-o", "-h", "-H", "-dd", "pfilt_gauss_half.hdr"][..],
            "pvalue_original.bin",
        ),
        (&["-b", "-e", "+1", "small.hdr"][..], "pvalue_bright.txt"),
        (&["-n", "-d", "-R", "small.hdr"][..], "pvalue_planes.txt"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        for f in ["small.hdr", "pfilt_gauss_half.hdr"] {
            std::fs::copy(golden_dir().join(f), dir.path().join(f)).unwrap();
        }
        let exe = dir.path().join("pvalue");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
        let o = Command::new(&exe)
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let want = std::fs::read(golden_dir().join(golden)).unwrap();
        assert!(o.stdout == want, "{args:?}: output differs from {golden}");
    }
}

/// `pvalue -r` turns RADIANCE's own `pvalue` text of a picture back into that picture.
#[test]
fn pvalue_reverse_rebuilds_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("pvalue");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
    let text = std::fs::read(golden_dir().join("pvalue_default.txt")).unwrap();
    let mut child = Command::new(&exe)
        .arg("-r")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &text).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let ours = HdrImage::decode(&o.stdout, "ours").unwrap();
    let theirs = HdrImage::read(&golden_dir().join("small.hdr")).unwrap();
    assert_eq!(ours.pixels, theirs.pixels);
    // Too few values is an error, not a short picture.
    let o = Command::new(&exe)
        .args(["-r", "-h", "-H", "-d", "-y", "7", "+x", "9"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success() && o.stdout.is_empty());
}

/// rmtxop reads a picture as a matrix (rows from the top, exposure undone) and writes one.
#[test]
fn rmtxop_reads_and_writes_pictures_as_radiance_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(golden_dir().join("small.hdr"), dir.path().join("small.hdr")).unwrap();
    let exe = dir.path().join("rmtxop");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
    let o = Command::new(&exe)
        .args(["-fa", "small.hdr"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = std::fs::read(golden_dir().join("rmtxop_small.txt")).unwrap();
    assert!(
        o.stdout == want,
        "rmtxop -fa small.hdr differs from RADIANCE's"
    );
    check(
        "rmtxop",
        &["-fc", "-t", "small.hdr", "-c", "0.3", "0.3", "0.3"],
        "rmtxop_grey.hdr",
    );
}

/// `pextrem` prints the darkest and brightest pixels as RADIANCE's does, character for
/// character: a picture named, one whose exposure `-o` undoes, one on standard input; a file
/// that is not a picture is refused with its name.
#[test]
fn pextrem_matches_radiance() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("pextrem");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &exe).unwrap();
    let run = |args: &[&str], stdin: Option<&str>| {
        let mut cmd = Command::new(&exe);
        cmd.args(args).current_dir(golden_dir());
        if let Some(f) = stdin {
            cmd.stdin(std::fs::File::open(golden_dir().join(f)).unwrap());
        }
        cmd.output().unwrap()
    };
    for (args, stdin, golden) in [
        (&["in.hdr"][..], None, "pextrem_in.txt"),
        (
            &["-o", "pfilt_gauss_half.hdr"][..],
            None,
            "pextrem_original.txt",
        ),
        (&[][..], Some("small.hdr"), "pextrem_small.txt"),
    ] {
        let o = run(args, stdin);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let want = std::fs::read_to_string(golden_dir().join(golden)).unwrap();
        assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{golden}");
    }
    let o = run(&["pextrem_in.txt"], None);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("pextrem_in.txt"));
}

/// `ra_rgbe` as RADIANCE's, byte for byte: a picture re-encoded with an exposure shift, a
/// stream of three frames (from dctimestep) split into files by their `FRAME=` numbers, one
/// frame picked with `-n`; an existing output file is refused unless `-f`.
#[test]
fn ra_rgbe_matches_radiance_byte_for_byte() {
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.path().join("ra_rgbe")).unwrap();
    let work = tempfile::tempdir().unwrap();
    for f in ["in.hdr", "frames.hdr"] {
        std::fs::copy(golden_dir().join(f), work.path().join(f)).unwrap();
    }
    // Called through PATH, as the goldens were, so both write "ra_rgbe" into the header.
    let run = |args: &[&str]| {
        Command::new("ra_rgbe")
            .args(args)
            .current_dir(work.path())
            .env("PATH", bin.path())
            .output()
            .unwrap()
    };
    let golden = |name: &str| std::fs::read(golden_dir().join(name)).unwrap();
    let o = run(&["-r", "-e", "-2", "in.hdr"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout == golden("ra_rgbe_in.hdr"), "-r -e -2");
    let o = run(&["-n", "1", "-r", "frames.hdr"]);
    assert!(o.stdout == golden("ra_rgbe_n1.hdr"), "-n 1");
    assert!(run(&["frames.hdr", "f%d.hdr"]).status.success());
    for k in 0..3 {
        let ours = std::fs::read(work.path().join(format!("f{k}.hdr"))).unwrap();
        assert!(ours == golden(&format!("ra_rgbe_f{k}.hdr")), "frame {k}");
    }
    let o = run(&["frames.hdr", "f%d.hdr"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"f0.hdr\" exists"));
    assert!(run(&["-f", "frames.hdr", "f%d.hdr"]).status.success());
}
