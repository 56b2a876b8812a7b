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

/// A program's command line as RADIANCE writes it in a header.
pub use daylit_cal::printf::command_line;

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

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Streams into a temporary file beside `path`, renamed into place only when `write` has
/// finished, so a failed run never leaves a half-written file.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Ordinary permissions (the umask applies), not the private ones of a temporary file.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    write(tmp.as_file_mut())
        .and_then(|_| tmp.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

/// A number as C's `%.Ne` writes it (`1.500000e+00`): RADIANCE's programs print this way and
/// scripts that read their output expect it.
pub fn c_exp(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let n: i32 = e.parse().unwrap_or(0);
            format!("{m}e{}{:02}", if n < 0 { '-' } else { '+' }, n.abs())
        }
        None => s,
    }
}

/// printf-style padding of a value by a conversion's flags and width (`%-08d`).
pub use daylit_cal::printf::pad as printf_pad;

/// The start of a RADIANCE header: `#?RADIANCE` and `lines`, each ended by a newline.
pub fn header_start(lines: &[String]) -> String {
    let mut h = String::from("#?RADIANCE\n");
    for l in lines {
        h += l;
        h.push('\n');
    }
    h
}
