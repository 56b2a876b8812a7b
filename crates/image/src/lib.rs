//! `daylit-image`: RADIANCE pictures and what is measured on them.
//!
//! - [`hdr`]: reading and writing RGBE `.hdr` pictures (header, resolution line, flat, old-style
//!   and new-style run-length encoded scanlines), written from the format description.
//! - [`filter`]: pfilt's box and Gaussian filtering onto a new resolution, with its
//!   two-pass exposure.
//! - [`view`]: RADIANCE view options (`-vt? -vp -vd -vu -vh -vv -vs -vl -vo -va`), the ray of
//!   each pixel as RADIANCE's `viewray` gives it, pixel solid angles and the inverse projection.
//! - [`font`]: RADIANCE's polygonal `.fnt` fonts and their line layouts, for text patterns and
//!   `psign`.
//! - [`sign`]: pictures of text, as psign draws them.
//! - [`pcond`]: conditioning a picture for a display as RADIANCE's pcond does it (histogram
//!   adjustment tone mapping, veiling glare, acuity loss, mesopic colour, device primaries).
//! - [`tiff`]: pictures to and from TIFF images, as ra_tiff converts them.
//! - [`tregenza`]: the 145 Tregenza patches and the patch-level comparison of two luminance
//!   images (Jones & Reinhart, seed 001, eq. 2-5).
//! - [`codes`]: the encoded depth, normal and identifier maps of rcode_depth, rcode_norm and
//!   rcode_ident, and the resolution line's pixel order.
//! - [`color`]: RADIANCE's RGB primaries and CIE XYZ to RGB.
//! - [`words`]: the words of RADIANCE's number files (data files, fonts) with their lines.
//! - [`dn_error`]: distribution-normalised MAE / MSD of paired results, binned by the reference
//!   (Wasilewski et al., seed 004, eq. 2).
//! - [`report`]: `daylit compare`'s text and JSON reports of both comparisons.
//!
//! Pixel addressing throughout: `(col, row)` with `row` 0 the *top* scanline (the first one in
//! a standard `-Y N +X M` file) and `col` 0 the left column. RADIANCE's own image coordinates
//! (`x` right, `y` up, pixel centres at `(i + 0.5) / xres`) appear only inside [`view`].

pub mod codes;
pub mod color;
pub mod dn_error;
pub mod filter;
pub mod font;
pub mod hdr;
pub mod pcond;
pub mod report;
pub mod sign;
pub mod tiff;
pub mod tregenza;
pub mod view;
pub mod words;

pub use hdr::{luminance_of, Format, HdrImage, ImageError};

/// An 8-bit sRGB value of a linear display value (clamped to 0..1), with the sRGB transfer
/// curve: for tone-mapped PNGs.
pub fn srgb8(v: f64) -> u8 {
    let v = v.clamp(0.0, 1.0);
    let c = if v <= 0.003_130_8 {
        12.92 * v
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0 + 0.5) as u8
}
pub use tregenza::{compare, Comparison, PatchMap, PatchStat, TREGENZA_PATCHES};
pub use view::{Ray, View, ViewError, ViewFrame, ViewType};
