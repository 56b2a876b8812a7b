//! What the RADIANCE-golden tests of the transport share: reading number files, building a
//! renderer from scene files and rtrace options, and tracing a list of rays.
// Each test binary compiles its own copy and uses only some of these.
#![allow(dead_code)]

use daylit_compile::compile;
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::path::Path;

/// The white-space separated numbers of each non-empty line of `path`.
pub fn numbers(path: &Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// A renderer of `files` (in `dir`, which is also the RAYPATH) with rtrace's defaults changed
/// by `options` (every word must be an option daylit knows) and random seed `seed`.
pub fn renderer(dir: &Path, files: &[&str], options: &str, seed: u64) -> Renderer {
    let files: Vec<_> = files.iter().map(|f| dir.join(f)).collect();
    let raypath = daylit_cal::RayPath::new([dir.to_path_buf()]);
    let load = LoadOptions {
        raypath: raypath.clone(),
        ..LoadOptions::default()
    };
    let scene = load_scene(&files, &load).unwrap();
    let compiled = compile(&scene);
    let words: Vec<String> = options.split_whitespace().map(String::from).collect();
    let mut opts = Options::rtrace();
    let mut i = 0;
    while i < words.len() {
        let n = opts.parse_arg(&words, i).unwrap();
        assert!(n > 0, "option {} not known", words[i]);
        i += n;
    }
    opts.seed = seed;
    Renderer::new(scene, compiled, opts, &raypath).unwrap()
}

/// daylit's value of every ray (origin, direction per line), averaged over `repeat` traces,
/// each with its own random sequence.
pub fn trace(r: &Renderer, rays: &[Vec<f64>], repeat: u64) -> Vec<DVec3> {
    rays.iter()
        .enumerate()
        .map(|(k, v)| {
            let (org, d) = (DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]));
            let mut sum = DVec3::ZERO;
            for n in 0..repeat {
                let mut ctx = r.ctx(k as u64 * repeat + n);
                sum += r.radiance(org, d.normalize(), &mut ctx).value;
            }
            sum / repeat as f64
        })
        .collect()
}

/// `f` of each sensor's irradiance (origin and direction per line of `pts`) and of the context
/// its rays used (whose bins hold its contributions), each sensor on its own random sequence.
pub fn sensors<T: Send>(
    r: &Renderer,
    pts: &[Vec<f64>],
    f: impl Fn(DVec3, &daylit_transport::Ctx) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    pts.par_iter()
        .enumerate()
        .map(|(k, p)| {
            let mut ctx = r.ctx(k as u64);
            let e = r.irradiance(
                DVec3::new(p[0], p[1], p[2]),
                DVec3::new(p[3], p[4], p[5]).normalize(),
                &mut ctx,
            );
            f(e, &ctx)
        })
        .collect()
}

/// Contributions of the modifier `ground` (one bin) and of `sky` in four altitude bands.
pub fn ground_and_sky_bands(
    r: &Renderer,
    (ground, sky): (&str, &str),
    values: bool,
    split_direct: bool,
) -> daylit_transport::contrib::ContribSpec {
    use daylit_transport::contrib::{BinRay, ContribModifier, ContribSpec};
    let id = |name: &str| r.scene.find_modifier(name).unwrap();
    let bands = |r: &BinRay| {
        let z = r.dir.z.clamp(0.0, 1.0);
        Some(((z.asin() / std::f64::consts::FRAC_PI_2) * 3.999) as usize)
    };
    ContribSpec {
        modifiers: vec![
            ContribModifier {
                modifier: id(ground),
                bins: 1,
                bin: None,
            },
            ContribModifier {
                modifier: id(sky),
                bins: 4,
                bin: Some(std::sync::Arc::new(bands)),
            },
        ],
        values,
        split_direct,
    }
}
