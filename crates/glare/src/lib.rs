//! `daylit-glare`: glare and luminance metrics of a view, from an HDR picture or from a set of
//! rays, at parity with evalglare 3.06 (RADIANCE 6.0a).
//!
//! - [`picture`]: a RADIANCE picture prepared as evalglare sees it (grey luminance, each
//!   pixel's ray and solid angle, which pixels count).
//! - [`evaluate()`]: evalglare's evaluation of a picture — vertical illuminance Ev, glare-source
//!   detection (threshold, search radius, merging, smoothing, peak extraction), task and band
//!   luminance, and DGP, DGPs, UGR, UGP, DGI, CGI, VCP, veiling luminance.
//! - [`report`]: evalglare's output lines, character for character.
//! - [`args`]: evalglare's command-line syntax.
//! - [`rays`]: the same metrics from directions, solid angles and luminances, without a
//!   picture (live views and adaptive sampling).
//! - [`contrast`]: task-area luminance (thesis eq. 7.4), the contrast ratios CRv and CRd (eq.
//!   2.1–2.3, 5.5–5.6) and the RAMMG noise metric (eq. 7.2–7.3).
//! - [`metrics`]: the index formulas both paths share.
//! - [`geometry`]: RADIANCE's view arithmetic and the position index.
//! - [`classes`]: imperceptible / perceptible / disturbing / intolerable for each index.
//! - [`imageless`]: glare from daylight coefficients without a picture (RADIANCE's dcglare).

pub mod args;
pub mod classes;
pub mod contrast;
mod detect;
pub mod evaluate;
pub mod geometry;
pub mod imageless;
pub mod metrics;
pub mod picture;
pub mod rays;
pub mod report;

pub use evaluate::{evaluate, BandStats, Evaluation, Options, SourceReport, Task};
pub use metrics::{DgpCoefficients, GlareSource};
pub use picture::GlarePicture;
pub use rays::{evaluate_rays, Ray, RayEvaluation, RayOptions};

/// What can go wrong evaluating glare.
#[derive(Debug, thiserror::Error)]
pub enum GlareError {
    /// Bad input (picture, view, option); the message names what and where.
    #[error("{0}")]
    Input(String),
    /// A perspective view over a picture with black corners (a fisheye rendered with the
    /// wrong view in its header); evalglare stops unless forced with `-f`. Holds the lines
    /// evalglare prints.
    #[error("{}", .0.join("\n"))]
    BlackCorners(Vec<String>),
}
