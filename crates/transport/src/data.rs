//! RADIANCE data files, as `brightdata`, `colordata`, `texdata` and `mixdata` read them: an
//! N-dimensional grid of values interpolated multilinearly.
//!
//! The format: the number of dimensions, then per dimension either `begin end count` (evenly
//! spaced) or `0 0 count` followed by `count` monotonic coordinates (unevenly spaced), then the
//! values with the last dimension varying fastest. Outside the grid a value is extrapolated
//! linearly for one division and then tapers harmonically to zero, as RADIANCE does, so that
//! e.g. a luminaire distribution does not blow up past its last angle.

use daylit_image::words::{without_comments, Words};
use std::path::Path;

/// Most dimensions a data file may have (RADIANCE's limit).
pub const MAX_DIMS: usize = 16;

/// One axis of the grid.
#[derive(Clone, Debug)]
struct Axis {
    /// First coordinate.
    org: f64,
    /// Last minus first coordinate (negative for a descending axis).
    span: f64,
    /// Number of grid points (at least 2).
    n: usize,
    /// Explicit coordinates of an unevenly spaced axis.
    points: Option<Vec<f64>>,
}

/// A data array read from a file.
#[derive(Clone, Debug)]
pub struct DataArray {
    axes: Vec<Axis>,
    values: Vec<f64>,
}

/// A data file that cannot be read, with what was expected.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {msg}")]
pub struct DataError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub msg: String,
}

impl DataArray {
    /// Reads a data file.
    pub fn load(path: &Path) -> Result<DataArray, DataError> {
        let text = std::fs::read(path).map_err(|e| DataError {
            file: path.display().to_string(),
            msg: format!("cannot read: {e}"),
        })?;
        Self::parse(&String::from_utf8_lossy(&text)).map_err(|msg| DataError {
            file: path.display().to_string(),
            msg,
        })
    }

    /// Parses the text of a data file; the error says which number was wrong and where. As
    /// in RADIANCE, `#` starts a comment that runs to the end of its line, anywhere.
    pub fn parse(text: &str) -> Result<DataArray, String> {
        let text = without_comments(text);
        let mut words = Words::new(&text);
        let nd = words.int("the number of dimensions")?;
        if nd == 0 || nd > MAX_DIMS {
            return Err(format!(
                "{}: the number of dimensions must be 1 to {MAX_DIMS}, not {nd}",
                words.at()
            ));
        }
        let mut axes = Vec::with_capacity(nd);
        let mut size = 1usize;
        for d in 0..nd {
            let org = words.real(&format!("the start of dimension {}", d + 1))?;
            let end = words.real(&format!("the end of dimension {}", d + 1))?;
            let n = words.int(&format!("the point count of dimension {}", d + 1))?;
            if n < 2 {
                return Err(format!(
                    "{}: dimension {} needs at least 2 points, not {n}",
                    words.at(),
                    d + 1
                ));
            }
            size = size
                .checked_mul(n)
                .filter(|&s| s <= 1 << 28)
                .ok_or_else(|| format!("{}: the data array is too large", words.at()))?;
            let axis = if end == org {
                let mut p = Vec::with_capacity(n);
                for j in 0..n {
                    p.push(words.real(&format!("coordinate {} of dimension {}", j + 1, d + 1))?);
                }
                let monotonic =
                    p.windows(2).all(|w| w[0] < w[1]) || p.windows(2).all(|w| w[0] > w[1]);
                if !monotonic {
                    return Err(format!(
                        "{}: the coordinates of dimension {} must increase or decrease strictly",
                        words.at(),
                        d + 1
                    ));
                }
                Axis {
                    org: p[0],
                    span: p[n - 1] - p[0],
                    n,
                    points: Some(p),
                }
            } else {
                Axis {
                    org,
                    span: end - org,
                    n,
                    points: None,
                }
            };
            axes.push(axis);
        }
        let mut values = Vec::with_capacity(size);
        for j in 0..size {
            // Kept in single precision, as RADIANCE keeps data values (its `DATATYPE`).
            values.push(words.real(&format!("data value {} of {size}", j + 1))? as f32 as f64);
        }
        Ok(DataArray { axes, values })
    }

    /// Number of dimensions.
    pub fn dims(&self) -> usize {
        self.axes.len()
    }

    /// The interpolated value at `pt` (one coordinate per dimension).
    pub fn value(&self, pt: &[f64]) -> f64 {
        self.interp(0, 0, pt, 1.0)
    }

    /// The first coordinate, the span (last minus first) and the point count of axis `d`.
    pub fn axis(&self, d: usize) -> (f64, f64, usize) {
        let a = &self.axes[d];
        (a.org, a.span, a.n)
    }

    /// Are axis `d`'s points given one by one (unevenly spaced)?
    pub fn uneven(&self, d: usize) -> bool {
        self.axes[d].points.is_some()
    }

    /// The values along the last axis, the others interpolated at `pt` (one coordinate per
    /// dimension but the last), as RADIANCE interpolates a spectrum out of a data file.
    pub fn vector(&self, pt: &[f64]) -> Vec<f64> {
        let n = self.axes[self.axes.len() - 1].n;
        let mut out = vec![0.0; n];
        self.interp_vector(0, 0, pt, 1.0, &mut out);
        out
    }

    fn interp_vector(&self, d: usize, base: usize, pt: &[f64], coef: f64, out: &mut [f64]) {
        if coef.abs() <= 1e-6 {
            return;
        }
        if d + 1 == self.axes.len() {
            for (o, v) in out.iter_mut().zip(&self.values[base..]) {
                *o += coef * v;
            }
            return;
        }
        let stride: usize = self.axes[d + 1..].iter().map(|a| a.n).product();
        let (i, x) = self.axes[d].locate(pt[d]);
        let (c0, c1) = taper(i, x);
        let lo = base + i * stride;
        self.interp_vector(d + 1, lo, pt, c0 * coef, out);
        self.interp_vector(d + 1, lo + stride, pt, c1 * coef, out);
    }

    /// Interpolates dimension `d` onward over the block starting at `base`, scaled by `coef`.
    fn interp(&self, d: usize, base: usize, pt: &[f64], coef: f64) -> f64 {
        if coef.abs() <= 1e-6 {
            return 0.0;
        }
        let axis = &self.axes[d];
        let stride: usize = self.axes[d + 1..].iter().map(|a| a.n).product();
        let (i, x) = axis.locate(pt[d]);
        let (c0, c1) = taper(i, x);
        let (c0, c1) = (c0 * coef, c1 * coef);
        let lo = base + i * stride;
        if d + 1 == self.axes.len() {
            c0 * self.values[lo] + c1 * self.values[lo + 1]
        } else {
            self.interp(d + 1, lo, pt, c0) + self.interp(d + 1, lo + stride, pt, c1)
        }
    }
}

impl Axis {
    /// The grid cell `i` (0..n-2) for coordinate `p`, and `p`'s position in grid units.
    fn locate(&self, p: f64) -> (usize, f64) {
        let last = self.n - 2;
        match &self.points {
            None => {
                let x = (p - self.org) / self.span * (self.n - 1) as f64;
                let i = if x.is_nan() || x < 0.0 {
                    0
                } else {
                    (x as usize).min(last)
                };
                (i, x)
            }
            Some(pts) => {
                let ascending = self.span > 0.0;
                // Last point at or below p (in the axis order), by bisection.
                let i = pts.partition_point(|&q| if ascending { q <= p } else { q >= p });
                let i = i.saturating_sub(1).min(last);
                (i, i as f64 + (p - pts[i]) / (pts[i + 1] - pts[i]))
            }
        }
    }
}

/// Weights of grid points `i` and `i+1` for position `x`: linear within one division of the
/// grid, then tapering harmonically to zero.
pub(crate) fn taper(i: usize, x: f64) -> (f64, f64) {
    let i = i as f64;
    if x > i + 2.0 {
        let c0 = 1.0 / (i - 1.0 - x);
        (c0, -2.0 * c0)
    } else if x < i - 1.0 {
        let c1 = 1.0 / (x - i);
        (-2.0 * c1, c1)
    } else {
        (i + 1.0 - x, x - i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bilinear_inside_the_grid() {
        // f(x, y) = 2x + 3y on an even 3x2 grid: bilinear interpolation is exact.
        let d = DataArray::parse("2\n0 2 3\n0 1 2\n0 3  2 5  4 7\n").unwrap();
        for (x, y) in [(0.0, 0.0), (0.5, 0.25), (1.7, 0.9), (2.0, 1.0)] {
            assert!(
                (d.value(&[x, y]) - (2.0 * x + 3.0 * y)).abs() < 1e-12,
                "{x} {y}"
            );
        }
    }

    #[test]
    fn uneven_descending_axis() {
        let d = DataArray::parse("1 0 0 3  10 5 0  1 2 4").unwrap();
        // Points at 10, 5, 0 hold 1, 2, 4.
        assert!((d.value(&[7.5]) - 1.5).abs() < 1e-12);
        assert!((d.value(&[2.5]) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn extrapolates_one_division_then_tapers() {
        let d = DataArray::parse("1 0 1 2  1 2").unwrap();
        // Linear up to one division past the end...
        assert!((d.value(&[2.0]) - 3.0).abs() < 1e-12);
        // ...then falls off towards zero.
        let far = d.value(&[50.0]);
        assert!(far.abs() < 0.2, "{far}");
    }

    #[test]
    fn comments_are_skipped_and_lines_kept() {
        // RADIANCE's own files start with an RCSid comment; comments may follow numbers.
        let d = DataArray::parse("# RCSid x\n1 # dims\n0 1 2\n#\n3 5#six\n").unwrap();
        assert!((d.value(&[0.5]) - 4.0).abs() < 1e-12);
        let e = DataArray::parse("# c\n1\n0 1 2\n3 x\n").unwrap_err();
        assert!(e.contains("line 4"), "{e}");
    }

    #[test]
    fn vector_along_the_last_axis() {
        // 2 x 3: rows (1 2 3) and (3 4 5); half way between them: 2 3 4.
        let d = DataArray::parse("2 0 1 2 0 2 3 1 2 3 3 4 5").unwrap();
        let v = d.vector(&[0.5]);
        assert_eq!(v.len(), 3);
        for (a, b) in v.iter().zip([2.0, 3.0, 4.0]) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn errors_name_line_and_what() {
        let e = DataArray::parse("2\n0 1 2\n0 1 x\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("point count"), "{e}");
        let e = DataArray::parse("1\n0 1 2\n5\n").unwrap_err();
        assert!(e.contains("ends") && e.contains("data value 2"), "{e}");
        assert!(DataArray::parse("1 0 0 3 0 2 1 1 1 1").is_err());
    }
}
