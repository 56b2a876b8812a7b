//! Build time and incoherent-ray throughput on a structured triangle scene.
//!
//! `cargo run --release -p daylit-geometry --example raybench -- [ntris] [--compare]`
//!
//! The scene: a terrain height field, a subdivided sphere and scattered boxes (12
//! triangles each), about `ntris` triangles (default 10^6), centred 1e5 from the origin
//! like a real site. `--compare` also times the other layouts and build settings.

use std::time::Instant;

use daylit_geometry::{Accel, AccelOptions, BvhLayout, DVec3, Ray, Shape, Triangle};
use rayon::prelude::*;

struct Rng(rand_pcg::Pcg64Mcg);
impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        rand::RngCore::next_u64(&mut self.0)
    }
    fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn dir(&mut self) -> DVec3 {
        loop {
            let d = DVec3::new(self.f(), self.f(), self.f()) * 2.0 - DVec3::ONE;
            let l = d.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return d / l.sqrt();
            }
        }
    }
}

const ORIGIN: DVec3 = DVec3::new(1e5, 2e5, 0.0);

fn push_tri(out: &mut Vec<Shape>, a: DVec3, b: DVec3, c: DVec3) {
    if let Ok(t) = Triangle::new([a + ORIGIN, b + ORIGIN, c + ORIGIN]) {
        out.push(t.into());
    }
}

fn scene(ntris: usize) -> Vec<Shape> {
    let mut out = Vec::with_capacity(ntris + 1000);
    let size = 200.0;
    // Terrain: half the triangles.
    let n = (((ntris / 2) / 2) as f64).sqrt().max(2.0) as usize;
    let h = |x: f64, y: f64| {
        3.0 * (x * 0.05).sin() * (y * 0.07).cos() + 0.5 * (x * 0.9 + y * 0.3).sin()
    };
    let p = |i: usize, j: usize| {
        let x = i as f64 / n as f64 * size;
        let y = j as f64 / n as f64 * size;
        DVec3::new(x, y, h(x, y))
    };
    for i in 0..n {
        for j in 0..n {
            push_tri(&mut out, p(i, j), p(i + 1, j), p(i + 1, j + 1));
            push_tri(&mut out, p(i, j), p(i + 1, j + 1), p(i, j + 1));
        }
    }
    // Sphere (lat-long), a fifth of the triangles.
    let m = (((ntris / 5) / 2) as f64).sqrt().max(4.0) as usize;
    let c = DVec3::new(100.0, 100.0, 30.0);
    let sp = |i: usize, j: usize| {
        let th = std::f64::consts::PI * i as f64 / m as f64;
        let ph = 2.0 * std::f64::consts::PI * j as f64 / m as f64;
        c + DVec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos()) * 20.0
    };
    for i in 0..m {
        for j in 0..m {
            push_tri(&mut out, sp(i, j), sp(i + 1, j), sp(i + 1, j + 1));
            push_tri(&mut out, sp(i, j), sp(i + 1, j + 1), sp(i, j + 1));
        }
    }
    // Boxes for the rest.
    let mut rng = Rng::new(1);
    while out.len() + 12 <= ntris {
        let lo = DVec3::new(rng.f() * size, rng.f() * size, rng.f() * 40.0);
        let e = DVec3::new(
            0.2 + rng.f() * 3.0,
            0.2 + rng.f() * 3.0,
            0.2 + rng.f() * 6.0,
        );
        let v = |k: usize| {
            lo + DVec3::new(
                if k & 1 != 0 { e.x } else { 0.0 },
                if k & 2 != 0 { e.y } else { 0.0 },
                if k & 4 != 0 { e.z } else { 0.0 },
            )
        };
        for [a, b, c, d] in [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ] {
            push_tri(&mut out, v(a), v(b), v(c));
            push_tri(&mut out, v(a), v(c), v(d));
        }
    }
    out
}

fn rays(count: usize, seed: u64) -> Vec<(Ray, f64)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let o = ORIGIN + DVec3::new(rng.f() * 200.0, rng.f() * 200.0, 2.0 + rng.f() * 50.0);
            (Ray::new(o, rng.dir()), 5.0 + rng.f() * 50.0)
        })
        .collect()
}

fn mrays(n: usize, secs: f64) -> f64 {
    n as f64 / secs / 1e6
}

fn bench(name: &str, shapes: &[Shape], opts: AccelOptions, rs: &[(Ray, f64)]) {
    let shapes = shapes.to_vec();
    let t = Instant::now();
    let accel = Accel::build_with(shapes, opts);
    let build = t.elapsed().as_secs_f64();
    let single = &rs[..rs.len() / 4];
    if std::env::var_os("RAYBENCH_COUNT").is_some() {
        let mut calls = 0usize;
        for (r, _) in single.iter().take(10000) {
            accel.closest_hit_filtered(r, 1e-6, f64::INFINITY, |_| {
                calls += 1;
                true
            });
        }
        println!("  primitive tests per ray: {:.1}", calls as f64 / 10000.0);
    }

    let t = Instant::now();
    let hits = single
        .iter()
        .filter(|(r, _)| accel.closest_hit(r, 1e-6, f64::INFINITY).is_some())
        .count();
    let ch1 = mrays(single.len(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let _ = single
        .iter()
        .filter(|(r, tm)| accel.any_hit(r, 1e-6, *tm))
        .count();
    let ah1 = mrays(single.len(), t.elapsed().as_secs_f64());

    let t = Instant::now();
    let _ = rs
        .par_iter()
        .filter(|(r, _)| accel.closest_hit(r, 1e-6, f64::INFINITY).is_some())
        .count();
    let chn = mrays(rs.len(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let _ = rs
        .par_iter()
        .filter(|(r, tm)| accel.any_hit(r, 1e-6, *tm))
        .count();
    let ahn = mrays(rs.len(), t.elapsed().as_secs_f64());
    println!(
        "{name:<34} build {build:6.3} s | closest 1T {ch1:6.2} MT {chn:6.2} | any-hit 1T {ah1:6.2} MT {ahn:6.2} Mrays/s | hit {:.0}%",
        100.0 * hits as f64 / single.len() as f64
    );
}

/// obvhs on its own (f32 triangles, its helper build and traversal): calibrates how much
/// the f64 wrapper costs on this machine.
fn bench_native(shapes: &[Shape], rs: &[(Ray, f64)]) {
    use obvhs::{ray::RayHit, triangle::Triangle as T32};
    let tris: Vec<T32> = shapes
        .iter()
        .map(|s| {
            let Shape::Triangle(t) = s else {
                unreachable!()
            };
            let v = t.vertices().map(|p| (p - ORIGIN).as_vec3a());
            T32 {
                v0: v[0],
                v1: v[1],
                v2: v[2],
            }
        })
        .collect();
    let t = Instant::now();
    let bvh = obvhs::cwbvh::builder::build_cwbvh_from_tris(
        &tris,
        obvhs::BvhBuildParams::medium_build(),
        &mut std::time::Duration::default(),
    );
    let build = t.elapsed().as_secs_f64();
    let single = &rs[..rs.len() / 4];
    let t = Instant::now();
    let mut hits = 0;
    for (r, _) in single {
        let ray = obvhs::ray::Ray::new_inf((r.origin - ORIGIN).as_vec3a(), r.dir.as_vec3a());
        let mut hit = RayHit::none();
        if bvh.ray_traverse(ray, &mut hit, |ray, id| {
            tris[bvh.primitive_indices[id] as usize].intersect(ray)
        }) {
            hits += 1;
        }
    }
    println!(
        "{:<34} build {build:6.3} s | closest 1T {:6.2} Mrays/s | hit {:.0}%",
        "obvhs native f32 cwbvh (calib.)",
        mrays(single.len(), t.elapsed().as_secs_f64()),
        100.0 * hits as f64 / single.len() as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ntris = args
        .iter()
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(1_000_000);
    let compare = args.iter().any(|a| a == "--compare");
    let t = Instant::now();
    let shapes = scene(ntris);
    println!(
        "scene: {} triangles (made in {:.2} s), {} threads",
        shapes.len(),
        t.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    let rs = rays(1_000_000, 42);
    let d = AccelOptions::default();
    bench("cwbvh leaf<=3 (default)", &shapes, d, &rs);
    if compare {
        bench_native(&shapes, &rs);
        let cw = |m, split, search, re| AccelOptions {
            layout: BvhLayout::Cwbvh,
            max_prims_per_leaf: m,
            pre_split: split,
            search,
            reinsertion: re,
        };
        let b2 = |m, split| AccelOptions {
            layout: BvhLayout::Bvh2,
            max_prims_per_leaf: m,
            pre_split: split,
            ..d
        };
        bench("cwbvh leaf<=1", &shapes, cw(1, false, 2, 0.05), &rs);
        bench(
            "cwbvh leaf<=3 pre-split",
            &shapes,
            cw(3, true, 2, 0.05),
            &rs,
        );
        bench(
            "cwbvh leaf<=3 search=min no reins.",
            &shapes,
            cw(3, false, 0, 0.0),
            &rs,
        );
        bench(
            "cwbvh leaf<=3 search=high reins.0.2",
            &shapes,
            cw(3, false, 3, 0.2),
            &rs,
        );
        bench("bvh2 leaf<=1", &shapes, b2(1, false), &rs);
        bench("bvh2 leaf<=4", &shapes, b2(4, false), &rs);
        bench("bvh2 leaf<=8", &shapes, b2(8, false), &rs);
        bench("bvh2 leaf<=4 pre-split", &shapes, b2(4, true), &rs);
    }
}
