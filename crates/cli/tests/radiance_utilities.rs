//! RADIANCE utilities that pyradiance's RADIANCE 6.0a lacks, against RADIANCE's own, built from
//! its public source by each golden folder's make.sh: every case's standard output byte for
//! byte, and its exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
}

/// Runs daylit as `program` on every line of `dir/cases.txt` (arguments; `< file args` reads
/// `file` on standard input) and compares with `dir/expected.txt` (`### N rc=CODE` blocks).
fn check_cases(program: &str, dir: &str) {
    let here = golden(dir);
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join(program);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let expected = std::fs::read_to_string(here.join("expected.txt")).unwrap();
    let blocks: Vec<&str> = expected.split("### ").skip(1).collect();
    let lines: Vec<&str> = cases.lines().collect();
    assert_eq!(blocks.len(), lines.len(), "one expected block per case");
    for (line, block) in lines.iter().zip(blocks) {
        let (head, want) = block.split_once('\n').unwrap();
        let want_rc: i32 = head.split("rc=").nth(1).unwrap().trim().parse().unwrap();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = words[1];
            words.drain(..2);
            Stdio::from(std::fs::File::open(here.join(f)).unwrap())
        } else {
            Stdio::null()
        };
        let out = Command::new(&link)
            .args(&words)
            .current_dir(&here)
            .stdin(stdin)
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        // make.sh's `$(...)` drops the output's final newlines and printf adds one back.
        let got = format!("{}\n", got.trim_end_matches('\n'));
        assert_eq!(got, want, "{program} {line}");
        assert_eq!(
            out.status.code(),
            Some(want_rc),
            "{program} {line}: exit code"
        );
        if want_rc != 0 {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.starts_with(program), "{program} {line}: error {err:?}");
        }
    }
}

#[test]
fn vwright_matches_radiance() {
    check_cases("vwright", "vwright");
}
