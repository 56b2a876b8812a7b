//! `.cal` language: parse and load definitions, compile stand-alone expressions, link, and
//! evaluate. Only "no panic, no hang" is checked; errors (load, compile, link, evaluation)
//! are fine.
//!
//! Input layout: `.cal` text, optionally followed by a line `%%` and then one stand-alone
//! expression per line (at most 16). Without `%%`, the whole input is also tried as a
//! single expression. Every variable the text defines is then compiled as an expression
//! and evaluated, and every function is compiled as a call `f(.5, -2, 3)` and also called
//! directly (only names that occur in the input, so not all of rayinit.cal each time).
#![no_main]

use daylit_cal::{CalEnv, EvalState, ExprId, NoRay, RayVar, SimpleRay};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Node evaluations allowed per top-level evaluation: `EvalState::set_step_limit` is the
/// documented guard for untrusted text (e.g. `f(n) = f(n-1) + f(n-1)`), so exponential
/// recursion is not reported as a hang.
const STEP_LIMIT: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (source, exprs) = match text.split_once("\n%%\n") {
        Some((s, e)) => (s, Some(e)),
        None => (&*text, None),
    };
    // CalEnv::new() parses and links the embedded rayinit.cal; clone a prototype instead.
    static BASE: OnceLock<CalEnv> = OnceLock::new();
    let mut env = BASE.get_or_init(CalEnv::new).clone();
    let mut ids: Vec<ExprId> = Vec::new();
    let loaded = env.load_str("fuzz.cal", source).is_ok();
    if !loaded && exprs.is_none() {
        // Not definitions: maybe an expression.
        if let Ok(id) = env.compile_expr(source) {
            ids.push(id);
        }
    }
    if let Some(e) = exprs {
        for line in e.lines().take(16) {
            if let Ok(id) = env.compile_expr(line) {
                ids.push(id);
            }
        }
    }
    let _ = env.link();

    let mut funcs = Vec::new();
    // Only names the input mentions: the ~100 definitions of the embedded rayinit.cal would
    // otherwise be evaluated for every input (most of the time per run).
    for (ctx, name) in env
        .definitions()
        .into_iter()
        .filter(|(_, n)| text.contains(n.as_str()))
        .take(32)
    {
        let ctx = if ctx.is_empty() { "." } else { ctx.as_str() };
        if env.variable_in(ctx, &name).is_some() {
            if let Ok(id) = env.compile_expr_in(ctx, &name) {
                ids.push(id);
            }
        }
        if let Some(f) = env.function_in(ctx, &name) {
            funcs.push(f);
            if let Ok(id) = env.compile_expr_in(ctx, &format!("{name}(.5, -2, 3)")) {
                ids.push(id);
            }
        }
    }
    for id in ["1 + 2*3^2", "if(-1, 1, 2) + select(2, 4, 5, 6)"] {
        if let Ok(id) = env.compile_expr(id) {
            ids.push(id);
        }
    }
    let _ = env.link();

    let mut st = EvalState::new();
    st.set_step_limit(Some(STEP_LIMIT));
    let mut ray = SimpleRay::with_args(&[3.0, 0.5, -1.0, 2.0]);
    ray.set_dir([0.3, -0.4, 0.866]).set(RayVar::Px, 1.5);
    for &id in &ids {
        let _ = env.eval_expr(id, &mut st, &NoRay);
        let _ = env.eval_expr(id, &mut st, &ray);
    }
    if ids.len() > 1 {
        let mut out = vec![0.0; ids.len()];
        env.eval_exprs(&ids, &mut out, &mut st, &ray);
    }
    for &f in &funcs {
        let _ = env.check_func(f);
        let _ = env.call(f, &[0.5, -2.0, 3.0], &mut st, &ray);
        let _ = env.call(f, &[], &mut st, &NoRay);
    }
});
