//! Adaptive pixel sampling with rpict's `-ps` (sample spacing) and `-pt` (tolerance).
//!
//! RADIANCE's rule: trace pixels `-ps` apart, and wherever two neighbouring samples differ in
//! colour or distance by more than `-pt` (relatively), trace between them; elsewhere
//! interpolate. daylit traces a grid of corner samples `-ps` apart, then per block between four
//! corners fills it bilinearly when they agree, or else splits it in four, traces the new
//! corners and refines each part the same way, down to single pixels (so that along an edge
//! only the pixels near it are traced, as in RADIANCE). Blocks
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
            let (x0, x1, y0, y1) = (cx[i], cx[i + 1], cy[j], cy[j + 1]);
            let mut block = Block::new(x0, x1, y0, y1);
            block.set(x0, y0, *at(i, j));
            block.set(x1, y0, *at(i + 1, j));
            block.set(x0, y1, *at(i, j + 1));
            block.set(x1, y1, *at(i + 1, j + 1));
            block.refine(pt, |x, y| trace(st, x, y));
            // A block owns its top and left edges; the last ones own the far edges too.
            let xend = if i + 2 == cx.len() { x1 + 1 } else { x1 };
            let yend = if j + 2 == cy.len() { y1 + 1 } else { y1 };
            let mut out = Vec::with_capacity((xend - x0) * (yend - y0));
            for y in y0..yend {
                for x in x0..xend {
                    out.push((y * xres + x, block.get(x, y)));
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

/// The pixels of one block between four grid samples, edges included: traced samples, and
/// colours interpolated where the samples around them agree.
struct Block {
    x0: usize,
    y0: usize,
    w: usize,
    traced: Vec<Option<Sample>>,
    colour: Vec<Option<[f32; 3]>>,
}

impl Block {
    fn new(x0: usize, x1: usize, y0: usize, y1: usize) -> Block {
        let n = (x1 - x0 + 1) * (y1 - y0 + 1);
        Block {
            x0,
            y0,
            w: x1 - x0 + 1,
            traced: vec![None; n],
            colour: vec![None; n],
        }
    }

    fn idx(&self, x: usize, y: usize) -> usize {
        (y - self.y0) * self.w + (x - self.x0)
    }

    fn set(&mut self, x: usize, y: usize, s: Sample) {
        let k = self.idx(x, y);
        self.traced[k] = Some(s);
        self.colour[k] = Some(s.0);
    }

    fn sample(
        &mut self,
        x: usize,
        y: usize,
        trace: &mut impl FnMut(usize, usize) -> Sample,
    ) -> Sample {
        let k = self.idx(x, y);
        match self.traced[k] {
            Some(s) => s,
            None => {
                let s = trace(x, y);
                self.set(x, y, s);
                s
            }
        }
    }

    /// rpict's refinement: a rectangle whose corner samples agree within `pt` is interpolated;
    /// one whose corners differ is split in half along each side longer than one pixel, its new
    /// corners traced, and each part refined again, so that only the pixels near an edge are
    /// traced.
    fn refine(&mut self, pt: f64, mut trace: impl FnMut(usize, usize) -> Sample) {
        let x1 = self.x0 + self.w - 1;
        let y1 = self.y0 + self.traced.len() / self.w - 1;
        let mut todo = vec![(self.x0, x1, self.y0, y1)];
        while let Some((x0, x1, y0, y1)) = todo.pop() {
            let c = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                .map(|(x, y)| self.traced[self.idx(x, y)].expect("rectangle corners are traced"));
            let busy = (0..4).any(|a| (a + 1..4).any(|b| differ(&c[a], &c[b], pt)));
            if !busy {
                self.interpolate((x0, x1, y0, y1), &c);
                continue;
            }
            if x1 - x0 <= 1 && y1 - y0 <= 1 {
                continue;
            }
            let xs: Vec<usize> = if x1 - x0 > 1 {
                vec![x0, (x0 + x1) / 2, x1]
            } else {
                vec![x0, x1]
            };
            let ys: Vec<usize> = if y1 - y0 > 1 {
                vec![y0, (y0 + y1) / 2, y1]
            } else {
                vec![y0, y1]
            };
            for &y in &ys {
                for &x in &xs {
                    self.sample(x, y, &mut trace);
                }
            }
            for b in ys.windows(2) {
                for a in xs.windows(2) {
                    todo.push((a[0], a[1], b[0], b[1]));
                }
            }
        }
    }

    /// Fills the pixels of a rectangle that are neither traced nor filled yet, bilinearly from
    /// its corners `c` (top left, top right, bottom left, bottom right).
    fn interpolate(&mut self, (x0, x1, y0, y1): (usize, usize, usize, usize), c: &[Sample; 4]) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                let k = self.idx(x, y);
                if self.colour[k].is_some() {
                    continue;
                }
                let u = if x1 > x0 {
                    (x - x0) as f32 / (x1 - x0) as f32
                } else {
                    0.0
                };
                let v = if y1 > y0 {
                    (y - y0) as f32 / (y1 - y0) as f32
                } else {
                    0.0
                };
                self.colour[k] = Some(std::array::from_fn(|ch| {
                    let top = c[0].0[ch] * (1.0 - u) + c[1].0[ch] * u;
                    let bottom = c[2].0[ch] * (1.0 - u) + c[3].0[ch] * u;
                    top * (1.0 - v) + bottom * v
                }));
            }
        }
    }

    fn get(&self, x: usize, y: usize) -> [f32; 3] {
        self.colour[self.idx(x, y)].expect("every pixel is traced or interpolated")
    }
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
