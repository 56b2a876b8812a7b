//! `rad`: RADIANCE's executive. Reads a rad input file (`daylit_scene::rif`), builds the
//! octree with `oconv` when the scene files are newer, and renders each view with `rpict` and
//! `pfilt`, printing each command as RADIANCE's rad prints it (`-n`: print only; `-s`: run
//! silently). The commands run through the shell, with the folder rad was called from first on
//! the PATH, so that a `rad` link made by `daylit install-links` runs daylit's programs.
//! With `illum`, mkillum makes secondary sources as RADIANCE's rad has it do. What daylit
//! cannot run is refused by name before anything runs: photon maps (`PGMAP`, `PCMAP`:
//! mkpmap), `-o` (rvu), and continuing an interrupted picture.

use crate::getbbox::scene_box;
use crate::getinfo::scene_cube;
use anyhow::{bail, Context};
use daylit_scene::rif::{Rif, Var};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

const USAGE: &str =
    "Usage: rad [-w][-s][-n|-N npr][-t][-e][-V][-v view][-o dev] rfile [VAR=value ..]";

/// What the command line asks of rad.
struct Flags {
    silent: bool,
    dry_run: bool,
    touch_only: bool,
    explicate: bool,
    say_view: bool,
    no_warnings: bool,
    view: Option<String>,
    /// `-N`: processes for mkillum (`-n`).
    processes: i64,
}

/// Runs rad with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut f = Flags {
        silent: false,
        dry_run: false,
        touch_only: false,
        explicate: false,
        say_view: false,
        no_warnings: false,
        view: None,
        processes: 1,
    };
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let value = |i: usize| args.get(i + 1).cloned().context(USAGE);
        match args[i].as_bytes().get(1) {
            Some(b's') => f.silent = true,
            Some(b'n') => f.dry_run = true,
            // daylit's rpict uses every core, so views render one after another; as in
            // RADIANCE, no processes means a dry run.
            Some(b'N') => {
                f.processes = daylit_radfile::scan::atoi(&value(i)?);
                f.dry_run |= f.processes <= 0;
                i += 1;
            }
            Some(b't') => f.touch_only = true,
            Some(b'e') => f.explicate = true,
            Some(b'V') => f.say_view = true,
            Some(b'w') => f.no_warnings = true,
            Some(b'v') => {
                f.view = Some(value(i)?);
                i += 1;
            }
            Some(b'o') => bail!(
                "-o runs rvu, RADIANCE's interactive renderer, which daylit does not have; \
                 `daylit live` shows a scene interactively"
            ),
            _ => bail!(USAGE),
        }
        i += 1;
    }
    let Some(rif_name) = args.get(i) else {
        bail!(USAGE)
    };
    let text = std::fs::read_to_string(rif_name)
        .with_context(|| format!("cannot read rad input file {rif_name}"))?;
    let mut rif = Rif::parse(&text, rif_name)?;
    for a in &args[i + 1..] {
        match rif.assign(a) {
            Err(_) => bail!("unknown setting: {a}"),
            Ok(false) => eprintln!("rad: bad variable assignment: {a} (ignored)"),
            Ok(true) => {}
        }
    }
    for w in rif.check()? {
        if !f.no_warnings {
            eprintln!("rad: {w}");
        }
    }
    Rad::new(rif, root_name(rif_name), f)?.run()?;
    Ok(ExitCode::SUCCESS)
}

/// A file name without its suffix (from the last `.` after the last `/`, as rad names the
/// octree and pictures).
fn root_name(name: &str) -> String {
    let dir = name.rfind('/').unwrap_or(0);
    match name.rfind('.') {
        Some(k) if k > dir => name[..k].to_string(),
        _ => name.to_string(),
    }
}

/// A file's modification time in seconds, 0 when it does not exist (RADIANCE's `fdate`).
fn file_date(path: &str) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The words of a variable's value, quotes removed, as the scene reader splits words.
fn words(value: &str) -> Vec<String> {
    let mut lexer = daylit_scene::lexer::Lexer::new(value.as_bytes(), "rad".into());
    std::iter::from_fn(|| lexer.word().map(|w| w.text)).collect()
}

/// The latest date of the files a variable lists (inline commands count as date 1); an
/// error names a file that is missing.
fn latest_date(rif: &Rif, var: Var) -> anyhow::Result<u64> {
    let mut last = 0;
    for w in words(rif.get(var).unwrap_or("")) {
        if w.starts_with('!') || w.starts_with("\\!") {
            last = last.max(1);
            continue;
        }
        let d = file_date(&w);
        if d == 0 {
            bail!("{w}: no such file ({} in the rad input file)", var.name());
        }
        last = last.max(d);
    }
    Ok(last)
}

/// One run of rad: the variables and the dates of the files they name.
struct Rad {
    rif: Rif,
    root: String,
    f: Flags,
    octree: String,
    octree_date: u64,
    scene_date: u64,
    material_date: u64,
    /// With `illum`: the octree before mkillum (`…0.oct`) and after it (`…1.oct`), which is
    /// rendered; without, both are the octree.
    oct0: String,
    oct0_date: u64,
    oct1: String,
    oct1_date: u64,
    illum_date: u64,
    /// The folder rad was called from, put first on the PATH of the commands it runs.
    bin: Option<std::path::PathBuf>,
    /// The octree's bounding cube, once found.
    cube: Option<([f64; 3], f64)>,
}

impl Rad {
    fn new(mut rif: Rif, root: String, f: Flags) -> anyhow::Result<Rad> {
        rif.set_default(Var::Octree, &format!("{root}.oct"));
        let octree = rif.get(Var::Octree).unwrap_or_default().to_string();
        if octree.starts_with('!') {
            bail!("illegal 'OCTREE' specification");
        }
        for var in [Var::Pgmap, Var::Pcmap] {
            if rif.is_set(var) {
                bail!(
                    "'{}' needs mkpmap (photon maps), which daylit does not have yet; remove it \
                     from the rad input file",
                    var.name()
                );
            }
        }
        let (oct0, oct1) = if rif.is_set(Var::Illum) {
            (
                with_suffix_mark(&octree, '0'),
                with_suffix_mark(&octree, '1'),
            )
        } else {
            (octree.clone(), octree.clone())
        };
        let mut scene_date = latest_date(&rif, Var::Scene)?;
        if scene_date > 0 {
            scene_date = scene_date.max(latest_date(&rif, Var::Objects)?);
        }
        let illum_date = latest_date(&rif, Var::Illum)?;
        let octree_date = file_date(&octree);
        if octree_date == 0 && scene_date == 0 && illum_date == 0 {
            bail!("need 'OCTREE' or 'scene' or 'illum'");
        }
        let material_date = latest_date(&rif, Var::Materials)?;
        let bin = std::env::args()
            .next()
            .filter(|a| a.contains('/'))
            .and_then(|a| Path::new(&a).parent().map(Path::to_path_buf));
        Ok(Rad {
            rif,
            root,
            f,
            oct0_date: file_date(&oct0),
            oct1_date: file_date(&oct1),
            oct0,
            oct1,
            illum_date,
            octree,
            octree_date,
            scene_date,
            material_date,
            bin,
            cube: None,
        })
    }

    fn run(mut self) -> anyhow::Result<()> {
        if !self.rif.is_set(Var::Zone) {
            let (origin, size) = self.cube()?;
            self.rif.set_default_zone(origin, size);
        }
        self.rif.set_defaults(&self.root)?;
        if self.f.explicate {
            print!("{}", self.rif.explicate());
        }
        self.oconv()?;
        let octree_date = self.oct1_date;
        if let Some(amb) = self.rif.get(Var::AmbFile).map(str::to_string) {
            let d = file_date(&amb);
            if d > 0 && octree_date > d {
                if self.f.touch_only {
                    self.touch(&amb)?;
                } else {
                    self.remove(&amb)?;
                }
            }
        }
        let (_, cube) = self.cube()?;
        let mut opts = self.rif.render_options(cube)?;
        if let Some(file) = self.rif.get(Var::OptFile) {
            if opts.shared.len() >= 2 {
                std::fs::write(file, option_file(&opts.shared))
                    .with_context(|| format!("cannot write {file}"))?;
                opts.shared = format!(" @{file}");
            }
        }
        self.render(&opts, octree_date)
    }

    /// The octree's bounding cube; from the scene files' box when the octree is out of date
    /// and nothing may run (`-n`), else from the octree (built first if needed).
    fn cube(&mut self) -> anyhow::Result<([f64; 3], f64)> {
        if let Some(c) = self.cube {
            return Ok(c);
        }
        let c = self.find_cube()?;
        self.cube = Some(c);
        Ok(c)
    }

    fn find_cube(&mut self) -> anyhow::Result<([f64; 3], f64)> {
        if self.f.dry_run && file_date(&self.oct1) < self.scene_date.max(self.illum_date) {
            let listed = self
                .rif
                .get(Var::Scene)
                .or(self.rif.get(Var::Illum))
                .unwrap_or("");
            let files: Vec<std::path::PathBuf> =
                words(listed).into_iter().map(Into::into).collect();
            let (lo, hi) = scene_box(&files)?;
            let size = (hi - lo).max_element();
            let origin = (hi + lo - glam::DVec3::splat(size)) * 0.5;
            return Ok((origin.to_array(), size));
        }
        self.oconv()?;
        let oct = &self.oct1;
        let bytes = std::fs::read(oct).with_context(|| format!("cannot read {oct}"))?;
        scene_cube(&bytes)?
            .with_context(|| format!("{oct}: not an octree or a scene file from oconv"))
    }

    /// Builds the octree when a scene file is newer; with `illum`, then the octree with the
    /// illum surfaces (`…0.oct`), mkillum's sources from it, and the octree to render with
    /// them (`…1.oct`, frozen).
    fn oconv(&mut self) -> anyhow::Result<()> {
        let (program, opts) = self.rif.program_options(Var::Oconv, "oconv");
        let opts = opts.unwrap_or_default();
        let materials = self.rif.get(Var::Materials).map(str::to_string);
        let octree = self.octree.clone();
        if self.octree_date < self.scene_date {
            if self.f.touch_only && self.octree_date > 0 {
                self.touch(&octree)?;
            } else {
                let scene = self.rif.get(Var::Scene).unwrap_or("");
                let inputs = match &materials {
                    Some(m) => format!("{m} {scene}"),
                    None => scene.to_string(),
                };
                self.build(&format!("{program}{opts} {inputs} > {octree}"), &octree)?;
            }
            self.octree_date = now().max(self.scene_date);
        }
        if !self.rif.is_set(Var::Illum) {
            self.oct1_date = self.octree_date.max(self.material_date);
            return Ok(());
        }
        let newest = self
            .octree_date
            .max(self.material_date)
            .max(self.illum_date);
        if self.oct1_date >= newest {
            return Ok(());
        }
        let illum = self.rif.get(Var::Illum).unwrap_or("").to_string();
        let (oct0, oct1) = (self.oct0.clone(), self.oct1.clone());
        // The scene given as the octree when there is one, else as its files.
        let base = |frozen: &str| match (self.octree_date > 0, &materials) {
            (true, _) => format!("{program}{opts}{frozen} -i {octree}"),
            (false, Some(m)) => format!("{program}{opts}{frozen} {m}"),
            (false, None) => format!("{program}{opts}{frozen}"),
        };
        if self.oct0_date < self.scene_date || self.oct0_date < self.illum_date {
            if self.f.touch_only && (self.oct0_date > 0 || self.oct1_date > 0) {
                if self.oct0_date > 0 {
                    self.touch(&oct0)?;
                }
            } else {
                self.build(&format!("{} {illum} > {oct0}", base("")), &oct0)?;
            }
            self.oct0_date = now().max(self.octree_date).max(self.illum_date);
        }
        if self.f.touch_only && self.oct1_date > 0 {
            self.touch(&oct1)?;
        } else {
            let (mkillum, mut mkopts) = self.rif.program_options(Var::Mkillum, "mkillum");
            if self.f.processes > 1 {
                mkopts = Some(format!(
                    " -n {}{}",
                    self.f.processes,
                    mkopts.unwrap_or_default()
                ));
            }
            let sources = temporary_name("il");
            let command = format!(
                "{mkillum}{} {oct0} \"<\" {illum} > {sources}",
                mkopts.unwrap_or_default()
            );
            if let Err(e) = self.command(&command) {
                let _ = std::fs::remove_file(&sources);
                return Err(e.context(format!("error running {mkillum}")));
            }
            self.remove(&oct0)?;
            if let Err(e) = self.build(&format!("{} {sources} > {oct1}", base(" -f")), &oct1) {
                let _ = std::fs::remove_file(&sources);
                return Err(e);
            }
            self.remove(&sources)?;
        }
        self.oct1_date = now().max(self.oct0_date);
        Ok(())
    }

    /// Runs an oconv command; on failure its octree is removed.
    fn build(&self, command: &str, octree: &str) -> anyhow::Result<()> {
        self.command(command).map_err(|e| {
            let _ = std::fs::remove_file(octree);
            e.context(format!("error generating octree\n\t{octree} removed"))
        })
    }

    /// Renders every view whose picture is older than the octree.
    fn render(
        &self,
        opts: &daylit_scene::rif::RenderOptions,
        octree_date: u64,
    ) -> anyhow::Result<()> {
        let (pfilt, pfilt_opts) = self.rif.pfilt_options();
        let res = self.rif.resolution()?;
        let report = self.rif.report_options()?;
        let picture = self.rif.get(Var::Picture).unwrap_or_default();
        let raw_root = self.rif.get(Var::RawFile);
        let program = &opts.program;
        let (shared, own) = (&opts.shared, &opts.picture);
        let octree = &self.oct1;
        let mut n = 0;
        while let Some((name, view)) = self.rif.view(n, self.f.view.as_deref())? {
            n += 1;
            if self.f.say_view {
                print!("{}", view_line(&view)?);
            }
            let pic = format!("{picture}_{name}.hdr");
            let zopt = match self.rif.get(Var::ZFile) {
                Some(z) => format!(" -z {z}_{name}.zbf"),
                None => String::new(),
            };
            let pic_date = file_date(&pic);
            if pic_date >= octree_date {
                continue;
            }
            let raw = format!("{}_{name}.unf", raw_root.unwrap_or(picture));
            let raw_date = file_date(&raw);
            if self.f.touch_only {
                if raw_date > 0 {
                    if raw_date < octree_date {
                        self.touch(&raw)?;
                    }
                } else if pic_date > 0 {
                    self.touch(&pic)?;
                }
                continue;
            }
            if raw_date >= octree_date {
                bail!(
                    "{raw} is the picture of an interrupted rpict run, which daylit's rpict \
                     cannot continue (-ro); remove it to render view {name} afresh"
                );
            }
            if opts.overture {
                let over = format!(
                    "{program}{report} {view}{shared}{own} -x 64 -y 64 -ps 1 {octree} > /dev/null"
                );
                self.command(&over)
                    .with_context(|| format!("error in overture for view {name}"))?;
            }
            let main = format!(
                "{program}{report} {view} {}{shared}{own}{zopt} {octree} > {raw}",
                res.options
            );
            self.command(&main)
                .with_context(|| format!("error rendering view {name}"))?;
            if raw_root != Some(picture) {
                let filter = if res.mult > 1 {
                    let m = res.mult;
                    format!("{pfilt}{pfilt_opts} -x /{m} -y /{m} {raw} > {pic}")
                } else {
                    format!("{pfilt}{pfilt_opts} {raw} > {pic}")
                };
                if let Err(e) = self.command(&filter) {
                    let _ = std::fs::remove_file(&pic);
                    return Err(e.context(format!("error filtering view {name}\n\t{pic} removed")));
                }
            }
            match raw_root {
                Some(r) => self.rename(&raw, &format!("{r}_{name}.hdr"))?,
                None => self.remove(&raw)?,
            }
        }
        Ok(())
    }

    /// Prints a command (unless silent) and runs it through the shell (unless `-n`).
    fn command(&self, command: &str) -> anyhow::Result<()> {
        self.echo(command)?;
        if self.f.dry_run {
            return Ok(());
        }
        let mut sh = std::process::Command::new("sh");
        sh.arg("-c").arg(command);
        if let Some(bin) = &self.bin {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![bin.clone()];
            dirs.extend(std::env::split_paths(&path));
            sh.env("PATH", std::env::join_paths(dirs)?);
        }
        let status = sh.status().context("cannot run sh")?;
        if !status.success() {
            bail!("command failed ({status}): {command}");
        }
        Ok(())
    }

    fn echo(&self, line: &str) -> anyhow::Result<()> {
        if !self.f.silent {
            let mut out = std::io::stdout().lock();
            writeln!(out, "\t{line}")?;
            out.flush()?;
        }
        Ok(())
    }

    fn touch(&self, file: &str) -> anyhow::Result<()> {
        self.echo(&format!("touch {file}"))?;
        if !self.f.dry_run {
            std::fs::File::options()
                .append(true)
                .open(file)
                .and_then(|h| h.set_modified(SystemTime::now()))
                .with_context(|| format!("cannot touch {file}"))?;
        }
        Ok(())
    }

    fn remove(&self, file: &str) -> anyhow::Result<()> {
        self.echo(&format!("rm -f {file}"))?;
        if !self.f.dry_run {
            let _ = std::fs::remove_file(file);
        }
        Ok(())
    }

    fn rename(&self, from: &str, to: &str) -> anyhow::Result<()> {
        self.echo(&format!("mv {from} {to}"))?;
        if !self.f.dry_run {
            std::fs::rename(from, to).with_context(|| format!("cannot rename {from} to {to}"))?;
        }
        Ok(())
    }
}

/// `name` with `mark` before its suffix (`scene.oct` → `scene0.oct`), as rad names the
/// octrees before and after mkillum.
fn with_suffix_mark(name: &str, mark: char) -> String {
    let dir = name.rfind('/').map_or(0, |k| k + 1);
    let at = name[dir..].rfind('.').map_or(name.len(), |k| dir + k);
    format!("{}{mark}{}", &name[..at], &name[at..])
}

/// A file name in the current folder that does not exist yet: `prefix` and six characters.
fn temporary_name(prefix: &str) -> String {
    let seed = now() ^ u64::from(std::process::id()).rotate_left(20);
    (0u64..)
        .map(|k| {
            let mut x = seed.wrapping_add(k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let tail: String = (0..6)
                .map(|_| {
                    const LETTERS: &[u8] =
                        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
                    let c = LETTERS[(x % LETTERS.len() as u64) as usize] as char;
                    x /= LETTERS.len() as u64;
                    c
                })
                .collect();
            format!("{prefix}{tail}")
        })
        .find(|n| !Path::new(n).exists())
        .unwrap_or_else(|| format!("{prefix}XXXXXX"))
}

/// The options file rad writes for `OPTFILE`: one option a line.
fn option_file(shared: &str) -> String {
    let b = shared.as_bytes();
    let mut out = String::with_capacity(b.len());
    for k in 1..b.len() {
        let next_starts_option = b[k].is_ascii_whitespace()
            && (b.get(k + 1) == Some(&b'@')
                || (b.get(k + 1) == Some(&b'-')
                    && b.get(k + 2).is_some_and(u8::is_ascii_alphabetic)));
        out.push(if next_starts_option {
            '\n'
        } else {
            b[k] as char
        });
    }
    out.push('\n');
    out
}

/// The `VIEW=` line of `-V`: the view options applied over RADIANCE's default view (view
/// files named by `-vf` read in place), every parameter written out.
fn view_line(options: &str) -> anyhow::Result<String> {
    use daylit_image::view::{apply_view_file, apply_view_text};
    let mut view = daylit_image::View::default();
    let words: Vec<&str> = options.split_ascii_whitespace().collect();
    let mut start = 0;
    for (k, w) in words.iter().enumerate() {
        if *w == "-vf" {
            if let Some(file) = words.get(k + 1) {
                apply_view_text(&mut view, &words[start..k].join(" "));
                let text = std::fs::read_to_string(file)
                    .with_context(|| format!("cannot read view file {file}"))?;
                apply_view_file(&mut view, &text);
                start = k + 2;
            }
        }
    }
    apply_view_text(&mut view, &words[start.min(words.len())..].join(" "));
    Ok(format!("VIEW={}\n", crate::vwright::options(&view, 1.0)))
}
