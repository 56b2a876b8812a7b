//! Deterministic fuzzing: mutated valid text and random bytes must never
//! panic in parse, compile, link or evaluation.

use daylit_cal::{CalEnv, EvalState, RayVar, SimpleRay, EMBEDDED_FILES};

/// Deterministic random numbers, so a failure can be replayed.
struct Rng(rand_pcg::Pcg64Mcg);
impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        rand::RngCore::next_u64(&mut self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "fact(n) = if(n-1.5, n*fact(n-1), 1); x = fact(arg(1)); y : 2^-3^2;",
    "f(a, b) = a(2)*b + select(b, 1, 2, 3); g = f(D, Dz) + $3 - -Dx^2;",
    "s = sqrt(Dx*Dx + Dy*Dy) / (Dz + 1e-3); t = atan2(Dy, Dx) + noise3(Px, Py, Pz);",
    "{ c { n } } a`ctx. = 1; b` = a`ctx. + max(1, 2, A3) + min(.5, 2.) + rand(Px);",
    "h(x) = h(x) + 1; loop = h(0); w = fnoise3(Px,Py,Pz)*turbulence(Px,Py,Pz,8);",
    // rcalc's records: output columns, input columns, in(), cond, recno.
    "$1 = $2*in(0) + recno; cond = $3 - 1; $4 = in(-1) + $99999999999; $2=outno*PI;",
];

const TOKENS: &[&str] = &[
    "(", ")", ",", ";", "=", ":", "+", "-", "*", "/", "^", "{", "}", "$", "`", ".", "e", "1", "0",
    "x", "f(", "arg(", "if(", "select(", "Dx", "PI", "1e400", "-1e-400",
];

fn mutate(r: &mut Rng, base: &str) -> String {
    let mut s: Vec<char> = base.chars().collect();
    for _ in 0..1 + r.below(6) {
        let pos = r.below(s.len() + 1);
        match r.below(4) {
            0 if !s.is_empty() => {
                let p = pos.min(s.len() - 1);
                s.remove(p);
            }
            1 => {
                let t = TOKENS[r.below(TOKENS.len())];
                for (k, c) in t.chars().enumerate() {
                    s.insert(pos + k, c);
                }
            }
            2 if !s.is_empty() => {
                let p = pos.min(s.len() - 1);
                s[p] = (r.below(95) as u8 + 32) as char;
            }
            _ => {
                let a = r.below(s.len() + 1);
                let b = (a + r.below(20)).min(s.len());
                let chunk: Vec<char> = s[a..b].to_vec();
                let p = pos.min(s.len());
                for (k, c) in chunk.into_iter().enumerate() {
                    s.insert(p + k, c);
                }
            }
        }
    }
    s.into_iter().collect()
}

fn exercise(env: &mut CalEnv, text: &str, st: &mut EvalState, ray: &SimpleRay) {
    if env.load_str("fuzz.cal", text).is_err() {
        let _ = env.compile_expr(text);
        return;
    }
    let _ = env.link();
    for (_, name) in env.definitions().into_iter().take(40) {
        if let Some(v) = env.variable(&name) {
            let _ = env.check_var(v);
            let x = env.eval_var(v, st, ray);
            assert!(!x.is_nan() || st.error().is_none() || x.is_nan());
        }
        if let Some(f) = env.function(&name) {
            let _ = env.call(f, &[0.5, -2.0, 3.0], st, ray);
        }
    }
}

#[test]
fn fuzz_never_panics() {
    let mut r = Rng::new(0x5EED_CA1C);
    let mut st = EvalState::new();
    st.set_step_limit(Some(20_000));
    let mut ray = SimpleRay::with_args(&[3.0, 0.5, -1.0, 2.0]);
    ray.set_dir([0.3, -0.4, 0.866]).set(RayVar::Px, 1.5);
    let mut corpus: Vec<&str> = SEEDS.to_vec();
    corpus.extend(EMBEDDED_FILES.iter().map(|f| f.1));
    for i in 0..20_000 {
        // A fresh environment now and then so redefinitions do not pile up; every fifth
        // one is a record environment (rcalc's).
        let mut env = if i % 5 == 4 {
            CalEnv::for_records()
        } else {
            CalEnv::new()
        };
        let text = match i % 4 {
            3 => {
                let n = r.below(80);
                let bytes: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            _ => {
                let base = corpus[r.below(corpus.len())];
                if base.len() > 400 {
                    // Mutate a window of a long library file.
                    let a = r.below(base.len() - 300);
                    let a = (0..=a)
                        .rev()
                        .find(|&k| base.is_char_boundary(k))
                        .unwrap_or(0);
                    let mut b = (a + 300).min(base.len());
                    while !base.is_char_boundary(b) {
                        b -= 1;
                    }
                    mutate(&mut r, &base[a..b])
                } else {
                    mutate(&mut r, base)
                }
            }
        };
        exercise(&mut env, &text, &mut st, &ray);
    }
}
