//! Numbers as C's `printf` writes them, for the text RADIANCE's programs print (`%g` in
//! rcalc, total and rfluxmtx's options, `%18.12g` in the generators' scene text).

/// C's `printf("%g", x)`: 6 significant digits, trailing zeros removed, exponent form for
/// exponents below −4 or from 6 up (as rfluxmtx writes normals and up vectors for rcontrib).
pub fn format_g(x: f64) -> String {
    format_g_digits(x, 6)
}

/// C's `printf("%.Ng", x)` with `digits` significant digits (at least 1).
pub fn format_g_digits(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let p = digits.max(1);
    let e = format!("{x:.*e}", p - 1);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if exp < -4 || exp >= p as i32 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mant), exp.abs())
    } else {
        trim(&format!("{:.*}", (p as i32 - 1 - exp) as usize, x))
    }
}

/// C's `printf("%.Ne", x)` with `prec` digits after the point (`1.234560e+00`).
pub fn format_e(x: f64, prec: usize) -> String {
    let mut s = String::with_capacity(prec + 8);
    push_e(&mut s, x, prec);
    s
}

/// Appends `x` as C's `%.{prec}e` writes it (`2.200000e+01`, `-nan`, `inf`), without a
/// temporary string: matrices of millions of numbers are written this way.
pub fn push_e(out: &mut String, x: f64, prec: usize) {
    use std::fmt::Write as _;
    if !x.is_finite() {
        out.push_str(&format_g(x));
        return;
    }
    if push_e_exact(out, x, prec) {
        return;
    }
    let start = out.len();
    // Writing to a String cannot fail.
    let _ = write!(out, "{x:.prec$e}");
    // Rust writes the exponent as `e1` / `e-5`; C as `e+01` / `e-05`.
    let Some(at) = out[start..].rfind('e').map(|k| start + k) else {
        return;
    };
    let digits = &out.as_bytes()[at + 1..];
    let negative = digits.first() == Some(&b'-');
    let exp = digits[usize::from(negative)..]
        .iter()
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    out.truncate(at);
    out.push('e');
    out.push(if negative { '-' } else { '+' });
    if exp >= 100 {
        out.push(char::from(b'0' + (exp / 100) as u8));
    }
    out.push(char::from(b'0' + (exp / 10 % 10) as u8));
    out.push(char::from(b'0' + (exp % 10) as u8));
}

/// C's `printf("%18.12g", x)`: 12 significant digits, right-aligned in 18 columns, as
/// RADIANCE's generators print coordinates.
pub fn format_g18(x: f64) -> String {
    format!("{:>18}", format_g_digits(x, 12))
}

/// printf-style padding of `v` by `flags` (the flags and width of a conversion, as in
/// `%-08d`): the width, `-` to left-align, `0` to zero-fill numbers.
pub fn pad(v: String, flags: &str, number: bool) -> String {
    let left = flags.contains('-');
    let digits: String = flags.chars().filter(|c| c.is_ascii_digit()).collect();
    let zero = number && !left && digits.starts_with('0');
    let width: usize = digits.parse().unwrap_or(0);
    if v.len() >= width {
        return v;
    }
    let fill = width - v.len();
    if left {
        v + &" ".repeat(fill)
    } else if zero {
        "0".repeat(fill) + &v
    } else {
        " ".repeat(fill) + &v
    }
}

/// The fast way to [`push_e`] for the numbers matrices hold: with `x = m · 2^e`, the digits
/// are `m · 10^s / 2^-e` in 128-bit integers, rounded half to even as C's printf rounds, when
/// that fits (17 digits at most, `x` between about 1e-16 and 1e38 for 7 digits). Returns false,
/// writing nothing, when it does not.
fn push_e_exact(out: &mut String, x: f64, prec: usize) -> bool {
    const POW10: [u128; 39] = {
        let mut t = [1u128; 39];
        let mut i = 1;
        while i < 39 {
            t[i] = t[i - 1] * 10;
            i += 1;
        }
        t
    };
    if prec > 16 || x == 0.0 || !x.is_finite() {
        return false;
    }
    let bits = x.abs().to_bits();
    let (biased, frac) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, biased - 1075)
    };
    // `k`: the decimal exponent of the first digit (log10 may be off by one: corrected below).
    let mut k = x.abs().log10().floor() as i32;
    for _ in 0..2 {
        // digits = x · 10^(prec - k), rounded.
        let s = prec as i32 - k;
        let (q, rem, half) = if e >= 0 {
            if s < 0 || e > 70 {
                return false;
            }
            let Some(v) = (m as u128)
                .checked_shl(e as u32)
                .and_then(|v| v.checked_mul(POW10[s as usize]))
            else {
                return false;
            };
            (v, 0, 1)
        } else if s >= 0 {
            if s > 22 || -e > 127 {
                return false;
            }
            let v = m as u128 * POW10[s as usize];
            let sh = (-e) as u32;
            (v >> sh, v & ((1u128 << sh) - 1), 1u128 << (sh - 1))
        } else {
            // x above 10^prec with a fraction: x · 10^s = m / (2^-e · 10^-s).
            if -s > 38 || -e > 60 {
                return false;
            }
            let Some(d) = POW10[(-s) as usize].checked_shl((-e) as u32) else {
                return false;
            };
            let v = m as u128;
            (v / d, (v % d) * 2, d)
        };
        let (lo, hi) = (POW10[prec], POW10[prec + 1]);
        if q < lo {
            k -= 1;
            continue;
        }
        if q >= hi {
            k += 1;
            continue;
        }
        // The remainder against half a unit: `half` is half the divisor (or the divisor when
        // the remainder was doubled).
        let up = rem > half || (rem == half && q % 2 == 1);
        let (mut q, mut k) = (q + u128::from(up), k);
        if q == hi {
            q /= 10;
            k += 1;
        }
        write_digits(out, x.is_sign_negative(), q, prec, k);
        return true;
    }
    false
}

/// Writes `q` (`prec + 1` digits) as `d.ddd…e±kk`.
fn write_digits(out: &mut String, negative: bool, q: u128, prec: usize, k: i32) {
    let mut buf = [0u8; 40];
    let mut n = q;
    for i in (0..=prec).rev() {
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    if negative {
        out.push('-');
    }
    out.push(char::from(buf[0]));
    if prec > 0 {
        out.push('.');
        // Digits are ASCII.
        out.push_str(std::str::from_utf8(&buf[1..=prec]).unwrap_or_default());
    }
    out.push('e');
    out.push(if k < 0 { '-' } else { '+' });
    let a = k.unsigned_abs();
    if a >= 100 {
        out.push(char::from(b'0' + (a / 100) as u8));
    }
    out.push(char::from(b'0' + (a / 10 % 10) as u8));
    out.push(char::from(b'0' + (a % 10) as u8));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_form_as_c_printf_writes_it() {
        // Values printed by glibc's printf("%.Ne").
        for (x, prec, want) in [
            (6.919e6, 3, "6.919e+06"),
            (0.0, 3, "0.000e+00"),
            (-0.0, 2, "-0.00e+00"),
            (1.5e-5, 3, "1.500e-05"),
            (1.0e123, 2, "1.00e+123"),
            (2.5e-300, 1, "2.5e-300"),
            (22.0, 6, "2.200000e+01"),
            (0.125, 1, "1.2e-01"),
            (9.9999999e9, 3, "1.000e+10"),
            (f64::NAN, 6, "nan"),
            (-f64::NAN, 6, "-nan"),
            (f64::NEG_INFINITY, 6, "-inf"),
        ] {
            assert_eq!(format_e(x, prec), want, "{x:e} %.{prec}e");
        }
        let mut s = String::from("x=");
        push_e(&mut s, 47.4, 4);
        assert_eq!(s, "x=4.7400e+01");
    }

    #[test]
    fn the_fast_path_agrees_with_exact_formatting() {
        // Against Rust's own exact formatting (then C's exponent), on numbers of every
        // magnitude, f32 values as matrices hold them, halfway cases and powers of ten.
        let slow = |x: f64, prec: usize| {
            let s = format!("{x:.prec$e}");
            let (m, e) = s.split_once('e').unwrap();
            let e: i32 = e.parse().unwrap();
            format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
        };
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values: Vec<f64> = (0..200_000)
            .map(|i| {
                let r = next();
                match i % 4 {
                    0 => f64::from_bits(r),
                    1 => f64::from(f32::from_bits(r as u32)),
                    2 => (r % 100_000_000) as f64 / 1000.0,
                    _ => ((r % 2_000_000) as f64 + 0.5) * 10f64.powi((r % 40) as i32 - 20),
                }
            })
            .filter(|x| x.is_finite())
            .collect();
        values.extend((-30..30).map(|k| 10f64.powi(k)));
        values.extend([0.125, 2.5, 1.5e-7, 9.5, 99.5, 999_999.5, 1e22, 1e23, 5e-324]);
        let mut fast = 0;
        for &x in &values {
            for prec in [0, 1, 3, 4, 6, 7, 9, 16] {
                let mut s = String::new();
                if push_e_exact(&mut s, x, prec) {
                    fast += 1;
                    assert_eq!(s, slow(x, prec), "{x:e} %.{prec}e");
                }
                assert_eq!(format_e(x, prec), slow(x, prec), "{x:e} %.{prec}e");
            }
        }
        assert!(fast > values.len() * 4, "the fast path is taken: {fast}");
    }
}
