//! `daylit-falsecolor`: colour scales, legends and false-colour pictures.
//!
//! - [`palette`]: RADIANCE falsecolor's palettes (`def`, `spec`, `pm3d`, `hot`, `eco`) and
//!   viridis, as linear (HDR) and display (PNG) colours.
//! - [`text`]: text from a DejaVu Sans subset compiled into the binary.
//! - [`raster`]: 8-bit and floating-point RGB pictures with rectangles, outlines and text.
//! - [`bands`]: banded scales (flat colour per band; linear or 1-2-3-5 logarithmic edges).
//! - [`legend`]: a vertical colour scale with its numbers beside it or over it.
//! - [`args`]: falsecolor's own command line.
//! - [`tonemap`]: natural-looking display pictures of HDR pictures.
//! - [`picture`]: false-colour pictures of RADIANCE HDR images as `falsecolor` makes them
//!   (linear or logarithmic scale, contour lines and bands, posterization, legend).
//!
//! ```no_run
//! use daylit_falsecolor::picture::{false_colour, Options};
//! # fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let hdr = daylit_image::HdrImage::read("view.hdr".as_ref())?;
//! let fc = false_colour(&hdr, None, &Options { decades: 2.0, ..Options::default() })?;
//! std::fs::write("view_fc.png", fc.to_png()?)?;
//! # Ok(()) }
//! ```

pub mod args;
pub mod bands;
pub mod legend;
pub mod palette;
pub mod picture;
pub mod raster;
pub mod text;
pub mod tonemap;

pub use bands::Bands;
pub use palette::Palette;
pub use picture::{false_colour, Contour, FalseColour, FalseColourError, Options, Scale};
pub use raster::Raster;
/// The vector drawing library behind [`Raster::draw_vector`], for callers' paths and paints.
pub use tiny_skia;
