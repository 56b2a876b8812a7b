//! Numbers read as C's library and RADIANCE read them, for the programs that follow their
//! quirks: `atof` and `atoi` take the number a word starts with (0 when there is none),
//! `strtod_prefix` also says where it ends, and RADIANCE's `isflt` asks whether a whole word
//! is a number.

/// C's `atof`: the number a word starts with (0 when there is none): `"3.5kg"` is 3.5, `"x"`
/// is 0.
pub fn atof(w: &str) -> f64 {
    let w = w.trim();
    (1..=w.len().min(64))
        .rev()
        .filter(|&k| w.is_char_boundary(k))
        .find_map(|k| w[..k].parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// The longest prefix of `s` that C's `strtod` reads as a decimal number, and its length.
pub fn strtod_prefix(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let start = usize::from(!b.is_empty() && (b[0] == b'+' || b[0] == b'-'));
    let mut end = digits(start);
    let mut mantissa = end > start;
    if end < b.len() && b[end] == b'.' {
        let frac_end = digits(end + 1);
        mantissa |= frac_end > end + 1;
        end = frac_end;
    }
    if !mantissa {
        return None;
    }
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut j = end + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let e = digits(j);
        if e > j {
            end = e;
        }
    }
    s[..end].parse().ok().map(|x| (x, end))
}

/// C's `atoi`: the integer a word starts with (0 when there is none).
pub fn atoi(s: &str) -> i64 {
    let s = s.trim_start();
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
        .map_or(s.len(), |(i, _)| i);
    s[..end].parse().unwrap_or(0)
}

/// RADIANCE's `isflt`: the whole word is a number written with digits, a sign, a point and an
/// exponent (no `inf` or `nan`).
pub fn is_float(w: &[u8]) -> bool {
    std::str::from_utf8(w).is_ok_and(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
            && s.parse::<f64>().is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_c_reads_them() {
        assert_eq!(atof("3.5kg"), 3.5);
        assert_eq!(atof("x"), 0.0);
        assert_eq!(atof(" -2e3 "), -2000.0);
        assert_eq!(atoi("42x"), 42);
        assert_eq!(atoi(" -7"), -7);
        assert_eq!(atoi("x1"), 0);
        assert!(is_float(b"-.06") && is_float(b"1e-7"));
        assert!(!is_float(b"inf") && !is_float(b"1x") && !is_float(b""));
    }
}
