//! Klems matrices: BSDF values on a fixed angle basis (LBNL/Klems Full, Half, Quarter, or a
//! basis the file defines), as RADIANCE's `bsdf_m.c` holds them.
//!
//! A basis divides the hemisphere into rings of polar angle, each cut into equal azimuth
//! patches; patch `k` of a ring is centred on azimuth `360 k / n`. A direction is mapped to a
//! patch as if it left the front (+Z) side; the four roles of a matrix (front/back, incident/
//! exiting) mirror the direction first, as RADIANCE does (incident directions are turned by
//! 180 degrees of azimuth, back directions have Z negated). Values are kept in single precision
//! and read back with RADIANCE's tiny deterministic per-element perturbation (±0.03 %, which
//! RADIANCE adds to break ties between equal elements), so that values agree to rounding.

use crate::colour::{self, Value};
use glam::DVec3;
use std::f64::consts::PI;
use std::sync::OnceLock;

/// An angle basis: rings from the pole out to 90 degrees.
#[derive(Clone, Debug, PartialEq)]
pub struct Basis {
    /// Its name (`LBNL/Klems Full` ...).
    pub name: String,
    /// Ring lower polar angles (degrees, single precision as RADIANCE keeps them) and patch
    /// counts, ending with the 90-degree bound of count 0.
    pub rings: Vec<(f32, usize)>,
}

#[allow(clippy::len_without_is_empty)]
impl Basis {
    fn of(name: &str, rings: &[(f32, usize)]) -> Basis {
        Basis {
            name: name.to_string(),
            rings: rings.to_vec(),
        }
    }

    /// The three bases RADIANCE knows without their definition in the file.
    pub fn standard() -> Vec<Basis> {
        vec![
            Basis::of(
                "LBNL/Klems Full",
                &[
                    (0.0, 1),
                    (5.0, 8),
                    (15.0, 16),
                    (25.0, 20),
                    (35.0, 24),
                    (45.0, 24),
                    (55.0, 24),
                    (65.0, 16),
                    (75.0, 12),
                    (90.0, 0),
                ],
            ),
            Basis::of(
                "LBNL/Klems Half",
                &[
                    (0.0, 1),
                    (6.5, 8),
                    (19.5, 12),
                    (32.5, 16),
                    (45.5, 20),
                    (58.5, 12),
                    (71.5, 8),
                    (90.0, 0),
                ],
            ),
            Basis::of(
                "LBNL/Klems Quarter",
                &[
                    (0.0, 1),
                    (9.0, 8),
                    (27.0, 12),
                    (45.0, 12),
                    (63.0, 8),
                    (90.0, 0),
                ],
            ),
        ]
    }

    /// The number of patches.
    pub fn len(&self) -> usize {
        self.rings.iter().map(|r| r.1).sum()
    }

    /// Ring and position in the ring of patch `ndx`.
    fn ring_of(&self, mut ndx: usize) -> (usize, usize) {
        let mut li = 0;
        while ndx >= self.rings[li].1 {
            ndx -= self.rings[li].1;
            li += 1;
        }
        (li, ndx)
    }

    /// The patch a front-exiting direction falls in (`fo_getndx`); none below the horizon.
    pub fn index(&self, v: DVec3) -> Option<usize> {
        if v.z < 0.0 || v.z > 1.00001 {
            return None;
        }
        let pol = v.z.clamp(-1.0, 1.0).acos().to_degrees();
        let mut azi = v.y.atan2(v.x).to_degrees();
        if azi < 0.0 {
            azi += 360.0;
        }
        let mut li = 1;
        while self.rings[li].0 as f64 <= pol {
            if self.rings[li].1 == 0 {
                return None;
            }
            li += 1;
        }
        li -= 1;
        let n = self.rings[li].1;
        let mut k = ((1.0 / 360.0) * azi * n as f64 + 0.5) as usize;
        if k >= n {
            k = 0;
        }
        Some(self.rings[..li].iter().map(|r| r.1).sum::<usize>() + k)
    }

    /// A front-exiting direction in patch `ndx` (`fo_getvec`), at fractions `r0` of its
    /// projected polar extent and `r1` of its azimuth extent.
    pub fn vector(&self, ndx: usize, r0: f64, r1: f64) -> DVec3 {
        let (li, k) = self.ring_of(ndx);
        let c0 = (self.rings[li].0 as f64).to_radians().cos();
        let c1 = (self.rings[li + 1].0 as f64).to_radians().cos();
        let z = ((1.0 - r0) * c0 * c0 + r0 * c1 * c1).sqrt();
        let azi = 2.0 * PI * (k as f64 + r1 - 0.5) / self.rings[li].1 as f64;
        let s = (1.0 - z * z).max(0.0).sqrt();
        DVec3::new(azi.cos() * s, azi.sin() * s, z)
    }

    /// The projected solid angle of patch `ndx` (`io_getohm`).
    pub fn proj_sa(&self, ndx: usize) -> f64 {
        let (li, _) = self.ring_of(ndx);
        let t0 = (self.rings[li].0 as f64).to_radians();
        let t1 = (self.rings[li + 1].0 as f64).to_radians();
        PI * (t0.cos().powi(2) - t1.cos().powi(2)) / self.rings[li].1 as f64
    }
}

/// How a matrix axis maps a direction onto its basis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Map {
    /// Leaving the front (`fo`): as is.
    FrontOut,
    /// Leaving the back (`bo`): Z negated.
    BackOut,
    /// Arriving at the front (`fi`): azimuth turned 180 degrees.
    FrontIn,
    /// Arriving at the back (`bi`): negated.
    BackIn,
}

impl Map {
    /// The direction mirrored into the front-exiting frame (each map is its own inverse).
    pub fn apply(self, v: DVec3) -> DVec3 {
        match self {
            Map::FrontOut => v,
            Map::BackOut => DVec3::new(v.x, v.y, -v.z),
            Map::FrontIn => DVec3::new(-v.x, -v.y, v.z),
            Map::BackIn => -v,
        }
    }
}

/// One axis of a matrix: a basis and how directions map onto it.
#[derive(Clone, Debug)]
pub struct Axis {
    pub basis: Basis,
    pub map: Map,
}

impl Axis {
    pub fn index(&self, v: DVec3) -> Option<usize> {
        self.basis.index(self.map.apply(v))
    }
    pub fn vector(&self, ndx: usize, r0: f64, r1: f64) -> DVec3 {
        self.map.apply(self.basis.vector(ndx, r0, r1))
    }
    pub fn proj_sa(&self, ndx: Option<usize>) -> f64 {
        ndx.map_or(-1.0, |n| self.basis.proj_sa(n))
    }
}

/// Cumulative distributions of one matrix, one per incident (or, read backwards, exiting)
/// patch.
type Cdfs = Vec<Cdf>;

/// The scattering of one incident patch over the other axis: its total (directional
/// hemispherical value) and the running sums, normalised.
#[derive(Debug)]
pub struct Cdf {
    pub total: f64,
    cum: Vec<f64>,
}

/// A BSDF matrix: `values[o * ninc + i]` for incident patch `i`, exiting patch `o`.
#[derive(Debug)]
pub struct Matrix {
    pub inc: Axis,
    pub out: Axis,
    pub ninc: usize,
    pub nout: usize,
    pub values: Vec<f32>,
    /// Per-element chromaticity codes when the file gave CIE X and Z data.
    pub chroma: Option<Vec<u16>>,
    forward: OnceLock<Cdfs>,
    backward: OnceLock<Cdfs>,
}

/// Chromaticities of the sharpened RGB primaries (single precision, as RADIANCE keeps them).
fn sharp_primaries() -> [(f64, f64); 3] {
    let mut p = [(0.0, 0.0); 3];
    for (c, out) in p.iter_mut().enumerate() {
        let mut rgb = [0f32; 3];
        rgb[c] = 1.0;
        let ((x, y), _) = colour::from_sharp(rgb);
        *out = (x as f32 as f64, y as f32 as f64);
    }
    p
}

impl Matrix {
    pub fn new(inc: Axis, out: Axis, values: Vec<f32>) -> Matrix {
        let (ninc, nout) = (inc.basis.len(), out.basis.len());
        debug_assert_eq!(values.len(), ninc * nout);
        Matrix {
            inc,
            out,
            ninc,
            nout,
            values,
            chroma: None,
            forward: OnceLock::new(),
            backward: OnceLock::new(),
        }
    }

    pub fn value(&self, o: usize, i: usize) -> f32 {
        self.values[o * self.ninc + i]
    }

    /// The element's value as RADIANCE reads it (`mBSDF_color`): perturbed by a tiny fixed
    /// amount, and as sharpened-RGB coefficients when the matrix has colour.
    fn coef(&self, i: usize, o: usize) -> ([f32; 3], usize) {
        let mut d = 2.0 * self.ninc as f64 / (i as f64 + 0.22545)
            + 4.0 * self.nout as f64 / (o as f64 + 0.70281);
        d -= d.trunc();
        let v = (self.value(o, i) as f64 * (1.0 + 6e-4 * (d - 0.5))) as f32;
        match &self.chroma {
            None => ([v, 0.0, 0.0], 1),
            Some(ch) => {
                let (x, y) = colour::decode_chroma(ch[o * self.ninc + i]);
                (colour::to_sharp_coef(x, y, v as f64), 3)
            }
        }
    }

    /// The element's value with its colour.
    pub(crate) fn element(&self, i: usize, o: usize) -> Value {
        let (c, n) = self.coef(i, o);
        if n == 1 {
            return Value::grey(c[0] as f64);
        }
        let prim = sharp_primaries();
        (0..3).fold(Value::ZERO, |acc, k| {
            acc.plus(Value::from_xy(prim[k].0, prim[k].1, c[k] as f64))
        })
    }

    /// The value for a pair of directions (`SDgetMtxBSDF`), the pair reversed when neither
    /// fits its axis (reciprocity); none when they do not fit this matrix.
    pub fn eval(&self, inv: DVec3, outv: DVec3) -> Option<Value> {
        let (mut i, mut o) = (self.inc.index(inv), self.out.index(outv));
        if i.is_none() && o.is_none() {
            i = self.inc.index(outv);
            o = self.out.index(inv);
        }
        Some(self.element(i?, o?))
    }

    /// The largest directional hemispherical value over incident patches, and the smallest
    /// patch projected solid angle (`get_extrema`).
    pub fn extrema(&self) -> (f64, f64) {
        let ohm: Vec<f64> = (0..self.nout).map(|o| self.out.basis.proj_sa(o)).collect();
        let mut min_psa = ohm.iter().cloned().fold(PI, f64::min);
        let mut max_hemi = 0f64;
        for i in 0..self.ninc {
            let h: f64 = (0..self.nout)
                .map(|o| ohm[o] * self.value(o, i) as f64)
                .sum();
            max_hemi = max_hemi.max(h);
        }
        if self.inc.basis != self.out.basis {
            for i in 0..self.ninc {
                min_psa = min_psa.min(self.inc.basis.proj_sa(i));
            }
        }
        (max_hemi, min_psa)
    }

    /// Splits off the smallest value as a Lambertian part (`subtract_min`): its hemispherical
    /// value with colour, or zero when below 0.01.
    pub fn subtract_min(&mut self) -> Value {
        let ncomp = if self.chroma.is_some() { 3 } else { 1 };
        let mut min = [f32::MAX; 3];
        for i in 0..self.ninc {
            for o in 0..self.nout {
                let (c, _) = self.coef(i, o);
                for k in 0..ncomp {
                    min[k] = min[k].min(c[k]);
                }
            }
        }
        let ymin: f32 = min[..ncomp].iter().sum();
        if ymin as f64 <= 0.01 / PI {
            return Value::ZERO;
        }
        if ncomp == 1 {
            for v in &mut self.values {
                *v -= ymin;
            }
            return Value::grey(PI * ymin as f64);
        }
        let mut chroma = self.chroma.take().expect("colour matrix");
        for i in 0..self.ninc {
            for o in 0..self.nout {
                self.chroma = Some(chroma);
                let (c, _) = self.coef(i, o);
                chroma = self.chroma.take().expect("colour matrix");
                let rest = [0, 1, 2].map(|k| (c[k] - min[k]) / colour::SHARP_Y[k]);
                let ((x, y), yv) = colour::from_sharp(rest);
                if yv > 1e-5 {
                    chroma[o * self.ninc + i] = colour::encode_chroma(x, y);
                }
                self.values[o * self.ninc + i] -= ymin;
            }
        }
        self.chroma = Some(chroma);
        let ((x, y), _) = colour::from_sharp([0, 1, 2].map(|k| min[k] / colour::SHARP_Y[k]));
        Value::from_xy(x as f32 as f64, y as f32 as f64, PI * ymin as f64)
    }

    fn cdfs(&self, backward: bool) -> &Cdfs {
        let make = || {
            let (n_in, n_over) = if backward {
                (self.nout, self.ninc)
            } else {
                (self.ninc, self.nout)
            };
            (0..n_in)
                .map(|a| {
                    let mut cum = Vec::with_capacity(n_over + 1);
                    let mut sum = 0f64;
                    cum.push(0.0);
                    for b in 0..n_over {
                        sum += if backward {
                            self.value(a, b) as f64 * self.inc.basis.proj_sa(b)
                        } else {
                            self.value(b, a) as f64 * self.out.basis.proj_sa(b)
                        };
                        cum.push(sum);
                    }
                    Cdf { total: sum, cum }
                })
                .collect()
        };
        if backward {
            self.backward.get_or_init(make)
        } else {
            self.forward.get_or_init(make)
        }
    }

    /// The distribution for light arriving from `inv` (`SDgetMtxCDist`), read backwards when
    /// `inv` fits the exiting axis only; none when it fits neither.
    pub fn cdf(&self, inv: DVec3) -> Option<(&Cdf, bool, usize)> {
        if let Some(i) = self.inc.index(inv) {
            return Some((&self.cdfs(false)[i], false, i));
        }
        let o = self.out.index(inv)?;
        Some((&self.cdfs(true)[o], true, o))
    }

    /// The directional hemispherical value for `inv`.
    pub fn hemi(&self, inv: DVec3) -> f64 {
        self.cdf(inv).map_or(0.0, |(c, _, _)| c.total)
    }

    /// A direction drawn from the distribution for `inv` with `u` in [0, 1), its patch
    /// chosen in proportion to value times projected solid angle, uniformly within it in
    /// projected solid angle.
    pub fn sample(&self, inv: DVec3, u: f64) -> Option<DVec3> {
        let (cdf, backward, _) = self.cdf(inv)?;
        if cdf.total <= 0.0 {
            return None;
        }
        let target = u * cdf.total;
        // The last patch whose running sum is at most the target.
        let n = cdf.cum.len() - 1;
        let k = cdf.cum[1..n].partition_point(|&c| c <= target);
        let width = cdf.cum[k + 1] - cdf.cum[k];
        let r = if width > 0.0 {
            ((target - cdf.cum[k]) / width).clamp(0.0, 1.0 - 1e-12)
        } else {
            0.5
        };
        let (r0, r1) = split_unit(r);
        let axis = if backward { &self.inc } else { &self.out };
        Some(axis.vector(k, r0, r1))
    }

    /// Patch projected solid angles at `v1` (exiting axis) and `v2` (incident axis), the pair
    /// swapped when neither fits (`SDqueryMtxProjSA`).
    pub fn proj_sa(&self, v1: DVec3, v2: DVec3, two: bool) -> (f64, f64) {
        let mut out_psa = self.out.proj_sa(self.out.index(v1));
        let mut inc_psa = self.inc.proj_sa(self.inc.index(v2));
        if two && out_psa <= 0.0 && inc_psa <= 0.0 {
            inc_psa = self.out.proj_sa(self.out.index(v2));
            out_psa = self.inc.proj_sa(self.inc.index(v1));
        }
        (inc_psa, out_psa)
    }
}

impl Matrix {
    /// The matrix `rmtxop` makes (`cm_bsdf`, `cm_bsdf_recip`): value plus the Lambertian
    /// BSDF `diff`, times the incident patch's projected solid angle; elements of value 0 stay
    /// 0. With `recip` the matrix is read by reciprocity: transposed, each direction turned
    /// to the other side.
    pub fn to_rmtx(&self, diff: [f32; 3], recip: bool) -> crate::KlemsMatrix {
        let element = |o: usize, i: usize, dom: f64| -> [f32; 3] {
            let f = self.value(o, i);
            if f <= 0.0 || dom <= 0.0 {
                return [0.0; 3];
            }
            let rgb = match &self.chroma {
                None => [f; 3],
                Some(ch) => {
                    let (x, y) = colour::decode_chroma(ch[o * self.ninc + i]);
                    crate::rgb_f32(Value::from_xy(x, y, f as f64))
                }
            };
            [0, 1, 2].map(|k| ((rgb[k] + diff[k]) as f64 * dom) as f32)
        };
        let (rows, cols) = if recip {
            (self.ninc, self.nout)
        } else {
            (self.nout, self.ninc)
        };
        let mut data = vec![[0f32; 3]; rows * cols];
        if !recip {
            for c in 0..cols {
                let dom = self.inc.basis.proj_sa(c);
                for r in 0..rows {
                    data[r * cols + c] = element(r, c, dom);
                }
            }
        } else {
            let flip = |v: DVec3| DVec3::new(v.x, v.y, -v.z);
            let ri: Vec<usize> = (0..rows)
                .map(|r| {
                    self.inc
                        .index(flip(self.out.vector(r, 0.5, 0.5)))
                        .unwrap_or(r)
                })
                .collect();
            for c in 0..cols {
                let ro = self
                    .out
                    .index(flip(self.inc.vector(c, 0.5, 0.5)))
                    .unwrap_or(c);
                let dom = self.out.basis.proj_sa(ro);
                for r in 0..rows {
                    data[r * cols + c] = element(ro, ri[r], dom);
                }
            }
        }
        crate::KlemsMatrix { rows, cols, data }
    }
}

/// Two coordinates in [0, 1) from one: the high and the low digits of `r` in base 4096, so
/// that a uniform `r` gives a uniform point of the unit square.
pub fn split_unit(r: f64) -> (f64, f64) {
    const N: f64 = 4096.0;
    let s = r * N;
    let hi = s.floor();
    let lo = s - hi;
    let t = lo * N;
    ((hi + t.fract()) / N, lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_sizes_and_solid_angles() {
        let b = Basis::standard();
        assert_eq!(
            b.iter().map(Basis::len).collect::<Vec<_>>(),
            vec![145, 77, 41]
        );
        for basis in &b {
            let total: f64 = (0..basis.len()).map(|n| basis.proj_sa(n)).sum();
            assert!((total - PI).abs() < 1e-9);
        }
    }

    #[test]
    fn patch_centres_index_back_to_their_patch() {
        for basis in &Basis::standard() {
            for n in 0..basis.len() {
                assert_eq!(basis.index(basis.vector(n, 0.5, 0.5)), Some(n));
            }
        }
        let full = &Basis::standard()[0];
        assert_eq!(full.index(DVec3::new(0.0, 0.0, -0.1)), None);
        assert_eq!(full.index(DVec3::X), None);
    }

    #[test]
    fn split_unit_covers_the_square() {
        let (a, b) = split_unit(0.999_999);
        assert!(a < 1.0 && b < 1.0 && a > 0.99);
        let (a, b) = split_unit(0.5 + 0.3 / 4096.0);
        assert!((a - 0.5).abs() < 1.0 / 4096.0 && (b - 0.3).abs() < 1e-9);
    }
}
