//! `pextrem`: the darkest and brightest pixels of a RADIANCE picture, as RADIANCE's pextrem
//! finds them (by exponent, then by an integer brightness of the mantissas, scanning from the
//! top row down and each row from the right) and prints them (`x y` from the bottom left, then
//! the colour; `-o` undoes the picture's exposure and colour correction).

use daylit_image::hdr::{float_to_rgbe, rgbe_to_float};
use daylit_image::HdrImage;
use std::process::ExitCode;

/// Runs pextrem with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut original = false;
    let mut rest = args;
    while let Some(a) = rest.first() {
        match a.as_str() {
            "-o" | "-O" => original = true,
            _ => break,
        }
        rest = &rest[1..];
    }
    let (name, bytes) = crate::input::read_single("pextrem", rest, "pextrem [-o|-O] [picture]")?;
    let img = HdrImage::decode(&bytes, &name).map_err(|e| anyhow::anyhow!("{e}"))?;
    // Exposure (the decoder's product of EXPOSURE= lines) and colour correction to undo
    // with -o.
    let mut scale = [1.0f32; 3];
    if original {
        scale = [img.exposure as f32; 3];
        for line in &img.header {
            let line = line.trim_start();
            let Some(v) = line.strip_prefix("COLORCORR=") else {
                continue;
            };
            let factors: Vec<f32> = v
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()?;
            anyhow::ensure!(factors.len() == 3, "{name}: bad header line \"{line}\"");
            for c in 0..3 {
                scale[c] *= factors[c];
            }
        }
    }
    // RADIANCE's integer brightness of a pixel's mantissas (its primaries' weights × 256).
    let bright = |c: [u8; 4]| (68 * c[0] as u32 + 172 * c[1] as u32 + 17 * c[2] as u32) >> 8;
    let key = |c: [u8; 4]| (c[3], bright(c));
    let (mut lo, mut hi) = ((float_to_rgbe([1e30; 3]), 0, 0), ([0u8; 4], 0, 0));
    for row in 0..img.height {
        let y = img.height - 1 - row;
        for x in (0..img.width).rev() {
            let c = float_to_rgbe(img.get(x, row));
            if key(c) > key(hi.0) {
                hi = (c, x, y);
            }
            if key(c) < key(lo.0) {
                lo = (c, x, y);
            }
        }
    }
    let line = |(c, x, y): ([u8; 4], usize, usize)| {
        let v = rgbe_to_float(c);
        let e = |k: usize| daylit_radfile::printf::c_exp((v[k] / scale[k]) as f64, 2);
        format!("{x} {y}\t{} {} {}\n", e(0), e(1), e(2))
    };
    crate::output::print(&(line(lo) + &line(hi)))?;
    Ok(ExitCode::SUCCESS)
}
