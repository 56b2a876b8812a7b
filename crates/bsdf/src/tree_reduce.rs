//! A full grid of BSDF samples reduced to a tensor tree, as RADIANCE 6.0a's `rttree_reduce`
//! does it (the step between `bsdf2ttree`'s or genBSDF's sampling and the XML).
//!
//! The grid has 2^log2 cells along each of 3 (isotropic: incident position, then exiting x,
//! y; only the lower half of the first axis is given) or 4 (anisotropic: incident x, y,
//! exiting x, y) axes, the first axis varying slowest. Negative values and NaNs are taken as
//! 0. Every node of the complete tree keeps the least, greatest and mean value below it (in
//! single precision, summed in RADIANCE's order, so the same nodes are cut); a node varies
//! enough to keep its children when `sqrt((max - min) / (sqrt(mean) + 0.03))` exceeds a
//! threshold chosen so that `pctcull` percent of the nodes just above the grid's cells fall
//! below it (a histogram of 300 bins over 0..4). A node that does not is written as its mean
//! (`%.6e`); a node just above the cells that does is written as its 2^n cells (`%.7f` from
//! 0.001 to 10, `%.3e` otherwise). Children are written with the first axis varying fastest
//! (RADIANCE's order, which its reader follows), the cells of a leaf with it slowest. The
//! text is byte for byte `rttree_reduce`'s.

use crate::BsdfError;
use daylit_radfile::printf::format_e;
use std::fmt::Write as _;

/// The number encoding of a grid read by [`TreeGrid::read`] (`rttree_reduce -fa|-ff|-fd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridFormat {
    /// White-space separated decimal numbers.
    Ascii,
    /// 4-byte floats in the machine's order.
    Float,
    /// 8-byte doubles in the machine's order.
    Double,
}

/// The most values a grid may hold (1 GiB of floats): `-g 7` for a 4-D tree, `-g 9` for 3-D.
pub const MAX_GRID_VALUES: u64 = 1 << 28;

/// A complete grid of samples for one tensor-tree component.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeGrid {
    rank: usize,
    log2: u32,
    values: Vec<f32>,
}

/// Histogram bins of the variation measure, and the measure the last bin starts at.
const HIST_LEN: usize = 300;
const HIST_MAX: f64 = 4.0;

/// Statistics of one node of the complete tree.
#[derive(Clone, Copy)]
struct Stats {
    min: f32,
    max: f32,
    avg: f32,
}

impl Stats {
    fn new() -> Stats {
        Stats {
            min: 1e20,
            max: 0.0,
            avg: 0.0,
        }
    }

    fn add(&mut self, v: f32, min: f32, max: f32) {
        if min < self.min {
            self.min = min;
        }
        if max > self.max {
            self.max = max;
        }
        self.avg += v;
    }

    /// `rttree_reduce`'s measure of how much the node varies.
    fn variation(&self) -> f64 {
        (f64::from(self.max - self.min) / (f64::from(self.avg).sqrt() + 0.03)).sqrt()
    }
}

impl TreeGrid {
    /// Checks a grid's rank (3 or 4) and resolution (2^log2 cells a side, log2 at least 2
    /// and the whole grid at most [`MAX_GRID_VALUES`]); the message names what is wrong.
    pub fn check_size(rank: usize, log2: u32) -> Result<(), String> {
        if rank != 3 && rank != 4 {
            return Err(format!("tensor rank {rank}: 3 or 4 expected"));
        }
        if log2 < 2 {
            return Err(format!(
                "grid resolution 2^{log2}: log2 of at least 2 expected"
            ));
        }
        if u64::from(log2) * rank as u64 > u64::from(MAX_GRID_VALUES.trailing_zeros()) {
            return Err(format!(
                "grid resolution 2^{log2} in {rank} dimensions: more than {MAX_GRID_VALUES} \
                 values"
            ));
        }
        Ok(())
    }

    /// How many values a caller gives: the whole grid (4-D) or its first half (3-D).
    pub fn input_len(rank: usize, log2: u32) -> usize {
        let n = 1usize << (log2 as usize * rank);
        if rank == 3 {
            n / 2
        } else {
            n
        }
    }

    /// The grid of `values` ([`TreeGrid::input_len`] of them, the first axis slowest; a 3-D
    /// grid's upper half is 0), negative values and NaNs made 0. Also the number of NaNs.
    pub fn from_values(
        rank: usize,
        log2: u32,
        mut values: Vec<f32>,
    ) -> Result<(TreeGrid, usize), String> {
        TreeGrid::check_size(rank, log2)?;
        let want = TreeGrid::input_len(rank, log2);
        if values.len() != want {
            return Err(format!(
                "{} grid values given, {want} expected",
                values.len()
            ));
        }
        values.resize(1 << (log2 as usize * rank), 0.0);
        let mut nans = 0;
        for v in &mut values {
            if v.is_nan() {
                *v = 0.0;
                nans += 1;
            } else if *v < 0.0 {
                *v = 0.0;
            }
        }
        Ok((TreeGrid { rank, log2, values }, nans))
    }

    /// Reads a grid from `input` (named `name` in errors) in `format`, as `rttree_reduce`
    /// does; also the warnings it prints (data past the end, NaN values).
    pub fn read(
        input: &[u8],
        format: GridFormat,
        rank: usize,
        log2: u32,
        name: &str,
    ) -> Result<(TreeGrid, Vec<String>), BsdfError> {
        TreeGrid::check_size(rank, log2).map_err(|m| BsdfError::new(name, None, m))?;
        let want = TreeGrid::input_len(rank, log2);
        let mut values = Vec::with_capacity(want);
        let mut warnings = Vec::new();
        match format {
            GridFormat::Ascii => {
                let text = String::from_utf8_lossy(input);
                let mut words = Words::new(&text);
                while values.len() < want {
                    let Some((line, w)) = words.next() else {
                        return Err(BsdfError::new(
                            name,
                            Some(words.line),
                            format!(
                                "unexpected end of ascii input: {want} values expected, {} found",
                                values.len()
                            ),
                        ));
                    };
                    let v = parse_f32(w).ok_or_else(|| {
                        BsdfError::new(name, Some(line), format!("expected a number, found '{w}'"))
                    })?;
                    values.push(v);
                }
                if words.next().is_some() {
                    warnings.push("warning - data past end of expected input".to_string());
                }
            }
            GridFormat::Float | GridFormat::Double => {
                let size = if format == GridFormat::Float { 4 } else { 8 };
                let have = input.len() / size;
                if have < want {
                    let kind = if size == 4 { "float" } else { "double" };
                    return Err(BsdfError::new(
                        name,
                        None,
                        format!(
                            "unexpected end of {kind} input: {want} values expected, {have} found"
                        ),
                    ));
                }
                for c in input[..want * size].chunks_exact(size) {
                    values.push(if size == 4 {
                        f32::from_ne_bytes(c.try_into().expect("4 bytes"))
                    } else {
                        f64::from_ne_bytes(c.try_into().expect("8 bytes")) as f32
                    });
                }
                if input.len() > want * size {
                    warnings.push("warning - binary data past end of expected input".to_string());
                }
            }
        }
        let (grid, nans) =
            TreeGrid::from_values(rank, log2, values).map_err(|m| BsdfError::new(name, None, m))?;
        if nans > 0 {
            warnings.push(format!("Warning: BSDF data contains {nans} NaN values"));
        }
        Ok((grid, warnings))
    }

    /// The tensor rank, 3 or 4.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// log2 of the cells along each axis.
    pub fn log2(&self) -> u32 {
        self.log2
    }

    /// All the values, the first axis slowest.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    fn index(&self, c: &[usize]) -> usize {
        c.iter().fold(0, |acc, &x| (acc << self.log2) | x)
    }

    /// Averages the values that Helmholtz reciprocity says are equal (`rttree_reduce -a`),
    /// in RADIANCE's order: for 3-D grids the mirror images across the incident plane, for
    /// 4-D grids each pair of (incident, exiting) cells with its reverse.
    pub fn average_reciprocal(&mut self) {
        let s = 1usize << self.log2;
        let avg = |v: &mut Vec<f32>, a: usize, b: usize| {
            let m = 0.5f32 * (v[a] + v[b]);
            v[a] = m;
            v[b] = m;
        };
        if self.rank == 3 {
            for ix in 0..s / 2 {
                for ox in 0..s {
                    for oy in 0..s / 2 {
                        let a = self.index(&[ix, ox, oy]);
                        let b = self.index(&[ix, ox, s - 1 - oy]);
                        avg(&mut self.values, a, b);
                    }
                }
            }
        } else {
            for ix in 0..s {
                for iy in 0..s {
                    for k in 0..ix * s + iy {
                        let (ox, oy) = (k / s, k % s);
                        let a = self.index(&[s - 1 - ix, s - 1 - iy, ox, oy]);
                        let b = self.index(&[s - 1 - ox, s - 1 - oy, ix, iy]);
                        avg(&mut self.values, a, b);
                    }
                }
            }
        }
    }

    /// The tensor tree's `{ … }` text with `pctcull` percent (0 ≤ `pctcull` < 100) of the
    /// finest nodes merged into their means, as `rttree_reduce -h` writes it.
    pub fn reduce(&self, pctcull: f64) -> String {
        let levels = self.node_stats();
        // The threshold: the measure below which pctcull percent of the finest nodes fall.
        let mut histo = [0usize; HIST_LEN];
        for st in &levels[0] {
            let k = ((HIST_LEN as f64 / HIST_MAX) * st.variation()) as usize;
            histo[k.min(HIST_LEN - 1)] += 1;
        }
        let total: usize = histo.iter().sum();
        let mut left = (pctcull * 0.01 * total as f64) as i64;
        let mut bin = 0;
        while left > 0 {
            left -= histo[bin] as i64;
            bin += 1;
        }
        let threshold = (HIST_MAX / HIST_LEN as f64) * bin as f64;
        let mut out = String::new();
        let top = [0usize; 4];
        self.write_node(&levels, threshold, &top, self.log2, &mut out);
        out
    }

    /// Statistics of every node of the complete tree, finest level (2 cells a side) first,
    /// each level indexed as the grid is by the node's position at its resolution.
    fn node_stats(&self) -> Vec<Vec<Stats>> {
        let r = self.rank;
        let kids = 1usize << r;
        let mut levels: Vec<Vec<Stats>> = Vec::new();
        for l2s in 1..=self.log2 {
            let res_bits = self.log2 - l2s;
            let count = 1usize << (res_bits as usize * r);
            let mut level = Vec::with_capacity(count);
            for n in 0..count {
                // The node's position at its level's resolution, first axis slowest.
                let mut c = [0usize; 4];
                for (j, cj) in c.iter_mut().enumerate().take(r) {
                    *cj = (n >> (res_bits as usize * (r - 1 - j))) & ((1 << res_bits) - 1);
                }
                let mut st = Stats::new();
                for i in (0..kids).rev() {
                    let mut k = [0usize; 4];
                    for j in 0..r {
                        k[j] = 2 * c[j] + ((i >> j) & 1);
                    }
                    if l2s == 1 {
                        let v = self.values[self.index(&k[..r])];
                        st.add(v, v, v);
                    } else {
                        let below = res_bits + 1;
                        let idx = k[..r].iter().fold(0, |acc, &x| (acc << below) | x);
                        let kid = levels[l2s as usize - 2][idx];
                        st.add(kid.avg, kid.min, kid.max);
                    }
                }
                st.avg /= kids as f32;
                level.push(st);
            }
            levels.push(level);
        }
        levels
    }

    /// Writes the node of side 2^`l2s` cells at cell `corner`.
    fn write_node(
        &self,
        levels: &[Vec<Stats>],
        threshold: f64,
        corner: &[usize; 4],
        l2s: u32,
        out: &mut String,
    ) {
        let r = self.rank;
        let indent = "    ".repeat((self.log2 - l2s) as usize);
        let res_bits = (self.log2 - l2s) as usize;
        let idx = corner[..r]
            .iter()
            .fold(0, |acc, &x| (acc << res_bits) | (x >> l2s));
        let st = levels[l2s as usize - 1][idx];
        out.push_str(&indent);
        out.push('{');
        let above = st.variation() > threshold;
        if !above {
            let _ = writeln!(out, " {} }}", format_e(f64::from(st.avg), 6));
            return;
        }
        if l2s == 1 {
            for i in 0..1usize << r {
                let mut k = [0usize; 4];
                for j in 0..r {
                    k[j] = corner[j] + ((i >> (r - 1 - j)) & 1);
                }
                let v = f64::from(self.values[self.index(&k[..r])]);
                if (0.001..10.0).contains(&v) {
                    let _ = write!(out, " {v:.7}");
                } else {
                    out.push(' ');
                    out.push_str(&format_e(v, 3));
                }
            }
            out.push_str(" }\n");
            return;
        }
        out.push('\n');
        let half = 1usize << (l2s - 1);
        for i in 0..1usize << r {
            let mut k = *corner;
            for (j, kj) in k.iter_mut().enumerate().take(r) {
                *kj += ((i >> j) & 1) * half;
            }
            self.write_node(levels, threshold, &k, l2s - 1, out);
        }
        out.push_str(&indent);
        out.push_str("}\n");
    }
}

/// `scanf("%f")`: the number a word starts with, rounded once to single precision.
fn parse_f32(w: &str) -> Option<f32> {
    let (_, len) = daylit_radfile::scan::strtod_prefix(w)?;
    if len != w.len() {
        return None;
    }
    w.parse::<f32>().ok()
}

/// White-space separated words with their line numbers.
struct Words<'a> {
    rest: &'a str,
    line: u32,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Words<'a> {
        Words {
            rest: text,
            line: 1,
        }
    }

    /// The next word; at the end, none, with `line` the last line.
    fn next(&mut self) -> Option<(u32, &'a str)> {
        let Some(start) = self.rest.find(|c: char| !c.is_ascii_whitespace()) else {
            self.line += self.rest.matches('\n').count() as u32;
            self.rest = "";
            return None;
        };
        self.line += self.rest[..start].matches('\n').count() as u32;
        let rest = &self.rest[start..];
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some((self.line, &rest[..end]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_grid_is_one_mean() {
        let (g, _) = TreeGrid::from_values(4, 2, vec![0.25; 256]).unwrap();
        assert_eq!(g.reduce(90.0), "{ 2.500000e-01 }\n");
    }

    #[test]
    fn uncut_grid_lists_every_cell() {
        let vals: Vec<f32> = (0..32).map(|i| i as f32 * 0.5).collect();
        let (g, nans) = TreeGrid::from_values(3, 2, vals).unwrap();
        assert_eq!(nans, 0);
        let t = g.reduce(0.0);
        // Eight children; the lower-half ones (first axis 0) hold the data.
        assert!(t.starts_with("{\n    { 0.000e+00 0.5000000 2.0000000 2.5000000"));
        assert!(t.contains("    { 0.000000e+00 }\n"));
        assert!(t.contains(" 1.000e+01"));
    }

    #[test]
    fn bad_input_is_located() {
        let e = TreeGrid::read(b"1 2\n3 x", GridFormat::Ascii, 3, 2, "in").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = TreeGrid::read(&[0u8; 12], GridFormat::Float, 3, 2, "in").unwrap_err();
        assert!(e.message.contains("32 values expected, 3 found"), "{e}");
        assert!(TreeGrid::check_size(4, 1).is_err());
        assert!(TreeGrid::check_size(4, 8).is_err());
        assert!(TreeGrid::check_size(5, 3).is_err());
    }
}
