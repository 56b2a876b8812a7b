//! The [`Provenance`] of a run of one of daylit's own commands: the command line as given
//! and daylit's version; each command adds its inputs and settings.

use daylit_radfile::provenance::Provenance;

/// A record of this process's command line, run by this daylit.
pub fn start() -> Provenance {
    Provenance::new(std::env::args().collect(), env!("CARGO_PKG_VERSION"))
}
