//! `daylit-image`: RADIANCE pictures and what is measured on them.
//!
//! - [`hdr`]: reading and writing RGBE `.hdr` pictures (header, resolution line, flat, old-style
//!   and new-style run-length encoded scanlines), written from the format description.
//! - [`view`]: RADIANCE view options (`-vt? -vp -vd -vu -vh -vv -vs -vl -vo -va`), the ray of
//!   each pixel as RADIANCE's `viewray` gives it, pixel solid angles and the inverse projection.
//! - [`tregenza`]: the 145 Tregenza patches and the patch-level comparison of two luminance
//!   images (Jones & Reinhart, seed 001, eq. 2-5).
//! - [`dn_error`]: distribution-normalised MAE / MSD of paired results, binned by the reference
//!   (Wasilewski et al., seed 004, eq. 2).
//!
//! Pixel addressing throughout: `(col, row)` with `row` 0 the *top* scanline (the first one in
//! a standard `-Y N +X M` file) and `col` 0 the left column. RADIANCE's own image coordinates
//! (`x` right, `y` up, pixel centres at `(i + 0.5) / xres`) appear only inside [`view`].

pub mod dn_error;
pub mod hdr;
pub mod tregenza;
pub mod view;

pub use hdr::{luminance_of, Format, HdrImage, ImageError};
pub use tregenza::{compare, Comparison, PatchMap, PatchStat, TREGENZA_PATCHES};
pub use view::{Ray, View, ViewError, ViewFrame, ViewType};
