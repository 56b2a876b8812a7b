//! Loss of visual acuity (`-a`): where the adaptation luminance is low the eye resolves fewer
//! cycles per degree, so the picture is sampled there from a coarser level of a pyramid of 2 × 2
//! box averages, interpolated bilinearly within a level and linearly between the two levels
//! that bracket the local sample rate.
//!
//! The pyramid is kept as RADIANCE keeps it, a few scanlines per level in rings that are filled
//! as the output scanlines go down the picture, so that the result is RADIANCE's (including
//! which lines a level holds when it is first asked for a line far below its last one).

use super::Grid;
use std::f64::consts::PI;

/// Human visual acuity (cycles per degree) at adaptation luminance `la` (cd/m²): a
/// functional fit, 17.25 atan(1.4 log10 La + 0.35) + 25.72.
pub fn hacuity(la: f64) -> f64 {
    17.25 * (1.4 * la.log10() + 0.35).atan() + 25.72
}

/// One level of the pyramid: scanlines averaged over `2^sampe` × `2^sampe` pixels, the last
/// `nscans` of them held in a ring.
struct ScanBar {
    sampe: u32,
    nscans: usize,
    len: usize,
    nread: usize,
    data: Vec<[f32; 3]>,
}

/// The acuity sampler of one picture.
pub struct Acuity {
    /// Sample rate (pixels per resolvable sample) at each foveal sample.
    rates: Vec<f32>,
    /// Levels, coarsest first; the last is the picture itself.
    bars: Vec<ScanBar>,
}

impl Acuity {
    /// The sampler for a picture whose foveal samples are `fov` (luminance by `lum`), with ray
    /// directions `dirs`.
    pub fn new(
        grid: &Grid,
        fov: &[[f32; 3]],
        dirs: &[[f32; 3]],
        lum: impl Fn([f32; 3]) -> f64,
    ) -> Acuity {
        let (fvxr, fvyr) = (grid.fvxr, grid.fvyr);
        let mut rates = vec![0.0f32; fvxr * fvyr];
        let mut maxsr = 1.0f64;
        let fx = 0.5 * fvxr as f64 / grid.scanlen as f64;
        let fy = 0.5 * fvyr as f64 / grid.numscans as f64;
        for y in 1..fvyr.saturating_sub(1) {
            for x in 1..fvxr - 1 {
                let d = |x: usize, y: usize| &dirs[y * fvxr + x];
                let dx: [f64; 3] =
                    std::array::from_fn(|i| fx * f64::from(d(x + 1, y)[i] - d(x - 1, y)[i]));
                let dy: [f64; 3] =
                    std::array::from_fn(|i| fy * f64::from(d(x, y + 1)[i] - d(x, y - 1)[i]));
                let cp = [
                    dx[1] * dy[2] - dx[2] * dy[1],
                    dx[2] * dy[0] - dx[0] * dy[2],
                    dx[0] * dy[1] - dx[1] * dy[0],
                ];
                let omega = 0.5 * (cp[0] * cp[0] + cp[1] * cp[1] + cp[2] * cp[2]).sqrt();
                let r = if omega <= 1e-12 {
                    1.0
                } else {
                    (PI / 180.0 / omega.sqrt() / hacuity(lum(fov[y * fvxr + x]))) as f32
                };
                rates[y * fvxr + x] = r;
                if f64::from(r) > maxsr {
                    maxsr = f64::from(r);
                }
            }
        }
        for x in 1..fvxr - 1 {
            rates[x] = rates[fvxr + x];
            rates[(fvyr - 1) * fvxr + x] = rates[(fvyr - 2) * fvxr + x];
        }
        for y in 0..fvyr {
            rates[y * fvxr] = rates[y * fvxr + 1];
            rates[y * fvxr + fvxr - 1] = rates[y * fvxr + fvxr - 2];
        }
        let top = (maxsr.ln() / 2f64.ln()) as i64 + 1;
        let mut bars = Vec::new();
        let mut ns = 2usize;
        for se in (0..=top.max(0) as u32).rev() {
            let len = grid.scanlen >> se;
            if len == 0 {
                continue;
            }
            bars.push(ScanBar {
                sampe: se,
                nscans: ns,
                len,
                nread: 0,
                data: vec![[0.0; 3]; len * ns],
            });
            ns <<= 1;
        }
        Acuity { rates, bars }
    }

    /// Scanline `y` of level `k`, reading and averaging as needed; the offset of its pixels
    /// in the level's ring, or `None` when the line has left the ring.
    fn scan(&mut self, k: usize, y: usize, picture: &[[f32; 3]]) -> Option<usize> {
        let (nread, nscans) = (self.bars[k].nread, self.bars[k].nscans);
        if y + nscans < nread {
            return None;
        }
        while y >= self.bars[k].nread {
            let n = self.bars[k].nread;
            let len = self.bars[k].len;
            let at = (n % nscans) * len;
            if self.bars[k].sampe == 0 {
                let src = picture.get(n * len..(n + 1) * len)?;
                self.bars[k].data[at..at + len].copy_from_slice(src);
            } else {
                // As RADIANCE: every line from the last one read to `y` is made from the
                // finer lines under `y`.
                let s0 = self.scan(k + 1, 2 * y, picture)?;
                let s1 = self.scan(k + 1, 2 * y + 1, picture)?;
                let (coarse, fine) = self.bars.split_at_mut(k + 1);
                let fine = &fine[0].data;
                let out = &mut coarse[k].data[at..at + len];
                for (i, o) in out.iter_mut().enumerate() {
                    for c in 0..3 {
                        let v = fine[s0 + 2 * i][c]
                            + fine[s0 + 2 * i + 1][c]
                            + fine[s1 + 2 * i][c]
                            + fine[s1 + 2 * i + 1][c];
                        o[c] = (f64::from(v) * 0.25) as f32;
                    }
                }
            }
            self.bars[k].nread += 1;
        }
        Some((y % nscans) * self.bars[k].len)
    }

    /// The value of level `k` at picture pixel `(x, y)`, interpolated.
    fn level_value(
        &mut self,
        k: usize,
        x: usize,
        y: usize,
        grid: &Grid,
        picture: &[[f32; 3]],
    ) -> Option<[f32; 3]> {
        let (sampe, len) = (self.bars[k].sampe, self.bars[k].len);
        if sampe == 0 {
            let s = self.scan(k, y, picture)?;
            return Some(self.bars[k].data[s + x]);
        }
        let step = f64::from(1u32 << sampe);
        let dx = (x as f64 + 0.5) / step - 0.5;
        let mut ix = dx as i64;
        while ix >= len as i64 - 1 {
            ix -= 1;
        }
        let dx = dx - ix as f64;
        let dy = (y as f64 + 0.5) / step - 0.5;
        let mut iy = dy as i64;
        while iy >= (grid.numscans >> sampe) as i64 - 1 {
            iy -= 1;
        }
        let dy = dy - iy as f64;
        let (ix, iy) = (usize::try_from(ix).ok()?, usize::try_from(iy).ok()?);
        let s0 = self.scan(k, iy, picture)?;
        let s1 = self.scan(k, iy + 1, picture)?;
        let d = &self.bars[k].data;
        let mut out = [0.0f32; 3];
        for c in 0..3 {
            let a = (f64::from(d[s0 + ix][c]) * (1.0 - dx)) as f32
                + (f64::from(d[s0 + ix + 1][c]) * dx) as f32;
            let b = (f64::from(d[s1 + ix][c]) * (1.0 - dx)) as f32
                + (f64::from(d[s1 + ix + 1][c]) * dx) as f32;
            let v = (f64::from(a) * (1.0 - dy)) as f32 + (f64::from(b) * dy) as f32;
            out[c] = v.max(0.0);
        }
        Some(out)
    }

    /// Scanline `y` of the picture as seen with the local acuity. `None` when the pyramid
    /// cannot give it (RADIANCE fails there too).
    pub fn scanline(
        &mut self,
        y: usize,
        grid: &Grid,
        picture: &[[f32; 3]],
        out: &mut [[f32; 3]],
    ) -> Option<()> {
        let (iy, dy) = super::veil::grid_position(y, grid.numscans, grid.fvyr);
        for (x, o) in out.iter_mut().enumerate() {
            let (ix, dx) = super::veil::grid_position(x, grid.scanlen, grid.fvxr);
            let t = |x: usize, y: usize| f64::from(self.rates[y * grid.fvxr + x]);
            let sr = (1.0 - dy) * ((1.0 - dx) * t(ix, iy) + dx * t(ix + 1, iy))
                + dy * ((1.0 - dx) * t(ix, iy + 1) + dx * t(ix + 1, iy + 1));
            let mut k = 0;
            while self.bars[k].sampe != 0 && f64::from(1u32 << self.bars[k + 1].sampe) > sr {
                k += 1;
            }
            let mut col = self.level_value(k, x, y, grid, picture)?;
            if self.bars[k].sampe != 0 {
                let c1 = self.level_value(k + 1, x, y, grid, picture)?;
                let d = (f64::from(1u32 << self.bars[k].sampe) - sr)
                    / f64::from(1u32 << self.bars[k + 1].sampe);
                for c in 0..3 {
                    col[c] = (f64::from(col[c]) * (1.0 - d)) as f32 + (f64::from(c1[c]) * d) as f32;
                }
            }
            *o = col;
        }
        Some(())
    }
}
