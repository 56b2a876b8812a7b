//! RADIANCE's portable binary encoding, shared by octrees and compiled meshes: the text
//! information header, big-endian signed integers of 1 to 8 bytes, NUL-terminated strings,
//! and reals as a 4-byte mantissa with a 1-byte exponent. Every read is bounds-checked, so a
//! truncated or damaged file gives an error naming the byte where reading stopped.

use crate::error::SceneError;
use crate::types::PrimType;
use std::path::{Path, PathBuf};

/// A read position in a file's bytes.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: &'a Path,
}

impl<'a> Cursor<'a> {
    /// Starts reading `bytes` (from `path`, for messages) at offset `pos`.
    pub fn new(bytes: &'a [u8], pos: usize, path: &'a Path) -> Self {
        Cursor { bytes, pos, path }
    }

    /// The current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// An error located at byte `at` of the file.
    pub fn error_at(&self, at: usize, msg: impl Into<String>) -> SceneError {
        SceneError::Binary {
            path: PathBuf::from(self.path),
            offset: at as u64,
            msg: msg.into(),
        }
    }

    /// An error located at the current position.
    pub fn error(&self, msg: impl Into<String>) -> SceneError {
        self.error_at(self.pos, msg)
    }

    fn truncated(&self, what: &str) -> SceneError {
        self.error(format!("truncated file (reading {what})"))
    }

    /// One byte.
    pub fn byte(&mut self, what: &str) -> Result<u8, SceneError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or_else(|| self.truncated(what))?;
        self.pos += 1;
        Ok(b)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: u64, what: &str) -> Result<(), SceneError> {
        let left = (self.bytes.len() - self.pos) as u64;
        if n > left {
            self.pos = self.bytes.len();
            return Err(self.truncated(what));
        }
        self.pos += n as usize;
        Ok(())
    }

    /// A signed big-endian integer of `size` bytes (1 to 8), sign-extended from its first byte.
    pub fn int(&mut self, size: usize, what: &str) -> Result<i64, SceneError> {
        let end = self.pos + size;
        let b = self
            .bytes
            .get(self.pos..end)
            .ok_or_else(|| self.truncated(what))?;
        let mut r: i64 = if b[0] & 0x80 != 0 { -1 } else { 0 };
        for &c in b {
            r = (r << 8) | c as i64;
        }
        self.pos = end;
        Ok(r)
    }

    /// The size in bytes of stored object numbers, from the 2-byte magic number at the cursor:
    /// `base` plus a size of 1 to `max` (RADIANCE's octree and mesh files); `what` names the
    /// format in the error.
    pub fn object_size(&mut self, base: i64, max: i64, what: &str) -> Result<usize, SceneError> {
        let start = self.pos();
        let magic = self.int(2, "magic number")?;
        let size = magic - base;
        if !(1..=max).contains(&size) {
            return Err(self.error_at(
                start,
                format!("incompatible {what} format (magic number {magic})"),
            ));
        }
        Ok(size as usize)
    }

    /// A real: a signed 4-byte mantissa (scaled by 2^31 - 1, read at the middle of its step)
    /// and a signed 1-byte power of two.
    pub fn real(&mut self, what: &str) -> Result<f64, SceneError> {
        let m = self.int(4, what)?;
        let e = self.int(1, what)?;
        if m == 0 {
            return Ok(0.0);
        }
        let neg = if m < 0 { 1.0 } else { 0.0 };
        let d = (m as f64 + 0.5 - neg) * (1.0 / 2_147_483_647.0);
        Ok(d * 2f64.powi(e as i32))
    }

    /// A NUL-terminated string.
    pub fn str(&mut self, what: &str) -> Result<String, SceneError> {
        let rest = &self.bytes[self.pos..];
        let n = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| self.truncated(what))?;
        let s = String::from_utf8_lossy(&rest[..n]).into_owned();
        self.pos += n + 1;
        Ok(s)
    }

    /// A NUL-terminated decimal number, as RADIANCE writes the cube bounds (`%.12g`).
    pub fn number_str(&mut self, what: &str) -> Result<f64, SceneError> {
        let at = self.pos;
        let s = self.str(what)?;
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.error_at(at, format!("bad number \"{s}\" ({what})")))
    }

    /// Skips an octree stored in pre-order (RADIANCE's node codes: 0 empty, 1 a set of
    /// `objsize`-byte object numbers, 2 eight children), without recursion.
    pub fn skip_tree(&mut self, objsize: usize) -> Result<(), SceneError> {
        let mut pending: u64 = 1;
        while pending > 0 {
            pending -= 1;
            let at = self.pos;
            match self.byte("octree node")? {
                0 => {}
                1 => {
                    let n = self.int(objsize, "octree set size")?;
                    if n < 0 {
                        return Err(self.error_at(at, "damaged octree (negative set size)"));
                    }
                    self.skip(n as u64 * objsize as u64, "octree set")?;
                }
                2 => pending += 8,
                c => {
                    return Err(self.error_at(at, format!("damaged octree (node code {c})")));
                }
            }
        }
        Ok(())
    }
}

/// Reads a RADIANCE information header (`#?RADIANCE` up to the blank line) and checks its
/// `FORMAT=` line; returns the header lines (without the first) and where the data starts.
pub fn read_header(
    bytes: &[u8],
    format: &str,
    path: &Path,
) -> Result<(Vec<String>, usize), SceneError> {
    let c = Cursor::new(bytes, 0, path);
    if !bytes.starts_with(b"#?") {
        return Err(c.error_at(0, "no RADIANCE information header"));
    }
    let mut lines = Vec::new();
    let mut pos = 0;
    let mut found = None;
    let mut first = true;
    loop {
        let rest = &bytes[pos..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| c.error_at(bytes.len(), "truncated information header"))?;
        let line = String::from_utf8_lossy(&rest[..end]).into_owned();
        pos += end + 1;
        if line.is_empty() {
            break;
        }
        if let Some(f) = line.strip_prefix("FORMAT=") {
            found = Some(f.trim().to_string());
        }
        if !first {
            lines.push(line);
        }
        first = false;
    }
    match found {
        Some(f) if f == format => Ok((lines, pos)),
        Some(f) => Err(c.error_at(0, format!("format is {f}, not {format}"))),
        None => Err(c.error_at(0, format!("no FORMAT={format} line in the header"))),
    }
}

/// Does this file start with a RADIANCE header naming `format`?
pub fn has_format(bytes: &[u8], format: &str) -> bool {
    if !bytes.starts_with(b"#?") {
        return false;
    }
    let want = format!("\nFORMAT={format}\n");
    let end = bytes
        .windows(2)
        .take(1 << 16)
        .position(|w| w == b"\n\n")
        .map_or(bytes.len().min(1 << 16), |p| p + 2);
    bytes[..end]
        .windows(want.len())
        .any(|w| w == want.as_bytes())
}

/// One primitive of a binary scene section (frozen octree or compiled-mesh materials).
#[derive(Clone, Debug)]
pub struct BinPrim {
    /// Type.
    pub ptype: PrimType,
    /// Index of the modifier among the section's objects (`None` for `void`).
    pub modifier: Option<usize>,
    /// Identifier.
    pub name: String,
    /// String arguments.
    pub sargs: Vec<String>,
    /// Real arguments.
    pub fargs: Vec<f64>,
    /// Byte offset of the record, for messages.
    pub offset: usize,
}

/// Reads a binary scene section: the list of type names, then objects until the terminator.
/// Modifier numbers are checked to name an earlier object of the section.
pub fn read_scene(c: &mut Cursor, objsize: usize) -> Result<Vec<BinPrim>, SceneError> {
    let mut types: Vec<Option<PrimType>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    loop {
        let s = c.str("type list")?;
        if s.is_empty() {
            break;
        }
        types.push(PrimType::from_name(&s));
        names.push(s);
        if types.len() > 255 {
            return Err(c.error("damaged type list (more than 255 types)"));
        }
    }
    let mut out: Vec<BinPrim> = Vec::new();
    loop {
        let offset = c.pos();
        let t = c.int(1, "object type")?;
        if t == -1 {
            return Ok(out);
        }
        let ptype = usize::try_from(t)
            .ok()
            .and_then(|i| types.get(i).copied().map(|p| (i, p)))
            .ok_or_else(|| c.error_at(offset, format!("reference to unknown type {t}")))
            .and_then(|(i, p)| {
                p.ok_or_else(|| c.error_at(offset, format!("unknown object type \"{}\"", names[i])))
            })?;
        let m = c.int(objsize, "modifier")?;
        let modifier = match m {
            -1 => None,
            m if m >= 0 && (m as usize) < out.len() => Some(m as usize),
            m => {
                return Err(c.error_at(
                    offset,
                    format!(
                        "object {}: modifier number {m} is not an earlier object",
                        out.len()
                    ),
                ))
            }
        };
        let name = c.str("object name")?;
        let ns = c.int(2, "string argument count")?;
        let sargs = (0..ns.max(0))
            .map(|_| c.str("string argument"))
            .collect::<Result<Vec<_>, _>>()?;
        let nf = c.int(2, "real argument count")?;
        let fargs = (0..nf.max(0))
            .map(|_| c.real("real argument"))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(BinPrim {
            ptype,
            modifier,
            name,
            sargs,
            fargs,
            offset,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_reals() {
        let p = Path::new("t");
        let bytes = [0xff, 0xfe, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0x02];
        let mut c = Cursor::new(&bytes, 0, p);
        assert_eq!(c.int(2, "x").unwrap(), -2);
        assert_eq!(c.int(1, "x").unwrap(), 1);
        assert_eq!(c.int(1, "x").unwrap(), 0);
        // 0x40000000 / (2^31 - 1) * 4 is 2 within the encoding's resolution.
        let mut c = Cursor::new(&bytes[4..], 0, p);
        assert!((c.real("x").unwrap() - 2.0).abs() < 1e-8);
        let err = c.int(1, "x").unwrap_err().to_string();
        assert!(err.contains("byte 5"), "{err}");
    }
}
