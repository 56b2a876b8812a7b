//! `daylit bench-rays`: load and BVH build time, and incoherent random-ray throughput.

use crate::SceneArgs;
use anyhow::Context;
use daylit_geometry::{DVec3, Ray};
use daylit_scene::{load_scene, LoadOptions};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `daylit bench-rays`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Number of random rays.
    #[arg(long, default_value_t = 1_000_000, value_parser = crate::args::whole::<usize>(1, 1_000_000_000))]
    rays: usize,
    /// Seed for the random rays.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Box for the ray origins, `xmin ymin zmin xmax ymax zmax` [default: the scene bounds].
    #[arg(long, num_args = 6, allow_negative_numbers = true)]
    origins: Option<Vec<f64>>,
    /// Also write the rays as RADIANCE rtrace input (binary float origin+direction, `-ff`)
    /// [default: none].
    #[arg(long)]
    write_rays: Option<PathBuf>,
    /// Run only this query, once, on one thread (for profilers): `closest` or `any`.
    #[arg(long, value_parser = ["closest", "any"])]
    only: Option<String>,
}

/// Random rays: origins uniform in the scene's bounding box, directions uniform on the sphere.
fn random_rays(lo: DVec3, hi: DVec3, n: usize, seed: u64) -> Vec<Ray> {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let o = lo + (hi - lo) * DVec3::new(rng.random(), rng.random(), rng.random());
            let z: f64 = rng.random_range(-1.0..1.0);
            let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let r = (1.0 - z * z).sqrt();
            Ray::new(o, DVec3::new(r * phi.cos(), r * phi.sin(), z))
        })
        .collect()
}

/// One round of a 64-bit mixing function (splitmix64's finaliser) over `h ^ x`.
fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `daylit bench-rays`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let opts = LoadOptions {
        allow_commands: a.scene.allow_commands,
        ..Default::default()
    };
    let t0 = Instant::now();
    let scene = load_scene(&a.scene.files, &opts)?;
    let t_load = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let compiled = daylit_compile::compile(&scene);
    let t_build = t1.elapsed().as_secs_f64();
    let (lo, hi) = match &a.origins {
        Some(b) => (DVec3::new(b[0], b[1], b[2]), DVec3::new(b[3], b[4], b[5])),
        None => compiled.accel.bounds(),
    };
    let rays = random_rays(lo, hi, a.rays, a.seed);
    if let Some(path) = &a.write_rays {
        let mut buf = Vec::with_capacity(rays.len() * 24);
        for r in &rays {
            for v in [r.origin, r.dir] {
                for c in v.to_array() {
                    buf.extend_from_slice(&(c as f32).to_le_bytes());
                }
            }
        }
        crate::output::write_atomic(path, &buf)?;
    }
    let accel = &compiled.accel;
    let time = |f: &dyn Fn() -> usize| {
        let t = Instant::now();
        let hits = f();
        (t.elapsed().as_secs_f64(), hits)
    };
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("thread pool")?;
    let closest = || {
        rays.par_iter()
            .filter(|r| accel.closest_hit(r, 0.0, f64::INFINITY).is_some())
            .count()
    };
    let any = || {
        rays.par_iter()
            .filter(|r| accel.any_hit(r, 0.0, f64::INFINITY))
            .count()
    };
    // An untimed pass over a tenth of the rays first: the first pass of a process runs a few
    // per cent slower (the core's clock ramping up, the pool's thread stacks faulting in).
    let warm = &rays[..rays.len() / 10];
    single.install(|| {
        warm.par_iter()
            .filter(|r| accel.closest_hit(r, 0.0, f64::INFINITY).is_some())
            .count()
    });
    if let Some(q) = &a.only {
        let (t, hits) = single.install(|| time(if q == "closest" { &closest } else { &any }));
        crate::output::print(&format!(
            "{q} 1 thread: {} rays, {hits} hits, {:.2} Mrays/s\n",
            rays.len(),
            rays.len() as f64 / 1e6 / t
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (t_c1, hits) = single.install(|| time(&closest));
    let (t_cn, _) = time(&closest);
    let (t_a1, _) = single.install(|| time(&any));
    let (t_an, _) = time(&any);
    // Fingerprint of every closest hit (shape and distance bits) and of the any-hit answers,
    // so that a change to the traversal can be checked to give identical results.
    let fingerprint = rays
        .par_iter()
        .map(|r| {
            let h = accel.closest_hit(r, 0.0, f64::INFINITY);
            let (p, t) = h.map_or((u64::MAX, 0), |h| (u64::from(h.prim), h.t.to_bits()));
            let a = u64::from(accel.any_hit(r, 0.0, f64::INFINITY));
            mix(mix(mix(0x9e37_79b9_7f4a_7c15, p), t), a)
        })
        .reduce(|| 0, u64::wrapping_add);
    let n = rays.len() as f64 / 1e6;
    let report = format!(
        "shapes {}  load {t_load:.3} s  build {t_build:.3} s  load+build {:.3} s\n\
         rays {}  hits {hits}  threads {}  fingerprint {fingerprint:016x}\n\
         closest-hit  1 thread {:.2} Mrays/s  all threads {:.2} Mrays/s\n\
         any-hit      1 thread {:.2} Mrays/s  all threads {:.2} Mrays/s\n",
        accel.len(),
        t_load + t_build,
        rays.len(),
        rayon::current_num_threads(),
        n / t_c1,
        n / t_cn,
        n / t_a1,
        n / t_an
    );
    crate::output::print(&report)?;
    Ok(ExitCode::SUCCESS)
}
