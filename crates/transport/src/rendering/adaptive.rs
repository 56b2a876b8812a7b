//! Adaptive pixel sampling with rpict's `-ps` (sample spacing) and `-pt` (tolerance).
//!
//! RADIANCE's rule: trace pixels `-ps` apart, and wherever two neighbouring samples differ in
//! colour or distance by more than `-pt` (relatively), trace between them; elsewhere
//! interpolate. daylit traces a grid of corner samples `-ps` apart; a block whose corners differ
//! is split in four (tracing its edge midpoints and centre), level by level down to single
//! pixels, and a block whose corners agree is filled bilinearly. Each level's new samples are
//! traced once (blocks share edges) on all cores, and each pixel's random sequence depends only
//! on its index, so the picture does not depend on the thread count.

use rayon::prelude::*;

/// Hears progress: called with the number of scanlines (or their equivalent) just finished.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

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
/// every pixel when `ps <= 1`; returns the colours and the distances (rpict's z-buffer), both
/// interpolated alike where pixels are not traced. `init` makes the working state each worker reuses. `refine`
/// hears the pixels of each level of refinement (indices `row × xres + col`) before they are
/// traced: rpict extends its irradiance cache there. `progress`, if any, hears one per row
/// of blocks or scanline.
pub fn fill<S, I, F, R>(
    xres: usize,
    yres: usize,
    (ps, pt): (usize, f64),
    init: I,
    trace: F,
    mut refine: R,
    progress: Option<Progress>,
) -> (Vec<[f32; 3]>, Vec<f32>)
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, usize) -> Sample + Sync,
    R: FnMut(&[usize]),
{
    if ps <= 1 || xres < 2 || yres < 2 {
        return (0..yres)
            .into_par_iter()
            .map_init(&init, |st, row| {
                let line: Vec<([f32; 3], f32)> = (0..xres)
                    .map(|col| {
                        let (c, d) = trace(st, col, row);
                        (c, d as f32)
                    })
                    .collect();
                if let Some(p) = progress {
                    p(1);
                }
                line
            })
            .flatten_iter()
            .unzip();
    }
    let (cx, cy) = (corners(xres, ps), corners(yres, ps));
    let mut pic = Traced::new(xres * yres);
    let first: Vec<usize> = cy
        .iter()
        .flat_map(|&y| cx.iter().map(move |&x| y * xres + x))
        .collect();
    pic.trace_at(&first, xres, &init, &trace);
    let mut cells: Vec<Cell> = cy
        .windows(2)
        .flat_map(|ys| {
            cx.windows(2)
                .map(move |xs| Cell([xs[0], xs[1], ys[0], ys[1]]))
        })
        .collect();
    // Cells whose corners agree: their pixels are interpolated at the end.
    let mut smooth: Vec<Cell> = Vec::new();
    let mut rows_done = 0;
    while !cells.is_empty() {
        let (busy, calm): (Vec<Cell>, Vec<Cell>) = cells.into_iter().partition(|c| {
            let k = c.corners().map(|(x, y)| pic.sample(y * xres + x));
            c.splits() && (0..4).any(|a| (a + 1..4).any(|b| differ(&k[a], &k[b], pt)))
        });
        smooth.extend(calm);
        // A busy cell's centre is traced; an edge's midpoint only where the edge's ends
        // differ, else it is interpolated along the edge (as rpict refines along scanlines).
        let mut new: Vec<usize> = Vec::new();
        for c in &busy {
            let (xm, ym) = c.mid();
            new.push(ym * xres + xm);
            for (a, b) in c.edges() {
                let m = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
                let (ka, kb, km) = (a.1 * xres + a.0, b.1 * xres + b.0, m.1 * xres + m.0);
                if km == ka || km == kb || pic.known[km] {
                    continue;
                }
                if differ(&pic.sample(ka), &pic.sample(kb), pt) {
                    new.push(km);
                } else {
                    pic.between(km, ka, kb, a, b, m);
                }
            }
        }
        new.retain(|&k| !pic.traced[k]);
        new.sort_unstable();
        new.dedup();
        refine(&new);
        pic.trace_at(&new, xres, &init, &trace);
        cells = busy.iter().flat_map(Cell::children).collect();
        if let Some(p) = progress {
            // Each level of refinement stands for half the scanlines left.
            let share = if cells.is_empty() {
                yres - rows_done
            } else {
                (yres - rows_done) / 2
            };
            p(share as u64);
            rows_done += share;
        }
    }
    for c in &smooth {
        c.interpolate(&mut pic, xres);
    }
    (pic.colour, pic.dist)
}

/// The picture being refined: colours and distances (traced or interpolated), which pixels
/// were traced, and which hold a value a cell corner may use (traced, or interpolated along
/// an edge whose ends agree).
struct Traced {
    colour: Vec<[f32; 3]>,
    dist: Vec<f32>,
    traced: Vec<bool>,
    known: Vec<bool>,
}

impl Traced {
    fn new(n: usize) -> Traced {
        Traced {
            colour: vec![[0.0; 3]; n],
            dist: vec![0.0; n],
            traced: vec![false; n],
            known: vec![false; n],
        }
    }

    /// Sets pixel `km` at `m` on the edge from `a` (pixel `ka`) to `b` (`kb`) linearly.
    fn between(
        &mut self,
        km: usize,
        ka: usize,
        kb: usize,
        a: (usize, usize),
        b: (usize, usize),
        m: (usize, usize),
    ) {
        let len = (b.0 - a.0).max(b.1 - a.1) as f32;
        let t = (m.0 - a.0).max(m.1 - a.1) as f32 / len;
        let (ca, cb) = (self.colour[ka], self.colour[kb]);
        self.colour[km] = std::array::from_fn(|i| ca[i] * (1.0 - t) + cb[i] * t);
        self.dist[km] = self.dist[ka] * (1.0 - t) + self.dist[kb] * t;
        self.known[km] = true;
    }

    fn sample(&self, k: usize) -> Sample {
        (self.colour[k], self.dist[k] as f64)
    }

    /// Traces the pixels `at` (indices into the picture) in parallel and stores them.
    fn trace_at<S, I, F>(&mut self, at: &[usize], xres: usize, init: &I, trace: &F)
    where
        I: Fn() -> S + Sync + Send,
        F: Fn(&mut S, usize, usize) -> Sample + Sync,
    {
        let got: Vec<Sample> = at
            .par_iter()
            .map_init(init, |st, &k| trace(st, k % xres, k / xres))
            .collect();
        for (&k, (c, d)) in at.iter().zip(got) {
            self.colour[k] = c;
            self.dist[k] = d as f32;
            self.traced[k] = true;
            self.known[k] = true;
        }
    }
}

/// A block of the picture between four traced corners: `[x0, x1, y0, y1]`, inclusive.
#[derive(Clone, Copy, Debug)]
struct Cell([usize; 4]);

impl Cell {
    /// Top left, top right, bottom left, bottom right.
    fn corners(&self) -> [(usize, usize); 4] {
        let [x0, x1, y0, y1] = self.0;
        [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
    }

    /// Whether pixels lie between the corners.
    fn splits(&self) -> bool {
        let [x0, x1, y0, y1] = self.0;
        x1 - x0 > 1 || y1 - y0 > 1
    }

    /// The split lines: halfway, or the edge itself where the cell is one pixel across.
    fn mid(&self) -> (usize, usize) {
        let [x0, x1, y0, y1] = self.0;
        (x0 + (x1 - x0) / 2, y0 + (y1 - y0) / 2)
    }

    /// The four edges, each from its top or left end.
    fn edges(&self) -> [((usize, usize), (usize, usize)); 4] {
        let [x0, x1, y0, y1] = self.0;
        [
            ((x0, y0), (x1, y0)),
            ((x0, y1), (x1, y1)),
            ((x0, y0), (x0, y1)),
            ((x1, y0), (x1, y1)),
        ]
    }

    /// The up to four cells a split makes (none of zero width).
    fn children(&self) -> Vec<Cell> {
        let [x0, x1, y0, y1] = self.0;
        let (xm, ym) = self.mid();
        let xs: &[(usize, usize)] = if xm > x0 {
            &[(x0, xm), (xm, x1)]
        } else {
            &[(x0, x1)]
        };
        let ys: &[(usize, usize)] = if ym > y0 {
            &[(y0, ym), (ym, y1)]
        } else {
            &[(y0, y1)]
        };
        ys.iter()
            .flat_map(|&(a, b)| xs.iter().map(move |&(l, r)| Cell([l, r, a, b])))
            .collect()
    }

    /// Fills the pixels of this cell that were not traced bilinearly from its corners, colours
    /// and distances alike (rpict interpolates its z-buffer with the picture).
    fn interpolate(&self, pic: &mut Traced, xres: usize) {
        let [x0, x1, y0, y1] = self.0;
        let c = self.corners().map(|(x, y)| pic.colour[y * xres + x]);
        let z = self.corners().map(|(x, y)| pic.dist[y * xres + x]);
        for y in y0..=y1 {
            let v = (y - y0) as f32 / (y1 - y0).max(1) as f32;
            for x in x0..=x1 {
                let k = y * xres + x;
                if pic.traced[k] {
                    continue;
                }
                let u = (x - x0) as f32 / (x1 - x0).max(1) as f32;
                pic.colour[k] = std::array::from_fn(|i| {
                    let top = c[0][i] * (1.0 - u) + c[1][i] * u;
                    let bottom = c[2][i] * (1.0 - u) + c[3][i] * u;
                    top * (1.0 - v) + bottom * v
                });
                let top = z[0] * (1.0 - u) + z[1] * u;
                let bottom = z[2] * (1.0 - u) + z[3] * u;
                pic.dist[k] = top * (1.0 - v) + bottom * v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn smooth_pictures_are_interpolated_and_edges_traced() {
        // A linear ramp (colour and distance) is interpolated exactly from the corners; a step
        // is traced in full.
        let (w, h) = (37, 23);
        let ramp = |x: usize, y: usize| {
            (
                [1.0 + x as f32 * 0.002 + y as f32 * 0.004; 3],
                5.0 + x as f64 * 0.01 - y as f64 * 0.02,
            )
        };
        let traced = AtomicUsize::new(0);
        let (img, z) = fill(
            w,
            h,
            (4, 0.05),
            || (),
            |_, x, y| {
                traced.fetch_add(1, Ordering::Relaxed);
                ramp(x, y)
            },
            |_| {},
            None,
        );
        for y in 0..h {
            for x in 0..w {
                assert!(
                    (img[y * w + x][0] - ramp(x, y).0[0]).abs() < 1e-5,
                    "{x} {y}"
                );
                assert!(
                    (z[y * w + x] as f64 - ramp(x, y).1).abs() < 1e-5,
                    "{x} {y}: distance {} interpolated as the colour",
                    z[y * w + x]
                );
            }
        }
        assert!(
            traced.load(Ordering::Relaxed) < w * h / 8,
            "interpolated, not traced"
        );

        let step = |x: usize, _y: usize| ([if x < 18 { 1.0 } else { 5.0 }; 3], 5.0);
        let traced = std::sync::Mutex::new(Vec::new());
        let mut heard = Vec::new();
        let (img, _) = fill(
            w,
            h,
            (4, 0.05),
            || (),
            |_, x, y| {
                traced.lock().unwrap().push(y * w + x);
                step(x, y)
            },
            |at| heard.extend_from_slice(at),
            None,
        );
        for y in 0..h {
            for x in 0..w {
                assert_eq!(img[y * w + x], step(x, y).0, "{x} {y}: the edge is traced");
            }
        }
        // Every pixel traced after the first grid was announced to `refine` first, once.
        let grid = corners(w, 4).len() * corners(h, 4).len();
        let mut traced = traced.into_inner().unwrap();
        traced.sort_unstable();
        let mut sorted = heard.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), heard.len(), "announced once");
        assert_eq!(traced.len(), grid + heard.len());
        assert!(sorted.iter().all(|k| traced.binary_search(k).is_ok()));
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
            |_| {},
            None,
        );
        assert_eq!(n.load(Ordering::Relaxed), 63);
    }
}
