//! Expression semantics against hand-computed values.

use daylit_cal::{CalEnv, CalError, EvalError, EvalState, FuncId, NoRay, RayVar, SimpleRay};

fn ev_in(env: &mut CalEnv, text: &str, ray: &SimpleRay) -> f64 {
    let e = env
        .compile_expr(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut st = EvalState::new();
    let v = env.eval_expr(e, &mut st, ray);
    assert!(st.error().is_none(), "{text}: {:?}", st.error());
    v
}

fn ev(text: &str) -> f64 {
    ev_in(&mut CalEnv::new(), text, &SimpleRay::default())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(ev("1+2*3"), 7.0);
    assert_eq!(ev("(1+2)*3"), 9.0);
    assert_eq!(ev("10-4-3"), 3.0);
    assert_eq!(ev("100/10/5"), 2.0);
    assert_eq!(ev("2^3^2"), 512.0); // right associative
    assert_eq!(ev("2*3^2"), 18.0);
    assert_eq!(ev("-2^2"), 4.0); // unary minus binds tighter than ^
    assert_eq!(ev("0-2^2"), -4.0);
    assert_eq!(ev("2^-2"), 0.25);
    assert_eq!(ev("-(2^2)"), -4.0);
    assert_eq!(ev("+3*-2"), -6.0);
    assert_eq!(ev("8/2*4"), 16.0);
    assert_eq!(ev("1-2+3"), 2.0);
    assert_eq!(ev("-(-3)"), 3.0);
}

#[test]
fn numbers() {
    assert_eq!(ev(".5"), 0.5);
    assert_eq!(ev("2."), 2.0);
    assert_eq!(ev("1e-3"), 0.001);
    assert_eq!(ev("1.5E+2"), 150.0);
    // calcomp skips blanks everywhere, even inside numbers.
    assert_eq!(ev("1 2"), 12.0);
}

#[test]
fn library_functions() {
    assert!(close(ev("sqrt(16)"), 4.0));
    assert!(close(ev("exp(1)"), std::f64::consts::E));
    assert!(close(ev("log(exp(2))"), 2.0));
    assert!(close(ev("log10(1000)"), 3.0));
    assert!(close(ev("atan2(1,1)"), std::f64::consts::FRAC_PI_4));
    assert!(close(ev("floor(-1.5)+ceil(1.2)"), 0.0));
    assert!(close(ev("sin(PI/2)+cos(0)+tan(0)"), 2.0));
    assert!(close(
        ev("asin(1)+acos(1)+atan(0)"),
        std::f64::consts::FRAC_PI_2
    ));
    assert_eq!(ev("max(1,5,3)"), 5.0);
    assert_eq!(ev("min(4,-2,3)"), -2.0);
    assert_eq!(ev("if(1, 2, 3)"), 2.0);
    assert_eq!(ev("if(0, 2, 3)"), 3.0);
    assert_eq!(ev("if(-1, 2, 3)"), 3.0);
    assert_eq!(ev("select(2, 10, 20, 30)"), 20.0);
    assert_eq!(ev("select(0, 10, 20, 30)"), 3.0);
    assert_eq!(ev("select(2.4, 10, 20, 30)"), 20.0);
    let r = ev("rand(3.7)");
    assert!((0.0..1.0).contains(&r));
    assert_eq!(r, ev("rand(3.7)"));
    assert!((ev("erf(1)") - 0.842_700_79).abs() < 1e-6);
}

#[test]
fn domain_errors_give_zero() {
    assert_eq!(ev("sqrt(-1)"), 0.0);
    assert_eq!(ev("log(0)"), 0.0);
    assert_eq!(ev("(-8)^(1/3)"), 0.0);
    assert_eq!(ev("select(7, 1, 2)"), 0.0);
    let mut env = CalEnv::new();
    env.load_str("t", "z = 0; q = 5/z;").unwrap();
    assert_eq!(ev_in(&mut env, "q", &SimpleRay::default()), 0.0);
}

#[test]
fn rayinit_library() {
    assert!(close(ev("PI"), std::f64::consts::PI));
    assert!(close(ev("DEGREE*180"), std::f64::consts::PI));
    assert_eq!(ev("abs(-3)"), 3.0);
    assert_eq!(ev("sgn(-3)+sgn(0)+sgn(9)"), 0.0);
    assert_eq!(ev("sq(3)"), 9.0);
    assert_eq!(ev("and(1,1)+or(-1,1)"), 2.0);
    assert_eq!(ev("not(1)"), -1.0);
    assert_eq!(ev("inside(0,0.5,1)"), 0.5);
    assert!(close(ev("frac(2.25)"), 0.25));
    assert_eq!(ev("mod(7,3)"), 1.0);
    assert_eq!(ev("mod(-1,3)"), 2.0);
    assert_eq!(ev("bound(0,5,1)"), 1.0);
    assert_eq!(ev("linterp(.25,0,8)"), 2.0);
    assert!(close(ev("hermite(0,1,0,0,.5)"), 0.5));
    assert_eq!(ev("Sqrt(-4)"), 0.0);
    assert_eq!(ev("Exp(-1000)"), 0.0);
    assert!(close(ev("Acos(2)"), 0.0));
    let mut ray = SimpleRay::default();
    ray.set_dir([0.0, 0.6, 0.8]);
    ray.set(RayVar::Nx, 1.0);
    let mut env = CalEnv::new();
    // Higher-order: functions passed by name.
    assert!(close(ev_in(&mut env, "dot(D, D)", &ray), 1.0));
    assert!(close(ev_in(&mut env, "dot(D, N)", &ray), 0.0));
    assert!(close(ev_in(&mut env, "cross(2, N, D)", &ray), -0.8));
    assert!(close(ev_in(&mut env, "D(3)", &ray), 0.8));
    assert!(ev_in(&mut env, "noise3(.3,.4,.5)", &ray).abs() <= 1.0);
}

#[test]
fn ray_variables_channels_and_args() {
    let mut env = CalEnv::new();
    let mut ray = SimpleRay::with_args(&[2.0, 3.0, 5.0]);
    ray.set_dir([0.1, 0.2, 0.3])
        .set(RayVar::Ts, 7.0)
        .set(RayVar::NxP, 9.0);
    assert!(close(ev_in(&mut env, "Dx+Dy+Dz", &ray), 0.6));
    assert_eq!(ev_in(&mut env, "$3", &ray), 0.3);
    assert_eq!(ev_in(&mut env, "$25", &ray), 7.0);
    assert_eq!(ev_in(&mut env, "NxP", &ray), 9.0);
    assert_eq!(ev_in(&mut env, "arg(0)", &ray), 3.0);
    assert_eq!(ev_in(&mut env, "arg(2)*A3", &ray), 15.0);
    assert_eq!(ev_in(&mut env, "arg(1+1)", &ray), 3.0);
    assert_eq!(ev_in(&mut env, "AC", &ray), 3.0);
    // Missing argument: value 0 and an error.
    let e = env.compile_expr("arg(9)").unwrap();
    let mut st = EvalState::new();
    assert_eq!(env.eval_expr(e, &mut st, &ray), 0.0);
    assert_eq!(st.error(), Some(&EvalError::MissingArg(9)));
    // A clean evaluation clears it.
    let e2 = env.compile_expr("arg(1)").unwrap();
    assert_eq!(env.eval_expr(e2, &mut st, &ray), 2.0);
    assert!(st.error().is_none());
}

#[test]
fn user_functions_recursion_and_redefinition() {
    let mut env = CalEnv::new();
    env.load_str(
        "t.cal",
        "{ comments { nest } } fact(n) = if(n-1.5, n*fact(n-1), 1);
         fib(n) = if(n-2.5, fib(n-1)+fib(n-2), 1);
         hyp(a, b) : sqrt(a*a + b*b);
         x = 3; y = x*2; later = soon + 1; soon = 41;
         c : 2*PI;",
    )
    .unwrap();
    let r = SimpleRay::default();
    assert_eq!(ev_in(&mut env, "fact(5)", &r), 120.0);
    assert_eq!(ev_in(&mut env, "fact(10)", &r), 3_628_800.0);
    assert_eq!(ev_in(&mut env, "fib(15)", &r), 610.0);
    assert_eq!(ev_in(&mut env, "hyp(3,4)", &r), 5.0);
    assert_eq!(ev_in(&mut env, "y", &r), 6.0);
    assert_eq!(ev_in(&mut env, "later", &r), 42.0);
    assert!(close(ev_in(&mut env, "c", &r), 2.0 * std::f64::consts::PI));
    // Redefinition replaces, and existing expressions follow.
    let e = env.compile_expr("y + 1").unwrap();
    env.load_str("u.cal", "x = 10;").unwrap();
    let mut st = EvalState::new();
    assert_eq!(env.eval_expr(e, &mut st, &r), 21.0);
    // A user definition hides a library function.
    env.load_str("v.cal", "sq(x) = 100;").unwrap();
    assert_eq!(ev_in(&mut env, "sq(3)", &r), 100.0);
    // call() with numeric arguments.
    let f = env.function("fact").unwrap();
    assert_eq!(env.call(f, &[6.0], &mut st, &r), 720.0);
    let s = env.function("sqrt").unwrap();
    assert_eq!(s, FuncId::Builtin(daylit_cal::Builtin::Sqrt));
    assert_eq!(env.call(s, &[9.0], &mut st, &r), 3.0);
    let v = env.variable("y").unwrap();
    assert_eq!(env.eval_var(v, &mut st, &r), 20.0);
}

#[test]
fn runaway_recursion_is_an_error_not_a_crash() {
    let mut env = CalEnv::new();
    env.load_str("r.cal", "f(x) = f(x+1) + 1; a = b; b = a;")
        .unwrap();
    let mut st = EvalState::new();
    let e = env.compile_expr("f(0)").unwrap();
    assert_eq!(env.eval_expr(e, &mut st, &NoRay), 0.0);
    assert_eq!(st.error(), Some(&EvalError::DepthExceeded));
    let e = env.compile_expr("a").unwrap();
    env.eval_expr(e, &mut st, &NoRay);
    assert_eq!(st.error(), Some(&EvalError::DepthExceeded));
}

#[test]
fn lazy_arguments() {
    let mut env = CalEnv::new();
    // The second argument would recurse forever if evaluated eagerly.
    env.load_str(
        "l.cal",
        "pick(c, a, b) = if(c, a, b); g(n) = pick(n, g(n-1), 7);",
    )
    .unwrap();
    assert_eq!(ev_in(&mut env, "g(3)", &SimpleRay::default()), 7.0);
}

#[test]
fn contexts_keep_files_apart() {
    let mut env = CalEnv::new();
    let rp = daylit_cal::RayPath::new(Vec::<std::path::PathBuf>::new());
    env.load_file("skybright.cal", &rp).unwrap();
    env.load_file("perezlum.cal", &rp).unwrap();
    env.load_file("skybright.cal", &rp).unwrap(); // no-op
    assert!(env.variable_in("skybright.cal", "skybr").is_some());
    assert!(env.variable_in("perezlum.cal", "skybright").is_some());
    assert!(env.variable("skybr").is_none()); // not global
    env.load_str_in("a.cal", "a", "k = 1; both = k;").unwrap();
    env.load_str_in("b.cal", "b", "k = 2; both = k;").unwrap();
    let mut st = EvalState::new();
    let a = env.resolve_var_in("a.cal", "both").unwrap();
    let b = env.resolve_var_in("b.cal", "both").unwrap();
    assert_eq!(env.eval_var(a, &mut st, &NoRay), 1.0);
    assert_eq!(env.eval_var(b, &mut st, &NoRay), 2.0);
    // Globals are visible from a file context.
    let e = env.compile_expr_in("a.cal", "PI*k").unwrap();
    assert!(close(
        env.eval_expr(e, &mut st, &NoRay),
        std::f64::consts::PI
    ));
}

#[test]
fn missing_file_names_dirs() {
    let mut env = CalEnv::new();
    let rp = daylit_cal::RayPath::new(["/nonexistent/a", "/nonexistent/b"]);
    match env.load_file("nosuch.cal", &rp) {
        Err(CalError::NotFound { name, searched }) => {
            assert_eq!(name, "nosuch.cal");
            assert_eq!(searched.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    let msg = env.load_file("nosuch.cal", &rp).unwrap_err().to_string();
    assert!(msg.contains("/nonexistent/b"), "{msg}");
}

#[test]
fn file_on_disk_is_found_by_raypath() {
    let dir = std::env::temp_dir().join(format!("daylit-cal-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.cal"), "val = 2*A1;\n").unwrap();
    let rp = daylit_cal::RayPath::new([dir.clone()]);
    let mut env = CalEnv::new();
    env.load_file("mine.cal", &rp).unwrap();
    let v = env.resolve_var_in("mine.cal", "val").unwrap();
    let mut st = EvalState::new();
    assert_eq!(env.eval_var(v, &mut st, &SimpleRay::with_args(&[4.0])), 8.0);
    // Explicit relative names are not searched.
    assert!(env.load_file("./mine2.cal", &rp).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn env_is_send_sync() {
    fn assert_ss<T: Send + Sync>() {}
    assert_ss::<CalEnv>();
    assert_ss::<EvalState>();
}

#[test]
fn threads_share_env() {
    let env = CalEnv::new();
    let f = env.function("fact");
    assert!(f.is_none());
    let mut env = env;
    env.load_str("f", "h(x) = x*x + A1;").unwrap();
    let f = env.function("h").unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            let env = &env;
            s.spawn(move || {
                let mut st = EvalState::for_env(env);
                let r = SimpleRay::with_args(&[t as f64]);
                for i in 0..100 {
                    let x = i as f64;
                    assert_eq!(env.call(f, &[x], &mut st, &r), x * x + t as f64);
                }
            });
        }
    });
}

/// rcalc's set-up: `$N` are input columns, `$N = ...` output columns, and
/// `in()` exists only there.
#[test]
fn record_environment_reads_columns_and_defines_outputs() {
    struct Rec(Vec<f64>);
    impl daylit_cal::RayContext for Rec {
        fn ray_var(&self, _v: daylit_cal::RayVar) -> f64 {
            0.0
        }
        fn args(&self) -> &[f64] {
            &[]
        }
        fn record_var(&self, v: daylit_cal::RecordVar) -> f64 {
            match v {
                daylit_cal::RecordVar::Column(n) => {
                    self.0.get(n as usize - 1).copied().unwrap_or(0.0)
                }
                daylit_cal::RecordVar::ColumnCount => self.0.len() as f64,
                daylit_cal::RecordVar::RecNo => 7.0,
                daylit_cal::RecordVar::OutNo => 3.0,
            }
        }
    }
    let mut env = daylit_cal::CalEnv::for_records();
    env.load_str("e", "$3 = $1 * in(2) + in(0); $1 = recno + outno; s = $9;")
        .unwrap();
    let cols = env.output_columns();
    assert_eq!(cols.iter().map(|c| c.0).collect::<Vec<_>>(), [1, 3]);
    let mut out = [0.0; 2];
    let ids = [cols[0].1, cols[1].1];
    let mut st = daylit_cal::EvalState::new();
    env.eval_vars(&ids, &mut out, &mut st, &Rec(vec![2.0, 5.0]));
    assert_eq!(out, [10.0, 12.0]);
    let s = env.variable("s").unwrap();
    assert_eq!(env.eval_var(s, &mut st, &Rec(vec![1.0])), 0.0);
    // A ray environment has neither output columns nor in().
    let mut ray = daylit_cal::CalEnv::new();
    assert!(ray.load_str("e", "$1 = 2;").is_err());
    assert!(ray.compile_expr("in(1)").is_err());
}

/// Names the program answers (pcomb's `ri(n, dx, dy)`, `x`): evaluated through the context
/// with the call's arguments, hidden by a definition of the same name.
#[test]
fn external_names_are_answered_by_the_context() {
    struct Ctx;
    impl daylit_cal::RayContext for Ctx {
        fn ray_var(&self, _v: daylit_cal::RayVar) -> f64 {
            0.0
        }
        fn args(&self) -> &[f64] {
            &[]
        }
        fn external(&self, id: u32, args: &[f64]) -> f64 {
            100.0 * f64::from(id) + args.iter().sum::<f64>() + args.len() as f64 / 10.0
        }
    }
    let mut env = daylit_cal::CalEnv::new();
    let ri = env.define_external("ri");
    let x = env.define_external("x");
    assert_eq!((ri, x), (0, 1));
    env.load_str("e", "a = ri(2) + ri(1, -3, 4); b = x * 2; c = ri(1, 2);")
        .unwrap();
    let mut st = daylit_cal::EvalState::new();
    let a = env.variable("a").unwrap();
    assert!((env.eval_var(a, &mut st, &Ctx) - (2.1 + 2.3)).abs() < 1e-12);
    let b = env.variable("b").unwrap();
    assert_eq!(env.eval_var(b, &mut st, &Ctx), 200.0);
    env.load_str("e2", "x = 7;").unwrap();
    assert_eq!(env.eval_var(b, &mut st, &Ctx), 14.0);
}
