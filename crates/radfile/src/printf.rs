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
    if !x.is_finite() {
        return format_g(x);
    }
    let s = format!("{x:.prec$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mant}e{sign}{:02}", exp.abs())
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

/// A number as C's `%.Ne` writes it (`1.500000e+00`): RADIANCE's programs print this way and
/// scripts that read their output expect it.
pub fn c_exp(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let n: i32 = e.parse().unwrap_or(0);
            format!("{m}e{}{:02}", if n < 0 { '-' } else { '+' }, n.abs())
        }
        None => s,
    }
}
