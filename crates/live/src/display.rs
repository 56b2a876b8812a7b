//! What the page shows of the accumulated picture: false colour over a linear or logarithmic
//! luminance scale with a legend (RADIANCE falsecolor's palettes), or a tone-mapped picture
//! with an exposure in stops.

use daylit_falsecolor::palette::Palette;
use daylit_image::luminance_of;
use serde::{Deserialize, Serialize};

/// How the picture is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Display {
    /// `falsecolor` or `tonemap`.
    pub mode: String,
    /// False colour: the top of the scale, cd/m².
    pub scale: f64,
    /// False colour: decades of a logarithmic scale (0: linear).
    pub decades: f64,
    /// False colour: palette name (`def`, `spec`, `pm3d`, `hot`, `eco`, `viridis`).
    pub palette: String,
    /// Tone mapping: exposure in stops above the automatic one.
    pub exposure: f64,
    /// Whether the indirect light is shown through the denoiser ([`crate::denoise`]); the
    /// metrics never see it. On unless the page turns it off.
    #[serde(default = "denoise_default")]
    pub denoise: bool,
}

fn denoise_default() -> bool {
    true
}

impl Default for Display {
    fn default() -> Display {
        Display {
            mode: "falsecolor".into(),
            scale: 5000.0,
            decades: 3.0,
            palette: "def".into(),
            exposure: 0.0,
            denoise: true,
        }
    }
}

/// A legend: colours from the bottom of the scale to its top, and labelled values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Legend {
    /// CSS colours, evenly spaced from 0 to 1 of the scale.
    pub colours: Vec<String>,
    /// (position 0..1, label) pairs.
    pub labels: Vec<(f64, String)>,
    /// Unit of the labels.
    pub unit: String,
}

impl Display {
    /// Checks the settings.
    pub fn check(&self) -> Result<(), String> {
        if self.mode != "falsecolor" && self.mode != "tonemap" {
            return Err(format!(
                "display mode \"{}\" is not falsecolor or tonemap",
                self.mode
            ));
        }
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Err("the false-colour scale must be above 0".into());
        }
        if !(self.decades.is_finite() && (0.0..=10.0).contains(&self.decades)) {
            return Err("decades must be 0 to 10".into());
        }
        if !(self.exposure.is_finite() && self.exposure.abs() <= 20.0) {
            return Err("exposure must be within ±20 stops".into());
        }
        Palette::from_name(&self.palette)
            .ok_or_else(|| format!("unknown palette \"{}\"", self.palette))?;
        Ok(())
    }

    fn palette(&self) -> Palette {
        Palette::from_name(&self.palette).unwrap_or(Palette::Def)
    }

    /// Position on the false-colour scale of luminance `l`.
    fn position(&self, l: f64) -> f64 {
        if self.decades > 0.0 {
            if l <= 0.0 {
                return 0.0;
            }
            ((l / self.scale).log10() / self.decades + 1.0).clamp(0.0, 1.0)
        } else {
            (l / self.scale).clamp(0.0, 1.0)
        }
    }

    /// 8-bit RGB of a picture (row-major, radiance in W/sr/m²).
    pub fn rgb8(&self, pixels: &[[f32; 3]]) -> Vec<u8> {
        let mut out = Vec::with_capacity(pixels.len() * 3);
        if self.mode == "tonemap" {
            let k = self.exposure_factor(pixels);
            let srgb = daylit_image::srgb8;
            for p in pixels {
                let l = luminance_of(*p);
                // Reinhard's curve on luminance keeps the windows from burning out.
                let s = if l > 0.0 { k / (1.0 + l * k) } else { 0.0 };
                for c in p {
                    out.push(srgb(*c as f64 * 179.0 * s));
                }
            }
        } else {
            let pal = self.palette();
            for p in pixels {
                out.extend(pal.display8(self.position(luminance_of(*p))));
            }
        }
        out
    }

    /// The scale factor of tone mapping: the log-average luminance to 0.18, times 2^exposure.
    fn exposure_factor(&self, pixels: &[[f32; 3]]) -> f64 {
        let (mut s, mut n) = (0.0, 0usize);
        for p in pixels {
            let l = luminance_of(*p);
            if l > 0.0 {
                s += (l + 1e-4).ln();
                n += 1;
            }
        }
        let logavg = if n > 0 { (s / n as f64).exp() } else { 1.0 };
        0.18 / logavg.max(1e-9) * 2f64.powf(self.exposure)
    }

    /// The legend of the false-colour scale (empty for tone mapping).
    pub fn legend(&self) -> Legend {
        if self.mode == "tonemap" {
            return Legend {
                colours: vec![],
                labels: vec![],
                unit: String::new(),
            };
        }
        let pal = self.palette();
        let colours = (0..=32)
            .map(|i| {
                let c = pal.display8(i as f64 / 32.0);
                format!("rgb({},{},{})", c[0], c[1], c[2])
            })
            .collect();
        let labels = (0..=8)
            .map(|i| {
                let f = i as f64 / 8.0;
                let v = if self.decades > 0.0 {
                    self.scale * 10f64.powf((f - 1.0) * self.decades)
                } else {
                    self.scale * f
                };
                (f, label(v))
            })
            .collect();
        Legend {
            colours,
            labels,
            unit: "cd/m²".into(),
        }
    }
}

fn label(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// Encodes 8-bit RGB as PNG (fast compression: it runs for every frame).
pub fn png(width: usize, height: usize, rgb: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header()?;
        w.write_image_data(rgb)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn false_colour_follows_the_scale() {
        let d = Display {
            decades: 0.0,
            scale: 100.0,
            ..Display::default()
        };
        // 179 · bright(v) cd/m² for grey v.
        let grey = |l: f64| [(l / 179.0) as f32; 3];
        let rgb = d.rgb8(&[grey(0.0), grey(50.0), grey(1000.0)]);
        let pal = Palette::Def;
        assert_eq!(&rgb[0..3], &pal.display8(0.0));
        assert_eq!(&rgb[6..9], &pal.display8(1.0));
        assert_ne!(&rgb[3..6], &rgb[0..3]);
        let log = Display::default();
        assert!((log.position(5.0) - 0.0).abs() < 1e-12);
        assert!((log.position(50.0) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(log.legend().labels.len(), 9);
    }

    #[test]
    fn tone_mapping_brightens_with_exposure() {
        let px = vec![[0.1f32; 3], [1.0; 3]];
        let a = Display {
            mode: "tonemap".into(),
            ..Display::default()
        };
        let b = Display {
            exposure: 2.0,
            ..a.clone()
        };
        assert!(b.rgb8(&px)[0] > a.rgb8(&px)[0]);
        assert!(Display {
            mode: "x".into(),
            ..a
        }
        .check()
        .is_err());
    }
}
