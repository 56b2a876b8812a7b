//! Fireflies out of the glare sources: in a progressive picture's indirect part (the mean of
//! a few one-sample paths per pixel) a pixel whose few paths happened to reach the sun patch
//! or the sky through the window shines far above its neighbours, and glare detection would
//! count it as a glare source — biasing DGP and UGP upwards while the picture is young. A
//! firefly is a pixel more than [`FACTOR`] times as bright as all but one of its eight
//! neighbours (so lone pixels and pairs); its indirect light is scaled down to that. Edges and
//! bands of light two pixels wide or more, whose pixels have bright neighbours along them,
//! are kept; indirect light is smooth, so once the picture has converged neighbours agree
//! and next to nothing changes. Frame 0 (direct and specular
//! light, where the window and the sun are) is never touched.

/// How many times brighter than its second-brightest neighbour a pixel's indirect light may
/// be. 2 keeps the noise of a young picture (a tighter limit would darken every local maximum
/// and bias UGP low, the reference office's sunny views by 0.02 after 16 frames) and takes
/// out the paths that struck something bright.
pub const FACTOR: f32 = 2.0;

/// Luminance up to a constant factor (only ratios are used).
fn luminance(c: [f32; 3]) -> f32 {
    // RADIANCE's luminance weights.
    0.265 * c[0] + 0.670 * c[1] + 0.065 * c[2]
}

/// Suppresses fireflies in `indirect` (row-major, `width` × `height`), in place: pixels
/// brighter than `factor` × their second-brightest neighbour are scaled down to that. `valid`
/// says which pixels lie in the picture (the others are neither changed nor neighbours).
/// Returns how many pixels were scaled down.
pub fn suppress(
    indirect: &mut [[f32; 3]],
    valid: &[bool],
    width: usize,
    height: usize,
    factor: f32,
) -> usize {
    assert_eq!(indirect.len(), width * height, "the picture has its size");
    assert_eq!(
        valid.len(),
        width * height,
        "the mask has the picture's size"
    );
    let lum: Vec<f32> = indirect.iter().map(|&c| luminance(c)).collect();
    let mut changed = 0;
    for y in 0..height {
        for x in 0..width {
            let k = y * width + x;
            if !valid[k] || lum[k] <= 0.0 {
                continue;
            }
            // The two brightest neighbours.
            let (mut first, mut second) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            let mut count = 0;
            for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                    let n = ny * width + nx;
                    if n == k || !valid[n] {
                        continue;
                    }
                    count += 1;
                    let l = lum[n];
                    if l > first {
                        second = first;
                        first = l;
                    } else if l > second {
                        second = l;
                    }
                }
            }
            // A pixel with fewer than three neighbours in the picture has too few to judge by.
            let limit = factor * second.max(0.0);
            if count < 3 || lum[k] <= limit {
                continue;
            }
            let s = limit / lum[k];
            let c = &mut indirect[k];
            *c = [c[0] * s, c[1] * s, c[2] * s];
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(l: f32) -> [f32; 3] {
        [l, l, l]
    }

    #[test]
    fn lone_pixels_and_pairs_go_edges_and_lines_stay() {
        let (w, h) = (8, 8);
        let mut p = vec![grey(1.0); w * h];
        // A lone firefly and a pair of them.
        p[2 * w + 2] = grey(500.0);
        p[5 * w + 5] = grey(300.0);
        p[5 * w + 6] = grey(400.0);
        let valid = vec![true; w * h];
        let n = suppress(&mut p, &valid, w, h, 2.0);
        assert_eq!(n, 3);
        assert!(p.iter().all(|c| c[0] <= 2.0 + 1e-6), "{p:?}");
        assert_eq!(p[2 * w + 2], grey(2.0));
        // Noise within the factor stays.
        let mut r: Vec<[f32; 3]> = (0..w * h)
            .map(|k| grey(1.0 + (k % 3) as f32 * 0.4))
            .collect();
        let before = r.clone();
        assert_eq!(suppress(&mut r, &valid, w, h, 2.0), 0);
        assert_eq!(r, before);

        // A bright half and a band two pixels wide: nothing changes.
        let mut q: Vec<[f32; 3]> = (0..w * h)
            .map(|k| {
                grey(if k % w >= 4 || k / w == 1 || k / w == 2 {
                    50.0
                } else {
                    1.0
                })
            })
            .collect();
        let before = q.clone();
        assert_eq!(suppress(&mut q, &valid, w, h, 2.0), 0);
        assert_eq!(q, before);
    }

    #[test]
    fn pixels_outside_the_picture_are_no_neighbours() {
        let (w, h) = (3, 3);
        let mut p = vec![grey(0.0); 9];
        p[4] = grey(10.0);
        let mut valid = vec![false; 9];
        valid[4] = true;
        valid[1] = true;
        assert_eq!(
            suppress(&mut p, &valid, w, h, 1.0),
            0,
            "too few neighbours to judge"
        );
        assert_eq!(p[4], grey(10.0));
    }
}
