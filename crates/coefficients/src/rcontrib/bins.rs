//! rcontrib's bin expressions: `-b` and `-bn` compiled through `daylit-cal` in a context
//! holding the `-f` files and `-e` definitions, with the `-p` parameters in force when the
//! modifier was named, and evaluated per ray with the ray variables of the hit (`Dx`…, `Px`…,
//! `Nx`…, `T`, `Rdot`).

use super::{invalid, CalInput, ContribError};
use daylit_cal::{CalEnv, EvalState, ExprId, RayPath, RayVar, SimpleRay};
use daylit_transport::contrib::{BinFn, BinRay};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

thread_local! {
    /// Evaluation scratch space per thread, one per bin-expression environment.
    static EVAL: RefCell<Vec<(usize, EvalState)>> = const { RefCell::new(Vec::new()) };
}

/// The ray variables of a bin expression, in world coordinates.
fn bin_ray(r: &BinRay) -> SimpleRay {
    let mut s = SimpleRay::default();
    let mut set = |v: RayVar, x: f64| s.vars[v.index()] = x;
    for (k, (d, p, n)) in [
        (RayVar::Dx, RayVar::Px, RayVar::Nx),
        (RayVar::Dy, RayVar::Py, RayVar::Ny),
        (RayVar::Dz, RayVar::Pz, RayVar::Nz),
    ]
    .into_iter()
    .enumerate()
    {
        set(d, r.dir[k]);
        set(p, r.point[k]);
        set(n, r.normal[k]);
    }
    set(RayVar::T, r.dist);
    set(RayVar::Rdot, -r.dir.dot(r.normal));
    s
}

/// Evaluates `e` in `env` on this thread.
fn eval_in(env: &Arc<CalEnv>, e: ExprId, ray: &SimpleRay) -> f64 {
    let key = Arc::as_ptr(env) as usize;
    EVAL.with(|states| {
        let mut states = states.borrow_mut();
        let k = match states.iter().position(|(k, _)| *k == key) {
            Some(k) => k,
            None => {
                states.push((key, EvalState::for_env(env)));
                states.len() - 1
            }
        };
        env.eval_expr(e, &mut states[k].1, ray)
    })
}

/// A `CalError` with what was being read.
fn cal_err(what: impl Into<String>) -> impl FnOnce(daylit_cal::CalError) -> ContribError {
    let what = what.into();
    move |source| ContribError::Cal { what, source }
}

/// Function files and definitions shared by every modifier, and one environment per set of
/// `-p` parameters.
pub(crate) struct CalSet<'a> {
    inputs: &'a [CalInput],
    raypath: &'a RayPath,
    envs: HashMap<String, Arc<CalEnv>>,
}

impl<'a> CalSet<'a> {
    /// The context of `inputs`, function files found along `raypath`.
    pub(crate) fn new(inputs: &'a [CalInput], raypath: &'a RayPath) -> CalSet<'a> {
        CalSet {
            inputs,
            raypath,
            envs: HashMap::new(),
        }
    }

    /// The environment of parameters `params`, built on first use. As in rcontrib, `-f`
    /// files are read into the global context, so their names are visible to `-b`.
    fn env(&self, params: &str) -> Result<CalEnv, ContribError> {
        let mut env = CalEnv::with_raypath(self.raypath)?;
        for c in self.inputs {
            match c {
                CalInput::File(name) => {
                    let text = match self.raypath.find(name) {
                        Some(p) => std::fs::read_to_string(&p)
                            .map_err(super::io_err(format!("cannot read {}", p.display())))?,
                        None => daylit_cal::embedded_file(name)
                            .ok_or_else(|| {
                                ContribError::Invalid(format!(
                                    "cannot find function file {name} (searched RAYPATH and daylit's library)"
                                ))
                            })?
                            .to_string(),
                    };
                    env.load_str(name, &text)?;
                }
                CalInput::Expr(text) => env.load_str("-e expression", text)?,
            }
        }
        // rcontrib's -p takes `name=value` pairs separated by commas.
        if !params.is_empty() {
            env.load_str("-p parameters", &params.replace(',', ";"))?;
        }
        Ok(env)
    }

    /// The bin count and bin function of an expression-binned modifier; rays whose bin is
    /// beyond the count are counted in `bad_bins`.
    pub(crate) fn bins(
        &mut self,
        name: &str,
        expr: Option<&str>,
        count: Option<&str>,
        params: Option<&str>,
        bad_bins: &Arc<AtomicUsize>,
    ) -> Result<(usize, Option<BinFn>), ContribError> {
        let Some(expr) = expr.filter(|e| e.trim().parse::<f64>().is_err()) else {
            // A constant bin must be 0: everything in one bin.
            if let Some(v) = expr.and_then(|e| e.trim().parse::<f64>().ok()) {
                if (v + 1.5) as i64 != 1 {
                    invalid!("illegal non-zero constant for bin ({v})");
                }
            }
            return Ok((1, None));
        };
        let Some(count) = count else {
            invalid!("unspecified or illegal bin count for modifier '{name}' (give -bn)");
        };
        let key = params.unwrap_or("").to_string();
        let env = match self.envs.get(&key) {
            Some(e) => e.clone(),
            None => {
                let e = Arc::new(self.env(&key)?);
                self.envs.insert(key.clone(), e.clone());
                e
            }
        };
        // Compiling needs a mutable environment: extend a copy of the shared one.
        let mut own = (*env).clone();
        let e = own
            .compile_expr(expr)
            .map_err(cal_err(format!("bad bin expression for modifier '{name}'")))?;
        let ce = own
            .compile_expr(count)
            .map_err(cal_err(format!("bad bin count for modifier '{name}'")))?;
        let mut st = EvalState::for_env(&own);
        let n = (own.eval_expr(ce, &mut st, &SimpleRay::default()) + 0.5).floor();
        if let Some(source) = st.take_error() {
            return Err(ContribError::Eval {
                what: format!("bin count for modifier '{name}'"),
                source,
            });
        }
        if n.is_nan() || n < 1.0 {
            invalid!("illegal bin count {n} for modifier '{name}'");
        }
        let n = n as usize;
        let own = Arc::new(own);
        let bad = bad_bins.clone();
        let f: BinFn = Arc::new(move |r: &BinRay| {
            let v = eval_in(&own, e, &bin_ray(r));
            // Negative bins are ignored silently, too large ones with a warning.
            if v.is_nan() || v <= -0.5 {
                return None;
            }
            let b = (v + 0.5) as usize;
            if b >= n {
                bad.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            Some(b)
        });
        Ok((n, Some(f)))
    }
}
