//! The adaptation samples: pcond's foveal image (the picture box-filtered by pfilt to one
//! sample per degree of its view, read back through RGBE), the ray direction of each foveal
//! sample, point samples of the picture drawn with `drand48`, fixation points, and the
//! histogram of them all (RADIANCE's `comphist`).

use super::histogram::{extend_bottom, Histogram, FTINY, LMAX, LMIN};
use super::{Lum, PcondError, Picture, Resolution, XDECR, YDECR, YMAJOR};
use crate::filter::{pfilt, FilterOptions, Size};
use crate::hdr::{float_to_rgbe, rgbe_to_float};
use crate::view::{View, ViewFrame, ViewType};

/// The foveal grid and the picture's scanline dimensions, in file scanline order.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    /// Pixels in a scanline.
    pub scanlen: usize,
    /// Scanlines.
    pub numscans: usize,
    /// Foveal samples along a scanline.
    pub fvxr: usize,
    /// Foveal scanlines.
    pub fvyr: usize,
}

/// The Unix `drand48` generator as RADIANCE's `frandom` draws on Linux, never seeded: glibc
/// starts it from a zero state (not the 0x1234ABCD330E of `srand48`'s documentation).
pub(super) struct Drand48(u64);

impl Drand48 {
    pub(super) fn new() -> Drand48 {
        Drand48(0)
    }

    fn next(&mut self) -> f64 {
        self.0 = (self.0.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB)) & ((1 << 48) - 1);
        self.0 as f64 / (1u64 << 48) as f64
    }
}

/// Everything the histogram is computed from.
pub(super) struct Sampling<'a> {
    pub(super) pic: &'a Picture,
    pub(super) grid: Grid,
    pub(super) lum: Lum,
    pub(super) cweight: bool,
    pub(super) fixfrac: Option<f64>,
    pub(super) fixations: &'a [(usize, usize)],
    pub(super) rng: Drand48,
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
        // RADIANCE 6.0a's build multiplies by 1/90 rather than divide by 90.
        let xr = (x as f64 - 0.5 * (self.grid.fvxr as f64 - 1.0)) * (1.0 / 90.0);
        let yr = (y as f64 - 0.5 * (self.grid.fvyr as f64 - 1.0)) * (1.0 / 90.0);
        (1.0 - xr * xr - yr * yr).max(0.0)
    }

    /// The adaptation histogram of the foveal image `fov` and point samples of the picture
    /// (RADIANCE's `comphist`).
    pub(super) fn histogram(&mut self, fov: &[[f32; 3]]) -> Histogram {
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
            bwmin = extend_bottom(lwmin.ln(), bwmax);
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
pub(super) fn adaptation_view(pic: &Picture) -> Result<ViewFrame, PcondError> {
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
        .map_err(|e| PcondError(format!("view error in picture \"{}\": {}", pic.name, e.0)))
}

/// The direction of each foveal sample's ray in the view (zero where the view has none), in
/// single precision.
pub(super) fn ray_directions(frame: &ViewFrame, res: &Resolution, grid: &Grid) -> Vec<[f32; 3]> {
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
pub(super) fn foveal_image(pic: &Picture, grid: &Grid) -> Result<Vec<[f32; 3]>, PcondError> {
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
pub(super) fn fixation_samples(
    points: &[(i64, i64)],
    res: &Resolution,
    grid: &Grid,
) -> Vec<(usize, usize)> {
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

#[cfg(test)]
mod tests {
    use super::Drand48;

    #[test]
    fn drand48_follows_glibc_from_its_zero_state() {
        // glibc's drand48() in a program that never seeds it.
        let mut r = Drand48::new();
        assert_eq!(r.next(), 3.907_985_046_680_551e-14);
        assert_eq!(r.next(), 0.000_985_394_674_650_308_4);
        assert_eq!(r.next(), 0.041_631_001_594_613_08);
    }
}
