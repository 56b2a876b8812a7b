//! `daylit getinfo`: prints the information header of daylit scene files and of RADIANCE files
//! with a text header (pictures, octrees, matrices).

use crate::output::{self, outln};
use anyhow::Context;
use daylit_scene::archive;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit getinfo`.
#[derive(clap::Args)]
pub struct Args {
    /// Print dimensions instead: the bounding cube of a scene, the resolution of a picture.
    #[arg(short = 'd')]
    dims: bool,
    /// Files to read.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// The header lines of a RADIANCE-style file (after `#?…`, up to the blank line) and the
/// byte offset of what follows.
fn header(bytes: &[u8]) -> Option<(Vec<String>, usize)> {
    if !bytes.starts_with(b"#?") {
        return None;
    }
    let mut lines = Vec::new();
    let mut pos = 0;
    while let Some(end) = bytes[pos..].iter().position(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(&bytes[pos..pos + end]).into_owned();
        pos += end + 1;
        if line.is_empty() {
            return Some((lines, pos));
        }
        lines.push(line);
    }
    None
}

/// What `-d` prints for a file.
fn dimensions(bytes: &[u8], start: usize) -> anyhow::Result<String> {
    if archive::is_archive(bytes) {
        let scene = archive::decode(bytes).map_err(anyhow::Error::msg)?;
        let shapes = daylit_compile::shapes(&scene);
        let (lo, hi) = shapes.bounds().context("the scene has no surfaces")?;
        let size = (hi - lo).max_element();
        return Ok(format!("{} {} {} {}", lo.x, lo.y, lo.z, size));
    }
    // A RADIANCE octree: its bounding cube, as oconv stored it.
    if daylit_scene::octree::is_octree(bytes) {
        let oct = daylit_scene::octree::read_octree(bytes, std::path::Path::new("octree"))?;
        let [x, y, z] = oct.cube_origin;
        return Ok(format!("{x} {y} {z} {}", oct.cube_size));
    }
    // A picture: the resolution line follows the header.
    let rest = &bytes[start..];
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(rest.len())
        .min(64);
    Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
}

fn info_of(
    out: &mut String,
    name: &str,
    bytes: &[u8],
    dims: bool,
    with_name: bool,
) -> anyhow::Result<()> {
    let (lines, start) = header(bytes).with_context(|| format!("{name}: no information header"))?;
    let prefix = if with_name {
        format!("{name}: ")
    } else {
        String::new()
    };
    if dims {
        outln!(out, "{prefix}{}", dimensions(bytes, start)?);
    } else {
        if with_name {
            outln!(out, "{name}:");
        }
        let indent = if with_name { "\t" } else { "" };
        for l in &lines {
            outln!(out, "{indent}{l}");
        }
        outln!(out, "{indent}");
    }
    Ok(())
}

fn run_files(files: &[PathBuf], dims: bool) -> anyhow::Result<ExitCode> {
    let mut failed = false;
    let mut out = String::new();
    for f in files {
        let name = f.display().to_string();
        let res = std::fs::read(f)
            .with_context(|| format!("{name}: cannot open"))
            .and_then(|b| info_of(&mut out, &name, &b, dims, true));
        if let Err(e) = res {
            eprintln!("getinfo: {e:#}");
            failed = true;
        }
    }
    output::print(&out)?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `daylit getinfo`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_files(&a.files, a.dims)
}

/// `getinfo` with RADIANCE's arguments: `[-d] [files]`, standard input when no file is given.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let dims = args.iter().any(|a| a == "-d");
    let files: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b)?;
        let mut out = String::new();
        info_of(&mut out, "standard input", &b, dims, false)?;
        output::print(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    run_files(&files, dims)
}
