//! Errors that point at the place in the input where reading went wrong.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a word, primitive or command came from: file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    /// The file (or `!command` text) the input came from.
    pub source: Arc<str>,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column number.
    pub col: u32,
}

impl Loc {
    /// A location in the given source.
    pub fn new(source: Arc<str>, line: u32, col: u32) -> Self {
        Loc { source, line, col }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source, self.line, self.col)
    }
}

/// Everything that can go wrong while reading a scene.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// Malformed input at a known place.
    #[error("{loc}: {msg}")]
    Syntax {
        /// Where.
        loc: Loc,
        /// What was expected or what is wrong.
        msg: String,
    },
    /// A file could not be read.
    #[error("{}: cannot read: {reason}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why (the operating system's message; kept as text so that it is printed once).
        reason: String,
    },
    /// The binary scene file is damaged, truncated or of another version.
    #[error("{}: {msg}", path.display())]
    Archive {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// A RADIANCE binary file (octree, compiled mesh) is damaged, truncated or of another
    /// format; located by byte offset.
    #[error("{}: byte {offset}: {msg}", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// Byte offset where reading stopped.
        offset: u64,
        /// What is wrong.
        msg: String,
    },
}

impl SceneError {
    /// A syntax error at `loc`.
    pub fn at(loc: &Loc, msg: impl Into<String>) -> Self {
        SceneError::Syntax {
            loc: loc.clone(),
            msg: msg.into(),
        }
    }
}

/// Result alias for scene reading.
pub type Result<T, E = SceneError> = std::result::Result<T, E>;
