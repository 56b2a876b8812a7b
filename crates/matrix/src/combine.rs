//! The element work of RADIANCE's `rcomb`: the data types it tells apart and how they
//! combine, the per-input (and trailing) component transform and scaling (`-c`, `-C`, `-s`,
//! with a picture's exposure undone), the plain sum of inputs, and the header it writes.
//!
//! rcomb differs from rmtxop in small ways that change the bits, and they are kept here:
//! a `-s` given with a `-c` is folded into the coefficients; one `-s` factor is spread over
//! the components; an exposure further than 2.5 % from 1 is undone through the scale
//! factors; the factor of an upper-case symbol (`R` = 1/179, `X`…`Z` = 179) carries over to
//! the symbols after it, as in RADIANCE; the sum of inputs runs from the last input to the
//! first in `f32`. Spectral conversions (`S`, `M`, and colour symbols on inputs of more than
//! three components) need RADIANCE's spectral tables and are refused by name.
//!
//! [`expr`] combines the inputs' rows through calcomp definitions (or sums them); [`io`]
//! reads pictures as inputs and writes the result rows in rcomb's output types.

pub mod expr;
pub mod io;

pub use expr::{Combiner, Definition};
pub use io::{output_type, read_picture, write_values, PictureInput};

use crate::ops::{rgb_to_xyz, WHITE_EFFICACY};
use crate::{Matrix, MatrixError};

/// The symbols a `-c FILE` reference on input `name` stands for: the colour space of the
/// file (`ncomp` components of type `dtype`): three components RGB, or XYZ for an XYZE
/// picture, one Y. Errors are rcomb's, without its prefix.
pub fn reference_symbols(
    ncomp: usize,
    dtype: DataType,
    file: &str,
    name: &str,
) -> Result<&'static str, String> {
    match ncomp {
        3 if dtype == DataType::Xyze => Ok("XYZ"),
        3 => Ok("RGB"),
        1 => Ok("Y"),
        2 => Err(format!("{file}: cannot convert to 2 components")),
        _ => Err(format!(
            "{name}: -c {file}: conversion to spectral components is not supported by daylit yet"
        )),
    }
}

/// RADIANCE's data types in its own order (`cmatrix.h`), which decides the output type:
/// the lowest among the inputs, pictures only with pictures of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DataType {
    /// `32-bit_rle_rgbe` pictures.
    Rgbe = 1,
    /// `32-bit_rle_xyze` pictures.
    Xyze = 2,
    /// `Radiance_spectra` pictures (more than three components).
    Spectral = 3,
    /// Binary `float`.
    Float = 4,
    /// `ascii`.
    Ascii = 5,
    /// Binary `double`.
    Double = 6,
}

impl DataType {
    /// The `FORMAT=` name.
    pub fn name(self) -> &'static str {
        match self {
            DataType::Rgbe => "32-bit_rle_rgbe",
            DataType::Xyze => "32-bit_rle_xyze",
            DataType::Spectral => "Radiance_spectra",
            DataType::Float => "float",
            DataType::Ascii => "ascii",
            DataType::Double => "double",
        }
    }

    /// The type named by a `FORMAT=` value.
    pub fn from_name(s: &str) -> Option<DataType> {
        [
            DataType::Rgbe,
            DataType::Xyze,
            DataType::Spectral,
            DataType::Float,
            DataType::Ascii,
            DataType::Double,
        ]
        .into_iter()
        .find(|t| t.name() == s)
    }

    /// Whether the type is a picture (common-exponent pixels).
    pub fn is_picture(self) -> bool {
        self <= DataType::Spectral
    }

    /// The type of a result of `a` and `b` (RADIANCE's `rmx_newtype`): the lower, or `None`
    /// when one is a picture and they differ.
    pub fn combine(a: DataType, b: DataType) -> Option<DataType> {
        if (a.is_picture() || b.is_picture()) && a != b {
            None
        } else {
            Some(a.min(b))
        }
    }
}

/// The most coefficients of one `-c` (RADIANCE's MAXCOMP², MAXCOMP = 24).
pub const MAX_COEFFICIENTS: usize = 24 * 24;
/// The most factors of one `-s`.
pub const MAX_FACTORS: usize = 24;

/// One input's (or the result's) requested changes, as given on the command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ElementOp {
    /// `-c` numbers: output component `j` is `Σi coefs[j·n + i] · v[i]`.
    pub coefs: Vec<f64>,
    /// `-c` (or `-C`) symbols (`RGB`, `Y`, `XYZ`, `A`…), taking the place of `coefs`.
    pub symbols: Option<String>,
    /// `-s` factors: one for all components or one per output component.
    pub scale: Vec<f64>,
}

/// An [`ElementOp`] checked against its input: what to do to each element.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// Coefficients (output × input components), the scale folded in; empty for none.
    pub coefs: Vec<f64>,
    /// Per-component factors, applied when there are no coefficients; empty for none.
    pub scale: Vec<f64>,
    /// Components after the change.
    pub ncomp: usize,
    /// Data type after the change (symbols may make a picture of other data and back).
    pub dtype: DataType,
}

fn err(msg: String) -> MatrixError {
    MatrixError::Shape(msg)
}

/// RADIANCE's brightness of an RGB triple (its primaries' luminance weights).
pub fn bright(c: [f64; 3]) -> f64 {
    let (rf, gf, bf) = luminance_weights();
    rf * c[0] + gf * c[1] + bf * c[2]
}

/// CIE_rf, CIE_gf, CIE_bf of RADIANCE's `color.h` for its standard primaries.
fn luminance_weights() -> (f64, f64, f64) {
    let (xr, yr, xg, yg, xb, yb) = (0.640f64, 0.330, 0.290, 0.600, 0.150, 0.060);
    let (xw, yw) = (1.0 / 3.0, 1.0 / 3.0);
    let d = xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg);
    let crd = (1.0 / yw) * (xw * (yg - yb) - yw * (xg - xb) + xg * yb - xb * yg);
    let cgd = (1.0 / yw) * (xw * (yb - yr) - yw * (xb - xr) - xr * yb + xb * yr);
    let cbd = (1.0 / yw) * (xw * (yr - yg) - yw * (xr - xg) + xr * yg - xg * yr);
    (yr * crd / d, yg * cgd / d, yb * cbd / d)
}

/// RADIANCE's XYZ → RGB matrix (no white balance) for its standard primaries, rounded to
/// `f32` as it keeps it.
pub fn xyz_to_rgb() -> [[f32; 3]; 3] {
    let (xr, yr, xg, yg, xb, yb) = (0.640f64, 0.330, 0.290, 0.600, 0.150, 0.060);
    let (xw, yw) = (1.0 / 3.0, 1.0 / 3.0);
    let crd = (1.0 / yw) * (xw * (yg - yb) - yw * (xg - xb) + xg * yb - xb * yg);
    let cgd = (1.0 / yw) * (xw * (yb - yr) - yw * (xb - xr) - xr * yb + xb * yr);
    let cbd = (1.0 / yw) * (xw * (yr - yg) - yw * (xr - xg) + xr * yg - xg * yr);
    [
        [
            ((yg - yb - xb * yg + yb * xg) / crd) as f32,
            ((xb - xg - xb * yg + xg * yb) / crd) as f32,
            ((xg * yb - xb * yg) / crd) as f32,
        ],
        [
            ((yb - yr - yb * xr + yr * xb) / cgd) as f32,
            ((xr - xb - xr * yb + xb * yr) / cgd) as f32,
            ((xb * yr - xr * yb) / cgd) as f32,
        ],
        [
            ((yr - yg - yr * xg + yg * xr) / cbd) as f32,
            ((xg - xr - xg * yr + xr * yg) / cbd) as f32,
            ((xr * yg - xg * yr) / cbd) as f32,
        ],
    ]
}

/// The coefficients of symbolic components for an input of `nc` components of type `dt`,
/// with the type of the result. `name` names the input in errors.
fn symbolic(
    symbols: &str,
    name: &str,
    nc: usize,
    dt: DataType,
) -> Result<(Vec<f64>, DataType), MatrixError> {
    if nc < 3 {
        return Err(err(format!(
            "{name}: -c '{symbols}' requires at least 3 components"
        )));
    }
    let n_out = symbols.chars().count();
    if n_out * nc > MAX_COEFFICIENTS {
        return Err(err(format!(
            "{name}: -c '{symbols}' results in too many components"
        )));
    }
    let spectral = |c: char| {
        err(format!(
            "{name}: -c '{c}' on {nc} components needs RADIANCE's spectral response tables, which daylit does not have yet"
        ))
    };
    let (to_xyz, to_rgb) = (rgb_to_xyz(), xyz_to_rgb());
    let mut coefs = vec![0.0f64; n_out * nc];
    // RADIANCE keeps one factor over the letters: an upper-case letter sets it, and it stays
    // for the letters that follow.
    let mut cf = 1.0f64;
    for (j, ch) in symbols.chars().enumerate() {
        let row = &mut coefs[j * nc..(j + 1) * nc];
        let upper = ch.is_ascii_uppercase();
        match ch.to_ascii_uppercase() {
            c @ ('R' | 'G' | 'B') => {
                let comp = "RGB".find(c).unwrap_or(0);
                if upper {
                    cf = 1.0 / WHITE_EFFICACY;
                }
                if dt == DataType::Xyze {
                    for (i, r) in row.iter_mut().enumerate().take(3) {
                        *r = cf * f64::from(to_rgb[comp][i]);
                    }
                } else if nc == 3 {
                    row[comp] = 1.0;
                } else {
                    return Err(spectral(ch));
                }
            }
            c @ ('X' | 'Y' | 'Z') => {
                let comp = "XYZ".find(c).unwrap_or(0);
                if upper && dt != DataType::Xyze {
                    cf = WHITE_EFFICACY;
                }
                if dt == DataType::Xyze {
                    row[comp] = 1.0;
                } else if nc == 3 {
                    for (i, r) in row.iter_mut().enumerate() {
                        *r = f64::from(to_xyz[comp][i]);
                    }
                } else {
                    return Err(spectral(ch));
                }
                if cf != 1.0 {
                    row.iter_mut().for_each(|r| *r *= cf);
                }
            }
            'S' | 'M' => {
                return Err(err(format!(
                    "{name}: -c '{ch}' (scotopic and melanopic) needs RADIANCE's spectral response tables, which daylit does not have yet"
                )))
            }
            'A' => row.iter_mut().for_each(|r| *r = 1.0 / nc as f64),
            _ => return Err(err(format!("{name}: -c '{ch}' unsupported"))),
        }
    }
    let dtype = if symbols.eq_ignore_ascii_case("XYZ") && dt.is_picture() {
        DataType::Xyze
    } else if symbols.eq_ignore_ascii_case("RGB") && dt.is_picture() {
        DataType::Rgbe
    } else if dt == DataType::Spectral {
        DataType::Float
    } else {
        dt
    };
    Ok((coefs, dtype))
}

impl ElementOp {
    /// Checks the changes against an input of `nc` components of type `dt` whose header
    /// recorded the exposure `exposure` (per RGB channel; `[1; 3]` for none), as rcomb does
    /// when it opens the input. `name` names the input in errors.
    pub fn resolve(
        &self,
        name: &str,
        nc: usize,
        dt: DataType,
        exposure: [f64; 3],
    ) -> Result<Resolved, MatrixError> {
        let mut coefs = self.coefs.clone();
        let mut scale = self.scale.clone();
        let mut ncomp = nc;
        let mut dtype = dt;
        if let Some(s) = &self.symbols {
            let (c, t) = symbolic(s, name, nc, dt)?;
            ncomp = c.len() / nc;
            coefs = c;
            dtype = t;
        }
        // An exposure recorded in the header is undone through the scale factors.
        let b = bright(exposure);
        if (1.0 - b).abs() > 0.025 {
            let cexp = if ncomp == 1 { [b; 3] } else { exposure };
            if scale.is_empty() {
                scale = vec![1.0; ncomp];
            }
            if scale.len() == 1 {
                if ncomp == 3 {
                    scale = vec![scale[0]; 3];
                } else {
                    scale[0] /= b;
                }
            }
            if scale.len() == 3 {
                scale.iter_mut().zip(cexp).for_each(|(s, e)| *s /= e);
            } else if scale.len() > 3 {
                let mult = 1.0 / b;
                scale.iter_mut().for_each(|s| *s *= mult);
            }
        }
        if !coefs.is_empty() {
            if !coefs.len().is_multiple_of(nc) {
                return Err(err(format!("{name}: -c must have N x {nc} coefficients")));
            }
            let n_out = coefs.len() / nc;
            match scale.len() {
                0 => {}
                1 => coefs.iter_mut().for_each(|c| *c *= scale[0]),
                k if k == n_out => {
                    for (row, s) in coefs.chunks_exact_mut(nc).zip(&scale) {
                        row.iter_mut().for_each(|c| *c *= s);
                    }
                }
                _ => return Err(err(format!("{name}: -s must have one or {n_out} factors"))),
            }
            scale.clear();
            ncomp = n_out;
            if ncomp > 3 && dtype.is_picture() {
                dtype = DataType::Float;
            }
        } else if scale.len() == 1 {
            scale = vec![scale[0]; ncomp];
        } else if !scale.is_empty() && scale.len() != ncomp {
            return Err(err(format!("{name}: -s must have one or {ncomp} factors")));
        }
        Ok(Resolved {
            coefs,
            scale,
            ncomp,
            dtype,
        })
    }
}

impl Resolved {
    /// Whether the change leaves values as they are.
    pub fn is_identity(&self) -> bool {
        self.coefs.is_empty() && self.scale.is_empty()
    }

    /// The changed matrix: the transform (sums in `f64` from the last component, rounded
    /// once), else the factors (`f32` products), as RADIANCE applies them.
    pub fn apply(&self, m: &Matrix) -> Result<Matrix, MatrixError> {
        let mut bare = Matrix::new(m.rows(), m.cols(), m.ncomp(), m.data().to_vec())?;
        if !self.coefs.is_empty() {
            bare = crate::ops::transform(&bare, &self.coefs)?;
        }
        if self.scale.len() == bare.ncomp() {
            crate::ops::scale(&mut bare, &self.scale)?;
        }
        Ok(bare)
    }
}

/// The plain combination of inputs of one shape: their sum, element by element, added in
/// `f32` from the last input to the first as rcomb adds them.
pub fn sum(inputs: &[&Matrix]) -> Result<Matrix, MatrixError> {
    let first = inputs
        .first()
        .ok_or_else(|| err("no inputs to combine".into()))?;
    let rows: Vec<&[f32]> = inputs.iter().map(|m| m.data()).collect();
    let mut data = vec![0.0f32; first.data().len()];
    sum_rows(&rows, &mut data)?;
    Matrix::new(first.rows(), first.cols(), first.ncomp(), data)
}

/// [`sum`] of rows of values into `out`.
pub fn sum_rows(rows: &[&[f32]], out: &mut [f32]) -> Result<(), MatrixError> {
    out.iter_mut().for_each(|v| *v = 0.0);
    for r in rows.iter().rev() {
        if r.len() != out.len() {
            return Err(err("inputs of different sizes".into()));
        }
        out.iter_mut().zip(r.iter()).for_each(|(d, v)| *d += v);
    }
    Ok(())
}

/// The header lines after the information lines of rcomb's output, as RADIANCE's
/// `rmx_write_header` writes them for a result of `rows` (`None`: unknown) × `cols` ×
/// `ncomp` in `dtype`, up to and including the `FORMAT=` line (padded when `align`, for a
/// file) and the blank line; `pos` is the byte offset the text will start at. Pictures then
/// take a resolution line, which [`resolution_line`] gives.
pub fn header_tail(
    rows: Option<usize>,
    cols: usize,
    ncomp: usize,
    dtype: DataType,
    pos: usize,
    align: bool,
) -> String {
    let mut h = String::new();
    if !dtype.is_picture() || rows.is_none() {
        if let Some(r) = rows {
            h += &format!("NROWS={r}\n");
        }
        h += &format!("NCOLS={cols}\n");
    }
    if dtype >= DataType::Spectral {
        h += &format!("NCOMP={ncomp}\n");
    }
    if matches!(dtype, DataType::Float | DataType::Double) {
        h += if cfg!(target_endian = "big") {
            "BigEndian=1\n"
        } else {
            "BigEndian=0\n"
        };
    }
    h += &crate::write::format_line(dtype.name(), pos + h.len(), align);
    h.push('\n');
    h
}

/// A picture's resolution line in standard orientation, as RADIANCE 6.0a pads it.
pub fn resolution_line(rows: usize, cols: usize) -> String {
    format!("-Y {rows:8} +X {cols:8}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_combine_as_radiance_does() {
        use DataType::*;
        assert_eq!(DataType::combine(Float, Ascii), Some(Float));
        assert_eq!(DataType::combine(Double, Ascii), Some(Ascii));
        assert_eq!(DataType::combine(Rgbe, Float), None);
        assert_eq!(DataType::combine(Rgbe, Rgbe), Some(Rgbe));
        assert_eq!(DataType::combine(Rgbe, Xyze), None);
    }

    #[test]
    fn one_factor_is_spread_and_folded_into_coefficients() {
        let op = ElementOp {
            coefs: vec![1.0, 2.0, 3.0],
            scale: vec![2.0],
            ..Default::default()
        };
        let r = op.resolve("m", 3, DataType::Ascii, [1.0; 3]).unwrap();
        assert_eq!(r.coefs, vec![2.0, 4.0, 6.0]);
        assert!(r.scale.is_empty());
        assert_eq!(r.ncomp, 1);
        let op = ElementOp {
            scale: vec![0.5],
            ..Default::default()
        };
        let r = op.resolve("m", 3, DataType::Float, [1.0; 3]).unwrap();
        assert_eq!(r.scale, vec![0.5; 3]);
    }

    #[test]
    fn exposure_is_undone_through_the_factors() {
        let r = ElementOp::default()
            .resolve("p", 3, DataType::Rgbe, [2.0; 3])
            .unwrap();
        assert_eq!(r.scale, vec![0.5; 3]);
        // Within 2.5 %: left alone.
        let r = ElementOp::default()
            .resolve("p", 3, DataType::Rgbe, [1.02; 3])
            .unwrap();
        assert!(r.is_identity());
    }

    #[test]
    fn symbols_make_pictures_and_luminance() {
        let op = ElementOp {
            symbols: Some("Y".into()),
            ..Default::default()
        };
        let r = op.resolve("m", 3, DataType::Float, [1.0; 3]).unwrap();
        assert_eq!(r.ncomp, 1);
        let sum: f64 = r.coefs.iter().sum();
        assert!((sum - 179.0).abs() < 1e-3, "{sum}");
        let op = ElementOp {
            symbols: Some("XYZ".into()),
            ..Default::default()
        };
        let r = op.resolve("p", 3, DataType::Rgbe, [1.0; 3]).unwrap();
        assert_eq!(r.dtype, DataType::Xyze);
        assert!(ElementOp {
            symbols: Some("M".into()),
            ..Default::default()
        }
        .resolve("p", 3, DataType::Rgbe, [1.0; 3])
        .is_err());
    }

    #[test]
    fn xyz_and_rgb_matrices_are_inverse() {
        let (a, b) = (rgb_to_xyz(), xyz_to_rgb());
        for (i, row) in a.iter().enumerate() {
            for j in 0..3 {
                let d: f64 = row
                    .iter()
                    .zip(&b)
                    .map(|(x, brow)| f64::from(*x) * f64::from(brow[j]))
                    .sum();
                assert!((d - if i == j { 1.0 } else { 0.0 }).abs() < 1e-5);
            }
        }
    }
}
