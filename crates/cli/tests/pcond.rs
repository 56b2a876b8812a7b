//! `pcond` by its RADIANCE name against RADIANCE 6.0a's pcond (tests/golden/pcond/make.sh,
//! the cases in cases.txt): the same header, byte for byte, and the same pixels, bit for bit.
//!
//! Bit for bit because daylit follows RADIANCE's arithmetic: single precision where RADIANCE
//! keeps colours and matrices in `float`, glibc's unseeded `drand48` for the point samples, and
//! the groupings RADIANCE 6.0a's build (compiled with reassociating floating point) gives a few
//! sums, products and divisions. The mapping file of `-x` is compared byte for byte too.

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

#[test]
fn pcond_matches_radiance() {
    let cases = std::fs::read_to_string(golden_dir().join("cases.txt")).unwrap();
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
        let differ = ours
            .pixels
            .iter()
            .zip(&theirs.pixels)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differ, 0, "{golden}: {differ} pixels differ");
        if args.contains(&"-x") {
            let ours = std::fs::read(dir.path().join("mapping.txt")).unwrap();
            let theirs = std::fs::read(golden_dir().join("mapping.txt")).unwrap();
            assert!(ours == theirs, "{golden}: the -x mapping differs");
        }
    }
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
