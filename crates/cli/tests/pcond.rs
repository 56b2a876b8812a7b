//! `pcond` by its RADIANCE name against RADIANCE 6.0a's pcond (tests/golden/pcond/make.sh,
//! the cases in cases.txt): the same header, byte for byte, and the same pixels.
//!
//! Most cases match bit for bit. The tolerance allows a few pixels (at most 0.1% of them) to
//! be one RGBE mantissa step apart, or apart by less than 1e-5 (display units: 1 is the
//! display's maximum) at the display's black level: RADIANCE 6.0a's build regroups some
//! single-precision colour arithmetic (output primaries' matrices), which moves a channel
//! across a rounding boundary now and then, and a pixel whose display luminance is just above
//! the display's minimum has a tiny value computed by cancellation.

use daylit_image::HdrImage;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pcond")
}

const INPUTS: [&str; 11] = [
    "room.hdr",
    "narrow.hdr",
    "dark.hdr",
    "xyz.hdr",
    "rotdark.hdr",
    "noview.hdr",
    "dev.cal",
    "hist.txt",
    "fix.txt",
    "dev.cwp",
    "one.cwp",
];

/// A folder with the inputs and a `pcond` link to daylit.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in INPUTS {
        std::fs::copy(golden_dir().join(f), dir.path().join(f)).unwrap();
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), dir.path().join("pcond")).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let input = match stdin {
        Some(f) => Stdio::from(std::fs::File::open(dir.join(f)).unwrap()),
        None => Stdio::null(),
    };
    Command::new(dir.join("pcond"))
        .args(args)
        .current_dir(dir)
        .stdin(input)
        .output()
        .unwrap()
}

/// The header and resolution line of a picture.
fn head(bytes: &[u8]) -> String {
    let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let res = bytes[end..].iter().position(|&b| b == b'\n').unwrap();
    String::from_utf8_lossy(&bytes[..end + res]).into_owned()
}

/// Pixels that differ, and whether every one is within the tolerance.
fn compare(ours: &HdrImage, theirs: &HdrImage) -> (usize, bool) {
    let mut differ = 0;
    let mut close = true;
    for (a, b) in ours.pixels.iter().zip(&theirs.pixels) {
        if a == b {
            continue;
        }
        differ += 1;
        let top = a.iter().chain(b).fold(0.0f32, |m, &v| m.max(v));
        for k in 0..3 {
            if (a[k] - b[k]).abs() > top / 128.0 + 1e-5 {
                close = false;
            }
        }
    }
    (differ, close)
}

#[test]
fn pcond_matches_radiance() {
    let cases = std::fs::read_to_string(golden_dir().join("cases.txt")).unwrap();
    let mut exact = 0;
    let mut total = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut f = line.split('\t');
        let (golden, stdin, args) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let args: Vec<&str> = args.split_whitespace().collect();
        let dir = workspace();
        let o = run(dir.path(), &args, (stdin != "-").then_some(stdin));
        assert!(
            o.status.success(),
            "{golden}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let want = std::fs::read(golden_dir().join(golden)).unwrap();
        assert_eq!(head(&o.stdout), head(&want), "{golden}: header");
        let ours = HdrImage::decode(&o.stdout, "ours").unwrap();
        let theirs = HdrImage::decode(&want, golden).unwrap();
        assert_eq!((ours.width, ours.height), (theirs.width, theirs.height));
        let (differ, close) = compare(&ours, &theirs);
        assert!(
            close && differ * 1000 <= ours.pixels.len(),
            "{golden}: {differ} pixels differ{}",
            if close {
                ""
            } else {
                ", some beyond the tolerance"
            }
        );
        total += 1;
        if differ == 0 {
            exact += 1;
        }
        if args.contains(&"-x") {
            let ours = std::fs::read_to_string(dir.path().join("mapping.txt")).unwrap();
            let theirs = std::fs::read_to_string(golden_dir().join("mapping.txt")).unwrap();
            let nums = |s: &str| -> Vec<f64> {
                s.split_whitespace().map(|w| w.parse().unwrap()).collect()
            };
            let (a, b) = (nums(&ours), nums(&theirs));
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() <= 2e-6 * y.abs(), "mapping: {x} vs {y}");
            }
        }
    }
    // Most cases are bit for bit.
    assert!(
        exact * 10 >= total * 8,
        "only {exact} of {total} cases bit for bit"
    );
}

#[test]
fn pcond_fails_as_radiance_does_without_output() {
    let errors = std::fs::read_to_string(golden_dir().join("errors.txt")).unwrap();
    let dir = workspace();
    std::fs::write(
        dir.path().join("bad.hdr"),
        "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 4\n\x01",
    )
    .unwrap();
    for line in errors.lines() {
        let (rc, args) = line.split_once('\t').unwrap();
        let args: Vec<&str> = args.split_whitespace().collect();
        let o = run(dir.path(), &args, None);
        assert_eq!(o.status.code(), Some(rc.parse().unwrap()), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: output written");
        let err = String::from_utf8_lossy(&o.stderr);
        if args[0].ends_with(".hdr") && args.len() == 1 {
            assert!(err.contains(args[0]), "{args:?}: {err}");
        }
    }
}
