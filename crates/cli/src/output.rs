//! Writing results safely: to a temporary file beside the target, renamed into place only when
//! complete, so that a failed run never leaves a half-written file.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// `writeln!` into a `String` report (writing to a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}
pub(crate) use outln;

/// Whether standard output is a regular file (RADIANCE pads binary headers only there).
pub fn stdout_is_file() -> bool {
    use std::os::fd::AsFd;
    std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.is_file())
}

/// Prints a report to standard output. A reader that stops early (`| head`) is not an error.
pub fn print(text: &str) -> anyhow::Result<()> {
    print_bytes([text.as_bytes()])
}

/// Writes `chunks` to standard output in order, as [`print`] does.
pub fn print_bytes<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let res = chunks
        .into_iter()
        .try_for_each(|b| out.write_all(b))
        .and_then(|_| out.flush());
    match res {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("cannot write to standard output"),
    }
}

/// Writes `bytes` to `path` atomically (see [`daylit_radfile::atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    Ok(daylit_radfile::write_atomic(path, bytes)?)
}

/// Streams into `path` atomically (see [`daylit_radfile::atomic`]).
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    Ok(daylit_radfile::write_atomic_with(path, write)?)
}
