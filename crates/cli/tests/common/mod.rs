//! The case runner of the tests that compare a RADIANCE program by name with RADIANCE's own:
//! each case of tests/golden/PROGRAM/cases.txt runs in a fresh copy of PROGRAM/inputs;
//! tests/golden/make_cases.sh PROGRAM makes the goldens: standard output (out/N), exit code
//! (out/N.rc) and every file written (out/N.d/).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
}

/// Every file under `dir`, as paths relative to it, with their bytes.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// One case run by daylit, beside RADIANCE's goldens for it.
pub struct Case {
    /// The arguments as cases.txt gives them.
    pub line: String,
    /// daylit's standard output, error and exit code.
    pub got: Output,
    /// The folder it ran in (a copy of the inputs, plus what it wrote).
    pub work: tempfile::TempDir,
    /// RADIANCE's exit code.
    pub want_rc: i32,
    /// RADIANCE's standard output.
    pub want_stdout: Vec<u8>,
    /// The files RADIANCE wrote.
    pub want_files: std::collections::BTreeMap<PathBuf, Vec<u8>>,
}

impl Case {
    /// The files daylit wrote (those not among the inputs).
    pub fn written(
        &self,
        inputs: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
    ) -> Vec<(PathBuf, Vec<u8>)> {
        files_under(self.work.path())
            .into_iter()
            .filter(|(rel, _)| !inputs.contains_key(rel) && !rel.starts_with("bin"))
            .collect()
    }
}

/// Runs daylit as `program`, by that name (it may write its name into what it writes), on
/// every case of `dir`, each in a fresh copy of `dir/inputs` with the folders of
/// `dir/dirs.txt`, with no lamp table or function files on the RAYPATH but daylit's own.
pub fn run_cases(
    program: &str,
    dir: &str,
) -> (Vec<Case>, std::collections::BTreeMap<PathBuf, Vec<u8>>) {
    let here = golden(dir);
    let inputs = files_under(&here.join("inputs"));
    let dirs = std::fs::read_to_string(here.join("dirs.txt")).unwrap_or_default();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let runs = cases
        .lines()
        .enumerate()
        .map(|(k, line)| {
            let out = here.join("out").join((k + 1).to_string());
            let work = tempfile::tempdir().unwrap();
            for (rel, bytes) in &inputs {
                let to = work.path().join(rel);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::write(to, bytes).unwrap();
            }
            for d in dirs.lines().chain(["bin"]) {
                std::fs::create_dir_all(work.path().join(d)).unwrap();
            }
            let bin = work.path().join("bin");
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.join(program)).unwrap();
            let mut words: Vec<&str> = line.split_whitespace().collect();
            let stdin = if words.first() == Some(&"<") {
                let f = work.path().join(words[1]);
                words.drain(..2);
                Stdio::from(std::fs::File::open(f).unwrap())
            } else {
                Stdio::null()
            };
            let path = format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            );
            let got = Command::new(program)
                .args(&words)
                .env("PATH", path)
                .env("RAYPATH", ".")
                .current_dir(work.path())
                .stdin(stdin)
                .output()
                .unwrap();
            let want_rc = std::fs::read_to_string(out.with_extension("rc"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let want_files = if out.with_extension("d").exists() {
                files_under(&out.with_extension("d"))
            } else {
                Default::default()
            };
            Case {
                line: line.to_string(),
                got,
                work,
                want_rc,
                want_stdout: std::fs::read(&out).unwrap(),
                want_files,
            }
        })
        .collect();
    (runs, inputs)
}

/// The exit codes agree; whether the case succeeded (its outputs are compared).
pub fn exit_code_agrees(program: &str, c: &Case) -> bool {
    let err = String::from_utf8_lossy(&c.got.stderr);
    assert_eq!(
        c.got.status.code(),
        Some(c.want_rc),
        "{program} {}: exit code ({err})",
        c.line
    );
    c.want_rc == 0
}
