//! A picture being drawn: RGB pixels, row 0 at the top, with the few operations legends and
//! maps need (rectangles, outlines, text). Pixels are either 8-bit display values
//! (`[u8; 3]`, for PNG) or linear floats (`[f32; 3]`, for HDR pictures).

use crate::palette;
use crate::text;

/// A pixel that can be blended towards an ink colour.
pub trait Pixel: Copy {
    /// `self` moved towards `ink` by `alpha` (0 = unchanged, 1 = `ink`).
    fn blend(self, ink: Self, alpha: f32) -> Self;
}

impl Pixel for [u8; 3] {
    fn blend(self, ink: Self, alpha: f32) -> Self {
        let a = alpha.clamp(0.0, 1.0);
        [0, 1, 2].map(|k| {
            let old = self[k] as f32;
            (old + (ink[k] as f32 - old) * a).round() as u8
        })
    }
}

impl Pixel for [f32; 3] {
    fn blend(self, ink: Self, alpha: f32) -> Self {
        let a = alpha.clamp(0.0, 1.0);
        [0, 1, 2].map(|k| self[k] + (ink[k] - self[k]) * a)
    }
}

/// An RGB picture in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Raster<P> {
    pub width: usize,
    pub height: usize,
    /// Row-major, row 0 at the top.
    pub pixels: Vec<P>,
}

impl<P: Pixel> Raster<P> {
    /// A `width × height` picture filled with `fill`.
    pub fn new(width: usize, height: usize, fill: P) -> Raster<P> {
        Raster {
            width,
            height,
            pixels: vec![fill; width * height],
        }
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    /// The pixel at column `x`, row `y`, or `None` outside the picture.
    pub fn get(&self, x: i32, y: i32) -> Option<P> {
        self.index(x, y).map(|i| self.pixels[i])
    }

    /// Sets a pixel; outside the picture nothing happens.
    pub fn set(&mut self, x: i32, y: i32, c: P) {
        if let Some(i) = self.index(x, y) {
            self.pixels[i] = c;
        }
    }

    /// Blends a pixel towards `c` by `alpha`; outside the picture nothing happens.
    pub fn blend(&mut self, x: i32, y: i32, c: P, alpha: f32) {
        if let Some(i) = self.index(x, y) {
            self.pixels[i] = self.pixels[i].blend(c, alpha);
        }
    }

    /// Fills the rectangle of columns `x0..=x1` and rows `y0..=y1` (clipped to the picture).
    pub fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: P) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.set(x, y, c);
            }
        }
    }

    /// A one-pixel outline around columns `x0..=x1`, rows `y0..=y1` (just outside them).
    pub fn outline(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: P) {
        self.rect(x0 - 1, y0 - 1, x1 + 1, y0 - 1, c);
        self.rect(x0 - 1, y1 + 1, x1 + 1, y1 + 1, c);
        self.rect(x0 - 1, y0 - 1, x0 - 1, y1 + 1, c);
        self.rect(x1 + 1, y0 - 1, x1 + 1, y1 + 1, c);
    }

    /// Draws `text` in `ink`, the middle of its capitals at row `y` (see [`text::draw_text`]).
    pub fn text(&mut self, text: &str, size: f32, x: f32, y: f32, align: f32, ink: P) {
        text::draw_text(text, size, x, y, align, |px, py, cov| {
            self.blend(px, py, ink, cov)
        });
    }

    /// Copies `src` with its top-left corner at column `x`, row `y` (clipped).
    pub fn paste(&mut self, src: &Raster<P>, x: i32, y: i32) {
        for row in 0..src.height {
            for col in 0..src.width {
                self.set(
                    x + col as i32,
                    y + row as i32,
                    src.pixels[row * src.width + col],
                );
            }
        }
    }
}

impl Raster<[u8; 3]> {
    /// Draws vector graphics on the picture with `tiny-skia` (antialiased strokes, fills,
    /// clip masks): `draw` gets an opaque pixmap holding the picture, and what it leaves there
    /// becomes the picture.
    pub fn draw_vector(&mut self, draw: impl FnOnce(&mut tiny_skia::Pixmap)) {
        let Some(mut pm) = tiny_skia::Pixmap::new(self.width as u32, self.height as u32) else {
            return; // an empty picture: nothing to draw on
        };
        for (d, s) in pm.data_mut().chunks_exact_mut(4).zip(&self.pixels) {
            d.copy_from_slice(&[s[0], s[1], s[2], 255]);
        }
        draw(&mut pm);
        // Source-over drawing onto an opaque pixmap keeps it opaque, so the premultiplied
        // values are the colours themselves.
        for (d, s) in self.pixels.iter_mut().zip(pm.data().chunks_exact(4)) {
            *d = [s[0], s[1], s[2]];
        }
    }

    /// The pixels as packed RGB bytes (for drawing libraries that want a byte buffer).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.pixels.as_flattened_mut()
    }

    /// The picture as an 8-bit RGB PNG file.
    pub fn png(&self) -> Result<Vec<u8>, png::EncodingError> {
        self.png_with_text(&[])
    }

    /// The picture as an 8-bit RGB PNG file with tEXt chunks `(keyword, text)` before the
    /// pixels (keywords of 1-79 Latin-1 characters, text in Latin-1).
    pub fn png_with_text(&self, text: &[(String, String)]) -> Result<Vec<u8>, png::EncodingError> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            for (k, t) in text {
                enc.add_text_chunk(k.clone(), t.clone())?;
            }
            let mut w = enc.write_header()?;
            w.write_image_data(self.pixels.as_flattened())?;
        }
        Ok(out)
    }
}

impl Raster<[f32; 3]> {
    /// The picture as RADIANCE HDR (linear values as they are), with `header` lines.
    pub fn to_hdr(&self, header: Vec<String>) -> daylit_image::HdrImage {
        let mut h = daylit_image::HdrImage::new(self.width, self.height);
        h.pixels = self.pixels.clone();
        h.header = header;
        h
    }

    /// The picture as a display would show it: each linear channel clipped to 0..1 and raised
    /// to 1/2.2, as RADIANCE's converters to 8-bit formats do by default.
    pub fn to_display(&self) -> Raster<[u8; 3]> {
        Raster {
            width: self.width,
            height: self.height,
            pixels: self
                .pixels
                .iter()
                .map(|p| p.map(|c| palette::linear_to_byte(c as f64)))
                .collect(),
        }
    }
}

/// Length of the PNG signature plus the IHDR chunk (4 length + 4 type + 13 data + 4 CRC),
/// which every PNG file starts with.
const PNG_HEAD: usize = 8 + 25;

/// `png` (a whole PNG file) with tEXt chunks `(keyword, text)` inserted after its IHDR
/// chunk, for pictures already encoded; an error when `png` does not start as a PNG file
/// does or a chunk cannot be encoded (a keyword out of 1-79 Latin-1 characters).
pub fn insert_png_text(
    png: &[u8],
    text: &[(String, String)],
) -> Result<Vec<u8>, png::EncodingError> {
    use png::text_metadata::{EncodableTextChunk, TEXtChunk};
    let bad = || {
        png::EncodingError::IoError(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a PNG file",
        ))
    };
    if png.len() < PNG_HEAD
        || png[..8] != [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]
        || &png[12..16] != b"IHDR"
    {
        return Err(bad());
    }
    let mut out = png[..PNG_HEAD].to_vec();
    for (k, t) in text {
        TEXtChunk::new(k.as_str(), t.as_str()).encode(&mut out)?;
    }
    out.extend_from_slice(&png[PNG_HEAD..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_blending_and_png() {
        let mut r = Raster::new(4, 3, [0u8; 3]);
        r.rect(-5, 1, 1, 9, [255, 0, 0]);
        r.blend(3, 0, [200, 100, 50], 0.5);
        r.set(9, 9, [1, 1, 1]);
        assert_eq!(r.get(0, 2), Some([255, 0, 0]));
        assert_eq!(r.get(1, 1), Some([255, 0, 0]));
        assert_eq!(r.get(2, 1), Some([0, 0, 0]));
        assert_eq!(r.get(3, 0), Some([100, 50, 25]));
        assert_eq!(r.get(4, 0), None);
        let png = r.png().unwrap();
        let mut dec = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; dec.output_buffer_size()];
        let info = dec.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (4, 3));
        assert_eq!(&buf[..3 * 4], r.pixels[..4].as_flattened());
        let f = Raster::new(1, 1, [0.5f32, 2.0, -1.0]).to_display();
        assert_eq!(f.pixels[0], [186, 255, 0]);
    }

    #[test]
    fn vector_drawing_lands_on_the_picture() {
        let mut r = Raster::new(20, 10, [10u8, 20, 30]);
        r.draw_vector(|pm| {
            let mut paint = tiny_skia::Paint::default();
            paint.set_color_rgba8(200, 100, 0, 255);
            let rect = tiny_skia::Rect::from_xywh(0.0, 0.0, 10.0, 10.0).unwrap();
            pm.fill_rect(rect, &paint, tiny_skia::Transform::identity(), None);
        });
        assert_eq!(r.get(5, 5), Some([200, 100, 0]));
        assert_eq!(r.get(15, 5), Some([10, 20, 30]));
    }

    #[test]
    fn text_chunks_inserted_after_the_header_read_back() {
        let r = Raster::new(3, 2, [10u8, 20, 30]);
        let text = vec![("Software".to_string(), "daylit".to_string())];
        for png in [
            insert_png_text(&r.png().unwrap(), &text).unwrap(),
            r.png_with_text(&text).unwrap(),
        ] {
            let mut reader = png::Decoder::new(std::io::Cursor::new(png))
                .read_info()
                .unwrap();
            let mut buf = vec![0; reader.output_buffer_size()];
            reader.next_frame(&mut buf).unwrap();
            assert_eq!(&buf[..3], &[10, 20, 30]);
            let t = &reader.info().uncompressed_latin1_text;
            assert_eq!(
                (t[0].keyword.as_str(), t[0].text.as_str()),
                ("Software", "daylit")
            );
        }
        assert!(insert_png_text(b"not a png", &text).is_err());
    }
}
