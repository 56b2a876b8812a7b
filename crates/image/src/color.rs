//! RADIANCE's colour space: its RGB primaries (x, y of red 0.640 0.330, green 0.290 0.600,
//! blue 0.150 0.060) with an equal-energy white, and CIE XYZ to RGB as RADIANCE converts
//! (spectra for three-channel rendering, lamp chromaticities for ies2rad).

use glam::{DMat3, DVec3};

/// The XYZ to RGB matrix of RADIANCE's primaries and equal-energy white, in single
/// precision as RADIANCE keeps it.
pub fn xyz_to_rgb_matrix() -> DMat3 {
    let inv = rgb_to_xyz().inverse();
    let f = |v: DVec3| DVec3::new(v.x as f32 as f64, v.y as f32 as f64, v.z as f32 as f64);
    DMat3::from_cols(f(inv.x_axis), f(inv.y_axis), f(inv.z_axis))
}

/// RGB to CIE XYZ for RADIANCE's primaries and equal-energy white.
fn rgb_to_xyz() -> DMat3 {
    let prim = [(0.640, 0.330), (0.290, 0.600), (0.150, 0.060)];
    let xyz = |(x, y): (f64, f64)| DVec3::new(x / y, 1.0, (1.0 - x - y) / y);
    let m = DMat3::from_cols(xyz(prim[0]), xyz(prim[1]), xyz(prim[2]));
    // Scale each primary so that RGB (1, 1, 1) is the white point.
    let scale = m.inverse() * xyz((1.0 / 3.0, 1.0 / 3.0));
    DMat3::from_cols(m.x_axis * scale.x, m.y_axis * scale.y, m.z_axis * scale.z)
}

/// RADIANCE's `bright` of an RGB value: its luminance (the Y row of RGB to XYZ, 0.2651,
/// 0.6701, 0.0648).
pub fn brightness(rgb: [f32; 3]) -> f64 {
    let m = rgb_to_xyz();
    m.x_axis.y * rgb[0] as f64 + m.y_axis.y * rgb[1] as f64 + m.z_axis.y * rgb[2] as f64
}

/// RGB of a CIE XYZ colour, brought into the gamut (RADIANCE's `cie_rgb`).
pub fn cie_rgb(xyz: DVec3) -> DVec3 {
    clip_to_gamut(xyz_to_rgb_matrix() * xyz, xyz.y)
}

/// RADIANCE's lower gamut clip: black below zero luminance, else a colour with a negative
/// channel moved towards the grey of the same luminance until none is negative.
pub fn clip_to_gamut(rgb: DVec3, y: f64) -> DVec3 {
    if y < 0.0 {
        return DVec3::ZERO;
    }
    let mut t = 1.0f64;
    for c in rgb.to_array() {
        if c < 0.0 {
            t = t.min(-y / (c - y));
        }
    }
    if t < 1.0 {
        rgb * t + DVec3::splat(y) * (1.0 - t)
    } else {
        rgb
    }
}

/// A linear value as an 8-bit gamma-corrected sample, `256 v^(1/gamma)` cut to 0..255
/// (RADIANCE's lookup tables give the same byte, or at most one level apart where a value's
/// exponent is far from 1).
pub fn gamma_byte(v: f32, inv_gamma: f64) -> u8 {
    if v <= 0.0 {
        return 0;
    }
    (256.0 * (v as f64).powf(inv_gamma)).min(255.0) as u8
}

/// An 8-bit gamma-corrected sample as the linear value at the middle of its level.
pub fn byte_linear(b: u8, gamma: f64) -> f32 {
    ((b as f64 + 0.5) / 256.0).powf(gamma) as f32
}
