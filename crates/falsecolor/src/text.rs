//! Text from a font compiled into the binary, so no system font is ever read.
//!
//! The font is DejaVu Sans reduced to Latin characters (`fonts/DejaVuSans-subset.ttf`, licence
//! in `fonts/LICENSE-DejaVu.txt`). Glyphs are rasterised by `ab_glyph` (a small, widely used
//! pure-Rust rasteriser) and handed to the caller as pixel coverages, so the same code draws on
//! 8-bit and floating-point pictures.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use std::sync::OnceLock;

static FONT_BYTES: &[u8] = include_bytes!("../fonts/DejaVuSans-subset.ttf");

/// Half the height of capitals and digits in DejaVu Sans (1493 of 2384 font units from
/// ascender to descender): the baseline lies this far below their middle, in units of `size`.
const HALF_CAP: f32 = 0.313;

/// The embedded font.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    // The font is part of the binary and checked by a test, so it always parses.
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("embedded font parses"))
}

/// Width in pixels of `text` at `size` (advances and kerning). Sizes throughout are the
/// font's pixel height from ascender to descender, as `ab_glyph` scales (1.164 em for DejaVu).
pub fn text_width(text: &str, size: f32) -> f32 {
    let sf = font().as_scaled(PxScale::from(size));
    let mut width = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            width += sf.kern(p, id);
        }
        width += sf.h_advance(id);
        prev = Some(id);
    }
    width
}

/// Rasterises `text` at `size` with the middle of its capitals and digits at row
/// `y`; `align` places it horizontally: 0 = left edge at `x`, 0.5 = centred, 1 = right edge.
/// `plot(x, y, coverage)` receives every touched pixel with its coverage (0..1).
pub fn draw_text(
    text: &str,
    size: f32,
    x: f32,
    y: f32,
    align: f32,
    mut plot: impl FnMut(i32, i32, f32),
) {
    let f = font();
    let scale = PxScale::from(size);
    let sf = f.as_scaled(scale);
    let baseline = y + HALF_CAP * size;
    let mut caret = x - align * text_width(text, size);
    let mut prev = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            caret += sf.kern(p, id);
        }
        prev = Some(id);
        let glyph = id.with_scale_and_position(scale, point(caret, baseline));
        caret += sf.h_advance(id);
        if let Some(g) = f.outline_glyph(glyph) {
            let b = g.px_bounds();
            g.draw(|gx, gy, cov| plot(b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, cov));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_loads_and_digits_have_their_size() {
        // DejaVu Sans digits advance 0.636 em; its ascender-to-descender height is 1.164 em.
        let em = 20.0 / 1.1641;
        let w = text_width("1000", 20.0);
        assert!((w - 4.0 * 0.636 * em).abs() < 0.1, "{w}");
        // The ink of "8" at 100 spans the digit height (0.729 em plus overshoot) around the
        // middle row.
        let (mut top, mut bottom) = (i32::MAX, i32::MIN);
        draw_text("8", 100.0, 0.0, 200.0, 0.0, |_, y, c| {
            if c > 0.5 {
                top = top.min(y);
                bottom = bottom.max(y);
            }
        });
        assert!((bottom - top + 1 - 64).abs() <= 2, "{top} {bottom}");
        assert!(
            ((top + bottom) as f32 / 2.0 - 200.0).abs() <= 1.5,
            "{top} {bottom}"
        );
    }
}
