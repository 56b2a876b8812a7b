//! The parallel multiple-bounce irradiance cache of Jones and Reinhart (seed 001, Algorithm
//! 1; thesis §4.5), daylit's engine for `-aa` above 0.
//!
//! Building runs in two sweeps. Going out from the eye, *coarse geometry sampling* follows the
//! run's primary rays (and, one bounce further each time, hemisphere rays from the points kept
//! at the level before, at most `GEOMETRY_RAYS_PER_LEVEL` a level) to every place an ambient
//! value will be asked for, and keeps a subset spaced `r_coarse = √(r_min·r_max)` apart
//! ([`select`]) as the next level's origins; every candidate found is kept (thinned to half
//! the finest spacing below level 0). Coming back from the deepest bounce, each level's
//! records get their irradiance from a full hemisphere that reads the level below
//! ([`record`]), with RADIANCE's Hessian validity ellipses. Records are placed in passes of halving spacing, from the largest radius a
//! record covers (`-aa × r_max`, grown with depth: `Params::first_record_spacing`) down to
//! `r_min`, each among the candidates the records so far leave uncovered; below level 0 the
//! passes stop once a new record would cover fewer than a couple of them. Every phase runs
//! in parallel. Rendering then reads level 0 ([`lookup`]); a point no record covers gets a
//! plain hemisphere (a final gather) whose rays read level 1, and is counted. A gap in a
//! deeper level gets a sparser hemisphere (see `ambient::GAP_DIVISIONS`).
//!
//! Radii follow RADIANCE: `r_min = scene size / -ar`, `r_max = min(64 r_min, scene size / 5)`,
//! a record covers `-aa × radius`; deeper bounces (weight `0.5^level`) get radii `weight^-¼`
//! larger, not RADIANCE's `weight^-½` ([`radius_growth`]). Hemisphere super-samples go where
//! neighbouring divisions differ, chosen so as not to bias the mean
//! (`ambient::supersample_counts`). Random numbers come from the seed and each point's place
//! in its list, so a build is the same on any number of threads.

pub mod file;
pub mod lookup;
pub mod record;
pub mod select;

use crate::ray::{rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_geometry::Tracer;
use glam::{DVec3, Vec3};
use lookup::{Level, Query};
use rand::Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub(crate) use crate::ambient::AVGREFL;

/// Geometry rays traced per level at most; fewer per origin when there are many origins (at
/// least 4 × 4 each), since neighbouring origins see the same surfaces.
const GEOMETRY_RAYS_PER_LEVEL: usize = 1 << 16;

/// Geometry rays per origin, as a fraction of the hemisphere samples a record there would
/// take: their hits only mark where values will be asked, and neighbouring origins see the
/// same surfaces. Half as many as a record's measured 12-23 % faster at equal error (within
/// the noise of four seeds) at `-aa` 0.2, 0.1 and 0.05 (BENCHMARKS.md).
const GEOMETRY_DIVISIONS: f64 = 0.5;

/// A fine pass is made only while each of its records would cover at least this many of the
/// candidates still uncovered (on average); fewer, and gathering them costs less.
const MIN_GAPS_PER_RECORD: f64 = 2.0;

/// Seeds of the build's random sequences, apart from the render's (which use the ray index).
const SEED_PRIMARY: u64 = 1 << 60;
const SEED_GEOMETRY: u64 = 2 << 60;
const SEED_RECORD: u64 = 3 << 60;
const SEED_EXTEND: u64 = 4 << 60;

/// Candidates closer than this fraction of the fine spacing to one kept before add nothing to
/// where records go, only to the cost of every pass that filters them (levels after the
/// first; level 0's candidates are the very points asked for).
const THIN_SPACING: f64 = 0.5;

/// A place where an ambient value will be asked for: a hit and the ray that made it.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub point: DVec3,
    /// Unperturbed surface normal as shading sees it (`ron`).
    pub ron: Vec3,
    /// Direction of the ray that hit.
    pub dir: Vec3,
    pub shape: u32,
    pub weight: f32,
    pub level: u16,
    pub crtype: u16,
    pub adepth: u8,
    /// The back side is sampled (diffuse transmission).
    pub back: bool,
    pub flat: bool,
    /// The participating medium the ray was in (extinction and scattering), which the
    /// record's hemisphere rays travel through as RADIANCE's do; `None` outside any.
    pub medium: Option<Arc<(DVec3, crate::ray::Scatter)>>,
}

impl Candidate {
    fn new(r: &RayState, s: &Surf, back: bool) -> Candidate {
        Candidate {
            point: s.point,
            ron: s.normal.as_vec3(),
            dir: s.dir.as_vec3(),
            shape: s.shape.unwrap_or(u32::MAX),
            weight: r.weight as f32,
            level: r.level.min(u16::MAX as u32) as u16,
            crtype: r.crtype,
            adepth: r.adepth.min(255) as u8,
            back,
            flat: s.flat,
            medium: (r.cext != DVec3::ZERO).then(|| Arc::new((r.cext, r.scatter))),
        }
    }

    /// The normal of the sampled side.
    pub fn oriented_normal(&self) -> DVec3 {
        let n = self.ron.as_dvec3().normalize();
        if self.back {
            -n
        } else {
            n
        }
    }

    /// A ray and hit standing in for the one that found this point.
    pub fn parent(&self) -> (RayState, Surf) {
        let ron = self.ron.as_dvec3().normalize();
        let dir = self.dir.as_dvec3().normalize();
        let s = Surf {
            point: self.point,
            normal: ron,
            rod: -dir.dot(ron),
            t: 1.0,
            shape: (self.shape != u32::MAX).then_some(self.shape),
            flat: self.flat,
            dir,
            uv: [0.0; 2],
        };
        let r = RayState {
            org: self.point - dir,
            dir,
            weight: self.weight as f64,
            level: self.level as u32,
            rtype: if self.adepth == 0 { PRIMARY } else { RAMBIENT },
            crtype: self.crtype,
            rsrc: None,
            adepth: self.adepth as u32,
            cext: self.medium.as_ref().map_or(DVec3::ZERO, |m| m.0),
            from: None,
            primary_dist: 0.0,
            coef: DVec3::ONE,
            clip: crate::ray::ClipSet::default(),
            scatter: self.medium.as_ref().map_or_else(Default::default, |m| m.1),
        };
        (r, s)
    }
}

/// The radii and sizes the cache works with, from the options and the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// `-aa`.
    pub aa: f64,
    /// Smallest record radius (RADIANCE's `minarad`: scene size / `-ar`).
    pub minarad: f64,
    /// Largest record radius (RADIANCE's `maxarad`).
    pub maxarad: f64,
    /// Scene size: the largest extent of its bounding box.
    pub cusize: f64,
    /// `-ab`: levels of records.
    pub levels: usize,
}

impl Params {
    /// RADIANCE's `setambres` on this scene.
    pub fn new(rd: &Renderer) -> Params {
        let (lo, hi) = rd.compiled.accel.bounds();
        let ext = hi - lo;
        let cusize = if ext.is_finite() {
            ext.max_element().max(1e-3)
        } else {
            1.0
        };
        let o = &rd.opts;
        let tiny = 10.0 * daylit_geometry::FTINY;
        let (mut minarad, mut maxarad) = if o.ar == 0 {
            (0.0, cusize * 0.2)
        } else {
            let m = cusize / o.ar as f64;
            (m, (64.0 * m).min(cusize * 0.2))
        };
        if minarad <= tiny {
            minarad = tiny;
        }
        if maxarad <= minarad {
            maxarad = 64.0 * minarad;
        }
        Params {
            aa: o.aa,
            minarad,
            maxarad,
            cusize,
            levels: if o.ad == 0 { 0 } else { o.ab as usize },
        }
    }

    /// Spacing of the fine points at `level`: the smallest covered radius, `-aa × r_min`,
    /// grown as the records' radii grow with depth; never below 1/64 of the largest, so that
    /// `-ar 0` (no lower limit) stays finite.
    pub fn fine_spacing(&self, level: usize) -> f64 {
        let grow = radius_growth(AVGREFL.powi(level as i32));
        let rmax = self.aa * self.maxarad;
        (self.aa * self.minarad * grow).max(rmax / 64.0).min(rmax)
    }

    /// Spacing of the first records of `level`: the largest radius a record there covers,
    /// `-aa × r_max`, grown with depth as the radii are. Where the records' Hessian radii are
    /// smaller, the candidates they leave uncovered get the fine passes; so the record density
    /// follows `-aa`, `-ar` and the light's variation on any scene scale, as RADIANCE's lazy
    /// cache's does. (Starting level 0 at `√(r_min · r_max)` put a record on nearly every pixel
    /// of RADIANCE's 1 m `corner` test scene: 4198 records for a 128 × 128 picture, against
    /// RADIANCE's 925; starting level 1 there made 2.6-3.6 times RADIANCE's records on its
    /// scenes for `rtrace -ab 2`. The office's sensor errors, averaged over 4-6 seeds, moved
    /// within their noise: clear sun MARD 1.58 -> 1.48 %, overcast -aa 0.05 2.03 -> 2.27 %.)
    pub fn first_record_spacing(&self, level: usize) -> f64 {
        self.aa * self.maxarad * radius_growth(AVGREFL.powi(level as i32))
    }

    /// Spacing of the coarse geometry points (the next level's origins): `√(r_min · r_max)`.
    pub fn coarse_spacing(&self, level: usize) -> f64 {
        (self.fine_spacing(level) * self.aa * self.maxarad).sqrt()
    }
}

/// How much larger the radii of records made for rays of weight `wt` are than level 0's:
/// `wt^-¼`. RADIANCE grows them as `wt^-½`, sizing a deeper level's error to its smaller share
/// of the value; that holds for noise, but interpolation's error is systematic (a record's
/// value carried over a curved irradiance field, second order in the radius: `∝ 1/wt` with
/// RADIANCE's growth), so each level adds the same bias and the sum grows with `-ab`: +1.3 %
/// at `-ab 5` and +2.4 % at `-ab 8` in the validation office at `-aa 0.2`. With `wt^-¼` a
/// level's share falls as `√wt`, a geometric series bounded at any `-ab` (+0.7 % at `-ab 8`),
/// for 30-50 % more build time than RADIANCE's growth (BENCHMARKS.md, "The irradiance cache
/// on dense grids").
pub(crate) fn radius_growth(wt: f64) -> f64 {
    wt.powf(-0.25)
}

/// Counts and times of one build, per level (level 0 is what primary rays read).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Candidates found by coarse geometry sampling.
    pub candidates: Vec<usize>,
    /// Records from coarse points.
    pub coarse: Vec<usize>,
    /// Candidates left uncovered after the coarse records.
    pub uncovered: Vec<usize>,
    /// Records from fine points (all fine passes).
    pub fine: Vec<usize>,
    /// Candidates still uncovered after the fine passes: left to final gathers.
    pub left: Vec<usize>,
    /// Points whose hemisphere gave no record (incomplete sampling).
    pub failed: Vec<usize>,
    /// Lookups during the build that found no record at the level below (final gathers).
    pub build_gathers: Vec<u64>,
    /// Seconds: coarse geometry, coarse irradiance, fine geometry, fine irradiance.
    pub seconds: [f64; 4],
    /// The cache was read from a file.
    pub loaded: bool,
}

impl Stats {
    /// Zero counts for `levels` levels.
    fn for_levels(levels: usize) -> Stats {
        let zeros = vec![0; levels];
        Stats {
            candidates: zeros.clone(),
            coarse: zeros.clone(),
            uncovered: zeros.clone(),
            fine: zeros.clone(),
            left: zeros.clone(),
            failed: zeros.clone(),
            build_gathers: vec![0; levels],
            ..Stats::default()
        }
    }

    /// A report for stderr.
    pub fn report(&self, cache: &IrradianceCache) -> String {
        let p = &cache.params;
        let mut s = format!(
            "irradiance cache: -aa {} r_min {:.4} r_max {:.4} (covered radii; scene size {:.3}){}\n",
            p.aa,
            p.aa * p.minarad,
            p.aa * p.maxarad,
            p.cusize,
            if self.loaded { ", read from file" } else { "" }
        );
        for l in 0..cache.levels.len() {
            let g = |v: &Vec<usize>| v.get(l).copied().unwrap_or(0);
            s += &format!(
                "  level {l}: {} candidates, {} coarse records, {} uncovered, {} fine records, {} left uncovered, {} failed, {} gathers while building; {} records\n",
                g(&self.candidates),
                g(&self.coarse),
                g(&self.uncovered),
                g(&self.fine),
                g(&self.left),
                g(&self.failed),
                self.build_gathers.get(l).copied().unwrap_or(0),
                cache.levels[l].records.len()
            );
        }
        let t = self.seconds;
        s += &format!(
            "  time: coarse geometry {:.2} s, coarse irradiance {:.2} s, fine geometry {:.2} s, fine irradiance {:.2} s\n",
            t[0], t[1], t[2], t[3]
        );
        s
    }
}

/// A built cache: records per bounce level, and counts of the lookups no record answered.
#[derive(Debug)]
pub struct IrradianceCache {
    /// Radii and sizes it was built with.
    pub params: Params,
    /// Records by ambient depth (0: read by primary rays).
    pub levels: Vec<Arc<Level>>,
    /// Lookups per level that found no record and gathered a hemisphere instead.
    gathers: Vec<AtomicU64>,
}

impl IrradianceCache {
    fn from_levels(params: Params, levels: Vec<Arc<Level>>) -> IrradianceCache {
        let gathers = (0..levels.len()).map(|_| AtomicU64::new(0)).collect();
        IrradianceCache {
            params,
            levels,
            gathers,
        }
    }

    /// Records at all levels.
    pub fn len(&self) -> usize {
        self.levels.iter().map(|l| l.records.len()).sum()
    }

    /// No records at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lookups per level since the cache was built that no record answered (each answered by a
    /// final gather instead).
    pub fn gathers(&self) -> Vec<u64> {
        self.gathers
            .iter()
            .map(|g| g.load(Ordering::Relaxed))
            .collect()
    }
}

impl Renderer {
    /// The cached ambient value at a hit, or `None` to gather a hemisphere instead. While
    /// geometry sampling, records the hit as a candidate and returns black.
    pub(crate) fn cached_ambient(
        &self,
        aval: DVec3,
        r: &RayState,
        s: &Surf,
        nrm: DVec3,
        back: bool,
        ctx: &mut Ctx,
    ) -> Option<DVec3> {
        if let Some(c) = ctx.collect.as_mut() {
            c.push(Candidate::new(r, s, back));
            return Some(DVec3::ZERO);
        }
        let cache = ctx.cache.as_deref()?;
        let a = r.adepth as usize;
        let level = cache.levels.get(a)?;
        let sgn = if back { -1.0 } else { 1.0 };
        let occ = |o: DVec3, d: DVec3, len: f64| self.occluded(o, d, len);
        let q = Query {
            p: s.point,
            n: s.normal * sgn,
            rn: nrm,
            weight: r.weight,
            occluded: Some(&occ),
        };
        let p = &cache.params;
        if let Some(v) = level.lookup(&q, p.aa, p.minarad) {
            return Some(aval * v);
        }
        cache.gathers[a].fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Whether an opaque surface lies within `len` of `org` along `dir` (see-through
    /// materials, `void` and antimatter let the test through, as RADIANCE's leak test does;
    /// unlike RADIANCE, `trans` stops it as its siblings do, since the light on its two sides
    /// differs: a translucent partition otherwise lets records light the room behind it).
    pub(crate) fn occluded(&self, org: DVec3, dir: DVec3, len: f64) -> bool {
        use crate::material::{LightKind, Material};
        let ray = daylit_geometry::Ray::new(org, dir);
        let tmin = daylit_geometry::FTINY * (1.0 + org.abs().max_element() * 1e-4);
        self.tracer().any_hit_filtered(&ray, tmin, len, |p| {
            let Some(m) = self.shape_mods[p as usize].material else {
                return false;
            };
            match self.mods.material(m) {
                Material::Brtd(b) => return !b.transparent,
                Material::Wgmd(w) => return !w.transparent,
                Material::Bsdf(b) => return !b.aperture,
                _ => {}
            }
            !matches!(
                self.mods.material(m),
                Material::Glass { .. }
                    | Material::Dielectric { .. }
                    | Material::Antimatter(_)
                    | Material::Mist(_)
                    | Material::Light {
                        kind: LightKind::Illum(_),
                        ..
                    }
            )
        })
    }

    /// Installs `cache` for every context made from now on (`None` removes it: ambient values
    /// are then computed as with `-aa 0`).
    pub fn set_irradiance_cache(&mut self, cache: Option<Arc<IrradianceCache>>) {
        self.cache = cache;
    }

    /// The installed cache.
    pub fn irradiance_cache(&self) -> Option<&Arc<IrradianceCache>> {
        self.cache.as_ref()
    }

    /// Builds the cache for a run whose `n` primary rays `primary(renderer, i, ctx)` traces
    /// (Algorithm 1 of seed 001). Runs on the current rayon pool.
    pub fn build_irradiance_cache<F>(&self, n: usize, primary: F) -> (IrradianceCache, Stats)
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        self.grow_irradiance_cache(None, n, &primary, SEED_RECORD)
    }

    /// `cache` with records added where the `n` primary rays that `primary` traces (as for
    /// [`Self::build_irradiance_cache`]) and the bounces below them find none, placed as the
    /// build places them. (Leaving such points to final gathers would be cheaper, a record
    /// also takes the Hessian of its samples, but a gather is a plain `-aa 0` hemisphere,
    /// which `-lw` biases: on the reference office's fisheye at `-ab 1 -lw 0.002`, 2.5 %
    /// low against 0.3 % for records.) Extension `round` seeds its random sequences, so
    /// extending in the same rounds gives the same cache on any number of threads. rpict
    /// extends its cache so for the pixels that adaptive sampling decides to trace only once
    /// it has traced their neighbours: RADIANCE's lazy cache makes records only there, too.
    pub fn extend_irradiance_cache<F>(
        &self,
        cache: &IrradianceCache,
        n: usize,
        primary: F,
        round: u64,
    ) -> (IrradianceCache, Stats)
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        self.grow_irradiance_cache(Some(cache), n, &primary, SEED_EXTEND + (round << 48))
    }

    /// The build, from nothing or from the records of `from`; level `a`'s random sequences
    /// start at `seed + (a << 44)`.
    fn grow_irradiance_cache<F>(
        &self,
        from: Option<&IrradianceCache>,
        n: usize,
        primary: &F,
        seed: u64,
    ) -> (IrradianceCache, Stats)
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        let params = from.map_or_else(|| Params::new(self), |c| c.params);
        let nl = from.map_or(params.levels, |c| c.levels.len());
        let mut st = Stats::for_levels(nl);
        if nl == 0 || self.opts.aa <= 0.0 {
            return (IrradianceCache::from_levels(params, vec![]), st);
        }
        // Coarse geometry sampling, eye outward. Every level's candidates are kept: fine
        // geometry sampling would trace the same rays again (same origins, same seeds), so it
        // re-reads them instead.
        let t = Instant::now();
        let mut cands: Vec<Vec<Candidate>> = Vec::with_capacity(nl);
        let mut points: Vec<Vec<Candidate>> = Vec::with_capacity(nl);
        for a in 0..nl {
            let c = self.geometry(a, n, primary, points.last());
            st.candidates[a] = c.len();
            // The two selections run side by side: each is serial within its cells, and at
            // the coarse spacing there are few cells.
            let (keep, thin) = rayon::join(
                || select::select(&c, params.coarse_spacing(a)),
                || (a > 0).then(|| select::select(&c, THIN_SPACING * params.fine_spacing(a))),
            );
            points.push(keep.into_iter().map(|i| c[i].clone()).collect());
            match thin {
                Some(k) => cands.push(k.into_iter().map(|i| c[i].clone()).collect()),
                None => cands.push(c),
            }
        }
        st.seconds[0] = t.elapsed().as_secs_f64();
        // Irradiance, deepest level first; each reads the finished level below.
        let mut levels: Vec<Arc<Level>> = match from {
            Some(c) => c.levels.clone(),
            None => (0..nl).map(|_| Arc::new(Level::default())).collect(),
        };
        for a in (0..nl).rev() {
            let below = Arc::new(IrradianceCache::from_levels(params, levels.clone()));
            let gaps = std::mem::take(&mut cands[a]);
            let seed = seed + ((a as u64) << 44);
            let all = self.place_records(a, gaps, &levels[a], seed, &below, &params, &mut st);
            let below_gathers = below.gathers();
            if a + 1 < nl {
                st.build_gathers[a + 1] += below_gathers[a + 1];
            }
            levels[a] = Arc::new(Level::new(all, params.aa, params.minarad));
        }
        let out = IrradianceCache::from_levels(params, levels);
        if let Some(c) = from {
            for (to, had) in out.gathers.iter().zip(&c.gathers) {
                to.store(had.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
        (out, st)
    }

    /// Records for level `a` among the candidates `gaps` that the records of `had` (kept, and
    /// returned with the new ones) leave uncovered: in passes of halving spacing, from the
    /// largest covered radius (the coarse records) down to r_min (the fine ones), each placing
    /// records only among the candidates the records so far leave uncovered. Below level 0,
    /// passes stop once a new record would cover too few of them to pay for itself: the rest
    /// is left to final gathers. Level 0 goes on to r_min, since each of its candidates is a
    /// point a primary ray asks for. Pass `k`'s random sequences start at `seed + (k << 40)`.
    #[allow(clippy::too_many_arguments)]
    fn place_records(
        &self,
        a: usize,
        gaps: Vec<Candidate>,
        had: &Level,
        seed: u64,
        below: &Arc<IrradianceCache>,
        params: &Params,
        st: &mut Stats,
    ) -> Vec<record::Record> {
        let mut gaps = uncovered(self, gaps, had, params);
        let mut all = had.records.clone();
        let coarse = params.first_record_spacing(a);
        let fine_min = params.fine_spacing(a);
        let mut spacing = coarse;
        let mut pass = 0u64;
        while !gaps.is_empty() {
            let spacing_now = spacing.max(fine_min);
            let is_coarse = spacing_now >= coarse;
            let t = Instant::now();
            let keep = select::select(&gaps, spacing_now);
            st.seconds[2] += t.elapsed().as_secs_f64();
            if pass > 0 && a > 0 && (gaps.len() as f64) < MIN_GAPS_PER_RECORD * keep.len() as f64 {
                break;
            }
            let at: Vec<Candidate> = keep.into_iter().map(|i| gaps[i].clone()).collect();
            let t = Instant::now();
            let more = self.records(&at, seed + (pass << 40), below);
            let new: Vec<record::Record> = more.iter().flatten().copied().collect();
            if is_coarse {
                st.coarse[a] += new.len();
            } else {
                st.fine[a] += new.len();
            }
            st.failed[a] += more.len() - new.len();
            st.seconds[if is_coarse { 1 } else { 3 }] += t.elapsed().as_secs_f64();
            let t = Instant::now();
            gaps = uncovered(
                self,
                gaps,
                &Level::new(new.clone(), params.aa, params.minarad),
                params,
            );
            all.extend(new);
            st.seconds[2] += t.elapsed().as_secs_f64();
            if is_coarse {
                st.uncovered[a] = gaps.len();
            }
            if spacing_now <= fine_min {
                break;
            }
            spacing *= 0.5;
            pass += 1;
        }
        st.left[a] = gaps.len();
        all
    }

    /// Geometry sampling for level `a`: the primary rays (`origins` = `None`) or hemisphere
    /// rays from `origins`, traced with ambient lookups replaced by recording candidates.
    fn geometry<F>(
        &self,
        a: usize,
        n: usize,
        primary: &F,
        origins: Option<&Vec<Candidate>>,
    ) -> Vec<Candidate>
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        let count = origins.map_or(n, Vec::len);
        let per = origins.map(|o| {
            let budget = (GEOMETRY_RAYS_PER_LEVEL / o.len().max(1)) as f64;
            let wt = AVGREFL.powi(a as i32 - 1);
            let ns = ((GEOMETRY_DIVISIONS * self.opts.ad as f64 * wt).sqrt() + 0.5) as usize;
            ns.min(budget.sqrt() as usize).max(4)
        });
        // Small chunks when there are few origins (each traces many rays), so that a few
        // sensors still keep every thread busy.
        let chunk = if origins.is_some() {
            count
                .div_ceil(4 * rayon::current_num_threads())
                .clamp(1, 64)
        } else {
            64
        };
        let chunks: Vec<Vec<Candidate>> = (0..count.div_ceil(chunk))
            .into_par_iter()
            .map(|ci| {
                let mut ctx = self.ctx(0);
                ctx.cache = None;
                ctx.collect = Some(Vec::new());
                for i in ci * chunk..(ci * chunk + chunk).min(count) {
                    match origins {
                        None => {
                            self.reseed(&mut ctx, SEED_PRIMARY + i as u64);
                            primary(self, i, &mut ctx);
                        }
                        Some(o) => {
                            self.reseed(&mut ctx, SEED_GEOMETRY + ((a as u64) << 40) + i as u64);
                            self.geometry_rays(&o[i], per.unwrap_or(4), &mut ctx);
                        }
                    }
                }
                let mut got = ctx.collect.take().unwrap_or_default();
                got.retain(|c| c.adepth as usize == a);
                got
            })
            .collect();
        chunks.into_iter().flatten().collect()
    }

    /// Traces `ns × ns` stratified hemisphere rays from `c`, one ambient level deeper.
    fn geometry_rays(&self, c: &Candidate, ns: usize, ctx: &mut Ctx) {
        let (mut parent, s) = c.parent();
        parent.adepth += 1;
        let n = c.oriented_normal();
        let rt = if c.back { TAMBIENT } else { RAMBIENT };
        let ux = n.any_orthonormal_vector();
        let uy = n.cross(ux);
        for i in 0..ns {
            for j in 0..ns {
                let Some((mut ar, _)) =
                    self.spawn(&parent, &s, rt, Some(DVec3::splat(AVGREFL)), ctx)
                else {
                    continue;
                };
                let a = (j as f64 + ctx.rng.random::<f64>()) / ns as f64;
                let b = (i as f64 + ctx.rng.random::<f64>()) / ns as f64;
                let (x, y) = crate::ambient::square_to_disc(a, b);
                let z = (1.0 - x * x - y * y).max(0.0).sqrt();
                ar.dir = (ux * x + uy * y + n * z).normalize();
                self.trace(&ar, ctx);
            }
        }
    }

    /// Records at `points`, in parallel, reading `below`; point `k`'s random sequence is
    /// `seed + k`.
    fn records(
        &self,
        points: &[Candidate],
        seed: u64,
        below: &Arc<IrradianceCache>,
    ) -> Vec<Option<record::Record>> {
        let p = &below.params;
        points
            .par_iter()
            .enumerate()
            .map_init(
                || {
                    let mut ctx = self.ctx(0);
                    ctx.cache = Some(below.clone());
                    ctx
                },
                |ctx, (k, c)| {
                    self.reseed(ctx, seed + k as u64);
                    self.compute_record(c, p, ctx).record
                },
            )
            .collect()
    }
}

/// The candidates none of the records of `level` covers (in parallel, order kept).
fn uncovered(rd: &Renderer, cands: Vec<Candidate>, level: &Level, p: &Params) -> Vec<Candidate> {
    if level.records.is_empty() || cands.is_empty() {
        return cands;
    }
    let keep: Vec<bool> = cands
        .par_iter()
        .with_min_len(256)
        .map(|c| {
            let n = c.oriented_normal();
            let occ = |o: DVec3, d: DVec3, len: f64| rd.occluded(o, d, len);
            let q = Query {
                p: c.point,
                n,
                rn: n,
                weight: c.weight as f64,
                occluded: Some(&occ),
            };
            level.lookup(&q, p.aa, p.minarad).is_none()
        })
        .collect();
    cands
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Primary rays a cache samples its geometry from at most (a run with more rays samples every
/// k-th).
pub const MAX_PRIMARIES: usize = 1 << 18;

/// What [`Renderer::prepare_irradiance_cache`] did.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Counts and times of the build (or `loaded`).
    pub stats: Stats,
    /// Something the user should hear about (a cache file that did not fit, or could not be
    /// written).
    pub warnings: Vec<String>,
}

impl Renderer {
    /// Gets the cache a run needs and installs it: read from `-af` when that file fits this
    /// scene and these options, else built for the run's `n` primary rays (and written to
    /// `-af`). Does nothing with `-aa 0`, `-ab 0` or `-ad 0`. An unreadable file is an error.
    pub fn prepare_irradiance_cache<F>(&mut self, n: usize, primary: F) -> Result<Prepared, String>
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        let mut out = Prepared::default();
        let o = &self.opts;
        if !self.cache_asked() {
            return Ok(out);
        }
        if let Some(path) = o.af.clone() {
            match file::load(self, &path) {
                Ok(Some(c)) => {
                    out.stats.loaded = true;
                    self.cache = Some(Arc::new(c));
                    return Ok(out);
                }
                Ok(None) => {}
                Err(e) if e.contains("another") => {
                    out.warnings.push(format!("{e}; building a new one"));
                }
                Err(e) => return Err(e),
            }
        }
        let (cache, stats) = self.build_irradiance_cache(n, primary);
        out.stats = stats;
        self.cache = Some(Arc::new(cache));
        out.warnings.extend(self.save_irradiance_cache());
        Ok(out)
    }

    /// Whether the options ask for a cache: `-aa`, `-ab` and `-ad` above 0.
    fn cache_asked(&self) -> bool {
        let o = &self.opts;
        o.aa > 0.0 && o.ab > 0 && o.ad > 0
    }

    /// A cache built for `n` primary rays when the options ask for one (`-aa`, `-ab` and `-ad`
    /// above 0); for tools that trace
    /// their own rays through a shared renderer, set on each context with
    /// [`Ctx::use_irradiance_cache`].
    pub fn build_irradiance_cache_if_asked<F>(
        &self,
        n: usize,
        primary: F,
    ) -> Option<Arc<IrradianceCache>>
    where
        F: Fn(&Renderer, usize, &mut Ctx) + Sync,
    {
        if !self.cache_asked() || n == 0 {
            return None;
        }
        Some(Arc::new(self.build_irradiance_cache(n, primary).0))
    }

    /// Writes the installed cache to `-af`, if that was given (again after records were added
    /// while rendering, as RADIANCE's ambient file keeps every record); a failure is a warning.
    pub fn save_irradiance_cache(&self) -> Option<String> {
        let (path, cache) = (self.opts.af.as_ref()?, self.cache.as_ref()?);
        let e = file::save(cache, self, path).err()?;
        Some(format!(
            "{}: cannot write the irradiance cache: {e}",
            path.display()
        ))
    }
}

impl Ctx {
    /// Reads ambient values from `cache` from now on instead of the renderer's (`None`: none).
    pub fn use_irradiance_cache(&mut self, cache: Option<Arc<IrradianceCache>>) {
        self.cache = cache;
    }
}
