//! Native library functions (RADIANCE's calc library plus the ray library).

/// A native library function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `if(c, a, b)`: `a` when `c > 0`, else `b` (lazy).
    If,
    /// `select(n, a1, a2, ...)`: `a_n`; `select(0, ...)` is the count (lazy).
    Select,
    /// `min(a, ...)`.
    Min,
    /// `max(a, ...)`.
    Max,
    /// `rand(x)`: deterministic pseudo-random number in [0,1).
    Rand,
    /// `floor(x)`.
    Floor,
    /// `ceil(x)`.
    Ceil,
    /// `sqrt(x)`.
    Sqrt,
    /// `exp(x)`.
    Exp,
    /// `log(x)` (natural).
    Log,
    /// `log10(x)`.
    Log10,
    /// `sin(x)`.
    Sin,
    /// `cos(x)`.
    Cos,
    /// `tan(x)`.
    Tan,
    /// `asin(x)`.
    Asin,
    /// `acos(x)`.
    Acos,
    /// `atan(x)`.
    Atan,
    /// `atan2(y, x)`.
    Atan2,
    /// `erf(x)`.
    Erf,
    /// `erfc(x)`.
    Erfc,
    /// `arg(n)`: n-th real argument of the current modifier, `arg(0)` = count.
    Arg,
    /// `noise3(x,y,z)`: smooth gradient noise in about [-1, 1].
    Noise3,
    /// `noise3x(x,y,z)`: x partial derivative of `noise3`.
    Noise3x,
    /// `noise3y(x,y,z)`: y partial derivative of `noise3`.
    Noise3y,
    /// `noise3z(x,y,z)`: z partial derivative of `noise3`.
    Noise3z,
    /// `fnoise3(x,y,z)`: fractal noise in about [-1, 1].
    Fnoise3,
    /// `source_corr(v, type)`: photometric geometry correction (ies2rad).
    SourceCorr,
    /// `source_theta(sym)`: polar angle (degrees) of the ray direction.
    SourceTheta,
    /// `source_phi(sym)`: azimuth (degrees) folded by symmetry 90/180/360.
    SourcePhi,
    /// `in(n)`: input column n, `in(0)` = column count (record
    /// environments only, as rcalc's).
    In,
}

const TABLE: &[(&str, Builtin, usize, bool)] = &[
    // name, builtin, required args, constant (':') function
    ("acos", Builtin::Acos, 1, true),
    ("arg", Builtin::Arg, 1, false),
    ("asin", Builtin::Asin, 1, true),
    ("atan", Builtin::Atan, 1, true),
    ("atan2", Builtin::Atan2, 2, true),
    ("ceil", Builtin::Ceil, 1, true),
    ("cos", Builtin::Cos, 1, true),
    ("erf", Builtin::Erf, 1, true),
    ("erfc", Builtin::Erfc, 1, true),
    ("exp", Builtin::Exp, 1, true),
    ("floor", Builtin::Floor, 1, true),
    ("fnoise3", Builtin::Fnoise3, 3, true),
    ("if", Builtin::If, 3, true),
    ("in", Builtin::In, 1, false),
    ("log", Builtin::Log, 1, true),
    ("log10", Builtin::Log10, 1, true),
    ("max", Builtin::Max, 1, true),
    ("min", Builtin::Min, 1, true),
    ("noise3", Builtin::Noise3, 3, true),
    ("noise3x", Builtin::Noise3x, 3, true),
    ("noise3y", Builtin::Noise3y, 3, true),
    ("noise3z", Builtin::Noise3z, 3, true),
    ("rand", Builtin::Rand, 1, true),
    ("select", Builtin::Select, 1, true),
    ("sin", Builtin::Sin, 1, true),
    ("source_corr", Builtin::SourceCorr, 2, false),
    ("source_phi", Builtin::SourcePhi, 1, false),
    ("source_theta", Builtin::SourceTheta, 1, false),
    ("sqrt", Builtin::Sqrt, 1, true),
    ("tan", Builtin::Tan, 1, true),
];

impl Builtin {
    /// Look a library function up by name.
    pub fn from_name(name: &str) -> Option<Builtin> {
        TABLE.iter().find(|t| t.0 == name).map(|t| t.1)
    }

    fn entry(self) -> &'static (&'static str, Builtin, usize, bool) {
        // Every variant is listed in TABLE.
        TABLE.iter().find(|t| t.1 == self).unwrap_or(&TABLE[0])
    }

    /// The name as written in `.cal` files.
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// Number of arguments that must be present.
    pub fn min_args(self) -> usize {
        self.entry().2
    }

    /// True for functions taking any number of arguments (or lazy ones).
    pub(crate) fn is_variadic(self) -> bool {
        matches!(
            self,
            Builtin::If | Builtin::Select | Builtin::Min | Builtin::Max
        )
    }

    /// True for functions whose value depends only on their arguments.
    pub fn is_pure(self) -> bool {
        self.entry().3
    }

    /// Apply a function of 1..3 plain numeric arguments (no ray context).
    pub(crate) fn apply_math(self, a: f64, b: f64, c: f64) -> f64 {
        match self {
            Builtin::Rand => rand(a),
            Builtin::Floor => a.floor(),
            Builtin::Ceil => a.ceil(),
            Builtin::Sqrt => a.sqrt(),
            Builtin::Exp => a.exp(),
            Builtin::Log => a.ln(),
            Builtin::Log10 => a.log10(),
            Builtin::Sin => a.sin(),
            Builtin::Cos => a.cos(),
            Builtin::Tan => a.tan(),
            Builtin::Asin => a.asin(),
            Builtin::Acos => a.acos(),
            Builtin::Atan => a.atan(),
            Builtin::Atan2 => a.atan2(b),
            Builtin::Erf => erf(a),
            Builtin::Erfc => erfc(a),
            Builtin::Noise3 => noise3(a, b, c)[0],
            Builtin::Noise3x => noise3(a, b, c)[1],
            Builtin::Noise3y => noise3(a, b, c)[2],
            Builtin::Noise3z => noise3(a, b, c)[3],
            Builtin::Fnoise3 => fnoise3(a, b, c),
            _ => 0.0,
        }
    }
}

/// RADIANCE's library reports non-finite results as domain/range errors and
/// returns 0; we do the same (silently).
#[inline]
pub(crate) fn lib_result(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// Pseudo-random function of RADIANCE's calc library (same formula, so that
/// textures built on `rand` look the same).
pub fn rand(x: f64) -> f64 {
    let mut x = x;
    x *= 1.0 / (1.0 + x * x) + std::f64::consts::E;
    x += std::f64::consts::FRAC_PI_4 - x.floor();
    x = 1e5 / x;
    x - x.floor()
}

/// Complementary error function, rational Chebyshev fit (relative error
/// below 1.2e-7 everywhere).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Error function.
pub fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// Integer lattice hash (a 64-bit mix), deterministic on every platform.
#[inline]
fn hash3(x: i64, y: i64, z: i64) -> u64 {
    let mut h = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (z as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 31;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h
}

/// Gradient at a lattice point: one of the 12 cube-edge directions.
#[inline]
fn grad(h: u64) -> [f64; 3] {
    const G: [[f64; 3]; 12] = [
        [1.0, 1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
        [-1.0, -1.0, 0.0],
        [1.0, 0.0, 1.0],
        [-1.0, 0.0, 1.0],
        [1.0, 0.0, -1.0],
        [-1.0, 0.0, -1.0],
        [0.0, 1.0, 1.0],
        [0.0, -1.0, 1.0],
        [0.0, 1.0, -1.0],
        [0.0, -1.0, -1.0],
    ];
    G[(h % 12) as usize]
}

/// Gradient noise (quintic-faded, C2 smooth) and its analytic gradient:
/// returns `[value, d/dx, d/dy, d/dz]`.
pub fn noise3(x: f64, y: f64, z: f64) -> [f64; 4] {
    if !(x.is_finite() && y.is_finite() && z.is_finite()) {
        return [0.0; 4];
    }
    let p = [x, y, z];
    let mut cell = [0i64; 3];
    let mut f = [0.0; 3];
    let mut u = [0.0; 3];
    let mut du = [0.0; 3];
    for i in 0..3 {
        let fl = p[i].floor();
        // Huge coordinates wrap; the hash only needs determinism.
        cell[i] = fl.clamp(-9.0e18, 9.0e18) as i64;
        f[i] = p[i] - fl;
        let t = f[i];
        u[i] = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
        du[i] = 30.0 * t * t * (t - 1.0) * (t - 1.0);
    }
    let mut val = 0.0;
    let mut d = [0.0; 3];
    for corner in 0..8u32 {
        let o = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let g = grad(hash3(
            cell[0].wrapping_add(o[0] as i64),
            cell[1].wrapping_add(o[1] as i64),
            cell[2].wrapping_add(o[2] as i64),
        ));
        let off = [f[0] - o[0] as f64, f[1] - o[1] as f64, f[2] - o[2] as f64];
        let n = g[0] * off[0] + g[1] * off[1] + g[2] * off[2];
        let mut w = [0.0; 3];
        let mut dw = [0.0; 3];
        for i in 0..3 {
            if o[i] == 1 {
                w[i] = u[i];
                dw[i] = du[i];
            } else {
                w[i] = 1.0 - u[i];
                dw[i] = -du[i];
            }
        }
        let weight = w[0] * w[1] * w[2];
        val += weight * n;
        d[0] += dw[0] * w[1] * w[2] * n + weight * g[0];
        d[1] += w[0] * dw[1] * w[2] * n + weight * g[1];
        d[2] += w[0] * w[1] * dw[2] * n + weight * g[2];
    }
    [val, d[0], d[1], d[2]]
}

/// Fractal (1/f) sum of `noise3` octaves, normalised to about [-1, 1].
pub fn fnoise3(x: f64, y: f64, z: f64) -> f64 {
    let mut sum = 0.0;
    let mut amp = 1.0;
    let mut freq = 1.0;
    let mut norm = 0.0;
    // Octaves down to a feature size near the 5e-4 resolution RADIANCE uses.
    for _ in 0..11 {
        sum += amp * noise3(x * freq, y * freq, z * freq)[0];
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    (sum / norm * 1.5).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_values() {
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-6);
        assert!((erfc(2.0) - 0.004_677_734_98).abs() < 1e-8);
    }

    #[test]
    fn noise_gradient_matches_finite_difference() {
        let h = 1e-6;
        for i in 0..50 {
            let (x, y, z) = (
                i as f64 * 0.37 - 3.1,
                i as f64 * 0.13 + 0.2,
                1.7 - i as f64 * 0.21,
            );
            let n = noise3(x, y, z);
            assert!(n[0].abs() <= 1.5);
            let fx = (noise3(x + h, y, z)[0] - noise3(x - h, y, z)[0]) / (2.0 * h);
            let fy = (noise3(x, y + h, z)[0] - noise3(x, y - h, z)[0]) / (2.0 * h);
            let fz = (noise3(x, y, z + h)[0] - noise3(x, y, z - h)[0]) / (2.0 * h);
            assert!((fx - n[1]).abs() < 1e-5, "{fx} {}", n[1]);
            assert!((fy - n[2]).abs() < 1e-5);
            assert!((fz - n[3]).abs() < 1e-5);
            assert!(fnoise3(x, y, z).abs() <= 1.0);
        }
    }
}
