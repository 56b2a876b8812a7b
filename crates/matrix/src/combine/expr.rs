//! rcomb's combination of its inputs' rows element by element: their sum, or the value of
//! `co` / `co(p)` (or `ro`, `go`, `bo`) from calcomp definitions (`-e`, `-f`) that see
//! `ci(i[,p])`, `ri(i)`, `gi(i)`, `bi(i)`, `r`, `c`, `nfiles`, `nrows`, `ncols`, `ncomp`, `R`,
//! `G`, `B`, `wl(p)` and `PI`, as RADIANCE's rcomb defines them.

use crate::{combine, Matrix};
use daylit_cal::{CalEnv, CalError, EvalState, FuncId, RayContext, RayPath, RayVar, VarId};

/// RADIANCE's default wavelength partition (nm), longest first (`wl(p)`; an input's
/// `WLSPLIT=` is not read).
const WLPART: [f64; 4] = [780.0, 588.0, 480.0, 380.0];

/// The names rcomb gives the definitions, in the order they are registered.
const EXTERNALS: [&str; 4] = ["ci", "wl", "r", "c"];

/// One source of definitions, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Definition {
    /// `-e EXPR`: definitions on the command line.
    Expression(String),
    /// `-f FILE`: a file of definitions, found on the RAYPATH.
    File(String),
}

/// What the definitions ask for: `co(p)`, `co`, or nothing (the sum).
enum How {
    Sum,
    Function(FuncId),
    Variable(VarId),
}

/// The definitions of one rcomb run, ready to combine rows of its inputs.
pub struct Combiner {
    env: CalEnv,
    how: How,
    st: EvalState,
    ncols: usize,
    ncomp: usize,
}

impl Combiner {
    /// The combiner of `nfiles` inputs of `ncols` elements of `ncomp` components per row
    /// (`nrows` rows where the headers say; 0 is given otherwise), with `definitions` loaded
    /// in order. Errors name the definition that does not load (`cannot find file 'F'` for
    /// a file not on `raypath`).
    pub fn new(
        nfiles: usize,
        nrows: Option<usize>,
        ncols: usize,
        ncomp: usize,
        definitions: &[Definition],
        raypath: &RayPath,
    ) -> Result<Combiner, String> {
        let mut env = CalEnv::plain();
        for name in EXTERNALS {
            env.define_external(name);
        }
        let constants = format!(
            "PI : 3.14159265358979323846; nfiles : {nfiles}; nrows : {}; ncols : {ncols}; \
             ncomp : {ncomp}; R : 1; G : 2; B : 3; \
             ri(i) = ci(i,R); gi(i) = ci(i,G); bi(i) = ci(i,B);",
            nrows.unwrap_or(0)
        );
        env.load_str("<rcomb>", &constants)
            .map_err(|e| e.to_string())?;
        for d in definitions {
            match d {
                Definition::Expression(text) => env
                    .load_str("command line -e", text)
                    .map_err(|e| e.to_string())?,
                Definition::File(name) => {
                    env.load_file_global(name, raypath).map_err(|e| match e {
                        CalError::NotFound { .. } => format!("cannot find file '{name}'"),
                        e => e.to_string(),
                    })?
                }
            }
        }
        let how = how(&mut env, ncomp)?;
        let st = EvalState::for_env(&env);
        Ok(Combiner {
            env,
            how,
            st,
            ncols,
            ncomp,
        })
    }

    /// Whether the inputs are simply summed (no `co`, `ro`/`go`/`bo` defined).
    pub fn is_sum(&self) -> bool {
        matches!(self.how, How::Sum)
    }

    /// Row `row` of the result from the inputs' changed rows (each `ncols × ncomp` values):
    /// summed (from the last input to the first, in `f32`), or through the definitions.
    pub fn combine_row(&mut self, rows: &[Vec<f32>], row: usize) -> Result<Matrix, String> {
        let (ncols, ncomp) = (self.ncols, self.ncomp);
        let fail = |e: crate::MatrixError| e.to_string();
        if self.is_sum() {
            let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
            let mut data = vec![0.0f32; ncols * ncomp];
            combine::sum_rows(&refs, &mut data).map_err(fail)?;
            return Matrix::new(1, ncols, ncomp, data).map_err(fail);
        }
        let mut data = Vec::with_capacity(ncols * ncomp);
        for col in 0..ncols {
            for chan in 0..ncomp {
                let el = Element {
                    rows,
                    ncomp,
                    row,
                    col,
                    chan,
                };
                let v = match self.how {
                    How::Function(f) => self.env.call(f, &[(chan + 1) as f64], &mut self.st, &el),
                    How::Variable(v) => self.env.eval_var(v, &mut self.st, &el),
                    How::Sum => 0.0,
                };
                if let Some(e) = self.st.take_error() {
                    return Err(e.to_string());
                }
                data.push(v as f32);
            }
        }
        Matrix::new(1, ncols, ncomp, data).map_err(fail)
    }
}

/// What the definitions ask for; `ro`, `go`, `bo` (all three, three components) become
/// `co(p)` as in RADIANCE.
fn how(env: &mut CalEnv, ncomp: usize) -> Result<How, String> {
    if let Some(f @ FuncId::User(_)) = env.function("co") {
        return Ok(How::Function(f));
    }
    if let Some(v) = env.variable("co") {
        return Ok(How::Variable(v));
    }
    if ncomp == 3 && ["ro", "go", "bo"].iter().all(|n| env.variable(n).is_some()) {
        env.load_str("<rcomb>", "co(p) = select(p, ro, go, bo);")
            .map_err(|e| e.to_string())?;
        if let Some(f @ FuncId::User(_)) = env.function("co") {
            return Ok(How::Function(f));
        }
    }
    Ok(How::Sum)
}

/// The element being computed and the changed rows of the inputs.
struct Element<'a> {
    rows: &'a [Vec<f32>],
    ncomp: usize,
    row: usize,
    col: usize,
    chan: usize,
}

impl RayContext for Element<'_> {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
    fn external(&self, id: u32, args: &[f64]) -> f64 {
        match EXTERNALS[id as usize] {
            "r" => self.row as f64,
            "c" => self.col as f64,
            "ci" => {
                let inp = args.first().copied().unwrap_or(0.0);
                // C's conversion truncates toward zero.
                let mi = (inp - 0.5) as i64;
                if mi < 0 || mi >= self.rows.len() as i64 {
                    return 0.0;
                }
                if inp < 0.5 {
                    return self.rows.len() as f64;
                }
                let chan = match args.get(1) {
                    Some(&cv) => {
                        let ch = (cv - 0.5) as i64;
                        if cv < 0.5 || ch >= self.ncomp as i64 {
                            return 0.0;
                        }
                        ch as usize
                    }
                    None => self.chan,
                };
                f64::from(self.rows[mi as usize][self.col * self.ncomp + chan])
            }
            _ => {
                // wl(p): the central wavelength of channel p, or the count for 0.
                let comp = args.first().copied().unwrap_or(0.0);
                let n = self.ncomp as f64;
                if comp < -0.5 || comp >= n + 0.5 {
                    return 0.0;
                }
                if comp < 0.5 {
                    return n;
                }
                if self.ncomp == 3 {
                    let w0 = (comp - 0.5) as usize;
                    return WLPART[w0] + (comp - 0.5) * (WLPART[w0 + 1] - WLPART[w0]);
                }
                WLPART[0] + (comp - 0.5) / n * (WLPART[3] - WLPART[0])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combiner(defs: &[&str], nfiles: usize) -> Combiner {
        let defs: Vec<Definition> = defs
            .iter()
            .map(|d| Definition::Expression(d.to_string()))
            .collect();
        Combiner::new(
            nfiles,
            Some(1),
            2,
            3,
            &defs,
            &RayPath::new(Vec::<std::path::PathBuf>::new()),
        )
        .unwrap()
    }

    const ROWS: [[f32; 6]; 2] = [
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        [10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
    ];

    fn close(got: &[f32], want: &[f32]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-5, "{got:?} != {want:?}");
        }
    }

    #[test]
    fn expressions_see_inputs_rows_and_columns() {
        let rows: Vec<Vec<f32>> = ROWS.iter().map(|r| r.to_vec()).collect();
        // co(p): the second input less the first, plus the column and the channel.
        let mut c = combiner(&["co(p) = ci(2,p) - ci(1,p) + c + p/10;"], 2);
        assert!(!c.is_sum());
        let m = c.combine_row(&rows, 0).unwrap();
        close(m.data(), &[9.1, 18.2, 27.3, 37.1, 46.2, 55.3]);
        // ro, go, bo: each channel its own expression; wl(0) is the number of components.
        let mut c = combiner(&["ro = ri(1) * nfiles; go = gi(2); bo = wl(0) + r;"], 2);
        let m = c.combine_row(&rows, 4).unwrap();
        assert_eq!(m.data(), &[2.0, 20.0, 7.0, 8.0, 50.0, 7.0]);
    }

    #[test]
    fn no_output_definition_sums() {
        let rows: Vec<Vec<f32>> = ROWS.iter().map(|r| r.to_vec()).collect();
        let mut c = combiner(&["k = 2;"], 2);
        assert!(c.is_sum());
        assert_eq!(
            c.combine_row(&rows, 0).unwrap().data(),
            &[11.0, 22.0, 33.0, 44.0, 55.0, 66.0]
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = Combiner::new(
            1,
            None,
            1,
            1,
            &[Definition::File("nowhere.cal".into())],
            &RayPath::new(Vec::<std::path::PathBuf>::new()),
        )
        .err()
        .unwrap();
        assert_eq!(e, "cannot find file 'nowhere.cal'");
    }
}
