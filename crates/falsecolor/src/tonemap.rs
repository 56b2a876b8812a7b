//! A natural-looking display picture of an HDR picture: the exposure set from the log-average
//! luminance (a key of 0.18), then Reinhard's curve so that bright windows keep some detail.

use crate::raster::Raster;
use daylit_image::{srgb8, HdrImage};

/// The tone-mapped 8-bit sRGB picture of `img` (as `daylit render` writes beside its HDR).
pub fn tone_map(img: &HdrImage) -> Raster<[u8; 3]> {
    let lum: Vec<f64> = img.luminance_image();
    let n = lum.iter().filter(|l| **l > 0.0).count().max(1);
    let logavg = (lum
        .iter()
        .filter(|l| **l > 0.0)
        .map(|l| (l + 1e-4).ln())
        .sum::<f64>()
        / n as f64)
        .exp();
    let key = 0.18 / logavg.max(1e-9);
    let pixels = img
        .pixels
        .iter()
        .zip(&lum)
        .map(|(p, l)| {
            let k = if *l > 0.0 { key / (1.0 + l * key) } else { 0.0 };
            // Luminance values are in cd/m² (179 lm/W); pixel values in W/sr/m².
            p.map(|c| srgb8(c as f64 * 179.0 * k))
        })
        .collect();
    Raster {
        width: img.width,
        height: img.height,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniform_grey_picture_maps_to_the_key() {
        // A uniform picture's log-average is its own luminance, so every pixel maps to
        // 0.18 / (1 + 0.18) of white before the sRGB curve.
        let mut img = HdrImage::new(4, 3);
        for p in &mut img.pixels {
            *p = [0.5; 3];
        }
        let out = tone_map(&img);
        let want = srgb8(0.18 / 1.18);
        assert!(
            out.pixels.iter().all(|p| *p == [want; 3]),
            "{:?}",
            out.pixels[0]
        );
        assert_eq!((out.width, out.height), (4, 3));
    }
}
