//! RADIANCE's file conventions, in one place for every program and crate that reads or writes
//! RADIANCE's files:
//!
//! - [`header`]: the information header (`#?RADIANCE`, the command lines that made a file,
//!   `CAPDATE=`/`GMT=`), and command lines quoted as RADIANCE writes them;
//! - [`printf`]: numbers as C's `printf` writes them (`%g`, `%.Ng`, `%18.12g`, `%.Ne`);
//! - [`scan`]: numbers as C's `atof`/`strtod` read them;
//! - [`atomic`]: output written to a temporary file and renamed into place when complete;
//! - [`provenance`]: how a result was made (command line, version, inputs with their SHA-256,
//!   settings, seed), recorded in JSON, CSV, picture headers and PNG text chunks.
//!
//! Matrix and picture headers add their own lines (`NROWS=`, `FORMAT=`, `VIEW=`, …); their
//! readers live with those data (`daylit-matrix`, `daylit-image`).

pub mod atomic;
pub mod header;
pub mod printf;
pub mod provenance;
pub mod scan;

pub use atomic::{
    check_output_file, check_output_folder, write_atomic, write_atomic_with, AtomicError,
};
pub use provenance::{InputFile, Provenance, ProvenanceError};
