//! BSDF data as RADIANCE 6.0a's BSDF library (`bsdf.c`, `bsdf_m.c`, `bsdf_t.c`) reads and
//! answers it: LBNL WINDOW / IGSDB / genBSDF XML files (the WindowElement schema) with Klems
//! matrices or tensor trees, for the `BSDF` material, `rmtxop` and `dctimestep`.
//!
//! # Conventions
//! - Directions are unit vectors in the BSDF's own frame: +Z is the normal of the *front*
//!   side, X lies in the surface to the right as seen from the front, Y is up. RADIANCE's
//!   front is WINDOW's back (the interior side): [`Side::Tf`] is light entering the front
//!   (+Z) side and leaving the back, which a WINDOW file labels "Transmission Back".
//! - Both directions of a query point *away* from the surface: `incoming` towards where the
//!   light comes from, `outgoing` towards where it goes, as `SDevalBSDF` takes them.
//! - Values are BSDF values in 1/sr; hemispherical values are fractions. Colour is carried as
//!   CIE XYZ ([`Value`]); [`Value::rgb`] gives RADIANCE's RGB.
//! - As RADIANCE does on loading, the smallest value of each component is split off as a
//!   Lambertian part ([`Bsdf::lambertian`], hemispherical fractions), and a component whose
//!   largest remaining directional-hemispherical value is 0.001 or less is dropped.

mod colour;
mod klems;
pub mod klems_from;
mod multisamp;
mod tree;
pub mod tree_reduce;
pub mod ttree_from;
pub mod write;
mod xml;

pub use colour::Value;
use glam::DVec3;
use std::f64::consts::PI;
use std::path::Path;

/// A located error in a BSDF file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct BsdfError {
    /// The file (as named by the caller).
    pub file: String,
    /// The line (from 1), where known.
    pub line: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl BsdfError {
    pub(crate) fn new(file: &str, line: Option<u32>, message: impl Into<String>) -> BsdfError {
        BsdfError {
            file: file.to_string(),
            line,
            message: message.into(),
        }
    }

    fn describe(&self) -> String {
        match self.line {
            Some(l) => format!("{}: line {l}: {}", self.file, self.message),
            None => format!("{}: {}", self.file, self.message),
        }
    }
}

/// The four scattering components, in RADIANCE's sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Reflection off the front (+Z) side (WINDOW's "Reflection Back").
    Rf = 0,
    /// Reflection off the back side (WINDOW's "Reflection Front").
    Rb = 1,
    /// Transmission from the front side to the back (WINDOW's "Transmission Back").
    Tf = 2,
    /// Transmission from the back side to the front (WINDOW's "Transmission Front").
    Tb = 3,
}

impl Side {
    pub(crate) const ALL: [Side; 4] = [Side::Rf, Side::Rb, Side::Tf, Side::Tb];
}

/// Which parts of the scattering a query takes (RADIANCE's `SDsamp*` flags): reflection
/// and/or transmission, each diffuse (Lambertian) and/or non-diffuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts(pub u8);

impl Parts {
    /// Reflection.
    pub const R: Parts = Parts(0x1);
    /// Transmission.
    pub const T: Parts = Parts(0x2);
    /// Reflection and transmission.
    pub const S: Parts = Parts(0x3);
    /// The non-diffuse parts (of R and/or T).
    pub const SPECULAR: Parts = Parts(0x4);
    /// The diffuse parts (of R and/or T).
    pub const DIFFUSE: Parts = Parts(0x8);
    /// Non-diffuse reflection.
    pub const SP_R: Parts = Parts(0x5);
    /// Non-diffuse transmission.
    pub const SP_T: Parts = Parts(0x6);
    /// Non-diffuse scattering.
    pub const SP_S: Parts = Parts(0x7);
    /// Everything.
    pub const ALL: Parts = Parts(0xF);

    fn has(self, p: Parts) -> bool {
        self.0 & p.0 == p.0
    }
}

impl std::ops::BitOr for Parts {
    type Output = Parts;
    fn bitor(self, o: Parts) -> Parts {
        Parts(self.0 | o.0)
    }
}

/// The Lambertian parts split off the data (hemispherical fractions with colour).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lambertian {
    pub r_front: Value,
    pub r_back: Value,
    pub t_front: Value,
    pub t_back: Value,
}

/// A matrix for `rmtxop`/`dctimestep`: `rows` exiting patches by `cols` incident patches,
/// RGB, each element the BSDF (Lambertian part included) times the incident patch's
/// projected solid angle.
#[derive(Clone, Debug, PartialEq)]
pub struct KlemsMatrix {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `data[r * cols + c]`.
    pub data: Vec<[f32; 3]>,
}

/// Which matrix [`Bsdf::klems`] makes (as `rmtxop`'s default and `-rf`/`-rb` choose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Transmission (`cm_loadBTDF`): WINDOW's "Transmission Front" (RADIANCE's `tb`), or
    /// `tf` read by reciprocity when the file has only that one.
    Transmission,
    /// Reflection off RADIANCE's front side.
    ReflectionFront,
    /// Reflection off RADIANCE's back side.
    ReflectionBack,
}

/// Where a direction falls on a Klems component's two axes (see [`Bsdf::klems_pairs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KlemsPatch {
    /// Its patch on the axis its role names (incident for an incoming direction).
    own: Option<usize>,
    /// Its patch on the other axis (read when a pair fits neither way, by reciprocity).
    other: Option<usize>,
}

/// A Klems component's lookups for many pairs of directions (see [`Bsdf::klems_pairs`]).
pub struct KlemsPairs<'a> {
    matrix: &'a klems::Matrix,
    lamb: Value,
}

impl KlemsPairs<'_> {
    /// The patches of an incoming direction.
    pub fn incoming(&self, v: DVec3) -> KlemsPatch {
        KlemsPatch {
            own: self.matrix.inc.index(v),
            other: self.matrix.out.index(v),
        }
    }

    /// The patches of an outgoing direction.
    pub fn outgoing(&self, v: DVec3) -> KlemsPatch {
        KlemsPatch {
            own: self.matrix.out.index(v),
            other: self.matrix.inc.index(v),
        }
    }

    /// What [`Bsdf::eval`] gives for the pair, from their patches.
    pub fn eval(&self, incoming: KlemsPatch, outgoing: KlemsPatch) -> [f64; 3] {
        let (i, o) = match (incoming.own, outgoing.own) {
            (None, None) => (outgoing.other, incoming.other),
            p => p,
        };
        let mut v = self.lamb;
        if let (Some(i), Some(o)) = (i, o) {
            v = v.plus(self.matrix.element(i, o));
        }
        v.rgb()
    }
}

/// A non-Lambertian component's data.
#[derive(Debug)]
pub(crate) enum Component {
    Klems(Box<klems::Matrix>),
    Tree(Box<tree::Tree>),
}

/// One side's component with RADIANCE's summary numbers.
#[derive(Debug)]
pub(crate) struct SideData {
    pub comp: Component,
    /// Largest directional-hemispherical value (Lambertian part removed).
    pub max_hemi: f64,
    /// Smallest projected solid angle of the data's resolution.
    pub min_proj_sa: f64,
}

impl Component {
    fn eval(&self, inv: DVec3, outv: DVec3) -> Option<Value> {
        match self {
            Component::Klems(m) => m.eval(inv, outv),
            Component::Tree(t) => t.eval(inv, outv),
        }
    }

    fn hemi(&self, inv: DVec3) -> f64 {
        match self {
            Component::Klems(m) => m.hemi(inv),
            Component::Tree(t) => t.hemi(inv),
        }
    }

    fn sample(&self, inv: DVec3, u: f64) -> Option<DVec3> {
        match self {
            Component::Klems(m) => m.sample(inv, u),
            Component::Tree(t) => t.sample(inv, u),
        }
    }

    /// Updates `psa` (min, max) with this component's resolution at the direction(s).
    fn proj_sa(&self, psa: &mut (f64, f64), v1: DVec3, v2: Option<DVec3>) {
        match self {
            Component::Klems(m) => {
                let (a, b) = m.proj_sa(v1, v2.unwrap_or(v1), v2.is_some());
                for c in [a, b] {
                    psa.1 = psa.1.max(c);
                    if c > 0.0 {
                        psa.0 = psa.0.min(c);
                    }
                }
            }
            Component::Tree(t) => t.proj_sa(psa, v1, v2),
        }
    }
}

/// A loaded BSDF.
#[derive(Debug)]
pub struct Bsdf {
    /// The name RADIANCE gives it: the file name without directory or suffix.
    pub name: String,
    /// The material's name and manufacturer from the file.
    pub material: String,
    pub manufacturer: String,
    /// Width, height and thickness in metres (0 when not given).
    pub width: f64,
    pub height: f64,
    pub thickness: f64,
    /// The MGF description of the layer's geometry, if the file has one.
    pub mgf: Option<String>,
    r_lamb_front: Value,
    r_lamb_back: Value,
    t_lamb_front: Value,
    t_lamb_back: Value,
    sides: [Option<SideData>; 4],
    solar: Option<Box<Bsdf>>,
}

/// RADIANCE's name of a BSDF file (`SDclipName`): the path without the suffix of its last
/// component.
fn clip_name(file: &str) -> String {
    let dir_end = file.rfind('/').map_or(0, |p| p + 1);
    match file[dir_end..].rfind('.') {
        Some(d) if dir_end + d >= 2 => file[..dir_end + d].to_string(),
        _ => file.to_string(),
    }
}

impl Bsdf {
    pub(crate) fn empty(file: &str) -> Bsdf {
        Bsdf {
            name: clip_name(file),
            material: String::new(),
            manufacturer: String::new(),
            width: 0.0,
            height: 0.0,
            thickness: 0.0,
            mgf: None,
            r_lamb_front: Value::ZERO,
            r_lamb_back: Value::ZERO,
            t_lamb_front: Value::ZERO,
            t_lamb_back: Value::ZERO,
            sides: Default::default(),
            solar: None,
        }
    }

    /// Loads a BSDF XML file.
    pub fn load(path: &Path) -> Result<Bsdf, BsdfError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| BsdfError::new(&name, None, format!("cannot read: {e}")))?;
        let text = String::from_utf8_lossy(&bytes);
        Bsdf::from_str(&text, &name)
    }

    /// Reads a BSDF from XML text; `name_for_errors` names it in errors and gives its name.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str, name_for_errors: &str) -> Result<Bsdf, BsdfError> {
        xml::parse(text, name_for_errors)
    }

    pub(crate) fn lamb_mut(&mut self, side: Side) -> &mut Value {
        match side {
            Side::Rf => &mut self.r_lamb_front,
            Side::Rb => &mut self.r_lamb_back,
            Side::Tf => &mut self.t_lamb_front,
            Side::Tb => &mut self.t_lamb_back,
        }
    }

    /// Drops components of no significance (largest hemispherical value 0.001 or less).
    pub(crate) fn drop_insignificant(&mut self) {
        for s in &mut self.sides {
            if s.as_ref().is_some_and(|d| d.max_hemi <= 0.001) {
                *s = None;
            }
        }
    }

    /// With one transmission given, its Lambertian part serves both sides, as RADIANCE
    /// reads it.
    pub(crate) fn share_transmission_lambertian(&mut self) {
        match (
            self.sides[Side::Tf as usize].is_some(),
            self.sides[Side::Tb as usize].is_some(),
        ) {
            (false, true) => self.t_lamb_front = self.t_lamb_back,
            (true, false) => self.t_lamb_back = self.t_lamb_front,
            _ => {}
        }
    }

    fn side(&self, s: Side) -> Option<&SideData> {
        self.sides[s as usize].as_ref()
    }

    /// Whether the BSDF has a non-Lambertian component for `s` (before the other side's
    /// transmission is borrowed).
    pub fn has_component(&self, s: Side) -> bool {
        self.side(s).is_some()
    }

    /// RADIANCE's summary of a component (`maxHemi`, `minProjSA`): its largest
    /// directional-hemispherical value (Lambertian part removed) and the smallest projected
    /// solid angle of its resolution; none when the side has no non-Lambertian data.
    pub fn component_summary(&self, s: Side) -> Option<(f64, f64)> {
        self.side(s).map(|d| (d.max_hemi, d.min_proj_sa))
    }

    /// Whether the side's non-Lambertian data has colour (CIE X and Z blocks).
    pub fn component_has_colour(&self, s: Side) -> bool {
        matches!(self.side(s), Some(SideData { comp: Component::Klems(m), .. }) if m.chroma.is_some())
    }

    /// Whether the data is a tensor tree (else Klems, or Lambertian only).
    pub fn is_tree(&self) -> bool {
        self.sides
            .iter()
            .flatten()
            .any(|s| matches!(s.comp, Component::Tree(_)))
    }

    /// The BSDF made from the file's Solar blocks, when it has them.
    pub fn solar(&self) -> Option<&Bsdf> {
        self.solar.as_deref()
    }

    /// The reflection and transmission components for light arriving on the side of `v`:
    /// transmission borrows the other side's data when its own is absent, as RADIANCE does.
    fn comps_for(&self, front: bool) -> (Option<&SideData>, Option<&SideData>) {
        if front {
            (
                self.side(Side::Rf),
                self.side(Side::Tf).or(self.side(Side::Tb)),
            )
        } else {
            (
                self.side(Side::Rb),
                self.side(Side::Tb).or(self.side(Side::Tf)),
            )
        }
    }

    /// The BSDF (1/sr, Lambertian parts included) for light arriving from `incoming` and
    /// leaving towards `outgoing`, with colour (`SDevalBSDF`).
    pub fn eval_value(&self, incoming: DVec3, outgoing: DVec3) -> Value {
        let (inf, outf) = (incoming.z > 0.0, outgoing.z > 0.0);
        let (lamb, data) = match (inf, outf) {
            (true, true) => (self.r_lamb_front, self.side(Side::Rf)),
            (false, false) => (self.r_lamb_back, self.side(Side::Rb)),
            (true, false) => (self.t_lamb_front, self.comps_for(true).1),
            (false, true) => (self.t_lamb_back, self.comps_for(false).1),
        };
        let mut v = lamb.scale(1.0 / PI);
        if let Some(c) = data.and_then(|d| d.comp.eval(incoming, outgoing)) {
            v = v.plus(c);
        }
        v
    }

    /// For Klems data, the component [`Bsdf::eval_value`] reads for light arriving on side
    /// `incoming_front` and leaving on side `outgoing_front`, as lookups that find each
    /// direction's patch once: many pairs then cost a table read each. `None` for a tensor
    /// tree or when the sides have no data beyond the Lambertian part.
    pub fn klems_pairs(
        &self,
        incoming_front: bool,
        outgoing_front: bool,
    ) -> Option<KlemsPairs<'_>> {
        let (lamb, data) = match (incoming_front, outgoing_front) {
            (true, true) => (self.r_lamb_front, self.side(Side::Rf)),
            (false, false) => (self.r_lamb_back, self.side(Side::Rb)),
            (true, false) => (self.t_lamb_front, self.comps_for(true).1),
            (false, true) => (self.t_lamb_back, self.comps_for(false).1),
        };
        match &data?.comp {
            Component::Klems(m) => Some(KlemsPairs {
                matrix: m,
                lamb: lamb.scale(1.0 / PI),
            }),
            Component::Tree(_) => None,
        }
    }

    /// [`Bsdf::eval_value`] as RGB in RADIANCE's primaries.
    pub fn eval(&self, incoming: DVec3, outgoing: DVec3) -> [f64; 3] {
        self.eval_value(incoming, outgoing).rgb()
    }

    /// The directional-hemispherical value for light from `incoming` of the parts asked for
    /// (`SDdirectHemi`).
    pub fn direct_hemi(&self, incoming: DVec3, parts: Parts) -> f64 {
        let front = incoming.z > 0.0;
        let (r, t) = self.comps_for(front);
        let mut sum = 0.0;
        if parts.has(Parts::DIFFUSE | Parts::R) {
            sum += if front {
                self.r_lamb_front.y()
            } else {
                self.r_lamb_back.y()
            };
        }
        if parts.has(Parts::DIFFUSE | Parts::T) {
            sum += if front {
                self.t_lamb_front.y()
            } else {
                self.t_lamb_back.y()
            };
        }
        if parts.has(Parts::SP_R) {
            sum += r.map_or(0.0, |d| d.comp.hemi(incoming));
        }
        if parts.has(Parts::SP_T) {
            sum += t.map_or(0.0, |d| d.comp.hemi(incoming));
        }
        sum
    }

    /// The (smallest, largest) projected solid angle of the data's resolution around `v1`,
    /// or for the pair `v1`, `v2` (reflection or transmission only, by their sides)
    /// (`SDsizeBSDF` with `SDqueryMin+SDqueryMax`); π for Lambertian-only data.
    pub fn size(&self, v1: DVec3, v2: Option<DVec3>) -> (f64, f64) {
        let (mut r, mut t) = self.comps_for(v1.z > 0.0);
        if let Some(v2) = v2 {
            if (v1.z > 0.0) != (v2.z > 0.0) {
                r = None;
            } else {
                t = None;
            }
        }
        if r.is_none() && t.is_none() {
            return (PI, PI);
        }
        let mut psa = (10.0, 0.0);
        for d in [r, t].into_iter().flatten() {
            d.comp.proj_sa(&mut psa, v1, v2);
        }
        if psa.0 > psa.1 {
            psa.0 = psa.1;
        }
        psa
    }

    /// An outgoing direction for light arriving from `incoming`, drawn with the uniform
    /// number `u` in [0, 1) among the parts asked for in proportion to their
    /// directional-hemispherical values, and its weight: the value of all those parts
    /// together (`SDdirectHemi` of `parts`) in the colour of the part drawn (`SDsampBSDF`).
    /// None when there is nothing to draw (the parts' total 1e-6 or less).
    pub fn sample(&self, incoming: DVec3, u: f64, parts: Parts) -> Option<(DVec3, Value)> {
        let front = incoming.z > 0.0;
        let (r, t) = self.comps_for(front);
        let (rl, tl) = if front {
            (self.r_lamb_front, self.t_lamb_front)
        } else {
            (self.r_lamb_back, self.t_lamb_back)
        };
        let rdiff = if parts.has(Parts::DIFFUSE | Parts::R) {
            rl.y()
        } else {
            0.0
        };
        let tdiff = if parts.has(Parts::DIFFUSE | Parts::T) {
            tl.y()
        } else {
            0.0
        };
        let mut comps: Vec<(&Component, f64)> = Vec::with_capacity(2);
        if parts.has(Parts::SP_R) {
            if let Some(d) = r {
                comps.push((&d.comp, d.comp.hemi(incoming)));
            }
        }
        if parts.has(Parts::SP_T) {
            if let Some(d) = t {
                comps.push((&d.comp, d.comp.hemi(incoming)));
            }
        }
        let total = rdiff + tdiff + comps.iter().map(|c| c.1).sum::<f64>();
        if total <= 1e-6 {
            return None;
        }
        let mut x = u.clamp(0.0, 1.0 - 1e-16) * total;
        if x < rdiff {
            return Some((diffuse_dir(x / rdiff, front), rl.with_y(total)));
        }
        x -= rdiff;
        if x < tdiff {
            return Some((diffuse_dir(x / tdiff, !front), tl.with_y(total)));
        }
        x -= tdiff;
        for (k, &(c, h)) in comps.iter().enumerate() {
            if x < h || k == comps.len() - 1 {
                let dir = c.sample(incoming, (x / h).min(1.0 - 1e-16))?;
                let v = c.eval(incoming, dir).unwrap_or(Value::grey(1.0));
                return Some((dir, v.with_y(total)));
            }
            x -= h;
        }
        None
    }

    /// The Lambertian parts split off the data.
    pub fn lambertian(&self) -> Lambertian {
        Lambertian {
            r_front: self.r_lamb_front,
            r_back: self.r_lamb_back,
            t_front: self.t_lamb_front,
            t_back: self.t_lamb_back,
        }
    }

    /// The matrix `rmtxop` and `dctimestep` make of a Klems BSDF (`cm_loadBTDF`,
    /// `cm_loadBRDF`); a Lambertian-only component gives a full-basis (145×145) matrix.
    /// An error for tensor-tree data, which has no matrix.
    pub fn klems(&self, which: Which) -> Result<KlemsMatrix, String> {
        let (lamb, data, recip) = match which {
            Which::Transmission => {
                if self.side(Side::Tb).is_some() {
                    (self.t_lamb_back, self.side(Side::Tb), false)
                } else {
                    (self.t_lamb_front, self.side(Side::Tf), true)
                }
            }
            Which::ReflectionFront => (self.r_lamb_front, self.side(Side::Rf), false),
            Which::ReflectionBack => (self.r_lamb_back, self.side(Side::Rb), false),
        };
        let diff = rgb_f32(lamb.scale(1.0 / PI));
        let Some(d) = data else {
            let basis = &klems::Basis::standard()[0];
            let n = basis.len();
            let mut data = Vec::with_capacity(n * n);
            for _ in 0..n {
                for c in 0..n {
                    let dom = basis.proj_sa(c);
                    data.push(diff.map(|v| (v as f64 * dom) as f32));
                }
            }
            return Ok(KlemsMatrix {
                rows: n,
                cols: n,
                data,
            });
        };
        let Component::Klems(m) = &d.comp else {
            return Err(format!(
                "unsupported BSDF '{}' (not a Klems matrix)",
                self.name
            ));
        };
        Ok(m.to_rmtx(diff, recip))
    }
}

/// RGB of a value in single precision as RADIANCE's `ccy2rgb` into a `COLOR` computes it.
pub(crate) fn rgb_f32(v: Value) -> [f32; 3] {
    let (x, y) = v.xy();
    let (x, y) = (x as f32, y as f32);
    let yv = v.y() as f32;
    let d = x / y;
    let xyz = [d * yv, yv, (1.0 / y - d - 1.0) * yv];
    let m = daylit_image::color::xyz_to_rgb_matrix();
    let rows = [m.row(0), m.row(1), m.row(2)];
    let mut rgb = [0f32; 3];
    for (k, r) in rows.iter().enumerate() {
        rgb[k] = r.x as f32 * xyz[0] + r.y as f32 * xyz[1] + r.z as f32 * xyz[2];
    }
    let c = daylit_image::color::clip_to_gamut(
        glam::DVec3::new(rgb[0] as f64, rgb[1] as f64, rgb[2] as f64),
        xyz[1] as f64,
    );
    if rgb.iter().any(|&v| v < 0.0) {
        [c.x as f32, c.y as f32, c.z as f32]
    } else {
        rgb
    }
}

/// A cosine-weighted direction on the front (`front`) or back hemisphere from `u` in [0, 1).
fn diffuse_dir(u: f64, front: bool) -> DVec3 {
    let (a, b) = klems::split_unit(u);
    let r = a.sqrt();
    let phi = 2.0 * PI * b;
    let z = (1.0 - a).max(0.0).sqrt();
    DVec3::new(r * phi.cos(), r * phi.sin(), if front { z } else { -z })
}
