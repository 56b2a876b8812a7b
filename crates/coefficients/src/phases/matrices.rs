//! The view and daylight matrices of every window group, traced in one scene: the user's
//! scene with each group's polygons turned into a receiver glow (binned in the group's Klems
//! basis, as `rfluxmtx` bins a `#@rfluxmtx h=kf` receiver) and the sky sender of
//! [`crate::sender`] (binned by patch, ground first).
//!
//! - View matrices V: sensors traced as irradiance sensors; what reaches a window glow is V,
//!   what reaches the sky by some other opening is the daylight coefficients of the rest of
//!   the building (the two-phase part, honeybee-radiance's "static apertures").
//! - Daylight matrices D: rays sampled over each group's polygons, leaving by their backs,
//!   `samples` per Klems patch (rfluxmtx's `-c`), averaged per patch.
//! - Their direct parts (V_d: the window seen straight from the sensor; D_d: the sky seen
//!   straight from the window) for the five-phase correction.

use super::windows::WindowGroup;
use super::PhaseError;
use crate::coefficients::Sensor;
use crate::rfluxmtx::sender::parse_sender;
use crate::rfluxmtx::{parse_receivers, RfluxError};
use crate::sender::{sender_text, SENDER};
use daylit_compile::compile;
use daylit_matrix::Matrix;
use daylit_scene::{load_scene_then_text, LoadOptions, PrimId};
use daylit_sky::patches::Subdivision;
use daylit_transport::contrib::{BinRay, ContribModifier, ContribSpec};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// One matrix row, RGB.
type Row = Vec<[f32; 3]>;

/// The glow that stands for window group `k` in the traced scene.
pub(crate) fn window_modifier(k: usize) -> String {
    format!("daylit_window_{k}")
}

/// The traced scene and what its contribution bins mean.
pub struct PhaseScene {
    /// The tracer, contributions on: the sky's patches, then each group's Klems patches.
    pub renderer: Renderer,
    /// The window groups found in the scene.
    pub groups: Vec<WindowGroup>,
    /// The sky's patches.
    pub patches: Subdivision,
    /// Klems patches of each group.
    bins: Vec<usize>,
    /// The rfluxmtx text of each group (its sender).
    senders: Vec<String>,
}

/// View matrices and the rest of the building's daylight coefficients.
pub struct ViewMatrices {
    /// Per group: sensors × Klems patches, RGB; and the direct part.
    pub v: Vec<Matrix>,
    pub v_direct: Vec<Matrix>,
    /// Sensors × sky patches through openings that are not window groups; and the direct
    /// part.
    pub rest: Matrix,
    pub rest_direct: Matrix,
}

/// The daylight matrix of one group: Klems patches × sky patches, RGB; and its direct part.
pub struct DaylightMatrix {
    pub d: Matrix,
    pub d_direct: Matrix,
}

impl PhaseScene {
    /// Loads `files`, finds the window groups (with the `extra` states), and makes the traced
    /// scene.
    pub fn new(
        files: &[PathBuf],
        load: &LoadOptions,
        opts: Options,
        patches: Subdivision,
        extra: &[(String, PathBuf)],
    ) -> Result<PhaseScene, PhaseError> {
        let mut scene = load_scene_then_text(files, &sender_text(), "daylit sky sender", load)?;
        let sky = scene
            .find_modifier(SENDER)
            .ok_or_else(|| PhaseError::Input("sky sender missing".into()))?;
        if scene.prims[..sky as usize].iter().any(|p| p.name == SENDER) {
            return Err(PhaseError::Input(format!(
                "the scene already defines '{SENDER}', a name daylit reserves for its sky"
            )));
        }
        let groups = super::windows::window_groups(&scene, &load.raypath, extra)?;
        if groups.is_empty() {
            return Err(PhaseError::Input(
                "the three- and five-phase methods need window groups: polygons whose material is a BSDF or aBSDF (none found)".into(),
            ));
        }
        let mut modifiers = vec![ContribModifier {
            modifier: sky,
            bins: patches.len(),
            bin: Some(Arc::new(move |r: &BinRay| Some(patches.index(r.dir)))),
        }];
        let (mut bins, mut senders) = (Vec::new(), Vec::new());
        for (k, g) in groups.iter().enumerate() {
            let name = window_modifier(k);
            if scene.find_modifier(&name).is_some() {
                return Err(PhaseError::Input(format!(
                    "the scene already defines '{name}', a name daylit reserves for its window groups"
                )));
            }
            let text = g.rfluxmtx_text(&scene, &name);
            let source = format!("window group '{}'", g.name);
            let recv = parse_receivers(&text, &source).map_err(rflux)?;
            let Some(r) = recv.receivers.first() else {
                return Err(PhaseError::Input(format!(
                    "{source}: no polygon with an area"
                )));
            };
            let hb = r.bins().into_fn();
            bins.push(r.bin_count());
            modifiers.push(ContribModifier {
                modifier: glow(&mut scene, &name, &g.loc, &g.surfaces),
                bins: r.bin_count(),
                bin: Some(Arc::new(move |ray: &BinRay| hb(ray.dir))),
            });
            senders.push(text);
        }
        let compiled = compile(&scene);
        // daylit's ambient estimator: it aims samples at the window groups (portals), so a
        // view matrix reaches the error of RADIANCE's at a quarter of the samples
        // (BENCHMARKS.md, "The three-phase view matrix at equal error").
        let opts = Options {
            daylit_ambient: true,
            ..opts
        };
        let mut renderer = Renderer::new(scene, compiled, opts, &load.raypath)?;
        renderer.set_contributions(ContribSpec {
            modifiers,
            values: false,
            split_direct: true,
        });
        Ok(PhaseScene {
            renderer,
            groups,
            patches,
            bins,
            senders,
        })
    }

    /// Traces every sensor (in parallel; sensor `k` always draws the same random numbers).
    pub fn view_matrices(&self, sensors: &[Sensor], progress: &(dyn Fn() + Sync)) -> ViewMatrices {
        let r = &self.renderer;
        let rows = crate::coefficients::sensor_rows(r, sensors, 0, progress);
        let n = sensors.len();
        let half = r.contrib_len() / 2;
        // Columns [start, start + len) of every row, the direct copy `half` further on.
        let block = |start: usize, len: usize, direct: bool| {
            let at = start + if direct { half } else { 0 };
            let data = rows
                .iter()
                .flat_map(|row| row[at..at + len].iter().flatten().copied())
                .collect();
            Matrix::new(n, len, 3, data).expect("shape by construction")
        };
        let sky = self.patches.len();
        let mut at = sky;
        let (mut v, mut v_direct) = (Vec::new(), Vec::new());
        for &b in &self.bins {
            v.push(block(at, b, false));
            v_direct.push(block(at, b, true));
            at += b;
        }
        ViewMatrices {
            v,
            v_direct,
            rest: block(0, sky, false),
            rest_direct: block(0, sky, true),
        }
    }

    /// The daylight matrix of group `g`, `samples` rays per Klems patch.
    pub fn daylight_matrix(
        &self,
        g: usize,
        samples: usize,
        seed: u64,
    ) -> Result<DaylightMatrix, PhaseError> {
        let source = format!("window group '{}'", self.groups[g].name);
        let sender = parse_sender(&self.senders[g], &source).map_err(rflux)?;
        let rays = sender.rays(samples, seed).map_err(rflux)?;
        let r = &self.renderer;
        let sky = self.patches.len();
        let rows: Vec<(Row, Row)> = rays
            .par_chunks(samples)
            .enumerate()
            .map_init(
                || r.ctx(0),
                |ctx, (bin, chunk)| {
                    ctx.contrib.fill(DVec3::ZERO);
                    for (k, ray) in chunk.iter().enumerate() {
                        r.reseed(ctx, ((g as u64) << 40) ^ (bin * samples + k) as u64);
                        r.radiance(ray.origin, ray.dir, ctx);
                    }
                    let w = 1.0 / samples as f64;
                    let all = ctx.contrib[..sky]
                        .iter()
                        .map(|v| (*v * w).as_vec3().to_array())
                        .collect();
                    // Straight to the sky (shadow rays add to the bins too: read them first).
                    let mut direct = vec![DVec3::ZERO; sky];
                    for ray in chunk {
                        direct[self.patches.index(ray.dir)] +=
                            r.shadow_value(ray.origin, ray.dir, ctx);
                    }
                    let direct = direct
                        .iter()
                        .map(|v| (*v * w).as_vec3().to_array())
                        .collect();
                    (all, direct)
                },
            )
            .collect();
        let n = rows.len();
        let d = rows
            .iter()
            .flat_map(|r| r.0.iter().flatten().copied())
            .collect();
        let dd = rows
            .iter()
            .flat_map(|r| r.1.iter().flatten().copied())
            .collect();
        Ok(DaylightMatrix {
            d: Matrix::new(n, sky, 3, d).expect("shape by construction"),
            d_direct: Matrix::new(n, sky, 3, dd).expect("shape by construction"),
        })
    }
}

/// Adds a glow named `name` and gives it to `surfaces`. Its radiance is 0: contributions
/// are path coefficients whatever the glow's value, and a shadow ray towards the sun that meets
/// a window group (counted by its own terms) must find it dark.
fn glow(
    scene: &mut daylit_scene::Scene,
    name: &str,
    loc: &daylit_scene::Loc,
    surfaces: &[PrimId],
) -> PrimId {
    let id = scene.prims.len() as PrimId;
    scene.prims.push(daylit_scene::Primitive {
        modifier: None,
        ptype: daylit_scene::PrimType::Glow,
        name: name.to_string(),
        sargs: vec![],
        fargs: vec![0.0, 0.0, 0.0, 0.0],
        mod_refs: vec![],
        alias_of: None,
        loc: loc.clone(),
    });
    for &s in surfaces {
        scene.prims[s as usize].modifier = Some(id);
    }
    id
}

fn rflux(e: RfluxError) -> PhaseError {
    PhaseError::Input(e.to_string())
}
