//! Contribution coefficients, as RADIANCE's `rcontrib` gathers them: every ray that reaches a
//! surface whose modifier is in the set adds its path coefficient (the product of the colour
//! coefficients from the primary ray down to it) to one bin of that modifier, chosen from the
//! ray's direction. Summed over a sensor's rays, the bins are daylight coefficients: multiply
//! them by each bin's radiance to get the sensor's value.

use crate::ray::{rtype::SHADOW, RayState};
use crate::Renderer;
use daylit_scene::PrimId;
use glam::DVec3;
use std::sync::Arc;

/// What a bin function sees of a ray that reached a contributing modifier: the ray variables
/// rcontrib's bin expressions read (`Dx`, `Px`, `Nx`, `T`, ...), in world coordinates.
#[derive(Clone, Copy, Debug)]
pub struct BinRay {
    /// The ray's origin.
    pub org: DVec3,
    /// Unit direction, pointing from the origin towards the modifier's surface (away from
    /// the scene for the sky).
    pub dir: DVec3,
    /// Where the ray met the surface (far along the ray for a distant source).
    pub point: DVec3,
    /// The surface normal there (against the ray for a distant source).
    pub normal: DVec3,
    /// Distance travelled.
    pub dist: f64,
}

/// Maps a ray to a bin, `None` to ignore it.
pub type BinFn = Arc<dyn Fn(&BinRay) -> Option<usize> + Send + Sync>;

/// One contributing modifier and how its hits are binned.
#[derive(Clone)]
pub struct ContribModifier {
    /// The modifier (a material such as the sky's `glow`).
    pub modifier: PrimId,
    /// Number of bins.
    pub bins: usize,
    /// The bin of a direction; `None` puts everything in bin 0 (`-b 0`).
    pub bin: Option<BinFn>,
}

/// What to gather in a contribution run.
#[derive(Clone, Default)]
pub struct ContribSpec {
    /// The modifiers, in output order.
    pub modifiers: Vec<ContribModifier>,
    /// Multiply by the ray's value (`-V+`: contributions) instead of gathering coefficients.
    pub values: bool,
    /// Also gather, in a second set of bins after the first, the paths that go from an
    /// irradiance sensor's hemisphere straight to the modifier through transparent surfaces
    /// only (no reflection): the direct daylight coefficients of the five-phase method.
    pub split_direct: bool,
}

impl ContribSpec {
    /// Bins over all modifiers (one set; doubled in [`Ctx::contrib`](crate::Ctx) with
    /// `split_direct`).
    pub fn total_bins(&self) -> usize {
        self.modifiers.iter().map(|m| m.bins).sum()
    }
}

/// The spec as the tracer uses it: which shapes and sources belong to which modifier slot.
pub(crate) struct ContribTable {
    pub spec: ContribSpec,
    /// Bin offset of each modifier.
    offsets: Vec<usize>,
    /// Values gathered per sensor: all bins, twice with `split_direct`.
    len: usize,
    /// Slot of each compiled shape's modifier, `u32::MAX` when it does not contribute.
    pub shape_slot: Vec<u32>,
    /// Slot of each source's modifier (distant sources are found by direction).
    pub source_slot: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Renderer {
    /// Gathers contributions from now on; each context's [`Ctx::contrib`](crate::Ctx) then
    /// holds the bins of the rays traced with it (reset it between sensors). As rcontrib
    /// does, this turns off ambient super-samples (`-as 0`: a super-sampled division
    /// averages its rays, so no single path coefficient holds) and the shadow threshold
    /// (`-dt 0`: skipped shadow rays would leave their sources out of the bins), and it
    /// selects RADIANCE's ambient estimator unless `--daylit-ambient` was given.
    pub fn set_contributions(&mut self, spec: ContribSpec) {
        self.opts.as_ = 0;
        self.opts.dt = 0.0;
        // RADIANCE's ambient estimator unless daylit's is asked for (`--daylit-ambient`).
        self.opts.radiance_ambient |= !self.opts.daylit_ambient;
        let slot_of = |m: Option<PrimId>| {
            m.and_then(|m| spec.modifiers.iter().position(|c| c.modifier == m))
                .map_or(NONE, |i| i as u32)
        };
        let shape_slot: Vec<u32> = (0..self.shape_mods.len())
            .map(|i| slot_of(self.shape_modifier(i)))
            .collect();
        if self.opts.daylit_ambient {
            // Light reaches a receiver's surfaces (rfluxmtx's window groups of a view matrix)
            // through the small solid angle they fill: daylit's estimator aims at them as at
            // windows. The balance heuristic keeps every bin unbiased.
            let receiver = |i: u32| shape_slot.get(i as usize).is_some_and(|&s| s != NONE);
            self.portals = crate::portals::Portals::find(
                &self.compiled.accel,
                &self.compiled.accel,
                |i| self.portals.window(i) || receiver(i),
                &crate::portals::Beam::suns(&self.sources),
            );
        }
        let source_slot = self.sources.iter().map(|s| slot_of(s.modifier)).collect();
        let mut offsets = Vec::with_capacity(spec.modifiers.len());
        let mut at = 0;
        for m in &spec.modifiers {
            offsets.push(at);
            at += m.bins;
        }
        let len = at * (1 + usize::from(spec.split_direct));
        self.contrib = Some(Box::new(ContribTable {
            spec,
            offsets,
            len,
            shape_slot,
            source_slot,
        }));
    }

    /// Number of values a context gathers per sensor (0 without contributions).
    pub fn contrib_len(&self) -> usize {
        self.contrib.as_ref().map_or(0, |t| t.len)
    }

    /// Records ray `r`, which reached a surface of modifier slot `slot` at `at` with value
    /// `value`.
    pub(crate) fn record(
        &self,
        r: &RayState,
        at: &BinRay,
        slot: u32,
        value: DVec3,
        ctx: &mut crate::Ctx,
    ) {
        let Some(t) = self.contrib.as_deref() else {
            return;
        };
        let m = &t.spec.modifiers[slot as usize];
        let bin = match &m.bin {
            None => 0,
            Some(f) => match f(at) {
                Some(b) if b < m.bins => b,
                _ => return,
            },
        };
        let mut c = r.coef;
        if t.spec.values {
            c *= value;
        }
        let at = t.offsets[slot as usize] + bin;
        // A context made before the contributions were set has no bins yet.
        if ctx.contrib.len() < t.len {
            ctx.contrib.resize(t.len, DVec3::ZERO);
        }
        ctx.contrib[at] += c;
        // Straight from the sensor's hemisphere: one ambient "reflection" at the sensor and
        // nothing but transmission since.
        if t.spec.split_direct && r.level <= 1 && r.adepth <= 1 && r.crtype & SHADOW == 0 {
            ctx.contrib[t.len / 2 + at] += c;
        }
    }
}
