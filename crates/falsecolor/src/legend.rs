//! Legends: a vertical colour strip with a title and numbers at given rows, drawn either
//! beside the strip with tick marks (the annual maps) or over it in light text with a dark
//! shadow (RADIANCE falsecolor's legend).

use crate::raster::{Pixel, Raster};

/// Where and how the numbers of a [`ColourScale`] are written.
#[derive(Debug, Clone, Copy)]
pub enum LabelStyle<P> {
    /// Right of the strip, after a tick mark of `tick` pixels, in `ink`; with a frame around
    /// the strip in `ink`.
    Beside { ink: P, tick: i32 },
    /// Over the strip from its left edge, in `ink` with a `shadow` copy `offset` pixels
    /// right and down underneath.
    Over {
        ink: P,
        shadow: P,
        offset: (i32, i32),
    },
}

/// A vertical colour scale.
pub struct ColourScale<'a, P> {
    /// Columns of the strip, inclusive.
    pub columns: (i32, i32),
    /// Rows of the strip, inclusive, top first.
    pub rows: (i32, i32),
    /// Colour of each strip row.
    pub fill: &'a dyn Fn(i32) -> P,
    /// Title (the unit) with the row of its middle; it starts at the strip's left edge.
    pub title: Option<(String, f32)>,
    /// Numbers with the row of their middle.
    pub labels: Vec<(String, f32)>,
    /// Text size, pixels per em.
    pub text_size: f32,
    pub style: LabelStyle<P>,
}

impl<P: Pixel> ColourScale<'_, P> {
    /// Draws the scale onto `r` (anything outside it is clipped).
    pub fn draw(&self, r: &mut Raster<P>) {
        let (x0, x1) = self.columns;
        let (y0, y1) = self.rows;
        for y in y0..=y1 {
            r.rect(x0, y, x1, y, (self.fill)(y));
        }
        let size = self.text_size;
        match self.style {
            LabelStyle::Beside { ink, tick } => {
                r.outline(x0, y0, x1, y1, ink);
                if let Some((t, y)) = &self.title {
                    r.text(t, size, x0 as f32, *y, 0.0, ink);
                }
                for (t, y) in &self.labels {
                    let row = y.round() as i32;
                    r.rect(x1 + 1, row, x1 + tick, row, ink);
                    r.text(t, size, (x1 + tick + 4) as f32, *y, 0.0, ink);
                }
            }
            LabelStyle::Over {
                ink,
                shadow,
                offset,
            } => {
                let texts = || self.title.iter().chain(&self.labels);
                for (t, y) in texts() {
                    let (x, y) = ((x0 + offset.0) as f32, y + offset.1 as f32);
                    r.text(t, size, x, y, 0.0, shadow);
                }
                for (t, y) in texts() {
                    r.text(t, size, x0 as f32, *y, 0.0, ink);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_frame_ticks_and_text() {
        let mut r = Raster::new(120, 100, [255u8; 3]);
        let fill = |y: i32| [y as u8, 0, 0];
        ColourScale {
            columns: (10, 20),
            rows: (20, 80),
            fill: &fill,
            title: Some(("lux".into(), 8.0)),
            labels: vec![("0".into(), 80.0), ("100".into(), 20.0)],
            text_size: 12.0,
            style: LabelStyle::Beside {
                ink: [0; 3],
                tick: 5,
            },
        }
        .draw(&mut r);
        assert_eq!(r.get(15, 50), Some([50, 0, 0]));
        assert_eq!(r.get(9, 50), Some([0; 3])); // frame
        assert_eq!(r.get(25, 20), Some([0; 3])); // tick
        assert_eq!(r.get(27, 50), Some([255; 3]));
        // Text right of the ticks, the title above the strip.
        let dark = |x0: i32, x1: i32, y0: i32, y1: i32| {
            (y0..=y1).any(|y| (x0..=x1).any(|x| r.get(x, y).is_some_and(|p| p[1] < 100)))
        };
        assert!(dark(28, 60, 75, 85));
        assert!(dark(10, 40, 3, 13));
        assert!(!dark(28, 119, 40, 60));

        let mut r = Raster::new(60, 40, [0f32; 3]);
        let fill = |_| [0.2f32, 0.4, 0.6];
        ColourScale {
            columns: (0, 59),
            rows: (0, 39),
            fill: &fill,
            title: None,
            labels: vec![("88".into(), 20.0)],
            text_size: 20.0,
            style: LabelStyle::Over {
                ink: [1.0; 3],
                shadow: [0.0; 3],
                offset: (2, 1),
            },
        }
        .draw(&mut r);
        let count =
            |f: fn(f32) -> bool| r.pixels.iter().filter(|p| p.iter().all(|&c| f(c))).count();
        // White text over its black shadow.
        assert!(count(|c| c > 0.95) > 20 && count(|c| c < 0.05) > 5);
        assert_eq!(r.get(59, 0), Some([0.2, 0.4, 0.6]));
    }
}
