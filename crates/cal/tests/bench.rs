//! Micro-benchmark: `cargo test -p daylit-cal --release --test bench -- --ignored --nocapture`.

use daylit_cal::{CalEnv, EvalState, RayPath, SimpleRay};
use std::time::Instant;

fn bench(file: &str, func: &str, args: &[f64]) -> f64 {
    let mut env = CalEnv::new();
    env.load_file(file, &RayPath::new(Vec::<std::path::PathBuf>::new()))
        .unwrap();
    let e = env.compile_expr_in(file, func).unwrap();
    let mut st = EvalState::for_env(&env);
    let mut ray = SimpleRay::with_args(args);
    let n = 2_000_000;
    let mut sum = 0.0;
    let t = Instant::now();
    for i in 0..n {
        let z = -0.99 + 1.98 * (i % 1000) as f64 / 1000.0;
        let r = (1.0 - z * z).sqrt();
        let p = i as f64 * 2.399_963;
        ray.set_dir([r * p.cos(), r * p.sin(), z]);
        sum += env.eval_expr(e, &mut st, &ray);
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!("{file} {func}: {ns:.1} ns per evaluation (checksum {sum:.3e})");
    ns
}

#[test]
#[ignore]
fn sky_function_speed() {
    let clear = [1.0, 27.75, 29.71, 1.514, 0.005614, -0.284825, 0.958563];
    let inter = [4.0, 27.75, 29.71, 1.514, 0.005614, -0.284825, 0.958563];
    let perez = [
        36.36, 26.89, -0.951972, -0.21717, 17.637442, -3.938252, 0.697533, 0.005614, -0.284825,
        0.958563,
    ];
    bench("skybright.cal", "skybr", &clear);
    bench("skybright.cal", "skybr", &inter);
    bench("skybright.cal", "skybr", &[2.0, 41.21, 6.411]);
    bench("perezlum.cal", "skybright", &perez);
}
