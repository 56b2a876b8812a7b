//! RGBE pictures (`.hdr`, `.pic`): RADIANCE's picture format.
//!
//! A file is a text header (first line `#?PROGRAM`, then `NAME=value` lines and free text,
//! ended by an empty line), a resolution line such as `-Y 480 +X 640`, then scanlines of
//! 4-byte pixels: three mantissas sharing one exponent byte (value = (m + 0.5) · 2^(e − 136)).
//! A scanline is either flat (possibly with old-style `1 1 1 n` repeat pixels) or, for widths
//! 8..=32767, new-style run-length encoded: `2 2 hi lo`, then each of the four byte planes as
//! runs (`128 + n`, byte) and literals (`n`, n bytes).
//!
//! Values are kept as the file holds them; [`HdrImage::radiance`] divides by the cumulative
//! `EXPOSURE=` to give RADIANCE's radiance, [`HdrImage::luminance`] multiplies by 179 lm/W.

use std::fmt::Write as _;
use std::path::Path;

/// Luminance in cd/m² of a RADIANCE RGB radiance: 179 × (0.265 R + 0.670 G + 0.065 B).
pub fn luminance_of(rgb: [f32; 3]) -> f64 {
    179.0 * (0.265 * rgb[0] as f64 + 0.670 * rgb[1] as f64 + 0.065 * rgb[2] as f64)
}

/// What went wrong with a picture, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: {what}")]
    Bad { file: String, what: String },
}

fn bad(file: &str, what: impl Into<String>) -> ImageError {
    ImageError::Bad {
        file: file.to_string(),
        what: what.into(),
    }
}

/// The pixel encoding named by `FORMAT=`. Only RGBE is read; XYZE is rejected by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Rgbe,
}

/// Largest header accepted (RADIANCE headers collect command history, but not megabytes).
const MAX_HEADER: usize = 4 << 20;
/// Largest picture accepted, in pixels, and largest side (a few bytes of old-style runs can
/// claim a whole scanline, so these bound what a small hostile file can make us allocate).
const MAX_PIXELS: usize = 1 << 26;
const MAX_SIDE: usize = 1 << 20;

/// A RADIANCE picture in memory: pixels top row first, as the file stores them (not divided by
/// the exposure).
#[derive(Debug, Clone, PartialEq)]
pub struct HdrImage {
    pub width: usize,
    pub height: usize,
    /// Row-major, row 0 at the top.
    pub pixels: Vec<[f32; 3]>,
    /// Text after `#?` on the first line (usually `RADIANCE`).
    pub program: String,
    /// Header lines other than the first, `FORMAT=` and the empty line, in order.
    pub header: Vec<String>,
    /// Product of all `EXPOSURE=` values (1 when there are none).
    pub exposure: f64,
    /// The last `VIEW=` line's value, as written.
    pub view: Option<String>,
}

impl HdrImage {
    /// A black picture with no header lines.
    pub fn new(width: usize, height: usize) -> HdrImage {
        HdrImage {
            width,
            height,
            pixels: vec![[0.0; 3]; width * height],
            program: "RADIANCE".into(),
            header: Vec::new(),
            exposure: 1.0,
            view: None,
        }
    }

    /// The stored value at `(col, row)`, row 0 at the top.
    pub fn get(&self, col: usize, row: usize) -> [f32; 3] {
        self.pixels[row * self.width + col]
    }

    pub fn set(&mut self, col: usize, row: usize, v: [f32; 3]) {
        self.pixels[row * self.width + col] = v;
    }

    /// RADIANCE radiance (W/sr/m² per channel): the stored value divided by the exposure.
    pub fn radiance(&self, col: usize, row: usize) -> [f32; 3] {
        let p = self.get(col, row);
        let e = self.exposure as f32;
        [p[0] / e, p[1] / e, p[2] / e]
    }

    /// Luminance (cd/m²) of a pixel: 179 × (0.265 R + 0.670 G + 0.065 B) of its radiance.
    pub fn luminance(&self, col: usize, row: usize) -> f64 {
        luminance_of(self.get(col, row)) / self.exposure
    }

    /// Luminance of every pixel, row 0 at the top.
    pub fn luminance_image(&self) -> Vec<f64> {
        self.pixels
            .iter()
            .map(|&p| luminance_of(p) / self.exposure)
            .collect()
    }

    /// The picture's view: every `VIEW=` line applied in order over RADIANCE's default view,
    /// as RADIANCE reads a picture's view; `None` when the header has none.
    pub fn parsed_view(&self) -> Result<Option<crate::View>, crate::ViewError> {
        let mut v = crate::View::default();
        let mut any = false;
        for l in &self.header {
            if let Some(s) = l.trim_start().strip_prefix("VIEW=") {
                v.apply(s)?;
                any = true;
            }
        }
        Ok(any.then_some(v))
    }

    /// The pixel aspect ratio (height over width of a pixel): the product of every
    /// `PIXASPECT=` value in the header, 1 when there is none, as RADIANCE reads it. `None`
    /// when a value is not a positive number.
    pub fn pixel_aspect(&self) -> Option<f64> {
        let mut a = 1.0;
        for l in &self.header {
            if let Some(v) = l.trim_start().strip_prefix("PIXASPECT=") {
                let v: f64 = v.trim().parse().ok()?;
                if !(v.is_finite() && v > 0.0) {
                    return None;
                }
                a *= v;
            }
        }
        Some(a)
    }

    /// Reads a picture file.
    pub fn read(path: &Path) -> Result<HdrImage, ImageError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ImageError::Io {
            file: name.clone(),
            source,
        })?;
        HdrImage::decode(&bytes, &name)
    }

    /// Decodes a picture from bytes; `file` names it in errors.
    pub fn decode(bytes: &[u8], file: &str) -> Result<HdrImage, ImageError> {
        let mut pos = 0usize;
        let mut line_no = 0usize;
        let mut img = HdrImage::new(0, 0);
        loop {
            let Some(end) = bytes[pos..].iter().position(|&b| b == b'\n') else {
                return Err(bad(file, "header not ended by an empty line"));
            };
            if pos + end > MAX_HEADER {
                return Err(bad(file, "header longer than 4 MiB"));
            }
            let raw = &bytes[pos..pos + end];
            pos += end + 1;
            line_no += 1;
            let line = String::from_utf8_lossy(raw);
            let line = line.trim_end_matches('\r');
            if line_no == 1 {
                match line.strip_prefix("#?") {
                    Some(p) => {
                        img.program = p.to_string();
                        continue;
                    }
                    None => {
                        return Err(bad(
                            file,
                            "not a RADIANCE picture: first line does not start with \"#?\"",
                        ))
                    }
                }
            }
            if line.trim().is_empty() {
                break;
            }
            let t = line.trim_start();
            if let Some(v) = t.strip_prefix("FORMAT=") {
                let v = v.trim();
                if v != "32-bit_rle_rgbe" {
                    return Err(bad(
                        file,
                        format!("unsupported FORMAT={v} (only 32-bit_rle_rgbe is read)"),
                    ));
                }
            } else if let Some(v) = t.strip_prefix("EXPOSURE=") {
                let e: f64 = v.trim().parse().map_err(|_| {
                    bad(
                        file,
                        format!("header line {line_no}: bad EXPOSURE={}", v.trim()),
                    )
                })?;
                if !(e.is_finite() && e > 0.0) {
                    return Err(bad(
                        file,
                        format!("header line {line_no}: EXPOSURE={e} is not positive"),
                    ));
                }
                img.exposure *= e;
                img.header.push(line.to_string());
            } else {
                if let Some(v) = t.strip_prefix("VIEW=") {
                    img.view = Some(v.trim().to_string());
                }
                img.header.push(line.to_string());
            }
        }
        let raw = read_raw_pixels(bytes, pos, file)?;
        let layout = &raw.layout;
        let (w, h) = (layout.width, layout.height);
        img.width = w;
        img.height = h;
        let mut pixels = vec![[0.0f32; 3]; w * h];
        for (s, scan) in raw.scans.iter().enumerate() {
            for (i, &c) in scan.iter().enumerate() {
                let (col, row) = layout.place(s, i);
                pixels[row * w + col] = rgbe_to_float(c);
            }
        }
        img.pixels = pixels;
        Ok(img)
    }

    /// Writes the picture (header, `FORMAT=`, standard `-Y H +X W` orientation), run-length
    /// encoded when `rle`, as RADIANCE 6.0a writes pictures: the resolution line's numbers
    /// padded to 8 columns (`-Y        7 +X        9`), scanlines of 17 to 32767 pixels
    /// encoded, shorter and longer ones flat.
    pub fn encode(&self, rle: bool) -> Vec<u8> {
        let mut head = format!("#?{}\n", self.program);
        for l in &self.header {
            if !l.trim_start().starts_with("FORMAT=") {
                let _ = writeln!(head, "{l}");
            }
        }
        head.push_str("FORMAT=32-bit_rle_rgbe\n\n");
        let mut out = head.into_bytes();
        self.encode_pixels(rle, &mut out);
        out
    }

    /// Appends what follows a picture's header, as [`HdrImage::encode`] writes it: the
    /// resolution line and the scanlines. For writers whose header is not this picture's (a
    /// stream of frames).
    pub fn encode_pixels(&self, rle: bool, out: &mut Vec<u8>) {
        out.extend_from_slice(format!("-Y {:8} +X {:8}\n", self.height, self.width).as_bytes());
        self.encode_scanlines(rle, out);
    }

    /// Appends the scanlines alone, top row first.
    pub fn encode_scanlines(&self, rle: bool, out: &mut Vec<u8>) {
        for row in 0..self.height {
            let line: Vec<[u8; 4]> = self.pixels[row * self.width..(row + 1) * self.width]
                .iter()
                .map(|&p| float_to_rgbe(p))
                .collect();
            write_scanline(&line, rle, out);
        }
    }

    /// Writes the picture to a file (see [`HdrImage::encode`]).
    pub fn write(&self, path: &Path, rle: bool) -> Result<(), ImageError> {
        std::fs::write(path, self.encode(rle)).map_err(|source| ImageError::Io {
            file: path.display().to_string(),
            source,
        })
    }
}

/// A picture's pixel data as stored: the resolution line and the RGBE quads of each
/// scanline in file order, for programs that pass pictures through (ra_rgbe).
pub struct RawPixels {
    /// The resolution line, without its newline (any orientation).
    pub resolution: String,
    /// Scanlines in file order.
    pub scans: Vec<Vec<[u8; 4]>>,
    /// Offset just past the data.
    pub end: usize,
    /// Where each scanline's pixels go.
    layout: Layout,
}

/// Reads the resolution line at `pos` and the scanlines after it (flat or run-length
/// encoded); `file` names the input in errors.
pub fn read_raw_pixels(bytes: &[u8], pos: usize, file: &str) -> Result<RawPixels, ImageError> {
    let rest = bytes.get(pos..).unwrap_or(&[]);
    let Some(end) = rest.iter().take(256).position(|&b| b == b'\n') else {
        return Err(bad(file, "missing resolution line after the header"));
    };
    let resolution = String::from_utf8_lossy(&rest[..end]).to_string();
    let layout = Layout::parse(&resolution).ok_or_else(|| {
        bad(
            file,
            format!(
                "bad resolution line {:?} (expected e.g. \"-Y 480 +X 640\")",
                resolution.trim()
            ),
        )
    })?;
    let mut at = pos + end + 1;
    let mut scans = Vec::with_capacity(layout.scans.min(bytes.len()));
    for s in 0..layout.scans {
        let mut scan = vec![[0u8; 4]; layout.scan_len];
        at = read_scanline(bytes, at, &mut scan)
            .map_err(|what| bad(file, format!("scanline {s} of {}: {what}", layout.scans)))?;
        scans.push(scan);
    }
    Ok(RawPixels {
        resolution,
        scans,
        end: at,
        layout,
    })
}

/// Appends one scanline as RADIANCE 6.0a writes it: run-length encoded when `rle` and the line
/// holds 17 to 32767 pixels, flat otherwise.
pub fn write_scanline(line: &[[u8; 4]], rle: bool, out: &mut Vec<u8>) {
    if rle && (17..=0x7fff).contains(&line.len()) {
        write_rle_scanline(line, out);
    } else {
        for p in line {
            out.extend_from_slice(p);
        }
    }
}

/// Orientation from the resolution line: the first axis is the slow (scanline) one.
#[derive(Debug, Clone, Copy)]
struct Layout {
    width: usize,
    height: usize,
    scans: usize,
    scan_len: usize,
    /// Scanlines run along y (standard) rather than along x.
    y_major: bool,
    /// Sign of the slow and fast axes ('+' = increasing).
    slow_inc: bool,
    fast_inc: bool,
}

impl Layout {
    fn parse(s: &str) -> Option<Layout> {
        let w: Vec<&str> = s.split_whitespace().collect();
        if w.len() != 4 {
            return None;
        }
        let axis = |t: &str| -> Option<(bool, char)> {
            let mut c = t.chars();
            let sign = match c.next()? {
                '+' => true,
                '-' => false,
                _ => return None,
            };
            let a = c.next()?;
            (c.next().is_none() && (a == 'X' || a == 'Y')).then_some((sign, a))
        };
        let (s1, a1) = axis(w[0])?;
        let (s2, a2) = axis(w[2])?;
        if a1 == a2 {
            return None;
        }
        let n1: usize = w[1].parse().ok()?;
        let n2: usize = w[3].parse().ok()?;
        if n1 == 0 || n2 == 0 || n1.max(n2) > MAX_SIDE || n1.checked_mul(n2)? > MAX_PIXELS {
            return None;
        }
        let y_major = a1 == 'Y';
        let (width, height) = if y_major { (n2, n1) } else { (n1, n2) };
        Some(Layout {
            width,
            height,
            scans: n1,
            scan_len: n2,
            y_major,
            slow_inc: s1,
            fast_inc: s2,
        })
    }

    /// (col, row-from-top) of the `i`th pixel of scanline `s`.
    fn place(&self, s: usize, i: usize) -> (usize, usize) {
        // In RADIANCE coordinates y grows upwards, so '+Y' starts at the bottom row.
        let along = |inc: bool, k: usize, n: usize, is_y: bool| -> usize {
            let up = if inc { k } else { n - 1 - k };
            if is_y {
                n - 1 - up
            } else {
                up
            }
        };
        if self.y_major {
            let row = along(self.slow_inc, s, self.height, true);
            let col = along(self.fast_inc, i, self.width, false);
            (col, row)
        } else {
            let col = along(self.slow_inc, s, self.width, false);
            let row = along(self.fast_inc, i, self.height, true);
            (col, row)
        }
    }
}

/// RGBE pixel to floats: (m + 0.5) · 2^(e − 136); exponent 0 is black.
pub fn rgbe_to_float(c: [u8; 4]) -> [f32; 3] {
    if c[3] == 0 {
        return [0.0; 3];
    }
    let f = 2f64.powi(c[3] as i32 - 136);
    [
        ((c[0] as f64 + 0.5) * f) as f32,
        ((c[1] as f64 + 0.5) * f) as f32,
        ((c[2] as f64 + 0.5) * f) as f32,
    ]
}

/// Floats to an RGBE pixel: the largest channel sets the shared exponent; negative values and
/// values below 1e-32 become 0.
pub fn float_to_rgbe(p: [f32; 3]) -> [u8; 4] {
    let v = [
        p[0].max(0.0) as f64,
        p[1].max(0.0) as f64,
        p[2].max(0.0) as f64,
    ];
    let m = v[0].max(v[1]).max(v[2]);
    if m.is_nan() || m <= 1e-32 {
        return [0; 4];
    }
    if !m.is_finite() || m >= 2f64.powi(127) {
        return [255, 255, 255, 255];
    }
    // m = f · 2^e with f in [0.5, 1)
    let e = m.log2().floor() as i32 + 1;
    let mut e = e;
    let mut scale = 2f64.powi(8 - e);
    if m * scale >= 256.0 {
        e += 1;
        scale *= 0.5;
    } else if m * scale < 128.0 {
        e -= 1;
        scale *= 2.0;
    }
    if e + 128 < 1 {
        return [0; 4];
    }
    let q = |x: f64| (x * scale).min(255.0) as u8;
    [q(v[0]), q(v[1]), q(v[2]), (e + 128) as u8]
}

/// Reads one scanline into `scan`, returning the position after it.
fn read_scanline(b: &[u8], mut pos: usize, scan: &mut [[u8; 4]]) -> Result<usize, String> {
    let w = scan.len();
    let take4 = |pos: usize| -> Result<[u8; 4], String> {
        b.get(pos..pos + 4)
            .map(|s| [s[0], s[1], s[2], s[3]])
            .ok_or_else(|| "file ends inside the pixel data".to_string())
    };
    if (8..=0x7fff).contains(&w) {
        let first = take4(pos)?;
        if first[0] == 2 && first[1] == 2 && first[2] & 0x80 == 0 {
            let n = ((first[2] as usize) << 8) | first[3] as usize;
            if n != w {
                return Err(format!(
                    "run-length scanline says width {n}, resolution line says {w}"
                ));
            }
            pos += 4;
            for c in 0..4 {
                let mut i = 0;
                while i < w {
                    let code = *b.get(pos).ok_or("file ends inside a run-length scanline")?;
                    pos += 1;
                    if code > 128 {
                        let n = (code - 128) as usize;
                        let v = *b.get(pos).ok_or("file ends inside a run")?;
                        pos += 1;
                        if i + n > w {
                            return Err("run overruns the scanline".into());
                        }
                        for p in &mut scan[i..i + n] {
                            p[c] = v;
                        }
                        i += n;
                    } else {
                        let n = code as usize;
                        if n == 0 {
                            return Err("zero-length literal in run-length data".into());
                        }
                        if i + n > w {
                            return Err("literal overruns the scanline".into());
                        }
                        let src = b
                            .get(pos..pos + n)
                            .ok_or("file ends inside a literal run")?;
                        for (p, &v) in scan[i..i + n].iter_mut().zip(src) {
                            p[c] = v;
                        }
                        pos += n;
                        i += n;
                    }
                }
            }
            return Ok(pos);
        }
    }
    // Flat pixels, with old-style repeats (1 1 1 n: repeat the previous pixel n << shift times).
    let mut i = 0;
    let mut shift = 0u32;
    while i < w {
        let p = take4(pos)?;
        pos += 4;
        if p[0] == 1 && p[1] == 1 && p[2] == 1 {
            if i == 0 {
                return Err("old-style run at the start of a scanline".into());
            }
            if shift > 16 {
                return Err("old-style run count too large".into());
            }
            let n = (p[3] as usize) << shift;
            if i + n > w {
                return Err("old-style run overruns the scanline".into());
            }
            let prev = scan[i - 1];
            for q in &mut scan[i..i + n] {
                *q = prev;
            }
            i += n;
            shift += 8;
        } else {
            scan[i] = p;
            i += 1;
            shift = 0;
        }
    }
    Ok(pos)
}

/// New-style run-length encoding of one scanline (runs of 4 or more equal bytes).
fn write_rle_scanline(line: &[[u8; 4]], out: &mut Vec<u8>) {
    let w = line.len();
    out.extend_from_slice(&[2, 2, (w >> 8) as u8, (w & 0xff) as u8]);
    const MINRUN: usize = 4;
    for c in 0..4 {
        let v: Vec<u8> = line.iter().map(|p| p[c]).collect();
        let mut i = 0;
        while i < w {
            // Find the next run of at least MINRUN starting at or after i.
            let mut j = i;
            let mut run = 0;
            while j < w {
                run = 1;
                while j + run < w && run < 127 && v[j + run] == v[j] {
                    run += 1;
                }
                if run >= MINRUN {
                    break;
                }
                j += run;
                run = 0;
            }
            let lit_end = j.min(w);
            let mut k = i;
            // Two or three equal values before it are written as a short run, as RADIANCE
            // does (the bytes then match its pictures).
            let short = lit_end - i;
            if (2..MINRUN).contains(&short) && v[i..lit_end].iter().all(|&x| x == v[i]) {
                out.push(128 + short as u8);
                out.push(v[i]);
                k = lit_end;
            }
            // Literals before the run.
            while k < lit_end {
                let n = (lit_end - k).min(128);
                out.push(n as u8);
                out.extend_from_slice(&v[k..k + n]);
                k += n;
            }
            if run >= MINRUN {
                out.push(128 + run as u8);
                out.push(v[j]);
                i = j + run;
            } else {
                i = lit_end;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn pixel_aspect_multiplies_header_values() {
        let mut img = HdrImage::new(2, 2);
        assert_eq!(img.pixel_aspect(), Some(1.0));
        img.header.push("PIXASPECT= 0.5".into());
        img.header.push("PIXASPECT=3".into());
        let back = HdrImage::decode(&img.encode(true), "t").unwrap();
        assert_eq!(back.pixel_aspect(), Some(1.5));
        img.header.push("PIXASPECT= x".into());
        assert_eq!(img.pixel_aspect(), None);
    }

    fn sample(w: usize, h: usize) -> HdrImage {
        let mut img = HdrImage::new(w, h);
        for r in 0..h {
            for c in 0..w {
                let v = if c % 5 < 3 {
                    1.0
                } else {
                    (c * 7 + r * 3) as f32 * 0.37
                };
                img.set(c, r, [v, v * 0.5, 0.01 * (r + 1) as f32]);
            }
        }
        img.header.push("VIEW= -vta -vh 180 -vv 180".into());
        img.view = Some("-vta -vh 180 -vv 180".into());
        img
    }

    fn quantized(img: &HdrImage) -> Vec<[f32; 3]> {
        img.pixels
            .iter()
            .map(|&p| rgbe_to_float(float_to_rgbe(p)))
            .collect()
    }

    #[test]
    fn rgbe_round_trip_within_one_mantissa_step() {
        for &x in &[1e-20f32, 0.001, 0.5, 1.0, 1.5, 255.9, 256.0, 1e10] {
            let c = float_to_rgbe([x, x * 0.25, 0.0]);
            let y = rgbe_to_float(c);
            assert!((y[0] - x).abs() <= x / 128.0, "{x} -> {c:?} -> {y:?}");
            assert!(c[0] >= 128);
        }
        assert_eq!(float_to_rgbe([0.0, 0.0, 0.0]), [0, 0, 0, 0]);
        assert_eq!(float_to_rgbe([1.0, 0.0, 0.0]), [128, 0, 0, 129]);
    }

    #[test]
    fn flat_and_rle_round_trip() {
        for &(w, h) in &[(3, 2), (8, 1), (40, 7), (300, 3)] {
            let img = sample(w, h);
            for rle in [false, true] {
                let bytes = img.encode(rle);
                let back = HdrImage::decode(&bytes, "mem").unwrap();
                assert_eq!((back.width, back.height), (w, h));
                assert_eq!(back.pixels, quantized(&img));
                assert_eq!(back.view.as_deref(), Some("-vta -vh 180 -vv 180"));
            }
        }
        let mut flat = HdrImage::new(300, 2);
        flat.pixels.iter_mut().for_each(|p| *p = [0.5, 0.25, 2.0]);
        let (a, b) = (flat.encode(true), flat.encode(false));
        assert!(a.len() * 10 < b.len());
        assert_eq!(
            HdrImage::decode(&a, "mem").unwrap().pixels,
            quantized(&flat)
        );
    }

    #[test]
    fn exposure_is_cumulative_and_divided_out() {
        let mut b =
            b"#?RADIANCE\nEXPOSURE=2\nEXPOSURE= 0.5e1\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n"
                .to_vec();
        b.extend_from_slice(&[128, 128, 128, 129]); // (1,1,1) stored
        let img = HdrImage::decode(&b, "mem").unwrap();
        assert_eq!(img.exposure, 10.0);
        let r = img.radiance(0, 0);
        assert!((r[0] - (128.5 / 128.0) / 10.0).abs() < 1e-7);
        let l = img.luminance(0, 0);
        assert!((l - 179.0 * (128.5 / 128.0) / 10.0).abs() < 1e-9);
    }

    #[test]
    fn orientations() {
        // 2 wide, 3 high; values = 10 * row + col in (col,row-from-top).
        let val = |c: usize, r: usize| (10 * r + c + 1) as f32;
        type Place = fn(usize, usize) -> (usize, usize);
        let cases: [(&str, Place); 8] = [
            ("-Y 3 +X 2", |s, i| (i, s)),
            ("+Y 3 +X 2", |s, i| (i, 2 - s)),
            ("-Y 3 -X 2", |s, i| (1 - i, s)),
            ("+Y 3 -X 2", |s, i| (1 - i, 2 - s)),
            ("+X 2 -Y 3", |s, i| (s, i)),
            ("+X 2 +Y 3", |s, i| (s, 2 - i)),
            ("-X 2 -Y 3", |s, i| (1 - s, i)),
            ("-X 2 +Y 3", |s, i| (1 - s, 2 - i)),
        ];
        for (res, place) in cases {
            let mut b = format!("#?RADIANCE\n\n{res}\n").into_bytes();
            let (ns, nl) = if res.contains('Y') && res.find('Y') < res.find('X') {
                (3, 2)
            } else {
                (2, 3)
            };
            for s in 0..ns {
                for i in 0..nl {
                    let (c, r) = place(s, i);
                    b.extend_from_slice(&float_to_rgbe([val(c, r), 0.0, 0.0]));
                }
            }
            let img = HdrImage::decode(&b, "mem").unwrap();
            assert_eq!((img.width, img.height), (2, 3), "{res}");
            for r in 0..3 {
                for c in 0..2 {
                    let got = img.get(c, r)[0];
                    assert!((got - val(c, r)).abs() < 0.1, "{res}: ({c},{r}) {got}");
                }
            }
        }
    }

    #[test]
    fn old_style_runs() {
        let mut b = b"#?RADIANCE\n\n-Y 1 +X 6\n".to_vec();
        b.extend_from_slice(&[128, 0, 0, 129, 1, 1, 1, 3, 64, 64, 64, 129, 1, 1, 1, 1]);
        let img = HdrImage::decode(&b, "mem").unwrap();
        assert_eq!(img.get(3, 0)[0], img.get(0, 0)[0]);
        assert_eq!(img.get(5, 0), img.get(4, 0));
    }

    #[test]
    fn errors_name_the_file_and_problem() {
        let cases: [(&[u8], &str); 7] = [
            (b"P6\n", "first line"),
            (b"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n", "xyze"),
            (b"#?RADIANCE\nEXPOSURE=abc\n\n-Y 1 +X 1\n", "EXPOSURE"),
            (b"#?RADIANCE\n\n-Y 1 X 1\n", "resolution"),
            (b"#?RADIANCE\n\n-Y 2 +X 2\n\x80\x80\x80\x81", "ends"),
            (b"#?RADIANCE\n", "empty line"),
            (b"#?RADIANCE\n\n-Y 1 +X 8\n\x02\x02\x00\x09", "width 9"),
        ];
        for (bytes, want) in cases {
            let e = HdrImage::decode(bytes, "x.hdr").unwrap_err().to_string();
            assert!(e.starts_with("x.hdr: "), "{e}");
            assert!(e.contains(want), "{e} lacks {want}");
        }
    }

    #[test]
    fn mutation_fuzz_never_panics() {
        let base = [sample(40, 5).encode(true), sample(9, 3).encode(false)];
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for round in 0..20_000 {
            let mut b = base[round % 2].clone();
            for _ in 0..rng.random_range(1..6) {
                match rng.random_range(0..4) {
                    0 => {
                        let i = rng.random_range(0..b.len());
                        b[i] = rng.random();
                    }
                    1 => {
                        let n = rng.random_range(0..b.len());
                        b.truncate(n);
                    }
                    2 => {
                        let i = rng.random_range(0..=b.len());
                        b.insert(i, rng.random());
                    }
                    _ => {
                        if !b.is_empty() {
                            let i = rng.random_range(0..b.len());
                            b.remove(i);
                        }
                    }
                }
                if b.is_empty() {
                    break;
                }
            }
            if let Ok(img) = HdrImage::decode(&b, "fuzz") {
                assert_eq!(img.pixels.len(), img.width * img.height);
            }
        }
    }
}
