//! `daylit getinfo`: prints the information header of daylit scene files and of RADIANCE files
//! with a text header (pictures, octrees, matrices).

use crate::output::{self, outln};
use anyhow::Context;
use daylit_scene::archive;
use std::io::{BufRead, Read, Write};
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

/// The bounding cube of a compiled scene (`daylit oconv`'s file) or of a RADIANCE octree:
/// its lowest corner and side, as RADIANCE's oconv makes it (the scene's box grown by 1e-5 on
/// every side, the cube centred on it).
pub(crate) fn scene_cube(bytes: &[u8]) -> anyhow::Result<Option<([f64; 3], f64)>> {
    if archive::is_archive(bytes) {
        let scene = archive::decode(bytes).map_err(anyhow::Error::msg)?;
        let shapes = daylit_compile::shapes(&scene);
        let (lo, hi) = shapes.bounds().context("the scene has no surfaces")?;
        const MARGIN: f64 = 1e-5;
        let (lo, hi) = (lo - MARGIN, hi + MARGIN);
        let size = (hi - lo).max_element();
        let origin = (hi + lo - glam::DVec3::splat(size)) * 0.5;
        return Ok(Some((origin.to_array(), size)));
    }
    if daylit_scene::octree::is_octree(bytes) {
        let oct = daylit_scene::octree::read_octree(bytes, std::path::Path::new("octree"))?;
        return Ok(Some((oct.cube_origin, oct.cube_size)));
    }
    Ok(None)
}

/// What `-d` prints for a file.
fn dimensions(bytes: &[u8], start: usize) -> anyhow::Result<String> {
    if let Some(([x, y, z], size)) = scene_cube(bytes)? {
        let g = |v: f64| daylit_radfile::printf::format_g_digits(v, 12);
        return Ok(format!("{} {} {} {}", g(x), g(y), g(z), g(size)));
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

/// What to print of a file: its header (`None`), its dimensions (`Some(false)`, `-d`) or
/// both (`Some(true)`, `+d`).
type Dims = Option<bool>;

fn info_of(
    out: &mut String,
    name: &str,
    bytes: &[u8],
    dims: Dims,
    with_name: bool,
) -> anyhow::Result<()> {
    let (lines, start) = header(bytes).with_context(|| format!("{name}: no information header"))?;
    let prefix = if with_name {
        format!("{name}: ")
    } else {
        String::new()
    };
    if dims != Some(false) {
        if with_name {
            outln!(out, "{name}:");
        }
        let indent = if with_name { "\t" } else { "" };
        for l in &lines {
            outln!(out, "{indent}{l}");
        }
        outln!(out, "{indent}");
    }
    if let Some(both) = dims {
        let prefix = if both { "" } else { prefix.as_str() };
        outln!(out, "{prefix}{}", dimensions(bytes, start)?);
    }
    Ok(())
}

fn run_files(files: &[PathBuf], dims: Dims) -> anyhow::Result<ExitCode> {
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
    run_files(&a.files, a.dims.then_some(false))
}

/// `getinfo` with RADIANCE's arguments, in its four forms:
/// `[-d|+d] [files]` (headers or dimensions; standard input when no file is given),
/// `[-d] -` (the data without its header, and without the resolution string with `-d`),
/// `-a lines..` / `-r lines..` (header lines added or replaced, data passed through) and
/// `[-d|+d] -c command..` (the command run on the data, its name added to the header).
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (dims, rest) = match args.first().map(String::as_str) {
        Some("-d") => (Some(false), &args[1..]),
        Some("+d") => (Some(true), &args[1..]),
        _ => (None, args),
    };
    let words: Vec<&str> = rest.iter().map(String::as_str).collect();
    match (dims, words.as_slice()) {
        (None | Some(false), ["-"]) => strip_header(dims.is_some()),
        (None, ["-a", lines @ ..]) => edit_header(&[], lines),
        (None, ["-r", lines @ ..]) => edit_header(lines, lines),
        (_, ["-c", command, cargs @ ..]) => run_on_data(dims, command, cargs),
        (_, ["-a" | "-r" | "-c"]) => {
            anyhow::bail!("getinfo: {} needs at least one argument", words[0])
        }
        (_, [opt, ..]) if opt.starts_with('-') && opt.len() > 1 => anyhow::bail!(
            "getinfo: unknown option {opt} (expected -d, +d, -, -a, -r or -c as in RADIANCE's getinfo)"
        ),
        (_, []) => {
            let mut b = Vec::new();
            std::io::stdin().read_to_end(&mut b)?;
            let mut out = String::new();
            info_of(&mut out, "standard input", &b, dims, false)?;
            output::print(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        (_, files) => {
            let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
            run_files(&files, dims)
        }
    }
}

/// Reads a header from `input`: its lines, up to the empty line that ends it (which is
/// consumed). As RADIANCE's, any lines up to an empty one count, whatever the first says.
fn read_header(input: &mut impl BufRead) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    loop {
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line)? == 0 {
            anyhow::bail!(
                "standard input: the header does not end (no empty line before the end of the input)"
            );
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.is_empty() {
            return Ok(lines);
        }
        lines.push(String::from_utf8_lossy(&line).into_owned());
    }
}

/// Reads the resolution string that follows a picture's header.
fn read_resolution(input: &mut impl BufRead) -> anyhow::Result<Vec<u8>> {
    let mut line = Vec::new();
    input.read_until(b'\n', &mut line)?;
    if line.is_empty() {
        anyhow::bail!("standard input: no resolution string after the header");
    }
    Ok(line)
}

/// `getinfo [-d] -`: copies standard input to standard output without its header (and its
/// resolution string with `-d`).
fn strip_header(resolution_too: bool) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    read_header(&mut input)?;
    if resolution_too {
        read_resolution(&mut input)?;
    }
    let mut out = std::io::stdout().lock();
    std::io::copy(&mut input, &mut out).context("getinfo: cannot copy the data")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The header lines a line of `-r` removes: those starting with its setting (the text up to
/// and including `=`, or all of it), indented exactly when the setting is.
fn replaced(line: &str, pattern: &str) -> bool {
    let indented = |t: &str| t.starts_with([' ', '\t']);
    let key = pattern.trim_start();
    let key = key.find('=').map_or(key, |i| &key[..=i]);
    indented(line) == indented(pattern) && line.trim_start().starts_with(key)
}

/// Whether a line given to `-a`/`-r` is itself added to the header: `-r` with a lone setting
/// (`VIEW=`, `EXPOSURE`) only removes.
fn adds(line: &str) -> bool {
    let t = line.trim();
    t.contains([' ', '\t']) || t.find('=').is_some_and(|i| i + 1 < t.len())
}

/// Writes `lines` as a header, with `added` after them and the `FORMAT=` line last, as
/// RADIANCE's programs do.
fn write_header(out: &mut impl Write, lines: &[String], added: &[String]) -> std::io::Result<()> {
    let is_format = |l: &str| l.trim_start().starts_with("FORMAT=");
    let format = lines.iter().rev().find(|l| is_format(l));
    for l in lines
        .iter()
        .filter(|l| !is_format(l))
        .chain(added)
        .chain(format)
    {
        writeln!(out, "{l}")?;
    }
    writeln!(out)
}

/// `getinfo -a` (`remove` empty) and `getinfo -r`: the header of standard input with the
/// lines matching `remove` dropped and the `add` lines that add a setting appended; the
/// data follows unchanged.
fn edit_header(remove: &[&str], add: &[&str]) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut lines = read_header(&mut input)?;
    lines.retain(|l| !remove.iter().any(|p| replaced(l, p)));
    let added: Vec<String> = add
        .iter()
        .filter(|l| remove.is_empty() || adds(l))
        .map(|l| l.to_string())
        .collect();
    let mut out = std::io::stdout().lock();
    write_header(&mut out, &lines, &added)?;
    std::io::copy(&mut input, &mut out).context("getinfo: cannot copy the data")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `getinfo [-d|+d] -c command args`: the header of standard input with the command line
/// added, then the command's output on the data (`+d`: the resolution string is copied
/// first; `-d`: it is dropped). Exits with the command's status.
fn run_on_data(dims: Option<bool>, command: &str, args: &[&str]) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let lines = read_header(&mut input)?;
    let line = std::iter::once(command)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = std::io::stdout().lock();
    write_header(&mut out, &lines, &[line])?;
    if let Some(copy) = dims {
        let res = read_resolution(&mut input)?;
        if copy {
            out.write_all(&res)?;
        }
    }
    out.flush()?;
    drop(out);
    let mut child = std::process::Command::new(command)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("getinfo: cannot run {command}"))?;
    if let Some(mut to) = child.stdin.take() {
        // A command that stops reading early (head) closes the pipe: not an error here.
        match std::io::copy(&mut input, &mut to) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(e).context("getinfo: cannot pass the data on");
            }
            _ => {}
        }
    }
    let status = child.wait()?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
        None => ExitCode::FAILURE,
    })
}
