//! `daylit-lightfield`: seed 004's (raytraverse's) light field — adaptive sampling of the light
//! arriving at a position, stored as LightPoints, and annual glare from them.
//!
//! - [`point`]: [`LightPoint`], directions with Voronoi solid angles and value vectors, an
//!   R*-tree over the directions ([`tree`], rstar) for look-ups, and the merge of two LightPoints.
//! - [`voronoi`]: exact Voronoi solid angles on the sphere.
//! - [`io`]: the `.lpt` file format (below).
//! - [`wavelet`]: the detail of a weight image over the Shirley–Chiu square, and which cells
//!   get new samples.
//! - [`sky`]: wavelet-guided sky sampling at a position, each sample a coefficient vector over
//!   sky patches.
//! - [`sun`]: the hours' suns grouped by cell, and each sun's disc sampled finely.
//! - [`skies`]: the sky vectors of a weather year's occupied daylight hours.
//! - [`evaluate`]: Ev, DGP, DGPs, UGP, UGR of views hour by hour, and the annual summary.
//! - [`annual`]: the whole run over a set of views, with timings.
//!
//! # How an hour is evaluated
//!
//! Each sky sample holds the RGB coefficients of every Tregenza patch (all paths) and of its
//! direct path (straight through transparent surfaces to the patch of its own direction). An
//! hour's sample luminance is `179 · w · (C · S − D · S_sun)`: the whole sky matrix column `S`
//! (gendaymtx, the sun spread over its patches, so sunlight reflected and inter-reflected is
//! there, blurred over the patches) less what the direct path sees of the patch-blurred sun.
//! The true sun comes back as the disc samples of the hour's grouped sun, each with the disc
//! radiance times its transmittance and 1/n of the disc's solid angle (raytraverse's source
//! view). Sunlit patches and specular sun reflections seen in a view are therefore as blurred
//! as the Tregenza patches: seed 004's sun LightPoints, which resolve them, are not built yet.
//!
//! # The `.lpt` file
//!
//! One LightPoint, all numbers little-endian, in this order:
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | the mark `DAYLITLP` |
//! | 4 | format version, `u32` (1) |
//! | 4 | components per direction `c`, `u32` |
//! | 8 | number of directions `n`, `u64` |
//! | 24 | position, 3 × `f64` |
//! | 4 + s | source label: its length `s` in bytes, `u32`, then UTF-8 text |
//! | 24 n | unit directions, `n` × 3 `f64` (x, y, z; +Z up, +Y north) |
//! | 8 n | Voronoi solid angles, `n` × `f64` (sr) |
//! | 4 n c | values, `f32`, direction-major (`[i·c + k]`) |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Reading checks the mark, version, sizes and checksum, and rebuilds the k-d tree; the solid
//! angles are read as stored.

pub mod annual;
pub mod evaluate;
pub mod io;
pub mod point;
pub mod report;
pub mod skies;
pub mod sky;
pub mod sun;
pub mod tree;
pub mod voronoi;
pub mod wavelet;

pub use annual::{annual_glare, AnnualGlare, Progress, Settings, ViewSpec};
pub use point::LightPoint;

/// What can go wrong building, sampling, storing or evaluating a light field.
#[derive(Debug, thiserror::Error)]
pub enum LightFieldError {
    /// Bad input; the message names what and where.
    #[error("{0}")]
    Input(String),
    /// A file could not be read or written; the message names it.
    #[error("{0}")]
    Io(String),
}
