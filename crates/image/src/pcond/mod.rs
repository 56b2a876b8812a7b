//! Conditioning a picture for a display, as RADIANCE's `pcond` does it: the histogram
//! adjustment tone mapping of Ward Larson, Rushmeier and Piatko ("A Visibility Matching Tone
//! Reproduction Operator for High Dynamic Range Scenes", IEEE TVCG 1997) with its optional
//! models of human vision — veiling glare (`-v`), loss of acuity (`-a`), contrast sensitivity
//! (`-s`) and mesopic loss of colour (`-c`) — or a linear mapping (`-l`, `-e`), then the
//! output device's primaries (`-p`) or macbethcal correction (`-f`).
//!
//! The picture is processed in its file's scanline order (any orientation), as RADIANCE does
//! ([`picture`]). Foveal samples (one per degree of the view) and point samples of the picture
//! make the brightness histogram ([`foveal`]), which the histogram adjustment turns into a tone
//! map ([`histogram`]); the veil ([`veil`]) and the acuity pyramid ([`acuity`]) work on the
//! foveal grid; colour arithmetic is single precision where RADIANCE's is ([`colour`]).
//! [`condition`] runs the steps in RADIANCE's order: histogram, what is worth doing (no
//! compression needed, no significant veil, acuity or colour loss at the picture's 5th
//! percentile), veil and histogram again, the tone map, then each scanline.

pub mod acuity;
pub mod colour;
pub mod foveal;
pub mod histogram;
pub mod picture;
pub mod veil;
pub mod warp;

pub use foveal::Grid;
pub use picture::{encode, Encoding, Picture, Resolution, XDECR, YDECR, YMAJOR};

use colour::{ColourMatrix, Macbeth, Primaries};
use foveal::{adaptation_view, fixation_samples, foveal_image, ray_directions, Drand48, Sampling};
use histogram::{htcontrs, BrightnessMap, Histogram, FTINY, HISTRES, LMIN};

/// Luminous efficacy of equal-energy white (lm/W), RADIANCE's `WHTEFFICACY`.
pub const WHTEFFICACY: f64 = 179.0;
/// Scotopic to photopic ratio of white.
pub const SWNORM: f64 = 2.26;
/// Top of the scotopic range (cd/m²): no colour is seen below it.
pub const BOT_MESOPIC: f64 = 5.62e-3;
/// Bottom of the photopic range (cd/m²): full colour above it.
pub const TOP_MESOPIC: f64 = 5.62;
/// Diameter of the fovea (radians): the foveal image has one sample per this angle.
pub const FOVDIA: f64 = std::f64::consts::PI / 180.0;
/// Default display maximum luminance (cd/m²).
pub const LDMAX: f64 = 100.0;
/// Default display dynamic range (maximum over minimum usable luminance).
pub const LDDYN: f64 = 100.0;

/// A reason pcond cannot go on, worded as RADIANCE words it (without the program name).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct PcondError(pub String);

fn err<T>(m: impl Into<String>) -> Result<T, PcondError> {
    Err(PcondError(m.into()))
}

/// C's `%f` (six decimals).
pub(crate) fn c_float6(v: f64) -> String {
    format!("{v:.6}")
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
    /// `-l`: linear mapping (`-e` sets it too).
    pub linear: bool,
    /// `-i`: share of the histogram given to fixation points (used when above 1e-6).
    pub fixfrac: f64,
    /// `-i`: fixation points, picture (x, y) with y up.
    pub fixations: Vec<(i64, i64)>,
    /// `-I`: a precomputed histogram, (log10 luminance, count) pairs.
    pub histogram: Option<Vec<(f64, f64)>>,
    /// `-e`: linear scale factor (0: chosen from the histogram, as with `-l` alone).
    pub scalef: f64,
    /// `-u`: display maximum luminance (cd/m²).
    pub ldmax: f64,
    /// `-d`: display dynamic range.
    pub lddyn: f64,
    /// `-p`: output primaries.
    pub output_primaries: Option<[f32; 8]>,
    /// `-f`: macbethcal calibration.
    pub macbeth: Option<Macbeth>,
    /// `-m`: colour-space warp, and its file's name for errors.
    pub warp: Option<(warp::ColourWarp, String)>,
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
            warp: None,
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

/// Conditions `pic` as pcond does with `opts`.
pub fn condition(pic: &Picture, opts: &Options) -> Result<Conditioned, PcondError> {
    let inprims = pic.primaries.map_or(Primaries::Standard, Primaries::Given);
    let devices = usize::from(opts.macbeth.is_some())
        + usize::from(opts.output_primaries.is_some())
        + usize::from(opts.warp.is_some());
    if devices > 1 {
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
        header.push(format!(
            "EXPOSURE={}",
            daylit_radfile::printf::format_e(pic.exposure * scalef, 4)
        ));
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
    let mut warp = opts.warp.clone();
    let matrix: Option<ColourMatrix> = if opts.macbeth.is_some() || warp.is_some() {
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
            colour::scotopic_scan(scan, &lum);
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
                    // (Lb(b) - Ldmin) / (Ldmax - Ldmin) / (Lw · exposure), as one division
                    // the way RADIANCE 6.0a's build computes it.
                    let mut mult = (b.exp() - ldmin) / ((opts.ldmax - ldmin) * lw * pic.exposure);
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
        } else if let Some((w, name)) = warp.as_mut() {
            for c in scan.iter_mut() {
                *c = w
                    .apply(*c)
                    .map_err(|_| PcondError(format!("{name}: bad color space map")))?;
                colour::clip_gamut(c, colour::grey_point(*c), [0.0; 3], [1.0; 3]);
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
    if !words.len().is_multiple_of(2) {
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
