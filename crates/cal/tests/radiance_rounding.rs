//! RADIANCE's constant reduction, to the last bit: calcomp turns `e/c` into
//! `e*(1/c)`, starts every sum from +0, flattens nested sums and products of a
//! definition and combines their numbers, and folds constants while reading.
//! The expected values were printed by RADIANCE 6.0a's `rcalc -od` (definitions)
//! and `rtrace` (modifier expressions); RADIANCE is not needed to run them.
//!
//! The last tests need RADIANCE and are skipped without it: RADIANCE's own bin
//! files, when RAYPATH finds them, on the golden directions of `golden/bins/`,
//! and random expressions against the reference `rcalc` in RADIANCE_BIN.

use daylit_cal::{CalEnv, EvalState, RayPath, SimpleRay};
use std::path::{Path, PathBuf};

fn args(text: &str) -> SimpleRay {
    let v: Vec<f64> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    SimpleRay::with_args(&v)
}

/// `v` after loading `defs`, with the modifier arguments `input` as `A1`, `A2`, ...
fn def_value(input: &str, defs: &str) -> f64 {
    let mut env = CalEnv::new();
    env.load_str("t.cal", defs)
        .unwrap_or_else(|e| panic!("{defs}: {e}"));
    let v = env.variable("v").unwrap();
    let mut st = EvalState::for_env(&env);
    let x = env.eval_var(v, &mut st, &args(input));
    assert!(st.error().is_none(), "{defs}: {:?}", st.error());
    x
}

fn expr_value(input: &str, text: &str) -> f64 {
    let mut env = CalEnv::new();
    let e = env.compile_expr(text).unwrap();
    let mut st = EvalState::for_env(&env);
    let x = env.eval_expr(e, &mut st, &args(input));
    assert!(st.error().is_none(), "{text}: {:?}", st.error());
    x
}

fn assert_bits(got: f64, want: f64, what: &str) {
    assert!(
        got.to_bits() == want.to_bits(),
        "{what}: daylit {got:?}, RADIANCE {want:?}"
    );
}

#[test]
fn inputs_differ_between_division_and_reciprocal() {
    // The cases below only test something if these differ.
    let x = 84.747_373_693_723_27_f64;
    assert_ne!(x / 3.0, x * (1.0 / 3.0));
    let (a, b, c) = (
        0.543_507_842_425_422_f64,
        1.198_433_981_567_158,
        1.915_035_075_497_470_5,
    );
    assert_ne!(a * (b * c), (a * b) * c);
    let x = 1.473_461_829_705_386_3_f64;
    assert_ne!(3.0 * x * 5.0, x * 15.0);
    let (x, y) = (1.599_038_361_625_664_3_f64, 0.733_756_320_604_983_7);
    assert_ne!(x + (0.1 + y), (x + 0.1) + y);
}

/// (inputs, definitions of `v`, RADIANCE's `v` from `rcalc -od`).
const DEFINITIONS: &[(&str, &str, f64)] = &[
    // Division by a number is a product with its reciprocal ...
    ("84.74337369372327", "v = A1/3;", 28.247791231241088),
    ("84.74337369372327", "v = A1/(2+1);", 28.247791231241088),
    ("84.74337369372327", "v = A1/sqrt(9);", 28.247791231241088),
    // ... also by a constant or a constant function of numbers defined by then,
    ("84.74337369372327", "c : 3; v = A1/c;", 28.247791231241088),
    (
        "84.74337369372327",
        "f(x) : x*3; v = A1/f(1);",
        28.247791231241088,
    ),
    // ... but not by a variable, a later constant or a non-constant function.
    ("84.74337369372327", "c = 3; v = A1/c;", 28.24779123124109),
    ("84.74337369372327", "v = A1/c; c : 3;", 28.24779123124109),
    (
        "84.74337369372327",
        "f(x) = x*3; v = A1/f(1);",
        28.24779123124109,
    ),
    // What is defined when a statement is read counts, redefinitions and
    // forward references inside constant functions included.
    (
        "84.74337369372327",
        "f(x) : x*2; a = A1/f(1); f(x) : x*3; v = A1/f(1);",
        28.247791231241088,
    ),
    (
        "84.74337369372327",
        "g(x) : h(x) + 1; h(x) : x; k : g(5); v = A1/k;",
        14.123895615620544,
    ),
    // A decision that flips with the last bit.
    (
        "84.74337369372327",
        "v = if(A1/3 - 28.247791231241088, 1, 2);",
        2.0,
    ),
    // Sums and products are flattened: parentheses do not group.
    ("1e16 1 1", "v = A1 + (A2 + A3);", 1e16),
    (
        "1.5990383616256643 0.7337563206049837",
        "v = A1 + (.1 + A2);",
        2.4327946822306483,
    ),
    (
        "0.543507842425422 1.198433981567158 1.9150350754974705",
        "v = A1*(A2*A3);",
        1.247373929190092,
    ),
    // Their numbers are combined into the first number's place.
    ("1.4734618297053863", "v = 3*A1*5;", 22.101927445580795),
    ("1.4734618297053863", "v = 3*(A1*5);", 22.101927445580795),
    ("1", "v = A1 + 1e16 - 1e16;", 1.0),
    ("1", "v = 1e16 + A1 - 1e16;", 1.0),
    // A sum starts from +0; products by a literal 0 are that 0; 0^e is that 0.
    ("-0 -0", "v = A1 + A2;", 0.0),
    ("-5", "v = A1*0;", 0.0),
    ("-5", "v = 0*A1;", 0.0),
    ("2", "v = -0^A1;", -0.0),
];

#[test]
fn definitions_round_like_rcalc() {
    for &(input, defs, want) in DEFINITIONS {
        assert_bits(def_value(input, defs), want, defs);
    }
}

#[test]
fn modifier_expressions_round_like_rtrace() {
    // rtrace reads a modifier's expression with the same rewrites but does not
    // flatten it (checked with brightfunc patterns): A1+(A2+A3) keeps its
    // grouping there, so 1e16 + 2 survives.
    let cases: &[(&str, &str, f64)] = &[
        ("84.74337369372327", "A1/3", 28.247791231241088),
        (
            "84.74337369372327",
            "if(A1/3 - 28.247791231241088, 2, 1)",
            1.0,
        ),
        ("1e16 1 1", "A1 + (A2 + A3)", 1.0000000000000002e16),
        ("1e16 1 1", "if(A1 + (A2 + A3) - 1e16 - 1, 2, 1)", 2.0),
        ("-0 -0", "A1 + A2", 0.0),
        ("2", "-0^A1", -0.0),
    ];
    for &(input, text, want) in cases {
        assert_bits(expr_value(input, text), want, text);
    }
}

#[test]
fn constants_are_frozen_when_read() {
    // calcomp replaces a constant by its value as it reads a use; a later
    // redefinition does not reach uses read before it.
    let mut env = CalEnv::new();
    env.load_str("a.cal", "k : 2; v = A1*k;").unwrap();
    env.load_str("b.cal", "k : 5;").unwrap();
    let mut st = EvalState::new();
    let v = env.variable("v").unwrap();
    assert_eq!(env.eval_var(v, &mut st, &args("3")), 6.0);
    // Variables stay live.
    env.load_str("c.cal", "m = 2; w = A1*m;").unwrap();
    env.load_str("d.cal", "m = 5;").unwrap();
    let w = env.variable("w").unwrap();
    assert_eq!(env.eval_var(w, &mut st, &args("3")), 15.0);
}

// ------------------------------------------------ RADIANCE's own bin files

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/bins")
}

/// RAYPATH's directories, if they hold RADIANCE's bin files.
fn radiance_path() -> Option<RayPath> {
    let rp = RayPath::from_env();
    let found = ["rayinit.cal", "reinhartb.cal", "klems_full.cal"]
        .iter()
        .all(|f| rp.find(f).is_some());
    found.then_some(rp)
}

/// RADIANCE's `file` read as rcalc read it for the goldens: constant settings
/// (`MF:4`) before the file, the others after it, all in one context.
fn radiance_setup(
    rp: &RayPath,
    file: &str,
    settings: &str,
    expr: &str,
) -> (CalEnv, daylit_cal::ExprId) {
    let mut env = CalEnv::with_raypath(rp).unwrap();
    let early = settings.contains(':');
    if early {
        env.load_str("settings", &format!("{settings};")).unwrap();
    }
    let path = rp.find(file).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    env.load_str(&path.display().to_string(), &text)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    if !early && !settings.is_empty() {
        env.load_str("settings", &format!("{settings};")).unwrap();
    }
    let id = env
        .compile_expr(expr)
        .unwrap_or_else(|e| panic!("{file} {expr}: {e}"));
    (env, id)
}

#[test]
fn radiance_bin_files_give_the_golden_bins() {
    let Some(rp) = radiance_path() else {
        eprintln!(
            "skipped: RADIANCE's reinhartb.cal and klems_full.cal are not on RAYPATH \
             (eval \"$(scripts/setup-reference.sh)\" puts them there)"
        );
        return;
    };
    let mut checked = 0;
    let mut bad = Vec::new();
    for frame in ["sky", "wall", "oblique", "floor", "degenerate"] {
        let text =
            std::fs::read_to_string(golden_dir().join(format!("frame_{frame}.dat"))).unwrap();
        let mut cols = Vec::new();
        let mut rows = Vec::new();
        for line in text.lines() {
            if let Some(spec) = line.strip_prefix("# col ") {
                let p: Vec<String> = spec.split(" | ").map(|s| s.trim().to_string()).collect();
                cols.push((p[1].clone(), p[2].clone(), p[3].clone()));
            } else if !line.starts_with('#') {
                let v: Vec<f64> = line
                    .split_whitespace()
                    .map(|t| t.parse().unwrap())
                    .collect();
                rows.push(v);
            }
        }
        for (c, (file, settings, expr)) in cols.iter().enumerate() {
            if rp.find(file).is_none() {
                continue;
            }
            let (env, id) = radiance_setup(&rp, file, settings, expr);
            let mut st = EvalState::for_env(&env);
            let mut ray = SimpleRay::default();
            let mut wrong = 0;
            for r in &rows {
                ray.set_dir([r[0], r[1], r[2]]);
                let v = env.eval_expr(id, &mut st, &ray);
                assert!(st.error().is_none(), "{file} {expr}: {:?}", st.take_error());
                if v.to_bits() != r[3 + c].to_bits() {
                    if wrong < 3 {
                        bad.push(format!(
                            "  {frame} {file} [{settings}] {expr}, D = {:?} {:?} {:?}: daylit {v:?}, RADIANCE {:?}",
                            r[0], r[1], r[2], r[3 + c]
                        ));
                    }
                    wrong += 1;
                }
                checked += 1;
            }
        }
    }
    assert!(
        bad.is_empty(),
        "bins differ from RADIANCE's:\n{}",
        bad.join("\n")
    );
    assert!(checked > 150_000, "only {checked} bins checked");
    eprintln!("{checked} bins of RADIANCE's own files equal the goldens");
}

#[test]
fn radiance_bin_counts_equal_the_goldens() {
    let Some(rp) = radiance_path() else {
        eprintln!("skipped: RADIANCE's bin files are not on RAYPATH");
        return;
    };
    let text = std::fs::read_to_string(golden_dir().join("counts.dat")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let p: Vec<&str> = line.split(" | ").map(str::trim).collect();
        if rp.find(p[0]).is_none() {
            continue;
        }
        let (env, id) = radiance_setup(&rp, p[0], p[1], p[2]);
        let mut st = EvalState::for_env(&env);
        let got = env.eval_expr(id, &mut st, &SimpleRay::default());
        assert_eq!(got, p[3].parse::<f64>().unwrap(), "{line}");
    }
}

// ------------------------------------------ random expressions against rcalc

/// The reference `rcalc`: RADIANCE_BIN as `scripts/setup-reference.sh` sets it
/// (RADIANCE 6.0a; older calcomp versions flatten and combine less).
fn rcalc() -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("RADIANCE_BIN")?).join("rcalc");
    p.is_file().then_some(p)
}

struct Gen(rand_pcg::Pcg64Mcg);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        (rand::RngCore::next_u64(&mut self.0) % n as u64) as usize
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
    /// A random expression in `X Y Z` (the inputs), numbers, constants and
    /// functions; `nz`: no constant zero (a divisor: calcomp rejects `e/0`).
    fn expr(&mut self, depth: u32, nz: bool) -> String {
        if depth == 0 || self.below(4) == 0 {
            return match self.below(20) {
                0..=7 => self.pick(&["X", "Y", "Z"]).to_string(),
                8..=14 => {
                    let zeros: &[&str] = if nz { &[] } else { &["0", "-0"] };
                    let nums = ["1", "2", "3", "7", "0.1", "10", "1e16", ".5", "180", "360"];
                    let all: Vec<&str> = nums.iter().chain(zeros).copied().collect();
                    self.pick(&all).to_string()
                }
                15..=17 => self.pick(&["c1", "c2", "c3"]).to_string(),
                _ => self
                    .pick(&["f(2)", "f(X)", "g(3)", "sqrt(2)", "g(Y)"])
                    .to_string(),
            };
        }
        match self.below(12) {
            0 => format!("-({})", self.expr(depth - 1, nz)),
            1 => {
                let e = if nz {
                    "2"
                } else {
                    self.pick(&["0", "1", "2", "3"])
                };
                format!("({})^{e}", self.expr(depth - 1, nz))
            }
            _ => {
                let op = self.pick(&["+", "+", "-", "*", "*", "/"]);
                let a = self.expr(depth - 1, nz);
                let b = self.expr(depth - 1, nz || op == "/");
                if self.below(2) == 0 {
                    format!("{a}{op}({b})")
                } else {
                    format!("{a}{op}{b}")
                }
            }
        }
    }
}

/// Random sums, differences, products, quotients and powers of inputs,
/// numbers, constants and constant functions must equal rcalc's to the last
/// bit (inputs are never 0, so no division by zero: there calcomp's error
/// handling leaks into enclosing powers and library calls, which we do not
/// copy). Skipped without the reference rcalc.
#[test]
fn random_expressions_equal_rcalc() {
    let Some(rcalc) = rcalc() else {
        eprintln!("skipped: no rcalc in RADIANCE_BIN (see scripts/setup-reference.sh)");
        return;
    };
    let defs = "c1 : 3; c2 : 0.1; c3 : c1*7 + 1/c2; f(x) : x*3 + 0.1; g(x) = x/7;";
    let mut g = Gen(rand::SeedableRng::seed_from_u64(0xCA1C));
    let mut checked = 0;
    for _batch in 0..4 {
        let exprs: Vec<String> = (0..50).map(|_| g.expr(5, false)).collect();
        let specials = [
            1e16,
            84.74337369372327,
            0.1,
            3.0,
            1.4734618297053863,
            -2.5,
            7.0,
        ];
        let inputs: Vec<[f64; 3]> = (0..30)
            .map(|_| {
                [0; 3].map(|_| {
                    if g.below(3) == 0 {
                        specials[g.below(specials.len())]
                    } else {
                        (g.below(2_000_001) as f64 - 1e6) * 1.234_567e-4 + 1e-9
                    }
                })
            })
            .collect();
        // rcalc: inputs are $1 $2 $3; daylit: the modifier arguments A1 A2 A3.
        let mut rdefs = defs.to_string();
        let mut ddefs = defs.to_string();
        let mut outs = String::new();
        for (i, e) in exprs.iter().enumerate() {
            let r = e.replace('X', "$1").replace('Y', "$2").replace('Z', "$3");
            rdefs += &format!("v{i} = {r};");
            let d = e.replace('X', "A1").replace('Y', "A2").replace('Z', "A3");
            ddefs += &format!("v{i} = {d};");
            outs += &format!("${} = v{i};", i + 1);
        }
        let text: String = inputs
            .iter()
            .map(|v| format!("{:?} {:?} {:?}\n", v[0], v[1], v[2]))
            .collect();
        let mut child = std::process::Command::new(&rcalc)
            .args(["-od", "-e", &rdefs, "-e", &outs])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "rcalc failed on {rdefs}");
        let want: Vec<f64> = out
            .stdout
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(want.len(), exprs.len() * inputs.len());

        let mut env = CalEnv::new();
        env.load_str("random.cal", &ddefs).unwrap();
        let mut st = EvalState::for_env(&env);
        for (k, inp) in inputs.iter().enumerate() {
            let ray = SimpleRay::with_args(inp);
            for (i, e) in exprs.iter().enumerate() {
                let v = env.variable(&format!("v{i}")).unwrap();
                let got = env.eval_var(v, &mut st, &ray);
                let w = want[k * exprs.len() + i];
                assert!(
                    got.to_bits() == w.to_bits(),
                    "{e} at {inp:?}: daylit {got:?}, rcalc {w:?}"
                );
                checked += 1;
            }
        }
    }
    eprintln!("{checked} random evaluations equal rcalc's");
}
