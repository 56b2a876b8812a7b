//! Pictures of text, as RADIANCE's `psign` draws them.
//!
//! The glyphs of a [`Font`] are scaled into a bitmap three times finer than the picture each
//! way, their outlines drawn as edges that toggle one bit per bitmap row they cross; a pixel
//! of the picture then counts the bitmap bits inside glyphs (even-odd along each bitmap row,
//! from the left edge) among its 3 × 3 and blends the foreground and background colours by
//! that fraction. Sizes follow psign's rules: the character height and aspect give the
//! picture's size, or a picture size given (`-x`, `-y`) gives the character size, the aspect
//! kept unless it is 0. Text runs right, up, left (upside down) or down.

use crate::font::Font;
use crate::HdrImage;

/// Bitmap cells per picture pixel each way.
const SUPER: i64 = 3;
/// Largest picture made, in pixels (a typing slip in a size must not exhaust memory).
const MAX_PIXELS: i64 = 1 << 26;

/// Which way the text reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Right,
    Up,
    Left,
    Down,
}

/// psign's settings.
#[derive(Clone, Debug)]
pub struct Sign {
    pub foreground: [f32; 3],
    pub background: [f32; 3],
    pub direction: Direction,
    /// Character height in pixels.
    pub char_height: i64,
    /// Character height over width; 0 lets the picture size set it.
    pub aspect: f64,
    /// Picture width and height in pixels, 0 where not given.
    pub width: i64,
    pub height: i64,
    /// Spacing between characters in character widths: 0 uniform cells, negative squeezed,
    /// positive proportional.
    pub spacing: f64,
}

impl Default for Sign {
    /// psign's defaults: black 32-pixel text on white, aspect 1.67, reading right.
    fn default() -> Self {
        Sign {
            foreground: [0.0; 3],
            background: [1.0; 3],
            direction: Direction::Right,
            char_height: 32,
            aspect: 1.67,
            width: 0,
            height: 0,
            spacing: 0.0,
        }
    }
}

/// Glyph cells and bitmap sizes, in bitmap units.
struct Layout {
    xsiz: i64,
    ysiz: i64,
    cheight: i64,
    cwidth: i64,
}

impl Sign {
    /// Draws `lines` (top line first) in `font`.
    pub fn draw(&self, font: &Font, lines: &[Vec<u8>]) -> Result<HdrImage, String> {
        if lines.is_empty() {
            return Err("no text to draw".into());
        }
        let cis = if self.spacing < -1.0 / 256.0 {
            -((self.spacing * -256.0).min(1e9) as i64)
        } else if self.spacing > 1.0 / 256.0 {
            (self.spacing * 256.0).min(1e9) as i64
        } else {
            0
        };
        // The bottom line is line 0, as glyph y runs up; a line ends at a NUL, as in C.
        let laid: Vec<(&[u8], Vec<i64>, i64)> = lines
            .iter()
            .rev()
            .map(|l| {
                let l = &l[..l.iter().position(|&b| b == 0).unwrap_or(l.len())];
                let (sp, width) = font.layout(l, cis);
                (l, sp, width)
            })
            .collect();
        let max_width = laid.iter().map(|l| l.2).max().unwrap_or(0);
        let lay = self.layout(max_width, lines.len() as i64)?;
        let mut map = Bitmap::new(lay.xsiz, lay.ysiz);
        for (n, (line, sp, _)) in laid.iter().enumerate() {
            let ty0 = 256 * n as i64;
            let mut tx0 = 0;
            for (&c, &adv) in line.iter().zip(sp) {
                tx0 += adv;
                let Some(g) = font.glyph(c) else { continue };
                let Some(&last) = g.verts.last() else {
                    continue;
                };
                let to_map =
                    |v: [u8; 2]| self.map_point(&lay, v[0] as i64 + tx0, v[1] as i64 + ty0);
                let mut p0 = to_map(last);
                for &v in &g.verts {
                    let p1 = to_map(v);
                    map.edge(p0, p1);
                    p0 = p1;
                }
            }
        }
        Ok(self.picture(&map))
    }

    /// The bitmap's size and the character cell, from psign's sizing rules.
    fn layout(&self, max_width: i64, nlines: i64) -> Result<Layout, String> {
        let mut cheight = self.char_height.saturating_mul(SUPER);
        let mut aspect = self.aspect;
        let mut xsiz = self.width.saturating_mul(SUPER);
        let mut ysiz = self.height.saturating_mul(SUPER);
        let mw = max_width as f64;
        let nl = nlines as f64;
        let along = matches!(self.direction, Direction::Right | Direction::Left);
        // The size given along the lines (x for text running right or left), and across.
        let (given_along, given_across) = if along { (xsiz, ysiz) } else { (ysiz, xsiz) };
        let cwidth;
        if given_along <= 0 {
            if aspect <= 1e-6 {
                return Err("a character aspect of 0 needs the picture's size (-x, -y)".into());
            }
            cwidth = (cheight as f64 / aspect + 0.5) as i64;
            let length = max_width.saturating_mul(cwidth) >> 8;
            let across = nlines.saturating_mul(cheight);
            (xsiz, ysiz) = if along {
                (length, across)
            } else {
                (across, length)
            };
        } else {
            let across = if given_across <= 0 {
                cheight.saturating_mul(nlines)
            } else {
                given_across
            };
            (xsiz, ysiz) = if along {
                (xsiz, across)
            } else {
                (across, ysiz)
            };
            // The picture's height over width for the text at this aspect.
            let pictaspect = if aspect > 1e-6 {
                if along {
                    256.0 * nl * aspect / mw
                } else {
                    mw / (256.0 * nl * aspect)
                }
            } else {
                ysiz as f64 / xsiz as f64
            };
            if aspect > 1e-6 {
                if pictaspect * (xsiz as f64) < ysiz as f64 {
                    ysiz = (pictaspect * xsiz as f64 + 0.5) as i64;
                } else {
                    xsiz = (ysiz as f64 / pictaspect + 0.5) as i64;
                }
            } else if along {
                aspect = pictaspect * mw / (256.0 * nl);
            } else {
                aspect = mw / (256.0 * nl * pictaspect);
            }
            cheight = if along { ysiz } else { xsiz } / nlines;
            cwidth = (cheight as f64 / aspect) as i64;
        }
        let round_up = |s: i64| s + (SUPER - s.rem_euclid(SUPER)) % SUPER;
        let (xsiz, ysiz) = (round_up(xsiz), round_up(ysiz));
        if xsiz <= 0 || ysiz <= 0 {
            return Err(format!(
                "the picture would be {} by {} pixels: nothing to draw",
                xsiz / SUPER,
                ysiz / SUPER
            ));
        }
        if (xsiz / SUPER).saturating_mul(ysiz / SUPER) > MAX_PIXELS {
            return Err(format!(
                "the picture would be {} by {} pixels, more than {MAX_PIXELS}",
                xsiz / SUPER,
                ysiz / SUPER
            ));
        }
        Ok(Layout {
            xsiz,
            ysiz,
            cheight,
            cwidth,
        })
    }

    /// A point in text units (x along the line, 256 to a cell; y up, 256 to a line) in the
    /// bitmap.
    fn map_point(&self, lay: &Layout, tx: i64, ty: i64) -> (i64, i64) {
        let tx = tx.saturating_mul(lay.cwidth) >> 8;
        let ty = ty.saturating_mul(lay.cheight) >> 8;
        match self.direction {
            Direction::Right => (tx, ty),
            Direction::Up => (lay.xsiz - 1 - ty, tx),
            Direction::Left => (lay.xsiz - 1 - tx, lay.ysiz - 1 - ty),
            Direction::Down => (ty, lay.ysiz - 1 - tx),
        }
    }

    /// The picture: each pixel the blend of the colours by its share of glyph cells.
    fn picture(&self, map: &Bitmap) -> HdrImage {
        let n = (SUPER * SUPER) as usize;
        let shades: Vec<[f32; 3]> = (0..=n)
            .map(|k| {
                let d = k as f64 / n as f64;
                std::array::from_fn(|c| {
                    (self.foreground[c] as f64 * d) as f32
                        + (self.background[c] as f64 * (1.0 - d)) as f32
                })
            })
            .collect();
        let (w, h) = ((map.xsiz / SUPER) as usize, (map.ysiz / SUPER) as usize);
        let mut img = HdrImage::new(w, h);
        for row in 0..h {
            let y = (h - 1 - row) as i64;
            // Inside-glyph state of each of the pixel's bitmap rows, carried along the row.
            let mut inside = [false; SUPER as usize];
            for x in 0..w as i64 {
                let mut count = 0;
                for (j, inside) in inside.iter_mut().enumerate() {
                    for i in 0..SUPER {
                        if map.get(x * SUPER + i, y * SUPER + j as i64) {
                            *inside = !*inside;
                        }
                        count += *inside as usize;
                    }
                }
                img.set(x as usize, row, shades[count]);
            }
        }
        img
    }
}

/// psign's bitmap: rows of bytes, eight cells a byte, the last byte of a row padded. An edge
/// point one cell beyond a row's end lands in the padding or in the next row's first byte,
/// as in RADIANCE's (outlines that touch a character cell's right edge at the line's end).
struct Bitmap {
    bits: Vec<u8>,
    xsiz: i64,
    ysiz: i64,
    xdim: i64,
}

impl Bitmap {
    fn new(xsiz: i64, ysiz: i64) -> Bitmap {
        let xdim = (xsiz + 7) / 8;
        Bitmap {
            bits: vec![0; (xdim * ysiz) as usize],
            xsiz,
            ysiz,
            xdim,
        }
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        if x < 0 || y < 0 {
            return None;
        }
        let i = y.checked_mul(self.xdim)?.checked_add(x >> 3)?;
        (i < self.bits.len() as i64).then_some(i as usize)
    }

    fn toggle(&mut self, x: i64, y: i64) {
        if let Some(i) = self.index(x, y) {
            self.bits[i] ^= 1 << (x & 7);
        }
    }

    fn get(&self, x: i64, y: i64) -> bool {
        self.index(x, y)
            .is_some_and(|i| self.bits[i] & (1 << (x & 7)) != 0)
    }

    /// Toggles one cell in each bitmap row the edge from `p0` to `p1` crosses (the lower end's
    /// row included, the upper end's not), stepping along x as a line drawer does.
    fn edge(&mut self, p0: (i64, i64), p1: (i64, i64)) {
        let (mut x, mut y, mut run, mut rise) = (p0.0, p0.1, p1.0 - p0.0, p1.1 - p0.1);
        if rise == 0 {
            return;
        }
        if rise < 0 {
            (x, y, run, rise) = (x + run, y + rise, -run, -rise);
        }
        let step = run.signum().max(0) * 2 - 1;
        let run = run.abs();
        let (mut rise_acc, mut run_acc) = (0i64, 0i64);
        let mut n = rise;
        while n > 0 {
            if rise_acc >= run_acc {
                self.toggle(x, y);
                n -= 1;
                y += 1;
                run_acc += run;
            } else {
                x += step;
                rise_acc += rise;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One square glyph 'A' covering its whole cell but a margin, and a space.
    fn font() -> Font {
        Font::parse("32 0\n65 4 0 0 255 0 255 255 0 255").unwrap()
    }

    #[test]
    fn default_size_from_height_and_aspect() {
        let s = Sign {
            char_height: 10,
            ..Sign::default()
        };
        let img = s.draw(&font(), &[b"AA".to_vec()]).unwrap();
        // Cell width round(30 / 1.67) = 18 bitmap units; two cells of 255/256 → 35 → 36.
        assert_eq!((img.width, img.height), (12, 10));
    }

    #[test]
    fn a_full_glyph_is_foreground_inside() {
        let s = Sign {
            char_height: 12,
            aspect: 1.0,
            ..Sign::default()
        };
        let img = s.draw(&font(), &[b"A".to_vec()]).unwrap();
        // One cell of 255/256 × 36 bitmap units → 35 → 36: 12 pixels.
        assert_eq!((img.width, img.height), (12, 12));
        // The middle is black, covered fully; the colours blend only on the outline.
        assert_eq!(img.get(5, 6), [0.0; 3]);
        let lum: f32 = img.pixels.iter().map(|p| p[1]).sum();
        assert!(lum < 0.1 * img.pixels.len() as f32, "{lum}");
    }

    #[test]
    fn directions_rotate_the_picture() {
        let base = Sign {
            char_height: 8,
            ..Sign::default()
        };
        let right = base.draw(&font(), &[b"A A".to_vec()]).unwrap();
        for d in [Direction::Up, Direction::Down] {
            let s = Sign {
                direction: d,
                ..base.clone()
            };
            let img = s.draw(&font(), &[b"A A".to_vec()]).unwrap();
            assert_eq!((img.width, img.height), (right.height, right.width));
        }
        let left = Sign {
            direction: Direction::Left,
            ..base.clone()
        }
        .draw(&font(), &[b"A A".to_vec()])
        .unwrap();
        assert_eq!((left.width, left.height), (right.width, right.height));
    }

    #[test]
    fn impossible_sizes_are_errors() {
        let huge = Sign {
            char_height: 1 << 40,
            ..Sign::default()
        };
        assert!(huge.draw(&font(), &[b"A".to_vec()]).is_err());
        assert!(Sign::default().draw(&font(), &[b"".to_vec()]).is_err());
        assert!(Sign::default().draw(&font(), &[]).is_err());
    }
}
