//! Text patterns and mixtures: `brighttext`, `colortext` and `mixtext`, drawn with RADIANCE's
//! polygonal fonts.
//!
//! A font file (`.fnt`) is a list of glyphs, each a character code (1–255), a vertex count and
//! that many `x y` pairs (integers 0–255) outlining a polygon in a 256-unit character cell,
//! `#` starting comments. A glyph with no vertices is a space.
//!
//! Text is anchored at its upper-left corner A and laid out with a right vector R (one
//! character cell) and a down vector D (one line); the lines come from the string arguments
//! (joined by single spaces) or from a text file. The optional spacing argument s chooses
//! the layout: 0 (or absent) gives every character of the font one full cell; s < 0 squeezes
//! the glyphs together with −s·255 units between them; s > 0 spaces proportionally, so that
//! runs of text keep to columns of (mean glyph width + s·255) units, as RADIANCE does. A
//! point is foreground when it falls inside a glyph's polygon (even-odd rule).

use crate::data::{without_comments, Words};
use crate::material::{frame, pattern, MixCoef, Mixture, Modifier, PatternKind};
use daylit_scene::{PrimType, Primitive};
use glam::DVec3;
use std::path::Path;
use std::sync::Arc;

/// One character's outline.
#[derive(Clone, Debug)]
struct Glyph {
    /// Vertices, x then y, in cell units 0..=255.
    verts: Vec<[u8; 2]>,
    /// Extent (left and bottom inclusive, right and top exclusive for the inside test).
    left: i32,
    right: i32,
    bottom: i32,
    top: i32,
}

/// A polygonal font.
#[derive(Clone, Debug)]
pub struct Font {
    glyphs: Vec<Option<Glyph>>,
    /// Mean width of the glyphs that have an area.
    mwidth: i32,
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

    fn glyph(&self, c: u8) -> Option<&Glyph> {
        self.glyphs[c as usize].as_ref()
    }

    /// Cell advances of a line, every character of the font one full cell (`s` = 0).
    fn uniform(&self, line: &[u8]) -> (Vec<i64>, i64) {
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
    fn squeeze(&self, line: &[u8], cis: i64) -> (Vec<i64>, i64) {
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
    fn proportional(&self, line: &[u8], cis: i64) -> (Vec<i64>, i64) {
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
    fn inside(&self, c: u8, x: f64, y: f64) -> bool {
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

/// One laid-out line.
#[derive(Clone, Debug)]
struct Line {
    bytes: Vec<u8>,
    spacing: Vec<i64>,
    width: i64,
}

/// A block of text placed in space.
#[derive(Clone, Debug)]
pub struct Text {
    font: Arc<Font>,
    lines: Vec<Line>,
    anchor: DVec3,
    right: DVec3,
    down: DVec3,
    /// Cell units per R step along a line.
    xscale: f64,
}

impl Text {
    /// Lays out `lines` with `font` from the anchor, right and down vectors (reals 0..9) and
    /// the spacing argument, if given.
    pub fn new(
        font: Arc<Font>,
        lines: Vec<Vec<u8>>,
        f: &[f64],
        spacing: Option<f64>,
    ) -> Result<Text, String> {
        let anchor = DVec3::from_slice(f);
        let r = DVec3::from_slice(&f[3..]);
        let d = DVec3::from_slice(&f[6..]);
        // Dual vectors: v·right counts R steps and v·down D steps, even when R and D are
        // not perpendicular.
        let dxr = d.cross(r);
        let mut right = dxr.cross(d);
        let rr = right.dot(right);
        if rr <= 1e-24 {
            return Err("illegal motion vector (R and D parallel or zero)".into());
        }
        right *= d.dot(d) / rr;
        let mut down = r.cross(dxr);
        down *= r.dot(r) / down.dot(down);
        let s = spacing.unwrap_or(0.0);
        // Saturating, so absurd spacings cannot overflow the layout.
        let cis = (s * 255.0).clamp(-1e12, 1e12) as i64;
        let lines = lines
            .into_iter()
            .map(|bytes| {
                let (spacing, width) = if cis < 0 {
                    font.squeeze(&bytes, -cis)
                } else if cis > 0 {
                    font.proportional(&bytes, cis)
                } else {
                    font.uniform(&bytes)
                };
                Line {
                    bytes,
                    spacing,
                    width,
                }
            })
            .collect();
        let xscale = match spacing {
            Some(s) => font.mwidth as f64 + 255.0 * s.abs(),
            None => 255.0,
        };
        Ok(Text {
            font,
            lines,
            anchor,
            right,
            down,
            xscale,
        })
    }

    /// Does point `p` fall on a glyph?
    pub fn foreground(&self, p: DVec3) -> bool {
        let v = p - self.anchor;
        let x = v.dot(self.right) * self.xscale;
        let y = v.dot(self.down);
        if x < 0.0 || y < 0.0 || !x.is_finite() || !y.is_finite() {
            return false;
        }
        let mut h = x as i64;
        let line_no = y as i64;
        let fx = x - h as f64;
        let fy = ((line_no + 1) as f64 - y) * 255.0;
        let Some(line) = usize::try_from(line_no)
            .ok()
            .and_then(|l| self.lines.get(l))
        else {
            return false;
        };
        if h >= line.width {
            return false;
        }
        for (k, &adv) in line.spacing.iter().enumerate() {
            h -= adv;
            if h < 0 {
                break;
            }
            if h < 255 {
                if let Some(&c) = line.bytes.get(k) {
                    if self.font.inside(c, h as f64 + fx, fy) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The lines of a text file as RADIANCE reads them: pieces of at most 511 bytes, each ending
/// at a newline, which is dropped.
pub fn file_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
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

impl crate::material::Builder<'_> {
    /// A font, read once per run however many modifiers name it.
    fn font_file(&mut self, name: &str) -> Result<Arc<Font>, String> {
        if let Some(f) = self.fonts.get(name) {
            return Ok(f.clone());
        }
        let path = self
            .raypath
            .find(name)
            .ok_or_else(|| format!("font file \"{name}\" not found in the RAYPATH"))?;
        let f = Arc::new(Font::load(&path)?);
        self.fonts.insert(name.to_string(), f.clone());
        Ok(f)
    }

    /// `brighttext`, `colortext` and `mixtext`.
    pub(crate) fn text(&mut self, p: &Primitive) -> Result<Modifier, String> {
        let (font_at, text_at, spacing_at) = match p.ptype {
            PrimType::Mixtext => (2, 3, 9),
            PrimType::Brighttext => (0, 1, 11),
            _ => (0, 1, 15),
        };
        let (sa, f) = (&p.sargs, &p.fargs);
        if sa.len() <= text_at || f.len() < spacing_at {
            return Err(format!(
                "needs {} string and {spacing_at} real arguments at least",
                text_at + 1
            ));
        }
        let lines = if sa.len() > text_at + 1 {
            vec![sa[text_at + 1..].join(" ").into_bytes()]
        } else {
            let name = &sa[text_at];
            let path = self
                .raypath
                .find(name)
                .ok_or_else(|| format!("text file \"{name}\" not found in the RAYPATH"))?;
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("text file {}: cannot read: {e}", path.display()))?;
            file_lines(&bytes)
        };
        let font = self.font_file(&sa[font_at])?;
        let text = Arc::new(Text::new(font, lines, f, f.get(spacing_at).copied())?);
        let frame = frame(p, sa.len(), Vec::new())?;
        Ok(match p.ptype {
            PrimType::Mixtext => {
                let side = |i: usize| p.mod_refs.get(i).copied().flatten();
                Modifier::Mixture(Box::new(Mixture {
                    fore: side(0),
                    back: side(1),
                    coef: MixCoef::Text(text),
                    frame,
                }))
            }
            PrimType::Brighttext => pattern(
                PatternKind::Text {
                    text,
                    fore: DVec3::splat(f[9]),
                    back: DVec3::splat(f[10]),
                },
                frame,
            ),
            _ => pattern(
                PatternKind::Text {
                    text,
                    fore: DVec3::from_slice(&f[9..]),
                    back: DVec3::from_slice(&f[12..]),
                },
                frame,
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square glyph for 'A' (50..200 both ways) and a space.
    fn font() -> Arc<Font> {
        Arc::new(
            Font::parse("# test\n32 0\n65 4 50 50 200 50 200 200 50 200\n66 3 0 0 100 0 0 100")
                .unwrap(),
        )
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
    fn uniform_cells_and_inside_test() {
        let t = Text::new(
            font(),
            vec![b"A A".to_vec()],
            &[0., 0., 0., 1., 0., 0., 0., -1., 0.],
            None,
        )
        .unwrap();
        // Cell 0 holds 'A' over 50..200 of 255 across and up.
        assert!(t.foreground(DVec3::new(0.5, -0.5, 0.0)));
        assert!(!t.foreground(DVec3::new(0.1, -0.5, 0.0)));
        assert!(!t.foreground(DVec3::new(1.5, -0.5, 0.0)));
        assert!(t.foreground(DVec3::new(2.5, -0.5, 0.0)));
        assert!(!t.foreground(DVec3::new(3.5, -0.5, 0.0)));
        assert!(!t.foreground(DVec3::new(0.5, -1.5, 0.0)));
    }

    #[test]
    fn squeezed_advances() {
        let f = font();
        // 'A' is 50..200: half a spacing of 20 either side.
        let (sp, w) = f.squeeze(b"AA", 40);
        assert_eq!(sp, vec![40 - 50, 200 + 40 - 50, 200 + 40]);
        assert_eq!(w, sp.iter().sum::<i64>());
    }

    #[test]
    fn absurd_spacings_do_not_overflow() {
        for s in [1e12, -1e12, 3e9, -7e8] {
            let t = Text::new(
                font(),
                vec![b"A  A    B".to_vec()],
                &[0., 0., 0., 1., 0., 0., 0., -1., 0.],
                Some(s),
            )
            .unwrap();
            let _ = t.foreground(DVec3::new(0.5, -0.5, 0.0));
        }
    }

    #[test]
    fn text_file_lines() {
        assert_eq!(
            file_lines(b"ab\ncd\n\nx"),
            vec![b"ab".to_vec(), b"cd".to_vec(), b"".to_vec(), b"x".to_vec()]
        );
    }
}
