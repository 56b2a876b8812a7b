//! Error type shared by parsing, linking and file loading.

use std::path::PathBuf;

/// Any error reported while reading, compiling or linking `.cal` text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CalError {
    /// The text does not follow the calc grammar.
    #[error("{source_name}:{line}:{column}: {message}")]
    Syntax {
        /// File name (or a label such as `expression`) of the offending text.
        source_name: String,
        /// 1-based line number.
        line: u32,
        /// 1-based column (in characters) of the offending character.
        column: u32,
        /// What went wrong / what was expected.
        message: String,
    },
    /// A name used by an expression cannot be resolved (undefined variable or
    /// function, wrong kind, too few arguments to a library function ...).
    #[error("{source_name}:{line}:{column}: {name}: {message}")]
    Link {
        /// Source that contains the reference.
        source_name: String,
        /// 1-based line of the reference.
        line: u32,
        /// 1-based column of the reference.
        column: u32,
        /// The offending name.
        name: String,
        /// Explanation, e.g. `undefined variable`.
        message: String,
    },
    /// A function file was not found on disk nor in the embedded library.
    #[error(
        "cannot find function file \"{name}\" (searched: {})",
        fmt_dirs(searched)
    )]
    NotFound {
        /// The name as given.
        name: String,
        /// Directories that were searched, in order.
        searched: Vec<PathBuf>,
    },
    /// A file was found but could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
}

fn fmt_dirs(d: &[PathBuf]) -> String {
    if d.is_empty() {
        return "no directories".to_string();
    }
    d.iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl CalError {
    /// Line of the error, when it has one.
    pub fn line(&self) -> Option<u32> {
        match self {
            CalError::Syntax { line, .. } | CalError::Link { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// Column of the error, when it has one.
    pub fn column(&self) -> Option<u32> {
        match self {
            CalError::Syntax { column, .. } | CalError::Link { column, .. } => Some(*column),
            _ => None,
        }
    }

    /// The human-readable message without location.
    pub fn message(&self) -> String {
        match self {
            CalError::Syntax { message, .. } => message.clone(),
            CalError::Link { name, message, .. } => format!("{name}: {message}"),
            other => other.to_string(),
        }
    }
}

/// A run-time problem met while evaluating (the value returned is then 0).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    /// A reference that linking already flagged (undefined name etc.).
    #[error("{0}")]
    Link(String),
    /// `arg(n)` asked for a real argument the modifier does not have.
    #[error("missing real argument {0}")]
    MissingArg(i64),
    /// A user function used a parameter the caller did not pass.
    #[error("{0}(): too few arguments")]
    TooFewArgs(String),
    /// A parameter was called as a function but the caller passed an expression.
    #[error("{0}(): argument not a function")]
    NotAFunction(String),
    /// Evaluation nested deeper than the limit (runaway recursion).
    #[error("evaluation depth limit exceeded (runaway recursion?)")]
    DepthExceeded,
    /// The step limit set with `EvalState::set_step_limit` was reached.
    #[error("evaluation step limit exceeded")]
    StepLimit,
}
