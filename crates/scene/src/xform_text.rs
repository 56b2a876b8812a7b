//! RADIANCE's `xform` as a program: scene text transformed into scene text, as RADIANCE's
//! xform writes it (its header line, comments passed through, each primitive in its own number
//! format; `-n -m -c -e -I`, transforms, arrays `-a`, argument files `-f`). Inline commands are
//! expanded where daylit runs them natively (the generators, gensky, gendaylit, xform); another
//! command is an error that names `-c`, which passes commands through unexpanded.

use crate::load::{generated_text, LoadOptions, TEXT_GENERATORS};
use crate::types::PrimType;
use crate::xform::{parse_transform, Transform};
use crate::Loc;
use daylit_radfile::header::word;
use daylit_radfile::printf::{format_g, format_g18};
use daylit_radfile::scan::{atof, atoi, is_float};
use glam::DVec3;
use std::path::{Path, PathBuf};

/// Where an xform run reads from and writes to.
pub struct Xform<'a> {
    /// Function files and data of generators; scene files are searched on its RAYPATH.
    pub opts: &'a LoadOptions,
    /// Standard input, read once when first needed (and kept for arrays).
    pub stdin: &'a mut dyn FnMut() -> std::io::Result<Vec<u8>>,
    /// The text written.
    pub out: String,
    /// Warnings for standard error.
    pub warnings: Vec<String>,
    stdin_text: Option<Vec<u8>>,
}

/// One invocation's settings.
struct Inv {
    args: Vec<String>,
    newmod: Option<String>,
    prefix: Option<String>,
    expand: bool,
    invert: bool,
    /// Where the transform options start and end in `args`.
    xfa: usize,
    xac: usize,
    xf: Transform,
    sca: f64,
    reverse: bool,
}

fn loc() -> Loc {
    Loc {
        source: "xform".into(),
        line: 0,
        col: 0,
    }
}

fn g12(x: f64) -> String {
    format!("{:>12}", format_g(x))
}

/// Reads scene text as RADIANCE's xform does: words (quoted or not), comment and command lines.
struct Reader<'t> {
    t: &'t [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) -> Option<u8> {
        while self.pos < self.t.len() && self.t[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.t.get(self.pos).copied()
    }

    fn word(&mut self) -> Option<String> {
        let c = self.skip_space()?;
        let start;
        let w = if c == b'"' || c == b'\'' {
            self.pos += 1;
            start = self.pos;
            while self.pos < self.t.len() && self.t[self.pos] != c {
                self.pos += 1;
            }
            let w = &self.t[start..self.pos];
            self.pos = (self.pos + 1).min(self.t.len());
            w
        } else {
            start = self.pos;
            while self.pos < self.t.len() && !self.t[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            &self.t[start..self.pos]
        };
        Some(String::from_utf8_lossy(w).into_owned())
    }

    /// The rest of the line (with `\` continuations joined), without its newline.
    fn line(&mut self) -> String {
        let mut s = Vec::new();
        while self.pos < self.t.len() {
            let c = self.t[self.pos];
            self.pos += 1;
            if c == b'\\' && self.t.get(self.pos) == Some(&b'\n') {
                self.pos += 1;
                continue;
            }
            if c == b'\n' {
                break;
            }
            s.push(c);
        }
        String::from_utf8_lossy(&s).into_owned()
    }
}

/// String, integer and real arguments of one primitive.
struct Args {
    s: Vec<String>,
    f: Vec<f64>,
}

fn read_args(r: &mut Reader) -> Option<Args> {
    let count = |r: &mut Reader| -> Option<usize> {
        let w = r.word()?;
        is_float(w.as_bytes())
            .then(|| atoi(&w))
            .filter(|&n| n >= 0)
            .map(|n| n as usize)
    };
    let ns = count(r)?;
    let s = (0..ns).map(|_| r.word()).collect::<Option<Vec<_>>>()?;
    if count(r)? != 0 {
        return None;
    }
    let nf = count(r)?;
    let f = (0..nf)
        .map(|_| {
            r.word()
                .filter(|w| is_float(w.as_bytes()))
                .map(|w| atof(&w))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Args { s, f })
}

fn v3(f: &[f64]) -> DVec3 {
    DVec3::new(f[0], f[1], f[2])
}

fn line3(v: DVec3) -> String {
    format!(
        " {} {} {}\n",
        format_g18(v.x),
        format_g18(v.y),
        format_g18(v.z)
    )
}

impl<'a> Xform<'a> {
    /// A run reading standard input through `stdin`.
    pub fn new(
        opts: &'a LoadOptions,
        stdin: &'a mut dyn FnMut() -> std::io::Result<Vec<u8>>,
    ) -> Self {
        Xform {
            opts,
            stdin,
            out: String::new(),
            warnings: Vec::new(),
            stdin_text: None,
        }
    }

    /// Runs xform with `args` (the program's name first), files found from `cwd`.
    pub fn run(&mut self, args: &[String], cwd: &Path) -> Result<(), String> {
        if let Some(fi) = args.iter().position(|a| a == "-f") {
            return self.argument_file(args, fi, cwd);
        }
        if let Some(ai) = args.iter().position(|a| a == "-a") {
            return self.array(args, ai, cwd);
        }
        let inv = options(args)?;
        self.out.push('#');
        for a in &args[..inv.xac] {
            self.out.push(' ');
            self.out.push_str(a);
        }
        self.out.push('\n');
        if inv.xac == args.len() {
            let text = self.standard_input()?;
            return self.stream(&inv, &text, "standard input", cwd);
        }
        for name in &args[inv.xac..] {
            let path = find(self.opts, name, cwd)
                .ok_or_else(|| format!("xform: cannot find file \"{name}\""))?;
            let text =
                std::fs::read(&path).map_err(|e| format!("xform: {}: {e}", path.display()))?;
            let shown = path.display().to_string();
            let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
            let dir = if inv.expand {
                path.parent().map_or(cwd.to_path_buf(), Path::to_path_buf)
            } else {
                cwd.to_path_buf()
            };
            self.stream(&inv, &text, &shown, &dir)?;
        }
        Ok(())
    }

    fn standard_input(&mut self) -> Result<Vec<u8>, String> {
        if self.stdin_text.is_none() {
            let t =
                (self.stdin)().map_err(|e| format!("xform: cannot read standard input: {e}"))?;
            self.stdin_text = Some(t);
        }
        Ok(self.stdin_text.clone().unwrap_or_default())
    }

    /// `-a N`: N copies, the transform after `-a` applied 0 … N−1 times, numbered into names.
    fn array(&mut self, args: &[String], ai: usize, cwd: &Path) -> Result<(), String> {
        let n = args
            .get(ai + 1)
            .map(|w| atoi(w))
            .filter(|&n| n > 0)
            .ok_or("xform: missing count for -a option")?;
        // A typing slip such as `-a 3000 -a 3000` must fail, not fill the memory.
        let copies = args
            .windows(2)
            .filter(|w| w[0] == "-a")
            .map(|w| atoi(&w[1]).max(1) as u64)
            .fold(1u64, u64::saturating_mul);
        if copies > crate::load::MAX_COPIES {
            return Err(format!(
                "xform: arrays of {copies} copies exceed the limit of {}",
                crate::load::MAX_COPIES
            ));
        }
        let old = (1..args.len())
            .find(|&i| args[i - 1] == "-n")
            .map(|i| args[i].clone());
        for k in 0..n {
            let id = match &old {
                Some(o) => format!("{o}.{k}"),
                None => format!("a{k}"),
            };
            let mut sub: Vec<String> = args.to_vec();
            if let Some(i) = (1..sub.len()).find(|&i| sub[i - 1] == "-n") {
                sub[i] = id.clone();
            }
            sub[ai] = "-i".into();
            sub[ai + 1] = k.to_string();
            if old.is_none() {
                sub.splice(1..1, ["-n".to_string(), id]);
            }
            self.run(&sub, cwd)?;
        }
        Ok(())
    }

    /// `-f FILE`: one invocation per line of the file, numbered into names.
    fn argument_file(&mut self, args: &[String], fi: usize, cwd: &Path) -> Result<(), String> {
        let name = args
            .get(fi + 1)
            .filter(|w| !(w.starts_with('-') && w.len() > 1))
            .ok_or("xform: missing file for -f option")?;
        let text = if name == "-" {
            String::from_utf8_lossy(&self.standard_input()?).into_owned()
        } else {
            let p = cwd.join(name);
            let t = std::fs::read(&p)
                .map_err(|_| format!("xform: cannot open argument file \"{name}\""))?;
            String::from_utf8_lossy(&t).into_owned()
        };
        let lines = text.replace("\\\n", "");
        if !lines.lines().any(|l| !l.is_empty() && !l.starts_with('#')) {
            return Err(format!("xform: empty argument file \"{name}\""));
        }
        let mut k = 0;
        for l in lines.lines() {
            if l.is_empty() || l.starts_with('#') {
                self.out.push_str(l);
                self.out.push('\n');
                continue;
            }
            let l = l.strip_prefix('!').unwrap_or(l);
            let l = l.strip_prefix("xform ").unwrap_or(l);
            let words = shlex::split(l).ok_or_else(|| format!("xform: cannot split \"{l}\""))?;
            let mut sub: Vec<String> = args[..fi].to_vec();
            sub.extend(words);
            sub.extend_from_slice(&args[fi + 2..]);
            match (2..sub.len()).find(|&i| sub[i - 1] == "-n") {
                Some(i) => sub[i] = format!("{}.{k}", sub[i]),
                None => sub
                    .splice(1..1, ["-n".to_string(), format!("i{k}")])
                    .for_each(drop),
            }
            self.run(&sub, cwd)?;
            k += 1;
        }
        Ok(())
    }

    /// Transforms scene text `t` (named `name` in messages), commands run in `cwd`.
    fn stream(&mut self, inv: &Inv, t: &[u8], name: &str, cwd: &Path) -> Result<(), String> {
        let mut r = Reader { t, pos: 0 };
        let mut objects = 0;
        while let Some(c) = r.skip_space() {
            if c == b'#' {
                let start = r.pos;
                let end = t[start..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(t.len(), |i| start + i + 1);
                self.out.push_str(&String::from_utf8_lossy(&t[start..end]));
                r.pos = end;
                continue;
            }
            objects += 1;
            if c == b'!' {
                let cmd = r.line();
                self.command(inv, &cmd, name, cwd)?;
            } else {
                self.object(inv, &mut r, name)?;
            }
        }
        if objects == 0 {
            self.warnings
                .push(format!("xform: ({name}): warning - empty file"));
        }
        Ok(())
    }

    fn command(&mut self, inv: &Inv, cmd: &str, name: &str, cwd: &Path) -> Result<(), String> {
        if !inv.expand {
            self.out.push('\n');
            self.out.push_str(cmd);
            if inv.xac > 1 {
                self.out.push_str(&format!(" | {} -e", inv.args[0]));
                for (i, a) in inv.args[..inv.xac].iter().enumerate().skip(1) {
                    if i >= inv.xfa || a != "-c" {
                        self.out.push(' ');
                        self.out.push_str(a);
                    }
                }
            }
            self.out.push('\n');
            return Ok(());
        }
        let text = self.command_text(&cmd[1..], name, cwd)?;
        self.stream(inv, text.as_bytes(), cmd, cwd)
    }

    /// The scene text an inline command (without its `!`) writes, where daylit runs it
    /// natively (the generators, gensky, gendaylit and xform, in pipelines too), from
    /// directory `cwd`; `name` names the file it came from in messages. What another program
    /// would have done is an error.
    pub fn inline_text(
        opts: &LoadOptions,
        cmd: &str,
        name: &str,
        cwd: &Path,
    ) -> Result<(String, Vec<String>), String> {
        let mut none = || -> std::io::Result<Vec<u8>> { Ok(Vec::new()) };
        let mut x = Xform::new(opts, &mut none);
        let text = x.command_text(cmd, name, cwd)?;
        Ok((text, x.warnings))
    }

    /// The scene text a command writes, where daylit runs it natively.
    fn command_text(&mut self, cmd: &str, name: &str, cwd: &Path) -> Result<String, String> {
        let refuse = || {
            format!(
                "xform: ({name}): cannot execute \"!{cmd}\": daylit runs genbox, genprism, genblinds, genrev, gensurf, genworm, gensky, gendaylit and xform itself; -c passes commands through unexpanded"
            )
        };
        let stages = crate::load::split_pipeline(cmd).ok_or_else(refuse)?;
        let mut text: Option<String> = None;
        for s in stages {
            let prog = s
                .first()
                .map(|w| w.rsplit('/').next().unwrap_or(w))
                .unwrap_or("");
            let rest = &s[1..];
            let l = loc();
            let e = |e: crate::SceneError| format!("xform: ({name}): {e}");
            text = Some(match (prog, text.take()) {
                ("xform", input) => {
                    let mut input = input.map(String::into_bytes);
                    let mut feed = || -> std::io::Result<Vec<u8>> {
                        input
                            .take()
                            .ok_or_else(|| std::io::Error::other("no input"))
                    };
                    let mut sub = Xform::new(self.opts, &mut feed);
                    let mut args = vec!["xform".to_string()];
                    args.extend_from_slice(rest);
                    sub.run(&args, cwd)?;
                    self.warnings.append(&mut sub.warnings);
                    sub.out
                }
                ("genbox", None) => crate::genbox::genbox_text(rest, &l).map_err(e)?,
                ("genprism", None) => crate::genprism::genprism_text(rest, &l).map_err(e)?,
                (p, None) if TEXT_GENERATORS.contains(&p) => {
                    generated_text(self.opts, p, rest, &l, cwd).map_err(e)?
                }
                ("gensky", None) => daylit_sky::gensky::gensky_text(rest)
                    .map(|o| o.text)
                    .map_err(|x| format!("xform: ({name}): gensky: {x}"))?,
                ("gendaylit", None) => daylit_sky::gendaylit::gendaylit_text(rest)
                    .map(|o| o.text)
                    .map_err(|x| format!("xform: ({name}): gendaylit: {x}"))?,
                _ => return Err(refuse()),
            });
        }
        text.ok_or_else(refuse)
    }

    fn object(&mut self, inv: &Inv, r: &mut Reader, file: &str) -> Result<(), String> {
        // Counted only for a message: a large scene must not be rescanned for every object.
        let at = r.pos;
        let text = r.t;
        let line = || 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
        let m = r.word().unwrap_or_default();
        let typ = r.word().unwrap_or_else(|| "EOF".into());
        let t = PrimType::from_name(&typ).ok_or_else(|| {
            format!(
                "xform: {file}:{}: unknown object type \"{typ}\" (after modifier \"{m}\")",
                line()
            )
        })?;
        let name = r.word().unwrap_or_default();
        let modifier = t.is_modifier();
        let o = &mut self.out;
        o.push('\n');
        if modifier {
            o.push_str(&format!("{} {typ} ", word(&m)));
        } else {
            let m = inv.newmod.as_deref().unwrap_or(&m);
            let shown = if inv.invert {
                t.inverted().name()
            } else {
                t.name()
            };
            o.push_str(&format!("{} {shown} ", word(m)));
        }
        match (&inv.prefix, modifier) {
            (Some(p), false) => o.push_str(&word(&format!("{p}.{name}"))),
            _ => o.push_str(&word(&name)),
        }
        o.push('\n');
        let bad = || {
            format!(
                "xform: {file}:{}: bad {typ} \"{name}\" (its arguments do not fit the type)",
                line()
            )
        };
        if t == PrimType::Alias {
            let target = r.word().ok_or_else(bad)?;
            o.push_str(&format!("\t{target}\n"));
            return Ok(());
        }
        let a = read_args(r).ok_or_else(bad)?;
        let text = inv.args_text(t, &a).ok_or_else(bad)?;
        self.out.push_str(&text);
        Ok(())
    }
}

/// The initial options and the transform of one invocation.
fn options(args: &[String]) -> Result<Inv, String> {
    let mut inv = Inv {
        args: args.to_vec(),
        newmod: None,
        prefix: None,
        expand: true,
        invert: false,
        xfa: 0,
        xac: 0,
        xf: Transform::default(),
        sca: 1.0,
        reverse: false,
    };
    let mut a = 1;
    while a < args.len() {
        let w = args[a].as_str();
        let has_value = a + 1 < args.len();
        match w {
            "-m" if has_value => {
                a += 1;
                inv.newmod.get_or_insert(args[a].clone());
            }
            "-n" if has_value => {
                a += 1;
                inv.prefix = Some(match inv.prefix.take() {
                    Some(p) => format!("{p}.{}", args[a]),
                    None => args[a].clone(),
                });
            }
            "-c" => inv.expand = false,
            "-e" => inv.expand = true,
            "-I" => inv.invert = !inv.invert,
            _ => break,
        }
        a += 1;
    }
    inv.xfa = a;
    inv.xf = parse_transform(args, &mut a, &loc()).map_err(|e| e.to_string())?;
    inv.sca = inv.xf.scale.abs();
    inv.reverse = (inv.xf.scale < 0.0) != inv.invert;
    if args.get(a).is_some_and(|w| w.starts_with('-')) {
        return Err(format!("xform: command line error at '{}'", args[a]));
    }
    inv.xac = a;
    Ok(inv)
}

impl Inv {
    /// The argument lines of a primitive of type `t`, transformed; `None` when its arguments
    /// do not fit the type.
    fn args_text(&self, t: PrimType, a: &Args) -> Option<String> {
        let xf = &self.xf;
        let (s, f) = (&a.s, &a.f);
        let plain_s = |n: usize| -> String {
            let mut o = format!("{n}");
            for w in s {
                o.push(' ');
                o.push_str(&word(w));
            }
            o
        };
        let reals18 = |f: &[f64]| -> String {
            let mut o = format!("{}", f.len());
            for v in f {
                o.push(' ');
                o.push_str(&format_g18(*v));
            }
            o
        };
        let none_s = s.is_empty();
        Some(match t {
            PrimType::Source if none_s && f.len() == 4 => {
                let d = xf.vector(v3(f));
                format!(
                    "0\n0\n4 {} {} {} {}\n",
                    format_g18(d.x),
                    format_g18(d.y),
                    format_g18(d.z),
                    format_g18(f[3])
                )
            }
            PrimType::Sphere | PrimType::Bubble if none_s && f.len() == 4 => {
                let c = xf.point(v3(f));
                format!(
                    "0\n0\n4 {} {} {} {}\n",
                    format_g18(c.x),
                    format_g18(c.y),
                    format_g18(c.z),
                    format_g18(f[3] * self.sca)
                )
            }
            PrimType::Polygon if none_s && f.len() % 3 == 0 => {
                let mut o = format!("0\n0\n{}\n", f.len());
                let n = f.len() / 3;
                for k in 0..n {
                    let j = if self.reverse { n - 1 - k } else { k };
                    o.push_str(&line3(xf.point(v3(&f[3 * j..]))));
                }
                o
            }
            PrimType::Cone | PrimType::Cup if none_s && f.len() == 8 => format!(
                "0\n0\n8\n{}{} {} {}\n",
                line3(xf.point(v3(f))),
                line3(xf.point(v3(&f[3..]))),
                format_g18(f[6] * self.sca),
                format_g18(f[7] * self.sca)
            ),
            PrimType::Cylinder | PrimType::Tube if none_s && f.len() == 7 => format!(
                "0\n0\n7\n{}{} {}\n",
                line3(xf.point(v3(f))),
                line3(xf.point(v3(&f[3..]))),
                format_g18(f[6] * self.sca)
            ),
            PrimType::Ring if none_s && f.len() == 8 => {
                let mut d = xf.vector(v3(&f[3..]));
                if self.invert {
                    d = -d;
                }
                format!(
                    "0\n0\n8\n{}{} {} {}\n",
                    line3(xf.point(v3(f))),
                    line3(d),
                    format_g18(f[6] * self.sca),
                    format_g18(f[7] * self.sca)
                )
            }
            PrimType::Glow if none_s && f.len() == 4 => format!(
                "0\n0\n4 {} {} {} {}\n",
                format_g18(f[0]),
                format_g18(f[1]),
                format_g18(f[2]),
                format_g18(f[3] * self.sca)
            ),
            PrimType::Spotlight if none_s && f.len() == 7 => {
                let d = xf.vector(v3(&f[4..]));
                format!(
                    "0\n0\n7 {} {} {} {}\n\t{} {} {}\n",
                    format_g18(f[0]),
                    format_g18(f[1]),
                    format_g18(f[2]),
                    format_g18(f[3]),
                    format_g18(d.x),
                    format_g18(d.y),
                    format_g18(d.z)
                )
            }
            PrimType::Dielectric if none_s && f.len() == 5 => {
                let p = |c: f64| g12(c.powf(1.0 / self.sca));
                format!(
                    "0\n0\n5 {} {} {} {} {}\n",
                    p(f[0]),
                    p(f[1]),
                    p(f[2]),
                    g12(f[3]),
                    g12(f[4])
                )
            }
            PrimType::Interface if none_s && f.len() == 8 => {
                let p = |c: f64| g12(c.powf(1.0 / self.sca));
                format!(
                    "0\n0\n8\n{} {} {} {}\n{} {} {} {}\n",
                    p(f[0]),
                    p(f[1]),
                    p(f[2]),
                    g12(f[3]),
                    p(f[4]),
                    p(f[5]),
                    p(f[6]),
                    g12(f[7])
                )
            }
            PrimType::Mist if f.len() <= 7 => {
                let mut o = format!("{}", s.len());
                for w in s {
                    o.push(' ');
                    match &self.prefix {
                        None => o.push_str(w),
                        Some(p) => o.push_str(
                            &w.split_inclusive('>')
                                .map(|part| format!("{p}.{part}"))
                                .collect::<String>(),
                        ),
                    }
                }
                o.push_str(&format!("\n0\n{}", f.len()));
                if f.len() > 2 {
                    for c in &f[..3] {
                        o.push(' ');
                        o.push_str(&g12(c / self.sca));
                    }
                }
                for c in f.iter().skip(3) {
                    o.push(' ');
                    o.push_str(&g12(*c));
                }
                o.push('\n');
                o
            }
            PrimType::Brighttext | PrimType::Colortext | PrimType::Mixtext if f.len() >= 9 => {
                let mut o = plain_s(s.len());
                o.push_str(&format!("\n0\n{}\n", f.len()));
                o.push_str(&line3(xf.point(v3(f))));
                o.push_str(&line3(xf.vector(v3(&f[3..]))));
                o.push_str(line3(xf.vector(v3(&f[6..]))).trim_end_matches('\n'));
                for (i, v) in f.iter().enumerate().skip(9) {
                    if i % 3 == 0 {
                        o.push('\n');
                    }
                    o.push(' ');
                    o.push_str(&format_g18(*v));
                }
                o.push('\n');
                o
            }
            t if t.takes_transform() || matches!(t, PrimType::Instance | PrimType::Mesh) => {
                let xfw = &self.args[self.xfa..self.xac];
                let reset = if !xfw.is_empty() && xfw[0] != "-i" {
                    2
                } else {
                    0
                };
                let mut o = plain_s(s.len() + reset + xfw.len());
                if reset > 0 {
                    o.push_str(" -i 1");
                }
                for w in xfw {
                    o.push(' ');
                    o.push_str(w);
                }
                format!("{o}\n0\n{}\n", reals18(f))
            }
            PrimType::Source
            | PrimType::Sphere
            | PrimType::Bubble
            | PrimType::Polygon
            | PrimType::Cone
            | PrimType::Cup
            | PrimType::Cylinder
            | PrimType::Tube
            | PrimType::Ring
            | PrimType::Glow
            | PrimType::Spotlight
            | PrimType::Dielectric
            | PrimType::Interface
            | PrimType::Mist
            | PrimType::Brighttext
            | PrimType::Colortext
            | PrimType::Mixtext => return None,
            _ => format!("{}\n0\n{}\n", plain_s(s.len()), reals18(f)),
        })
    }
}

/// A scene file as xform finds it: as given when it starts with `.`, `/` or `~`, else on the
/// RAYPATH (its relative folders taken from `cwd`).
fn find(opts: &LoadOptions, name: &str, cwd: &Path) -> Option<PathBuf> {
    if name.starts_with(['.', '/', '~']) {
        let p = cwd.join(name);
        return p.is_file().then_some(p);
    }
    opts.raypath
        .dirs()
        .iter()
        .map(|d| cwd.join(d).join(name))
        .find(|p| p.is_file())
}
