//! Element and component operations of RADIANCE's `rmtxop`: component transforms (`-c`),
//! scaling (`-s`), transposition (`-t`), and element-wise sums, products and quotients.
//!
//! Arithmetic follows rmtxop's: values stay `f32`; a transform sums `coef × value` in `f64`
//! (from the last component to the first) and rounds once; a scale multiplies in `f64` and
//! rounds; sums, products and quotients of elements are `f32` operations.

use crate::{Matrix, MatrixError};

/// RADIANCE's luminous efficacy of its white (lm/W).
pub const WHITE_EFFICACY: f64 = 179.0;

fn shape(msg: String) -> MatrixError {
    MatrixError::Shape(msg)
}

/// New components from old: component `j` of the result is `Σi coefs[j·n + i] · v[i]` for a
/// matrix of `n` components; `coefs.len()` must be a multiple of `n`. The header lines are
/// kept, with a note of the transform when there were any (as rmtxop notes it).
pub fn transform(m: &Matrix, coefs: &[f64]) -> Result<Matrix, MatrixError> {
    let n = m.ncomp();
    if coefs.is_empty() || !coefs.len().is_multiple_of(n) {
        return Err(shape(format!(
            "-c must have N x {n} coefficients, got {}",
            coefs.len()
        )));
    }
    let out_n = coefs.len() / n;
    let mut data = Vec::with_capacity(m.rows() * m.cols() * out_n);
    for el in m.data().chunks_exact(n) {
        for row in coefs.chunks_exact(n) {
            let d = row
                .iter()
                .zip(el)
                .rev()
                .fold(0.0f64, |d, (c, v)| d + c * f64::from(*v));
            data.push(d as f32);
        }
    }
    let mut out = Matrix::new(m.rows(), m.cols(), out_n, data)?;
    out.header_lines = m.header_lines.clone();
    if !out.header_lines.is_empty() {
        out.header_lines
            .push(format!("Applied {out_n}x{n} component transform"));
    }
    Ok(out)
}

/// Multiplies each component by its factor (rounded to `f32`, as rmtxop does): one factor for
/// all, or one per component. Header lines, when there are any, note it.
pub fn scale(m: &mut Matrix, factors: &[f64]) -> Result<(), MatrixError> {
    let n = m.ncomp();
    if factors.len() != 1 && factors.len() != n {
        return Err(shape(format!(
            "-s must have one or {n} factors, got {}",
            factors.len()
        )));
    }
    let f: Vec<f32> = (0..n)
        .map(|k| factors[k.min(factors.len() - 1)] as f32)
        .collect();
    for el in m.data_mut().chunks_exact_mut(n) {
        el.iter_mut().zip(&f).for_each(|(v, f)| *v *= f);
    }
    if !m.header_lines.is_empty() {
        m.header_lines.push("Applied scalar".into());
    }
    Ok(())
}

/// Rows become columns; header lines, when there are any, note it.
pub fn transpose(m: &Matrix) -> Matrix {
    let (rows, cols, n) = (m.rows(), m.cols(), m.ncomp());
    let mut data = Vec::with_capacity(m.data().len());
    for c in 0..cols {
        for r in 0..rows {
            data.extend_from_slice(m.get(r, c));
        }
    }
    let mut out = Matrix::new(cols, rows, n, data).expect("same number of values");
    out.header_lines = m.header_lines.clone();
    if !out.header_lines.is_empty() {
        out.header_lines.push("Transposed rows and columns".into());
    }
    out
}

fn same_shape(a: &Matrix, b: &Matrix, what: &str) -> Result<(), MatrixError> {
    if a.rows() != b.rows() || a.cols() != b.cols() {
        return Err(shape(format!(
            "{what} of a {}×{} matrix and a {}×{} matrix: the dimensions must match",
            a.rows(),
            a.cols(),
            b.rows(),
            b.cols()
        )));
    }
    Ok(())
}

/// `a += b`, element by element; both must have the same components.
pub fn add(a: &mut Matrix, b: &Matrix) -> Result<(), MatrixError> {
    same_shape(a, b, "sum")?;
    if a.ncomp() != b.ncomp() {
        return Err(shape(format!(
            "sum of matrices with {} and {} components",
            a.ncomp(),
            b.ncomp()
        )));
    }
    a.data_mut()
        .iter_mut()
        .zip(b.data())
        .for_each(|(x, y)| *x += y);
    Ok(())
}

/// `a *= b` (or `a /= b`) element by element; `b` has `a`'s components or one, applied to
/// all. A division by zero gives 0, as in RADIANCE; the count of such divisions is returned.
pub fn elementwise(a: &mut Matrix, b: &Matrix, divide: bool) -> Result<usize, MatrixError> {
    let what = if divide { "division" } else { "product" };
    same_shape(a, b, what)?;
    let (na, nb) = (a.ncomp(), b.ncomp());
    if nb != 1 && nb != na {
        return Err(shape(format!(
            "element-wise {what} of matrices with {na} and {nb} components"
        )));
    }
    let mut zeros = 0;
    for (x, y) in a
        .data_mut()
        .chunks_exact_mut(na)
        .zip(b.data().chunks_exact(nb))
    {
        for (k, v) in x.iter_mut().enumerate() {
            let d = y[if nb == 1 { 0 } else { k }];
            if !divide {
                *v *= d;
            } else if d == 0.0 {
                zeros += 1;
                *v = 0.0;
            } else {
                *v /= d;
            }
        }
    }
    Ok(zeros)
}

/// RADIANCE's RGB → CIE XYZ matrix for its primaries (R 0.640 0.330, G 0.290 0.600,
/// B 0.150 0.060) and equal-energy white, rounded to `f32` as RADIANCE keeps it.
pub fn rgb_to_xyz() -> [[f32; 3]; 3] {
    let (xr, yr, xg, yg, xb, yb) = (0.640, 0.330, 0.290, 0.600, 0.150, 0.060);
    let (xw, yw) = (1.0 / 3.0, 1.0 / 3.0);
    let d = xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg);
    let cr = (xw * (yg - yb) - yw * (xg - xb) + xg * yb - xb * yg) / yw / d;
    let cg = (xw * (yb - yr) - yw * (xb - xr) - xr * yb + xb * yr) / yw / d;
    let cb = (xw * (yr - yg) - yw * (xr - xg) + xr * yg - xg * yr) / yw / d;
    let row = |fr: f64, fg: f64, fb: f64| [(fr * cr) as f32, (fg * cg) as f32, (fb * cb) as f32];
    [
        row(xr, xg, xb),
        row(yr, yg, yb),
        row(1.0 - xr - yr, 1.0 - xg - yg, 1.0 - xb - yb),
    ]
}

/// The coefficients of a symbolic transform (`-c RGB`, `-c Y`, …) of a 3-component RGB
/// matrix: R, G, B pick a channel, X, Y, Z are CIE
/// tristimulus values (times 179 in upper case), A the mean. Scotopic and melanopic (S, M)
/// need spectral data and are refused, as are other letters.
pub fn symbolic_transform(symbols: &str, ncomp: usize) -> Result<Vec<f64>, MatrixError> {
    if ncomp != 3 {
        return Err(shape(format!(
            "-c '{symbols}' needs a 3-component (RGB) matrix, not {ncomp} components"
        )));
    }
    let xyz = rgb_to_xyz();
    let mut coefs = Vec::with_capacity(3 * symbols.len());
    for c in symbols.chars() {
        let upper = c.is_ascii_uppercase();
        let row: [f64; 3] = match c.to_ascii_uppercase() {
            ch @ ('R' | 'G' | 'B') => {
                let mut r = [0.0; 3];
                r["RGB".find(ch).expect("one of RGB")] = 1.0;
                r
            }
            ch @ ('X' | 'Y' | 'Z') => {
                let k = "XYZ".find(ch).expect("one of XYZ");
                let f = if upper { WHITE_EFFICACY } else { 1.0 };
                xyz[k].map(|v| f64::from(v) * f)
            }
            'A' => [1.0 / 3.0; 3],
            _ => {
                return Err(shape(format!(
                    "-c '{c}' is not supported (daylit knows R G B X Y Z A for RGB matrices)"
                )))
            }
        };
        coefs.extend_from_slice(&row);
    }
    Ok(coefs)
}
