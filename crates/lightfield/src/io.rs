//! LightPoint files (`.lpt`): one LightPoint, little-endian, written whole or not at all
//! (a temporary file in the same folder, then renamed). The layout is in the crate docs.

use crate::{LightFieldError, LightPoint};
use glam::DVec3;
use std::io::Write;
use std::path::Path;

const MAGIC: &[u8; 8] = b"DAYLITLP";
const VERSION: u32 = 1;

/// The bytes of a LightPoint file.
pub fn to_bytes(lp: &LightPoint) -> Vec<u8> {
    let n = lp.len();
    let mut b = Vec::with_capacity(64 + n * (32 + 4 * lp.components()) + lp.source.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(lp.components() as u32).to_le_bytes());
    b.extend_from_slice(&(n as u64).to_le_bytes());
    for v in lp.position.to_array() {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&(lp.source.len() as u32).to_le_bytes());
    b.extend_from_slice(lp.source.as_bytes());
    for d in lp.directions() {
        for v in d.to_array() {
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    for o in lp.solid_angles() {
        b.extend_from_slice(&o.to_le_bytes());
    }
    for v in lp.values() {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

/// Writes `lp` to `path` atomically.
pub fn save(lp: &LightPoint, path: &Path) -> Result<(), LightFieldError> {
    let io = |e: std::io::Error| LightFieldError::Io(format!("{}: {e}", path.display()));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(&to_bytes(lp)).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Reads a LightPoint file; damage is an error naming the file and byte offset.
pub fn load(path: &Path) -> Result<LightPoint, LightFieldError> {
    let bytes =
        std::fs::read(path).map_err(|e| LightFieldError::Io(format!("{}: {e}", path.display())))?;
    from_bytes(&bytes).map_err(|e| LightFieldError::Input(format!("{}: {e}", path.display())))
}

/// A cursor over the file's bytes whose errors name the offset.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let Some(end) = end else {
            return Err(format!(
                "byte {}: the file ends inside the {what} ({} bytes left, {n} needed)",
                self.at,
                self.b.len() - self.at
            ));
        };
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().unwrap()))
    }
    fn f64s(&mut self, n: usize, what: &str) -> Result<Vec<f64>, String> {
        let bytes = n
            .checked_mul(8)
            .ok_or_else(|| format!("{what}: count too large"))?;
        Ok(self
            .take(bytes, what)?
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect())
    }
}

/// Parses the bytes of a LightPoint file.
pub fn from_bytes(b: &[u8]) -> Result<LightPoint, String> {
    if b.len() < MAGIC.len() || &b[..MAGIC.len()] != MAGIC {
        return Err("byte 0: not a daylit LightPoint file (no DAYLITLP mark)".into());
    }
    if b.len() < 12 {
        return Err(format!("byte {}: the file ends inside the header", b.len()));
    }
    let body = b.len() - 4;
    let want = u32::from_le_bytes(b[body..].try_into().unwrap());
    if crc32fast::hash(&b[..body]) != want {
        return Err(format!(
            "byte {body}: CRC-32 mismatch, the file is damaged or cut short"
        ));
    }
    let mut r = Reader {
        b: &b[..body],
        at: 8,
    };
    let version = r.u32("version")?;
    if version != VERSION {
        return Err(format!(
            "byte 8: version {version}, this daylit reads {VERSION}"
        ));
    }
    let ncomp = r.u32("component count")? as usize;
    let n = usize::try_from(r.u64("sample count")?).map_err(|_| "sample count too large")?;
    let p = r.f64s(3, "position")?;
    let slen = r.u32("source length")? as usize;
    let at = r.at;
    let source = std::str::from_utf8(r.take(slen, "source label")?)
        .map_err(|_| format!("byte {at}: the source label is not UTF-8"))?
        .to_string();
    let d = r.f64s(
        n.checked_mul(3).ok_or("sample count too large")?,
        "directions",
    )?;
    let omega = r.f64s(n, "solid angles")?;
    let nv = n.checked_mul(ncomp).and_then(|v| v.checked_mul(4));
    let values = r
        .take(nv.ok_or("value count too large")?, "values")?
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if r.at != body {
        return Err(format!(
            "byte {}: {} bytes after the values",
            r.at,
            body - r.at
        ));
    }
    let dirs = d.chunks_exact(3).map(DVec3::from_slice).collect();
    LightPoint::with_solid_angles(DVec3::from_slice(&p), source, dirs, omega, ncomp, values)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let d: Vec<DVec3> = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ]
        .into();
        let vals: Vec<f32> = (0..12).map(|k| k as f32 * 0.5).collect();
        let lp = LightPoint::new(DVec3::new(1.0, 2.0, 3.0), "sky:test", d, 2, vals).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.lpt");
        save(&lp, &path).unwrap();
        let back = load(&path).unwrap();
        assert_eq!(back.position, lp.position);
        assert_eq!(back.source, "sky:test");
        assert_eq!(back.directions(), lp.directions());
        assert_eq!(back.solid_angles(), lp.solid_angles());
        assert_eq!(back.values(), lp.values());
        let mut bytes = to_bytes(&lp);
        bytes[40] ^= 1;
        assert!(from_bytes(&bytes).unwrap_err().contains("CRC-32"));
        let bytes = to_bytes(&lp);
        assert!(from_bytes(&bytes[..30]).is_err());
        assert!(from_bytes(b"hello").unwrap_err().contains("byte 0"));
        let e = load(&dir.path().join("missing.lpt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.lpt"), "{e}");
    }
}
