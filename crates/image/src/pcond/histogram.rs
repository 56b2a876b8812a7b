//! The histogram adjustment of Ward Larson, Rushmeier and Piatko (1997), as pcond does it: a
//! histogram of world brightness (the natural log of luminance) over foveal samples, clipped
//! again and again to the ceiling that keeps the mapping from exaggerating contrast (linear
//! contrast, or human contrast sensitivity with `-s`) until less than 2.5% is trimmed; its
//! cumulative distribution maps world brightness to display brightness.
//!
//! Also a precomputed histogram (`-I`, phisto's base-10 logarithms and counts) converted to the
//! same bins, and the threshold-versus-intensity function of Ferwerda et al. (1996).

/// Number of histogram bins.
pub const HISTRES: usize = 100;
/// Largest precomputed histogram read.
pub const MAXPREHIST: usize = 1024;
/// Smallest visible world luminance (cd/m²).
pub const LMIN: f64 = 1e-7;
/// Largest visible world luminance (cd/m²).
pub const LMAX: f64 = 1e7;
/// RADIANCE's small number.
pub const FTINY: f64 = 1e-6;
/// Share of the histogram that may be trimmed in one round before the adjustment is done;
/// also the share left below which no compression is needed.
const CVRATIO: f64 = 0.025;

/// A brightness histogram over `[bwmin, bwmax)` in `HISTRES` bins.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Weight in each bin.
    pub bins: [f64; HISTRES],
    /// Total weight.
    pub total: f64,
    /// Lower end of the world brightness range, ln(cd/m²).
    pub bwmin: f64,
    /// Upper end of the world brightness range, ln(cd/m²).
    pub bwmax: f64,
    /// Weighted mean world brightness.
    pub bwavg: f64,
}

impl Histogram {
    /// An empty histogram over `[bwmin, bwmax)`.
    pub fn empty(bwmin: f64, bwmax: f64) -> Histogram {
        Histogram {
            bins: [0.0; HISTRES],
            total: 0.0,
            bwmin,
            bwmax,
            bwavg: 0.0,
        }
    }

    /// The bin of brightness `b`.
    pub fn bin(&self, b: f64) -> usize {
        let i = (HISTRES as f64 * (b - self.bwmin) / (self.bwmax - self.bwmin)) as i64;
        i.clamp(0, HISTRES as i64 - 1) as usize
    }

    /// Adds brightness `b` with weight `w`.
    pub fn add(&mut self, b: f64, w: f64) {
        self.bwavg += w * b;
        let i = self.bin(b);
        self.bins[i] += w;
        self.total += w;
    }

    /// Ends accumulation: the mean, and (when the range's bottom is not the visible limit)
    /// half of the second bin moved into the first, whose lower edge was extended by a bin.
    pub fn finish(&mut self, bottom_extended: bool) {
        self.bwavg /= self.total;
        if bottom_extended {
            self.bins[1] *= 0.5;
            self.bins[0] += self.bins[1];
        }
    }

    /// A histogram from phisto's pairs (log10 luminance, count) in ascending, evenly spaced
    /// order.
    pub fn precomputed(pairs: &[(f64, f64)]) -> Result<Histogram, String> {
        let n = pairs.len();
        if n < 2 {
            return Err(format!(
                "format/length error loading histogram (log10L {} at {n})",
                crate::pcond::c_float6(pairs.last().map_or(0.0, |p| p.0))
            ));
        }
        let histart0 = pairs[0].0;
        let histep0 = pairs[1].0 - histart0;
        if histep0 <= FTINY {
            return Err("illegal step in histogram data".into());
        }
        for w in pairs.windows(2).skip(1) {
            if (w[1].0 - w[0].0 - histep0).abs() > 0.001 {
                return Err("uneven step size in histogram data".into());
            }
        }
        let histart = histart0 * std::f64::consts::LN_10;
        let histep = histep0 * std::f64::consts::LN_10;
        let first = pairs.iter().position(|p| p.1 > FTINY).unwrap_or(n);
        let mut bwmin = histart + (first as f64 - 0.001) * histep;
        let last = pairs
            .iter()
            .rposition(|p| p.1 > FTINY)
            .map_or(-1, |i| i as i64);
        let mut bwmax = histart + (last as f64 + 1.001) * histep;
        if bwmax > LMAX.ln() {
            bwmax = LMAX.ln();
        }
        let extended = bwmin >= LMIN.ln();
        if !extended {
            bwmin = LMIN.ln();
        } else {
            bwmin = extend_bottom(bwmin, bwmax);
        }
        let mut h = Histogram::empty(bwmin, bwmax);
        let mut b = histart;
        for &(_, w) in pairs {
            if b >= bwmin + FTINY {
                if b >= bwmax - FTINY {
                    break;
                }
                h.add(b, w);
            }
            b += histep;
        }
        h.finish(bwmin > LMIN.ln() + FTINY);
        Ok(h)
    }

    /// The brightness below which 5% of the histogram lies (the middle of that bin).
    pub fn fifth_percentile(&self) -> f64 {
        let mut sum = self.total * 0.05;
        let mut i = 0;
        while i < HISTRES {
            sum -= self.bins[i];
            if sum <= 0.0 {
                break;
            }
            i += 1;
        }
        (i as f64 + 0.5) * (self.bwmax - self.bwmin) / HISTRES as f64 + self.bwmin
    }
}

/// The histogram's lower end moved down by one bin of the range `b..bwmax` split in
/// `HISTRES - 1`, grouped as RADIANCE 6.0a's build computes it (its compiler turned the division
/// by 99 into a multiplication by 100/99).
pub fn extend_bottom(b: f64, bwmax: f64) -> f64 {
    (b - bwmax) * (HISTRES as f64 / (HISTRES - 1) as f64) + bwmax
}

/// Human threshold contrast: the just-noticeable luminance difference at adaptation
/// luminance `la` (Ferwerda et al., SIGGRAPH 1996), rods below about 0.04 cd/m², cones above.
pub fn htcontrs(la: f64) -> f64 {
    if la < 1.148e-4 {
        return 1.38e-3;
    }
    threshold_of_log(la.log10())
}

/// [`htcontrs`] of `exp(b)`, as RADIANCE 6.0a's build evaluates it where it inlines the call
/// (the histogram ceiling): log10(exp(b)) taken as b / ln 10.
fn htcontrs_of_brightness(b: f64) -> f64 {
    if b.exp() < 1.148e-4 {
        return 1.38e-3;
    }
    threshold_of_log(b * (1.0 / std::f64::consts::LN_10))
}

/// Ferwerda's threshold curve at `l` = log10 of the adaptation luminance (above 1.148e-4).
fn threshold_of_log(l: f64) -> f64 {
    let dl = if l < -1.44 {
        (0.405 * l + 1.6).powf(2.18) - 2.86
    } else if l < -0.0184 {
        l - 0.395
    } else if l < 1.9 {
        (0.249 * l + 0.65).powf(2.7) - 0.72
    } else {
        l - 1.255
    };
    (std::f64::consts::LN_10 * dl).exp()
}

/// The tone map: world brightness to display brightness through the adjusted histogram's
/// cumulative distribution.
#[derive(Debug, Clone)]
pub struct BrightnessMap {
    /// The adjusted (clipped) histogram.
    pub modhist: [f64; HISTRES],
    /// Its total.
    pub mhistot: f64,
    cumf: [f64; HISTRES + 1],
    bwmin: f64,
    bwmax: f64,
    /// Display brightness at the bottom: ln(Ldmax / Lddyn).
    pub bldmin: f64,
    /// Display brightness at the top: ln(Ldmax).
    pub bldmax: f64,
    /// Match human contrast sensitivity (`-s`) rather than linear contrast.
    hsens: bool,
}

impl BrightnessMap {
    /// Adjusts `h` for a display of brightness `bldmin..bldmax`; `None` when the picture
    /// needs no compression (a linear mapping is then used).
    pub fn new(h: &Histogram, bldmin: f64, bldmax: f64, hsens: bool) -> Option<BrightnessMap> {
        let mut m = BrightnessMap {
            modhist: h.bins,
            mhistot: 0.0,
            cumf: [0.0; HISTRES + 1],
            bwmin: h.bwmin,
            bwmax: h.bwmax,
            bldmin,
            bldmax,
            hsens,
        };
        let s = (h.bwmax - h.bwmin) / HISTRES as f64;
        loop {
            m.cumulate();
            if m.mhistot <= h.total * CVRATIO {
                return None;
            }
            let tdb = m.mhistot * s;
            let mut trimmings = 0.0;
            let mut b = h.bwmin + 0.5 * s;
            for i in 0..HISTRES {
                let ceiling = tdb * m.clamp(b.exp());
                if m.modhist[i] > ceiling {
                    trimmings += m.modhist[i] - ceiling;
                    m.modhist[i] = ceiling;
                }
                b += s;
            }
            if trimmings <= m.mhistot * CVRATIO {
                break;
            }
        }
        Some(m)
    }

    fn cumulate(&mut self) {
        self.mhistot = self.modhist.iter().sum();
        let mut sum = 0.0;
        for i in 0..HISTRES {
            self.cumf[i] = sum / self.mhistot;
            sum += self.modhist[i];
        }
        self.cumf[HISTRES] = 1.0;
    }

    fn cf(&self, b: f64) -> f64 {
        let x = HISTRES as f64 * (b - self.bwmin) / (self.bwmax - self.bwmin);
        let i = x as usize;
        // The weights as RADIANCE 6.0a's build forms them.
        let (w0, w1) = ((1.0 - x) + i as f64, x - i as f64);
        self.cumf[i] * w0 + self.cumf[i + 1] * w1
    }

    /// Display brightness of world luminance `lw` (RADIANCE's `BLw`).
    pub fn display_brightness(&self, lw: f64) -> f64 {
        if lw <= LMIN {
            return self.bldmin;
        }
        let b = lw.ln();
        if b <= self.bwmin + FTINY {
            return self.bldmin;
        }
        if b >= self.bwmax - FTINY {
            return self.bldmax;
        }
        self.bldmin + self.cf(b) * (self.bldmax - self.bldmin)
    }

    /// The ceiling on the histogram's slope at world luminance `lw`, relative to the mean
    /// slope: display contrast may not exceed world contrast (or, with `-s`, visible
    /// display contrast the visible world contrast).
    fn clamp(&self, lw: f64) -> f64 {
        let blw = self.display_brightness(lw);
        let ratio = if self.hsens {
            htcontrs_of_brightness(blw) / htcontrs(lw)
        } else {
            blw.exp() / lw
        };
        // ratio / (Lb'(blw) (Bldmax - Bldmin) Bl'(lw)), grouped as RADIANCE 6.0a's build does.
        ratio / ((self.bldmax - self.bldmin) / lw * blw.exp())
    }
}
