//! Reads scene inputs (RADIANCE text, OBJ meshes, binary scene files) into a [`Scene`],
//! expanding inline commands: `xform`, `genbox`, `genprism`, `gensky` and `gendaylit` natively, anything
//! else only when allowed.

use crate::archive;
use crate::compound;
use crate::error::{Loc, Result, SceneError};
use crate::genbox::genbox;
use crate::genprism;
use crate::lexer::Word;
use crate::obj;
use crate::octree;
use crate::parse::{read_items, Item, RawPrim};
use crate::portable::BinPrim;
use crate::rtm::{self, RtmMesh};
use crate::scene::{LocalMesh, PrimId, Scene, SceneBuilder};
use crate::types::PrimType;
use crate::xform::{parse_transform, XformSpec};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How to read scenes.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Run inline commands that daylit does not implement itself through the shell.
    /// Off by default: a scene file could run any program.
    pub allow_commands: bool,
    /// Check that function, data and picture files named by modifiers can be found.
    pub check_files: bool,
    /// Directories searched for function, data and scene files (RADIANCE's RAYPATH).
    pub raypath: daylit_cal::RayPath,
    /// Only the geometry matters (RADIANCE's getbbox): a modifier that is not defined is
    /// read as `void` instead of being an error.
    pub geometry_only: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            allow_commands: false,
            check_files: true,
            raypath: daylit_cal::RayPath::from_env(),
            geometry_only: false,
        }
    }
}

/// Nesting limit for commands that read files that run commands…
const MAX_DEPTH: usize = 32;

/// Largest number of copies one `xform` with arrays may make (a typo such as `-a 10000 -a
/// 10000` should fail, not exhaust memory).
pub(crate) const MAX_COPIES: u64 = 10_000_000;

/// Reads all `inputs` in order into one scene. `-` reads standard input.
pub fn load_scene(inputs: &[PathBuf], opts: &LoadOptions) -> Result<Scene> {
    let mut l = Loader::new(opts);
    for p in inputs {
        l.add_input(p)?;
    }
    Ok(l.builder.finish())
}

/// Reads all `inputs` in order, then scene text `extra` (named `source` in messages): how a
/// program adds what it needs (a sky sender, say) to the user's scene.
pub fn load_scene_then_text(
    inputs: &[PathBuf],
    extra: &str,
    source: &str,
    opts: &LoadOptions,
) -> Result<Scene> {
    let mut l = Loader::new(opts);
    for p in inputs {
        l.add_input(p)?;
    }
    l.add_text(extra.as_bytes(), source.into(), Path::new("."), 0)?;
    Ok(l.builder.finish())
}

/// Reads scene text from memory (named `source` in messages), commands run relative to `cwd`.
pub fn load_scene_text(text: &str, source: &str, cwd: &Path, opts: &LoadOptions) -> Result<Scene> {
    let mut l = Loader::new(opts);
    l.add_text(text.as_bytes(), source.into(), cwd, 0)?;
    Ok(l.builder.finish())
}

fn read_file(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf).map_err(|source| {
            SceneError::Io {
                path: path.into(),
                reason: source.to_string(),
            }
        })?;
        return Ok(buf);
    }
    let io = |e: std::io::Error| SceneError::Io {
        path: path.into(),
        reason: e.to_string(),
    };
    // A device such as /dev/zero never ends; files and pipes do.
    let meta = std::fs::metadata(path).map_err(io)?;
    if std::os::unix::fs::FileTypeExt::is_char_device(&meta.file_type())
        || std::os::unix::fs::FileTypeExt::is_block_device(&meta.file_type())
    {
        return Err(io(std::io::Error::other("a device, not a scene file")));
    }
    std::fs::read(path).map_err(io)
}

/// Octrees and compiled meshes already read, by path: each file is read once however many
/// `instance`s and `mesh`es name it.
#[derive(Default)]
struct Compounds {
    /// An octree's scene in its own frame, its own instances and meshes placed.
    octrees: HashMap<PathBuf, Arc<Scene>>,
    /// A compiled mesh and its materials.
    meshes: HashMap<PathBuf, Arc<(RtmMesh, Scene, Arc<LocalMesh>)>>,
}

struct Loader<'o> {
    opts: &'o LoadOptions,
    builder: SceneBuilder,
    compounds: Compounds,
    /// How many octrees deep this loader reads (an octree that instances itself must stop).
    depth: usize,
}

impl<'o> Loader<'o> {
    fn new(opts: &'o LoadOptions) -> Self {
        Loader {
            opts,
            builder: SceneBuilder::new().geometry_only(opts.geometry_only),
            compounds: Compounds::default(),
            depth: 0,
        }
    }

    /// A loader for a file read on behalf of this one (an octree's or a mesh's contents),
    /// into a scene of its own; it shares this one's files already read.
    fn nested(&mut self) -> Loader<'o> {
        Loader {
            opts: self.opts,
            builder: SceneBuilder::new().geometry_only(self.opts.geometry_only),
            compounds: std::mem::take(&mut self.compounds),
            depth: self.depth + 1,
        }
    }

    /// Ends a nested loader, taking back the files it read.
    fn end_nested(&mut self, sub: Loader<'o>) -> Scene {
        self.compounds = sub.compounds;
        sub.builder.finish()
    }

    fn add_input(&mut self, path: &Path) -> Result<()> {
        // As with RADIANCE's oconv, an argument that starts with '!' is a command whose
        // output is scene text (`oconv "!xform -s 2 chair.rad"`).
        if let Some(text) = path.to_str().filter(|t| t.starts_with('!')) {
            return self.add_text(text.as_bytes(), "command line".into(), Path::new("."), 0);
        }
        let bytes = read_file(path)?;
        // RADIANCE's binary files start with an information header; of them, octrees are
        // scene input.
        if bytes.starts_with(b"#?RADIANCE") && !rtm::is_rtm(&bytes) {
            return self.add_octree(&bytes, path);
        }
        if rtm::is_rtm(&bytes) {
            return Err(SceneError::Binary {
                path: path.into(),
                offset: 0,
                msg:
                    "a compiled mesh (obj2mesh) is not a scene file: place it with a mesh primitive"
                        .into(),
            });
        }
        if archive::is_archive(&bytes) {
            let scene = archive::decode(&bytes).map_err(|msg| SceneError::Archive {
                path: path.into(),
                msg,
            })?;
            self.builder.merge(scene);
            return Ok(());
        }
        let is_obj = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("obj"));
        if is_obj {
            let mesh = obj::read_obj(&bytes, path, &|name| self.builder.lookup(name))?;
            self.builder.add_mesh(mesh);
            return Ok(());
        }
        let name: Arc<str> = if path == Path::new("-") {
            "standard input".into()
        } else {
            path.display().to_string().into()
        };
        self.add_text(&bytes, name, Path::new("."), 0)
    }

    fn add_text(&mut self, bytes: &[u8], source: Arc<str>, cwd: &Path, depth: usize) -> Result<()> {
        let opts = self.opts;
        read_items(bytes, source, &mut |item| match item {
            Item::Prim(p) => self.add_raw(p),
            Item::Command(w) => run_command(opts, &w, cwd, depth + 1)?
                .into_iter()
                .try_for_each(|p| self.add_raw(p)),
        })
    }

    /// Adds one primitive read from text, placing what an `instance` or `mesh` names.
    fn add_raw(&mut self, p: RawPrim) -> Result<()> {
        if self.opts.check_files {
            check_files(self.opts, &p)?;
        }
        let id = self.builder.add(p)?;
        self.place_compound(id)
    }

    /// Adds what a RADIANCE octree holds: a frozen octree's primitives, or else the scene
    /// files it names, read as RADIANCE reads them (from the current directory, then
    /// RAYPATH; a name starting with `!` is a command).
    fn add_octree(&mut self, bytes: &[u8], path: &Path) -> Result<()> {
        let oct = octree::read_octree(bytes, path)?;
        if let Some(objs) = &oct.objects {
            return self.add_binary(objs, path);
        }
        for f in &oct.files {
            if f.starts_with('!') {
                let line = format!("{f}\n");
                self.add_text(line.as_bytes(), f.as_str().into(), Path::new("."), 0)?;
                continue;
            }
            let p = find_scene_file(self.opts, f, Path::new(".")).ok_or_else(|| {
                SceneError::Binary {
                    path: path.into(),
                    offset: 0,
                    msg: format!("cannot find scene file \"{f}\" that the octree was made from (searched the current directory and RAYPATH)"),
                }
            })?;
            let text = read_file(&p)?;
            self.add_text(&text, p.display().to_string().into(), Path::new("."), 0)?;
        }
        Ok(())
    }

    /// Adds primitives from a binary scene section (frozen octree, mesh materials), whose
    /// modifiers are object numbers within the section. Their locations give the file and
    /// the object's number (counting from 1) in place of a line.
    fn add_binary(&mut self, objs: &[BinPrim], path: &Path) -> Result<()> {
        let source: Arc<str> = path.display().to_string().into();
        let mut ids: Vec<PrimId> = Vec::with_capacity(objs.len());
        for (k, bp) in objs.iter().enumerate() {
            let at = |msg: String| SceneError::Binary {
                path: path.into(),
                offset: bp.offset as u64,
                msg: format!("object {k} ({} \"{}\"): {msg}", bp.ptype.name(), bp.name),
            };
            if bp.ptype == PrimType::Alias {
                // Stored resolved: without a string argument the alias passes to its modifier
                // (the copied modifier, keeping its own modifier); with one, it copies the
                // modifier of that name defined before it, under its own modifier.
                let own = bp.modifier.map(|m| ids[m]);
                let (target, modifier) = match bp.sargs.as_slice() {
                    [] => {
                        let t = own.ok_or_else(|| at("alias without a reference".into()))?;
                        (t, self.builder.scene().prim(t).modifier)
                    }
                    [name] => {
                        let t = self
                            .builder
                            .lookup(name)
                            .ok_or_else(|| at(format!("bad reference \"{name}\"")))?;
                        (t, own)
                    }
                    _ => return Err(at("an alias takes at most one string argument".into())),
                };
                if !self.builder.scene().prim(target).ptype.is_modifier() {
                    return Err(at("alias of a surface".into()));
                }
                let loc = Loc::new(source.clone(), k as u32 + 1, 0);
                ids.push(
                    self.builder
                        .add_alias_of(bp.name.clone(), loc, target, modifier)?,
                );
                continue;
            }
            let (sc, rc) = (bp.ptype.string_count(), bp.ptype.real_count());
            if !sc.accepts(bp.sargs.len()) {
                return Err(at(format!(
                    "takes {} string arguments, found {}",
                    sc.describe(),
                    bp.sargs.len()
                )));
            }
            if !rc.accepts(bp.fargs.len()) {
                return Err(at(format!(
                    "takes {} real arguments, found {}",
                    rc.describe(),
                    bp.fargs.len()
                )));
            }
            let modifier = match bp.modifier {
                None => None,
                Some(m) if objs[m].ptype.is_modifier() || objs[m].ptype == PrimType::Alias => {
                    Some(ids[m])
                }
                Some(m) => {
                    return Err(at(format!(
                        "its modifier, object {m}, is a {}, not a modifier",
                        objs[m].ptype.name()
                    )))
                }
            };
            let raw = RawPrim {
                modifier: bp
                    .modifier
                    .map_or_else(|| "void".to_string(), |m| objs[m].name.clone()),
                ptype: bp.ptype,
                name: bp.name.clone(),
                sargs: bp.sargs.clone(),
                fargs: bp.fargs.clone(),
                loc: Loc::new(source.clone(), k as u32 + 1, 0),
            };
            if self.opts.check_files {
                check_files(self.opts, &raw)?;
            }
            let id = self.builder.add_resolved(raw, modifier)?;
            ids.push(id);
            self.place_compound(id)?;
        }
        Ok(())
    }

    /// If primitive `id` is an `instance` or a `mesh`, places its contents.
    fn place_compound(&mut self, id: PrimId) -> Result<()> {
        let p = self.builder.scene().prim(id);
        if !matches!(p.ptype, PrimType::Instance | PrimType::Mesh) {
            return Ok(());
        }
        let (ptype, modifier, loc, sargs) = (p.ptype, p.modifier, p.loc.clone(), p.sargs.clone());
        let what = format!("{} \"{}\"", ptype.name(), p.name);
        let mut i = 1;
        let xf = parse_transform(&sargs, &mut i, &loc)?;
        if i != sargs.len() {
            return Err(SceneError::at(
                &loc,
                format!("{what}: bad transform at \"{}\"", sargs[i]),
            ));
        }
        if self.depth >= MAX_DEPTH {
            return Err(SceneError::at(
                &loc,
                format!(
                    "{what}: octrees nested more than {MAX_DEPTH} deep (does one instance itself?)"
                ),
            ));
        }
        let spec = XformSpec {
            prefix: None,
            new_mod: None,
            invert: false,
            xf,
            xf_words: sargs[1..].to_vec(),
        };
        let kind = if ptype == PrimType::Instance {
            "octree"
        } else {
            "mesh"
        };
        let path = find_scene_file(self.opts, &sargs[0], Path::new(".")).ok_or_else(|| {
            SceneError::at(
                &loc,
                format!("{what}: cannot find {kind} file \"{}\" (searched the current directory and RAYPATH)", sargs[0]),
            )
        })?;
        if ptype == PrimType::Instance {
            let content = self.octree_scene(&path)?;
            compound::place_scene(&mut self.builder, &content, &spec, modifier);
        } else {
            let mesh = self.compiled_mesh(&path)?;
            let source = path.display().to_string();
            compound::place_mesh(
                &mut self.builder,
                &mesh.0,
                &mesh.1,
                &mesh.2,
                &spec,
                modifier,
                &source,
            );
        }
        Ok(())
    }

    /// The scene an octree holds, in its own frame (read once).
    fn octree_scene(&mut self, path: &Path) -> Result<Arc<Scene>> {
        if let Some(s) = self.compounds.octrees.get(path) {
            return Ok(s.clone());
        }
        let bytes = read_file(path)?;
        if !octree::is_octree(&bytes) {
            return Err(SceneError::Binary {
                path: path.into(),
                offset: 0,
                msg: "not a RADIANCE octree (no FORMAT=Radiance_octree header)".into(),
            });
        }
        let mut sub = self.nested();
        let r = sub.add_octree(&bytes, path);
        let scene = Arc::new(self.end_nested(sub));
        r?;
        self.compounds
            .octrees
            .insert(path.to_path_buf(), scene.clone());
        Ok(scene)
    }

    /// A compiled mesh and its materials (read once).
    fn compiled_mesh(&mut self, path: &Path) -> Result<Arc<(RtmMesh, Scene, Arc<LocalMesh>)>> {
        if let Some(m) = self.compounds.meshes.get(path) {
            return Ok(m.clone());
        }
        let bytes = read_file(path)?;
        let mesh = rtm::read_rtm(&bytes, path)?;
        let mut sub = self.nested();
        let r = sub.add_binary(&mesh.materials, path);
        let materials = self.end_nested(sub);
        r?;
        let local = Arc::new(LocalMesh {
            vertices: mesh.vertices.clone(),
            triangles: mesh.triangles.clone(),
        });
        let m = Arc::new((mesh, materials, local));
        self.compounds.meshes.insert(path.to_path_buf(), m.clone());
        Ok(m)
    }
}

/// Reads scene text fully, expanding its commands, for `xform`.
fn expand(
    opts: &LoadOptions,
    bytes: &[u8],
    source: Arc<str>,
    cwd: &Path,
    depth: usize,
) -> Result<Vec<RawPrim>> {
    let mut out = Vec::new();
    read_items(bytes, source, &mut |item| {
        match item {
            Item::Prim(p) => out.push(p),
            Item::Command(w) => out.extend(run_command(opts, &w, cwd, depth + 1)?),
        }
        Ok(())
    })?;
    Ok(out)
}

/// Checks that the files a modifier names exist where RADIANCE would look for them.
fn check_files(opts: &LoadOptions, p: &RawPrim) -> Result<()> {
    let missing = |kind: &str, f: &str, also: &str| {
        let dirs: Vec<String> = opts
            .raypath
            .dirs()
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        Err(SceneError::at(
            &p.loc,
            format!(
                "{} \"{}\": cannot find {kind} \"{f}\" (searched RAYPATH {}{also})",
                p.ptype.name(),
                p.name,
                dirs.join(":")
            ),
        ))
    };
    if let Some(i) = p.ptype.funcfile_index() {
        let f = &p.sargs[i];
        // The built-in library stands in for RADIANCE's own .cal files.
        if f != "." && opts.raypath.find(f).is_none() && daylit_cal::embedded_file(f).is_none() {
            return missing("function file", f, " and daylit's built-in library");
        }
    }
    for &i in p.ptype.file_args().data {
        if opts.raypath.find(&p.sargs[i]).is_none() {
            return missing("file", &p.sargs[i], "");
        }
    }
    Ok(())
}

/// Splits a command line into pipeline stages; `None` if it uses shell features daylit does not
/// interpret (redirection, substitution, sequencing).
pub(crate) fn split_pipeline(cmd: &str) -> Option<Vec<Vec<String>>> {
    let mut stages = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '|') => stages.push(std::mem::take(&mut cur)),
            (None, ';' | '&' | '<' | '>' | '`' | '$' | '(' | ')' | '\\' | '*' | '?') => {
                return None
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    stages.push(cur);
    stages
        .iter()
        .map(|s| shlex::split(s).filter(|w| !w.is_empty()))
        .collect()
}

fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Runs one inline command, returning the primitives it produces.
fn run_command(opts: &LoadOptions, cmd: &Word, cwd: &Path, depth: usize) -> Result<Vec<RawPrim>> {
    if depth > MAX_DEPTH {
        return Err(SceneError::at(
            &cmd.loc,
            format!("commands nested more than {MAX_DEPTH} deep (does a file include itself?)"),
        ));
    }
    let text = cmd.text.trim();
    if text.is_empty() {
        return Err(SceneError::at(&cmd.loc, "empty command after '!'"));
    }
    let native = split_pipeline(text).filter(|stages| {
        stages
            .iter()
            .enumerate()
            .all(|(i, s)| match s.first().map(|w| program_name(w)) {
                Some("genbox" | "gensky" | "gendaylit") => i == 0,
                Some(p) if TEXT_GENERATORS.contains(&p) => i == 0,
                Some("genprism") => i == 0 && genprism::is_native(&s[1..]),
                Some("xform") => true,
                _ => false,
            })
    });
    if let Some(stages) = native {
        let mut data: Option<Vec<RawPrim>> = None;
        for s in stages {
            let prims = match program_name(&s[0]) {
                "genbox" => genbox(&s[1..], &cmd.loc)?,
                "genprism" => genprism::genprism(&s[1..], &cmd.loc)?,
                // These write RADIANCE's scene text, read back as oconv reads theirs.
                prog if TEXT_GENERATORS.contains(&prog) => {
                    let text = generated_text(opts, prog, &s[1..], &cmd.loc, cwd)?;
                    expand(
                        opts,
                        text.as_bytes(),
                        format!("!{text_cmd}", text_cmd = s.join(" ")).into(),
                        cwd,
                        depth,
                    )?
                }
                prog @ ("gensky" | "gendaylit") => sky(opts, prog, &s[1..], &cmd.loc, cwd, depth)?,
                _ => xform(opts, &s[1..], data.take(), &cmd.loc, cwd, depth)?,
            };
            data = Some(prims);
        }
        return Ok(data.unwrap_or_default());
    }
    if !opts.allow_commands {
        return Err(SceneError::at(
            &cmd.loc,
            format!(
                "inline command \"{text}\" is not built into daylit; pass --allow-commands to run it with the shell (only for scenes you trust: a scene file can run any program this way)"
            ),
        ));
    }
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(text)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| SceneError::at(&cmd.loc, format!("cannot run \"{text}\": {e}")))?;
    if !out.status.success() {
        return Err(SceneError::at(
            &cmd.loc,
            format!(
                "command \"{text}\" failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        ));
    }
    expand(opts, &out.stdout, format!("!{text}").into(), cwd, depth)
}

/// RADIANCE's generators that daylit runs by writing their scene text (read back in scenes as
/// oconv reads theirs, and printed by the programs of those names).
pub const TEXT_GENERATORS: &[&str] = &["genblinds", "genrev", "gensurf", "genworm"];

/// The scene text generator `prog` (one of [`TEXT_GENERATORS`]) writes for `args`; data files
/// are found relative to `cwd`, function files by `opts.raypath`.
pub fn generated_text(
    opts: &LoadOptions,
    prog: &str,
    args: &[String],
    loc: &Loc,
    cwd: &Path,
) -> Result<String> {
    match prog {
        "genblinds" => crate::genblinds::genblinds(args, loc),
        "genrev" => crate::genrev::genrev(args, loc, &opts.raypath),
        "gensurf" => crate::gensurf::gensurf(args, loc, &opts.raypath, cwd),
        "genworm" => crate::genworm::genworm(args, loc, &opts.raypath),
        _ => Err(SceneError::at(
            loc,
            format!("{prog} is not a generator daylit runs natively"),
        )),
    }
}

/// Native `gensky` and `gendaylit`: the sky text daylit-sky writes, read as scene text. Bad
/// arguments are errors located at the command.
fn sky(
    opts: &LoadOptions,
    prog: &str,
    args: &[String],
    loc: &Loc,
    cwd: &Path,
    depth: usize,
) -> Result<Vec<RawPrim>> {
    let text = if prog == "gensky" {
        daylit_sky::gensky::gensky_text(args)
            .map(|o| o.text)
            .map_err(|e| e.to_string())
    } else {
        daylit_sky::gendaylit::gendaylit_text(args)
            .map(|o| o.text)
            .map_err(|e| e.to_string())
    }
    .map_err(|e| SceneError::at(loc, format!("{prog}: {e}")))?;
    let source = format!("!{prog} {}", args.join(" "));
    expand(opts, text.as_bytes(), source.into(), cwd, depth + 1)
}

/// Native `xform`: options, arrays, argument files and transforms as RADIANCE's xform reads them.
/// Arrays and argument files stop once they have made this many primitives: a typo such as
/// `-a 3000 -a 3000` must fail, not exhaust memory.
const MAX_GENERATED: usize = 10_000_000;

fn check_generated(n: usize, loc: &Loc) -> Result<()> {
    if n > MAX_GENERATED {
        return Err(SceneError::at(
            loc,
            format!("xform: arrays make more than {MAX_GENERATED} primitives"),
        ));
    }
    Ok(())
}

fn xform(
    opts: &LoadOptions,
    args: &[String],
    input: Option<Vec<RawPrim>>,
    loc: &Loc,
    cwd: &Path,
    depth: usize,
) -> Result<Vec<RawPrim>> {
    if depth > MAX_DEPTH {
        return Err(SceneError::at(
            loc,
            format!(
                "xform: argument files nested more than {MAX_DEPTH} deep (does one name itself?)"
            ),
        ));
    }
    // An argument file: each line is a separate invocation, numbered into the names.
    if let Some(fi) = args.iter().position(|a| a == "-f") {
        let fname = args
            .get(fi + 1)
            .ok_or_else(|| SceneError::at(loc, "xform: -f needs a file name"))?;
        if fname == "-" {
            return Err(SceneError::at(
                loc,
                "xform -f -: a scene file cannot give standard input",
            ));
        }
        let path = cwd.join(fname);
        let text = String::from_utf8_lossy(&read_file(&path)?).into_owned();
        let mut out = Vec::new();
        let lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        for (k, line) in lines.enumerate() {
            let mut words = shlex::split(line).ok_or_else(|| {
                SceneError::at(
                    loc,
                    format!("xform: cannot split line of {fname}: \"{line}\""),
                )
            })?;
            if words.first().is_some_and(|w| w == "!xform" || w == "xform") {
                words.remove(0);
            }
            let mut sub: Vec<String> = args[..fi].to_vec();
            sub.extend(words);
            sub.extend_from_slice(&args[fi + 2..]);
            renumber(&mut sub, "i", k);
            out.extend(xform(opts, &sub, input.clone(), loc, cwd, depth + 1)?);
            check_generated(out.len(), loc)?;
        }
        return Ok(out);
    }
    // An array: the copies step by the transform after -a, numbered into the names.
    if let Some(ai) = args.iter().position(|a| a == "-a") {
        let copies = args
            .windows(2)
            .filter(|w| w[0] == "-a")
            .map(|w| w[1].parse::<u64>().unwrap_or(1))
            .fold(1u64, u64::saturating_mul);
        if copies > MAX_COPIES {
            return Err(SceneError::at(
                loc,
                format!("xform: arrays of {copies} copies exceed the limit of {MAX_COPIES}"),
            ));
        }
        let n: usize = args
            .get(ai + 1)
            .and_then(|w| w.parse().ok())
            .filter(|&n| n > 0 && n <= 1_000_000)
            .ok_or_else(|| SceneError::at(loc, "xform: missing or bad count for -a option"))?;
        // Read the files once for all copies, and refuse an array too large before making it.
        let fs = file_start(args);
        let input = match &args[fs..] {
            [] => input,
            files => Some(read_xform_files(opts, files, loc, cwd, depth)?),
        };
        let made = usize::try_from(copies)
            .unwrap_or(usize::MAX)
            .saturating_mul(input.as_ref().map_or(0, Vec::len));
        check_generated(made, loc)?;
        let mut out = Vec::new();
        for i in 0..n {
            let mut sub = args[..fs].to_vec();
            sub[ai] = "-i".into();
            sub[ai + 1] = i.to_string();
            renumber(&mut sub, "a", i);
            out.extend(xform(opts, &sub, input.clone(), loc, cwd, depth + 1)?);
        }
        return Ok(out);
    }
    let mut i = 0;
    let mut prefix: Option<String> = None;
    let mut new_mod = None;
    let mut invert = false;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-n" | "-m" => {
                let v = args
                    .get(i + 1)
                    .ok_or_else(|| SceneError::at(loc, format!("xform: {a} needs a name")))?
                    .clone();
                if a == "-n" {
                    prefix = Some(match prefix {
                        Some(p) => format!("{p}.{v}"),
                        None => v,
                    });
                } else if new_mod.is_none() {
                    new_mod = Some(v);
                }
                i += 2;
            }
            "-c" | "-e" => i += 1,
            "-I" => {
                invert = !invert;
                i += 1;
            }
            _ => break,
        }
    }
    let xfa = i;
    let xf = parse_transform(args, &mut i, loc)?;
    let spec = XformSpec {
        prefix,
        new_mod,
        invert,
        xf,
        xf_words: args[xfa..i].to_vec(),
    };
    if let Some(bad) = args[i..].iter().find(|a| a.starts_with('-')) {
        return Err(SceneError::at(
            loc,
            format!("xform: command line error at \"{bad}\""),
        ));
    }
    let mut prims = if i == args.len() {
        input.ok_or_else(|| {
            SceneError::at(loc, "xform with no file reads standard input, which an inline command in a scene file does not have")
        })?
    } else {
        read_xform_files(opts, &args[i..], loc, cwd, depth)?
    };
    for p in &mut prims {
        spec.apply(p);
    }
    Ok(prims)
}

/// Where the scene files start in xform's arguments: after the options and the transform.
fn file_start(args: &[String]) -> usize {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += match a.as_str() {
            "-n" | "-m" | "-a" | "-i" | "-s" | "-rx" | "-ry" | "-rz" => 2,
            "-t" => 4,
            "-c" | "-e" | "-I" | "-mx" | "-my" | "-mz" => 1,
            _ => return i,
        };
    }
    args.len()
}

/// Reads the scene files named on an xform command line, expanding their commands.
fn read_xform_files(
    opts: &LoadOptions,
    files: &[String],
    loc: &Loc,
    cwd: &Path,
    depth: usize,
) -> Result<Vec<RawPrim>> {
    let mut prims = Vec::new();
    for f in files {
        let path = find_scene_file(opts, f, cwd).ok_or_else(|| {
            SceneError::at(
                loc,
                format!(
                    "xform: cannot find scene file \"{f}\" (searched {} and RAYPATH)",
                    cwd.display()
                ),
            )
        })?;
        let bytes = read_file(&path)?;
        // Commands inside a file run in that file's folder, as RADIANCE's xform does.
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        prims.extend(expand(
            opts,
            &bytes,
            path.display().to_string().into(),
            &dir,
            depth,
        )?);
    }
    Ok(prims)
}

/// Replaces the `-n` name with `name.k`, or adds `-n {tag}{k}` when there is none.
fn renumber(args: &mut Vec<String>, tag: &str, k: usize) {
    match args
        .iter()
        .position(|a| a == "-n")
        .filter(|&p| p + 1 < args.len())
    {
        Some(p) => args[p + 1] = format!("{}.{k}", args[p + 1]),
        None => {
            args.insert(0, format!("{tag}{k}"));
            args.insert(0, "-n".into());
        }
    }
}

fn find_scene_file(opts: &LoadOptions, name: &str, cwd: &Path) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() || name.starts_with('.') || name.starts_with('~') {
        let q = cwd.join(p);
        return q.is_file().then_some(q);
    }
    let local = cwd.join(p);
    if local.is_file() {
        return Some(local);
    }
    opts.raypath.find(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines() {
        let s = split_pipeline("genbox m b 1 2 3 | xform -rz 90").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1], ["xform", "-rz", "90"]);
        assert!(split_pipeline("gensky 3 21 12 > sky.rad").is_none());
        assert!(split_pipeline("xform -n 'a|b' x.rad").unwrap().len() == 1);
    }
}
