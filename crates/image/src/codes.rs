//! RADIANCE's encoded maps, as `rcode_depth`, `rcode_norm` and `rcode_ident` write them: a
//! RADIANCE header, a resolution line, then one fixed-size big-endian code per pixel in file
//! order.
//!
//! - Depths: 16-bit signed codes (`FORMAT=16-bit_encoded_depth`, `REFDEPTH=` in the header):
//!   linear from 0 up to the reference depth, reciprocal beyond it, so that near distances
//!   keep their resolution and infinity has a code ([`depth_to_code`], [`code_to_depth`]).
//! - Normals: 32-bit direction codes (`FORMAT=32-bit_encoded_normal`), RADIANCE's
//!   `encodedir`: the sign of each axis, then the two smaller absolute components in 13 bits
//!   each with flags saying which axes they are; the largest is recomputed on decoding
//!   ([`encode_direction`], [`decode_direction`]).
//! - Identifiers: 8-, 16- or 24-bit indexes (`FORMAT=16-bit_indexed_name`…) into a table of
//!   nul-terminated names appended after the pixels, in order of first appearance
//!   ([`IdTable`]).
//!
//! The resolution line's orientation ([`Resolution`]) places each code in the picture, as
//! RADIANCE's `pix2loc` and `loc2pix` do.

/// `FORMAT=` of depth maps.
pub const DEPTH_FORMAT: &str = "16-bit_encoded_depth";
/// The header line that gives a depth map's reference depth (and unit).
pub const REFDEPTH: &str = "REFDEPTH=";
/// `FORMAT=` of normal maps.
pub const NORMAL_FORMAT: &str = "32-bit_encoded_normal";
/// RADIANCE's "infinite" distance (`FHUGE`), the depth of the largest code.
pub const FHUGE: f64 = 1e10;

/// The 16-bit code of depth `d` for reference depth `dref` (RADIANCE's `depth2code`).
pub fn depth_to_code(d: f64, dref: f64) -> i32 {
    if d > dref {
        (32768.001 - 32768.0 * dref / d) as i32 - 1
    } else if d > 0.0 {
        (32767.0 * d / dref - 32768.999) as i32
    } else {
        -32768
    }
}

/// The depth of code `c` for reference depth `dref` (RADIANCE's `code2depth`).
pub fn code_to_depth(c: i32, dref: f64) -> f64 {
    if c <= -32768 {
        0.0
    } else if c >= 32767 {
        FHUGE
    } else if c < -1 {
        dref * (32768.5 + f64::from(c)) * (1.0 / 32767.0)
    } else {
        dref * 32768.0 / (32766.5 - f64::from(c))
    }
}

const DC_SCALE: f64 = 11584.5;
const FX_NEG: i32 = 0o1;
const F1_X: i32 = 0o10;
const F2_Z: i32 = 0o20;
const F1_SHIFT: i32 = 5;
const F2_SHIFT: i32 = 18;
const F_MASK: i32 = 0x1fff;

/// RADIANCE's `normalize`: `v` made unit length, with its first-order shortcut for vectors
/// already within 1e-6 of unit length (the bits differ from a division by the root).
pub fn normalize(v: [f64; 3]) -> [f64; 3] {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if d == 0.0 {
        return v;
    }
    let f = if (1.0 - 1e-6..=1.0 + 1e-6).contains(&d) {
        2.0 - (0.5 + 0.5 * d)
    } else {
        1.0 / d.sqrt()
    };
    [v[0] * f, v[1] * f, v[2] * f]
}

/// The 32-bit code of unit direction `dv` (0 for a zero vector).
pub fn encode_direction(dv: [f64; 3]) -> i32 {
    let mut dc = 0i32;
    let mut cd = [0i32; 3];
    for i in 0..3 {
        if dv[i] < 0.0 {
            cd[i] = (dv[i] * -DC_SCALE + 0.5) as i32;
            dc |= FX_NEG << i;
        } else {
            cd[i] = (dv[i] * DC_SCALE + 0.5) as i32;
        }
    }
    if cd == [0, 0, 0] {
        return 0;
    }
    let cm = if cd[0] <= cd[1] {
        dc |= F1_X | cd[0] << F1_SHIFT;
        cd[1]
    } else {
        dc |= cd[1] << F1_SHIFT;
        cd[0]
    };
    if cd[2] <= cm {
        dc |= F2_Z | cd[2] << F2_SHIFT;
    } else {
        dc |= cm << F2_SHIFT;
    }
    if dc == 0 {
        F1_X
    } else {
        dc
    }
}

/// The unit direction of code `dc` (zero for code 0).
pub fn decode_direction(dc: i32) -> [f64; 3] {
    if dc == 0 {
        return [0.0; 3];
    }
    // Which axes hold the first and second stored components and the recomputed one.
    const AXES: [[usize; 3]; 4] = [[1, 0, 2], [0, 1, 2], [1, 2, 0], [0, 2, 1]];
    let k = (usize::from(dc & F2_Z != 0) << 1) | usize::from(dc & F1_X != 0);
    let d1 = f64::from(dc >> F1_SHIFT & F_MASK) * (1.0 / DC_SCALE);
    let d2 = f64::from(dc >> F2_SHIFT & F_MASK) * (1.0 / DC_SCALE);
    let der = (1.0 - d1 * d1 - d2 * d2).sqrt();
    let mut v = [0.0; 3];
    v[AXES[k][0]] = d1;
    v[AXES[k][1]] = d2;
    v[AXES[k][2]] = der;
    for (i, c) in v.iter_mut().enumerate() {
        if dc & (FX_NEG << i) != 0 {
            *c = -*c;
        }
    }
    v
}

/// The `FORMAT=` of an identifier map of `bytes` bytes per index.
pub fn ident_format(bytes: usize) -> Option<&'static str> {
    match bytes {
        1 => Some("8-bit_indexed_name"),
        2 => Some("16-bit_indexed_name"),
        3 => Some("24-bit_indexed_name"),
        _ => None,
    }
}

/// Bytes per index of an identifier map's `FORMAT=` value (`8-bit_indexed_name`…).
pub fn ident_index_bytes(format: &str) -> Option<usize> {
    let bits = format.strip_suffix("-bit_indexed_name")?;
    match bits {
        "8" => Some(1),
        "16" => Some(2),
        "24" => Some(3),
        _ => None,
    }
}

/// The names of an identifier map in index order, with lookup while a map is built.
#[derive(Debug, Default, Clone)]
pub struct IdTable {
    names: Vec<String>,
    index: std::collections::HashMap<String, usize>,
}

impl IdTable {
    /// The index of `name`, added at the end when new; `None` when a new name would not fit
    /// in `limit` indexes.
    pub fn index_of(&mut self, name: &str, limit: usize) -> Option<usize> {
        if let Some(&i) = self.index.get(name) {
            return Some(i);
        }
        if self.names.len() >= limit {
            return None;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        Some(i)
    }

    /// The names, first seen first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The table as stored after the indexes: each name and a nul.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for n in &self.names {
            out.extend_from_slice(n.as_bytes());
            out.push(0);
        }
        out
    }

    /// The names of a stored table (each ended by a nul; what follows the last nul is not a
    /// name).
    pub fn parse(bytes: &[u8]) -> Vec<Vec<u8>> {
        let n = bytes.iter().filter(|&&b| b == 0).count();
        bytes
            .split(|&b| b == 0)
            .take(n)
            .map(<[u8]>::to_vec)
            .collect()
    }
}

/// A map's resolution line: its size and the order of its pixels (RADIANCE's `RESOLU`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution {
    /// Width (X).
    pub xr: usize,
    /// Height (Y).
    pub yr: usize,
    /// X runs right to left.
    pub x_decreasing: bool,
    /// Y runs top to bottom.
    pub y_decreasing: bool,
    /// Scanlines run along X (Y is the slow axis), as in `-Y N +X M`.
    pub y_major: bool,
}

impl Resolution {
    /// Standard order (`-Y yr +X xr`): scanlines from the top, pixels from the left.
    pub fn standard(xr: usize, yr: usize) -> Resolution {
        Resolution {
            xr,
            yr,
            x_decreasing: false,
            y_decreasing: true,
            y_major: true,
        }
    }

    /// Whether the order is the standard one.
    pub fn is_standard(&self) -> bool {
        !self.x_decreasing && self.y_decreasing && self.y_major
    }

    /// Reads a resolution line (`-Y 400 +X 512`, any of the eight orders).
    pub fn parse(line: &str) -> Option<Resolution> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 4 {
            return None;
        }
        let axis = |t: &str| -> Option<(bool, char)> {
            let b = t.as_bytes();
            if b.len() != 2 || !(b[0] == b'-' || b[0] == b'+') || !(b[1] == b'X' || b[1] == b'Y') {
                return None;
            }
            Some((b[0] == b'-', b[1] as char))
        };
        let num = |t: &str| -> Option<usize> { t.parse::<usize>().ok().filter(|&n| n > 0) };
        let (s1, a1) = axis(w[0])?;
        let (s2, a2) = axis(w[2])?;
        let (n1, n2) = (num(w[1])?, num(w[3])?);
        if a1 == a2 {
            return None;
        }
        Some(if a1 == 'Y' {
            Resolution {
                xr: n2,
                yr: n1,
                x_decreasing: s2,
                y_decreasing: s1,
                y_major: true,
            }
        } else {
            Resolution {
                xr: n1,
                yr: n2,
                x_decreasing: s1,
                y_decreasing: s2,
                y_major: false,
            }
        })
    }

    /// The line as RADIANCE 6.0a writes it, numbers in 8 columns, with its newline.
    pub fn to_line(&self) -> String {
        let sign = |dec: bool| if dec { '-' } else { '+' };
        if self.y_major {
            format!(
                "{}Y {:8} {}X {:8}\n",
                sign(self.y_decreasing),
                self.yr,
                sign(self.x_decreasing),
                self.xr
            )
        } else {
            format!(
                "{}X {:8} {}Y {:8}\n",
                sign(self.x_decreasing),
                self.xr,
                sign(self.y_decreasing),
                self.yr
            )
        }
    }

    /// Pixels per scanline.
    pub fn scan_len(&self) -> usize {
        if self.y_major {
            self.xr
        } else {
            self.yr
        }
    }

    /// Number of scanlines.
    pub fn scans(&self) -> usize {
        if self.y_major {
            self.yr
        } else {
            self.xr
        }
    }

    /// The image position (x right, y up, in [0, 1]) of the centre of the pixel at
    /// `(px, py)` = (position in its scanline, scanline) (RADIANCE's `pix2loc`).
    pub fn pixel_to_location(&self, px: usize, py: usize) -> (f64, f64) {
        let (mut x, mut y) = if self.y_major { (px, py) } else { (py, px) };
        if self.x_decreasing {
            x = self.xr - 1 - x;
        }
        if self.y_decreasing {
            y = self.yr - 1 - y;
        }
        (
            (x as f64 + 0.5) / self.xr as f64,
            (y as f64 + 0.5) / self.yr as f64,
        )
    }

    /// The (position in scanline, scanline) of image position `(lx, ly)` (RADIANCE's
    /// `loc2pix`); positions off the map give indexes off it (possibly negative).
    pub fn location_to_pixel(&self, lx: f64, ly: f64) -> (i64, i64) {
        let mut x = (lx * self.xr as f64) as i64;
        let mut y = (ly * self.yr as f64) as i64;
        if self.x_decreasing {
            x = self.xr as i64 - 1 - x;
        }
        if self.y_decreasing {
            y = self.yr as i64 - 1 - y;
        }
        if self.y_major {
            (x, y)
        } else {
            (y, x)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_codes_round_trip_closely() {
        // One code step: linear up to the reference depth, in 1/d beyond it.
        for d in [0.001, 0.5, 1.0, 2.0, 17.3, 1000.0] {
            let back = code_to_depth(depth_to_code(d, 1.0), 1.0);
            if d <= 1.0 {
                assert!((back - d).abs() <= 1.0 / 32767.0, "{d} -> {back}");
            } else {
                assert!(
                    (1.0 / back - 1.0 / d).abs() <= 1.0 / 32768.0,
                    "{d} -> {back}"
                );
            }
        }
        assert_eq!(depth_to_code(0.0, 1.0), -32768);
        assert_eq!(code_to_depth(32767, 1.0), FHUGE);
    }

    #[test]
    fn direction_codes_round_trip_within_radiance_accuracy() {
        for v in [
            [0.0, 0.0, 1.0],
            [0.0, -1.0, 0.0],
            [0.6, -0.48, 0.64],
            [-0.267, 0.534, -0.801],
        ] {
            let n = normalize(v);
            let back = decode_direction(encode_direction(n));
            let dot: f64 = (0..3).map(|i| n[i] * back[i]).sum();
            assert!(dot > (0.006f64).to_radians().cos(), "{v:?} -> {back:?}");
        }
        assert_eq!(encode_direction([0.0; 3]), 0);
        assert_eq!(decode_direction(0), [0.0; 3]);
    }

    #[test]
    fn resolution_lines_and_pixel_positions() {
        let r = Resolution::parse("-Y 3 +X 4").unwrap();
        assert!(r.is_standard());
        assert_eq!(r.to_line(), "-Y        3 +X        4\n");
        // Scanline 0 is the top row.
        assert_eq!(r.pixel_to_location(0, 0), (0.125, 5.0 / 6.0));
        assert_eq!(r.location_to_pixel(0.0, 0.0), (0, 2));
        let t = Resolution::parse("+X 4 -Y 3").unwrap();
        assert_eq!((t.scan_len(), t.scans()), (3, 4));
        assert_eq!(Resolution::parse("-Y 3 +Y 4"), None);
    }

    #[test]
    fn identifier_tables_keep_first_appearance_order() {
        let mut t = IdTable::default();
        assert_eq!(t.index_of("b", 256), Some(0));
        assert_eq!(t.index_of("a", 256), Some(1));
        assert_eq!(t.index_of("b", 256), Some(0));
        assert_eq!(t.index_of("c", 2), None);
        assert_eq!(t.to_bytes(), b"b\0a\0");
        assert_eq!(
            IdTable::parse(b"b\0a\0x"),
            vec![b"b".to_vec(), b"a".to_vec()]
        );
    }
}
