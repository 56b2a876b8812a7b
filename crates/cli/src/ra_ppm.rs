//! `ra_ppm`: RADIANCE pictures to Poskanzer pixmaps (PPM/PGM, binary or ASCII, one byte per
//! sample with gamma correction, or two bytes above a maximum of 255) and back, as RADIANCE's
//! ra_ppm converts them. Pictures are written in standard orientation.

use anyhow::{bail, Context};
use daylit_image::color::{brightness, byte_linear, gamma_byte};
use daylit_image::HdrImage;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: ra_ppm [-r][-a][-b][-s maxv][-g gamma][-e +/-stops] [input [output]]";

/// What ra_ppm was asked for.
struct Opts {
    binary: bool,
    grey: bool,
    maxval: u32,
    gamma: f64,
    stops: i32,
}

/// Runs ra_ppm with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Opts {
        binary: true,
        grey: false,
        maxval: 255,
        gamma: 2.2,
        stops: 0,
    };
    let mut reverse = false;
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        let value = || {
            args.get(i + 1)
                .with_context(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_bytes().get(1) {
            Some(b's') => {
                o.maxval = (daylit_radfile::scan::atoi(value()?) & 0xffff) as u32;
                i += 1;
            }
            Some(b'g') => {
                o.gamma = daylit_radfile::scan::atof(value()?);
                i += 1;
            }
            Some(b'e') => {
                o.stops = crate::input::signed_stops(value()?, USAGE)?;
                i += 1;
            }
            Some(b'b') => o.grey = true,
            Some(b'a') => o.binary = false,
            Some(b'r') => reverse = !reverse,
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let rest = &args[i..];
    if rest.len() > 2 {
        bail!("{USAGE}");
    }
    let input = rest.first().map_or("-", String::as_str);
    let (name, bytes) = crate::input::read_operand("ra_ppm", input)?;
    let out = if reverse {
        let command = std::iter::once("ra_ppm")
            .chain(args[..i].iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        from_pixmap(&bytes, &name, &o, command)?
    } else {
        to_pixmap(&HdrImage::decode(&bytes, &name)?, &o)
    };
    match rest.get(1) {
        Some(p) => crate::output::write_atomic(Path::new(p), &out)?,
        None => crate::output::print_bytes([out.as_slice()])?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The pixmap of a picture.
fn to_pixmap(img: &HdrImage, o: &Opts) -> Vec<u8> {
    let kind = if o.grey { 2 } else { 3 } + if o.binary { 3 } else { 0 };
    let mut out = format!("P{kind}\n{} {}\n{}\n", img.width, img.height, o.maxval).into_bytes();
    let m = 2f32.powi(o.stops);
    // RADIANCE keeps the gamma in double precision here.
    let inv = 1.0 / o.gamma;
    let wide = o.maxval >= 256;
    let sample = |v: f32| -> u32 {
        if !wide {
            return gamma_byte(v, inv) as u32;
        }
        let v = if (0.99..=1.01).contains(&inv) {
            v as f64
        } else {
            (v as f64).powf(inv)
        };
        if v >= 0.99999 {
            o.maxval
        } else if v <= 0.0 {
            0
        } else {
            (v * (o.maxval + 1) as f64) as u32
        }
    };
    for p in &img.pixels {
        let c = p.map(|v| v * m);
        let vals: Vec<u32> = if o.grey {
            vec![sample(brightness(c) as f32)]
        } else {
            c.iter().map(|&v| sample(v)).collect()
        };
        if !o.binary {
            let text: Vec<String> = vals.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "{}", text.join(" "));
        } else if wide {
            vals.iter()
                .for_each(|v| out.extend_from_slice(&(*v as u16).to_be_bytes()));
        } else {
            out.extend(vals.iter().map(|&v| v as u8));
        }
    }
    out
}

/// Reads the pixmap's numbers: integers after white space and `#` comments.
struct Ints<'a> {
    b: &'a [u8],
    pos: usize,
    file: &'a str,
}

impl Ints<'_> {
    fn next(&mut self, what: &str) -> anyhow::Result<u32> {
        loop {
            while self.pos < self.b.len() && self.b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.b.get(self.pos) != Some(&b'#') {
                break;
            }
            while self.pos < self.b.len() && self.b[self.pos] != b'\n' {
                self.pos += 1;
            }
        }
        let start = self.pos;
        while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let word = std::str::from_utf8(&self.b[start..self.pos]).unwrap_or("");
        word.parse().ok().with_context(|| {
            format!(
                "{}: expected {what} at byte {start} of the pixmap",
                self.file
            )
        })
    }
}

/// The picture of a pixmap (P2, P3, P5 or P6).
fn from_pixmap(b: &[u8], file: &str, o: &Opts, command: String) -> anyhow::Result<Vec<u8>> {
    let kind = match b {
        [b'P', k @ (b'2' | b'3' | b'5' | b'6'), ..] => *k,
        [b'P', ..] => bail!("{file}: unsupported Pixmap type (P2, P3, P5 and P6 are read)"),
        _ => bail!("{file}: input not a Poskanzer Pixmap"),
    };
    let mut ints = Ints { b, pos: 2, file };
    let w = ints.next("the width")? as usize;
    let h = ints.next("the height")? as usize;
    let maxval = ints.next("the maximum value")?.max(1);
    // One white-space byte ends the header of a binary pixmap.
    ints.pos += 1;
    let grey = matches!(kind, b'2' | b'5');
    let ascii = matches!(kind, b'2' | b'3');
    let n = if grey { 1 } else { 3 };
    let wide = maxval >= 256;
    let m = 2f64.powi(o.stops);
    let dogamma = !(0.99..=1.01).contains(&o.gamma);
    let count = w
        .checked_mul(h)
        .and_then(|p| p.checked_mul(n))
        .with_context(|| format!("{file}: a {w} x {h} pixmap is too large"))?;
    // Grown as samples are read: the size in a damaged header must not allocate alone.
    let mut raw = Vec::new();
    for _ in 0..count {
        let v = if ascii {
            ints.next("a sample")?
        } else if wide {
            let s = b
                .get(ints.pos..ints.pos + 2)
                .with_context(|| format!("{file}: the pixmap ends before its {w} x {h} samples"))?;
            ints.pos += 2;
            u16::from_be_bytes([s[0], s[1]]) as u32
        } else {
            let s = *b
                .get(ints.pos)
                .with_context(|| format!("{file}: the pixmap ends before its {w} x {h} samples"))?;
            ints.pos += 1;
            s as u32
        };
        raw.push(v);
    }
    let linear = |v: u32| -> f32 {
        if wide {
            let f = (v as f64 + 0.5) / (maxval as f64 + 1.0);
            ((if dogamma { f.powf(o.gamma) } else { f }) * m) as f32
        } else {
            // Samples scaled to 0..255, then through the inverse gamma.
            let byte = if v >= maxval {
                255
            } else if maxval == 255 {
                v
            } else {
                v * 255 / maxval
            };
            (byte_linear(byte as u8, o.gamma) as f64 * m) as f32
        }
    };
    let mut img = HdrImage::new(w, h);
    for (k, p) in img.pixels.iter_mut().enumerate() {
        *p = if grey {
            [linear(raw[k]); 3]
        } else {
            [
                linear(raw[3 * k]),
                linear(raw[3 * k + 1]),
                linear(raw[3 * k + 2]),
            ]
        };
    }
    img.program = "RADIANCE".into();
    img.header.push(command);
    Ok(img.encode(true))
}
