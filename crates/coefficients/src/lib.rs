//! Daylight coefficients (SPEC part F; thesis §6.1): how much each sky patch and each sun
//! position adds to each sensor.
//!
//! - [`sender`]: the sky and ground sender added to the user's scene, one glow of radiance 1
//!   binned by sky patch (what `rfluxmtx` makes of a `#@rfluxmtx` sky file).
//! - [`coefficients`]: the matrix sensors × patches by contribution tracing, with the direct
//!   part (sky seen straight through glazing) gathered in the same pass for the five-phase
//!   correction.
//! - [`sun`]: the direct-sun term, one sharp sun per time step.
//! - [`annual`]: the year, E = DC·S − DC_d·S_ds + E_sun (thesis eq. 6.4).
//! - [`shards`]: the year split into shards (sensor blocks × sky-patch blocks) that run
//!   anywhere and merge to the single-process result bit for bit.
//! - [`rfluxmtx`]: `#@rfluxmtx` receiver files, and native bin functions equal to the
//!   hemisphere bins rfluxmtx has rcontrib compute (Klems, Reinhart, Shirley-Chiu, CIE);
//!   [`rfluxmtx::sender`]: sender files (window groups) and the rays rfluxmtx samples over
//!   them, `-c` per hemisphere bin (daylight matrices).
//!   [`rfluxmtx::job`]: rfluxmtx runs (a sender, a receiver file, a system) as rcontrib jobs.
//! - [`rcontrib`]: rcontrib as a typed job: receivers binned by `-b` expressions or natively,
//!   records written as rcontrib writes them (headers, formats, `%s`/`%d` files, `-r`).
//! - [`phases`]: the three- and five-phase methods for BSDF window groups with shades that
//!   change hour by hour (V T D S; thesis eq. 6.2-6.4).
//! - [`genbsdf`]: genBSDF's Klems BSDF of a fenestration model, traced in process and
//!   wrapped into WindowElement XML.
//! - [`study`]: an annual run as `daylit annual` makes it (method chosen, the year, window
//!   states), for every front end.

pub mod annual;
pub mod coefficients;
pub mod genbsdf;
pub mod phases;
pub mod pkgbsdf;
pub mod rcontrib;
pub mod rfluxmtx;
pub mod sender;
pub mod shards;
pub mod study;
pub mod sun;

pub use annual::{annual_illuminance, AnnualIlluminance, Stage, TraceSettings};
pub use coefficients::{daylight_coefficients, Coefficients, Sensor};
pub use sender::{sky_scene, SkyRenderer};
