//! Klems matrices made from other BSDF descriptions, as RADIANCE 6.0a's `bsdf2klems` makes
//! them: from a loaded BSDF (e.g. a tensor tree, resampled) or from a function of the incident
//! and exiting directions (`bsdf(ix,iy,iz,ox,oy,oz)` in the `.cal` language), averaged over
//! each pair of Klems patches with `n` samples.
//!
//! The samples are RADIANCE's: for exiting patch `j`, incident patch `i` and sample `n`
//! (counting down), the exiting direction is drawn at `j + (n + ξ)/N` and the incident one at
//! `i + urand(n)` (an anticorrelated stratified permutation, rebuilt per component), each
//! fraction spread over the patch along a Hilbert curve, with RADIANCE's unseeded `drand48`
//! stream. The matrices therefore agree with RADIANCE's to the printed digits, not merely
//! within Monte Carlo noise.
//!
//! [`KlemsXml::to_xml`] writes the result through [`crate::write`], as RADIANCE's
//! bsdf2klems hands its matrices to `wrapBSDF -W`.

use crate::klems::Basis;
use crate::write::{DataBlock, Direction, Spectrum, Wrap, WrapBasis};
use crate::{Bsdf, Side, Value};
use daylit_cal::{CalEnv, EvalState, FuncId, RayContext, RayVar};
use glam::DVec3;
use std::f64::consts::PI;

/// The Klems basis of the output (`bsdf2klems` default, `-h`, `-q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KlemsSize {
    /// `LBNL/Klems Full`, 145 patches.
    Full,
    /// `LBNL/Klems Half`, 77 patches.
    Half,
    /// `LBNL/Klems Quarter`, 41 patches.
    Quarter,
}

impl KlemsSize {
    /// The basis.
    pub(crate) fn basis(self) -> Basis {
        let i = match self {
            KlemsSize::Full => 0,
            KlemsSize::Half => 1,
            KlemsSize::Quarter => 2,
        };
        Basis::standard().swap_remove(i)
    }

    /// The basis as `wrapBSDF -a` names it.
    fn wrap_basis(self) -> WrapBasis {
        match self {
            KlemsSize::Full => WrapBasis::KlemsFull,
            KlemsSize::Half => WrapBasis::KlemsHalf,
            KlemsSize::Quarter => WrapBasis::KlemsQuarter,
        }
    }
}

/// One scattering component on a Klems basis: BSDF values (1/sr) row-major by exiting patch,
/// `y[o * n + i]` for incident patch `i`; with CIE X and Z when the source had colour.
#[derive(Clone, Debug, PartialEq)]
pub struct KlemsComponent {
    /// RADIANCE's side (written under WINDOW's name: [`Side::Rf`] is "Reflection Back").
    pub side: Side,
    /// CIE Y.
    pub y: Vec<f64>,
    /// CIE X and Z, when coloured.
    pub xz: Option<(Vec<f64>, Vec<f64>)>,
}

/// A Klems BSDF ready to be written as XML.
#[derive(Clone, Debug, PartialEq)]
pub struct KlemsXml {
    /// The basis of every component.
    pub size: KlemsSize,
    /// XML comments written after the declaration, in order.
    pub comments: Vec<String>,
    /// `wrapBSDF -f` field assignments (`t=0.005;n=Name`), in order.
    pub fields: Vec<String>,
    /// The layer's MGF geometry, passed through.
    pub mgf: Option<String>,
    /// The components, in the order they are written.
    pub components: Vec<KlemsComponent>,
}

// ------------------------------------------------------------------ RADIANCE's random numbers

/// glibc's `drand48`/`lrand48` (one shared state, never seeded) and RADIANCE's `urand`
/// permutation table (`initurand`).
pub(crate) struct RadRandom {
    x: u64,
    perm: Vec<u16>,
}

impl RadRandom {
    pub(crate) fn new() -> RadRandom {
        RadRandom {
            x: 0,
            perm: Vec::new(),
        }
    }

    fn step(&mut self) -> u64 {
        self.x = self.x.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB) & ((1 << 48) - 1);
        self.x
    }

    /// `drand48`: [0, 1).
    pub(crate) fn frandom(&mut self) -> f64 {
        self.step() as f64 / (1u64 << 48) as f64
    }

    /// `lrand48`: 31 bits.
    fn random(&mut self) -> u64 {
        self.step() >> 17
    }

    /// Builds the permutation for `size` samples: a table of the next power of two of
    /// `size - 1`, each level of the binary tree split at random (Schlick's anticorrelation).
    fn init_urand(&mut self, size: usize) {
        let mut s = size as i64 - 1;
        if s <= 0 {
            self.perm.clear();
            return;
        }
        let mut order = 1;
        loop {
            s >>= 1;
            if s == 0 || order == 16 {
                break;
            }
            order += 1;
        }
        let mut perm = vec![0u16; 1 << order];
        let mut offset = 1usize;
        for _ in 0..order {
            for i in (0..offset).rev() {
                perm[i] <<= 1;
                perm[i + offset] = perm[i];
                if self.random() & 0x4000 != 0 {
                    perm[i] += 1;
                } else {
                    perm[i + offset] += 1;
                }
            }
            offset <<= 1;
        }
        self.perm = perm;
    }

    /// `urand(i)`: stratum `perm[i]` of the table, jittered.
    fn urand(&mut self, i: usize) -> f64 {
        if self.perm.is_empty() {
            return self.frandom();
        }
        let n = self.perm.len();
        (self.perm[i & (n - 1)] as f64 + self.frandom()) / n as f64
    }
}

/// The point of the unit square at fraction `t` along a Hilbert curve of 31 bits per axis
/// (RADIANCE's `SDmultiSamp` in two dimensions; its sub-cell jitter of 2^-31, from the C
/// library's `rand`, is taken at the cell's middle).
fn hilbert_square(t: f64) -> (f64, f64) {
    const BITS: u32 = 31;
    let t = t.clamp(0.0, 0.999_999_999_999_999);
    let mut d = (t * (1u64 << (2 * BITS)) as f64) as u64;
    let (mut x, mut y) = (0u64, 0u64);
    let mut s = 1u64;
    while s < (1u64 << BITS) {
        let rx = 1 & (d / 2);
        let ry = 1 & (d ^ rx);
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        x += s * rx;
        y += s * ry;
        d /= 4;
        s *= 2;
    }
    // With an odd number of bits RADIANCE's curve is this one mirrored about the diagonal.
    let scale = 1.0 / (1u64 << BITS) as f64;
    ((y as f64 + 0.5) * scale, (x as f64 + 0.5) * scale)
}

/// A front-exiting direction in the patch of the fractional index `ndxr` (`fo_getvec`).
fn patch_vector(basis: &Basis, ndxr: f64) -> DVec3 {
    let mut ndx = ndxr as usize;
    let frac = ndxr - ndx as f64;
    let n = basis.len();
    if ndx >= n {
        ndx = n - 1;
    }
    let (r0, r1) = hilbert_square(frac);
    let mut li = 0;
    while ndx >= basis.rings[li].1 {
        ndx -= basis.rings[li].1;
        li += 1;
    }
    let sq = |a: f64| a * a;
    let c0 = (PI / 180.0 * basis.rings[li].0 as f64).cos();
    let c1 = (PI / 180.0 * basis.rings[li + 1].0 as f64).cos();
    let z = ((1.0 - r0) * sq(c0) + r0 * sq(c1)).sqrt();
    let azi = 2.0 * PI * (ndx as f64 + r1 - 0.5) / basis.rings[li].1 as f64;
    let s = (1.0 - z * z).sqrt();
    DVec3::new(azi.cos() * s, azi.sin() * s, z)
}

/// Incident (`fi`/`bi`) or exiting (`fo`/`bo`) direction on the front or back.
fn oriented(v: DVec3, incident: bool, front: bool) -> DVec3 {
    match (incident, front) {
        (false, true) => v,
        (false, false) => DVec3::new(v.x, v.y, -v.z),
        (true, true) => DVec3::new(-v.x, -v.y, v.z),
        (true, false) => -v,
    }
}

/// CIE X and Z of a component, beside its Y.
type Chroma = (Vec<f64>, Vec<f64>);

/// One component's sampling: the sides of incidence and exit, whether colour is kept, whether
/// the urand table is rebuilt first.
#[derive(Clone, Copy)]
struct Pass {
    in_front: bool,
    out_front: bool,
    colour: bool,
    init_urand: bool,
}

/// Averages `f(incident, exiting)` over every pair of patches for light arriving on side
/// `in_front` and leaving on side `out_front`, as RADIANCE samples them; `f` gives CIE Y and,
/// when `colour`, the sample's chromaticity weights. The urand table is rebuilt first when
/// `init_urand`.
fn average(
    rng: &mut RadRandom,
    basis: &Basis,
    samples: usize,
    pass: Pass,
    f: &mut dyn FnMut(DVec3, DVec3) -> Result<Value, String>,
    progress: &mut dyn FnMut(f64),
) -> Result<(Vec<f64>, Option<Chroma>), String> {
    let n = basis.len();
    let mut y = vec![0.0; n * n];
    let Pass {
        in_front,
        out_front,
        colour,
        init_urand,
    } = pass;
    let (mut xs, mut zs) = (vec![0.0; n * n], vec![0.0; n * n]);
    if init_urand {
        rng.init_urand(samples);
    }
    let ns = samples as f64;
    for j in 0..n {
        for i in 0..n {
            let (mut sum, mut xsum, mut ysum) = (0.0, 0.0, 0.0);
            for k in (0..samples).rev() {
                let vout = patch_vector(basis, j as f64 + (k as f64 + rng.frandom()) / ns);
                let vin = patch_vector(basis, i as f64 + rng.urand(k));
                let v = f(
                    oriented(vin, true, in_front),
                    oriented(vout, false, out_front),
                )?;
                sum += v.y();
                if colour {
                    let (cx, cy) = v.xy();
                    xsum += v.y() * cx;
                    ysum += v.y() * cy;
                }
            }
            y[j * n + i] = sum / ns;
            if colour {
                // RADIANCE divides by the chromaticity sum even when it is 0.
                xs[j * n + i] = xsum * sum / (ns * ysum);
                zs[j * n + i] = (sum - xsum - ysum) * sum / (ns * ysum);
            }
        }
        progress((j + 1) as f64 / n as f64);
    }
    Ok((y, colour.then_some((xs, zs))))
}

// ------------------------------------------------------------------ functions

/// A BSDF given as a `.cal` function, as `bsdf2klems` and `bsdf2ttree` evaluate it: six
/// arguments (incident then exiting direction, both pointing away from the surface), or three
/// with `Dx, Dy, Dz` set to the reverse of the exiting direction.
pub struct BsdfFunction {
    env: CalEnv,
    func: FuncId,
    uses_d: bool,
    ext: [u32; 3],
    state: EvalState,
}

struct DirCtx {
    ext: [u32; 3],
    d: [f64; 3],
}

impl RayContext for DirCtx {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
    fn external(&self, id: u32, _args: &[f64]) -> f64 {
        self.ext
            .iter()
            .position(|&e| e == id)
            .map_or(0.0, |k| self.d[k])
    }
}

impl BsdfFunction {
    /// The calcomp environment the function's definitions are read into: the library
    /// functions, `PI`, and `Dx, Dy, Dz`; no ray variables and no `rayinit.cal`.
    pub fn environment() -> CalEnv {
        let mut env = CalEnv::plain();
        for n in ["Dx", "Dy", "Dz"] {
            env.define_external(n);
        }
        // The text is fixed and parses.
        let _ = env.load_str("<builtin>", "PI : 3.14159265358979323846;");
        env
    }

    /// The function `name` of `env`, which must take 3 or more arguments (6 to receive both
    /// directions); its definitions must all be resolvable.
    pub fn new(mut env: CalEnv, name: &str) -> Result<BsdfFunction, String> {
        let ext = ["Dx", "Dy", "Dz"].map(|n| env.define_external(n));
        let usage = "need single function with 6 arguments: bsdf(ix,iy,iz,ox,oy,oz), \
                     or 3 arguments using Dx,Dy,Dz: bsdf(ix,iy,iz)";
        let func = match env.function(name) {
            Some(f @ FuncId::User(_)) if env.func_arity(f) >= 3 => f,
            Some(FuncId::User(_)) => {
                return Err(format!(
                    "function '{name}' takes {} arguments; {usage}",
                    env.func_arity(env.function(name).expect("found"))
                ))
            }
            _ => return Err(format!("function '{name}' is not defined; {usage}")),
        };
        env.check_func(func).map_err(|e| e.to_string())?;
        let uses_d = env.func_arity(func) < 6;
        let state = EvalState::for_env(&env);
        Ok(BsdfFunction {
            env,
            func,
            uses_d,
            ext,
            state,
        })
    }

    /// The function's value for light arriving from `incoming` and leaving towards
    /// `outgoing`; an evaluation error (a runaway recursion, a missing argument) as text.
    pub fn eval(&mut self, incoming: DVec3, outgoing: DVec3) -> Result<f64, String> {
        let args = [
            incoming.x, incoming.y, incoming.z, outgoing.x, outgoing.y, outgoing.z,
        ];
        let ctx = DirCtx {
            ext: self.ext,
            d: if self.uses_d {
                [-outgoing.x, -outgoing.y, -outgoing.z]
            } else {
                [0.0; 3]
            },
        };
        let v = self.env.call(self.func, &args, &mut self.state, &ctx);
        match self.state.take_error() {
            Some(e) => Err(e.to_string()),
            None => Ok(v),
        }
    }
}

/// The components a function is sampled into, in RADIANCE's order, with the sides of the
/// incident and exiting directions (true: front): `+forward` the back's reflection and
/// transmission, `+backward` the front's.
pub(crate) fn function_stages(forward: bool, backward: bool) -> Vec<(Stage, bool, bool, Side)> {
    let mut stages = Vec::new();
    if forward {
        stages.push((Stage::BackReflection, false, false, Side::Rb));
        stages.push((Stage::BackTransmission, false, true, Side::Tb));
    }
    if backward {
        stages.push((Stage::FrontReflection, true, true, Side::Rf));
        stages.push((Stage::FrontTransmission, true, false, Side::Tf));
    }
    stages
}

/// Which stage [`from_function`] is in, for a progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Light arriving at the back, reflected (`+forward`).
    BackReflection,
    /// Light arriving at the back, transmitted to the front (`+forward`).
    BackTransmission,
    /// Light arriving at the front, reflected (`+backward`).
    FrontReflection,
    /// Light arriving at the front, transmitted to the back (`+backward`).
    FrontTransmission,
}

impl Stage {
    /// RADIANCE's words for the stage.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::BackReflection => "Evaluating outside reflectance",
            Stage::BackTransmission => "Evaluating outside->inside transmission",
            Stage::FrontReflection => "Evaluating inside reflectance",
            Stage::FrontTransmission => "Evaluating inside->outside transmission",
        }
    }
}

/// The Klems components of a function BSDF: for light arriving at the back (`forward`:
/// back reflection, then transmission to the front) and at the front (`backward`: front
/// reflection, then transmission to the back), in that order, each element the function's
/// average over `samples` pairs of directions in its patches. `progress` hears each stage's
/// start (with fraction 0) and its fraction done.
pub fn from_function(
    func: &mut BsdfFunction,
    size: KlemsSize,
    samples: usize,
    forward: bool,
    backward: bool,
    progress: &mut dyn FnMut(Stage, f64),
) -> Result<Vec<KlemsComponent>, String> {
    let basis = size.basis();
    let mut rng = RadRandom::new();
    let mut out = Vec::new();
    let stages = function_stages(forward, backward);
    for (stage, in_front, out_front, side) in stages {
        progress(stage, 0.0);
        let mut f = |vin: DVec3, vout: DVec3| func.eval(vin, vout).map(Value::grey);
        let pass = Pass {
            in_front,
            out_front,
            colour: false,
            init_urand: true,
        };
        let (y, _) = average(&mut rng, &basis, samples, pass, &mut f, &mut |x| {
            progress(stage, x)
        })?;
        out.push(KlemsComponent { side, y, xz: None });
    }
    Ok(out)
}

/// A loaded BSDF resampled on a Klems basis, as `bsdf2klems file.xml` does: front
/// reflection, back reflection, front and back transmission, each when the BSDF has it
/// (RADIANCE's rules: a reflection or front transmission component with data or a Lambertian
/// part over 0.002; back transmission whenever either side has transmission data), coloured
/// when the source component is; with the file's name, manufacturer, dimensions and geometry.
pub fn from_bsdf(bsdf: &Bsdf, size: KlemsSize, samples: usize) -> Result<KlemsXml, String> {
    let basis = size.basis();
    let mut rng = RadRandom::new();
    let lamb = bsdf.lambertian();
    let has = |s: Side| bsdf.has_component(s);
    let mut plan = Vec::new();
    if has(Side::Rf) || lamb.r_front.y() > 0.002 {
        plan.push((Side::Rf, true, true, bsdf.component_has_colour(Side::Rf)));
    }
    if has(Side::Rb) || lamb.r_back.y() > 0.002 {
        plan.push((Side::Rb, false, false, bsdf.component_has_colour(Side::Rb)));
    }
    let tf_colour = bsdf.component_has_colour(Side::Tf);
    if has(Side::Tf) || lamb.t_front.y() > 0.002 {
        plan.push((Side::Tf, true, false, tf_colour));
    }
    if has(Side::Tb) || has(Side::Tf) {
        // Without back data RADIANCE keeps the front's colour setting.
        let c = if has(Side::Tb) {
            bsdf.component_has_colour(Side::Tb)
        } else {
            tf_colour
        };
        plan.push((Side::Tb, false, true, c));
    }
    let mut components = Vec::new();
    // RADIANCE builds the urand table once for a file, but once per component of a function.
    rng.init_urand(samples);
    for (side, in_front, out_front, colour) in plan {
        let mut f = |vin: DVec3, vout: DVec3| Ok(bsdf.eval_value(vin, vout));
        let pass = Pass {
            in_front,
            out_front,
            colour,
            init_urand: false,
        };
        let (y, xz) = average(&mut rng, &basis, samples, pass, &mut f, &mut |_| {})?;
        components.push(KlemsComponent { side, y, xz });
    }
    let mut fields = Vec::new();
    if bsdf.thickness > 0.0 {
        let g = daylit_radfile::printf::format_g;
        fields.push(if bsdf.width > 0.0 && bsdf.height > 0.0 {
            format!(
                "w={};h={};t={}",
                g(bsdf.width),
                g(bsdf.height),
                g(bsdf.thickness)
            )
        } else {
            format!("t={}", g(bsdf.thickness))
        });
    }
    if !bsdf.manufacturer.is_empty() {
        fields.push(format!("m={}", bsdf.manufacturer));
    }
    if !bsdf.material.is_empty() {
        fields.push(format!("n={}", bsdf.material));
    }
    Ok(KlemsXml {
        size,
        comments: Vec::new(),
        fields,
        mgf: bsdf.mgf.clone(),
        components,
    })
}

// ------------------------------------------------------------------ the XML

/// Checks `wrapBSDF -f` field assignments before any work is done.
pub fn check_fields(fields: &[String]) -> Result<(), String> {
    KlemsXml {
        size: KlemsSize::Quarter,
        comments: Vec::new(),
        fields: fields.to_vec(),
        mgf: None,
        components: Vec::new(),
    }
    .to_xml()
    .map(|_| ())
}

/// The data block direction WINDOW's file names a RADIANCE side by.
pub(crate) fn direction(side: Side) -> Direction {
    match side {
        Side::Rf => Direction::ReflectionBack,
        Side::Rb => Direction::ReflectionFront,
        Side::Tf => Direction::TransmissionBack,
        Side::Tb => Direction::TransmissionFront,
    }
}

impl KlemsXml {
    /// The XML text, and `wrapBSDF`'s warnings (fields WINDOW needs that are not set, tags
    /// added); an error for a malformed field assignment. Written as RADIANCE's bsdf2klems
    /// has it written: each matrix as `%.3e` lines, a blank line after each incident
    /// direction, wrapped by `wrapBSDF -W` ([`crate::write`]).
    pub fn to_xml(&self) -> Result<(String, Vec<String>), String> {
        let basis = self.size.basis();
        let n = basis.len();
        let mut blocks = Vec::new();
        for c in &self.components {
            let mut data = vec![(Spectrum::Visible, &c.y)];
            if let Some((xs, zs)) = &c.xz {
                data.push((Spectrum::CieX, xs));
                data.push((Spectrum::CieZ, zs));
            }
            for (spectrum, values) in data {
                let mut text = String::with_capacity(12 * values.len() + n);
                for row in values.chunks(n) {
                    for v in row {
                        text.push('\t');
                        text.push_str(&daylit_radfile::printf::format_e(*v, 3));
                        text.push('\n');
                    }
                    text.push('\n');
                }
                blocks.push(DataBlock {
                    direction: direction(c.side),
                    spectrum,
                    source: "bsdf2klems".into(),
                    text,
                });
            }
        }
        let wrapped = Wrap {
            input: None,
            window6: true,
            fields: self.fields.clone(),
            unit: None,
            geometry: self.mgf.clone(),
            basis: Some(self.size.wrap_basis()),
            correct_solid_angle: false,
            comments: self.comments.clone(),
            blocks,
        }
        .write()
        .map_err(|e| e.message)?;
        Ok((wrapped.xml, wrapped.warnings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points of RADIANCE's 2-D Hilbert curve (`hilbert_i2c(2, 31, index)`), from its C.
    #[test]
    fn hilbert_curve_is_radiances() {
        let cases: [(u64, u64, u64); 9] = [
            (0, 0, 0),
            (1, 1, 0),
            (2, 1, 1),
            (3, 0, 1),
            (4, 0, 2),
            (15, 3, 0),
            (1234567, 1414, 357),
            (987654321, 1173, 18960),
            (3000000000000000000, 2103916543, 1833162239),
        ];
        for (idx, cx, cy) in cases {
            let t = idx as f64 / (1u64 << 62) as f64;
            let (x, y) = hilbert_square(t);
            let s = (1u64 << 31) as f64;
            assert_eq!(((x * s) as u64, (y * s) as u64), (cx, cy), "index {idx}");
        }
    }

    #[test]
    fn urand_table_is_a_permutation() {
        let mut r = RadRandom::new();
        r.init_urand(1024);
        let mut p = r.perm.clone();
        p.sort();
        assert_eq!(p, (0..1024).collect::<Vec<u16>>());
        r.init_urand(1);
        assert!(r.perm.is_empty());
    }
}
