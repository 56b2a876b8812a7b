//! RADIANCE pictures to and from TIFF images, as RADIANCE's `ra_tiff` converts them: 8-bit
//! gamma-corrected RGB or grey (brightness), 16-bit gamma-corrected RGB or grey, 32-bit float
//! RGB or grey (linear), uncompressed or LZW; the picture's exposure goes into the TIFF's
//! STONITS tag (sample value to cd/m²) and back into an `EXPOSURE=` line. LogLuv (SGILOG)
//! TIFFs are not read or written (the `tiff` crate has no SGILOG codec): asking for them is an
//! error, never another format.

use crate::hdr::{HdrImage, ImageError};
use ::tiff::decoder::ifd::Value;
use ::tiff::decoder::{Decoder, DecodingResult};
use ::tiff::encoder::{colortype, Compression, Rational, TiffEncoder};
use ::tiff::tags::{PhotometricInterpretation, ResolutionUnit, Tag};
use ::tiff::ColorType;
use std::io::Cursor;

/// The STONITS tag: the factor from sample values to cd/m².
const STONITS: Tag = Tag::Unknown(37439);
/// RADIANCE's luminous efficacy of white light, lm/W.
const WHTEFFICACY: f64 = 179.0;

/// The sample type of a TIFF image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    /// 8 bits, gamma corrected.
    U8,
    /// 16 bits, gamma corrected (`-w`).
    U16,
    /// 32-bit IEEE float, linear (`-f`).
    F32,
}

/// How a picture becomes a TIFF.
#[derive(Clone, Copy, Debug)]
pub struct ToTiff {
    /// Sample type.
    pub sample: Sample,
    /// One grey channel (the brightness) instead of RGB (`-b`).
    pub grey: bool,
    /// LZW compression (`-z`).
    pub lzw: bool,
    /// Gamma of the integer samples (`-g`, 2.2 by default).
    pub gamma: f64,
    /// Exposure change in whole f-stops (`-e`).
    pub stops: i32,
}

fn err(file: &str, e: impl std::fmt::Display) -> ImageError {
    ImageError::Bad {
        file: file.to_string(),
        what: e.to_string(),
    }
}

/// RADIANCE's brightness of an RGB value, in single precision as it stores it.
fn bright(c: [f32; 3]) -> f32 {
    crate::color::brightness(c) as f32
}

/// A linear value as a 16-bit gamma-corrected sample, in RADIANCE's arithmetic.
fn gamma16(f: f32, inv_gamma: Option<f64>) -> u16 {
    if f <= 0.0 {
        0
    } else if f >= 1.0 {
        0xffff
    } else {
        match inv_gamma {
            Some(g) => (65536.0 * (f as f64).powf(g)) as u16,
            None => (65536.0f32 * f) as u16,
        }
    }
}

/// The TIFF of picture `img` (named `file` in errors).
pub fn encode_tiff(img: &HdrImage, o: &ToTiff, file: &str) -> Result<Vec<u8>, ImageError> {
    let (w, h) = (img.width as u32, img.height as u32);
    let m = 2f32.powi(o.stops);
    // RADIANCE keeps the gamma in single precision.
    let gamma = o.gamma as f32 as f64;
    let dogamma = !(0.99..=1.01).contains(&gamma);
    let inv = 1.0 / gamma;
    let scaled = |p: &[f32; 3]| [p[0] * m, p[1] * m, p[2] * m];
    let channels = |f: &mut dyn FnMut([f32; 3])| {
        for p in &img.pixels {
            f(scaled(p));
        }
    };
    let mut out = Cursor::new(Vec::new());
    let mut enc = TiffEncoder::new(&mut out).map_err(|e| err(file, e))?;
    if o.lzw {
        enc = enc.with_compression(Compression::Lzw);
    }
    let stonits = WHTEFFICACY / img.exposure / 2f64.powi(o.stops);
    let aspect = img.pixel_aspect().unwrap_or(1.0);
    macro_rules! write_image {
        ($ct:ty, $data:expr, $per_pixel:expr) => {{
            let data = $data;
            let mut im = enc.new_image::<$ct>(w, h).map_err(|e| err(file, e))?;
            im.resolution_unit(ResolutionUnit::Inch);
            im.x_resolution(Rational { n: 72, d: 1 });
            im.y_resolution(Rational {
                n: (72_000.0 / aspect).round() as u32,
                d: 1000,
            });
            // Rows per strip as RADIANCE picks them: about 8 kB a strip.
            let row = (w as usize * $per_pixel).max(1);
            im.rows_per_strip((8192 / row).max(1) as u32)
                .map_err(|e| err(file, e))?;
            let e = im.encoder();
            e.write_tag(Tag::Orientation, 1u16)
                .map_err(|x| err(file, x))?;
            e.write_tag(STONITS, stonits).map_err(|x| err(file, x))?;
            im.write_data(&data).map_err(|e| err(file, e))?;
        }};
    }
    match (o.sample, o.grey) {
        (Sample::U8, false) => {
            let mut d = Vec::with_capacity(img.pixels.len() * 3);
            channels(&mut |c| d.extend(c.map(|v| crate::color::gamma_byte(v, inv))));
            write_image!(colortype::RGB8, d, 3)
        }
        (Sample::U8, true) => {
            let mut d = Vec::with_capacity(img.pixels.len());
            channels(&mut |c| d.push(crate::color::gamma_byte(bright(c), inv)));
            write_image!(colortype::Gray8, d, 1)
        }
        (Sample::U16, false) => {
            let mut d = Vec::with_capacity(img.pixels.len() * 3);
            channels(&mut |c| d.extend(c.map(|v| gamma16(v, dogamma.then_some(inv)))));
            write_image!(colortype::RGB16, d, 6)
        }
        (Sample::U16, true) => {
            let mut d = Vec::with_capacity(img.pixels.len());
            channels(&mut |c| d.push(gamma16(bright(c), dogamma.then_some(inv))));
            write_image!(colortype::Gray16, d, 2)
        }
        (Sample::F32, false) => {
            let mut d = Vec::with_capacity(img.pixels.len() * 3);
            channels(&mut |c| d.extend(c));
            write_image!(colortype::RGB32Float, d, 12)
        }
        (Sample::F32, true) => {
            let mut d = Vec::with_capacity(img.pixels.len());
            channels(&mut |c| d.push(bright(c)));
            write_image!(colortype::Gray32Float, d, 4)
        }
    }
    Ok(out.into_inner())
}

/// A TIFF image as a RADIANCE picture: integer samples through the inverse gamma, floats as
/// they are, both scaled by 2^`stops`; its STONITS becomes an `EXPOSURE=` line, a pixel
/// aspect other than 1 a `PIXASPECT=` line. The picture is in standard orientation.
pub fn decode_tiff(
    bytes: &[u8],
    file: &str,
    gamma: f64,
    stops: i32,
) -> Result<HdrImage, ImageError> {
    let mut dec = Decoder::new(Cursor::new(bytes)).map_err(|e| err(file, e))?;
    let (w, h) = dec.dimensions().map_err(|e| err(file, e))?;
    let ct = dec.colortype().map_err(|e| err(file, e))?;
    let photometric = dec
        .find_tag_unsigned::<u16>(Tag::PhotometricInterpretation)
        .ok()
        .flatten();
    if matches!(photometric, Some(32844) | Some(32845)) {
        return Err(err(
            file,
            "a LogLuv (SGILOG) TIFF: daylit reads 8-bit, 16-bit and float RGB or grey TIFFs",
        ));
    }
    if photometric.is_some_and(|p| {
        p != PhotometricInterpretation::RGB.to_u16()
            && p != PhotometricInterpretation::BlackIsZero.to_u16()
    }) {
        return Err(err(
            file,
            format!("photometric type {photometric:?} (RGB or grey, black 0, are read)"),
        ));
    }
    let orientation: u16 = dec
        .find_tag_unsigned(Tag::Orientation)
        .ok()
        .flatten()
        .unwrap_or(1);
    let number = |t: Tag, dec: &mut Decoder<Cursor<&[u8]>>| match dec.find_tag(t) {
        Ok(Some(Value::Double(v))) => Some(v),
        Ok(Some(Value::Float(v))) => Some(v as f64),
        Ok(Some(Value::Rational(n, d))) if d > 0 => Some(n as f64 / d as f64),
        _ => None,
    };
    let stonits = number(STONITS, &mut dec);
    let pixrat = match (
        number(Tag::XResolution, &mut dec),
        number(Tag::YResolution, &mut dec),
    ) {
        (Some(x), Some(y)) if y > 0.0 => x / y,
        _ => 1.0,
    };
    let data = dec.read_image().map_err(|e| err(file, e))?;
    let gamma = gamma as f32 as f64;
    let dogamma = !(0.99..=1.01).contains(&gamma);
    let m = 2f64.powi(stops);
    let lin = |v: f64| if dogamma { v.powf(gamma) } else { v };
    let samples: Vec<f32> = match (&data, ct) {
        (DecodingResult::U8(d), ColorType::RGB(8) | ColorType::Gray(8)) => d
            .iter()
            .map(|&b| (crate::color::byte_linear(b, gamma) as f64 * m) as f32)
            .collect(),
        (DecodingResult::U16(d), ColorType::RGB(16) | ColorType::Gray(16)) => d
            .iter()
            .map(|&v| (lin((v as f64 + 0.5) / 65536.0) * m) as f32)
            .collect(),
        (DecodingResult::F32(d), ColorType::RGB(32) | ColorType::Gray(32)) => {
            d.iter().map(|&v| (v as f64 * m) as f32).collect()
        }
        _ => {
            return Err(err(
                file,
                format!("{ct:?} samples (8-bit, 16-bit or float RGB or grey are read)"),
            ))
        }
    };
    let (w, h) = (w as usize, h as usize);
    let grey = matches!(ct, ColorType::Gray(_));
    let per_pixel = if grey { 1 } else { 3 };
    if w.checked_mul(h).and_then(|p| p.checked_mul(per_pixel)) != Some(samples.len()) {
        return Err(err(
            file,
            format!("{w} x {h} pixels, but {} samples", samples.len()),
        ));
    }
    let mut img = HdrImage::new(w, h);
    let at = |k: usize| -> [f32; 3] {
        if grey {
            [samples[k]; 3]
        } else {
            [samples[3 * k], samples[3 * k + 1], samples[3 * k + 2]]
        }
    };
    // TIFF orientations 1-8: where stored sample (col, row) lands in the picture.
    let transposed = orientation >= 5;
    let (ow, oh) = if transposed { (h, w) } else { (w, h) };
    img.width = ow;
    img.height = oh;
    img.pixels = vec![[0.0; 3]; ow * oh];
    for row in 0..h {
        for col in 0..w {
            let (x, y) = match orientation {
                2 => (w - 1 - col, row),
                3 => (w - 1 - col, h - 1 - row),
                4 => (col, h - 1 - row),
                5 => (row, col),
                6 => (h - 1 - row, col),
                7 => (h - 1 - row, w - 1 - col),
                8 => (row, w - 1 - col),
                _ => (col, row),
            };
            img.pixels[y * ow + x] = at(row * w + col);
        }
    }
    if !(0.995..=1.005).contains(&pixrat) {
        img.header.push(format!("PIXASPECT={pixrat:.6}"));
    }
    if let Some(s) = stonits.filter(|&s| s > 0.0) {
        let e = WHTEFFICACY * m / s;
        img.header.push(format!(
            "EXPOSURE={}",
            daylit_radfile::printf::format_e(e, 4)
        ));
        img.exposure = e;
    }
    Ok(img)
}
