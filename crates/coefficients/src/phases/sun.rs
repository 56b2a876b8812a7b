//! The five-phase method's direct-sun term with the real BSDF (thesis eq. 6.4, C_ds S_sun):
//! the sun at its true position each time step, transmitted straight through a window
//! group's BSDF to each sensor, with no reflection in the room.
//!
//! Each sensor looks at its hemisphere once (stratified, cosine-weighted samples); the
//! samples that meet a window polygon first keep where they met it and the direction back to
//! the sensor in the polygon's BSDF frame. For every step the sun then adds, per such sample,
//! the BSDF from the sun to that direction times the sun's normal irradiance, the cosine on
//! the window and whether the sun reaches that part of the window past the outside geometry
//! (found once per step on a grid of the window's cells). This is what RADIANCE's five-phase
//! recipe computes with `rcontrib -ab 1` in a black room and suns on Reinhart MF:6 patch
//! centres, with the sun where it is instead of at the nearest centre.

use super::windows::WindowGroup;
use crate::coefficients::Sensor;
use crate::sun::lux;
use daylit_bsdf::{KlemsPairs, KlemsPatch};
use daylit_compile::Origin;
use daylit_geometry::{Ray, Tracer};
use daylit_scene::PrimId;
use daylit_sky::gendaymtx::StepSun;
use daylit_transport::Renderer;
use glam::DVec3;
use rand::Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::f64::consts::PI;

/// Cells per side of the grid over each window polygon on which the sun's visibility is
/// found per step.
const GRID: usize = 16;

/// A window polygon: its BSDF frame and its grid of cells.
struct Pane {
    group: usize,
    /// Rows: x, y, z (z the normal, into the room).
    frame: [DVec3; 3],
    /// Extent in frame x and y, and the plane's offset along z.
    lo: [f64; 2],
    hi: [f64; 2],
    z0: f64,
}

impl Pane {
    fn local(&self, v: DVec3) -> DVec3 {
        DVec3::new(
            self.frame[0].dot(v),
            self.frame[1].dot(v),
            self.frame[2].dot(v),
        )
    }

    fn cell(&self, p: DVec3) -> usize {
        let at = |k: usize| {
            let u = (self.frame[k].dot(p) - self.lo[k]) / (self.hi[k] - self.lo[k]).max(1e-12);
            ((u * GRID as f64) as usize).min(GRID - 1)
        };
        at(1) * GRID + at(0)
    }

    /// The centre of cell `c`, just outside the window.
    fn cell_point(&self, c: usize) -> DVec3 {
        let (i, j) = (c % GRID, c / GRID);
        let u = self.lo[0] + (i as f64 + 0.5) / GRID as f64 * (self.hi[0] - self.lo[0]);
        let v = self.lo[1] + (j as f64 + 0.5) / GRID as f64 * (self.hi[1] - self.lo[1]);
        self.frame[0] * u + self.frame[1] * v + self.frame[2] * (self.z0 - 1e-4)
    }
}

/// One hemisphere sample of a sensor that met a window first.
struct Seen {
    pane: u32,
    cell: u32,
    /// Towards the sensor, in the pane's BSDF frame.
    vray: DVec3,
}

/// How a term's BSDF value is found.
#[derive(Clone, Copy)]
enum Eval {
    /// Klems data seen from the room side: the samples' common patch.
    Patch(KlemsPatch),
    /// Anything else: the sample's direction (towards the sensor, BSDF frame).
    Dir(DVec3),
}

/// Samples of one sensor that count together for one state: the same pane and visibility
/// cell and, for Klems data, the same patch (the value is constant over a patch, so such
/// samples add their weights and are evaluated once per step).
struct Term {
    pane: u32,
    vis: usize,
    weight: f64,
    how: Eval,
}

/// Samples per sensor evaluated one by one (tensor trees); more are thinned evenly, each
/// kept one standing for those dropped.
const MAX_SINGLE: usize = 4096;

/// The terms of one sensor's samples, `[group][state]`.
fn sensor_terms(
    hits: &[Seen],
    panes: &[Pane],
    groups: &[WindowGroup],
    klems: &[Vec<Option<KlemsPairs>>],
    vis_of: &HashMap<(u32, u32), usize>,
    weight: f64,
) -> Vec<Vec<Vec<Term>>> {
    let mut terms: Vec<Vec<Vec<Term>>> = groups
        .iter()
        .map(|g| g.states.iter().map(|_| Vec::new()).collect())
        .collect();
    let mut index: HashMap<(usize, usize, u32, usize, KlemsPatch), usize> = HashMap::new();
    let stride = hits.len().div_ceil(MAX_SINGLE).max(1);
    for (n, hit) in hits.iter().enumerate() {
        let pane = hit.pane;
        let g = panes[pane as usize].group;
        let vis = vis_of[&(pane, hit.cell)];
        for (k, kp) in klems[g].iter().enumerate() {
            match kp.as_ref().filter(|_| hit.vray.z > 0.0) {
                Some(kp) => {
                    let patch = kp.incoming(hit.vray);
                    let list = &mut terms[g][k];
                    let at = *index.entry((g, k, pane, vis, patch)).or_insert_with(|| {
                        list.push(Term {
                            pane,
                            vis,
                            weight: 0.0,
                            how: Eval::Patch(patch),
                        });
                        list.len() - 1
                    });
                    list[at].weight += weight;
                }
                None if n % stride == 0 => terms[g][k].push(Term {
                    pane,
                    vis,
                    weight: weight * stride as f64,
                    how: Eval::Dir(hit.vray),
                }),
                None => {}
            }
        }
    }
    terms
}

/// Direct-sun illuminance (lux) through each group in each of its states:
/// `out[group][state][sensor * steps + step]`. `samples` hemisphere samples per sensor.
pub fn window_sun(
    renderer: &Renderer,
    groups: &[WindowGroup],
    sensors: &[Sensor],
    suns: &[Option<StepSun>],
    samples: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Vec<Vec<f32>>> {
    let scene = &renderer.scene;
    let mut panes = Vec::new();
    let mut pane_of: HashMap<PrimId, u32> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for &id in &group.surfaces {
            let v: Vec<DVec3> = scene
                .prim(id)
                .fargs
                .chunks_exact(3)
                .map(|c| DVec3::new(c[0], c[1], c[2]))
                .collect();
            let mut n = DVec3::ZERO;
            for k in 0..v.len() {
                n += v[k].cross(v[(k + 1) % v.len()]);
            }
            let z = n.normalize();
            let x = group.up.cross(z);
            if !x.is_finite() || x.length_squared() < 1e-12 {
                continue; // up along the normal: RADIANCE leaves such a BSDF black
            }
            let x = x.normalize();
            let frame = [x, z.cross(x), z];
            let mut lo = [f64::INFINITY; 2];
            let mut hi = [f64::NEG_INFINITY; 2];
            for p in &v {
                for k in 0..2 {
                    lo[k] = lo[k].min(frame[k].dot(*p));
                    hi[k] = hi[k].max(frame[k].dot(*p));
                }
            }
            pane_of.insert(id, panes.len() as u32);
            panes.push(Pane {
                group: g,
                frame,
                lo,
                hi,
                z0: z.dot(v[0]),
            });
        }
    }
    // What each sensor sees of the windows.
    let side = (samples as f64).sqrt().ceil().max(1.0) as usize;
    let weight = PI / (side * side) as f64;
    let seen: Vec<Vec<Seen>> = sensors
        .par_iter()
        .enumerate()
        .map(|(k, s)| {
            let mut ctx = renderer.ctx(0);
            renderer.reseed(&mut ctx, (1 << 48) ^ k as u64);
            let (n, origin) = (s.normal(), s.point());
            let a = if n.x.abs() < 0.6 { DVec3::X } else { DVec3::Y };
            let u = n.cross(a).normalize();
            let v = n.cross(u);
            let mut out = Vec::new();
            for i in 0..side {
                for j in 0..side {
                    let (x, y): (f64, f64) = (ctx.rng.random(), ctx.rng.random());
                    let (sx, sy) = ((i as f64 + x) / side as f64, (j as f64 + y) / side as f64);
                    // Cosine-weighted: a uniform point on the disc, lifted.
                    let r = sx.sqrt();
                    let phi = 2.0 * PI * sy;
                    let dz = (1.0 - sx).max(0.0).sqrt();
                    let dir = u * (r * phi.cos()) + v * (r * phi.sin()) + n * dz;
                    let ray = Ray { origin, dir };
                    let Some(hit) = renderer.tracer().closest_hit(&ray, 1e-6, f64::INFINITY) else {
                        continue;
                    };
                    let Origin::Prim(id) = renderer.compiled.origins[hit.prim as usize] else {
                        continue;
                    };
                    let Some(&p) = pane_of.get(&id) else { continue };
                    let pane = &panes[p as usize];
                    out.push(Seen {
                        pane: p,
                        cell: pane.cell(hit.point) as u32,
                        vray: pane.local(-dir),
                    });
                }
            }
            out
        })
        .collect();
    // Whether the sun reaches each cell that a sensor sees, step by step.
    let mut used: Vec<(u32, u32)> = seen.iter().flatten().map(|s| (s.pane, s.cell)).collect();
    used.sort_unstable();
    used.dedup();
    let steps = suns.len();
    let vis: Vec<Vec<f32>> = used
        .par_iter()
        .map(|&(p, c)| {
            let mut ctx = renderer.ctx(0);
            let pane = &panes[p as usize];
            let at = pane.cell_point(c as usize);
            suns.iter()
                .map(|sun| match sun {
                    Some(sun) => {
                        let dir = DVec3::from_array(sun.dir).normalize();
                        if pane.frame[2].dot(dir) >= 0.0 {
                            return 0.0;
                        }
                        let t = renderer.shadow_value(at, dir, &mut ctx);
                        lux(t) as f32 / lux(DVec3::ONE) as f32
                    }
                    None => 0.0,
                })
                .collect()
        })
        .collect();
    let vis_of: HashMap<(u32, u32), usize> =
        used.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    // Klems data is piecewise constant: each direction's patches are found once (the
    // sun's per pane and step, a sample's per sample), and a value is then a table read.
    let klems: Vec<Vec<Option<KlemsPairs>>> = groups
        .iter()
        .map(|g| {
            g.states
                .iter()
                .map(|s| s.bsdf.klems_pairs(true, false))
                .collect()
        })
        .collect();
    let sun_local: Vec<Vec<Option<DVec3>>> = panes
        .iter()
        .map(|pane| {
            suns.iter()
                .map(|s| s.map(|s| pane.local(DVec3::from_array(s.dir).normalize())))
                .collect()
        })
        .collect();
    let sun_patch: Vec<Vec<Vec<Option<KlemsPatch>>>> = panes
        .iter()
        .enumerate()
        .map(|(p, pane)| {
            klems[pane.group]
                .iter()
                .map(|k| {
                    sun_local[p]
                        .iter()
                        .map(|v| Some(k.as_ref()?.outgoing((*v)?)))
                        .collect()
                })
                .collect()
        })
        .collect();
    // Per sensor: its terms per group and state, then the year step by step.
    let per_sensor: Vec<Vec<Vec<Vec<f32>>>> = seen
        .par_iter()
        .map(|hits| {
            let terms = sensor_terms(hits, &panes, groups, &klems, &vis_of, weight);
            let mut out: Vec<Vec<Vec<f32>>> = groups
                .iter()
                .map(|g| vec![vec![0.0f32; steps]; g.states.len()])
                .collect();
            for (h, sun) in suns.iter().enumerate() {
                let Some(sun) = sun else { continue };
                let normal = DVec3::from_array(sun.normal);
                for (g, group) in groups.iter().enumerate() {
                    for (k, state) in group.states.iter().enumerate() {
                        let mut sum = DVec3::ZERO;
                        for t in &terms[g][k] {
                            let v = vis[t.vis][h];
                            let p = t.pane as usize;
                            let Some(vsrc) = sun_local[p][h].filter(|_| v > 0.0) else {
                                continue;
                            };
                            let b = match t.how {
                                Eval::Patch(a) => match (&klems[g][k], sun_patch[p][k][h]) {
                                    (Some(kp), Some(b)) if vsrc.z < 0.0 => kp.eval(a, b),
                                    _ => continue,
                                },
                                Eval::Dir(vray) if vsrc.z * vray.z < 0.0 => {
                                    state.bsdf.eval(vray, vsrc)
                                }
                                Eval::Dir(_) => continue,
                            };
                            sum += DVec3::from(b) * (t.weight * vsrc.z.abs() * v as f64);
                        }
                        out[g][k][h] = lux(sum * normal) as f32;
                    }
                }
            }
            progress();
            out
        })
        .collect();
    // Sensor-major per group and state.
    groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            (0..group.states.len())
                .map(|s| {
                    per_sensor
                        .iter()
                        .flat_map(|p| p[g][s].iter().copied())
                        .collect()
                })
                .collect()
        })
        .collect()
}
