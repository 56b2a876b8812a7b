//! BSDF values with colour, as RADIANCE's BSDF library carries them: a photopic value (CIE Y)
//! and a chromaticity. Mixing two such values in RADIANCE (`c_cmix` on (x, y) colours) is the
//! sum of their CIE XYZ tristimulus values, so a [`Value`] is kept as XYZ.
//!
//! Klems colour data is held per matrix element as a chromaticity coded in CIE 1976 u'v' on
//! 8 bits each (`c_encodeChroma`); RADIANCE dithers the code with a random number, daylit
//! rounds it, so colours agree with RADIANCE's to about one code step (0.25 % in u', v').
//! The diffuse part of a coloured matrix is found per channel of the "sharpened" RGB space
//! RADIANCE uses there (`XYZtoSharp`).

/// A BSDF value (1/sr) or a hemispherical fraction with its colour, as CIE XYZ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// CIE X, Y (photopic, what RADIANCE calls `cieY`) and Z.
    pub xyz: [f64; 3],
}

/// The chromaticity RADIANCE gives grey values (`c_dfcolor`): equal-energy white, kept in
/// single precision.
const GREY_XY: (f32, f32) = (1.0 / 3.0, 1.0 / 3.0);

impl Value {
    /// Nothing.
    pub const ZERO: Value = Value { xyz: [0.0; 3] };

    /// A grey value of photopic value `y`.
    pub fn grey(y: f64) -> Value {
        Value::from_xy(GREY_XY.0 as f64, GREY_XY.1 as f64, y)
    }

    /// The value of chromaticity (x, y) and photopic value `y_value`.
    pub fn from_xy(x: f64, y: f64, y_value: f64) -> Value {
        Value {
            xyz: [x / y * y_value, y_value, (1.0 - x - y) / y * y_value],
        }
    }

    /// The photopic value (CIE Y).
    pub fn y(&self) -> f64 {
        self.xyz[1]
    }

    /// CIE (x, y) chromaticity; equal-energy white for a value without colour or energy.
    pub fn xy(&self) -> (f64, f64) {
        let s = self.xyz[0] + self.xyz[1] + self.xyz[2];
        if s <= 0.0 {
            return (GREY_XY.0 as f64, GREY_XY.1 as f64);
        }
        (self.xyz[0] / s, self.xyz[1] / s)
    }

    /// The sum of two values (RADIANCE's colour mixing weighted by Y).
    pub fn plus(self, o: Value) -> Value {
        Value {
            xyz: [
                self.xyz[0] + o.xyz[0],
                self.xyz[1] + o.xyz[1],
                self.xyz[2] + o.xyz[2],
            ],
        }
    }

    /// The value scaled by `f`.
    pub fn scale(self, f: f64) -> Value {
        Value {
            xyz: self.xyz.map(|c| c * f),
        }
    }

    /// The same colour with photopic value `y`.
    pub fn with_y(self, y: f64) -> Value {
        let (cx, cy) = self.xy();
        Value::from_xy(cx, cy, y)
    }

    /// RGB in RADIANCE's primaries, as `ccy2rgb` gives it (CIE XYZ to RGB, clipped to the
    /// gamut).
    pub fn rgb(&self) -> [f64; 3] {
        let c = daylit_image::color::cie_rgb(glam::DVec3::from_array(self.xyz));
        c.to_array()
    }
}

/// CIE XYZ to RADIANCE's sharpened RGB (`XYZtoSharp`, single precision).
const XYZ_TO_SHARP: [[f32; 3]; 3] = [
    [1.2694, -0.0988, -0.1706],
    [-0.8364, 1.8006, 0.0357],
    [0.0297, -0.0315, 1.0018],
];

/// Sharpened RGB to CIE XYZ (`XYZfromSharp`).
const XYZ_FROM_SHARP: [[f32; 3]; 3] = [
    [0.8156, 0.0472, 0.1372],
    [0.3791, 0.5769, 0.0440],
    [-0.0123, 0.0167, 0.9955],
];

/// The photopic value of each sharpened primary (`mtx_RGB_coef`): a channel's coefficient in
/// a coloured Klems matrix is in units of Y.
pub const SHARP_Y: [f32; 3] = [0.3791, 0.5769, 0.0440];

/// Sharpened RGB coefficients (each scaled by [`SHARP_Y`], so they sum to about Y) of the
/// colour (x, y) with photopic value `y_value`.
pub fn to_sharp_coef(x: f64, y: f64, y_value: f64) -> [f32; 3] {
    let xyz = [x / y * y_value, y_value, (1.0 - x - y) / y * y_value];
    let mut out = [0f32; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let m = XYZ_TO_SHARP[c];
        let v = (m[0] as f64 * xyz[0] + m[1] as f64 * xyz[1] + m[2] as f64 * xyz[2]) as f32;
        *o = v * SHARP_Y[c];
    }
    out
}

/// The chromaticity and Y of sharpened RGB (`c_fromSharpRGB`): grey when Y is 1e-6 or less.
pub fn from_sharp(rgb: [f32; 3]) -> ((f64, f64), f64) {
    let row = |r: usize| {
        let m = XYZ_FROM_SHARP[r];
        m[0] as f64 * rgb[0] as f64 + m[1] as f64 * rgb[1] as f64 + m[2] as f64 * rgb[2] as f64
    };
    let y = row(1);
    if y <= 1e-6 {
        return ((GREY_XY.0 as f64, GREY_XY.1 as f64), y);
    }
    let (x, z) = (row(0), row(2));
    let s = 1.0 / (x + y + z);
    ((x * s, y * s), y)
}

/// u'v' scale of the 8-bit chromaticity code.
const UV_NORM: f64 = 410.0;

/// The 16-bit code of chromaticity (x, y) (`c_encodeChroma`, rounded instead of dithered).
pub fn encode_chroma(x: f64, y: f64) -> u16 {
    let df = UV_NORM / (-2.0 * x + 12.0 * y + 3.0);
    let q = |v: f64| (v + 0.5).clamp(0.0, 255.0) as u16;
    q(9.0 * y * df) << 8 | q(4.0 * x * df)
}

/// The chromaticity (x, y) of a code from [`encode_chroma`].
pub fn decode_chroma(code: u16) -> (f64, f64) {
    let up = (code & 0xff) as f64 / UV_NORM;
    let vp = (code >> 8 & 0xff) as f64 / UV_NORM;
    let df = 1.0 / (6.0 * up - 16.0 * vp + 12.0);
    // RADIANCE keeps the decoded chromaticity in single precision.
    ((9.0 * up * df) as f32 as f64, (4.0 * vp * df) as f32 as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chroma_code_round_trips_within_a_step() {
        for &(x, y) in &[(0.3333, 0.3333), (0.64, 0.33), (0.15, 0.06), (0.29, 0.6)] {
            let (dx, dy) = decode_chroma(encode_chroma(x, y));
            assert!(
                (dx - x).abs() < 3e-3 && (dy - y).abs() < 3e-3,
                "{x} {y} {dx} {dy}"
            );
        }
    }

    #[test]
    fn sharp_rgb_round_trips() {
        let c = to_sharp_coef(0.4, 0.35, 0.7);
        let rgb = [c[0] / SHARP_Y[0], c[1] / SHARP_Y[1], c[2] / SHARP_Y[2]];
        let ((x, y), yv) = from_sharp(rgb);
        assert!((x - 0.4).abs() < 1e-3 && (y - 0.35).abs() < 1e-3 && (yv - 0.7).abs() < 1e-3);
    }
}
