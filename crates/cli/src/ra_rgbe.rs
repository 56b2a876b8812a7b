//! `ra_rgbe`: RADIANCE pictures between flat and run-length encoded forms, exposure shifted by
//! whole f-stops, and concatenated frames (rpict `-S`, a dctimestep stream) split into files
//! named by their `FRAME=` numbers, as RADIANCE's ra_rgbe does.

use anyhow::{bail, Context};
use daylit_image::hdr::{read_raw_pixels, write_scanline};
use std::process::ExitCode;

const USAGE: &str = "usage: ra_rgbe [-r][-e +/-stops][-f][-n frame] [input [outspec]]";

/// One frame's header as ra_rgbe keeps it.
#[derive(Clone, Default)]
struct Header {
    /// Lines other than the magic line, `FRAME=` and `FORMAT=`.
    lines: Vec<String>,
    format: Option<String>,
    frame: Option<u64>,
}

/// Runs ra_rgbe with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (mut flat, mut stops, mut only, mut force) = (true, 0i32, 0u64, false);
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-') && a.len() > 1) {
        match a.as_str() {
            "-r" => flat = !flat,
            "-f" => force = true,
            "-e" | "-n" => {
                let v = args
                    .get(i + 1)
                    .with_context(|| format!("{a} needs a value\n{USAGE}"))?;
                if a == "-e" {
                    anyhow::ensure!(
                        v.starts_with('+') || v.starts_with('-'),
                        "-e takes a signed number of stops (+2, -1), not '{v}'"
                    );
                    stops = v
                        .parse()
                        .with_context(|| format!("-e: bad number of stops '{v}'"))?;
                } else {
                    only = v
                        .parse()
                        .with_context(|| format!("-n: bad frame number '{v}'"))?;
                }
                i += 1;
            }
            _ => bail!("unknown option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let rest = &args[i..];
    if rest.len() > 2 {
        bail!("too many arguments\n{USAGE}");
    }
    let input = rest.first().map_or("-", String::as_str);
    let (name, bytes) = crate::input::read_operand("ra_rgbe", input)?;
    let outspec = rest.get(1);

    let mut pos = 0;
    let mut first: Option<Header> = None;
    while pos < bytes.len() {
        // The first frame's header holds the picture's own lines; each later frame adds its
        // own (FRAME=, FORMAT=) to those.
        let (mut header, after) = read_header(&bytes, pos, &name, first.is_none())?;
        if let Some(f) = &first {
            let mut lines = f.lines.clone();
            lines.append(&mut header.lines);
            header.lines = lines;
            header.format = header.format.or(f.format.clone());
        } else {
            first = Some(header.clone());
        }
        let raw = read_raw_pixels(&bytes, after, &name).map_err(|e| anyhow::anyhow!("{e}"))?;
        pos = raw.end;
        let frame = header.frame.unwrap_or(0);
        if only > 0 && frame < only {
            continue;
        }
        if only > 0 && frame > only {
            break;
        }
        let mut out = daylit_radfile::header::header_start(&header.lines).into_bytes();
        // RADIANCE writes its own name as it was called (a path, if it was called by one).
        let mut program = std::env::args()
            .next()
            .filter(|a| !a.ends_with("daylit"))
            .unwrap_or_else(|| "ra_rgbe".into());
        if stops != 0 {
            program += &format!(" -e {stops:+}");
        }
        if !flat {
            program += " -r";
        }
        out.extend_from_slice(program.as_bytes());
        out.push(b'\n');
        if stops != 0 {
            let e = daylit_radfile::printf::format_e(2f64.powi(stops), 4);
            out.extend_from_slice(format!("EXPOSURE={e}\n").as_bytes());
        }
        if frame != 0 {
            out.extend_from_slice(format!("FRAME={frame}\n").as_bytes());
        }
        if let Some(f) = &header.format {
            out.extend_from_slice(format!("FORMAT={f}\n").as_bytes());
        }
        out.push(b'\n');
        out.extend_from_slice(resolution_line(&raw.resolution).as_bytes());
        for mut scan in raw.scans {
            shift_exponents(&mut scan, stops);
            write_scanline(&scan, !flat, &mut out);
        }
        match outspec {
            None => crate::output::print_bytes([out.as_slice()])?,
            Some(spec) => {
                let target = daylit_matrix::timestep::frame_name(spec, frame as usize);
                if target.starts_with('!') {
                    bail!("output to a command ({target}) is not supported; name a file");
                }
                let path = std::path::Path::new(&target);
                if !force && path.exists() {
                    bail!("output file \"{target}\" exists (-f overwrites it)");
                }
                crate::output::write_atomic(path, &out)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The header lines from `pos` to the blank line that ends them, and where the pixel data
/// begin. The first frame's header must start with `#?`.
fn read_header(
    bytes: &[u8],
    pos: usize,
    name: &str,
    first: bool,
) -> anyhow::Result<(Header, usize)> {
    let mut h = Header::default();
    let mut at = pos;
    loop {
        let Some(n) = bytes[at..].iter().position(|&b| b == b'\n') else {
            bail!("{name}: header not ended by an empty line");
        };
        let line = String::from_utf8_lossy(&bytes[at..at + n]).into_owned();
        at += n + 1;
        if line.is_empty() {
            break;
        }
        if line.starts_with("#?") {
            continue;
        } else if at - n - 1 == pos && first {
            bail!("{name}: not a RADIANCE picture (no \"#?\" first line)");
        }
        if let Some(v) = line.strip_prefix("FRAME=") {
            h.frame = Some(
                v.trim()
                    .parse()
                    .with_context(|| format!("{name}: bad {line}"))?,
            );
        } else if let Some(v) = line.strip_prefix("FORMAT=") {
            let v = v.trim();
            if !v.starts_with("32-bit_rle_") {
                bail!("{name}: FORMAT={v} is not a RADIANCE picture");
            }
            h.format = Some(v.to_string());
        } else if let Some(v) = line.strip_prefix("NCOMP=") {
            // Three components is RGB (the line is not passed on); more is a spectral picture.
            if v.trim() != "3" {
                bail!("{name}: spectral pictures ({line}) are not supported by daylit's ra_rgbe");
            }
        } else {
            h.lines.push(line);
        }
    }
    Ok((h, at))
}

/// The resolution line in RADIANCE's layout (numbers padded to 8 columns), any orientation.
fn resolution_line(res: &str) -> String {
    let w: Vec<&str> = res.split_whitespace().collect();
    format!("{} {:>8} {} {:>8}\n", w[0], w[1], w[2], w[3])
}

/// Multiplies every pixel by 2^stops through its exponent; pixels that would fall below the
/// smallest exponent become black (RADIANCE's `shiftcolrs`).
fn shift_exponents(scan: &mut [[u8; 4]], stops: i32) {
    if stops == 0 {
        return;
    }
    let min = if stops < 0 { -stops } else { 0 };
    for p in scan {
        if i32::from(p[3]) <= min {
            *p = [0; 4];
        } else {
            p[3] = (i32::from(p[3]) + stops) as u8;
        }
    }
}
