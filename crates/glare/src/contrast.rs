//! Region metrics of a luminance picture (thesis §2.2.2.1, §5.5.1, §7.2): task-area luminance
//! (eq. 7.4), the contrast ratios CRv (eq. 2.1, 5.5) with its limit CRmin (eq. 2.2) and CRd
//! (eq. 2.3, 5.6), and the RAMMG noise metric (eq. 7.2–7.3).

use crate::picture::GlarePicture;
use serde::Serialize;

/// A region of a picture: pixel rectangle, corners inclusive, `x` from the left and `y` from
/// the top (as image viewers count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

/// Solid-angle-weighted mean luminance of `(luminance, solid angle)` samples — the task-area
/// luminance TAL (eq. 7.4); `None` when they cover no solid angle.
pub fn mean_luminance(samples: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (mut s, mut o) = (0.0, 0.0);
    for (l, w) in samples {
        s += l * w;
        o += w;
    }
    (o > 0.0).then(|| s / o)
}

/// TAL of a rectangle of a picture, over the pixels that take part in the evaluation;
/// `None` for an empty region or one outside the picture.
pub fn region_luminance(pic: &GlarePicture, r: &Rect) -> Option<f64> {
    if r.x0 > r.x1 || r.y0 > r.y1 || r.x1 >= pic.width || r.y1 >= pic.height {
        return None;
    }
    let h = pic.height;
    mean_luminance((r.x0..=r.x1).flat_map(|x| {
        (r.y0..=r.y1).filter_map(move |yt| {
            let y = h - 1 - yt;
            pic.is_valid(x, y)
                .then(|| (pic.luminance_at(x, y), pic.solid_angle(x, y)))
        })
    }))
}

/// Veiling-glare contrast ratio CRv = (L_H + L_r)/(L_L + L_r) (eq. 2.1; with `l_r` = 0 and
/// region means it is eq. 5.5).
pub fn cr_v(l_high: f64, l_low: f64, l_r: f64) -> f64 {
    (l_high + l_r) / (l_low + l_r)
}

/// The smallest acceptable CRv for a low-state luminance (with reflections) `l_low` (eq. 2.2).
pub fn cr_min(l_low: f64) -> f64 {
    2.2 + 4.84 * l_low.powf(-0.65)
}

/// Discomfort contrast ratio CRd = L_s/L_t between a surround and a task (eq. 2.3, 5.6).
pub fn cr_d(l_surround: f64, l_task: f64) -> f64 {
    l_surround / l_task
}

/// RAMMG (Rizzi et al.; thesis eq. 7.2–7.3): over a pyramid of the picture halved by 2 × 2
/// means down to 2 pixels on the short side, the mean of each level's
/// `1/(8n) Σ_i Σ_j α_j |L_i − L_j|` over the 8 neighbours `j` of every pixel `i`, with weights
/// √2/2 diagonally and 1 otherwise, normalised by 4 + 2√2 (the equation as the thesis writes
/// it, 1/8 included). Neighbours outside the picture are left out. `lum` is row-major.
pub fn rammg(lum: &[f64], width: usize, height: usize) -> f64 {
    assert_eq!(lum.len(), width * height, "rammg: size mismatch");
    if width == 0 || height == 0 {
        return 0.0;
    }
    let norm = 1.0 / (4.0 + 2.0 * std::f64::consts::SQRT_2);
    let diag = std::f64::consts::SQRT_2 / 2.0 * norm;
    let edge = norm;
    let mut level = lum.to_vec();
    let (mut w, mut h) = (width, height);
    let mut total = 0.0;
    let mut m = 0;
    loop {
        let mut s = 0.0;
        for y in 0..h {
            for x in 0..w {
                let l = level[y * w + x];
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                            continue;
                        }
                        let a = if dx != 0 && dy != 0 { diag } else { edge };
                        s += a * (l - level[ny as usize * w + nx as usize]).abs();
                    }
                }
            }
        }
        total += s / (8.0 * (w * h) as f64);
        m += 1;
        if w.min(h) < 4 {
            break;
        }
        let (nw, nh) = (w / 2, h / 2);
        let mut next = vec![0.0; nw * nh];
        for y in 0..nh {
            for x in 0..nw {
                next[y * nw + x] = (level[2 * y * w + 2 * x]
                    + level[2 * y * w + 2 * x + 1]
                    + level[(2 * y + 1) * w + 2 * x]
                    + level[(2 * y + 1) * w + 2 * x + 1])
                    / 4.0;
            }
        }
        level = next;
        w = nw;
        h = nh;
    }
    total / m as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_picture_has_no_rammg_and_a_checkerboard_has_a_known_one() {
        assert_eq!(rammg(&[5.0; 64], 8, 8), 0.0);
        // 2 × 2 checkerboard of 0 and 1: every edge neighbour differs, diagonals agree.
        let lum = [0.0, 1.0, 1.0, 0.0];
        let norm = 1.0 / (4.0 + 2.0 * std::f64::consts::SQRT_2);
        // each pixel: two edge neighbours differ by 1
        let want = 4.0 * 2.0 * norm / (8.0 * 4.0);
        assert!((rammg(&lum, 2, 2) - want).abs() < 1e-12);
    }

    #[test]
    fn ratios() {
        assert_eq!(cr_v(300.0, 50.0, 10.0), 310.0 / 60.0);
        assert!((cr_min(1.0) - 7.04).abs() < 1e-12);
        assert_eq!(cr_d(1000.0, 100.0), 10.0);
        assert_eq!(mean_luminance([(10.0, 1.0), (20.0, 3.0)]), Some(17.5));
        assert_eq!(mean_luminance([]), None);
    }
}
