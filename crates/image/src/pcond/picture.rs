//! Pictures as pcond reads and writes them: the header lines it passes on and those it takes
//! (`FORMAT=`, `EXPOSURE=`, readable `PRIMARIES=`, `NCOMP=`, `WLSPLIT=`), the view it finds,
//! and the pixels in the file's scanline order, any of the eight orientations, written back in
//! the same order.

use super::colour;
use super::{err, Conditioned, PcondError};
use crate::hdr::{float_to_rgbe, read_raw_pixels, rgbe_to_float, write_scanline};
use crate::view::{apply_view_text, is_view_line, View};

/// A picture's orientation and size as RADIANCE keeps them (`RESOLU`): `rt` holds `XDECR` (1),
/// `YDECR` (2) and `YMAJOR` (4, scanlines run along x); `xr`, `yr` are the picture's width and
/// height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution {
    /// Orientation flags.
    pub rt: u8,
    /// Width (pixels along x).
    pub xr: usize,
    /// Height (pixels along y).
    pub yr: usize,
}

/// x decreases along the picture's pixel order (`-X`).
pub const XDECR: u8 = 1;
/// y decreases along the picture's pixel order (`-Y`: the top row comes first).
pub const YDECR: u8 = 2;
/// Scanlines run along x (the resolution line names y first).
pub const YMAJOR: u8 = 4;

impl Resolution {
    /// Reads a resolution line (`-Y 480 +X 640`, any of the eight orientations).
    pub fn parse(line: &str) -> Option<Resolution> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 4 {
            return None;
        }
        let axis = |t: &str| -> Option<(bool, char)> {
            let b = t.as_bytes();
            if b.len() != 2 || !(b[0] == b'+' || b[0] == b'-') {
                return None;
            }
            Some((b[0] == b'-', b[1] as char))
        };
        let (d1, a1) = axis(w[0])?;
        let (d2, a2) = axis(w[2])?;
        let n1: usize = w[1].parse().ok()?;
        let n2: usize = w[3].parse().ok()?;
        let (rt, xr, yr, xdec, ydec) = match (a1, a2) {
            ('Y', 'X') => (YMAJOR, n2, n1, d2, d1),
            ('X', 'Y') => (0, n1, n2, d1, d2),
            _ => return None,
        };
        let rt = rt | if xdec { XDECR } else { 0 } | if ydec { YDECR } else { 0 };
        Some(Resolution { rt, xr, yr })
    }

    /// The resolution line as RADIANCE writes it (numbers in 8 columns).
    pub fn line(&self) -> String {
        let s = |d: bool| if d { '-' } else { '+' };
        if self.rt & YMAJOR != 0 {
            format!(
                "{}Y {:8} {}X {:8}",
                s(self.rt & YDECR != 0),
                self.yr,
                s(self.rt & XDECR != 0),
                self.xr
            )
        } else {
            format!(
                "{}X {:8} {}Y {:8}",
                s(self.rt & XDECR != 0),
                self.xr,
                s(self.rt & YDECR != 0),
                self.yr
            )
        }
    }

    /// Pixels in a scanline.
    pub fn scanlen(&self) -> usize {
        if self.rt & YMAJOR != 0 {
            self.xr
        } else {
            self.yr
        }
    }

    /// Number of scanlines.
    pub fn numscans(&self) -> usize {
        if self.rt & YMAJOR != 0 {
            self.yr
        } else {
            self.xr
        }
    }
}

/// How the pixels encode colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// RGB radiance (`32-bit_rle_rgbe`).
    Rgb,
    /// CIE XYZ (`32-bit_rle_xyze`).
    Xyz,
}

/// A picture as pcond reads it.
#[derive(Debug, Clone)]
pub struct Picture {
    /// Header lines pcond passes on (all but `FORMAT=`, `EXPOSURE=`, readable `PRIMARIES=`,
    /// `NCOMP=` and `WLSPLIT=`), the first (`#?RADIANCE`) included.
    pub header: Vec<String>,
    /// RGB or XYZ.
    pub encoding: Encoding,
    /// Primaries from the header.
    pub primaries: Option<[f32; 8]>,
    /// Product of the `EXPOSURE=` values.
    pub exposure: f64,
    /// Product of the `PIXASPECT=` values.
    pub pixaspect: f64,
    /// The view, when the header gives one.
    pub view: Option<View>,
    /// Orientation and size.
    pub res: Resolution,
    /// Pixels as stored, scanline after scanline in file order.
    pub pixels: Vec<[f32; 3]>,
    /// The name errors give the picture.
    pub name: String,
}

impl Picture {
    /// Reads a picture; `name` names it in errors.
    pub fn decode(bytes: &[u8], name: &str) -> Result<Picture, PcondError> {
        let not_picture = || PcondError(format!("{name}: not a Radiance picture"));
        let mut pos = 0;
        let mut pic = Picture {
            name: name.to_string(),
            header: Vec::new(),
            encoding: Encoding::Rgb,
            primaries: None,
            exposure: 1.0,
            pixaspect: 1.0,
            view: None,
            res: Resolution {
                rt: 0,
                xr: 0,
                yr: 0,
            },
            pixels: Vec::new(),
        };
        let mut format_ok = true;
        let mut view = View::default();
        let mut gotview = 0;
        loop {
            let Some(end) = bytes[pos..].iter().position(|&b| b == b'\n') else {
                return Err(not_picture());
            };
            let line = String::from_utf8_lossy(&bytes[pos..pos + end]).into_owned();
            pos += end + 1;
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("FORMAT=") {
                match v.trim() {
                    "32-bit_rle_rgbe" => {
                        format_ok = true;
                        pic.encoding = Encoding::Rgb;
                    }
                    "32-bit_rle_xyze" => {
                        format_ok = true;
                        pic.encoding = Encoding::Xyz;
                    }
                    "Radiance_spectra" => {
                        return err(format!(
                            "{name}: hyperspectral pictures are not supported (convert with rcomb first)"
                        ))
                    }
                    _ => format_ok = false,
                }
                continue;
            }
            if let Some(v) = line.strip_prefix("NCOMP=") {
                if colour::c_atof(v) as i64 != 3 {
                    return err(format!(
                        "{name}: hyperspectral pictures are not supported (convert with rcomb first)"
                    ));
                }
                continue;
            }
            if line.starts_with("WLSPLIT=") {
                continue;
            }
            if let Some(v) = line.strip_prefix("PRIMARIES=") {
                let mut p = [0.0f32; 8];
                let mut n = 0;
                let mut rest = v;
                while n < 8 {
                    let t = rest.trim_start();
                    let Some((_, used)) = colour::c_strtod(t) else {
                        break;
                    };
                    // scanf's %f rounds the text to single precision once.
                    p[n] = t[..used].parse().unwrap_or(0.0);
                    n += 1;
                    rest = &t[used..];
                }
                if n == 8 {
                    pic.primaries = Some(p);
                    continue;
                }
            }
            if let Some(v) = line.strip_prefix("EXPOSURE=") {
                pic.exposure *= colour::c_atof(v);
                continue;
            }
            if let Some(v) = line.strip_prefix("PIXASPECT=") {
                pic.pixaspect *= colour::c_atof(v);
            }
            if is_view_line(&line) {
                gotview += apply_view_text(&mut view, &line);
            }
            pic.header.push(line);
        }
        if !format_ok {
            return Err(not_picture());
        }
        if gotview > 0 {
            pic.view = Some(view);
        }
        let raw = read_raw_pixels(bytes, pos, name).map_err(|e| PcondError(e.to_string()))?;
        pic.res = Resolution::parse(&raw.resolution).ok_or_else(not_picture)?;
        pic.pixels = raw
            .scans
            .iter()
            .flat_map(|s| s.iter().map(|&c| rgbe_to_float(c)))
            .collect();
        Ok(pic)
    }
}

/// The conditioned picture as pcond writes it: the input's passed-on header lines, the
/// command line, pcond's own lines, `FORMAT=`, the resolution line and run-length encoded
/// scanlines.
pub fn encode(pic: &Picture, command_line: &str, c: &Conditioned) -> Vec<u8> {
    let mut head = String::new();
    for l in &pic.header {
        head.push_str(l);
        head.push('\n');
    }
    head.push_str(command_line);
    head.push('\n');
    for l in &c.header {
        head.push_str(l);
        head.push('\n');
    }
    head.push_str("FORMAT=32-bit_rle_rgbe\n\n");
    head.push_str(&pic.res.line());
    head.push('\n');
    let mut out = head.into_bytes();
    let scanlen = pic.res.scanlen();
    for scan in c.pixels.chunks(scanlen) {
        let line: Vec<[u8; 4]> = scan.iter().map(|&p| float_to_rgbe(p)).collect();
        write_scanline(&line, true, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_lines_round_trip_in_every_orientation() {
        for line in [
            "-Y        7 +X        9",
            "+Y        7 -X        9",
            "+X        9 +Y        7",
            "-X        9 -Y        7",
        ] {
            let r = Resolution::parse(line).unwrap();
            assert_eq!(r.line(), line);
            assert_eq!((r.xr, r.yr), (9, 7));
            let y_major = line.starts_with(['-', '+']) && &line[1..2] == "Y";
            assert_eq!(r.scanlen(), if y_major { 9 } else { 7 });
        }
        assert_eq!(Resolution::parse("-Y 7 -Y 9"), None);
    }

    #[test]
    fn header_lines_pcond_takes_are_not_passed_on() {
        let text = "#?RADIANCE\nrpict -vh 30\nEXPOSURE=2\n\tEXPOSURE=3\nPRIMARIES= .64 .33 .29 .6 .15 .06 .3333 .3333\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n";
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend([128, 128, 128, 129]);
        let p = Picture::decode(&bytes, "t").unwrap();
        assert_eq!(p.header, ["#?RADIANCE", "rpict -vh 30", "\tEXPOSURE=3"]);
        assert_eq!(p.exposure, 2.0);
        assert!(p.primaries.is_some());
        assert_eq!(p.view.as_ref().map(|v| v.horiz), Some(30.0));
        assert_eq!(p.pixels, [[128.5 / 128.0; 3]]);
    }
}
