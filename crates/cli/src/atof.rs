//! C's `atof`, as RADIANCE's data utilities (total, histo) read their columns.

/// The number a word starts with (0 when there is none): `"3.5kg"` is 3.5, `"x"` is 0.
pub fn atof(w: &str) -> f64 {
    let w = w.trim();
    (1..=w.len().min(64))
        .rev()
        .filter(|&k| w.is_char_boundary(k))
        .find_map(|k| w[..k].parse::<f64>().ok())
        .unwrap_or(0.0)
}
