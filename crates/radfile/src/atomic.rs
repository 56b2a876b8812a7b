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
    /// An output path that cannot be written, found before any work was done.
    #[error("cannot write {}: {reason}", path.display())]
    Unwritable {
        /// The path as the user gave it.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
}

/// The folder a file at `path` goes into (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Whether files can be made in the existing folder `dir`: a temporary file is made there
/// and removed, which answers for permissions, read-only mounts and the like at once.
fn folder_takes_files(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "the folder {} does not exist (daylit does not create it)",
                dir.display()
            ))
        }
        Err(e) => return Err(format!("the folder {} cannot be read ({e})", dir.display())),
        Ok(m) if !m.is_dir() => return Err(format!("{} is a file, not a folder", dir.display())),
        Ok(_) => {}
    }
    tempfile::Builder::new()
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            format!(
                "the folder {} does not take new files ({})",
                dir.display(),
                plain(&e)
            )
        })
}

/// What the system said, without the name of the temporary file it was about.
fn plain(e: &std::io::Error) -> std::io::Error {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::from(e.kind()),
    }
}

/// Checks, before any work, that a file can be written at `path` by [`write_atomic`]: its
/// folder exists and takes new files, and `path` is not itself a folder. Nothing is created.
pub fn check_output_file(path: &Path) -> Result<(), AtomicError> {
    let bad = |reason: String| AtomicError::Unwritable {
        path: path.to_path_buf(),
        reason,
    };
    if path.as_os_str().is_empty() {
        return Err(bad("the file name is empty".into()));
    }
    if path.is_dir() {
        return Err(bad("it is a folder, not a file".into()));
    }
    folder_takes_files(folder_of(path)).map_err(bad)
}

/// Checks, before any work, that `dir` is an output folder that exists and takes new files,
/// or, when `create` is true, one that can be made: its parent folder exists and takes new
/// files. Nothing is created; the caller makes the folder when it writes.
pub fn check_output_folder(dir: &Path, create: bool) -> Result<(), AtomicError> {
    let bad = |reason: String| AtomicError::Unwritable {
        path: dir.to_path_buf(),
        reason,
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => folder_takes_files(dir).map_err(bad),
        Ok(_) => Err(bad("it is a file, not a folder".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => {
            folder_takes_files(folder_of(dir)).map_err(bad)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(bad(
            "the folder does not exist (daylit does not create it)".into(),
        )),
        Err(e) => Err(bad(format!("it cannot be read ({e})"))),
    }
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
    let dir = folder_of(path);
    // Ordinary permissions (the umask applies), not the private ones of a temporary file.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| AtomicError::Create {
            dir: dir.to_path_buf(),
            // tempfile names its hidden file in the error; the user named only the target.
            source: plain(&e),
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
        let why = format!("{:?}", std::error::Error::source(&err));
        assert!(!why.contains(".tmp"), "{why}");
    }

    #[test]
    fn output_paths_are_checked_without_creating_anything() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a_file");
        std::fs::write(&file, b"x").unwrap();
        check_output_file(&dir.path().join("r.json")).unwrap();
        let msg = |e: AtomicError| e.to_string();
        let under_file = file.join("r.json");
        assert_eq!(
            msg(check_output_file(&under_file).unwrap_err()),
            format!(
                "cannot write {}: {} is a file, not a folder",
                under_file.display(),
                file.display()
            )
        );
        let missing = dir.path().join("no/r.json");
        assert!(msg(check_output_file(&missing).unwrap_err())
            .ends_with("/no does not exist (daylit does not create it)"));
        assert!(
            msg(check_output_file(dir.path()).unwrap_err()).ends_with("it is a folder, not a file")
        );
        check_output_folder(&dir.path().join("maps"), true).unwrap();
        assert!(check_output_folder(&dir.path().join("maps"), false).is_err());
        assert!(check_output_folder(&dir.path().join("no/maps"), true).is_err());
        assert!(check_output_folder(&file, true).is_err());
        // Nothing was made.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
