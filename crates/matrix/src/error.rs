//! The one error type of the crate: every message names the input and, where there is
//! one, the line, and says what was expected.

/// Why a matrix could not be read, written or multiplied.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    /// The file or stream could not be read.
    #[error("cannot read {name}: {source}")]
    Io {
        /// The input's name.
        name: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A header line, or the header as a whole, is not what a matrix needs.
    #[error("{name}: line {line}: {message}")]
    Header {
        /// The input's name.
        name: String,
        /// 1-based line number.
        line: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A word in ASCII data is not a number.
    #[error("{name}: line {line}: expected a number, found '{found}'")]
    Number {
        /// The input's name.
        name: String,
        /// 1-based line number.
        line: usize,
        /// The offending word (shortened).
        found: String,
    },
    /// The data do not fit the dimensions (too short, not whole rows, unknown size).
    #[error("{name}: {message}")]
    Data {
        /// The input's name.
        name: String,
        /// What was wrong and what was expected.
        message: String,
    },
    /// Operands whose shapes do not fit together, or an impossible shape.
    #[error("{0}")]
    Shape(String),
}
