//! `daylit rcontrib` (and `rcontrib`): RADIANCE's contribution coefficients. Every input ray
//! (or sensor, with `-I`) is traced once; each path that reaches a surface whose modifier is
//! named with `-m`/`-M` adds its coefficient (or, with `-V`, its contribution) to one bin of
//! that modifier, chosen by the `-b` expression. All modifiers and bins are gathered in one
//! pass. Records of `-c` rays go to standard output or to the `-o` files, as rcontrib writes
//! them.

use crate::rtrace::read_rays;
use anyhow::{bail, Context};
use daylit_cal::{CalEnv, EvalState, ExprId, RayPath, RayVar, SimpleRay};
use daylit_compile::compile;
use daylit_geometry::Ray;
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::contrib::{BinFn, BinRay, ContribModifier, ContribSpec};
use daylit_transport::{Options as RenderOptions, Renderer};
use glam::DVec3;
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Arguments of `daylit rcontrib`, written as RADIANCE's rcontrib takes them.
#[derive(clap::Args)]
pub struct Args {
    /// RADIANCE rcontrib options (`-m`, `-M`, `-b`, `-bn`, `-p`, `-f`, `-e`, `-o`, `-c`, `-V`,
    /// `-I`, `-f[adf][adfc]`, rendering options, `-seed N`, `--daylit-ambient` for daylit's
    /// `-aa 0` estimator instead of RADIANCE's), then the scene.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// How the hits on one modifier are binned.
pub enum Bins {
    /// rcontrib's `-b` expression and `-bn` count (itself an expression), evaluated with the
    /// `-p` parameters in force when the modifier was named.
    Expr {
        /// The bin expression (`None`: everything in one bin).
        expr: Option<String>,
        /// The bin count expression.
        count: Option<String>,
        /// `-p` parameters (`name=value,...`).
        params: Option<String>,
    },
    /// Bins computed natively (rfluxmtx's receivers).
    Native {
        /// Number of bins.
        bins: usize,
        /// The bin of a ray.
        f: BinFn,
    },
}

/// One modifier whose contributions are gathered.
pub struct Receiver {
    /// The modifier's name.
    pub name: String,
    /// Its bins.
    pub bins: Bins,
    /// `-o` output specification (`%s` modifier, `%d` bin); standard output when `None`.
    pub out: Option<String>,
}

/// A function file or expression given with `-f` / `-e`.
pub enum CalInput {
    /// A function file (found by RAYPATH, or in daylit's library).
    File(String),
    /// Definitions given on the command line.
    Expr(String),
}

/// A contribution run.
pub struct Job {
    /// The program name and arguments, for the header.
    pub command: String,
    /// Rendering options.
    pub render: RenderOptions,
    /// `-I`: irradiance at the ray's origin, facing its direction.
    pub irradiance_at_points: bool,
    /// `-V`: contributions (coefficient × value) instead of coefficients.
    pub values: bool,
    /// `-c`: rays averaged into one record (0: all of them into one).
    pub accumulate: usize,
    /// `-x`, `-y`: resolution (records expected: `y·max(x,1)`, when `y` is set).
    pub xres: usize,
    /// See `xres`.
    pub yres: usize,
    /// Input format (`a`, `f`, `d`).
    pub fmt_in: char,
    /// Output format (`a`, `f`, `d`, `c`).
    pub fmt_out: char,
    /// `-h`: write headers.
    pub header: bool,
    /// `-n`: threads (0: all cores).
    pub threads: usize,
    /// `-fo`: overwrite existing output files.
    pub force: bool,
    /// `-r`: recover an interrupted run: keep the complete records of the existing output
    /// files and trace only the input records after them.
    pub recover: bool,
    /// `-f`/`-e`, in order.
    pub cal: Vec<CalInput>,
    /// The modifiers, in output order.
    pub receivers: Vec<Receiver>,
    /// Scene inputs.
    pub scene: Vec<PathBuf>,
    /// The last `-o` of the options: where receivers named after them write (rfluxmtx's
    /// receivers without `o=`).
    pub output: Option<String>,
    /// The input rays when they do not come from standard input (rfluxmtx's sender samples).
    pub rays: Option<Vec<Ray>>,
}

impl Job {
    /// A job with rcontrib's defaults and nothing to gather yet.
    pub fn new(command: String) -> Job {
        Job {
            command,
            render: RenderOptions::rcontrib(),
            irradiance_at_points: false,
            values: false,
            accumulate: 1,
            xres: 0,
            yres: 0,
            fmt_in: 'a',
            fmt_out: 'a',
            header: true,
            threads: 0,
            force: false,
            recover: false,
            cal: vec![],
            receivers: vec![],
            scene: vec![],
            output: None,
            rays: None,
        }
    }
}

/// Parses a RADIANCE `-f` format suffix (`a`, `ff`, `fc`, ...) into input and output formats.
pub fn parse_format(prog: &str, f: &str) -> anyhow::Result<(char, char)> {
    let c: Vec<char> = f.chars().collect();
    match c[..] {
        [i] if "adf".contains(i) => Ok((i, i)),
        [i, o] if "adf".contains(i) && "adfc".contains(o) => Ok((i, o)),
        _ => bail!(
            "{prog}: illegal i/o format -f{f} (expected one of a, f, d, then one of a, f, d, c)"
        ),
    }
}

/// A RADIANCE switch (`-h`, `-h+`, `-h-`) named `name`: its new value, or `None` if `a` is not it.
pub fn switch(a: &str, name: &str, cur: bool) -> Option<bool> {
    match a.strip_prefix(name)? {
        "" => Some(!cur),
        "+" => Some(true),
        "-" => Some(false),
        _ => None,
    }
}

/// Parses rcontrib's arguments.
fn parse(args: &[String]) -> anyhow::Result<Job> {
    let mut job = Job::new(format!("rcontrib {}", args.join(" ")));
    let i = parse_options(&mut job, args, "rcontrib")?;
    job.scene = args[i..].iter().map(PathBuf::from).collect();
    if job.scene.is_empty() {
        bail!("rcontrib: no scene given (an octree from daylit oconv, or scene files)");
    }
    if job.receivers.is_empty() {
        bail!("rcontrib: no modifiers given (-m name or -M file)");
    }
    Ok(job)
}

/// Reads rcontrib's options into `job` up to the first word that is not one (or `-`), and
/// returns that word's index. `prog` names the program in errors.
pub fn parse_options(job: &mut Job, args: &[String], prog: &str) -> anyhow::Result<usize> {
    let (mut out, mut params, mut bin, mut count) = (None, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') || a == "-" {
            break;
        }
        let value = |k: usize| -> anyhow::Result<String> {
            args.get(i + k)
                .cloned()
                .with_context(|| format!("{prog}: option {a} needs a value"))
        };
        let whole = |k: usize| -> anyhow::Result<usize> {
            let v = value(k)?;
            v.parse()
                .with_context(|| format!("{prog}: {a} expects a whole number, found \"{v}\""))
        };
        let used = job
            .render
            .parse_arg(args, i)
            .map_err(|e| anyhow::anyhow!("{prog}: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        let mut take = 1;
        if let Some(v) = switch(a, "-I", job.irradiance_at_points) {
            job.irradiance_at_points = v;
            take = 0;
        } else if let Some(v) = switch(a, "-V", job.values) {
            job.values = v;
            take = 0;
        } else if let Some(v) = switch(a, "-h", job.header) {
            job.header = v;
            take = 0;
        } else if let Some(v) = switch(a, "-fo", job.force) {
            job.force = v;
            take = 0;
        } else if let Some(v) = switch(a, "-r", job.recover) {
            job.recover = v;
            take = 0;
        } else if switch(a, "-w", true).is_some() || switch(a, "-ld", true).is_some() {
            take = 0;
        } else {
            match a {
                "-n" => job.threads = whole(1)?,
                "-x" => job.xres = whole(1)?,
                "-y" => job.yres = whole(1)?,
                "-c" => job.accumulate = whole(1)?,
                "-t" => {
                    whole(1)?;
                }
                "-f" => job.cal.push(CalInput::File(value(1)?)),
                "-e" => job.cal.push(CalInput::Expr(value(1)?)),
                "-o" => out = Some(value(1)?),
                "-p" => params = Some(value(1)?),
                "-b" => bin = Some(value(1)?),
                "-bn" => count = Some(value(1)?),
                "-m" | "-M" => {
                    let names = if a == "-m" {
                        vec![value(1)?]
                    } else {
                        let f = value(1)?;
                        let text = std::fs::read_to_string(&f)
                            .with_context(|| format!("{prog}: cannot read modifier file {f}"))?;
                        text.split_whitespace().map(str::to_string).collect()
                    };
                    for name in names {
                        job.receivers.push(Receiver {
                            name,
                            bins: Bins::Expr {
                                expr: bin.clone(),
                                count: count.clone(),
                                params: params.clone(),
                            },
                            out: out.clone(),
                        });
                    }
                }
                _ => match a.strip_prefix("-f") {
                    Some(f) => {
                        (job.fmt_in, job.fmt_out) = parse_format(prog, f)?;
                        take = 0;
                    }
                    None => bail!("{prog}: unknown option {a}"),
                },
            }
        }
        i += 1 + take;
    }
    job.output = out;
    Ok(i)
}

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

/// Function files and definitions shared by every modifier, and one environment per set of
/// `-p` parameters.
struct CalSet<'a> {
    inputs: &'a [CalInput],
    raypath: &'a RayPath,
    envs: HashMap<String, Arc<CalEnv>>,
}

impl CalSet<'_> {
    /// The environment of parameters `params`, built on first use. As in rcontrib, `-f`
    /// files are read into the global context, so their names are visible to `-b`.
    fn env(&self, params: &str) -> anyhow::Result<CalEnv> {
        let mut env = CalEnv::with_raypath(self.raypath)?;
        for c in self.inputs {
            match c {
                CalInput::File(name) => {
                    let text = match self.raypath.find(name) {
                        Some(p) => std::fs::read_to_string(&p)
                            .with_context(|| format!("cannot read {}", p.display()))?,
                        None => daylit_cal::embedded_file(name)
                            .with_context(|| {
                                format!("cannot find function file {name} (searched RAYPATH and daylit's library)")
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

    /// The bin function and count of an expression-binned modifier.
    fn bins(
        &mut self,
        name: &str,
        expr: Option<&str>,
        count: Option<&str>,
        params: Option<&str>,
        bad_bins: &Arc<AtomicUsize>,
    ) -> anyhow::Result<(usize, Option<BinFn>)> {
        let Some(expr) = expr.filter(|e| e.trim().parse::<f64>().is_err()) else {
            // A constant bin must be 0: everything in one bin.
            if let Some(v) = expr.and_then(|e| e.trim().parse::<f64>().ok()) {
                if (v + 1.5) as i64 != 1 {
                    bail!("rcontrib: illegal non-zero constant for bin ({v})");
                }
            }
            return Ok((1, None));
        };
        let Some(count) = count else {
            bail!("rcontrib: unspecified or illegal bin count for modifier '{name}' (give -bn)");
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
            .with_context(|| format!("rcontrib: bad bin expression for modifier '{name}'"))?;
        let ce = own
            .compile_expr(count)
            .with_context(|| format!("rcontrib: bad bin count for modifier '{name}'"))?;
        let mut st = EvalState::for_env(&own);
        let n = (own.eval_expr(ce, &mut st, &SimpleRay::default()) + 0.5).floor();
        if let Some(err) = st.take_error() {
            bail!("rcontrib: bin count for modifier '{name}': {err}");
        }
        if n.is_nan() || n < 1.0 {
            bail!("rcontrib: illegal bin count {n} for modifier '{name}'");
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

/// Runs rcontrib with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rcontrib", args)?;
    run_job(parse(args)?, "rcontrib")
}

/// `daylit rcontrib`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// One output destination and the (receiver, bin) columns of each record written to it.
struct Stream {
    /// File name; standard output when `None`.
    path: Option<PathBuf>,
    /// Whether the name came from a `%s`.
    by_modifier: bool,
    /// The modifier of the first column.
    modifier: String,
    /// The bin, when the name came from a `%d`.
    bin: Option<usize>,
    /// Columns: offsets into a record's gathered values (`None`: a modifier not in the scene).
    cols: Vec<Option<usize>>,
}

/// The file name of modifier `m`'s bin `b` under output spec `spec`: rcontrib's `%s` and
/// `%d` (with printf flags and width). Returns the name and whether each was used.
fn output_name(spec: &str, m: &str, b: usize) -> anyhow::Result<(String, bool, bool)> {
    let (mut s, mut has_s, mut has_d) = (String::new(), false, false);
    let mut chars = spec.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            s.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek() {
            if f.is_ascii_digit() || "-+ #".contains(f) {
                flags.push(f);
                chars.next();
            } else {
                break;
            }
        }
        match chars.next() {
            Some('%') if flags.is_empty() => s.push('%'),
            Some('s') if !has_s => {
                has_s = true;
                s += &crate::output::printf_pad(m.to_string(), &flags, false);
            }
            Some('d' | 'i') if !has_d => {
                has_d = true;
                s += &crate::output::printf_pad(b.to_string(), &flags, true);
            }
            _ => bail!("rcontrib: bad output format '{spec}' (one %s for the modifier and one %d for the bin at most)"),
        }
    }
    Ok((s, has_s, has_d))
}

/// Runs a contribution job (rcontrib's, or one rfluxmtx made).
pub fn run_job(mut job: Job, prog: &str) -> anyhow::Result<ExitCode> {
    let load = LoadOptions::default();
    let scene = load_scene(&job.scene, &load)?;
    let compiled = compile(&scene);
    let mut renderer = Renderer::new(scene, compiled, job.render.clone(), &load.raypath)?;

    // Bins of every receiver, and where its values sit in a gathered record.
    let bad_bins = Arc::new(AtomicUsize::new(0));
    let mut cal = CalSet {
        inputs: &job.cal,
        raypath: &load.raypath,
        envs: HashMap::new(),
    };
    let mut modifiers = Vec::new();
    // Per receiver: number of bins and offset in the gathered values (None: not in scene).
    let mut layout: Vec<(usize, Option<usize>)> = Vec::new();
    let mut offset = 0;
    let mut seen = std::collections::HashSet::new();
    for r in &job.receivers {
        if r.name == "void" {
            bail!("{prog}: cannot track 'void' modifier");
        }
        if !seen.insert(r.name.clone()) {
            bail!("{prog}: duplicate modifier '{}'", r.name);
        }
        let (bins, bin) = match &r.bins {
            Bins::Expr {
                expr,
                count,
                params,
            } => cal.bins(
                &r.name,
                expr.as_deref(),
                count.as_deref(),
                params.as_deref(),
                &bad_bins,
            )?,
            Bins::Native { bins, f } => (*bins, Some(f.clone())),
        };
        match renderer.scene.find_modifier(&r.name) {
            Some(id) => {
                modifiers.push(ContribModifier {
                    modifier: id,
                    bins,
                    bin,
                });
                layout.push((bins, Some(offset)));
                offset += bins;
            }
            None => {
                eprintln!(
                    "{prog}: warning: modifier '{}' is not in the scene; its bins stay zero",
                    r.name
                );
                layout.push((bins, None));
            }
        }
    }
    renderer.set_contributions(ContribSpec {
        modifiers,
        values: job.values,
        split_direct: false,
    });

    // Output streams in order of first use.
    let mut streams: Vec<Stream> = Vec::new();
    let mut by_name: HashMap<Option<String>, usize> = HashMap::new();
    // Pictures named by bin alone (`%d`, no `%s`): a modifier's bins are numbered after those
    // of the modifiers before it with the same specification, so that none overwrites another.
    let mut picture_bins: HashMap<&str, usize> = HashMap::new();
    for (r, &(bins, off)) in job.receivers.iter().zip(&layout) {
        let first = match &r.out {
            Some(spec) if job.fmt_out == 'c' && !output_name(spec, &r.name, 0)?.1 => {
                let next = picture_bins.entry(spec.as_str()).or_insert(0);
                *next += bins;
                *next - bins
            }
            _ => 0,
        };
        for b in 0..bins {
            let (name, has_s, has_d) = match &r.out {
                Some(spec) => {
                    let (n, s, d) = output_name(spec, &r.name, first + b)?;
                    (Some(n), s, d)
                }
                None => (None, false, false),
            };
            if let Some(n) = name.as_deref().filter(|n| n.starts_with('!')) {
                bail!("{prog}: output to a command ({n}) is not supported; name a file");
            }
            let k = *by_name.entry(name.clone()).or_insert_with(|| {
                streams.push(Stream {
                    path: name.map(PathBuf::from),
                    by_modifier: has_s,
                    modifier: r.name.clone(),
                    bin: has_d.then_some(first + b),
                    cols: vec![],
                });
                streams.len() - 1
            });
            streams[k].cols.push(off.map(|o| o + b));
        }
    }

    let rays = match job.rays.take() {
        Some(r) => r,
        None => read_rays(job.fmt_in)?,
    };
    let mut records = group_records(&rays, job.accumulate, job.xres, job.yres, prog)?;
    let kept = if job.recover {
        recovered(&streams, &job, prog)?
    } else {
        vec![]
    };
    // Records every output already holds are not traced again.
    let done = kept.iter().map(Recovered::complete).min().unwrap_or(0);
    if job.recover && done == 0 {
        eprintln!("{prog}: warning: no previous data to recover");
    }
    records.drain(..done.min(records.len()));
    let mut outs = open_streams(&streams, &job, prog, &kept)?;
    for (out, k) in outs.iter_mut().zip(&kept) {
        let end = k.header + k.offsets.get(done).copied().unwrap_or(0);
        out.write_all(&k.bytes[..end])
            .with_context(|| format!("{prog}: cannot write output"))?;
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()?;
    let len = renderer.contrib_len();
    let rd = &renderer;
    let irradiance = job.irradiance_at_points;
    // Records in batches, written in input order before the next batch is traced.
    for batch in records.chunks(BATCH) {
        let values: Vec<Vec<DVec3>> = pool.install(|| {
            batch
                .par_iter()
                .map_init(
                    || rd.ctx(0),
                    |ctx, range| {
                        ctx.contrib.clear();
                        ctx.contrib.resize(len, DVec3::ZERO);
                        for k in range.clone() {
                            let ray = &rays[k];
                            let l = ray.dir.length();
                            if l == 0.0 || !l.is_finite() {
                                continue;
                            }
                            rd.reseed(ctx, k as u64);
                            let dir = ray.dir / l;
                            if irradiance {
                                rd.irradiance(ray.origin, dir, ctx);
                            } else {
                                rd.radiance(ray.origin, dir, ctx);
                            }
                        }
                        let scale = 1.0 / range.len().max(1) as f64;
                        ctx.contrib.iter().map(|v| *v * scale).collect()
                    },
                )
                .collect()
        });
        for (k, s) in streams.iter().enumerate() {
            let mut buf = Vec::new();
            for rec in &values {
                for c in &s.cols {
                    put(&mut buf, c.map_or(DVec3::ZERO, |c| rec[c]), job.fmt_out);
                }
                if job.fmt_out == 'a' {
                    buf.push(b'\n');
                }
            }
            outs[k]
                .write_all(&buf)
                .with_context(|| format!("{prog}: cannot write output"))?;
        }
    }
    let bad = bad_bins.load(Ordering::Relaxed);
    if bad > 0 {
        eprintln!("{prog}: warning: {bad} ray(s) had a bin number beyond -bn and were ignored");
    }
    finish_streams(outs, &streams, prog)?;
    Ok(ExitCode::SUCCESS)
}

/// Records traced in parallel and written at a time.
const BATCH: usize = 4096;

/// The input rays of each record: `accumulate` at a time (0: all of them), a ray with no
/// direction ending a record early; with `-y`, exactly the rays `y·max(x,1)` records need.
fn group_records(
    rays: &[Ray],
    accumulate: usize,
    xres: usize,
    yres: usize,
    prog: &str,
) -> anyhow::Result<Vec<std::ops::Range<usize>>> {
    let mut records = Vec::new();
    let mut start = 0;
    for (k, r) in rays.iter().enumerate() {
        let n = k + 1 - start;
        if (accumulate > 0 && n >= accumulate) || r.dir == DVec3::ZERO {
            records.push(start..k + 1);
            start = k + 1;
        }
    }
    if start < rays.len() {
        if accumulate > 1 {
            eprintln!("{prog}: warning: partial accumulation in final record");
        }
        records.push(start..rays.len());
    }
    if yres > 0 {
        let want = yres * xres.max(1);
        if records.len() < want {
            bail!(
                "{prog}: unexpected end of input: -y {yres} needs {want} records, standard input holds {}",
                records.len()
            );
        }
        records.truncate(want);
    }
    Ok(records)
}

/// Appends one RGB value in output format `fmt`, as rcontrib writes it.
fn put(buf: &mut Vec<u8>, v: DVec3, fmt: char) {
    match fmt {
        'f' => v
            .to_array()
            .iter()
            .for_each(|x| buf.extend_from_slice(&(*x as f32).to_ne_bytes())),
        'd' => v
            .to_array()
            .iter()
            .for_each(|x| buf.extend_from_slice(&x.to_ne_bytes())),
        'c' => buf.extend_from_slice(&daylit_image::hdr::float_to_rgbe([
            v.x as f32, v.y as f32, v.z as f32,
        ])),
        _ => {
            let mut s = String::new();
            for x in v.to_array() {
                daylit_matrix::write::format_e6(x, &mut s);
                s.push('\t');
            }
            buf.extend_from_slice(s.as_bytes());
        }
    }
}

/// An open output: standard output, or a temporary file renamed into place at the end.
enum Out {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File(std::io::BufWriter<tempfile::NamedTempFile>),
}

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match self {
            Out::Stdout(w) => w.write(b),
            Out::File(w) => w.write(b),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Out::Stdout(w) => w.flush(),
            Out::File(w) => w.flush(),
        }
    }
}

/// Opens every stream and writes its header as rcontrib does (`MODIFIER=`, `BIN=`,
/// `NROWS=`, `NCOLS=`, `NCOMP=`, `FORMAT=`, then a resolution line for single-column
/// pictures).
fn open_streams(
    streams: &[Stream],
    job: &Job,
    prog: &str,
    kept: &[Recovered],
) -> anyhow::Result<Vec<Out>> {
    let mut outs = Vec::new();
    for (k, s) in streams.iter().enumerate() {
        let mut out = match &s.path {
            None => Out::Stdout(std::io::BufWriter::new(std::io::stdout())),
            Some(p) => {
                if p.exists() && !job.force && !job.recover {
                    bail!(
                        "{prog}: cannot open '{}' for writing: file exists (-fo overwrites)",
                        p.display()
                    );
                }
                let dir = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(std::path::Path::new("."));
                let tmp = tempfile::Builder::new()
                    .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
                    .tempfile_in(dir)
                    .with_context(|| {
                        format!("{prog}: cannot open '{}' for writing", p.display())
                    })?;
                Out::File(std::io::BufWriter::new(tmp))
            }
        };
        let reclen = s.cols.len();
        if kept.get(k).is_some_and(|r| !r.bytes.is_empty()) {
            // The recovered file's own header and records are written instead.
            outs.push(out);
            continue;
        }
        if job.header {
            let mut h = String::from("#?RADIANCE\n");
            h += &job.command;
            h.push('\n');
            h += &format!("SOFTWARE= daylit {}\n", env!("CARGO_PKG_VERSION"));
            for l in daylit_matrix::header::date_lines() {
                h += &l;
                h.push('\n');
            }
            h += "NCOMP=3\n";
            if s.path.is_some() {
                if s.by_modifier || reclen == 1 {
                    h += &format!("MODIFIER={}\n", s.modifier);
                }
                if let Some(b) = s.bin {
                    h += &format!("BIN={b}\n");
                }
            }
            if job.yres > 0 {
                h += &format!("NROWS={}\n", job.yres * job.xres.max(1));
            }
            if job.xres == 0 || reclen > 1 {
                h += &format!("NCOLS={reclen}\n");
            }
            match job.fmt_out {
                'f' | 'd' => {
                    h += if cfg!(target_endian = "big") {
                        "BigEndian=1\n"
                    } else {
                        "BigEndian=0\n"
                    };
                    h += if job.fmt_out == 'f' {
                        "FORMAT=float\n"
                    } else {
                        "FORMAT=double\n"
                    };
                }
                'c' => h += "FORMAT=32-bit_rle_rgbe\n",
                _ => h += "FORMAT=ascii\n",
            }
            h.push('\n');
            out.write_all(h.as_bytes())?;
        }
        if has_resolution(s, job) {
            out.write_all(format!("-Y {:8} +X {:8}\n", job.yres, job.xres).as_bytes())?;
        }
        outs.push(out);
    }
    Ok(outs)
}

/// Whether a stream's header is followed by a picture's resolution line.
fn has_resolution(s: &Stream, job: &Job) -> bool {
    s.cols.len() == 1 && job.xres > 0 && job.yres > 0
}

/// What `-r` keeps of an existing output file.
struct Recovered {
    /// The file's bytes.
    bytes: Vec<u8>,
    /// Length of its header (and resolution line).
    header: usize,
    /// Byte offset after the header of the end of each complete record (index = records
    /// before it: `offsets[0] == 0`).
    offsets: Vec<usize>,
}

impl Recovered {
    /// Complete records after the header.
    fn complete(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// The complete records of every output file, for `-r` (ASCII too, which RADIANCE refuses).
/// A file that does not exist yet holds none; output to standard output cannot be recovered.
fn recovered(streams: &[Stream], job: &Job, prog: &str) -> anyhow::Result<Vec<Recovered>> {
    if job.accumulate == 0 {
        bail!("{prog}: -r with -c 0 (adding new rays to earlier results) is not supported by daylit; give -c N or recover without -r");
    }
    let mut kept = Vec::new();
    for s in streams {
        let Some(path) = &s.path else {
            bail!(
                "{prog}: -r recovers output files: give -o (standard output cannot be recovered)"
            );
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!(
                    "{prog}: warning: missing recover file '{}': it starts afresh",
                    path.display()
                );
                kept.push(Recovered {
                    bytes: vec![],
                    header: 0,
                    offsets: vec![0],
                });
                continue;
            }
            Err(e) => {
                return Err(e).with_context(|| format!("{prog}: cannot read {}", path.display()))
            }
        };
        let mut header = 0;
        if job.header {
            header = bytes
                .windows(2)
                .position(|w| w == b"\n\n")
                .map(|p| p + 2)
                .with_context(|| format!("{prog}: -r: {}: no complete header", path.display()))?;
        }
        if has_resolution(s, job) {
            header += bytes[header..]
                .iter()
                .position(|&c| c == b'\n')
                .map(|p| p + 1)
                .with_context(|| format!("{prog}: -r: {}: no resolution line", path.display()))?;
        }
        let body = &bytes[header..];
        let offsets: Vec<usize> = match job.fmt_out {
            'a' => std::iter::once(0)
                .chain(
                    body.iter()
                        .enumerate()
                        .filter(|(_, &c)| c == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect(),
            f => {
                let size = s.cols.len()
                    * match f {
                        'f' => 12,
                        'd' => 24,
                        _ => 4,
                    };
                (0..=body.len() / size.max(1)).map(|k| k * size).collect()
            }
        };
        kept.push(Recovered {
            offsets,
            header,
            bytes,
        });
    }
    Ok(kept)
}

/// Flushes every stream and moves the finished files into place.
fn finish_streams(outs: Vec<Out>, streams: &[Stream], prog: &str) -> anyhow::Result<()> {
    for (out, s) in outs.into_iter().zip(streams) {
        match out {
            Out::Stdout(mut w) => match w.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r.with_context(|| format!("{prog}: cannot write to standard output"))?,
            },
            Out::File(w) => {
                let path = s.path.as_ref().expect("file streams have a path");
                let tmp = w.into_inner().map_err(|e| {
                    anyhow::anyhow!("{prog}: cannot write {}: {}", path.display(), e.error())
                })?;
                tmp.persist(path)
                    .with_context(|| format!("{prog}: cannot replace {}", path.display()))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_follow_printf() {
        let (n, s, d) = output_name("sky_%s_%03d.hdr", "skyglow", 7).unwrap();
        assert_eq!(n, "sky_skyglow_007.hdr");
        assert!(s && d);
        let (n, s, d) = output_name("all.mtx", "m", 3).unwrap();
        assert_eq!(n, "all.mtx");
        assert!(!s && !d);
        assert_eq!(
            output_name("%-4s|%5d%%", "ab", 12).unwrap().0,
            "ab  |   12%"
        );
        assert!(output_name("%s%s", "a", 0).is_err());
        assert!(output_name("%f", "a", 0).is_err());
    }

    fn ray(d: f64) -> Ray {
        Ray {
            origin: DVec3::ZERO,
            dir: DVec3::new(0.0, 0.0, d),
        }
    }

    #[test]
    fn records_group_by_count_and_flush_on_zero_rays() {
        let rays = [ray(1.0), ray(1.0), ray(0.0), ray(1.0), ray(1.0), ray(1.0)];
        let r = group_records(&rays, 2, 0, 0, "t").unwrap();
        assert_eq!(r, vec![0..2, 2..3, 3..5, 5..6]);
        let r = group_records(&rays, 0, 0, 0, "t").unwrap();
        assert_eq!(r, vec![0..3, 3..6]);
        assert!(group_records(&rays, 1, 0, 7, "t").is_err());
        assert_eq!(group_records(&rays, 1, 0, 4, "t").unwrap().len(), 4);
    }
}
