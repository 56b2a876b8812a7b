//! `pkgBSDF`: a BSDF XML file packaged as a RADIANCE scene, as RADIANCE 6.0a's pkgBSDF does.
//!
//! A file without detail geometry becomes one rectangle of the file's width and height at
//! z = 0, facing +Z, its material a `BSDF` of zero thickness naming the file. With an MGF
//! block, the front rectangle sits just in front of the origin (its `BSDF` as thick as the
//! file says), a back one faces it a little beyond the thickness where the file has a
//! back reflection distribution, and the MGF geometry follows as `mgf2rad -s` translates it
//! ([`daylit_scene::mgf2rad`]), inline. (RADIANCE's `-i`, the geometry as a frozen octree
//! behind an `instance`, needs a RADIANCE octree writer, which daylit does not have.)

use daylit_bsdf::{Bsdf, BsdfError, Side};
use daylit_cal::RayPath;
use daylit_radfile::printf::{format_e, format_g};
use daylit_scene::mgf2rad::{mgf2rad, Options as MgfOptions, Source};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// RADIANCE's `FTINY`: offsets this small count as none.
const FTINY: f64 = 1e-6;
/// RADIANCE's longest BSDF material or maker name (`SDnameLn`), bytes with the terminator.
const NAME_LEN: usize = 128;

/// Why a file could not be packaged.
#[derive(Debug, thiserror::Error)]
pub enum PkgBsdfError {
    /// The input's name does not end in `.xml`.
    #[error("{0}: input does not end in '.xml'")]
    NotXml(String),
    /// The input was not found (as given or along RAYPATH).
    #[error("{0}: cannot find BSDF file")]
    NotFound(String),
    /// The XML could not be read.
    #[error(transparent)]
    Xml(#[from] BsdfError),
    /// Width or height is missing or zero.
    #[error("{0}: zero width or height")]
    ZeroSize(String),
    /// The MGF geometry could not be translated.
    #[error("{file}: its MGF geometry: {error}")]
    Mgf {
        /// The XML file.
        file: String,
        /// What mgf2rad said.
        error: Box<daylit_scene::mgf::MgfError>,
    },
    /// A temporary file could not be written.
    #[error("{0}")]
    Io(String),
}

/// One XML file packaged.
#[derive(Debug)]
pub struct Packaged {
    /// The BSDF's name: the file's name without directory or suffix (the scene is
    /// `NAME.rad` when written to a file).
    pub name: String,
    /// The RADIANCE scene text.
    pub scene: String,
    /// Warnings from translating the MGF geometry.
    pub warnings: Vec<String>,
}

/// RADIANCE's `SDclipName` of a name without directories: the name less its last suffix,
/// unless that suffix starts in the first two characters.
fn clip_name(base: &str) -> String {
    match base.rfind('.') {
        Some(d) if d >= 2 => base[..d].to_string(),
        _ => base.to_string(),
    }
}

/// A name as RADIANCE keeps it: cut to 124 bytes and `...` when too long for its buffer.
fn clip_text(s: &str) -> String {
    if s.len() < NAME_LEN {
        return s.to_string();
    }
    let mut end = NAME_LEN - 4;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// The material and rectangle for one face; `z` is the BSDF thickness it stands for
/// (positive in front, negative behind, zero without geometry).
fn face(out: &mut String, b: &Bsdf, name: &str, z: f64) {
    let sfx = if z > FTINY {
        "_f"
    } else if z < -FTINY {
        "_b"
    } else {
        ""
    };
    let _ = writeln!(out, "void BSDF m_{name}{sfx}");
    let _ = writeln!(out, "6 {} {name}.xml 0 1 0 .", format_g(z * 1.00004));
    out.push_str("0\n0\n\n");
    // The front face just in front of the origin, the back one just beyond the thickness.
    let zp = z * (if z < 0.0 { 1.0 } else { 0.0 } + 0.00002);
    let _ = writeln!(out, "m_{name}{sfx} polygon {name}{sfx}");
    out.push_str("0\n0\n12\n");
    let (w, h) = (0.5 * b.width, 0.5 * b.height);
    for (x, y) in [(-w, -h), (w, -h), (w, h), (-w, h)] {
        let _ = writeln!(
            out,
            "\t{}\t{}\t{}",
            format_e(x, 6),
            format_e(y, 6),
            format_e(zp, 6)
        );
    }
    out.push('\n');
}

/// Packages the BSDF XML file named `arg` (found as given when it starts with `.` or `/`,
/// else along `raypath`); `program` is the name written in the scene's first comment.
pub fn package(arg: &str, raypath: &RayPath, program: &str) -> Result<Packaged, PkgBsdfError> {
    let n = arg.len();
    if n < 5 || !arg.is_char_boundary(n - 4) || !arg[n - 4..].eq_ignore_ascii_case(".xml") {
        return Err(PkgBsdfError::NotXml(arg.to_string()));
    }
    let path = if arg.starts_with('.') || arg.starts_with('/') {
        Some(PathBuf::from(arg)).filter(|p| p.is_file())
    } else {
        raypath.find(arg)
    };
    let path = path.ok_or_else(|| PkgBsdfError::NotFound(arg.to_string()))?;
    let base = arg.rsplit('/').next().unwrap_or(arg);
    let name = clip_name(base);
    let bsdf = Bsdf::load(&path)?;
    if bsdf.width <= FTINY || bsdf.height <= FTINY {
        return Err(PkgBsdfError::ZeroSize(base.to_string()));
    }
    let mut scene = format!("# Produced by: {program} {base}\n");
    let (matn, makr) = (clip_text(&bsdf.material), clip_text(&bsdf.manufacturer));
    if !matn.is_empty() && !makr.is_empty() {
        let _ = writeln!(scene, "# Material '{matn}' by '{makr}'\n");
    }
    let mut warnings = Vec::new();
    match &bsdf.mgf {
        None => face(&mut scene, &bsdf, &name, 0.0),
        Some(mgf) => {
            face(&mut scene, &bsdf, &name, bsdf.thickness);
            if bsdf.has_component(Side::Rb) {
                face(&mut scene, &bsdf, &name, -bsdf.thickness);
            }
            let geometry = translate(mgf, &path)?;
            warnings = geometry.warnings;
            scene.push_str(&geometry.scene);
        }
    }
    Ok(Packaged {
        name,
        scene,
        warnings,
    })
}

/// The MGF text through `mgf2rad -s`, from a temporary file as RADIANCE's pkgBSDF writes it
/// (its name appears in the translation's comments, and `i` entities resolve beside it).
fn translate(mgf: &str, xml: &Path) -> Result<daylit_scene::mgf2rad::Output, PkgBsdfError> {
    let io = |e: std::io::Error| PkgBsdfError::Io(format!("cannot write a temporary file: {e}"));
    let mut tmp = tempfile::Builder::new()
        .prefix("rt")
        .rand_bytes(6)
        .tempfile()
        .map_err(io)?;
    tmp.write_all(mgf.as_bytes()).map_err(io)?;
    tmp.flush().map_err(io)?;
    let opts = MgfOptions {
        spectra: true,
        ..Default::default()
    };
    let tmp_name = tmp.path().display().to_string();
    mgf2rad(
        vec![Source::File(tmp_name)],
        "mgf2rad",
        &["-s".to_string()],
        &opts,
    )
    .map_err(|mut error| {
        // The temporary file is gone: name the block (its lines count from the block's
        // first non-blank text).
        error.file = "MGF block".into();
        PkgBsdfError::Mgf {
            file: xml.display().to_string(),
            error: Box::new(error),
        }
    })
}
