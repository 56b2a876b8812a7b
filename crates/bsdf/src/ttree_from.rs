//! Tensor-tree BSDFs made from a function of the incident and exiting directions, as RADIANCE
//! 6.0a's `bsdf2ttree -t3|-t4 … bsdf_func` makes them.
//!
//! Each component is sampled on a full grid of 2^g cells a side and reduced to a tree by
//! [`crate::tree_reduce`] (or, with a negative culling percentage, written whole). The grid
//! is RADIANCE's: the function is taken once at each cell's centre — exiting directions
//! through the Shirley-Chiu square-to-disk map; incident directions the same way for 4-D
//! trees (the square reversed, as Klems's convention has it), and for 3-D trees along the −X
//! axis at the cell's distance from the normal, just off the axis on alternating sides —
//! and a cell that differs by more than the threshold (`|a − b|·2/(a + b + 0.0001)`, 0.35)
//! from its neighbours along the exiting rows (as RADIANCE compares them, some already
//! super-sampled) is replaced by the mean of `n` (64) samples spread over the 4-D cell along a
//! Hilbert curve (`SDmultiSamp`), with RADIANCE's unseeded `drand48` and `rand()` streams.
//! Values are kept in single precision where RADIANCE keeps them so, so the trees agree with
//! RADIANCE's to the printed digits.
//!
//! [`TreeXml::to_xml`] writes the result through [`crate::write`], as `bsdf2ttree` hands its
//! trees to `wrapBSDF -a t3|t4`.

use crate::klems_from::{direction, function_stages, BsdfFunction, RadRandom, Stage};
use crate::multisamp::{multi_samp, CRand};
use crate::tree::square2disk;
use crate::tree_reduce::{TreeGrid, MAX_GRID_VALUES};
use crate::write::{DataBlock, Spectrum, Wrap, WrapBasis};
use crate::Side;
use daylit_radfile::printf::format_e;
use glam::DVec3;

/// Isotropic (`-t3`, `TensorTree3`) or anisotropic (`-t4`, `TensorTree4`) trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeRank {
    /// Three dimensions: the incident direction's angle from the normal, the exiting
    /// direction relative to the incident azimuth.
    Isotropic,
    /// Four dimensions: incident and exiting directions.
    Anisotropic,
}

impl TreeRank {
    /// The number of dimensions, 3 or 4.
    pub fn rank(self) -> usize {
        match self {
            TreeRank::Isotropic => 3,
            TreeRank::Anisotropic => 4,
        }
    }

    fn wrap_basis(self) -> WrapBasis {
        match self {
            TreeRank::Isotropic => WrapBasis::Tree3,
            TreeRank::Anisotropic => WrapBasis::Tree4,
        }
    }
}

/// How the trees are sampled and reduced (`bsdf2ttree`'s options, RADIANCE's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeOptions {
    /// `-t3` / `-t4`.
    pub rank: TreeRank,
    /// `-g`: log2 of the cells along each axis (6).
    pub log2: u32,
    /// `-t`: the percentage of the finest nodes merged (90); negative keeps the whole grid.
    pub pctcull: f64,
    /// `-n`: samples in a super-sampled cell (64).
    pub supersamples: usize,
    /// `-s`: the relative difference from a neighbour that calls for super-sampling (0.35).
    pub threshold: f64,
    /// `+a`: average values related by reciprocity before reducing (isotropic trees, and the
    /// reflection of anisotropic ones).
    pub reciprocity: bool,
}

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions {
            rank: TreeRank::Anisotropic,
            log2: 6,
            pctcull: 90.0,
            supersamples: 64,
            threshold: 0.35,
            reciprocity: false,
        }
    }
}

impl TreeOptions {
    /// Checks the options before any sampling; the message names the option.
    pub fn check(&self) -> Result<(), String> {
        let rank = self.rank.rank();
        if self.pctcull >= 0.0 {
            if self.culling() >= 100.0 {
                return Err(format!(
                    "-t {}: a culling percentage below 100 expected (or negative for none)",
                    self.pctcull
                ));
            }
            TreeGrid::check_size(rank, self.log2).map_err(|m| format!("-g {}: {m}", self.log2))?;
        } else if self.log2 < 1
            || u64::from(self.log2) * rank as u64 > u64::from(MAX_GRID_VALUES.trailing_zeros())
        {
            return Err(format!(
                "-g {}: a grid from 2 to 2^{} cells a side expected",
                self.log2,
                MAX_GRID_VALUES.trailing_zeros() as usize / rank
            ));
        }
        if self.supersamples == 0 {
            return Err("-n: a positive number of super-samples expected".into());
        }
        if self.threshold.is_nan() || self.threshold <= 1e-6 {
            return Err(format!(
                "-s {}: a positive super-sampling threshold expected",
                self.threshold
            ));
        }
        Ok(())
    }

    /// The culling percentage as RADIANCE passes it on (`%f`, six decimals).
    fn culling(&self) -> f64 {
        format!("{:.6}", self.pctcull)
            .parse()
            .unwrap_or(self.pctcull)
    }
}

/// One component's tree data.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeComponent {
    /// RADIANCE's side (written under WINDOW's name: [`Side::Rf`] is "Reflection Back").
    pub side: Side,
    /// The `{ … }` text of the `<ScatteringData>`.
    pub text: String,
    /// How many values were NaN (made 0 by the reduction; RADIANCE warns).
    pub nans: usize,
}

/// A tensor-tree BSDF ready to be written as XML.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeXml {
    /// 3-D or 4-D.
    pub rank: TreeRank,
    /// XML comments written after the declaration, in order.
    pub comments: Vec<String>,
    /// `wrapBSDF -f` field assignments, in order.
    pub fields: Vec<String>,
    /// Start from the WINDOW 6 template (`-W`) rather than the minimal one.
    pub window6: bool,
    /// `wrapBSDF -u`: the unit of dimensions.
    pub unit: Option<String>,
    /// The components, in the order they are written.
    pub components: Vec<TreeComponent>,
}

impl TreeXml {
    /// The XML text and `wrapBSDF`'s warnings; an error for a malformed field assignment.
    pub fn to_xml(&self) -> Result<(String, Vec<String>), String> {
        let blocks = self
            .components
            .iter()
            .map(|c| DataBlock {
                direction: direction(c.side),
                spectrum: Spectrum::Visible,
                source: "bsdf2ttree".into(),
                text: c.text.clone(),
            })
            .collect();
        let wrapped = Wrap {
            input: None,
            window6: self.window6,
            fields: self.fields.clone(),
            unit: self.unit.clone(),
            geometry: None,
            basis: Some(self.rank.wrap_basis()),
            correct_solid_angle: false,
            comments: self.comments.clone(),
            blocks,
        }
        .write()
        .map_err(|e| e.message)?;
        Ok((wrapped.xml, wrapped.warnings))
    }
}

/// RADIANCE's two random streams, shared by all the components of a run.
struct Streams {
    drand: RadRandom,
    crand: CRand,
}

/// `bsdf2ttree`'s relative difference of two cell values (0 when either is negative).
fn abs_diff(v1: f32, v0: f32) -> f64 {
    let (v1, v0) = (f64::from(v1), f64::from(v0));
    if v0 < 0.0 || v1 < 0.0 {
        return 0.0;
    }
    ((v1 - v0) * 2.0 / (v0 + v1 + 0.0001)).abs()
}

/// The direction of the square point (`sx`, `sy`) on the hemisphere of `sign` (+1 front).
fn disk_dir(sx: f64, sy: f64, sign: f64) -> DVec3 {
    let [x, y] = square2disk(sx, sy);
    DVec3::new(x, y, sign * (1.0 - x * x - y * y).sqrt())
}

/// Samples one component on the full grid, first axis slowest (for 3-D trees only the lower
/// half of the first axis, which is all the data). `progress` hears the fraction done.
fn sample_grid(
    func: &mut BsdfFunction,
    opts: &TreeOptions,
    in_front: bool,
    out_front: bool,
    streams: &mut Streams,
    progress: &mut dyn FnMut(f64),
) -> Result<Vec<f32>, String> {
    let sqres = 1usize << opts.log2;
    let sqfact = 1.0 / sqres as f64;
    let in_sign = if in_front { 1.0 } else { -1.0 };
    let out_sign = if out_front { 1.0 } else { -1.0 };
    let iso = opts.rank == TreeRank::Isotropic;
    let incidents = if iso { sqres / 2 } else { sqres * sqres };
    let thresh = opts.threshold;
    let nss = opts.supersamples;
    let mut grid = Vec::with_capacity(incidents * sqres * sqres);
    // The row before (finished values) and the row ahead (values at the cell centres); the
    // row before is not cleared between incident cells, as in RADIANCE.
    let mut last = vec![0f32; sqres];
    let mut next = vec![0f32; sqres];
    for inc in 0..incidents {
        let (ix, iy) = if iso {
            (inc, 0)
        } else {
            (inc / sqres, inc % sqres)
        };
        // 3-D: the incident cell's centre off the −X axis, alternately on each side.
        let zipsgn = if ix & 1 == 1 { 1.0 } else { -1.0 };
        let vin = if iso {
            let x = 2.0 * sqfact * (ix as f64 + 0.5) - 1.0;
            let y = zipsgn * sqfact * 0.5;
            DVec3::new(x, y, in_sign * (1.0 - x * x - y * y).sqrt())
        } else {
            disk_dir(
                1.0 - (ix as f64 + 0.5) * sqfact,
                1.0 - (iy as f64 + 0.5) * sqfact,
                in_sign,
            )
        };
        for (oy, n) in next.iter_mut().enumerate() {
            let vout = disk_dir(0.5 * sqfact, (oy as f64 + 0.5) * sqfact, out_sign);
            *n = func.eval(vin, vout)? as f32;
        }
        for ox in 0..sqres {
            for oy in 0..sqres {
                let mut bsdf = next[oy];
                if ox < sqres - 1 {
                    let vout = disk_dir(
                        (ox as f64 + 1.5) * sqfact,
                        (oy as f64 + 0.5) * sqfact,
                        out_sign,
                    );
                    next[oy] = func.eval(vin, vout)? as f32;
                }
                let differs = abs_diff(bsdf, next[oy]) > thresh
                    || (ox > 0 && abs_diff(bsdf, last[oy]) > thresh)
                    || (oy > 0 && abs_diff(bsdf, last[oy - 1]) > thresh)
                    || (oy < sqres - 1 && abs_diff(bsdf, next[oy + 1]) > thresh);
                if differs {
                    let mut sum = 0.0;
                    for ssi in (0..nss).rev() {
                        let x = (ssi as f64 + streams.drand.frandom()) / nss as f64;
                        let ssa = multi_samp(4, x, &mut streams.crand);
                        let sin = if iso {
                            let x = 2.0 * sqfact * (ix as f64 + ssa[0]) - 1.0;
                            let mut y = zipsgn * sqfact * ssa[1];
                            let mut z2 = 1.0 - x * x - y * y;
                            if z2 < 0.0 {
                                y = 0.0;
                                z2 = 1.0 - x * x;
                            }
                            DVec3::new(x, y, in_sign * z2.sqrt())
                        } else {
                            disk_dir(
                                1.0 - (ix as f64 + ssa[0]) * sqfact,
                                1.0 - (iy as f64 + ssa[1]) * sqfact,
                                in_sign,
                            )
                        };
                        let sout = disk_dir(
                            (ox as f64 + ssa[2]) * sqfact,
                            (oy as f64 + ssa[3]) * sqfact,
                            out_sign,
                        );
                        sum += func.eval(sin, sout)?;
                    }
                    bsdf = (sum / nss as f64) as f32;
                }
                grid.push(bsdf);
                last[oy] = bsdf;
            }
        }
        progress((inc + 1) as f64 / incidents as f64);
    }
    Ok(grid)
}

/// The tree text of one sampled component: reduced ([`TreeGrid::reduce`]) or, with a
/// negative culling percentage, every value as `%.3e` (a 3-D tree's upper half as zeros).
fn component_text(
    grid: Vec<f32>,
    opts: &TreeOptions,
    reflection: bool,
) -> Result<(String, usize), String> {
    let rank = opts.rank.rank();
    if opts.pctcull >= 0.0 {
        let (mut g, nans) = TreeGrid::from_values(rank, opts.log2, grid)?;
        // RADIANCE averages 4-D transmission in neither direction.
        if opts.reciprocity && (rank == 3 || reflection) {
            g.average_reciprocal();
        }
        return Ok((g.reduce(opts.culling()), nans));
    }
    let mut text = String::with_capacity(12 * grid.len() + 8);
    text.push_str("{\n");
    for v in &grid {
        text.push('\t');
        text.push_str(&format_e(f64::from(*v), 3));
        text.push('\n');
    }
    if rank == 3 {
        for _ in 0..grid.len() {
            text.push_str("\t0\n");
        }
    }
    text.push_str("}\n");
    Ok((text, 0))
}

/// The tensor-tree components of a function BSDF: for light arriving at the back
/// (`forward`: back reflection, then transmission to the front) and at the front
/// (`backward`: front reflection, then transmission to the back), in that order, as
/// `bsdf2ttree` samples and reduces them. `progress` hears each stage's start (with fraction
/// 0) and its fraction done.
pub fn from_function(
    func: &mut BsdfFunction,
    opts: &TreeOptions,
    forward: bool,
    backward: bool,
    progress: &mut dyn FnMut(Stage, f64),
) -> Result<Vec<TreeComponent>, String> {
    opts.check()?;
    let mut streams = Streams {
        drand: RadRandom::new(),
        crand: CRand::new(),
    };
    let stages = function_stages(forward, backward);
    let mut out = Vec::new();
    for (stage, in_front, out_front, side) in stages {
        progress(stage, 0.0);
        let grid = sample_grid(func, opts, in_front, out_front, &mut streams, &mut |x| {
            progress(stage, x)
        })?;
        let (text, nans) = component_text(grid, opts, in_front == out_front)?;
        out.push(TreeComponent { side, text, nans });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use daylit_cal::CalEnv;

    fn function(src: &str, name: &str) -> BsdfFunction {
        let mut env: CalEnv = BsdfFunction::environment();
        env.load_str("test", src).unwrap();
        BsdfFunction::new(env, name).unwrap()
    }

    #[test]
    fn lambertian_is_one_value_a_quadrant() {
        let mut f = function("l(ix,iy,iz,ox,oy,oz) = 0.3/PI;", "l");
        let opts = TreeOptions {
            rank: TreeRank::Isotropic,
            log2: 4,
            ..Default::default()
        };
        let c = from_function(&mut f, &opts, false, true, &mut |_, _| {}).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(
            c[0].text,
            "{\n".to_string() + &"    { 9.549297e-02 }\n    { 0.000000e+00 }\n".repeat(4) + "}\n"
        );
    }

    #[test]
    fn options_are_checked() {
        let bad = |o: TreeOptions| o.check().unwrap_err();
        let d = TreeOptions::default;
        assert!(bad(TreeOptions { log2: 1, ..d() }).starts_with("-g 1"));
        assert!(bad(TreeOptions { log2: 8, ..d() }).starts_with("-g 8"));
        assert!(bad(TreeOptions {
            pctcull: 100.0,
            ..d()
        })
        .starts_with("-t 100"));
        assert!(TreeOptions {
            log2: 1,
            pctcull: -1.0,
            ..d()
        }
        .check()
        .is_ok());
        assert!(bad(TreeOptions {
            log2: 0,
            pctcull: -1.0,
            ..d()
        })
        .starts_with("-g 0"));
    }
}
