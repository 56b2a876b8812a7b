//! Adaptive pixel sampling with rpict's `-ps` (sample spacing) and `-pt` (tolerance).
//!
//! RADIANCE's rule: trace pixels `-ps` apart, and wherever two neighbouring samples differ in
//! colour or distance by more than `-pt` (relatively), trace between them; elsewhere
//! interpolate. daylit traces a grid of corner samples `-ps` apart, then per block between four
//! corners either traces every pixel (when any two corners differ) or fills it bilinearly. Blocks
//! are independent, so all cores work on them, and each pixel's random sequence depends only on
//! its index, so the picture does not depend on the thread count.

use indicatif::ProgressBar;
use rayon::prelude::*;

/// A traced pixel: its colour and the distance to what it shows.
pub type Sample = ([f32; 3], f64);

/// rpict's `bigdiff` with the distance test: do two samples differ by more than `pt`?
fn differ(a: &Sample, b: &Sample, pt: f64) -> bool {
    let (ca, cb) = (a.0, b.0);
    let colour = (0..3).any(|k| {
        let (x, y) = (ca[k] as f64, cb[k] as f64);
        x - y > pt * y || y - x > pt * x
    });
    colour || 2.0 * (a.1 - b.1).abs() > pt * (a.1 + b.1)
}

/// Grid positions `step` apart along `0..n`, always ending at `n - 1`.
fn corners(n: usize, step: usize) -> Vec<usize> {
    let mut c: Vec<usize> = (0..n - 1).step_by(step).collect();
    c.push(n - 1);
    c
}

/// Fills an `xres` × `yres` picture (rows top to bottom) from `trace(state, col, row)`, tracing
/// every pixel when `ps <= 1`. `init` makes the working state each worker reuses. `bar`, if
/// any, advances by one per row of blocks or scanline.
pub fn fill<S, I, F>(
    xres: usize,
    yres: usize,
    (ps, pt): (usize, f64),
    init: I,
    trace: F,
    bar: Option<&ProgressBar>,
) -> Vec<[f32; 3]>
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, usize) -> Sample + Sync,
{
    if ps <= 1 || xres < 2 || yres < 2 {
        return (0..yres)
            .into_par_iter()
            .map_init(&init, |st, row| {
                let line: Vec<[f32; 3]> = (0..xres).map(|col| trace(st, col, row).0).collect();
                if let Some(b) = bar {
                    b.inc(1);
                }
                line
            })
            .flatten_iter()
            .collect();
    }
    let (cx, cy) = (corners(xres, ps), corners(yres, ps));
    let grid: Vec<Sample> = cy
        .par_iter()
        .flat_map_iter(|&y| cx.iter().map(move |&x| (x, y)))
        .map_init(&init, |st, (x, y)| trace(st, x, y))
        .collect();
    let at = |i: usize, j: usize| &grid[j * cx.len() + i];
    let mut pixels = vec![[0.0f32; 3]; xres * yres];
    let blocks: Vec<Vec<(usize, [f32; 3])>> = (0..cy.len() - 1)
        .into_par_iter()
        .flat_map_iter(|j| (0..cx.len() - 1).map(move |i| (i, j)))
        .map_init(&init, |st, (i, j)| {
            let c = [at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)];
            let busy = (0..4).any(|a| (a + 1..4).any(|b| differ(c[a], c[b], pt)));
            let (x0, x1, y0, y1) = (cx[i], cx[i + 1], cy[j], cy[j + 1]);
            // A block owns its top and left edges; the last ones own the far edges too.
            let xend = if i + 2 == cx.len() { x1 + 1 } else { x1 };
            let yend = if j + 2 == cy.len() { y1 + 1 } else { y1 };
            let mut out = Vec::with_capacity((xend - x0) * (yend - y0));
            for y in y0..yend {
                for x in x0..xend {
                    let corner = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                        .iter()
                        .position(|&p| p == (x, y));
                    let v = match corner {
                        Some(k) => c[k].0,
                        None if busy => trace(st, x, y).0,
                        None => {
                            let u = (x - x0) as f32 / (x1 - x0) as f32;
                            let v = (y - y0) as f32 / (y1 - y0) as f32;
                            std::array::from_fn(|k| {
                                let top = c[0].0[k] * (1.0 - u) + c[1].0[k] * u;
                                let bottom = c[2].0[k] * (1.0 - u) + c[3].0[k] * u;
                                top * (1.0 - v) + bottom * v
                            })
                        }
                    };
                    out.push((y * xres + x, v));
                }
            }
            if let (Some(b), true) = (bar, i == 0) {
                b.inc((yend - y0) as u64);
            }
            out
        })
        .collect();
    for (k, v) in blocks.into_iter().flatten() {
        pixels[k] = v;
    }
    pixels
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn smooth_pictures_are_interpolated_and_edges_traced() {
        // A linear ramp is interpolated exactly from the corners; a step is traced in full.
        let (w, h) = (37, 23);
        let ramp = |x: usize, y: usize| ([1.0 + x as f32 * 0.002 + y as f32 * 0.004; 3], 5.0);
        let traced = AtomicUsize::new(0);
        let img = fill(
            w,
            h,
            (4, 0.05),
            || (),
            |_, x, y| {
                traced.fetch_add(1, Ordering::Relaxed);
                ramp(x, y)
            },
            None,
        );
        for y in 0..h {
            for x in 0..w {
                assert!(
                    (img[y * w + x][0] - ramp(x, y).0[0]).abs() < 1e-5,
                    "{x} {y}"
                );
            }
        }
        assert!(
            traced.load(Ordering::Relaxed) < w * h / 8,
            "interpolated, not traced"
        );

        let step = |x: usize, _y: usize| ([if x < 18 { 1.0 } else { 5.0 }; 3], 5.0);
        let img = fill(w, h, (4, 0.05), || (), |_, x, y| step(x, y), None);
        for y in 0..h {
            for x in 0..w {
                assert_eq!(img[y * w + x], step(x, y).0, "{x} {y}: the edge is traced");
            }
        }
    }

    #[test]
    fn spacing_one_traces_every_pixel() {
        let n = AtomicUsize::new(0);
        fill(
            9,
            7,
            (1, 0.05),
            || (),
            |_, _, _| {
                n.fetch_add(1, Ordering::Relaxed);
                ([0.0; 3], 1.0)
            },
            None,
        );
        assert_eq!(n.load(Ordering::Relaxed), 63);
    }
}
