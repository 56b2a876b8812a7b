//! Text patterns and mixtures: `brighttext`, `colortext` and `mixtext`, drawn with RADIANCE's
//! polygonal fonts.
//!
//! The fonts are RADIANCE's `.fnt` files ([`daylit_image::font`]).
//!
//! Text is anchored at its upper-left corner A and laid out with a right vector R (one
//! character cell) and a down vector D (one line); the lines come from the string arguments
//! (joined by single spaces) or from a text file. The optional spacing argument s chooses
//! the layout: 0 (or absent) gives every character of the font one full cell; s < 0 squeezes
//! the glyphs together with −s·255 units between them; s > 0 spaces proportionally, so that
//! runs of text keep to columns of (mean glyph width + s·255) units, as RADIANCE does. A
//! point is foreground when it falls inside a glyph's polygon (even-odd rule).

use crate::material::{frame, pattern, MixCoef, Mixture, Modifier, PatternKind};
use daylit_image::font::{text_lines, Font};
use daylit_scene::{PrimType, Primitive};
use glam::DVec3;
use std::sync::Arc;

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
                let (spacing, width) = font.layout(&bytes, cis);
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
            text_lines(&bytes)
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
}
