//! Definition store, linker/compiler and evaluator.

use std::collections::{HashMap, HashSet};

use crate::builtins::{lib_result, Builtin};
use crate::error::{CalError, EvalError};
use crate::library::embedded_file;
use crate::parse::{ChainOp, Definition, Expr, Parser, Pos};
use crate::raypath::RayPath;
use crate::reduce::{optimize, reduce, Constants};
use crate::{NoRay, RayContext, RayVar, RecordVar};

/// Nesting limit of evaluation (node levels, calls included). Deep enough for
/// any sensible recursion (factorial(500)), shallow enough for 2 MiB stacks.
const MAX_EVAL_DEPTH: u32 = 2000;
/// Arguments beyond this many are re-evaluated on each use (not cached).
const CACHED_ARGS: u32 = 64;
/// Work allowed for folding one constant subexpression at link time.
const FOLD_STEPS: u64 = 200_000;
const NO_FRAME: u32 = u32::MAX;
const UNDEF: u32 = u32::MAX;

/// A variable definition (by slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VarId(u32);

/// A user-defined or library function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FuncId {
    /// A function defined in `.cal` text.
    User(u32),
    /// A native library function.
    Builtin(Builtin),
}

/// A compiled stand-alone expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExprId(u32);

#[derive(Debug, Clone, Copy)]
enum Node {
    Num(f64),
    Ray(RayVar),
    Record(RecordVar),
    /// `arg(n)` with a constant n.
    ArgConst(i64),
    Param(u32),
    Var(u32),
    Neg(u32),
    /// first node, start and length in `chain`.
    Chain(u32, u32, u32),
    /// `x^y` by the C library's `pow`, as RADIANCE (no `powi`: repeated
    /// multiplication differs from `pow` in the last bit).
    Pow(u32, u32),
    /// One-argument pure math library function.
    Lib1(Builtin, u32),
    If(u32, u32, u32),
    /// Library call: function, start and length in `lists`.
    Lib(Builtin, u32, u32),
    /// User call: slot, start and length in `lists`.
    Call(u32, u32, u32),
    /// Call through a parameter that names a function.
    CallParam(u32, u32, u32),
    /// A user function named as a value (only useful as an argument).
    FuncRef(u32),
    /// A library function named as a value.
    LibRef(Builtin),
    /// A function or variable the program supplies (`CalEnv::define_external`): id, start
    /// and length of its arguments in `lists`.
    External(u32, u32, u32),
    /// Link error (index in `errors`).
    Error(u32),
}

#[derive(Debug, Clone)]
struct Def {
    params: Option<Vec<String>>,
    constant: bool,
    body: Expr,
    source: u32,
}

#[derive(Debug, Clone)]
struct Slot {
    scope: u32,
    name: String,
    def: Option<Def>,
}

#[derive(Debug, Clone)]
struct ExprSlot {
    scope: u32,
    body: Expr,
    source: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purity {
    Unknown,
    Busy,
    Pure,
    Impure,
}

#[derive(Debug, Clone, Default)]
struct Program {
    nodes: Vec<Node>,
    lists: Vec<u32>,
    chain: Vec<(ChainOp, u32)>,
    /// Root node per slot (`UNDEF` when the slot has no definition).
    def_root: Vec<u32>,
    errors: Vec<CalError>,
    purity: Vec<Purity>,
    /// Definition count (`CalEnv::clock`) when each slot was compiled.
    compiled_at: Vec<u64>,
}

enum Resolved {
    Slot(u32),
    Lib(Builtin),
    External(u32),
    Undefined,
}

/// Definitions, compiled code and the embedded library.
///
/// Build it (load files, compile expressions) with `&mut self`, then share
/// `&CalEnv` between threads; each thread evaluates with its own
/// [`EvalState`].
#[derive(Debug, Clone)]
pub struct CalEnv {
    scopes: Vec<String>,
    scope_index: HashMap<String, u32>,
    loaded: Vec<bool>,
    sources: Vec<String>,
    slots: Vec<Slot>,
    slot_index: HashMap<(u32, String), u32>,
    exprs: Vec<ExprSlot>,
    expr_root: Vec<u32>,
    prog: Program,
    /// Number of definitions read so far.
    clock: u64,
    /// `clock` after the last definition of each name.
    defined_at: HashMap<String, u64>,
    /// `clock` at the last full link.
    linked_at: u64,
    /// A record environment (rcalc's): `$N` is an input column.
    records: bool,
    /// Names answered by the program through [`RayContext::external`], by id.
    externals: HashMap<String, u32>,
}

impl Default for CalEnv {
    fn default() -> Self {
        Self::new()
    }
}

/// Strip `.cal` (any case) to get RADIANCE's context name of a file.
fn context_name(file: &str) -> &str {
    if file == "." {
        return "";
    }
    let n = file.len();
    if n > 4 && file.is_char_boundary(n - 4) && file[n - 4..].eq_ignore_ascii_case(".cal") {
        &file[..n - 4]
    } else {
        file
    }
}

impl CalEnv {
    /// An environment with the ray variables, the native library and the
    /// embedded `rayinit.cal` loaded.
    pub fn new() -> Self {
        let mut env = Self::bare(false, true);
        let text = embedded_file("rayinit.cal").unwrap_or("");
        // The embedded library is tested to parse; ignore the impossible error.
        let _ = env.load_scope(0, "rayinit.cal", text);
        env
    }

    /// Like [`CalEnv::new`] but reads `rayinit.cal` from `path` when found
    /// there (as RADIANCE does), falling back to the embedded copy.
    pub fn with_raypath(path: &RayPath) -> Result<Self, CalError> {
        let mut env = Self::bare(false, true);
        match path.find("rayinit.cal") {
            Some(p) => {
                let text = read_text(&p)?;
                env.load_scope(0, &p.display().to_string(), &text)?;
            }
            None => {
                let text = embedded_file("rayinit.cal").unwrap_or("");
                env.load_scope(0, "rayinit.cal", text)?;
            }
        }
        Ok(env)
    }

    /// A record environment, as rcalc's: `$N` reads input column N (see
    /// [`RecordVar`]), statements may define output columns `$N`, and
    /// `in(n)`, `recno`, `outno` and `PI` are defined. No ray variables.
    pub fn for_records() -> Self {
        let mut env = Self::bare(true, false);
        for (name, v) in [("recno", RecordVar::RecNo), ("outno", RecordVar::OutNo)] {
            let d = Definition {
                name: name.to_string(),
                params: None,
                constant: false,
                body: Expr::Record(v),
            };
            env.define(0, d, 0);
        }
        let _ = env.load_scope(0, "<builtin>", "PI : 3.14159265358979323846;");
        env
    }

    /// Makes `name` a function (or, used without arguments, a variable) whose value the
    /// evaluating program gives through [`RayContext::external`] with this id and the call's
    /// arguments, as pcomb's `ri(n, dx, dy)` or `x`. Definitions in the text hide it; it
    /// hides a library function of the same name.
    pub fn define_external(&mut self, name: &str) -> u32 {
        let next = self.externals.len() as u32;
        let id = *self.externals.entry(name.to_string()).or_insert(next);
        self.relink();
        id
    }

    /// Output columns defined so far (`$N = ...`), in column order.
    pub fn output_columns(&self) -> Vec<(u32, VarId)> {
        let mut out: Vec<(u32, VarId)> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.scope == 0 && s.def.is_some())
            .filter_map(|(i, s)| Some((s.name.strip_prefix('$')?.parse().ok()?, VarId(i as u32))))
            .collect();
        out.sort_by_key(|c| c.0);
        out
    }

    /// True when `v` was defined with `:` (a constant).
    pub fn is_constant(&self, v: VarId) -> bool {
        matches!(self.slots.get(v.0 as usize).and_then(|s| s.def.as_ref()), Some(d) if d.constant)
    }

    /// calcomp with only its built-in functions: no ray variables, no `rayinit.cal`, no
    /// records (pcomb's starting point; the program adds its names).
    pub fn plain() -> Self {
        Self::bare(false, false)
    }

    fn bare(records: bool, ray_vars: bool) -> Self {
        let mut env = CalEnv {
            scopes: vec![String::new()],
            scope_index: HashMap::from([(String::new(), 0)]),
            loaded: vec![false],
            sources: vec!["<builtin>".to_string()],
            slots: Vec::new(),
            slot_index: HashMap::new(),
            exprs: Vec::new(),
            expr_root: Vec::new(),
            prog: Program::default(),
            clock: 0,
            defined_at: HashMap::new(),
            linked_at: 0,
            records,
            externals: HashMap::new(),
        };
        for v in RayVar::ALL.into_iter().filter(|_| ray_vars) {
            env.define(
                0,
                Definition {
                    name: v.name().to_string(),
                    params: None,
                    constant: false,
                    body: Expr::Ray(v),
                },
                0,
            );
        }
        env.relink();
        env
    }

    fn scope_of(&mut self, context: &str) -> u32 {
        let key = context_name(context).to_string();
        if let Some(&s) = self.scope_index.get(&key) {
            return s;
        }
        let s = self.scopes.len() as u32;
        self.scopes.push(key.clone());
        self.loaded.push(false);
        self.scope_index.insert(key, s);
        s
    }

    fn find_scope(&self, context: &str) -> Option<u32> {
        self.scope_index.get(context_name(context)).copied()
    }

    /// Load a function file found by RAYPATH rules (or the embedded library)
    /// into its own context, named after the file without `.cal`. Loading the
    /// same name again is a no-op, as in RADIANCE. `"."` means no file.
    pub fn load_file(&mut self, name: &str, path: &RayPath) -> Result<(), CalError> {
        if name == "." {
            return Ok(());
        }
        if let Some(s) = self.find_scope(name) {
            if self.loaded[s as usize] {
                return Ok(());
            }
        }
        let text = Self::file_text(name, path)?;
        let s = self.scope_of(name);
        self.load_scope(s, name, &text)?;
        self.loaded[s as usize] = true;
        Ok(())
    }

    /// Load a function file found as [`CalEnv::load_file`] finds it into the global context,
    /// as rcalc's and pcomb's `-f` do (they have no per-file contexts).
    pub fn load_file_global(&mut self, name: &str, path: &RayPath) -> Result<(), CalError> {
        let text = Self::file_text(name, path)?;
        self.load_scope(0, name, &text)
    }

    /// The text of a function file: on RAYPATH, else in the embedded library.
    fn file_text(name: &str, path: &RayPath) -> Result<String, CalError> {
        match path.find(name) {
            Some(p) => read_text(&p),
            None => match embedded_file(name) {
                Some(t) => Ok(t.to_string()),
                None => Err(CalError::NotFound {
                    name: name.to_string(),
                    searched: if RayPath::is_explicit(name) {
                        Vec::new()
                    } else {
                        path.dirs().to_vec()
                    },
                }),
            },
        }
    }

    /// Compile definitions from text into the global context.
    pub fn load_str(&mut self, source_name: &str, text: &str) -> Result<(), CalError> {
        self.load_scope(0, source_name, text)
    }

    /// Compile definitions from text into the context of function file
    /// `context` (e.g. `"skybright.cal"`; `"."` or `""` is global).
    pub fn load_str_in(
        &mut self,
        context: &str,
        source_name: &str,
        text: &str,
    ) -> Result<(), CalError> {
        let s = self.scope_of(context);
        self.load_scope(s, source_name, text)
    }

    fn load_scope(&mut self, scope: u32, source_name: &str, text: &str) -> Result<(), CalError> {
        let src = self.sources.len() as u32;
        self.sources.push(source_name.to_string());
        // Parse everything first so that a syntax error leaves the env unchanged.
        let mut p = Parser::new(source_name, text)?;
        if self.records {
            p.allow_output_channels();
        }
        let mut defs = Vec::new();
        while !p.at_end() {
            if let Some(d) = p.statement()? {
                defs.push(d);
            }
        }
        // calcomp's constant reduction, statement by statement: what counts
        // as a constant is what is defined when the statement is read.
        for mut d in defs {
            let body = std::mem::replace(&mut d.body, Expr::Num(0.0));
            d.body = reduce(body, &mut ReadTime { env: self, scope });
            optimize(&mut d.body);
            self.define(scope, d, src);
        }
        self.relink();
        Ok(())
    }

    fn define(&mut self, scope: u32, d: Definition, source: u32) {
        let (scope, name) = if d.name.ends_with('`') {
            (0, d.name.trim_end_matches('`').to_string())
        } else {
            (scope, d.name.trim_start_matches('`').to_string())
        };
        self.clock += 1;
        self.defined_at.insert(name.clone(), self.clock);
        let def = Def {
            params: d.params,
            constant: d.constant,
            body: d.body,
            source,
        };
        match self.slot_index.get(&(scope, name.clone())) {
            Some(&i) => self.slots[i as usize].def = Some(def),
            None => {
                self.slot_index
                    .insert((scope, name.clone()), self.slots.len() as u32);
                self.slots.push(Slot {
                    scope,
                    name,
                    def: Some(def),
                });
            }
        }
    }

    fn lookup_slot(&self, scope: u32, name: &str) -> Option<u32> {
        let get = |s: u32, n: &str| {
            self.slot_index
                .get(&(s, n.to_string()))
                .copied()
                .filter(|&i| self.slots[i as usize].def.is_some())
        };
        if name.ends_with('`') {
            return get(0, name.trim_end_matches('`'));
        }
        if let Some(local) = name.strip_prefix('`') {
            return get(scope, local);
        }
        get(scope, name).or_else(|| if scope != 0 { get(0, name) } else { None })
    }

    fn resolve(&self, scope: u32, name: &str) -> Resolved {
        if let Some(s) = self.lookup_slot(scope, name) {
            return Resolved::Slot(s);
        }
        if let Some(&id) = self.externals.get(name.trim_matches('`')) {
            return Resolved::External(id);
        }
        match Builtin::from_name(name.trim_matches('`')) {
            Some(Builtin::In) if !self.records => Resolved::Undefined,
            Some(b) => Resolved::Lib(b),
            None => Resolved::Undefined,
        }
    }

    fn is_func_slot(&self, s: u32) -> bool {
        matches!(&self.slots[s as usize].def, Some(d) if d.params.is_some())
    }

    // ---------------------------------------------------------------- lookup

    /// A variable (not a function) visible in the global context.
    pub fn variable(&self, name: &str) -> Option<VarId> {
        self.variable_in(".", name)
    }

    /// A variable visible from the context of function file `context`.
    pub fn variable_in(&self, context: &str, name: &str) -> Option<VarId> {
        let scope = self.find_scope(context).unwrap_or(0);
        let s = self.lookup_slot(scope, name)?;
        (!self.is_func_slot(s)).then_some(VarId(s))
    }

    /// A function visible in the global context (user definitions hide
    /// library functions of the same name).
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.function_in(".", name)
    }

    /// A function visible from the context of function file `context`.
    pub fn function_in(&self, context: &str, name: &str) -> Option<FuncId> {
        let scope = self.find_scope(context).unwrap_or(0);
        match self.resolve(scope, name) {
            Resolved::Slot(s) if self.is_func_slot(s) => Some(FuncId::User(s)),
            Resolved::Lib(b) => Some(FuncId::Builtin(b)),
            _ => None,
        }
    }

    /// Number of parameters of a function (minimum for library functions).
    pub fn func_arity(&self, f: FuncId) -> usize {
        match f {
            FuncId::User(s) => self
                .slots
                .get(s as usize)
                .and_then(|s| s.def.as_ref())
                .and_then(|d| d.params.as_ref())
                .map_or(0, |p| p.len()),
            FuncId::Builtin(b) => b.min_args(),
        }
    }

    /// Find a variable and check that everything it can reach is defined.
    pub fn resolve_var_in(&self, context: &str, name: &str) -> Result<VarId, CalError> {
        match self.variable_in(context, name) {
            Some(v) => self.check_var(v).map(|_| v),
            None => Err(self.undefined_error(name, "undefined variable")),
        }
    }

    /// Find a function and check that everything it can reach is defined.
    pub fn resolve_func_in(&self, context: &str, name: &str) -> Result<FuncId, CalError> {
        match self.function_in(context, name) {
            Some(f) => self.check_func(f).map(|_| f),
            None => Err(self.undefined_error(name, "undefined function")),
        }
    }

    fn undefined_error(&self, name: &str, msg: &str) -> CalError {
        CalError::Link {
            source_name: "<lookup>".to_string(),
            line: 0,
            column: 0,
            name: name.to_string(),
            message: msg.to_string(),
        }
    }

    /// Compile a stand-alone expression in the global context (RADIANCE
    /// accepts an expression wherever a modifier names a variable). Names it
    /// reaches must all be defined.
    pub fn compile_expr(&mut self, text: &str) -> Result<ExprId, CalError> {
        self.compile_expr_in(".", text)
    }

    /// Compile an expression in the context of function file `context`, as
    /// RADIANCE parses a modifier's expressions after loading its file.
    pub fn compile_expr_in(&mut self, context: &str, text: &str) -> Result<ExprId, CalError> {
        let scope = self.scope_of(context);
        let src = self.sources.len() as u32;
        self.sources.push(format!("expression \"{text}\""));
        let src_name = self.sources[src as usize].clone();
        let body = Parser::new(&src_name, text)?.expression()?;
        // Reduced but not flattened, as calcomp reads a modifier's expression.
        let body = reduce(body, &mut ReadTime { env: self, scope });
        self.ensure_linked();
        let root = self.compile(&body, scope, src);
        self.fold_from(root);
        self.check_root(root)?;
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(ExprSlot {
            scope,
            body,
            source: src,
        });
        self.expr_root.push(root);
        Ok(id)
    }

    /// Check every definition and expression for undefined names (stricter
    /// than RADIANCE, which only complains when a bad name is evaluated).
    pub fn link(&self) -> Result<(), CalError> {
        for &r in self.prog.def_root.iter().chain(&self.expr_root) {
            if r != UNDEF {
                self.check_root(r)?;
            }
        }
        Ok(())
    }

    /// Check the names a variable can reach.
    pub fn check_var(&self, v: VarId) -> Result<(), CalError> {
        self.check_root(
            self.prog
                .def_root
                .get(v.0 as usize)
                .copied()
                .unwrap_or(UNDEF),
        )
    }

    /// Check the names a function can reach.
    pub fn check_func(&self, f: FuncId) -> Result<(), CalError> {
        match f {
            FuncId::User(s) => {
                self.check_root(self.prog.def_root.get(s as usize).copied().unwrap_or(UNDEF))
            }
            FuncId::Builtin(_) => Ok(()),
        }
    }

    /// Names of all defined variables and functions with their context
    /// (empty for global), for diagnostics.
    pub fn definitions(&self) -> Vec<(String, String)> {
        self.slots
            .iter()
            .filter(|s| s.def.is_some())
            .map(|s| (self.scopes[s.scope as usize].clone(), s.name.clone()))
            .collect()
    }

    fn check_root(&self, root: u32) -> Result<(), CalError> {
        if root == UNDEF {
            return Ok(());
        }
        let mut seen = vec![false; self.slots.len()];
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut push_slot = |s: u32, stack: &mut Vec<u32>| {
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    let r = self.prog.def_root[s as usize];
                    if r != UNDEF {
                        stack.push(r);
                    }
                }
            };
            match self.prog.nodes[n as usize] {
                Node::Error(i) => return Err(self.prog.errors[i as usize].clone()),
                Node::Var(s) | Node::FuncRef(s) => push_slot(s, &mut stack),
                Node::Call(s, a, l) => {
                    push_slot(s, &mut stack);
                    stack.extend_from_slice(&self.prog.lists[a as usize..(a + l) as usize]);
                }
                Node::Lib(_, a, l) | Node::CallParam(_, a, l) | Node::External(_, a, l) => {
                    stack.extend_from_slice(&self.prog.lists[a as usize..(a + l) as usize]);
                }
                Node::Neg(a) | Node::Lib1(_, a) => stack.push(a),
                Node::Pow(a, b) => stack.extend([a, b]),
                Node::If(a, b, c) => stack.extend([a, b, c]),
                Node::Chain(f, a, l) => {
                    stack.push(f);
                    stack.extend(
                        self.prog.chain[a as usize..(a + l) as usize]
                            .iter()
                            .map(|x| x.1),
                    );
                }
                Node::Num(_)
                | Node::Ray(_)
                | Node::Record(_)
                | Node::ArgConst(_)
                | Node::Param(_)
                | Node::LibRef(_) => {}
            }
        }
        Ok(())
    }

    // --------------------------------------------------------------- compile

    /// Recompile everything: names may now resolve differently.
    fn relink(&mut self) {
        self.linked_at = self.clock;
        self.prog = Program {
            def_root: vec![UNDEF; self.slots.len()],
            purity: vec![Purity::Unknown; self.slots.len()],
            compiled_at: vec![self.clock; self.slots.len()],
            ..Program::default()
        };
        for s in 0..self.slots.len() {
            if let Some(d) = self.slots[s].def.clone() {
                let r = self.compile(&d.body, self.slots[s].scope, d.source);
                self.prog.def_root[s] = r;
            }
        }
        for i in 0..self.exprs.len() {
            let e = self.exprs[i].clone();
            let r = self.compile(&e.body, e.scope, e.source);
            self.expr_root[i] = r;
        }
        let roots: Vec<u32> = self
            .prog
            .def_root
            .iter()
            .chain(&self.expr_root)
            .copied()
            .filter(|&r| r != UNDEF)
            .collect();
        for r in roots {
            self.fold_from(r);
        }
        self.inline_leaves();
    }

    fn push(&mut self, n: Node) -> u32 {
        self.prog.nodes.push(n);
        (self.prog.nodes.len() - 1) as u32
    }

    fn error_node(&mut self, source: u32, pos: Pos, name: &str, msg: &str) -> u32 {
        let i = self.prog.errors.len() as u32;
        self.prog.errors.push(CalError::Link {
            source_name: self.sources[source as usize].clone(),
            line: pos.line,
            column: pos.col,
            name: name.to_string(),
            message: msg.to_string(),
        });
        self.push(Node::Error(i))
    }

    fn compile_list(&mut self, args: &[Expr], scope: u32, source: u32) -> (u32, u32) {
        let ids: Vec<u32> = args
            .iter()
            .map(|a| self.compile(a, scope, source))
            .collect();
        let start = self.prog.lists.len() as u32;
        self.prog.lists.extend(ids);
        (start, args.len() as u32)
    }

    fn compile(&mut self, e: &Expr, scope: u32, source: u32) -> u32 {
        match e {
            Expr::Num(v) => self.push(Node::Num(*v)),
            Expr::Ray(v) => self.push(Node::Ray(*v)),
            Expr::Record(v) => self.push(Node::Record(*v)),
            Expr::Param(i) => self.push(Node::Param(*i)),
            Expr::Chan(n, _) if self.records && *n > 0 => {
                self.push(Node::Record(RecordVar::Column(*n)))
            }
            Expr::Chan(n, pos) => match RayVar::from_channel(*n).filter(|_| !self.records) {
                Some(v) => self.push(Node::Ray(v)),
                None => self.error_node(source, *pos, &format!("${n}"), "illegal channel number"),
            },
            Expr::Neg(a) => {
                let a = self.compile(a, scope, source);
                self.push(Node::Neg(a))
            }
            Expr::Pow(a, b) => {
                let a = self.compile(a, scope, source);
                let b = self.compile(b, scope, source);
                self.push(Node::Pow(a, b))
            }
            Expr::Chain(first, rest) => {
                let f = self.compile(first, scope, source);
                let items: Vec<(ChainOp, u32)> = rest
                    .iter()
                    .map(|(op, x)| (*op, self.compile(x, scope, source)))
                    .collect();
                let start = self.prog.chain.len() as u32;
                self.prog.chain.extend(items);
                self.push(Node::Chain(f, start, rest.len() as u32))
            }
            Expr::Spine(head, ops) => {
                let f = self.compile(head, scope, source);
                // A sum's +0 start changes the value only when the value so
                // far may be -0; skip it where it cannot be.
                let mut maybe_neg_zero =
                    !matches!(**head, Expr::Num(v) if v != 0.0 || v.is_sign_positive());
                let mut items = Vec::with_capacity(ops.len());
                for (op, x) in ops {
                    let op = match op {
                        ChainOp::Add | ChainOp::StartSum => {
                            let o = if maybe_neg_zero {
                                ChainOp::StartSum
                            } else {
                                ChainOp::Add
                            };
                            // x + y is -0 only if both are -0.
                            maybe_neg_zero = false;
                            o
                        }
                        // x - y is -0 only if x is -0 (and y is +0).
                        ChainOp::Sub => ChainOp::Sub,
                        ChainOp::Mul | ChainOp::Div => {
                            maybe_neg_zero = true;
                            *op
                        }
                    };
                    items.push((op, self.compile(x, scope, source)));
                }
                let start = self.prog.chain.len() as u32;
                self.prog.chain.extend(items);
                self.push(Node::Chain(f, start, ops.len() as u32))
            }
            Expr::Name(name, pos) => match self.resolve(scope, name) {
                Resolved::Slot(s) if self.is_func_slot(s) => self.push(Node::FuncRef(s)),
                Resolved::Slot(s) => self.push(Node::Var(s)),
                Resolved::Lib(b) => self.push(Node::LibRef(b)),
                Resolved::External(id) => self.push(Node::External(id, 0, 0)),
                Resolved::Undefined => self.error_node(source, *pos, name, "undefined variable"),
            },
            Expr::Call {
                name,
                pos,
                param,
                args,
            } => {
                if let Some(p) = param {
                    let (a, l) = self.compile_list(args, scope, source);
                    return self.push(Node::CallParam(*p, a, l));
                }
                match self.resolve(scope, name) {
                    Resolved::Slot(s) if self.is_func_slot(s) => {
                        let (a, l) = self.compile_list(args, scope, source);
                        self.push(Node::Call(s, a, l))
                    }
                    Resolved::Slot(_) => {
                        self.error_node(source, *pos, name, "is a variable, called as a function")
                    }
                    Resolved::Lib(b) => {
                        if args.len() < b.min_args() {
                            return self.error_node(
                                source,
                                *pos,
                                name,
                                &format!("too few arguments (needs {})", b.min_args()),
                            );
                        }
                        if b == Builtin::If {
                            let c = self.compile(&args[0], scope, source);
                            let t = self.compile(&args[1], scope, source);
                            let f = self.compile(&args[2], scope, source);
                            return self.push(Node::If(c, t, f));
                        }
                        if b == Builtin::Arg {
                            if let Some(v) = crate::parse::const_value(&args[0]) {
                                return self.push(Node::ArgConst((v + 0.5).floor() as i64));
                            }
                        }
                        if b.min_args() == 1 && b.is_pure() && !b.is_variadic() {
                            let a = self.compile(&args[0], scope, source);
                            return self.push(Node::Lib1(b, a));
                        }
                        let (a, l) = self.compile_list(args, scope, source);
                        self.push(Node::Lib(b, a, l))
                    }
                    Resolved::External(id) => {
                        let (a, l) = self.compile_list(args, scope, source);
                        self.push(Node::External(id, a, l))
                    }
                    Resolved::Undefined => {
                        self.error_node(source, *pos, name, "undefined function")
                    }
                }
            }
        }
    }

    // ------------------------------------------------- read-time constants

    fn ensure_linked(&mut self) {
        if self.clock > self.linked_at {
            self.relink();
        }
    }

    /// Bring the compiled code that slot `s` reaches up to date with the
    /// definitions read so far, recompiling only what changed: relinking
    /// everything for each constant of a long file would take quadratic time.
    fn link_for(&mut self, s: u32) {
        if self.clock == self.linked_at {
            return;
        }
        let n = self.slots.len();
        let mut seen = HashSet::from([s]);
        let mut todo = vec![s];
        let mut stale = Vec::new();
        while let Some(t) = todo.pop() {
            let slot = &self.slots[t as usize];
            let Some(d) = &slot.def else { continue };
            let at = self.prog.compiled_at.get(t as usize).copied().unwrap_or(0);
            let newer = |name: &str| self.defined_at.get(name).is_some_and(|&c| c > at);
            let mut names = Vec::new();
            expr_names(&d.body, &mut names);
            // Changed itself, or a name it uses may now mean something else.
            if t as usize >= self.prog.def_root.len()
                || newer(&slot.name)
                || names.iter().any(|m| newer(m.trim_matches('`')))
            {
                stale.push(t);
            }
            for m in names {
                if let Resolved::Slot(u) = self.resolve(slot.scope, m) {
                    if seen.insert(u) {
                        todo.push(u);
                    }
                }
            }
        }
        if stale.is_empty() {
            return;
        }
        self.prog.def_root.resize(n, UNDEF);
        self.prog.compiled_at.resize(n, 0);
        // Purity depends on what a slot reaches: recompute all of it lazily.
        self.prog.purity = vec![Purity::Unknown; n];
        for t in stale {
            if let Some(d) = self.slots[t as usize].def.clone() {
                let root = self.compile(&d.body, self.slots[t as usize].scope, d.source);
                self.prog.def_root[t as usize] = root;
                self.prog.compiled_at[t as usize] = self.clock;
            }
        }
    }

    /// Value of `name` if it is a constant (`:`) variable now: calcomp
    /// replaces such a name by its value while reading.
    fn const_var(&mut self, scope: u32, name: &str) -> Option<f64> {
        let s = self.lookup_slot(scope, name)?;
        let d = self.slots[s as usize].def.as_ref()?;
        if !d.constant || d.params.is_some() {
            return None;
        }
        if let Expr::Num(v) = d.body {
            return Some(v);
        }
        self.link_for(s);
        // Only what depends on constants alone (calcomp would also freeze
        // the current value of a variable; we keep those live).
        if !self.slot_pure(s, 0) {
            return None;
        }
        let mut st = EvalState::new();
        st.set_step_limit(Some(FOLD_STEPS));
        let v = self.eval_var(VarId(s), &mut st, &NoRay);
        st.error().is_none().then_some(v)
    }

    /// Value of `name(args)` if `name` is a constant function now (a `:`
    /// user function, or a constant library function not hidden by a
    /// definition): calcomp replaces such a call of numbers by its value.
    fn const_call(&mut self, scope: u32, name: &str, args: &[f64]) -> Option<f64> {
        let mut st = EvalState::new();
        st.set_step_limit(Some(FOLD_STEPS));
        let v = match self.resolve(scope, name) {
            Resolved::Slot(s) => {
                let d = self.slots[s as usize].def.as_ref()?;
                if !d.constant || d.params.is_none() {
                    return None;
                }
                self.link_for(s);
                if !self.slot_pure(s, 0) {
                    return None;
                }
                self.call(FuncId::User(s), args, &mut st, &NoRay)
            }
            Resolved::Lib(b) => {
                if !b.is_pure() || args.len() < b.min_args() {
                    return None;
                }
                self.call(FuncId::Builtin(b), args, &mut st, &NoRay)
            }
            Resolved::External(_) | Resolved::Undefined => return None,
        };
        st.error().is_none().then_some(v)
    }

    // -------------------------------------------------------------- folding

    /// Is slot `s` a ':' definition whose value depends only on its
    /// parameters? Cycles count as pure (recursion is fine).
    fn slot_pure(&mut self, s: u32, depth: u32) -> bool {
        match self.prog.purity[s as usize] {
            Purity::Pure | Purity::Busy => return true,
            Purity::Impure => return false,
            Purity::Unknown => {}
        }
        let constant = self.slots[s as usize]
            .def
            .as_ref()
            .is_some_and(|d| d.constant);
        let root = self.prog.def_root[s as usize];
        if !constant || root == UNDEF || depth > 64 {
            self.prog.purity[s as usize] = Purity::Impure;
            return false;
        }
        self.prog.purity[s as usize] = Purity::Busy;
        let p = self.node_pure(root, depth + 1).0;
        self.prog.purity[s as usize] = if p { Purity::Pure } else { Purity::Impure };
        p
    }

    /// (pure, uses parameters) of a node.
    fn node_pure(&mut self, n: u32, depth: u32) -> (bool, bool) {
        if depth > 400 {
            return (false, true);
        }
        let list = |p: &Program, a: u32, l: u32| p.lists[a as usize..(a + l) as usize].to_vec();
        let all = |env: &mut Self, ids: &[u32]| {
            let mut r = (true, false);
            for &i in ids {
                let (p, q) = env.node_pure(i, depth + 1);
                r.0 &= p;
                r.1 |= q;
                if !r.0 {
                    break;
                }
            }
            r
        };
        match self.prog.nodes[n as usize] {
            Node::Num(_) => (true, false),
            Node::Param(_) => (true, true),
            Node::Ray(_)
            | Node::Record(_)
            | Node::External(..)
            | Node::ArgConst(_)
            | Node::Error(_)
            | Node::FuncRef(_)
            | Node::LibRef(_)
            | Node::CallParam(..) => (false, false),
            Node::Var(s) => (self.slot_pure(s, depth), false),
            Node::Neg(a) => self.node_pure(a, depth + 1),
            Node::Lib1(_, a) => self.node_pure(a, depth + 1),
            Node::Pow(a, b) => all(self, &[a, b]),
            Node::If(a, b, c) => all(self, &[a, b, c]),
            Node::Chain(f, a, l) => {
                let mut ids = vec![f];
                ids.extend(
                    self.prog.chain[a as usize..(a + l) as usize]
                        .iter()
                        .map(|x| x.1),
                );
                all(self, &ids)
            }
            Node::Lib(b, a, l) => {
                if !b.is_pure() {
                    return (false, false);
                }
                let ids = list(&self.prog, a, l);
                all(self, &ids)
            }
            Node::Call(s, a, l) => {
                if !self.slot_pure(s, depth) {
                    return (false, false);
                }
                let ids = list(&self.prog, a, l);
                all(self, &ids)
            }
        }
    }

    /// Replace constant subtrees reachable from `root` by numbers.
    fn fold_from(&mut self, root: u32) {
        let mut stack = vec![root];
        let mut st = EvalState::new();
        while let Some(n) = stack.pop() {
            if let Node::Num(_) = self.prog.nodes[n as usize] {
                continue;
            }
            let (pure, uses_param) = self.node_pure(n, 0);
            if pure && !uses_param {
                st.set_step_limit(Some(FOLD_STEPS));
                st.begin(self);
                let v = self.eval(n, NO_FRAME, &mut st, &crate::NoRay);
                if st.error.is_none() {
                    self.prog.nodes[n as usize] = Node::Num(v);
                    continue;
                }
            }
            match self.prog.nodes[n as usize] {
                Node::Neg(a) | Node::Lib1(_, a) => stack.push(a),
                Node::Pow(a, b) => stack.extend([a, b]),
                Node::If(c, t, f) => {
                    if let Node::Num(v) = self.prog.nodes[c as usize] {
                        // Constant condition: keep only the branch taken.
                        let pick = if v > 0.0 { t } else { f };
                        self.prog.nodes[n as usize] = self.prog.nodes[pick as usize];
                        stack.push(n);
                    } else {
                        stack.extend([c, t, f]);
                    }
                }
                Node::Chain(f, a, l) => {
                    stack.push(f);
                    stack.extend(
                        self.prog.chain[a as usize..(a + l) as usize]
                            .iter()
                            .map(|x| x.1),
                    );
                }
                Node::Lib(_, a, l)
                | Node::Call(_, a, l)
                | Node::CallParam(_, a, l)
                | Node::External(_, a, l) => {
                    stack.extend_from_slice(&self.prog.lists[a as usize..(a + l) as usize]);
                }
                _ => {}
            }
        }
    }

    /// Variables defined as a number, a ray variable or a constant `arg(n)`
    /// are copied into their uses (no cache lookup per use).
    fn inline_leaves(&mut self) {
        for i in 0..self.prog.nodes.len() {
            if let Node::Var(s) = self.prog.nodes[i] {
                let r = self.prog.def_root[s as usize];
                if r != UNDEF {
                    let leaf = self.prog.nodes[r as usize];
                    if matches!(leaf, Node::Num(_) | Node::Ray(_) | Node::ArgConst(_)) {
                        self.prog.nodes[i] = leaf;
                    }
                }
            }
        }
    }

    // ----------------------------------------------------------- evaluation

    /// Evaluate a variable for one ray.
    pub fn eval_var(&self, v: VarId, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        st.begin(self);
        if v.0 as usize >= self.slots.len() {
            st.fail(EvalError::Link(
                "variable id from another environment".into(),
            ));
            return 0.0;
        }
        let v = self.eval_slot(v.0, st, ctx);
        st.result(v)
    }

    /// Evaluate a compiled expression for one ray.
    pub fn eval_expr(&self, e: ExprId, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        st.begin(self);
        let v = match self.expr_root.get(e.0 as usize) {
            Some(&r) => self.eval(r, NO_FRAME, st, ctx),
            None => 0.0,
        };
        st.result(v)
    }

    /// Evaluate several expressions for the same ray, sharing variable
    /// values between them (e.g. the three of a `colorfunc`).
    pub fn eval_exprs(
        &self,
        ids: &[ExprId],
        out: &mut [f64],
        st: &mut EvalState,
        ctx: &dyn RayContext,
    ) {
        st.begin(self);
        for (o, e) in out.iter_mut().zip(ids) {
            *o = match self.expr_root.get(e.0 as usize) {
                Some(&r) => self.eval(r, NO_FRAME, st, ctx),
                None => 0.0,
            };
        }
        if st.error.is_some() {
            out.fill(0.0);
        }
    }

    /// Evaluate several variables for the same ray (or record), sharing
    /// variable values between them; all are 0 after a run-time error.
    pub fn eval_vars(
        &self,
        ids: &[VarId],
        out: &mut [f64],
        st: &mut EvalState,
        ctx: &dyn RayContext,
    ) {
        st.begin(self);
        for (o, v) in out.iter_mut().zip(ids) {
            *o = if (v.0 as usize) < self.slots.len() {
                self.eval_slot(v.0, st, ctx)
            } else {
                0.0
            };
        }
        if st.error.is_some() {
            out.fill(0.0);
        }
    }

    /// Call a function with numeric arguments for one ray.
    pub fn call(&self, f: FuncId, args: &[f64], st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        st.begin(self);
        match f {
            FuncId::User(s) => {
                let root = self.prog.def_root.get(s as usize).copied().unwrap_or(UNDEF);
                if root == UNDEF {
                    st.fail(EvalError::Link("undefined function".into()));
                    return 0.0;
                }
                let base = st.vals.len() as u32;
                st.vals.extend_from_slice(args);
                st.frames.push(Frame {
                    list: 0,
                    nargs: args.len() as u32,
                    parent: NO_FRAME,
                    base,
                    computed: 0,
                    native: true,
                    slot: s,
                });
                let fr = (st.frames.len() - 1) as u32;
                let v = self.eval(root, fr, st, ctx);
                st.frames.pop();
                st.vals.truncate(base as usize);
                st.result(v)
            }
            FuncId::Builtin(b) => {
                let v = self.lib_values(b, args, st, ctx);
                st.result(v)
            }
        }
    }

    fn eval_slot(&self, s: u32, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        let i = s as usize;
        if st.var_gen[i] == st.gen {
            return st.var_val[i];
        }
        let root = self.prog.def_root[i];
        let v = if root == UNDEF {
            st.fail(EvalError::Link(format!(
                "{}: undefined variable",
                self.slots[i].name
            )));
            0.0
        } else {
            self.eval(root, NO_FRAME, st, ctx)
        };
        st.var_gen[i] = st.gen;
        st.var_val[i] = v;
        v
    }

    fn eval(&self, n: u32, frame: u32, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        if st.depth >= MAX_EVAL_DEPTH {
            st.fail(EvalError::DepthExceeded);
            return 0.0;
        }
        if st.steps_left == 0 {
            st.fail(EvalError::StepLimit);
            return 0.0;
        }
        st.steps_left -= 1;
        st.depth += 1;
        let v = self.eval_node(n, frame, st, ctx);
        st.depth -= 1;
        v
    }

    fn eval_node(&self, n: u32, frame: u32, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        let p = &self.prog;
        match p.nodes[n as usize] {
            Node::Num(v) => v,
            Node::Ray(r) => ctx.ray_var(r),
            Node::Record(r) => ctx.record_var(r),
            Node::ArgConst(k) => arg_value(k, st, ctx),
            Node::Param(i) => self.param(i, frame, st, ctx),
            Node::Var(s) => {
                if st.error.is_some() {
                    return 0.0;
                }
                self.eval_slot(s, st, ctx)
            }
            Node::Neg(a) => -self.eval(a, frame, st, ctx),
            Node::Pow(a, b) => {
                let x = self.eval(a, frame, st, ctx);
                let y = self.eval(b, frame, st, ctx);
                lib_result(x.powf(y))
            }
            Node::Chain(f, a, l) => {
                let mut acc = self.eval(f, frame, st, ctx);
                for &(op, x) in &p.chain[a as usize..(a + l) as usize] {
                    let v = self.eval(x, frame, st, ctx);
                    acc = match op {
                        ChainOp::Add => acc + v,
                        ChainOp::StartSum => acc + 0.0 + v,
                        ChainOp::Sub => acc - v,
                        ChainOp::Mul => acc * v,
                        ChainOp::Div => {
                            if v == 0.0 {
                                0.0
                            } else {
                                acc / v
                            }
                        }
                    };
                }
                acc
            }
            Node::Lib1(b, a) => {
                let x = self.eval(a, frame, st, ctx);
                lib_result(b.apply_math(x, 0.0, 0.0))
            }
            Node::If(c, t, f) => {
                let v = if self.eval(c, frame, st, ctx) > 0.0 {
                    self.eval(t, frame, st, ctx)
                } else {
                    self.eval(f, frame, st, ctx)
                };
                lib_result(v)
            }
            Node::Lib(b, a, l) => {
                let args = &p.lists[a as usize..(a + l) as usize];
                self.lib_nodes(b, args, frame, st, ctx)
            }
            Node::External(id, a, l) => {
                const MAX_ARGS: usize = 8;
                if l as usize > MAX_ARGS {
                    st.fail(EvalError::Link(format!(
                        "too many arguments ({l}) to a program function"
                    )));
                    return 0.0;
                }
                let mut vals = [0.0; MAX_ARGS];
                for (k, &n) in p.lists[a as usize..(a + l) as usize].iter().enumerate() {
                    vals[k] = self.eval(n, frame, st, ctx);
                }
                ctx.external(id, &vals[..l as usize])
            }
            Node::Call(s, a, l) => self.call_user(s, a, l, frame, st, ctx),
            Node::CallParam(pi, a, l) => self.call_param(pi, a, l, frame, st, ctx),
            Node::FuncRef(s) => {
                st.fail(EvalError::Link(format!(
                    "{}: function used as a variable",
                    self.slots[s as usize].name
                )));
                0.0
            }
            Node::LibRef(b) => {
                st.fail(EvalError::Link(format!(
                    "{}: function used as a variable",
                    b.name()
                )));
                0.0
            }
            Node::Error(i) => {
                st.fail(EvalError::Link(p.errors[i as usize].to_string()));
                0.0
            }
        }
    }

    fn param(&self, i: u32, frame: u32, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        let Some(fr) = st.frames.get(frame as usize).copied() else {
            st.fail(EvalError::Link("parameter outside a function".into()));
            return 0.0;
        };
        if i >= fr.nargs {
            st.fail(EvalError::TooFewArgs(
                self.slots[fr.slot as usize].name.clone(),
            ));
            return 0.0;
        }
        if fr.native {
            return st.vals[(fr.base + i) as usize];
        }
        let cached = i < CACHED_ARGS;
        if cached && fr.computed & (1u64 << i) != 0 {
            return st.vals[(fr.base + i) as usize];
        }
        let node = self.prog.lists[(fr.list + i) as usize];
        let v = self.eval(node, fr.parent, st, ctx);
        if cached {
            st.vals[(fr.base + i) as usize] = v;
            st.frames[frame as usize].computed |= 1u64 << i;
        }
        v
    }

    fn call_user(
        &self,
        s: u32,
        list: u32,
        nargs: u32,
        frame: u32,
        st: &mut EvalState,
        ctx: &dyn RayContext,
    ) -> f64 {
        if st.error.is_some() {
            return 0.0;
        }
        let root = self.prog.def_root[s as usize];
        if root == UNDEF {
            st.fail(EvalError::Link(format!(
                "{}: undefined function",
                self.slots[s as usize].name
            )));
            return 0.0;
        }
        let base = st.vals.len() as u32;
        let nslots = nargs.min(CACHED_ARGS) as usize;
        st.vals.resize(base as usize + nslots, 0.0);
        st.frames.push(Frame {
            list,
            nargs,
            parent: frame,
            base,
            computed: 0,
            native: false,
            slot: s,
        });
        let fr = (st.frames.len() - 1) as u32;
        let v = self.eval(root, fr, st, ctx);
        st.frames.pop();
        st.vals.truncate(base as usize);
        v
    }

    fn call_param(
        &self,
        pi: u32,
        list: u32,
        nargs: u32,
        frame: u32,
        st: &mut EvalState,
        ctx: &dyn RayContext,
    ) -> f64 {
        // Follow the argument back through callers until it names a function.
        let (mut f, mut i) = (frame, pi);
        let target = loop {
            let Some(fr) = st.frames.get(f as usize).copied() else {
                st.fail(EvalError::Link(
                    "parameter called outside a function".into(),
                ));
                return 0.0;
            };
            let fname = || self.slots[fr.slot as usize].name.clone();
            if fr.native {
                st.fail(EvalError::NotAFunction(fname()));
                return 0.0;
            }
            if i >= fr.nargs {
                st.fail(EvalError::TooFewArgs(fname()));
                return 0.0;
            }
            match self.prog.nodes[self.prog.lists[(fr.list + i) as usize] as usize] {
                Node::FuncRef(s) => break FuncId::User(s),
                Node::LibRef(b) => break FuncId::Builtin(b),
                Node::Param(q) => {
                    f = fr.parent;
                    i = q;
                }
                _ => {
                    st.fail(EvalError::NotAFunction(fname()));
                    return 0.0;
                }
            }
        };
        match target {
            FuncId::User(s) => self.call_user(s, list, nargs, frame, st, ctx),
            FuncId::Builtin(b) => {
                if (nargs as usize) < b.min_args() {
                    st.fail(EvalError::TooFewArgs(b.name().to_string()));
                    return 0.0;
                }
                if b == Builtin::If {
                    let l = &self.prog.lists[list as usize..];
                    let v = if self.eval(l[0], frame, st, ctx) > 0.0 {
                        self.eval(l[1], frame, st, ctx)
                    } else {
                        self.eval(l[2], frame, st, ctx)
                    };
                    return lib_result(v);
                }
                let args = &self.prog.lists[list as usize..(list + nargs) as usize];
                self.lib_nodes(b, args, frame, st, ctx)
            }
        }
    }

    /// Library call with argument nodes (lazy where RADIANCE is lazy).
    fn lib_nodes(
        &self,
        b: Builtin,
        args: &[u32],
        frame: u32,
        st: &mut EvalState,
        ctx: &dyn RayContext,
    ) -> f64 {
        let ev = |k: usize, st: &mut EvalState| self.eval(args[k], frame, st, ctx);
        let v = match b {
            Builtin::Select => {
                let a1 = ev(0, st);
                let n = (a1 + 0.5).floor();
                if a1 < -0.5 || n >= args.len() as f64 {
                    0.0
                } else if n < 1.0 {
                    (args.len() - 1) as f64
                } else {
                    ev(n as usize, st)
                }
            }
            Builtin::Min | Builtin::Max => {
                let mut m = ev(0, st);
                for k in 1..args.len() {
                    let x = ev(k, st);
                    if (b == Builtin::Max && x > m) || (b == Builtin::Min && x < m) {
                        m = x;
                    }
                }
                m
            }
            Builtin::If => {
                if ev(0, st) > 0.0 {
                    ev(1, st)
                } else {
                    ev(2, st)
                }
            }
            Builtin::Arg => {
                let k = (ev(0, st) + 0.5).floor();
                arg_value(k as i64, st, ctx)
            }
            Builtin::In => {
                let n = ev(0, st);
                column_value(n, st, ctx)
            }
            Builtin::SourceTheta => source_theta(ctx),
            Builtin::SourcePhi => {
                let sym = ev(0, st);
                source_phi(sym, ctx)
            }
            Builtin::SourceCorr => {
                let a = ev(0, st);
                let k = ev(1, st);
                source_corr(a, k, ctx)
            }
            _ => {
                let a = ev(0, st);
                let y = if args.len() > 1 && b.min_args() > 1 {
                    ev(1, st)
                } else {
                    0.0
                };
                let z = if args.len() > 2 && b.min_args() > 2 {
                    ev(2, st)
                } else {
                    0.0
                };
                b.apply_math(a, y, z)
            }
        };
        lib_result(v)
    }

    /// Library call with numeric arguments.
    fn lib_values(&self, b: Builtin, a: &[f64], st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
        if a.len() < b.min_args() {
            st.fail(EvalError::TooFewArgs(b.name().to_string()));
            return 0.0;
        }
        let g = |k: usize| a.get(k).copied().unwrap_or(0.0);
        let v = match b {
            Builtin::If => {
                if a[0] > 0.0 {
                    g(1)
                } else {
                    g(2)
                }
            }
            Builtin::Select => {
                let n = (a[0] + 0.5).floor();
                if a[0] < -0.5 || n >= a.len() as f64 {
                    0.0
                } else if n < 1.0 {
                    (a.len() - 1) as f64
                } else {
                    a[n as usize]
                }
            }
            Builtin::Min => a.iter().copied().fold(a[0], f64::min),
            Builtin::Max => a.iter().copied().fold(a[0], f64::max),
            Builtin::Arg => arg_value((a[0] + 0.5).floor() as i64, st, ctx),
            Builtin::In => column_value(a[0], st, ctx),
            Builtin::SourceTheta => source_theta(ctx),
            Builtin::SourcePhi => source_phi(a[0], ctx),
            Builtin::SourceCorr => source_corr(a[0], a[1], ctx),
            _ => b.apply_math(g(0), g(1), g(2)),
        };
        lib_result(v)
    }
}

/// rcalc's `in(n)`: column n rounded, the column count for 0; a negative
/// column is a fatal error, as in RADIANCE.
fn column_value(n: f64, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
    let k = (n + 0.5).floor();
    if k == 0.0 {
        ctx.record_var(RecordVar::ColumnCount)
    } else if k < 1.0 || !k.is_finite() {
        st.fail(EvalError::Link("illegal channel number".into()));
        0.0
    } else {
        ctx.record_var(RecordVar::Column(k.min(u32::MAX as f64) as u32))
    }
}

/// Names (variables and called functions, not parameters) used in `e`.
fn expr_names<'e>(e: &'e Expr, out: &mut Vec<&'e str>) {
    match e {
        Expr::Name(n, _) => out.push(n),
        Expr::Neg(a) => expr_names(a, out),
        Expr::Pow(a, b) => {
            expr_names(a, out);
            expr_names(b, out);
        }
        Expr::Chain(a, ops) | Expr::Spine(a, ops) => {
            expr_names(a, out);
            for (_, x) in ops {
                expr_names(x, out);
            }
        }
        Expr::Call {
            name, param, args, ..
        } => {
            if param.is_none() {
                out.push(name);
            }
            for a in args {
                expr_names(a, out);
            }
        }
        Expr::Num(_) | Expr::Param(_) | Expr::Chan(..) | Expr::Ray(_) | Expr::Record(_) => {}
    }
}

/// The names known while a statement is read, for [`reduce`].
struct ReadTime<'a> {
    env: &'a mut CalEnv,
    scope: u32,
}

impl Constants for ReadTime<'_> {
    fn var(&mut self, name: &str) -> Option<f64> {
        self.env.const_var(self.scope, name)
    }
    fn call(&mut self, name: &str, args: &[f64]) -> Option<f64> {
        self.env.const_call(self.scope, name, args)
    }
}

fn read_text(p: &std::path::Path) -> Result<String, CalError> {
    std::fs::read(p)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| CalError::Io {
            path: p.to_path_buf(),
            message: e.to_string(),
        })
}

fn arg_value(k: i64, st: &mut EvalState, ctx: &dyn RayContext) -> f64 {
    let args = ctx.args();
    if k < 1 {
        return args.len() as f64;
    }
    match args.get((k - 1) as usize) {
        Some(&v) => v,
        None => {
            st.fail(EvalError::MissingArg(k));
            0.0
        }
    }
}

fn source_theta(ctx: &dyn RayContext) -> f64 {
    let dz = ctx.ray_var(RayVar::Dz);
    if dz >= 1.0 {
        0.0
    } else if dz <= -1.0 {
        180.0
    } else {
        dz.acos().to_degrees()
    }
}

fn source_phi(sym: f64, ctx: &dyn RayContext) -> f64 {
    let mut a = (-ctx.ray_var(RayVar::Dy))
        .atan2(-ctx.ray_var(RayVar::Dx))
        .to_degrees();
    if a < 0.0 {
        a += 360.0;
    }
    match (sym + 0.5).floor() as i64 {
        90 => {
            if a >= 180.0 {
                a -= 180.0;
            }
            if a < 90.0 {
                a
            } else {
                180.0 - a
            }
        }
        180 => {
            if a < 180.0 {
                a
            } else {
                360.0 - a
            }
        }
        _ => a,
    }
}

/// Photometric correction for IES sources (RADIANCE's `source_corr`): the
/// geometry type selects flat, box, local box or cylindrical emitters whose
/// dimensions are the modifier's real arguments 2..4.
fn source_corr(adj: f64, kind: f64, ctx: &dyn RayContext) -> f64 {
    let a = ctx.args();
    let mut v = adj;
    if a.len() > 1 {
        v *= a[0];
    }
    if v <= 0.0 {
        return 0.0;
    }
    let r = |i: usize| a.get(i - 1).copied().unwrap_or(0.0);
    let (dx, dy, dz) = (
        ctx.ray_var(RayVar::Dx),
        ctx.ray_var(RayVar::Dy),
        ctx.ray_var(RayVar::Dz),
    );
    match (kind + 0.5).floor() as i64 {
        0 => v,
        1 => v / ctx.ray_var(RayVar::Rdot),
        2 => v / (dx.abs() * r(3) * r(4) + dy.abs() * r(2) * r(4) + dz.abs() * r(2) * r(3)),
        3 => {
            let ts = ctx.ray_var(RayVar::Ts);
            let mut den = 0.0;
            let d = (ctx.ray_var(RayVar::Px) - dx * ts).abs() - r(2) * 0.5;
            if d > 0.0 {
                den += d * r(3) * r(4);
            }
            let d = (ctx.ray_var(RayVar::Py) - dy * ts).abs() - r(3) * 0.5;
            if d > 0.0 {
                den += d * r(2) * r(4);
            }
            let d = (ctx.ray_var(RayVar::Pz) - dz * ts).abs() - r(4) * 0.5;
            if d > 0.0 {
                den += d * r(2) * r(3);
            }
            v * ts / den
        }
        4 => {
            let d = dz.min(1.0 - 1e-7);
            v / (r(2) * r(3) * (1.0 - d * d).sqrt()
                + 0.25 * std::f64::consts::PI * r(2) * r(2) * d.abs())
        }
        _ => 0.0,
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    list: u32,
    nargs: u32,
    parent: u32,
    base: u32,
    computed: u64,
    native: bool,
    slot: u32,
}

/// Per-thread evaluation scratch: variable cache, call frames, argument
/// values and the first run-time error. Reuse one per thread; it grows to
/// fit the environment on first use and then does not allocate.
#[derive(Debug, Clone, Default)]
pub struct EvalState {
    gen: u64,
    var_gen: Vec<u64>,
    var_val: Vec<f64>,
    frames: Vec<Frame>,
    vals: Vec<f64>,
    depth: u32,
    steps_left: u64,
    step_limit: Option<u64>,
    error: Option<EvalError>,
}

impl EvalState {
    /// A new, empty state (sized on first use).
    pub fn new() -> Self {
        EvalState {
            frames: Vec::with_capacity(64),
            vals: Vec::with_capacity(256),
            ..Default::default()
        }
    }

    /// A state already sized for `env`.
    pub fn for_env(env: &CalEnv) -> Self {
        let mut s = Self::new();
        s.reset_for(env);
        s
    }

    fn reset_for(&mut self, env: &CalEnv) {
        let n = env.slots.len();
        if self.var_gen.len() < n {
            self.var_gen.resize(n, 0);
            self.var_val.resize(n, 0.0);
        }
    }

    /// Start a top-level evaluation: a new "ray" for the variable cache.
    fn begin(&mut self, env: &CalEnv) {
        self.reset_for(env);
        self.gen += 1;
        self.depth = 0;
        self.frames.clear();
        self.vals.clear();
        self.error = None;
        self.steps_left = self.step_limit.unwrap_or(u64::MAX);
    }

    /// Limit the number of node evaluations of each top-level evaluation
    /// (guards against exponential recursion in untrusted text); `None`
    /// means unlimited (the default).
    pub fn set_step_limit(&mut self, limit: Option<u64>) {
        self.step_limit = limit;
    }

    /// A failed evaluation yields 0, as RADIANCE's fatal errors yield nothing.
    fn result(&self, v: f64) -> f64 {
        if self.error.is_some() {
            0.0
        } else {
            v
        }
    }

    fn fail(&mut self, e: EvalError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// The first run-time error of the last top-level evaluation.
    pub fn error(&self) -> Option<&EvalError> {
        self.error.as_ref()
    }

    /// Remove and return the recorded error (evaluation resumes normally).
    pub fn take_error(&mut self) -> Option<EvalError> {
        self.error.take()
    }
}
