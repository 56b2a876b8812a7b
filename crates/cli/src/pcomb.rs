//! `pcomb`: RADIANCE's picture calculator with RADIANCE's arguments. Output pixels are `ro`,
//! `go`, `bo` (or grey `lo`) of calcomp definitions (`-e`, `-f`, through `crates/cal`), by
//! default the sum of the inputs; inputs are pictures (files, `-`, `!command`) of one size,
//! each scaled as read by its `-s`, `-c` and, with `-o`, its own exposure undone. The
//! definitions see `ri(n)`, `gi(n)`, `bi(n)`, `li(n)` (with optional x and y offsets), `re`,
//! `ge`, `be`, `le`, `pa` of each input, `x`, `y`, `xres`, `yres`, `xmax`, `ymax`, `nfiles`,
//! `WE` and `PI`; `-x`/`-y` set the output size (expressions). Negative results become 0.
//! Float matrices (`-ff`, float inputs) and the view functions (`Ox`…`S`) are refused.

use anyhow::{bail, Context};
use daylit_cal::{CalEnv, EvalState, RayContext, RayPath, RayVar, VarId};
use daylit_image::filter::brightness;
use daylit_image::HdrImage;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str =
    "usage: pcomb [-w][-h][-x xr][-y yr][-e expr][-f file] [ [-o][-s f][-c r g b] hdr ..]";
/// How far `ri(n, dx, dy)` may look up or down (RADIANCE keeps a window of scanlines).
const MAX_Y_OFFSET: i64 = 32;

/// One input picture as the definitions see it.
struct Input {
    image: HdrImage,
    /// Per-channel factor applied as it is read (`-s`, `-c`, and `-o`'s 1/exposure).
    coef: [f32; 3],
    /// Recorded exposure per channel (`re`, `ge`, `be`; `le` is its brightness).
    exposure: [f32; 3],
    aspect: f64,
}

/// The names pcomb gives the definitions, in the order they are registered.
const EXTERNALS: [&str; 11] = [
    "ri", "gi", "bi", "li", "re", "ge", "be", "le", "pa", "x", "y",
];

/// The current output pixel and the inputs.
struct Pixel<'a> {
    inputs: &'a [Input],
    x: i64,
    y: i64,
    /// Input column and row (top-based) under this pixel.
    col: i64,
    row: i64,
}

impl Pixel<'_> {
    /// The input number of argument 1, or `Err(value)` for 0 (the count) or out of range.
    fn input(&self, n: f64) -> Result<&Input, f64> {
        let count = self.inputs.len() as f64;
        if n <= -0.5 || n >= count + 0.5 {
            return Err(0.0);
        }
        if n < 0.5 {
            return Err(count);
        }
        Ok(&self.inputs[(n - 0.5) as usize])
    }

    /// Input pixel at this position moved by (dx right, dy up), kept inside the picture.
    fn colour(&self, inp: &Input, args: &[f64]) -> [f32; 3] {
        let round = |d: f64| {
            if d < 0.0 {
                (d - 0.5) as i64
            } else {
                (d + 0.5) as i64
            }
        };
        let img = &inp.image;
        let dx = args.get(1).map_or(0, |&d| round(d));
        let dy = args
            .get(2)
            .map_or(0, |&d| round(d))
            .clamp(-MAX_Y_OFFSET, MAX_Y_OFFSET);
        let c = (self.col + dx).clamp(0, img.width as i64 - 1) as usize;
        let r = (self.row - dy).clamp(0, img.height as i64 - 1) as usize;
        let p = img.get(c, r);
        [p[0] * inp.coef[0], p[1] * inp.coef[1], p[2] * inp.coef[2]]
    }
}

impl RayContext for Pixel<'_> {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
    fn external(&self, id: u32, args: &[f64]) -> f64 {
        let name = EXTERNALS[id as usize];
        match name {
            "x" => return self.x as f64,
            "y" => return self.y as f64,
            _ => {}
        }
        let inp = match self.input(args.first().copied().unwrap_or(-1.0)) {
            Ok(i) => i,
            Err(v) => return v,
        };
        match name {
            "ri" => f64::from(self.colour(inp, args)[0]),
            "gi" => f64::from(self.colour(inp, args)[1]),
            "bi" => f64::from(self.colour(inp, args)[2]),
            "li" => brightness(self.colour(inp, args)),
            "re" => f64::from(inp.exposure[0]),
            "ge" => f64::from(inp.exposure[1]),
            "be" => f64::from(inp.exposure[2]),
            "le" => brightness(inp.exposure),
            _ => inp.aspect,
        }
    }
}

/// `pcomb` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut echo_header = true;
    // Definitions and output sizes in command-line order, applied once the inputs are read.
    let mut program: Vec<(char, String)> = Vec::new();
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let value = || {
            args.get(i + 1)
                .cloned()
                .with_context(|| format!("pcomb: {a} needs a value ({USAGE})"))
        };
        match a {
            "-x" | "-y" | "-e" | "-f" => {
                program.push((a.as_bytes()[1] as char, value()?));
                i += 1;
            }
            "-w" => {}
            "-h" => echo_header = !echo_header,
            "-ff" => bail!("pcomb: -ff (float matrix output) is not supported by daylit yet"),
            "-o" | "-s" | "-c" => break,
            _ => bail!("pcomb: unknown option {a} ({USAGE})"),
        }
        i += 1;
    }
    let mut header = vec![];
    let mut inputs: Vec<Input> = Vec::new();
    let mut view: Option<String> = None;
    while i < args.len() {
        let (mut coef, mut original) = ([1.0f32; 3], false);
        while i < args.len() && args[i].len() > 1 && args[i].starts_with('-') {
            let a = args[i].as_str();
            let num = |k: usize| -> anyhow::Result<f32> {
                let w = args
                    .get(i + k)
                    .with_context(|| format!("pcomb: {a} needs a value ({USAGE})"))?;
                w.parse()
                    .with_context(|| format!("pcomb: {a} {w}: a number expected"))
            };
            match a {
                "-o" => original = true,
                "-s" => {
                    let f = num(1)?;
                    coef = coef.map(|c| c * f);
                    i += 1;
                }
                "-c" => {
                    for (k, c) in coef.iter_mut().enumerate() {
                        *c *= num(k + 1)?;
                    }
                    i += 3;
                }
                _ => bail!("pcomb: {a}: options before an input are -o, -s and -c ({USAGE})"),
            }
            i += 1;
        }
        let spec = args
            .get(i)
            .with_context(|| format!("pcomb: input missing ({USAGE})"))?;
        let (name, bytes) = crate::input::read_operand("pcomb", spec)?;
        let image = HdrImage::decode(&bytes, &name).map_err(|e| anyhow::anyhow!("pcomb: {e}"))?;
        if let Some(first) = inputs.first() {
            if (first.image.width, first.image.height) != (image.width, image.height) {
                bail!("pcomb: {name}: resolution mismatch");
            }
        }
        if echo_header {
            header.push(format!("{name}:"));
        }
        let mut exposure = [1.0f32; 3];
        for l in &image.header {
            let t = l.trim_start();
            let is_exposure = t.starts_with("EXPOSURE=") || t.starts_with("COLORCORR=");
            if original && is_exposure {
                continue;
            }
            if echo_header {
                header.push(format!("\t{l}"));
            }
        }
        let e = image.exposure as f32;
        if original {
            coef = coef.map(|c| c * (1.0 / image.exposure) as f32);
        } else {
            exposure = exposure.map(|x| x * e);
        }
        if view.is_none() {
            view.clone_from(&image.view);
        }
        let aspect = image.pixel_aspect().unwrap_or(1.0);
        inputs.push(Input {
            image,
            coef,
            exposure,
            aspect,
        });
        i += 1;
    }
    let (xmax, ymax) = inputs
        .first()
        .map_or((0, 0), |f| (f.image.width, f.image.height));
    let mut env = CalEnv::plain();
    for name in EXTERNALS {
        env.define_external(name);
    }
    // xres and yres default to the input size; -x, -y, -e and -f may redefine them.
    let constants = format!(
        "PI : 3.14159265358979323846; nfiles : {}; xmax : {xmax}; ymax : {ymax}; WE : 179; \
         xres = xmax; yres = ymax;",
        inputs.len()
    );
    env.load_str("<pcomb>", &constants)
        .map_err(|e| anyhow::anyhow!("pcomb: {e}"))?;
    let raypath = RayPath::from_env();
    for (kind, text) in &program {
        let fail = |e: daylit_cal::CalError| anyhow::anyhow!("pcomb: {e}");
        match kind {
            'x' | 'y' => {
                let id = env.compile_expr(text).map_err(fail)?;
                let v = env.eval_expr(id, &mut EvalState::new(), &daylit_cal::NoRay);
                let name = if *kind == 'x' { "xres" } else { "yres" };
                env.load_str("<pcomb>", &format!("{name} : {v};"))
                    .map_err(fail)?;
            }
            'e' => env.load_str("command line -e", text).map_err(fail)?,
            _ => env.load_file_global(text, &raypath).map_err(fail)?,
        }
    }
    let resolution = |name: &str| -> i64 {
        env.variable(name).map_or(0, |v| {
            (env.eval_var(v, &mut EvalState::new(), &daylit_cal::NoRay) + 0.5) as i64
        })
    };
    let (xres, yres) = (resolution("xres"), resolution("yres"));
    if xres <= 0 || yres <= 0 || xres > 1 << 16 || yres > 1 << 16 {
        bail!("pcomb: illegal output resolution {xres}x{yres}");
    }
    // What each pixel evaluates: lo for grey, else ro, go, bo (each defaulting to the sum
    // of the inputs), together so that they share variable values.
    let grey = env.variable("lo");
    let channels: Vec<Option<VarId>> = match grey {
        Some(l) => vec![Some(l)],
        None => ["ro", "go", "bo"].iter().map(|n| env.variable(n)).collect(),
    };
    let ids: Vec<VarId> = channels.iter().flatten().copied().collect();
    if inputs.is_empty() && ids.is_empty() {
        bail!("pcomb: no input pictures and no ro, go, bo or lo defined ({USAGE})");
    }
    let mut values = vec![0.0; ids.len()];
    let mut out = HdrImage::new(xres as usize, yres as usize);
    let mut st = EvalState::for_env(&env);
    for orow in 0..yres {
        let y = yres - 1 - orow;
        let ytarget = ((y as f64 + 0.5) * ymax as f64 / yres as f64) as i64;
        for x in 0..xres {
            let px = Pixel {
                inputs: &inputs,
                x,
                y,
                col: ((x as f64 + 0.5) * xmax as f64 / xres as f64) as i64,
                row: ymax as i64 - 1 - ytarget,
            };
            env.eval_vars(&ids, &mut values, &mut st, &px);
            let mut defined = values.iter();
            let mut c = [0.0f32; 3];
            for (k, ch) in channels.iter().enumerate() {
                let d = match ch {
                    Some(_) => *defined.next().expect("one value per definition"),
                    None => inputs
                        .iter()
                        .map(|inp| f64::from(px.colour(inp, &[])[k]))
                        .sum(),
                };
                c[k] = d.max(0.0) as f32;
            }
            if grey.is_some() {
                c = [c[0]; 3];
            }
            if let Some(e) = st.take_error() {
                bail!("pcomb: {e}");
            }
            out.set(x as usize, orow as usize, c);
        }
    }
    out.header = daylit_radfile::header::date_lines().to_vec();
    out.header.extend(header);
    out.header
        .push(daylit_radfile::header::command_line("pcomb", args));
    if let Some(v) = view {
        out.header.push(format!("VIEW= {v}"));
    }
    let mut so = std::io::stdout().lock();
    match so.write_all(&out.encode(true)).and_then(|_| so.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("pcomb"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
