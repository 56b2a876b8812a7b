//! daylit-cal: RADIANCE's `.cal` function-file language.
//!
//! * [`CalEnv`] holds definitions (the built-in library is loaded at
//!   creation), compiles them into a compact node array with every name
//!   resolved to an index, folds constants and evaluates per ray through a
//!   caller-supplied [`RayContext`].
//! * [`EvalState`] is the per-thread scratch space; evaluation does not
//!   allocate once the state has warmed up.
//! * Files are found with RADIANCE's RAYPATH rules ([`RayPath`]); the
//!   embedded library (`rayinit.cal`, `skybright.cal`, `perezlum.cal`, and
//!   the sky and hemisphere bins `tregenza.cal`, `reinhart.cal`,
//!   `reinhartb.cal`, `disk2square.cal`, `klems_full.cal`, `klems_half.cal`,
//!   `klems_quarter.cal`, `cieskyscan.cal`) answers when a file is not on
//!   disk.
//!
//! Semantics follow RADIANCE's calcomp: `:` marks constant definitions,
//! later definitions replace earlier ones, names are looked up at link time
//! (so a definition may follow its use), each function file gets its own
//! context (its names shadow global ones; lookups fall back to the global
//! context), function arguments are evaluated lazily at most once, and a
//! variable is evaluated at most once per evaluation ("per ray").
//!
//! Arithmetic is RADIANCE's to the last bit (domain errors aside, see
//! below): text is read with calcomp's constant reduction, as rtrace,
//! rcontrib and rcalc read it. A constant (`:`) variable, or a constant
//! function of numbers, defined before a statement is read is replaced by its
//! value there; `e/c` by a number is `e*(1/c)`, `e-c` is `e+(-c)`; sums start
//! from +0; products and powers with a constant 0 or 1 operand are
//! simplified; and within a definition nested sums and products are flattened
//! (`a+(b+c)` is `(a+b)+c`) with their numbers combined. Stand-alone
//! expressions (modifier arguments, `-b`) are reduced but not flattened, as in
//! RADIANCE. `x^y` always uses the C library's `pow`.
//!
//! A record environment ([`CalEnv::for_records`]) is calcomp as rcalc sets
//! it up instead: `$N` is input column N, statements may define output
//! columns (`$1 = $2*$3;`), and `in(n)`, `recno`, `outno` and `PI` are
//! defined; there are no ray variables and no `rayinit.cal`.
//!
//! Domain errors behave as in RADIANCE, without the warnings: division by
//! zero gives 0, `^` giving NaN/infinity gives 0, and a library function whose
//! result is not finite (`sqrt(-1)`, `log(0)`, ...) gives 0. Fatal RADIANCE
//! errors (undefined names met at run time, missing `arg(n)`, runaway
//! recursion) make the evaluation return 0 and leave an [`EvalError`] in the
//! [`EvalState`]; undefined names are also reported before evaluation by the
//! `check_*`/`resolve_*`/[`CalEnv::link`] methods.

mod builtins;
mod error;
mod library;
mod parse;
mod program;
mod raypath;
mod reduce;

pub use builtins::{erf, erfc, fnoise3, noise3, rand, Builtin};
pub use error::{CalError, EvalError};
pub use library::{embedded_file, EMBEDDED_FILES};
pub use program::{CalEnv, EvalState, ExprId, FuncId, VarId};
pub use raypath::RayPath;

/// Per-ray quantities RADIANCE makes available to function files.
///
/// The first 27 are RADIANCE's channels `$1`..`$27` in order; the rest are
/// set by specific materials (`*func`/`*data` types and prisms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RayVar {
    /// Ray direction x (`$1`).
    Dx,
    /// Ray direction y (`$2`).
    Dy,
    /// Ray direction z (`$3`).
    Dz,
    /// Surface normal x (`$4`).
    Nx,
    /// Surface normal y (`$5`).
    Ny,
    /// Surface normal z (`$6`).
    Nz,
    /// Intersection point x (`$7`).
    Px,
    /// Intersection point y (`$8`).
    Py,
    /// Intersection point z (`$9`).
    Pz,
    /// Distance from the ray start (`$10`).
    T,
    /// Ray dot product, cosine between ray and normal, in [-1,1] (`$11`).
    Rdot,
    /// World scale (`$12`).
    S,
    /// World origin x (`$13`).
    Tx,
    /// World origin y (`$14`).
    Ty,
    /// World origin z (`$15`).
    Tz,
    /// World i unit vector x (`$16`).
    Ix,
    /// World i unit vector y (`$17`).
    Iy,
    /// World i unit vector z (`$18`).
    Iz,
    /// World j unit vector x (`$19`).
    Jx,
    /// World j unit vector y (`$20`).
    Jy,
    /// World j unit vector z (`$21`).
    Jz,
    /// World k unit vector x (`$22`).
    Kx,
    /// World k unit vector y (`$23`).
    Ky,
    /// World k unit vector z (`$24`).
    Kz,
    /// Single-ray (shadow) distance (`$25`).
    Ts,
    /// Mesh local u coordinate (`$26`).
    Lu,
    /// Mesh local v coordinate (`$27`).
    Lv,
    /// Perturbed normal x (`*func`/`*data` materials).
    NxP,
    /// Perturbed normal y.
    NyP,
    /// Perturbed normal z.
    NzP,
    /// Perturbed ray dot product.
    RdotP,
    /// Perturbed material colour, red.
    CrP,
    /// Perturbed material colour, green.
    CgP,
    /// Perturbed material colour, blue.
    CbP,
    /// Direction to the target light source x (prism types).
    DxA,
    /// Direction to the target light source y.
    DyA,
    /// Direction to the target light source z.
    DzA,
}

impl RayVar {
    /// Number of ray variables.
    pub const COUNT: usize = 37;

    /// All ray variables in declaration (channel) order.
    pub const ALL: [RayVar; RayVar::COUNT] = {
        use RayVar::*;
        [
            Dx, Dy, Dz, Nx, Ny, Nz, Px, Py, Pz, T, Rdot, S, Tx, Ty, Tz, Ix, Iy, Iz, Jx, Jy, Jz, Kx,
            Ky, Kz, Ts, Lu, Lv, NxP, NyP, NzP, RdotP, CrP, CgP, CbP, DxA, DyA, DzA,
        ]
    };

    /// The name used in `.cal` files.
    pub fn name(self) -> &'static str {
        const NAMES: [&str; RayVar::COUNT] = [
            "Dx", "Dy", "Dz", "Nx", "Ny", "Nz", "Px", "Py", "Pz", "T", "Rdot", "S", "Tx", "Ty",
            "Tz", "Ix", "Iy", "Iz", "Jx", "Jy", "Jz", "Kx", "Ky", "Kz", "Ts", "Lu", "Lv", "NxP",
            "NyP", "NzP", "RdotP", "CrP", "CgP", "CbP", "DxA", "DyA", "DzA",
        ];
        NAMES[self as usize]
    }

    /// Index in [`RayVar::ALL`] (0-based; channel `$n` is index `n-1`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The variable read by channel `$n` (1..=27).
    pub fn from_channel(n: u32) -> Option<RayVar> {
        if (1..=27).contains(&n) {
            Some(RayVar::ALL[n as usize - 1])
        } else {
            None
        }
    }

    /// Look up by `.cal` name.
    pub fn from_name(name: &str) -> Option<RayVar> {
        RayVar::ALL.iter().copied().find(|v| v.name() == name)
    }
}

/// Per-record quantities of a record environment ([`CalEnv::for_records`],
/// rcalc's): input columns and record counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordVar {
    /// Input column `$n` (from 1); 0 past the record's last column.
    Column(u32),
    /// Number of columns in the current record (`in(0)`).
    ColumnCount,
    /// Records read so far, this one included (`recno`).
    RecNo,
    /// Records written so far, this one included (`outno`).
    OutNo,
}

/// What the renderer supplies per evaluation: ray quantities and the current
/// modifier's real arguments.
pub trait RayContext {
    /// Value of a ray variable (already in the function's coordinate frame).
    fn ray_var(&self, v: RayVar) -> f64;
    /// The modifier's real arguments; `arg(n)` is `args()[n-1]`.
    fn args(&self) -> &[f64];
    /// A record quantity; only record environments ask for one.
    fn record_var(&self, _v: RecordVar) -> f64 {
        0.0
    }
    /// The value of a name the program defined with [`CalEnv::define_external`], for these
    /// arguments (none when the name is used as a variable).
    fn external(&self, _id: u32, _args: &[f64]) -> f64 {
        0.0
    }
}

/// A plain [`RayContext`]: a table of ray variables plus real arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct SimpleRay {
    /// Values indexed by [`RayVar::index`].
    pub vars: [f64; RayVar::COUNT],
    /// Real arguments of the modifier.
    pub args: Vec<f64>,
}

impl Default for SimpleRay {
    fn default() -> Self {
        let mut vars = [0.0; RayVar::COUNT];
        // Identity transform: unit scale and axes, as for an untransformed object.
        vars[RayVar::S.index()] = 1.0;
        vars[RayVar::Ix.index()] = 1.0;
        vars[RayVar::Jy.index()] = 1.0;
        vars[RayVar::Kz.index()] = 1.0;
        SimpleRay {
            vars,
            args: Vec::new(),
        }
    }
}

impl SimpleRay {
    /// A context with the given real arguments and default ray values.
    pub fn with_args(args: &[f64]) -> Self {
        SimpleRay {
            args: args.to_vec(),
            ..Default::default()
        }
    }

    /// Set one variable (builder style).
    pub fn set(&mut self, v: RayVar, value: f64) -> &mut Self {
        self.vars[v.index()] = value;
        self
    }

    /// Set the direction `Dx Dy Dz`.
    pub fn set_dir(&mut self, d: [f64; 3]) -> &mut Self {
        self.vars[0..3].copy_from_slice(&d);
        self
    }
}

impl RayContext for SimpleRay {
    fn ray_var(&self, v: RayVar) -> f64 {
        self.vars[v.index()]
    }
    fn args(&self) -> &[f64] {
        &self.args
    }
}

/// A context with no ray (all variables 0) and no arguments, for constant
/// expressions.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRay;

impl RayContext for NoRay {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
}
