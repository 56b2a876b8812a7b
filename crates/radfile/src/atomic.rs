//! Writing results safely: into a temporary file beside the target, renamed into place only
//! when complete, so that a failed run never leaves a half-written file and a reader never
//! sees one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AtomicError {
    /// No temporary file could be made in the target's folder (missing, not a folder, or
    /// not writable).
    #[error("cannot create a temporary file in {}", dir.display())]
    Create {
        /// The folder.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Writing the contents failed (a full disk, or the producer's own error).
    #[error("cannot write {}", path.display())]
    Write {
        /// The target.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The finished file could not take the target's place.
    #[error("cannot replace {}", path.display())]
    Replace {
        /// The target.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), AtomicError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Streams into a temporary file beside `path`, renamed into place only when `write` has
/// finished.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), AtomicError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Ordinary permissions (the umask applies), not the private ones of a temporary file.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|source| AtomicError::Create {
            dir: dir.to_path_buf(),
            source,
        })?;
    write(tmp.as_file_mut())
        .and_then(|_| tmp.flush())
        .map_err(|source| AtomicError::Write {
            path: path.to_path_buf(),
            source,
        })?;
    tmp.persist(path).map_err(|e| AtomicError::Replace {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomic(&path, b"first").unwrap();
        let err = write_atomic_with(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("the producer failed"))
        })
        .unwrap_err();
        assert!(matches!(err, AtomicError::Write { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/folder/out.txt");
        let err = write_atomic(&missing, b"x").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot create a temporary file in"),
            "{err}"
        );
    }
}
