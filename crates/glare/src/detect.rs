//! Glare-source detection on a picture, as evalglare 3.06 does it: a first scan that collects
//! pixels brighter than the threshold into sources (joining a pixel to a source found within
//! the search radius), a second scan that merges neighbouring sources into the larger one
//! until nothing changes, optional smoothing (pixels mostly surrounded by a source join it),
//! and peak extraction (pixels above the peak limit split off into sources of their own).
//!
//! The order of visits (columns left to right, rows bottom to top), the running averages and
//! the search patterns are evalglare's, so the same pixels end in the same sources. What is
//! faster here: the angular test is a dot-product threshold computed once instead of an
//! `acos` per pixel pair, a merge moves only the merged source's pixels (kept in per-source
//! lists) instead of rescanning the picture, and the smoothing test runs in parallel (its
//! outcome depends only on the primary pixels, which smoothing does not change).

use crate::geometry::{acos_threshold, dot};
use crate::picture::{luminance, HAS_DIR, VALID};
use glam::DVec3;
use rayon::prelude::*;

/// One glare source while it is being built.
#[derive(Debug, Clone, Default)]
pub(crate) struct Src {
    pub npix: f64,
    pub posx: f64,
    pub posy: f64,
    pub lum: f64,
    pub omega: f64,
    pub lum_min: f64,
    pub lum_max: f64,
    pub eglare: f64,
    /// Pixels (linear indices) that were given this source; may hold pixels since moved on.
    pixels: Vec<u32>,
    sorted: bool,
}

/// The detector's state: per-pixel source numbers and the sources (slot 0 is "none").
pub(crate) struct Detector<'a> {
    w: i32,
    h: i32,
    dir: &'a [DVec3],
    omega: &'a [f64],
    flags: &'a [u8],
    /// Pixel colours: luminance is taken from them as evalglare takes it.
    colour: &'a [[f32; 3]],
    pub gsn: Vec<u32>,
    pub pgs: Vec<bool>,
    pub src: Vec<Src>,
    /// Dot-product threshold equivalent to `2 acos(d) <= r` for the search radius.
    near: f64,
    pub lum_total_max: f64,
}

/// What steers detection (evalglare's `-r -s -y/-x -Y`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DetectParams {
    pub lum_source: f64,
    pub max_angle: f64,
    pub search_pix: f64,
    pub r_center: f64,
    pub smoothing: bool,
    pub split: bool,
    pub limit: f32,
}

impl<'a> Detector<'a> {
    pub fn new(
        w: usize,
        h: usize,
        dir: &'a [DVec3],
        omega: &'a [f64],
        flags: &'a [u8],
        colour: &'a [[f32; 3]],
        max_angle: f64,
    ) -> Detector<'a> {
        // evalglare passes the radius to its search as a float.
        let r = max_angle as f32 as f64;
        Detector {
            w: w as i32,
            h: h as i32,
            dir,
            omega,
            flags,
            colour,
            gsn: vec![0; w * h],
            pgs: vec![false; w * h],
            src: vec![Src::default()],
            near: acos_threshold(r / 2.0),
            lum_total_max: 0.0,
        }
    }

    #[inline]
    fn idx(&self, x: i32, y: i32) -> usize {
        (x * self.h + y) as usize
    }

    #[inline]
    fn lum(&self, i: usize) -> f64 {
        luminance(self.colour[i])
    }

    #[inline]
    fn valid(&self, i: usize) -> bool {
        self.flags[i] & (HAS_DIR | VALID) == HAS_DIR | VALID
    }

    #[inline]
    fn within(&self, a: DVec3, i: usize, thr: f64) -> bool {
        let d = dot(a, self.dir[i]);
        d >= thr && d <= 1.0
    }

    fn new_source(&mut self, lum_min: f64) -> u32 {
        self.src.push(Src {
            lum_min,
            sorted: true,
            ..Src::default()
        });
        (self.src.len() - 1) as u32
    }

    /// evalglare's `add_pixel_to_gs`: running averages weighted by solid angle (luminance)
    /// and by luminance × solid angle (position).
    fn add_pixel(&mut self, x: i32, y: i32, g: u32) {
        let i = self.idx(x, y);
        let act_omega = self.omega[i];
        let act_lum = self.lum(i);
        let s = &mut self.src[g as usize];
        s.npix += 1.0;
        let (op, oq, ol, oo) = (s.posx, s.posy, s.lum, s.omega);
        let new_omega = oo + act_omega;
        s.lum = (ol * oo + act_lum * act_omega) / new_omega;
        // The products in the order the reference evalglare binary evaluates them.
        let den = ol * oo + act_lum * act_omega;
        s.posx = (op * ol * oo + x as f64 * act_omega * act_lum) / den;
        s.posy = (oq * ol * oo + y as f64 * act_omega * act_lum) / den;
        s.omega = new_omega;
        if act_lum < s.lum_min {
            s.lum_min = act_lum;
        }
        if act_lum > s.lum_max {
            s.lum_max = act_lum;
        }
        if s.sorted && s.pixels.last().is_some_and(|&l| l as usize >= i) {
            s.sorted = false;
        }
        s.pixels.push(i as u32);
        self.gsn[i] = g;
    }

    /// evalglare's `split_pixel_from_gs`: takes the pixel out of its source's averages and
    /// adds it to source `g`.
    fn split_pixel(&mut self, x: i32, y: i32, g: u32) {
        let i = self.idx(x, y);
        let old = self.gsn[i] as usize;
        let act_omega = self.omega[i];
        let act_lum = self.lum(i);
        let s = &mut self.src[old];
        s.npix -= 1.0;
        let (op, oq, oo) = (s.posx, s.posy, s.omega);
        let new_omega = oo - act_omega;
        s.omega = new_omega;
        let ol = s.lum;
        s.lum = (ol * oo - act_lum * act_omega) / new_omega;
        let den = ol * oo - act_lum * act_omega;
        s.posx = (op * oo * ol - x as f64 * act_omega * act_lum) / den;
        s.posy = (oq * oo * ol - y as f64 * act_omega * act_lum) / den;
        self.add_pixel(x, y, g);
    }

    /// The pixels currently in source `g`, in evalglare's visiting order.
    fn members(&mut self, g: u32) -> Vec<u32> {
        let gsn = &self.gsn;
        let s = &mut self.src[g as usize];
        if !s.sorted {
            s.pixels.sort_unstable();
            s.pixels.dedup();
            s.sorted = true;
        }
        s.pixels.retain(|&p| gsn[p as usize] == g);
        s.pixels.clone()
    }

    /// evalglare's `find_near_pgs`. With `act_gsn == 0` (first scan): the source of a glare
    /// pixel within the search radius among the columns already scanned, or 0. Otherwise:
    /// merges the pixel's source into a larger one found within the radius (numbers in
    /// `min_gsn..=max_gsn`) and returns the pixel's source afterwards.
    fn find_near(&mut self, x: i32, y: i32, act_gsn: u32, max_gsn: u32, min_gsn: u32) -> u32 {
        let x_max = if act_gsn == 0 { x } else { self.w - 1 };
        let y_max = self.h - 1;
        let here = self.idx(x, y);
        let old_gsn = self.gsn[here];
        let mut new_gsn = old_gsn;
        let mut change = false;
        let mut i_near = if act_gsn > 0 { old_gsn } else { 0 };
        let d0 = self.dir[here];
        let near = self.near;
        for iiy in 1..=2 {
            let dy = iiy * 2 - 3;
            let mut iy = if dy == -1 { y } else { y + 1 };
            let mut ixm = [0i32, x, x];
            let mut stop_y = false;
            while iy <= y_max && iy >= 0 && !stop_y {
                for iix in 1..=2usize {
                    let dx = iix as i32 * 2 - 3;
                    let mut ix = (ixm[1] + ixm[2]) / 2;
                    let mut stop_x = false;
                    while ix <= x_max && ix >= 0 && !stop_x && !stop_y {
                        let j = self.idx(ix, iy);
                        if self.within(d0, j, near) {
                            let g = self.gsn[j];
                            if g > 0 {
                                if act_gsn == 0 {
                                    i_near = g;
                                    stop_x = true;
                                    stop_y = true;
                                } else {
                                    let so = &self.src;
                                    if so[old_gsn as usize].omega < so[g as usize].omega
                                        && so[g as usize].omega > so[new_gsn as usize].omega
                                        && g >= min_gsn
                                        && g <= max_gsn
                                    {
                                        new_gsn = g;
                                        change = true;
                                        stop_x = true;
                                        stop_y = true;
                                    }
                                }
                            }
                        } else {
                            ixm[iix] = ix - dx;
                            stop_x = true;
                        }
                        ix += dx;
                    }
                }
                iy += dy;
            }
        }
        if change {
            let s = &mut self.src[old_gsn as usize];
            s.lum = 0.0;
            s.omega = 0.0;
            s.npix = 0.0;
            s.lum_max = 0.0;
            i_near = new_gsn;
            let h = self.h as u32;
            for p in self.members(old_gsn) {
                self.add_pixel((p / h) as i32, (p % h) as i32, new_gsn);
            }
            self.src[old_gsn as usize].pixels.clear();
        }
        i_near
    }

    /// evalglare's `find_split`: a peak source (numbers `start..=end`) within radius `thr`
    /// (as a dot threshold) of the pixel, the last one met, or 0. Like evalglare it searches
    /// columns only up to the picture's height.
    fn find_split(&self, x: i32, y: i32, thr: f64, start: u32, end: u32) -> u32 {
        let mut found = 0;
        let x_max = (self.h - 1).min(self.w - 1);
        let y_max = self.h - 1;
        let d0 = self.dir[self.idx(x, y)];
        for iiy in 1..=2 {
            let dy = iiy * 2 - 3;
            let mut iy = if dy == -1 { y } else { y + 1 };
            while iy <= y_max && iy >= 0 {
                let mut out_r = false;
                for iix in 1..=2 {
                    let dx = iix * 2 - 3;
                    let mut ix = if dx == -1 { x } else { x + 1 };
                    while ix <= x_max && ix >= 0 {
                        let j = self.idx(ix, iy);
                        if self.within(d0, j, thr) {
                            out_r = true;
                            let g = self.gsn[j];
                            if g >= start && g <= end {
                                found = g;
                            }
                            ix += dx;
                        } else {
                            break;
                        }
                    }
                }
                if !out_r {
                    break;
                }
                iy += dy;
            }
        }
        found
    }

    /// Runs the whole detection; returns `igs`, the number of source slots made.
    pub fn run(&mut self, p: &DetectParams) -> u32 {
        let (w, h) = (self.w, self.h);
        let mut igs: u32 = 0;
        // First scan.
        let mut actual: u32 = 0;
        let mut primary: Vec<u32> = Vec::new();
        for x in 0..w {
            let mut last = 0u32;
            for y in 0..h {
                let i = self.idx(x, y);
                if !self.valid(i) {
                    continue;
                }
                let l = self.lum(i);
                if l > p.lum_source {
                    if l > self.lum_total_max {
                        self.lum_total_max = l;
                    }
                    if last == 0 || p.search_pix <= 1.0 {
                        actual = self.find_near(x, y, 0, igs, 1);
                    }
                    if actual == 0 {
                        igs = self.new_source(f64::INFINITY);
                        actual = igs;
                    }
                    self.gsn[i] = actual;
                    self.pgs[i] = true;
                    self.add_pixel(x, y, actual);
                    primary.push(i as u32);
                    last = actual;
                } else {
                    self.pgs[i] = false;
                    last = 0;
                }
            }
        }
        // Second scan: merge sources that face each other, until nothing changes.
        if p.search_pix > 1.0 {
            // A pixel none of whose neighbours within the radius belongs to another source of
            // the first scan can never merge anything (merges only join whole sources), so
            // its searches are skipped.
            // Only pixels near another first-scan source can ever merge anything; the rest are
            // visited in vain by evalglare.
            let cand = self.neighbours(&primary, p.max_angle as f32 as f64 / 2.0);
            // The current source of each first-scan source.
            let mut cur: Vec<u32> = (0..=igs).collect();
            let mut change = true;
            while change {
                change = false;
                for (pi, near) in &cand {
                    let pi = *pi;
                    let here = self.gsn[pi as usize];
                    if near.iter().all(|&b| cur[b as usize] == here) {
                        continue;
                    }
                    let (x, y) = ((pi / h as u32) as i32, (pi % h as u32) as i32);
                    let i = pi as usize;
                    let before = self.gsn[i];
                    let mut check = true;
                    if x > 1 && x < w - 2 && y > 1 && y < h - 2 {
                        let g = |dx: i32, dy: i32| self.gsn[self.idx(x + dx, y + dy)];
                        if [
                            (-1, 0),
                            (1, 0),
                            (0, -1),
                            (0, 1),
                            (-1, -1),
                            (1, -1),
                            (-1, 1),
                            (1, 1),
                        ]
                        .iter()
                        .all(|&(a, b)| g(a, b) == before)
                        {
                            check = false;
                        }
                    }
                    if before > 0 && check {
                        let after = self.find_near(x, y, before, igs, 1);
                        if after != before {
                            change = true;
                            for c in cur.iter_mut() {
                                if *c == before {
                                    *c = after;
                                }
                            }
                        }
                    }
                }
            }
        }
        let i_max = igs;
        if p.smoothing {
            self.smooth(p, i_max);
        }
        if p.split && self.lum_total_max > p.limit as f64 {
            let thr = acos_threshold(p.max_angle / 2.0 / 2.0);
            let limit = p.limit as f64;
            let hh = h as u32;
            for i in 1..=i_max {
                if self.src[i as usize].npix <= 0.0 {
                    continue;
                }
                let l_max = self.src[i as usize].lum_max;
                let start = igs + 1;
                if l_max >= limit {
                    for pix in self.members(i) {
                        let (x, y) = ((pix / hh) as i32, (pix % hh) as i32);
                        let k = pix as usize;
                        if !(self.valid(k) && self.lum(k) >= limit && self.gsn[k] == i) {
                            continue;
                        }
                        let mut s = if start == igs + 1 {
                            igs = self.new_source(99999999999999.999);
                            igs
                        } else {
                            self.find_split(x, y, thr, start, igs)
                        };
                        if s == 0 {
                            igs = self.new_source(99999999999999.999);
                            s = igs;
                        }
                        self.split_pixel(x, y, s);
                    }
                }
                if igs < start {
                    continue;
                }
                // Merge the new peak sources among themselves.
                let mut set: Vec<u32> = (start..=igs).flat_map(|g| self.members(g)).collect();
                set.sort_unstable();
                let mut change = true;
                while change {
                    change = false;
                    for &pix in &set {
                        let k = pix as usize;
                        let before = self.gsn[k];
                        if before >= start && self.valid(k) {
                            let (x, y) = ((pix / hh) as i32, (pix % hh) as i32);
                            if self.find_near(x, y, before, igs, start) != before {
                                change = true;
                            }
                        }
                    }
                }
            }
        }
        igs
    }

    /// For each pixel of `primary` (labelled by the first scan), the other first-scan sources
    /// that may have pixels within angle `theta` of it: a superset found with bounding cones
    /// of each source's pixels per tile and the spherical triangle inequality (with a margin
    /// well above rounding). A search from a pixel all of whose listed sources have since
    /// been merged into its own can change nothing (merges join whole sources).
    fn neighbours(&self, primary: &[u32], theta: f64) -> Vec<(u32, Vec<u32>)> {
        let (w, h) = (self.w as usize, self.h as usize);
        let t = 16.max(w.max(h).div_ceil(64));
        let (tw, th) = (w.div_ceil(t), h.div_ceil(t));
        let tile = |i: usize| (i / h / t) * th + (i % h) / t;
        // Cones per (tile, source): sum of directions, then the largest angle to the axis.
        // Keys are numbered per tile in order of appearance (a tile holds few sources).
        let mut tile_keys: Vec<Vec<(u32, usize)>> = vec![Vec::new(); tw * th];
        let mut keys: Vec<(usize, u32)> = Vec::new();
        let key_of: Vec<u32> = primary
            .iter()
            .map(|&pi| {
                let (t, g) = (tile(pi as usize), self.gsn[pi as usize]);
                match tile_keys[t].iter().find(|e| e.0 == g) {
                    Some(e) => e.1 as u32,
                    None => {
                        keys.push((t, g));
                        tile_keys[t].push((g, keys.len() - 1));
                        (keys.len() - 1) as u32
                    }
                }
            })
            .collect();
        let mut axis = vec![DVec3::ZERO; keys.len()];
        for (&pi, &k) in primary.iter().zip(&key_of) {
            axis[k as usize] += self.dir[pi as usize];
        }
        for a in axis.iter_mut() {
            *a = a.normalize_or_zero();
        }
        // The widest angle from the axis, as the smallest cosine.
        let mut min_cos = vec![1.0f64; keys.len()];
        for (&pi, &k) in primary.iter().zip(&key_of) {
            let (d, k) = (self.dir[pi as usize], k as usize);
            min_cos[k] = min_cos[k].min(d.dot(axis[k]) / d.length());
        }
        let half: Vec<f64> = min_cos.iter().map(|c| c.clamp(-1.0, 1.0).acos()).collect();
        // Per (tile, source) cone: the angle within which a pixel may still be near it, its
        // cosine and sine (cones further than that are not near).
        let margin = 1e-7;
        let reach_ang: Vec<f64> = half.iter().map(|&h| h + theta + margin).collect();
        let reach_cs: Vec<(f64, f64)> = reach_ang.iter().map(|a| (a.cos(), a.sin())).collect();
        let reach0: Vec<f64> = reach_ang
            .iter()
            .zip(&reach_cs)
            .map(|(&a, &(c, _))| if a >= std::f64::consts::PI { -2.0 } else { c })
            .collect();
        // Cones per tile (all sources) and, per tile, the (tile, source) cones near it.
        let mut tax = vec![DVec3::ZERO; tw * th];
        for (k, key) in keys.iter().enumerate() {
            tax[key.0] += axis[k];
        }
        for a in tax.iter_mut() {
            *a = a.normalize_or_zero();
        }
        let mut thalf = vec![0.0f64; tw * th];
        for (k, key) in keys.iter().enumerate() {
            let a = axis[k].dot(tax[key.0]).clamp(-1.0, 1.0).acos() + half[k];
            thalf[key.0] = thalf[key.0].max(a);
        }
        // A tile and a cone are near when the angle between their axes is at most the sum of
        // the tile's half-angle and the cone's reach: cos(a + b) = cos a cos b − sin a sin b.
        let near_keys: Vec<Vec<usize>> = (0..tw * th)
            .into_par_iter()
            .map(|a| {
                if tax[a] == DVec3::ZERO {
                    return Vec::new();
                }
                let (ca, sa) = (thalf[a].cos(), thalf[a].sin());
                (0..keys.len())
                    .filter(|&k| {
                        thalf[a] + reach_ang[k] >= std::f64::consts::PI
                            || axis[k].dot(tax[a]) >= ca * reach_cs[k].0 - sa * reach_cs[k].1
                    })
                    .collect()
            })
            .collect();
        // Per tile and source in it, the cones of the other sources near the tile.
        let others: Vec<Vec<(u32, Vec<usize>)>> = tile_keys
            .par_iter()
            .zip(near_keys)
            .map(|(here, near)| {
                here.iter()
                    .map(|&(g, _)| {
                        (
                            g,
                            near.iter().copied().filter(|&k| keys[k].1 != g).collect(),
                        )
                    })
                    .collect()
            })
            .collect();
        // Only the pixels with another source near them, in order.
        primary
            .par_iter()
            .filter_map(|&pi| {
                let g = self.gsn[pi as usize];
                let cands = &others[tile(pi as usize)].iter().find(|e| e.0 == g)?.1;
                if cands.is_empty() {
                    return None;
                }
                let d = self.dir[pi as usize];
                let inv = 1.0 / d.length();
                let mut out: Vec<u32> = cands
                    .iter()
                    .filter(|&&k| d.dot(axis[k]) * inv >= reach0[k])
                    .map(|&k| keys[k].1)
                    .collect();
                if out.is_empty() {
                    return None;
                }
                out.sort_unstable();
                out.dedup();
                Some((pi, out))
            })
            .collect()
    }

    /// evalglare's smoothing (`-s`): a pixel outside every source joins each source whose
    /// primary pixels cover more than 20% of the solid angle of the disc around it.
    fn smooth(&mut self, p: &DetectParams, i_max: u32) {
        let (w, h) = (self.w, self.h);
        let r = (p.max_angle / p.r_center / 1.75) as f32;
        // Prefix sums of primary pixels, to skip pixels with none nearby.
        let hp = (h + 1) as usize;
        let mut sum = vec![0u32; (w as usize + 1) * hp];
        for x in 0..w as usize {
            for y in 0..h as usize {
                let v = self.pgs[x * h as usize + y] as u32;
                sum[(x + 1) * hp + y + 1] =
                    v + sum[x * hp + y + 1] + sum[(x + 1) * hp + y] - sum[x * hp + y];
            }
        }
        let bounds = |c: i32, n: i32| -> (i32, i32) {
            let mut lo = (c as f32 - r) as i32;
            if lo < 0 {
                lo = 0;
            }
            let mut hi = (c as f32 + r) as i32;
            if hi > n - 1 {
                hi = n - 2;
            }
            (lo, hi)
        };
        let this = &*self;
        let joins: Vec<(u32, Vec<u32>)> = (0..(w * h) as u32)
            .into_par_iter()
            .filter_map(|pix| {
                let i = pix as usize;
                if !this.valid(i) || this.gsn[i] != 0 {
                    return None;
                }
                let (x, y) = ((pix / h as u32) as i32, (pix % h as u32) as i32);
                let (x0, x1) = bounds(x, w);
                let (y0, y1) = bounds(y, h);
                if x1 < x0 || y1 < y0 {
                    return None;
                }
                let s = |a: i32, b: i32| sum[a as usize * hp + b as usize];
                if s(x1 + 1, y1 + 1) + s(x0, y0) - s(x0, y1 + 1) - s(x1 + 1, y0) == 0 {
                    return None;
                }
                let mut total = 0.0;
                let mut per: Vec<(u32, f64)> = Vec::new();
                for ix in x0..=x1 {
                    for iy in y0..=y1 {
                        let d2 = (x - ix) * (x - ix) + (y - iy) * (y - iy);
                        if ((d2 as f64).sqrt()) <= r as f64 {
                            let j = this.idx(ix, iy);
                            let om = this.omega[j];
                            total += om;
                            if this.pgs[j] {
                                let g = this.gsn[j];
                                match per.iter_mut().find(|e| e.0 == g) {
                                    Some(e) => e.1 += om,
                                    None => per.push((g, om)),
                                }
                            }
                        }
                    }
                }
                let mut gs: Vec<u32> = per
                    .into_iter()
                    .filter(|&(g, o)| g >= 1 && g <= i_max && o / total > 0.2)
                    .map(|e| e.0)
                    .collect();
                gs.sort_unstable();
                (!gs.is_empty()).then_some((pix, gs))
            })
            .collect();
        for (pix, gs) in joins {
            let (x, y) = ((pix / h as u32) as i32, (pix % h as u32) as i32);
            for g in gs {
                if self.src[g as usize].npix > 0.0 {
                    self.add_pixel(x, y, g);
                }
            }
        }
    }
}
