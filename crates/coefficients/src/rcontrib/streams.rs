//! rcontrib's outputs: which (receiver, bin) columns go to which file (`%s` the modifier,
//! `%d` the bin), the header each stream starts with, the values in each format, `-r`
//! recovery of interrupted files, and files written whole (a temporary file beside the
//! target, renamed into place at the end).

use super::{invalid, io_err, ContribError, ContribJob, OutputFormat, Warning};
use daylit_radfile::printf::pad;
use glam::DVec3;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One output destination and the (receiver, bin) columns of each record written to it.
pub(crate) struct Stream {
    /// File name; the caller's writer (standard output) when `None`.
    pub(crate) path: Option<PathBuf>,
    /// Whether the name came from a `%s`.
    by_modifier: bool,
    /// The modifier of the first column.
    modifier: String,
    /// The bin, when the name came from a `%d`.
    bin: Option<usize>,
    /// Columns: offsets into a record's gathered values (`None`: a modifier not in the scene).
    pub(crate) cols: Vec<Option<usize>>,
}

/// The file name of modifier `m`'s bin `b` under output specification `spec`: rcontrib's
/// `%s` and `%d` (with printf flags and width). Returns the name and whether each was used.
pub fn output_name(spec: &str, m: &str, b: usize) -> Result<(String, bool, bool), ContribError> {
    let (mut s, mut has_s, mut has_d) = (String::new(), false, false);
    let mut chars = spec.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            s.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek() {
            if f.is_ascii_digit() || "-+ #".contains(f) {
                flags.push(f);
                chars.next();
            } else {
                break;
            }
        }
        match chars.next() {
            Some('%') if flags.is_empty() => s.push('%'),
            Some('s') if !has_s => {
                has_s = true;
                s += &pad(m.to_string(), &flags, false);
            }
            Some('d' | 'i') if !has_d => {
                has_d = true;
                s += &pad(b.to_string(), &flags, true);
            }
            _ => invalid!("bad output format '{spec}' (one %s for the modifier and one %d for the bin at most)"),
        }
    }
    Ok((s, has_s, has_d))
}

/// The output streams of `job`, in order of first use, given each receiver's bins and its
/// offset in the gathered values (`None`: not in the scene).
pub(crate) fn layout(
    job: &ContribJob,
    layout: &[(usize, Option<usize>)],
) -> Result<Vec<Stream>, ContribError> {
    let mut streams: Vec<Stream> = Vec::new();
    let mut by_name: HashMap<Option<String>, usize> = HashMap::new();
    // Pictures named by bin alone (`%d`, no `%s`): a modifier's bins are numbered after those
    // of the modifiers before it with the same specification, so that none overwrites another.
    let mut picture_bins: HashMap<&str, usize> = HashMap::new();
    for (r, &(bins, off)) in job.receivers.iter().zip(layout) {
        let first = match &r.out {
            Some(spec) if job.format == OutputFormat::Rgbe && !output_name(spec, &r.name, 0)?.1 => {
                let next = picture_bins.entry(spec.as_str()).or_insert(0);
                *next += bins;
                *next - bins
            }
            _ => 0,
        };
        for b in 0..bins {
            let (name, has_s, has_d) = match &r.out {
                Some(spec) => {
                    let (n, s, d) = output_name(spec, &r.name, first + b)?;
                    (Some(n), s, d)
                }
                None => (None, false, false),
            };
            if let Some(n) = name.as_deref().filter(|n| n.starts_with('!')) {
                invalid!("output to a command ({n}) is not supported; name a file");
            }
            let k = *by_name.entry(name.clone()).or_insert_with(|| {
                streams.push(Stream {
                    path: name.map(PathBuf::from),
                    by_modifier: has_s,
                    modifier: r.name.clone(),
                    bin: has_d.then_some(first + b),
                    cols: vec![],
                });
                streams.len() - 1
            });
            streams[k].cols.push(off.map(|o| o + b));
        }
    }
    Ok(streams)
}

/// Appends one RGB value in output format `fmt`, as rcontrib writes it.
pub(crate) fn put(buf: &mut Vec<u8>, v: DVec3, fmt: OutputFormat) {
    match fmt {
        OutputFormat::Float => v
            .to_array()
            .iter()
            .for_each(|x| buf.extend_from_slice(&(*x as f32).to_ne_bytes())),
        OutputFormat::Double => v
            .to_array()
            .iter()
            .for_each(|x| buf.extend_from_slice(&x.to_ne_bytes())),
        OutputFormat::Rgbe => buf.extend_from_slice(&daylit_image::hdr::float_to_rgbe([
            v.x as f32, v.y as f32, v.z as f32,
        ])),
        OutputFormat::Ascii => {
            let mut s = String::new();
            for x in v.to_array() {
                daylit_matrix::write::format_e6(x, &mut s);
                s.push('\t');
            }
            buf.extend_from_slice(s.as_bytes());
        }
    }
}

/// An open output: the caller's writer, or a temporary file renamed into place at the end.
pub(crate) enum Out<'w> {
    /// Standard output (or whatever the caller gave).
    Writer(&'w mut dyn Write),
    /// A file being written.
    File(std::io::BufWriter<tempfile::NamedTempFile>),
}

impl Write for Out<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match self {
            Out::Writer(w) => w.write(b),
            Out::File(w) => w.write(b),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Out::Writer(w) => w.flush(),
            Out::File(w) => w.flush(),
        }
    }
}

/// The header of stream `s` as rcontrib writes it (`MODIFIER=`, `BIN=`, `NROWS=`, `NCOLS=`,
/// `NCOMP=`, `FORMAT=`).
fn header(s: &Stream, job: &ContribJob) -> String {
    let reclen = s.cols.len();
    let mut h = String::from("#?RADIANCE\n");
    h += &job.command;
    h.push('\n');
    h += &format!("SOFTWARE= daylit {}\n", env!("CARGO_PKG_VERSION"));
    for l in daylit_radfile::header::date_lines() {
        h += &l;
        h.push('\n');
    }
    h += "NCOMP=3\n";
    if s.path.is_some() {
        if s.by_modifier || reclen == 1 {
            h += &format!("MODIFIER={}\n", s.modifier);
        }
        if let Some(b) = s.bin {
            h += &format!("BIN={b}\n");
        }
    }
    if job.yres > 0 {
        h += &format!("NROWS={}\n", job.yres * job.xres.max(1));
    }
    if job.xres == 0 || reclen > 1 {
        h += &format!("NCOLS={reclen}\n");
    }
    match job.format {
        OutputFormat::Float | OutputFormat::Double => {
            h += if cfg!(target_endian = "big") {
                "BigEndian=1\n"
            } else {
                "BigEndian=0\n"
            };
            h += if job.format == OutputFormat::Float {
                "FORMAT=float\n"
            } else {
                "FORMAT=double\n"
            };
        }
        OutputFormat::Rgbe => h += "FORMAT=32-bit_rle_rgbe\n",
        OutputFormat::Ascii => h += "FORMAT=ascii\n",
    }
    h.push('\n');
    h
}

/// Opens every stream and writes its header (then a resolution line for single-column
/// pictures); a stream `kept` by recovery gets its own header back from the caller instead.
pub(crate) fn open<'w>(
    streams: &[Stream],
    job: &ContribJob,
    kept: &[Recovered],
    stdout: &'w mut dyn Write,
) -> Result<Vec<Out<'w>>, ContribError> {
    let mut stdout = Some(stdout);
    let mut outs = Vec::new();
    for (k, s) in streams.iter().enumerate() {
        let mut out = match &s.path {
            None => Out::Writer(stdout.take().expect("one stream has no file name at most")),
            Some(p) => {
                if p.exists() && !job.force && !job.recover {
                    invalid!(
                        "cannot open '{}' for writing: file exists (-fo overwrites)",
                        p.display()
                    );
                }
                let dir = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                // Ordinary permissions (the umask applies), not a temporary file's private ones.
                let tmp = tempfile::Builder::new()
                    .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
                    .tempfile_in(dir)
                    .map_err(io_err(format!("cannot open '{}' for writing", p.display())))?;
                Out::File(std::io::BufWriter::new(tmp))
            }
        };
        if kept.get(k).is_some_and(|r| !r.bytes.is_empty()) {
            // The recovered file's own header and records are written instead.
            outs.push(out);
            continue;
        }
        let what = || io_err("cannot write output");
        if job.header {
            out.write_all(header(s, job).as_bytes()).map_err(what())?;
        }
        if has_resolution(s, job) {
            out.write_all(format!("-Y {:8} +X {:8}\n", job.yres, job.xres).as_bytes())
                .map_err(what())?;
        }
        outs.push(out);
    }
    Ok(outs)
}

/// Whether a stream's header is followed by a picture's resolution line.
fn has_resolution(s: &Stream, job: &ContribJob) -> bool {
    s.cols.len() == 1 && job.xres > 0 && job.yres > 0
}

/// What `-r` keeps of an existing output file.
pub(crate) struct Recovered {
    /// The file's bytes.
    pub(crate) bytes: Vec<u8>,
    /// Length of its header (and resolution line).
    pub(crate) header: usize,
    /// Byte offset after the header of the end of each complete record (index = records
    /// before it: `offsets[0] == 0`).
    pub(crate) offsets: Vec<usize>,
}

impl Recovered {
    /// Complete records after the header.
    pub(crate) fn complete(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// The complete records of every output file, for `-r` (ASCII too, which RADIANCE refuses).
/// A file that does not exist yet holds none; output without a file cannot be recovered.
pub(crate) fn recovered(
    streams: &[Stream],
    job: &ContribJob,
    warn: &mut dyn FnMut(Warning),
) -> Result<Vec<Recovered>, ContribError> {
    if job.accumulate == 0 {
        invalid!("-r with -c 0 (adding new rays to earlier results) is not supported by daylit; give -c N or recover without -r");
    }
    let mut kept = Vec::new();
    for s in streams {
        let Some(path) = &s.path else {
            invalid!("-r recovers output files: give -o (standard output cannot be recovered)");
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                warn(Warning::MissingRecoverFile(path.clone()));
                kept.push(Recovered {
                    bytes: vec![],
                    header: 0,
                    offsets: vec![0],
                });
                continue;
            }
            Err(e) => return Err(io_err(format!("cannot read {}", path.display()))(e)),
        };
        let mut header = 0;
        if job.header {
            let Some(end) = bytes.windows(2).position(|w| w == b"\n\n") else {
                invalid!("-r: {}: no complete header", path.display());
            };
            header = end + 2;
        }
        if has_resolution(s, job) {
            let Some(end) = bytes[header..].iter().position(|&c| c == b'\n') else {
                invalid!("-r: {}: no resolution line", path.display());
            };
            header += end + 1;
        }
        let body = &bytes[header..];
        let offsets: Vec<usize> = match job.format.value_size() {
            None => std::iter::once(0)
                .chain(
                    body.iter()
                        .enumerate()
                        .filter(|(_, &c)| c == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect(),
            Some(value) => {
                let size = s.cols.len() * value;
                (0..=body.len() / size.max(1)).map(|k| k * size).collect()
            }
        };
        kept.push(Recovered {
            offsets,
            header,
            bytes,
        });
    }
    Ok(kept)
}

/// Flushes every stream and moves the finished files into place (the caller's writer is
/// flushed, a reader that stopped early included, by the caller).
pub(crate) fn finish(outs: Vec<Out>, streams: &[Stream]) -> Result<(), ContribError> {
    for (out, s) in outs.into_iter().zip(streams) {
        if let Out::File(w) = out {
            let path = s.path.as_ref().expect("file streams have a path");
            let tmp = w
                .into_inner()
                .map_err(|e| io_err(format!("cannot write {}", path.display()))(e.into_error()))?;
            tmp.persist(path)
                .map_err(|e| io_err(format!("cannot replace {}", path.display()))(e.error))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_follow_printf() {
        let (n, s, d) = output_name("sky_%s_%03d.hdr", "skyglow", 7).unwrap();
        assert_eq!(n, "sky_skyglow_007.hdr");
        assert!(s && d);
        let (n, s, d) = output_name("all.mtx", "m", 3).unwrap();
        assert_eq!(n, "all.mtx");
        assert!(!s && !d);
        assert_eq!(
            output_name("%-4s|%5d%%", "ab", 12).unwrap().0,
            "ab  |   12%"
        );
        assert!(output_name("%s%s", "a", 0).is_err());
        assert!(output_name("%f", "a", 0).is_err());
    }
}
