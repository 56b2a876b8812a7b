//! Colour-space warps (`-m`, RADIANCE's `.cwp` files from pcwarp): pairs of RGB points, each
//! an input colour and the colour the device should be sent for it. A colour's displacement is
//! the inverse-square-distance weighted mean of the pairs' displacements, computed at the
//! corners of a regular grid (spacing about the smallest distance between input points) and
//! interpolated trilinearly, as RADIANCE's warp3d does by default.
//!
//! Values are single precision where RADIANCE keeps them so (points, grid, displacements).

use std::collections::HashMap;

/// Inputs closer than this are one point.
const MIND: f64 = 1e-5;
/// Largest grid dimension.
const MAXGN: usize = 64;

/// A colour-space warp.
#[derive(Debug, Clone)]
pub struct ColourWarp {
    inputs: Vec<[f32; 3]>,
    displacements: Vec<[f32; 3]>,
    llim: [f32; 3],
    ulim: [f32; 3],
    d2min: f64,
    d2max: f64,
    grid: Option<Grid>,
}

#[derive(Debug, Clone)]
struct Grid {
    gn: [usize; 3],
    gmin: [f32; 3],
    gstep: [f32; 3],
    cache: HashMap<[usize; 3], [f32; 3]>,
}

fn dist2(a: &[f32; 3], b: &[f32; 3]) -> f64 {
    (0..3)
        .map(|i| {
            let d = f64::from(a[i] - b[i]);
            d * d
        })
        .sum()
}

/// Why a warp cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarpError {
    /// Fewer than two distinct points, or all within 1e-5 of each other.
    BadMap,
}

impl ColourWarp {
    /// Reads a warp file: numbers in sixes (input r g b, output r g b). Reading stops at the
    /// first word that is not a number, as RADIANCE's does (with a warning there); returns the
    /// warp and whether anything was left unread.
    pub fn parse(text: &str) -> (ColourWarp, bool) {
        let mut w = ColourWarp {
            inputs: Vec::new(),
            displacements: Vec::new(),
            llim: [0.0; 3],
            ulim: [0.0; 3],
            d2min: 1e10,
            d2max: 0.0,
            grid: None,
        };
        let mut nums = Vec::new();
        let mut stopped = false;
        for word in text.split_whitespace() {
            match word.parse::<f32>() {
                Ok(v) => nums.push(v),
                Err(_) => {
                    stopped = true;
                    break;
                }
            }
        }
        for six in nums.chunks_exact(6) {
            w.add([six[0], six[1], six[2]], [six[3], six[4], six[5]]);
        }
        (w, stopped)
    }

    fn add(&mut self, pin: [f32; 3], pout: [f32; 3]) {
        if self.inputs.is_empty() {
            self.llim = pin;
            self.ulim = pin;
        } else {
            for (i, &v) in pin.iter().enumerate() {
                if v < self.llim[i] {
                    self.llim[i] = v;
                } else if v > self.ulim[i] {
                    self.ulim[i] = v;
                }
            }
            // As RADIANCE: the limits and distances seen before a point found too close to
            // another stay counted.
            for p in self.inputs.iter().rev() {
                let d2 = dist2(&pin, p);
                if d2 < MIND * MIND {
                    return;
                }
                self.d2min = self.d2min.min(d2);
                self.d2max = self.d2max.max(d2);
            }
        }
        self.inputs.push(pin);
        self.displacements
            .push([pout[0] - pin[0], pout[1] - pin[1], pout[2] - pin[2]]);
        self.grid = None;
    }

    fn make_grid(&mut self) -> Result<(), WarpError> {
        if self.inputs.len() < 2 || self.d2max < MIND {
            return Err(WarpError::BadMap);
        }
        let step = self.d2min.sqrt();
        let mut gmin = [0.0f32; 3];
        let mut gstep = [0.0f32; 3];
        let mut gn = [0usize; 3];
        for i in 0..3 {
            gmin[i] = (f64::from(self.llim[i]) - 0.501 * step) as f32;
            let gmax = (f64::from(self.ulim[i]) + 0.501 * step) as f32;
            let d = f64::from(gmax - gmin[i]);
            let n = ((d / step + 0.5) as usize).min(MAXGN - 2);
            gstep[i] = (d / n as f64) as f32;
            gn[i] = n;
        }
        self.grid = Some(Grid {
            gn,
            gmin,
            gstep,
            cache: HashMap::new(),
        });
        Ok(())
    }

    /// The inverse-square weighted displacement at `p`.
    fn exact(&self, p: &[f32; 3]) -> [f32; 3] {
        let mut vt = [0.0f32; 3];
        let mut wsum = 0.0f64;
        for (ip, ov) in self.inputs.iter().zip(&self.displacements).rev() {
            let d2 = dist2(p, ip);
            let w = if d2 <= MIND * MIND {
                1.0 / (MIND * MIND)
            } else {
                1.0 / d2
            };
            for k in 0..3 {
                vt[k] = (f64::from(vt[k]) + w * f64::from(ov[k])) as f32;
            }
            wsum += w;
        }
        if wsum > 0.0 {
            vt.map(|v| (f64::from(v) / wsum) as f32)
        } else {
            [0.0; 3]
        }
    }

    /// The colour to send for colour `c`.
    pub fn apply(&mut self, c: [f32; 3]) -> Result<[f32; 3], WarpError> {
        if self.grid.is_none() {
            self.make_grid()?;
        }
        let g = self.grid.as_ref().expect("grid made above");
        let mut ndx = [0usize; 3];
        let mut rem = [0.0f32; 3];
        for i in 0..3 {
            let r = (c[i] - g.gmin[i]) / g.gstep[i];
            ndx[i] = if r < 0.0 {
                0
            } else if (r as usize) >= g.gn[i] {
                g.gn[i] - 1
            } else {
                r as usize
            };
            rem[i] = r - ndx[i] as f32;
        }
        let mut corners = [[0.0f32; 3]; 8];
        for (k, corner) in corners.iter_mut().enumerate() {
            let gi = [ndx[0] + (k & 1), ndx[1] + (k >> 1 & 1), ndx[2] + (k >> 2)];
            *corner = self.grid_value(gi);
        }
        let ov = interpolate(&corners, &rem, 3);
        Ok([c[0] + ov[0], c[1] + ov[1], c[2] + ov[2]])
    }

    fn grid_value(&mut self, gi: [usize; 3]) -> [f32; 3] {
        let g = self.grid.as_ref().expect("grid made before use");
        if let Some(v) = g.cache.get(&gi) {
            return *v;
        }
        let p: [f32; 3] = std::array::from_fn(|i| g.gmin[i] + gi[i] as f32 * g.gstep[i]);
        let v = self.exact(&p);
        if let Some(g) = self.grid.as_mut() {
            g.cache.insert(gi, v);
        }
        v
    }
}

/// Trilinear interpolation of the 8 corner values (x fastest), one axis at a time.
fn interpolate(cl: &[[f32; 3]], dv: &[f32; 3], n: usize) -> [f32; 3] {
    let n = n - 1;
    let (v0, v1) = if n > 0 {
        (
            interpolate(&cl[..1 << n], dv, n),
            interpolate(&cl[1 << n..], dv, n),
        )
    } else {
        (cl[0], cl[1])
    };
    let d = f64::from(dv[n]);
    std::array::from_fn(|i| ((1.0 - d) * f64::from(v0[i]) + d * f64::from(v1[i])) as f32)
}
