//! RADIANCE's polygonal fonts (`.fnt` files, as `helvet.fnt`), read for text patterns
//! (`brighttext`, `colortext`, `mixtext`) and for `psign`'s pictures.
//!
//! A font file is a list of glyphs, each a character code (1–255), a vertex count and that
//! many `x y` pairs (integers 0–255) outlining a polygon in a 256-unit character cell, `#`
//! starting comments. A glyph with no vertices is a space.
//!
//! Lines of text are laid out three ways, as RADIANCE lays them out: every character one full
//! cell ([`Font::uniform`]); glyphs squeezed together a fixed gap apart ([`Font::squeeze`]);
//! or proportionally, squeezed and then each run of text stretched to keep its columns
//! ([`Font::proportional`]).

use crate::words::{without_comments, Words};
use std::path::Path;

/// One character's outline.
#[derive(Clone, Debug)]
pub struct Glyph {
    /// Vertices, x then y, in cell units 0..=255.
    pub verts: Vec<[u8; 2]>,
    /// Extent (left and bottom inclusive, right and top exclusive for the inside test).
    pub left: i32,
    pub right: i32,
    pub bottom: i32,
    pub top: i32,
}

/// A polygonal font.
#[derive(Clone, Debug)]
pub struct Font {
    glyphs: Vec<Option<Glyph>>,
    /// Mean width of the glyphs that have an area.
    pub mwidth: i32,
}

impl Font {
    /// Reads a font file; the error names the file and the place.
    pub fn load(path: &Path) -> Result<Font, String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("font file {}: cannot read: {e}", path.display()))?;
        Font::parse(&String::from_utf8_lossy(&bytes))
            .map_err(|e| format!("font file {}: {e}", path.display()))
    }

    /// Parses the text of a font file.
    pub fn parse(text: &str) -> Result<Font, String> {
        let text = without_comments(text);
        let mut w = Words::new(&text);
        let mut glyphs: Vec<Option<Glyph>> = vec![None; 256];
        let (mut wsum, mut ngly) = (0i64, 0i64);
        while let Some(word) = w.try_next() {
            let code: i64 = word
                .parse()
                .map_err(|_| format!("{}: expected a character code, found \"{word}\"", w.at()))?;
            if !(1..=255).contains(&code) {
                return Err(format!("{}: illegal character code {code}", w.at()));
            }
            if glyphs[code as usize].is_some() {
                return Err(format!("{}: character {code} defined twice", w.at()));
            }
            let n = w.int(&format!("the vertex count of character {code}"))?;
            if n > 32000 {
                return Err(format!(
                    "{}: character {code} has too many vertices ({n})",
                    w.at()
                ));
            }
            let mut g = Glyph {
                verts: Vec::with_capacity(n),
                left: 128,
                right: 128,
                bottom: 128,
                top: 128,
            };
            for k in 0..n {
                let mut v = [0u8; 2];
                for (c, axis) in v.iter_mut().zip(["x", "y"]) {
                    let what = format!("{axis} of vertex {} of character {code}", k + 1);
                    let x = w.int(&what)?;
                    if x > 255 {
                        return Err(format!("{}: {what} is {x}, beyond 255", w.at()));
                    }
                    *c = x as u8;
                }
                let (x, y) = (v[0] as i32, v[1] as i32);
                // The extent grows the way RADIANCE tracks it (from 128, low end first).
                if x < g.left {
                    g.left = x;
                } else if x > g.right {
                    g.right = x;
                }
                if y < g.bottom {
                    g.bottom = y;
                } else if y > g.top {
                    g.top = y;
                }
                g.verts.push(v);
            }
            if g.right != g.left && g.top != g.bottom {
                ngly += 1;
                wsum += (g.right - g.left) as i64;
            }
            glyphs[code as usize] = Some(g);
        }
        Ok(Font {
            glyphs,
            mwidth: if ngly > 0 { (wsum / ngly) as i32 } else { 0 },
        })
    }

    /// The glyph of character `c`, if the font has one.
    pub fn glyph(&self, c: u8) -> Option<&Glyph> {
        self.glyphs[c as usize].as_ref()
    }

    /// Cell advances of a line, every character of the font one full cell (`s` = 0).
    pub fn uniform(&self, line: &[u8]) -> (Vec<i64>, i64) {
        let mut sp = Vec::with_capacity(line.len() + 1);
        sp.push(0);
        for &c in line {
            sp.push(if self.glyph(c).is_some() { 255 } else { 0 });
        }
        let w = sp.iter().sum();
        (sp, w)
    }

    /// Advances of a line with the glyphs packed `cis` units apart (spaces a mean width).
    /// `sp[k]` is the distance from character k−1's origin to character k's (`sp[0]`: from
    /// the line start); the sum is the line's width.
    pub fn squeeze(&self, line: &[u8], cis: i64) -> (Vec<i64>, i64) {
        let mut sp = vec![0i64; line.len() + 1];
        let half = cis / 2;
        let mut k = 0;
        // Characters missing from the font take no room.
        while k < line.len() && self.glyph(line[k]).is_none() {
            k += 1;
        }
        // `pending` is what the previous glyph leaves after its origin; it is added to the
        // advance that reaches the next glyph.
        let mut pending = half;
        let mut width = 0;
        while k < line.len() {
            let g = self.glyph(line[k]).expect("skipped to a glyph");
            if g.verts.is_empty() {
                sp[k] = pending;
                pending = self.mwidth as i64;
            } else {
                sp[k] = pending + half - g.left as i64;
                pending = g.right as i64 + half;
            }
            width += sp[k];
            k += 1;
            while k < line.len() && self.glyph(line[k]).is_none() {
                sp[k] = pending;
                width += pending;
                pending = 0;
                k += 1;
            }
        }
        sp[k] = pending + half;
        width += sp[k];
        (sp, width)
    }

    /// Proportional spacing: squeezed, then each run of text (ended by more than three
    /// spaces in a row, or the line's end) stretched to (mean width + `cis`) per character.
    pub fn proportional(&self, line: &[u8], cis: i64) -> (Vec<i64>, i64) {
        const MIN_SPACES: usize = 3;
        let (mut sp, _) = self.squeeze(line, cis);
        let mut width = sp[0];
        let mut s = 1; // index into sp of the next advance to adjust
        let mut t = 0; // index into line of the run's start
        while t < line.len() {
            let (mut len, mut alen) = (0i64, 0i64);
            let mut ns = s;
            let mut end = t;
            let mut next = t;
            while end < line.len() {
                next = end + 1;
                alen += sp[ns];
                ns += 1;
                if self.glyph(line[end]).is_some() {
                    while next < line.len()
                        && self.glyph(line[next]).is_some_and(|g| g.verts.is_empty())
                    {
                        alen += sp[ns];
                        ns += 1;
                        next += 1;
                    }
                    len += (next - end) as i64;
                }
                if next - end > MIN_SPACES {
                    break;
                }
                end = next;
            }
            len *= self.mwidth as i64 + cis;
            width += len;
            let mut adjust = len - alen;
            while s < ns {
                let a = adjust / (ns - s) as i64;
                sp[s] += a;
                adjust -= a;
                s += 1;
            }
            t = next;
        }
        (sp, width)
    }

    /// Is (x, y), in cell units (0..255 each way, y up), inside glyph `c`?
    pub fn inside(&self, c: u8, x: f64, y: f64) -> bool {
        let Some(g) = self.glyph(c) else {
            return false;
        };
        let (xi, yi) = (x as i32, y as i32);
        if g.left > xi || g.right <= xi || g.bottom > yi || g.top <= yi {
            return false;
        }
        // Even-odd crossings of a ray from the point towards +x; vertices are compared with
        // the centre of the point's unit square so none lies exactly on the ray.
        let (xh, yh) = (2 * xi + 1, 2 * yi + 1);
        let n = g.verts.len();
        let mut crossings = 0u32;
        for k in 0..n {
            let p0 = g.verts[(k + n - 1) % n];
            let p1 = g.verts[k];
            let (x0, y0, x1, y1) = (p0[0] as i32, p0[1] as i32, p1[0] as i32, p1[1] as i32);
            if (2 * y0 > yh) == (2 * y1 > yh) {
                continue;
            }
            match (2 * x0 > xh, 2 * x1 > xh) {
                (true, true) => crossings += 1,
                (false, false) => {}
                _ => {
                    // The edge crosses the ray's line on the right when the point is on the
                    // inner side of the edge's direction.
                    let (x0, y0, x1, y1) = (x0 as f64, y0 as f64, x1 as f64, y1 as f64);
                    let left_of = (y0 - y) * (x1 - x) > (x0 - x) * (y1 - y);
                    if (y1 > y0) != left_of {
                        crossings += 1;
                    }
                }
            }
        }
        crossings & 1 == 1
    }
}

impl Font {
    /// Character advances and width of a line for a spacing `cis` in cell units: squeezed
    /// `-cis` apart when negative, proportional when positive, one cell each when zero.
    pub fn layout(&self, line: &[u8], cis: i64) -> (Vec<i64>, i64) {
        match cis.signum() {
            -1 => self.squeeze(line, -cis),
            1 => self.proportional(line, cis),
            _ => self.uniform(line),
        }
    }
}

/// The lines of a text file as RADIANCE reads them: pieces of at most 511 bytes, each ending
/// at a newline, which is dropped.
pub fn text_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let take = rest
            .iter()
            .take(511)
            .position(|&b| b == b'\n')
            .map_or(rest.len().min(511), |i| i + 1);
        let mut piece = rest[..take].to_vec();
        rest = &rest[take..];
        if piece.last() == Some(&b'\n') {
            piece.pop();
        }
        // A C string ends at its first NUL.
        if let Some(z) = piece.iter().position(|&b| b == 0) {
            piece.truncate(z);
        }
        out.push(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square glyph for 'A' (50..200 both ways), a triangle 'B' and a space.
    fn font() -> Font {
        Font::parse("# test\n32 0\n65 4 50 50 200 50 200 200 50 200\n66 3 0 0 100 0 0 100").unwrap()
    }

    #[test]
    fn parse_extent_and_mean_width() {
        let f = font();
        let a = f.glyph(b'A').unwrap();
        assert_eq!((a.left, a.right, a.bottom, a.top), (50, 200, 50, 200));
        // 'B' reaches only 100 < 128, so its extent stays 0..128 as RADIANCE tracks it: the
        // mean of 150 and 128.
        assert_eq!(f.mwidth, 139);
    }

    #[test]
    fn malformed_fonts_are_located_errors() {
        for (text, want) in [
            ("65 2 1 2 3", "ends"),
            ("0 0", "illegal"),
            ("65 1 300 3", "beyond 255"),
            ("65 0\n65 0", "twice"),
            ("65 1 1.5 2", "whole number"),
        ] {
            let e = Font::parse(text).unwrap_err();
            assert!(e.contains(want) && e.contains("line"), "{text}: {e}");
        }
    }

    #[test]
    fn squeezed_advances() {
        let f = font();
        // 'A' is 50..200: half a spacing of 20 either side.
        let (sp, w) = f.squeeze(b"AA", 40);
        assert_eq!(sp, vec![40 - 50, 200 + 40 - 50, 200 + 40]);
        assert_eq!(w, sp.iter().sum::<i64>());
        assert_eq!(f.layout(b"AA", -40), (sp, w));
        assert_eq!(f.layout(b"A B", 0), (vec![0, 255, 255, 255], 765));
    }

    #[test]
    fn inside_test() {
        let f = font();
        assert!(f.inside(b'A', 100.0, 100.0));
        assert!(!f.inside(b'A', 20.0, 100.0));
        assert!(!f.inside(b' ', 100.0, 100.0));
    }

    #[test]
    fn text_file_lines() {
        assert_eq!(
            text_lines(b"ab\ncd\n\nx"),
            vec![b"ab".to_vec(), b"cd".to_vec(), b"".to_vec(), b"x".to_vec()]
        );
    }

    /// Mutated font files (bytes flipped, dropped, repeated) are errors or fonts, never a
    /// panic; every glyph of what parses lays out and answers the inside test.
    #[test]
    fn mutated_fonts_never_panic() {
        use rand::{Rng, SeedableRng};
        let base = b"# t\n32 0\n65 4 50 50 200 50 200 200 50 200\n66 3 0 0 255 0 0 255\n".to_vec();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        for _ in 0..3000 {
            let mut t = base.clone();
            for _ in 0..rng.random_range(1..6) {
                let k = rng.random_range(0..t.len());
                match rng.random_range(0..3) {
                    0 => {
                        let pick = b"0123456789 -\n#x9";
                        t[k] = pick[rng.random_range(0..pick.len())];
                    }
                    1 => {
                        t.remove(k);
                    }
                    _ => {
                        let piece = t[k..(k + 4).min(t.len())].to_vec();
                        t.splice(k..k, piece);
                    }
                }
            }
            if let Ok(f) = Font::parse(&String::from_utf8_lossy(&t)) {
                for cis in [-40, 0, 40] {
                    let _ = f.layout(b"AB AB    A", cis);
                }
                let _ = f.inside(b'A', 100.0, 100.0);
            }
        }
    }
}
