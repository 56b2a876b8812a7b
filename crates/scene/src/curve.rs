//! Curves and surfaces given as calcomp expressions of `t` (or `s` and `t`), as RADIANCE's
//! `genrev`, `genworm` and `gensurf` read them: each coordinate an expression, `-e`
//! expressions and `-f` files for auxiliary definitions, and the spline functions `hermite`,
//! `bezier` and `bspline` those programs provide.

use crate::error::{Loc, Result, SceneError};
use daylit_cal::{CalEnv, EvalState, FuncId, NoRay, RayPath};

/// The built-in definitions: `PI` and the four-point cubic curves (standard basis
/// polynomials), each `f(p0, p1, p2, p3, t)`.
const BUILTINS: &str = "PI : 3.14159265358979323846;
hermite(p0, p1, r0, r1, t) : p0*((2*t-3)*t*t+1) + p1*(-2*t+3)*t*t + r0*((t-2)*t+1)*t + r1*(t-1)*t*t;
bezier(p0, p1, p2, p3, t) : p0*(1-t)*(1-t)*(1-t) + 3*p1*t*(1-t)*(1-t) + 3*p2*t*t*(1-t) + p3*t*t*t;
bspline(p0, p1, p2, p3, t) : (p0*(1-t)*(1-t)*(1-t) + p1*(3*t*t*t-6*t*t+4) + p2*(-3*t*t*t+3*t*t+3*t+1) + p3*t*t*t)/6;";

/// A set of functions of `t` (or of `s, t`) defined by expressions, evaluated as calcomp does.
pub struct Curve {
    env: CalEnv,
    funcs: Vec<FuncId>,
    state: EvalState,
    prog: &'static str,
    loc: Loc,
}

impl Curve {
    /// Compiles `exprs` (one per coordinate, functions of `params`: `"t"` or `"s, t"`)
    /// after the `-e`/`-f` options in `options`; anything else there is an error naming
    /// `usage`.
    pub fn new(
        prog: &'static str,
        params: &str,
        exprs: &[&str],
        options: &[String],
        raypath: &RayPath,
        loc: &Loc,
        usage: &str,
    ) -> Result<Curve> {
        let err = |m: String| SceneError::at(loc, format!("{prog}: {m}"));
        let mut env = CalEnv::plain();
        env.load_str("<builtin>", BUILTINS)
            .map_err(|e| err(e.to_string()))?;
        let mut i = 0;
        while i < options.len() {
            let o = options[i].as_str();
            if o != "-e" && o != "-f" {
                return Err(err(format!("unknown option \"{o}\"; {usage}")));
            }
            let value = options
                .get(i + 1)
                .ok_or_else(|| err(format!("option {o} needs a value; {usage}")))?;
            match o {
                "-e" => env.load_str("-e", value),
                _ => env.load_file_global(value, raypath),
            }
            .map_err(|e| err(e.to_string()))?;
            i += 2;
        }
        let mut funcs = Vec::new();
        for (k, e) in exprs.iter().enumerate() {
            let name = format!("daylit_curve{k}");
            env.load_str("<arguments>", &format!("{name}({params}) = {e};"))
                .map_err(|x| err(format!("\"{e}\": {x}")))?;
            funcs.push(env.function(&name).expect("just defined"));
        }
        env.link().map_err(|e| err(e.to_string()))?;
        Ok(Curve {
            state: EvalState::for_env(&env),
            env,
            funcs,
            prog,
            loc: loc.clone(),
        })
    }

    /// The value of every coordinate at `t`.
    pub fn at(&mut self, t: f64) -> Result<Vec<f64>> {
        self.eval(&[t])
    }

    /// The value of every coordinate (and of `valid`, when added) at `(s, t)`.
    pub fn at2(&mut self, s: f64, t: f64) -> Result<Vec<f64>> {
        self.eval(&[s, t])
    }

    fn eval(&mut self, args: &[f64]) -> Result<Vec<f64>> {
        let mut v = Vec::with_capacity(self.funcs.len());
        for &f in &self.funcs {
            let x = self.env.call(f, args, &mut self.state, &NoRay);
            if let Some(e) = self.state.take_error() {
                return Err(SceneError::at(
                    &self.loc,
                    format!("{}: at {args:?}: {e}", self.prog),
                ));
            }
            v.push(x);
        }
        Ok(v)
    }

    /// Evaluates the user's function `name` too (after the coordinates) when it is defined
    /// with `arity` arguments, as gensurf's `valid(s,t)`; says whether it was.
    pub fn add_if_defined(&mut self, name: &str, arity: usize) -> bool {
        match self.env.function(name) {
            Some(f) if self.env.func_arity(f) == arity => {
                self.funcs.push(f);
                true
            }
            _ => false,
        }
    }

    /// A whole number of segments from an expression (`nseg`), rounded as the programs do.
    pub fn segments(&mut self, expr: &str) -> Result<usize> {
        let err = |m: String| SceneError::at(&self.loc, format!("{}: {m}", self.prog));
        let id = self
            .env
            .compile_expr(expr)
            .map_err(|e| err(format!("number of segments \"{expr}\": {e}")))?;
        let n = self.env.eval_expr(id, &mut self.state, &NoRay) + 0.5;
        if let Some(e) = self.state.take_error() {
            return Err(err(format!("number of segments \"{expr}\": {e}")));
        }
        if !(1.0..1e6).contains(&n) {
            return Err(err(format!(
                "the number of segments \"{expr}\" must be from 1 to a million"
            )));
        }
        Ok(n as usize)
    }
}
