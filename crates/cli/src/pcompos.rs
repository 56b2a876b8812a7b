//! `pcompos`: RADIANCE's picture compositor with RADIANCE's arguments. Pictures are placed
//! at `x y` (lower-left corners, y up; `=+-` anchors before a file) or in rows of `-a N`
//! columns (`-s` spacing, `-o` origin) over a `-b r g b` background, to `-x`/`-y` size or
//! the extent of the pictures. Later pictures cover earlier ones. The header holds each
//! input's header indented under its name (`-h` leaves them out), the command line and the
//! shared exposure. A picture may carry a label (`-l text`, or its file name with `-la`),
//! drawn as RADIANCE's pcompos draws it through psign (`-lh` high, across the picture's top),
//! and thresholds (`-t min`, `+t max`): only its pixels brighter than min and darker than max
//! are placed.

use anyhow::{bail, Context};
use daylit_image::font::Font;
use daylit_image::hdr::float_to_rgbe;
use daylit_image::sign::Sign;
use daylit_image::HdrImage;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: pcompos [-h][-x xres][-y yres][-b r g b][-a n [-s N][-o x0 y0]] \
[=SS] pic1 x1 y1 [=SS] pic2 x2 y2 ..";

/// One input and where its lower-left corner goes.
struct Placed {
    name: String,
    image: HdrImage,
    x: i64,
    y: i64,
    /// Brightness limits: a pixel is placed only above `min` and below `max`.
    min: Option<f64>,
    max: Option<f64>,
    /// A label drawn by psign, not a picture read (no header echoed, no exposure).
    label: bool,
}

impl Placed {
    /// Is pixel `c` of row `row` within the thresholds? Brightness as RADIANCE's pcompos
    /// measures it, on the pixel's stored mantissas.
    fn passes(&self, c: usize, row: usize) -> bool {
        if self.min.is_none() && self.max.is_none() {
            return true;
        }
        let v = float_to_rgbe(self.image.get(c, row));
        let bright = if v[3] == 0 {
            0.0
        } else {
            let b = (68 * v[0] as u32 + 172 * v[1] as u32 + 17 * v[2] as u32) >> 8;
            b as f64 * 2f64.powi(v[3] as i32 - 136)
        };
        self.min.is_none_or(|m| bright > m) && self.max.is_none_or(|m| bright < m)
    }
}

/// A label as RADIANCE's pcompos asks psign for it: black on white, squeezed spacing,
/// aspect 2, fitted into `width` × `height` pixels.
fn label(text: &str, width: i64, height: i64) -> anyhow::Result<HdrImage> {
    let font_path = daylit_cal::RayPath::from_env()
        .find("helvet.fnt")
        .context("cannot find font file \"helvet.fnt\" in the RAYPATH for the labels")?;
    let font = Font::load(&font_path).map_err(|e| anyhow::anyhow!("{e}"))?;
    // RADIANCE passes at most 90 bytes of the label to psign.
    let bytes = text.as_bytes();
    let text = &bytes[..bytes.len().min(90)];
    let sign = Sign {
        spacing: -0.15,
        aspect: 2.0,
        width,
        height,
        ..Sign::default()
    };
    sign.draw(&font, &[text.to_vec()])
        .map_err(|e| anyhow::anyhow!("label \"{}\": {e}", String::from_utf8_lossy(text)))
}

fn int(args: &[String], k: usize, what: &str) -> anyhow::Result<i64> {
    let w = args
        .get(k)
        .with_context(|| format!("pcompos: {what} missing ({USAGE})"))?;
    w.parse()
        .with_context(|| format!("pcompos: {what} {w}: a whole number expected"))
}

fn load(spec: &str) -> anyhow::Result<(String, HdrImage)> {
    let (name, bytes) = crate::input::read_operand("pcompos", spec)?;
    let img = HdrImage::decode(&bytes, &name).map_err(|e| anyhow::anyhow!("pcompos: {e}"))?;
    Ok((name, img))
}

/// `pcompos` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (mut xsize, mut ysize) = (0i64, 0i64);
    let mut background = [0.0f32; 3];
    let (mut columns, mut spacing, mut x0, mut y0) = (0i64, 0i64, 0i64, 0i64);
    let mut echo_header = true;
    let (mut autolabel, mut label_height) = (false, 24i64);
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        match a {
            "-h" => echo_header = !echo_header,
            "-x" => {
                xsize = int(args, i + 1, "-x")?;
                i += 1;
            }
            "-y" => {
                ysize = int(args, i + 1, "-y")?;
                i += 1;
            }
            "-a" => {
                columns = int(args, i + 1, "-a")?;
                i += 1;
            }
            "-s" => {
                spacing = int(args, i + 1, "-s")?;
                i += 1;
            }
            "-o" => {
                x0 = int(args, i + 1, "-o x")?;
                y0 = int(args, i + 2, "-o y")?;
                i += 2;
            }
            "-b" => {
                for (k, c) in background.iter_mut().enumerate() {
                    let w = args
                        .get(i + 1 + k)
                        .with_context(|| format!("pcompos: -b needs r g b ({USAGE})"))?;
                    *c = w
                        .parse()
                        .with_context(|| format!("pcompos: -b {w}: a number expected"))?;
                }
                i += 3;
            }
            "-la" => autolabel = true,
            "-lh" => {
                label_height = int(args, i + 1, "-lh")?;
                i += 1;
            }
            // A picture's own label or threshold: the pictures start here.
            "-l" => break,
            _ if a.starts_with("-t") => break,
            _ => bail!("pcompos: unknown option {a} ({USAGE})"),
        }
        i += 1;
    }
    let mut placed: Vec<Placed> = Vec::new();
    let (mut curx, mut cury, mut col) = (x0, y0, 0i64);
    let (mut xmax, mut ymax) = (0i64, 0i64);
    while i < args.len() {
        let mut anchor = (b'-', b'-');
        let (mut min, mut max, mut text) = (None, None, None);
        while i < args.len() && args[i].len() > 1 && args[i].starts_with(['-', '+', '=']) {
            let a = args[i].as_bytes();
            match (a[0], a.get(1).copied(), a.get(2).copied()) {
                (b'=', Some(x @ (b'+' | b'-' | b'0')), Some(y @ (b'+' | b'-' | b'0'))) => {
                    anchor = (x, y)
                }
                (b'-' | b'+', Some(b't'), _) => {
                    let w = args
                        .get(i + 1)
                        .with_context(|| format!("pcompos: {} needs a value", args[i]))?;
                    let v: f64 = w
                        .parse()
                        .with_context(|| format!("pcompos: {} {w}: a number expected", args[i]))?;
                    if a[0] == b'-' {
                        min = Some(v);
                    } else {
                        max = Some(v);
                    }
                    i += 1;
                }
                (b'-', Some(b'l'), None) => {
                    text = Some(
                        args.get(i + 1)
                            .with_context(|| format!("pcompos: -l needs a label ({USAGE})"))?
                            .clone(),
                    );
                    i += 1;
                }
                _ => bail!("pcompos: bad argument {} ({USAGE})", args[i]),
            }
            i += 1;
        }
        let spec = args
            .get(i)
            .with_context(|| format!("pcompos: picture missing ({USAGE})"))?;
        if autolabel && text.is_none() {
            text = Some(spec.clone());
        }
        let (name, image) = load(spec)?;
        i += 1;
        let (w, h) = (image.width as i64, image.height as i64);
        let (x, y) = if columns != 0 {
            if col >= columns.abs() {
                cury = ymax + spacing;
                curx = x0;
                col = 0;
            }
            let at = (curx, cury);
            curx += w + spacing;
            col += 1;
            at
        } else {
            let mut x = int(args, i, "x position")?;
            let mut y = int(args, i + 1, "y position")?;
            i += 2;
            let shift = |v: &mut i64, s: u8, size: i64| match s {
                b'+' => *v -= size,
                b'0' => *v -= size / 2,
                _ => {}
            };
            shift(&mut x, anchor.0, w);
            shift(&mut y, anchor.1, h);
            (x, y)
        };
        xmax = xmax.max(x + w);
        ymax = ymax.max(y + h);
        let xres = image.width as i64;
        let yres = image.height as i64;
        placed.push(Placed {
            name,
            image,
            x,
            y,
            min,
            max,
            label: false,
        });
        if let Some(text) = text {
            let image = label(&text, xres, label_height).context("pcompos")?;
            let ly = y + yres - image.height as i64;
            placed.push(Placed {
                name: String::new(),
                image,
                x,
                y: ly,
                min: None,
                max: None,
                label: true,
            });
        }
    }
    if placed.is_empty() {
        bail!("pcompos: no pictures given ({USAGE})");
    }
    if xsize <= 0 {
        xsize = xmax;
    }
    if ysize <= 0 {
        ysize = ymax;
    } else {
        ymax = ymax.max(ysize);
    }
    if columns < 0 {
        for p in &mut placed {
            p.y = ymax - p.image.height as i64 - p.y;
        }
    }
    if xsize <= 0 || ysize <= 0 {
        bail!("pcompos: empty output picture ({xsize}x{ysize})");
    }
    let mut out = HdrImage::new(xsize as usize, ysize as usize);
    out.pixels.fill(background);
    out.header = daylit_radfile::header::date_lines().to_vec();
    let mut exposure: Option<f64> = None;
    for (k, p) in placed.iter().filter(|p| !p.label).enumerate() {
        if echo_header {
            out.header.push(format!("{}:", p.name));
            out.header
                .extend(p.image.header.iter().map(|l| format!("\t{l}")));
        }
        let e = p.image.exposure;
        exposure = match (k, exposure) {
            (0, _) => Some(e),
            (_, Some(c)) if c > 0.0 && (e / c - 1.0).abs() <= 0.02 => Some(c),
            _ => Some(0.0),
        };
    }
    for p in &placed {
        // Row 0 of a picture is its top; y counts up from the bottom of the output.
        for row in 0..p.image.height {
            let oy = ysize - 1 - (p.y + (p.image.height - 1 - row) as i64);
            if !(0..ysize).contains(&oy) {
                continue;
            }
            for c in 0..p.image.width {
                let ox = p.x + c as i64;
                if (0..xsize).contains(&ox) && p.passes(c, row) {
                    out.set(ox as usize, oy as usize, p.image.get(c, row));
                }
            }
        }
    }
    out.header
        .push(daylit_radfile::header::command_line("pcompos", args));
    if let Some(e) = exposure.filter(|&e| e > 0.0) {
        out.header
            .push(format!("EXPOSURE={}", crate::pfilt::format_e4(e)));
    }
    let mut so = std::io::stdout().lock();
    match so.write_all(&out.encode(true)).and_then(|_| so.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("pcompos"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
