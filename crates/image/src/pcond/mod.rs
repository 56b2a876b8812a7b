//! Conditioning a picture for a display, as RADIANCE's `pcond` does it: the histogram
//! adjustment tone mapping of Ward Larson, Rushmeier and Piatko ("A Visibility Matching Tone
//! Reproduction Operator for High Dynamic Range Scenes", IEEE TVCG 1997) with its optional
//! models of human vision — veiling glare (`-v`), loss of acuity (`-a`), contrast sensitivity
//! (`-s`) and mesopic loss of colour (`-c`) — or a linear mapping (`-l`, `-e`), then the
//! output device's primaries (`-p`) or macbethcal correction (`-f`).
//!
//! The picture is processed in its file's scanline order (any orientation), as RADIANCE does:
//! a foveal image (one sample per degree of the view, pfilt's box filter, stored through RGBE as
//! pcond reads it back from pfilt) and point samples of the picture (drawn with `drand48` from
//! its default seed, as RADIANCE on Unix draws them) make the brightness histogram
//! ([`histogram`]); the veil ([`veil`]) and the acuity pyramid ([`acuity`]) work on the same
//! grid; colour arithmetic is single precision where RADIANCE's is ([`colour`]).

pub mod acuity;
pub mod colour;
pub mod histogram;
pub mod veil;

use crate::filter::{pfilt, FilterOptions, Size};
use crate::hdr::{float_to_rgbe, read_raw_pixels, rgbe_to_float, write_scanline};
use crate::view::{apply_view_text, is_view_line, View, ViewFrame, ViewType};
use colour::{ColourMatrix, Macbeth, Primaries};
use histogram::{htcontrs, BrightnessMap, Histogram, FTINY, HISTRES, LMAX, LMIN};

/// Luminous efficacy of equal-energy white (lm/W), RADIANCE's `WHTEFFICACY`.
pub const WHTEFFICACY: f64 = 179.0;
/// Scotopic to photopic ratio of white.
pub const SWNORM: f64 = 2.26;
/// Luminances bounding the mesopic range (cd/m²): colour fades out between them.
pub const BOT_MESOPIC: f64 = 5.62e-3;
pub const TOP_MESOPIC: f64 = 5.62;
/// Diameter of the fovea (radians): the foveal image has one sample per this angle.
pub const FOVDIA: f64 = std::f64::consts::PI / 180.0;
/// Display defaults: maximum luminance (cd/m²) and dynamic range.
pub const LDMAX: f64 = 100.0;
pub const LDDYN: f64 = 100.0;

/// A reason pcond cannot go on, worded as RADIANCE words it (without the program name).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct PcondError(pub String);

fn err<T>(m: impl Into<String>) -> Result<T, PcondError> {
    Err(PcondError(m.into()))
}

/// C's `%f` (six decimals).
pub fn c_float6(v: f64) -> String {
    format!("{v:.6}")
}

/// A picture's orientation and size as RADIANCE keeps them (`RESOLU`): `rt` holds `XDECR` (1),
/// `YDECR` (2) and `YMAJOR` (4, scanlines run along x); `xr`, `yr` are the picture's width and
/// height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution {
    pub rt: u8,
    pub xr: usize,
    pub yr: usize,
}

pub const XDECR: u8 = 1;
pub const YDECR: u8 = 2;
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
    pub encoding: Encoding,
    /// Primaries from the header.
    pub primaries: Option<[f32; 8]>,
    /// Product of the `EXPOSURE=` values.
    pub exposure: f64,
    /// Product of the `PIXASPECT=` values.
    pub pixaspect: f64,
    /// The view, when the header gives one.
    pub view: Option<View>,
    pub res: Resolution,
    /// Pixels as stored, scanline after scanline in file order.
    pub pixels: Vec<[f32; 3]>,
}

impl Picture {
    /// Reads a picture; `name` names it in errors.
    pub fn decode(bytes: &[u8], name: &str) -> Result<Picture, PcondError> {
        let not_picture = || PcondError(format!("{name}: not a Radiance picture"));
        let mut pos = 0;
        let mut pic = Picture {
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

/// What pcond is asked to do (RADIANCE's switches and device parameters).
#[derive(Debug, Clone)]
pub struct Options {
    /// `-a`: loss of acuity.
    pub acuity: bool,
    /// `-v`: veiling glare.
    pub veil: bool,
    /// `-s`: human contrast sensitivity.
    pub hsens: bool,
    /// `-c`: mesopic loss of colour.
    pub colour: bool,
    /// `-w`: centre-weighted histogram.
    pub cweight: bool,
    /// `-l`: linear mapping.
    pub linear: bool,
    /// `-i`: share of the histogram given to fixation points (used when above 1e-6).
    pub fixfrac: f64,
    /// `-i`: fixation points, picture (x, y) with y up.
    pub fixations: Vec<(i64, i64)>,
    /// `-I`: a precomputed histogram, (log10 luminance, count) pairs.
    pub histogram: Option<Vec<(f64, f64)>>,
    /// `-e`: linear scale factor (0: chosen from the histogram).
    pub scalef: f64,
    /// `-u`: display maximum luminance (cd/m²).
    pub ldmax: f64,
    /// `-d`: display dynamic range.
    pub lddyn: f64,
    /// `-p`: output primaries.
    pub output_primaries: Option<[f32; 8]>,
    /// `-f`: macbethcal calibration.
    pub macbeth: Option<Macbeth>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            acuity: false,
            veil: false,
            hsens: false,
            colour: false,
            cweight: false,
            linear: false,
            fixfrac: 0.0,
            fixations: Vec::new(),
            histogram: None,
            scalef: 0.0,
            ldmax: LDMAX,
            lddyn: LDDYN,
            output_primaries: None,
            macbeth: None,
        }
    }
}

/// The conditioned picture.
#[derive(Debug, Clone)]
pub struct Conditioned {
    /// Header lines pcond adds after the command line (`PRIMARIES=`, `EXPOSURE=`).
    pub header: Vec<String>,
    /// Pixels in the input's scanline order.
    pub pixels: Vec<[f32; 3]>,
    /// The final mapping from world to display luminance (cd/m²) at each histogram bin's
    /// centre, for `-x`.
    pub mapping: Vec<(f64, f64)>,
}

/// The foveal grid and the picture's scanline dimensions, in file scanline order.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    pub scanlen: usize,
    pub numscans: usize,
    pub fvxr: usize,
    pub fvyr: usize,
}

/// The Unix `drand48` generator as RADIANCE's `frandom` draws on Linux, never seeded: glibc
/// starts it from a zero state (not the 0x1234ABCD330E of `srand48`'s documentation).
struct Drand48(u64);

impl Drand48 {
    fn new() -> Drand48 {
        Drand48(0)
    }

    fn next(&mut self) -> f64 {
        self.0 = (self.0.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB)) & ((1 << 48) - 1);
        self.0 as f64 / (1u64 << 48) as f64
    }
}

/// How pixel values become luminance.
#[derive(Debug, Clone, Copy)]
struct Lum {
    encoding: Encoding,
    /// The Y row of the input's RGB to XYZ (RGB pictures).
    y_row: [f32; 3],
    inpexp: f64,
}

impl Lum {
    /// Photopic luminance (cd/m²), RADIANCE's `plum`.
    fn photopic(&self, c: [f32; 3]) -> f64 {
        self.raw(c) / self.inpexp
    }

    fn raw(&self, c: [f32; 3]) -> f64 {
        match self.encoding {
            Encoding::Rgb => {
                let y = c[0] * self.y_row[0] + c[1] * self.y_row[1] + c[2] * self.y_row[2];
                WHTEFFICACY * f64::from(y)
            }
            Encoding::Xyz => f64::from(c[1]),
        }
    }

    /// Scotopic luminance before the exposure is divided out.
    fn scotopic_raw(&self, c: [f32; 3]) -> f64 {
        match self.encoding {
            Encoding::Rgb => {
                SWNORM
                    * WHTEFFICACY
                    * (f64::from(c[0]) * 0.062 + f64::from(c[1]) * 0.608 + f64::from(c[2]) * 0.330)
            }
            Encoding::Xyz => {
                let r = (c[1] + c[2]) / c[0];
                f64::from(c[1]) * (1.33 * (1.0 + f64::from(r)) - 1.68)
            }
        }
    }
}

/// Everything the histogram is computed from.
struct Sampling<'a> {
    pic: &'a Picture,
    grid: Grid,
    lum: Lum,
    cweight: bool,
    fixfrac: Option<f64>,
    fixations: &'a [(usize, usize)],
    rng: Drand48,
}

impl Sampling<'_> {
    /// `n` luminances of pixels drawn at random in file order (RADIANCE's `getlumsamp`).
    fn point_samples(&mut self, mut n: usize) -> Vec<f64> {
        let (scanlen, numscans) = (self.grid.scanlen, self.grid.numscans);
        let mut out = vec![0.0; n];
        let mut npleft = (scanlen * numscans) as i64;
        let mut x = 0usize;
        let mut scan = 0usize;
        let mut line: &[[f32; 3]] = &[];
        while n > 0 {
            if x == 0 {
                if scan >= numscans {
                    break;
                }
                line = &self.pic.pixels[scan * scanlen..(scan + 1) * scanlen];
                scan += 1;
                x = scanlen;
            }
            let rval = self.rng.next();
            let mut sv = 0i64;
            let mut cumprob = 0.0f64;
            loop {
                cumprob += (1.0 - cumprob) * n as f64 / (npleft - sv) as f64;
                if cumprob >= rval {
                    break;
                }
                sv += 1;
            }
            sv += 1;
            if (x as i64) < sv {
                npleft -= x as i64;
                x = 0;
                continue;
            }
            x -= sv as usize;
            n -= 1;
            out[n] = f64::from(self.lum.photopic(line[x]) as f32);
            npleft -= sv;
        }
        out
    }

    /// The weight of foveal sample `(x, y)` in a centre-weighted histogram: a paraboloid
    /// falling to 0 at 90 samples (degrees) from the centre.
    fn centre_weight(&self, x: usize, y: usize) -> f64 {
        let xr = (x as f64 - 0.5 * (self.grid.fvxr as f64 - 1.0)) / 90.0;
        let yr = (y as f64 - 0.5 * (self.grid.fvyr as f64 - 1.0)) / 90.0;
        (1.0 - xr * xr - yr * yr).max(0.0)
    }

    /// The adaptation histogram of the foveal image `fov` and point samples of the picture
    /// (RADIANCE's `comphist`).
    fn histogram(&mut self, fov: &[[f32; 3]]) -> Histogram {
        let fvxr = self.grid.fvxr;
        let mut lwmin = 1e10f64;
        let mut lwmax = 0.0f64;
        for &c in fov {
            let l = self.lum.photopic(c);
            lwmin = lwmin.min(l);
            lwmax = lwmax.max(l);
        }
        let n = (fov.len() * 16).min(self.grid.scanlen * self.grid.numscans);
        let samples = self.point_samples(n);
        for &l in &samples {
            lwmin = lwmin.min(l);
            lwmax = lwmax.max(l);
        }
        lwmax *= 1.01;
        if lwmax > LMAX {
            lwmax = LMAX;
        }
        let bwmax = lwmax.ln();
        let bwmin;
        if lwmin < LMIN {
            lwmin = LMIN;
            bwmin = LMIN.ln();
        } else {
            bwmin = bwmax - (bwmax - lwmin.ln()) * HISTRES as f64 / (HISTRES - 1) as f64;
            lwmin = bwmin.exp();
        }
        let mut h = Histogram::empty(bwmin, bwmax);
        let inside = |l: f64| l >= lwmin + FTINY && l < lwmax - FTINY;
        if self.fixfrac.is_none_or(|f| f < 1.0 - FTINY) {
            for (i, &c) in fov.iter().enumerate() {
                let l = self.lum.photopic(c);
                if !inside(l) {
                    continue;
                }
                let w = if self.cweight {
                    self.centre_weight(i % fvxr, i / fvxr)
                } else {
                    1.0
                };
                h.add(l.ln(), w);
            }
            let w = h.total / n as f64;
            for &l in samples.iter().rev() {
                if inside(l) {
                    h.add(l.ln(), w);
                }
            }
        }
        if let Some(frac) = self.fixfrac {
            if !self.fixations.is_empty() {
                let w = if h.total > FTINY {
                    frac / (1.0 - frac) * h.total / self.fixations.len() as f64
                } else {
                    1.0
                };
                for &(x, y) in self.fixations {
                    let l = self.lum.photopic(fov[y * fvxr + x]);
                    if inside(l) {
                        h.add(l.ln(), w);
                    }
                }
            }
        }
        h.finish(lwmin > LMIN + FTINY);
        h
    }
}

/// The view pcond assumes: the picture's, unless it has none, is parallel or narrower than 5
/// degrees; then a perspective view 40 degrees across its shorter side.
fn adaptation_view(pic: &Picture) -> Result<ViewFrame, PcondError> {
    let usable = pic
        .view
        .as_ref()
        .filter(|v| v.typ != ViewType::Parallel && v.horiz > 5.0 && v.vert > 5.0);
    let view = match usable {
        Some(v) => v.clone(),
        None => {
            let mut v = View::default();
            let (xr, yr) = (pic.res.xr as f64, pic.res.yr as f64);
            let deg = 2.0 * 180.0 / std::f64::consts::PI;
            if pic.pixaspect * yr < xr {
                v.horiz = 40.0;
                v.vert = deg * (0.363_970_2 * pic.pixaspect * yr / xr).atan();
            } else {
                v.vert = 40.0;
                v.horiz = deg * (0.363_970_2 * xr / pic.pixaspect / yr).atan();
            }
            v
        }
    };
    view.frame()
        .map_err(|e| PcondError(format!("view error in picture: {}", e.0)))
}

/// The direction of each foveal sample's ray in the view (zero where the view has none), in
/// single precision.
fn ray_directions(frame: &ViewFrame, res: &Resolution, grid: &Grid) -> Vec<[f32; 3]> {
    let (fvxr, fvyr) = (grid.fvxr, grid.fvyr);
    let mut dirs = vec![[0.0f32; 3]; fvxr * fvyr];
    for y in 0..fvyr {
        let sy = (y as f64 + 0.5) / fvyr as f64;
        for x in 0..fvxr {
            let sx = (x as f64 + 0.5) / fvxr as f64;
            let (h, v) = if res.rt & YMAJOR != 0 {
                let v = if res.rt & YDECR != 0 { 1.0 - sy } else { sy };
                let h = if res.rt & XDECR != 0 { 1.0 - sx } else { sx };
                (h, v)
            } else {
                let h = if res.rt & XDECR != 0 { 1.0 - sy } else { sy };
                let v = if res.rt & YDECR != 0 { 1.0 - sx } else { sx };
                (h, v)
            };
            if let Some(r) = frame.ray(h, v) {
                dirs[y * fvxr + x] = [r.dir.x as f32, r.dir.y as f32, r.dir.z as f32];
            }
        }
    }
    dirs
}

/// The foveal image: the picture box-filtered to one sample per degree, through RGBE.
fn foveal_image(pic: &Picture, grid: &Grid) -> Result<Vec<[f32; 3]>, PcondError> {
    let mut img = crate::HdrImage::new(grid.scanlen, grid.numscans);
    img.pixels.clone_from(&pic.pixels);
    let o = FilterOptions {
        width: Size::Pixels(grid.fvxr),
        height: Size::Pixels(grid.fvyr),
        two_pass: false,
        ..FilterOptions::default()
    };
    let f = pfilt(&img, &o).map_err(|e| PcondError(format!("foveal image: {e}")))?;
    Ok(f.image
        .pixels
        .iter()
        .map(|&p| rgbe_to_float(float_to_rgbe(p)))
        .collect())
}

/// The foveal samples around fixation points (picture x, y with y up): each point's nearest
/// sample and its eight neighbours, each sample once, in order of first use.
fn fixation_samples(points: &[(i64, i64)], res: &Resolution, grid: &Grid) -> Vec<(usize, usize)> {
    let (fxr, fyr) = if res.rt & YMAJOR != 0 {
        (grid.fvxr, grid.fvyr)
    } else {
        (grid.fvyr, grid.fvxr)
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &(px, py) in points {
        let lx = (px as f64 + 0.5) / res.xr as f64;
        let ly = (py as f64 + 0.5) / res.yr as f64;
        let mut x = (lx * fxr as f64 + 0.5 - f64::from(u8::from(lx < 0.0))) as i64;
        let mut y = (ly * fyr as f64 + 0.5 - f64::from(u8::from(ly < 0.0))) as i64;
        if res.rt & XDECR != 0 {
            x = fxr as i64 - 1 - x;
        }
        if res.rt & YDECR != 0 {
            y = fyr as i64 - 1 - y;
        }
        let (cx, cy) = if res.rt & YMAJOR != 0 { (x, y) } else { (y, x) };
        for sx in cx - 1..=cx + 1 {
            if sx < 0 || sx >= grid.fvxr as i64 {
                continue;
            }
            for sy in cy - 1..=cy + 1 {
                if sy < 0 || sy >= grid.fvyr as i64 {
                    continue;
                }
                let s = (sx as usize, sy as usize);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Conditions `pic` as pcond does with `opts`.
pub fn condition(pic: &Picture, opts: &Options) -> Result<Conditioned, PcondError> {
    let inprims = pic.primaries.map_or(Primaries::Standard, Primaries::Given);
    if opts.macbeth.is_some() && opts.output_primaries.is_some() {
        return err("only one of -p, -m or -f option supported");
    }
    if opts.macbeth.is_some() && pic.encoding == Encoding::Xyz {
        return err("macbethcal only works with RGB pictures");
    }
    let prehist = opts.histogram.is_some();
    let fixhist = opts.fixfrac > FTINY;
    if prehist && fixhist {
        return err("only one of -i or -I option");
    }
    let y_row = match pic.encoding {
        Encoding::Rgb => colour::rgb_to_xyz_balanced(&inprims)
            .ok_or_else(|| PcondError("bad primaries in the picture's header".into()))?[1],
        Encoding::Xyz => [0.0, 1.0, 0.0],
    };
    let lum = Lum {
        encoding: pic.encoding,
        y_row,
        inpexp: pic.exposure,
    };
    let frame = adaptation_view(pic)?;
    let res = pic.res;
    let (mut acuity, mut veil, mut colour_loss, mut linear) =
        (opts.acuity, opts.veil, opts.colour, opts.linear);
    let bldmin = (opts.ldmax / opts.lddyn).ln();
    let bldmax = opts.ldmax.ln();
    let (mut fvxr, mut fvyr) = (
        ((frame.hn / FOVDIA + 0.5) as usize).max(2),
        ((frame.vn / FOVDIA + 0.5) as usize).max(2),
    );
    if res.rt & YMAJOR == 0 {
        std::mem::swap(&mut fvxr, &mut fvyr);
    }
    let mut grid = Grid {
        scanlen: res.scanlen(),
        numscans: res.numscans(),
        fvxr,
        fvyr,
    };
    let mut fov = Vec::new();
    if !prehist || veil || acuity {
        fov = foveal_image(pic, &grid)?;
    } else {
        grid.fvxr = 0;
        grid.fvyr = 0;
    }
    let fixations = if fixhist && !prehist {
        fixation_samples(&opts.fixations, &res, &grid)
    } else {
        Vec::new()
    };
    let mut sampling = Sampling {
        pic,
        grid,
        lum,
        cweight: opts.cweight,
        fixfrac: fixhist.then_some(opts.fixfrac),
        fixations: &fixations,
        rng: Drand48::new(),
    };
    let mut hist = match &opts.histogram {
        Some(pairs) => Histogram::precomputed(pairs).map_err(PcondError)?,
        None => sampling.histogram(&fov),
    };
    // What is worth doing.
    if hist.bwmax - hist.bwmin <= bldmax - bldmin {
        linear = true;
    }
    if hist.bwmax - hist.bwmin < 4.5 {
        veil = false;
    }
    if acuity || colour_loss {
        let l = hist.fifth_percentile().exp();
        let per_degree = (res.xr as f64 / frame.hn + res.yr as f64 / frame.vn)
            / (2.0 * 180.0 / std::f64::consts::PI);
        if acuity && acuity::hacuity(l) >= per_degree {
            acuity = false;
        }
        if l >= TOP_MESOPIC {
            colour_loss = false;
        }
    }
    let needs_dirs = veil || acuity;
    let dirs = if needs_dirs {
        ray_directions(&frame, &res, &grid)
    } else {
        Vec::new()
    };
    let mut veil_image = Vec::new();
    if veil {
        veil_image = veil::compute(&fov, &dirs);
        veil::add_to_foveal(&mut fov, &veil_image);
        if !prehist {
            hist = sampling.histogram(&fov);
        }
    }
    let mut map = None;
    if !linear {
        map = BrightnessMap::new(&hist, bldmin, bldmax, opts.hsens);
        linear = map.is_none();
    }
    let map = map;
    let mut header = Vec::new();
    if opts.macbeth.is_none() {
        if let Some(p) = opts.output_primaries {
            header.push(format!(
                "PRIMARIES= {:.4} {:.4} {:.4} {:.4} {:.4} {:.4} {:.4} {:.4}",
                p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]
            ));
        }
    }
    let mut scalef = opts.scalef;
    let ldmin = opts.ldmax / opts.lddyn;
    if linear {
        if scalef <= FTINY {
            let mid = (0.5 * (bldmax + bldmin)).exp();
            scalef = if opts.hsens {
                htcontrs(mid) / htcontrs(hist.bwavg.exp())
            } else {
                mid / hist.bwavg.exp()
            };
            scalef *= WHTEFFICACY / (pic.exposure * opts.ldmax);
        }
        header.push(format!("EXPOSURE={}", c_exp(pic.exposure * scalef, 4)));
    }
    if linear && pic.encoding == Encoding::Xyz {
        scalef /= WHTEFFICACY;
    }
    let mapping = mapping_function(&hist, map.as_ref(), scalef, pic, opts);
    // The output's colour conversion: to the device's primaries (RADIANCE's standard ones
    // unless -p gives others) whenever the picture is XYZ, -p is given or the picture's header
    // names its primaries (RADIANCE compares the primaries' storage, not their values).
    let outprims = opts
        .output_primaries
        .map_or(Primaries::Standard, Primaries::Given);
    let bad_prims = || PcondError("bad primaries".into());
    let matrix: Option<ColourMatrix> = if opts.macbeth.is_some() {
        None
    } else if pic.encoding == Encoding::Xyz {
        Some(colour::xyz_to_rgb_balanced(&outprims).ok_or_else(bad_prims)?)
    } else if opts.output_primaries.is_some() || pic.primaries.is_some() {
        Some(colour::rgb_to_rgb_balanced(&inprims, &outprims).ok_or_else(bad_prims)?)
    } else {
        None
    };
    let mut acuity_sampler =
        acuity.then(|| acuity::Acuity::new(&grid, &fov, &dirs, |c| lum.photopic(c)));
    let (scanlen, numscans) = (grid.scanlen, grid.numscans);
    let mut out = vec![[0.0f32; 3]; scanlen * numscans];
    for (y, scan) in out.chunks_mut(scanlen).enumerate() {
        match acuity_sampler.as_mut() {
            Some(a) => a.scanline(y, &grid, &pic.pixels, scan).ok_or_else(|| {
                PcondError("acuity sampling: cannot go back in the picture".into())
            })?,
            None => scan.copy_from_slice(&pic.pixels[y * scanlen..(y + 1) * scanlen]),
        }
        if veil {
            veil::add_to_scan(scan, y, &veil_image, &grid);
        }
        if colour_loss {
            scotopic_scan(scan, &lum);
        }
        match &map {
            Some(m) => {
                for c in scan.iter_mut() {
                    let lw = lum.photopic(*c);
                    if lw < LMIN {
                        *c = [0.0; 3];
                        continue;
                    }
                    let b = m.display_brightness(lw);
                    let mut mult = (b.exp() - ldmin) / (opts.ldmax - ldmin) / (lw * pic.exposure);
                    if pic.encoding == Encoding::Rgb {
                        mult *= WHTEFFICACY;
                    }
                    *c = c.map(|v| (f64::from(v) * mult) as f32);
                }
            }
            _ => {
                for c in scan.iter_mut() {
                    *c = c.map(|v| (f64::from(v) * scalef) as f32);
                }
            }
        }
        if let Some(mb) = &opts.macbeth {
            for c in scan.iter_mut() {
                mb.apply(c);
            }
        } else if let Some(m) = &matrix {
            for c in scan.iter_mut() {
                *c = colour::transform(m, *c);
                colour::clip_gamut(c, colour::grey_point(*c), [0.0; 3], [1.0; 3]);
            }
        }
    }
    Ok(Conditioned {
        header,
        pixels: out,
        mapping,
    })
}

/// The mesopic loss of colour: below 5.62 cd/m² a pixel's colour fades towards the grey of
/// its scotopic luminance, all grey below 0.00562 cd/m².
fn scotopic_scan(scan: &mut [[f32; 3]], lum: &Lum) {
    for c in scan.iter_mut() {
        let lw = lum.photopic(*c);
        let incolor = if lw >= TOP_MESOPIC {
            1.0
        } else if lw <= BOT_MESOPIC {
            0.0
        } else {
            (lw - BOT_MESOPIC) / (TOP_MESOPIC - BOT_MESOPIC)
        };
        if incolor < 1.0 - FTINY {
            let mut b = (1.0 - incolor) * (lum.scotopic_raw(*c) / lum.inpexp) * lum.inpexp / SWNORM;
            if lum.encoding == Encoding::Rgb {
                b /= WHTEFFICACY;
            }
            let grey = b as f32;
            if incolor <= FTINY {
                *c = [0.0; 3];
            } else {
                *c = c.map(|v| (f64::from(v) * incolor) as f32);
            }
            for v in c.iter_mut() {
                *v += grey;
            }
        }
    }
}

/// The world-to-display luminance pairs pcond writes with `-x`.
fn mapping_function(
    hist: &Histogram,
    map: Option<&BrightnessMap>,
    scalef: f64,
    pic: &Picture,
    opts: &Options,
) -> Vec<(f64, f64)> {
    let mut sf = scalef * pic.exposure;
    if pic.encoding == Encoding::Xyz {
        sf *= WHTEFFICACY;
    }
    let ldmin = opts.ldmax / opts.lddyn;
    let s = (hist.bwmax - hist.bwmin) / HISTRES as f64;
    let mut b = hist.bwmin + 0.5 * s;
    let mut out = Vec::with_capacity(HISTRES);
    for _ in 0..HISTRES {
        let wlum = b.exp();
        let dlum = match map {
            Some(m) => m.display_brightness(wlum).exp(),
            _ => (sf * wlum).clamp(ldmin, opts.ldmax),
        };
        out.push((wlum, dlum));
        b += s;
    }
    out
}

/// C's `%.Ne`.
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

/// Reads phisto's histogram text (pairs of log10 luminance and count) as pcond does: at most
/// 1024 pairs, and nothing else after them.
pub fn parse_histogram(text: &str) -> Result<Vec<(f64, f64)>, PcondError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut pairs = Vec::new();
    let mut i = 0;
    let mut last_b = 0.0;
    while pairs.len() < histogram::MAXPREHIST && i + 1 < words.len() {
        let (Ok(b), Ok(c)) = (words[i].parse::<f64>(), words[i + 1].parse::<f64>()) else {
            break;
        };
        last_b = b;
        pairs.push((b, c));
        i += 2;
    }
    if pairs.len() < 2 || i < words.len() {
        return err(format!(
            "format/length error loading histogram (log10L {} at {})",
            c_float6(last_b),
            pairs.len()
        ));
    }
    Ok(pairs)
}

/// Reads fixation points (`x y` pairs of integers, as ximage -op writes them).
pub fn parse_fixations(text: &str) -> Result<Vec<(i64, i64)>, PcondError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() % 2 != 0 {
        return err("format error reading fixation data");
    }
    words
        .chunks(2)
        .map(|w| match (w[0].parse(), w[1].parse()) {
            (Ok(x), Ok(y)) => Ok((x, y)),
            _ => err("format error reading fixation data"),
        })
        .collect()
}
