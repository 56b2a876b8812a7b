//! Window groups of the three- and five-phase methods. A group is every polygon whose
//! material is one `BSDF` or `aBSDF` (the material's name is the group's name); its first
//! state is the material's own XML file, further states are files the user adds. As in
//! RADIANCE, the polygons' normals point into the room (the BSDF's front, WINDOW's back),
//! and the material's up vector orients the Klems basis of the view and daylight matrices.

use super::PhaseError;
use daylit_bsdf::klems_from::{from_bsdf, KlemsSize};
use daylit_bsdf::{Bsdf, Which};
use daylit_cal::RayPath;
use daylit_matrix::Matrix;
use daylit_scene::{Loc, PrimId, PrimType, Scene};
use glam::DVec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Samples per pair of Klems patches when a tensor tree is averaged into a Klems matrix for
/// the T of `V T D` (RADIANCE's `bsdf2klems` default).
const TREE_TO_KLEMS_SAMPLES: usize = 1024;

/// One BSDF a window group can take.
#[derive(Debug)]
pub struct WindowState {
    /// The file's name without directory or suffix.
    pub name: String,
    /// The BSDF, as the tracer and the direct-sun term evaluate it.
    pub bsdf: Arc<Bsdf>,
    /// Its transmission as `dctimestep` takes T: exiting (room side) × incident (outside)
    /// Klems patches, RGB, each value times the incident patch's projected solid angle. A
    /// tensor tree is averaged over the patches first, as `bsdf2klems` does.
    pub transmission: Matrix,
}

/// A window group.
#[derive(Debug)]
pub struct WindowGroup {
    /// The name of its material.
    pub name: String,
    /// Its polygons.
    pub surfaces: Vec<PrimId>,
    /// The up vector of its BSDF frame.
    pub up: DVec3,
    /// Its states, the material's own file first.
    pub states: Vec<WindowState>,
    /// Where the material is defined.
    pub loc: Loc,
}

impl WindowGroup {
    /// The `#@rfluxmtx` text of the group's polygons under modifier `modifier`: what
    /// RADIANCE's `rfluxmtx` would be given as the window's receiver and sender file.
    pub fn rfluxmtx_text(&self, scene: &Scene, modifier: &str) -> String {
        let basis = match self.states[0].transmission.rows() {
            77 => "kh",
            41 => "kq",
            _ => "kf",
        };
        let u = self.up;
        let mut t = format!(
            "#@rfluxmtx h={basis} u={},{},{}\nvoid glow {modifier}\n0\n0\n4 1 1 1 0\n",
            u.x, u.y, u.z
        );
        for &id in &self.surfaces {
            let p = scene.prim(id);
            t += &format!("\n{modifier} polygon {}\n0\n0\n{}\n", p.name, p.fargs.len());
            for c in p.fargs.chunks(3) {
                t += &format!("  {:e} {:e} {:e}\n", c[0], c[1], c[2]);
            }
        }
        t
    }
}

/// A real constant of a material's string arguments (the up vector's components).
fn constant(p: &daylit_scene::Primitive, word: &str, what: &str) -> Result<f64, PhaseError> {
    word.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            PhaseError::located(
                &p.loc,
                format!(
                    "{} '{}': the {what} must be a number for the three- and five-phase methods, found \"{word}\"",
                    p.ptype.name(),
                    p.name
                ),
            )
        })
}

/// Loads a BSDF state and its Klems transmission.
pub fn load_state(path: &Path) -> Result<WindowState, PhaseError> {
    let bsdf = Bsdf::load(path).map_err(|e| PhaseError::Input(e.to_string()))?;
    let transmission = klems_transmission(&bsdf, path)?;
    Ok(WindowState {
        name: path
            .file_stem()
            .map_or_else(|| bsdf.name.clone(), |s| s.to_string_lossy().into_owned()),
        bsdf: Arc::new(bsdf),
        transmission,
    })
}

/// The T of `V T D`: the file's Klems transmission, or a tensor tree averaged into one.
fn klems_transmission(bsdf: &Bsdf, path: &Path) -> Result<Matrix, PhaseError> {
    let bad = |e: String| PhaseError::Input(format!("{}: {e}", path.display()));
    let k = if bsdf.is_tree() {
        let xml = from_bsdf(bsdf, KlemsSize::Full, TREE_TO_KLEMS_SAMPLES)
            .and_then(|k| k.to_xml())
            .map_err(bad)?
            .0;
        let klems = Bsdf::from_str(&xml, &path.display().to_string())
            .map_err(|e| PhaseError::Input(e.to_string()))?;
        klems.klems(Which::Transmission).map_err(bad)?
    } else {
        bsdf.klems(Which::Transmission).map_err(bad)?
    };
    if k.rows != k.cols || ![145, 77, 41].contains(&k.rows) {
        return Err(bad(format!(
            "a {}x{} transmission matrix: the view and daylight matrices need LBNL's Klems full, half or quarter basis",
            k.rows, k.cols
        )));
    }
    Matrix::new(
        k.rows,
        k.cols,
        3,
        k.data.iter().flatten().copied().collect(),
    )
    .map_err(|e| bad(e.to_string()))
}

/// The window groups of `scene`: one per `BSDF`/`aBSDF` material that a surface uses, in
/// the order the materials were defined. `extra` adds states: (material name, XML file).
/// Anything the matrix methods cannot honour is an error naming the primitive: a BSDF on a
/// surface other than a polygon, a thickness (a proxy), an up vector that is not constant,
/// a transform or added diffuse parts.
pub fn window_groups(
    scene: &Scene,
    raypath: &RayPath,
    extra: &[(String, PathBuf)],
) -> Result<Vec<WindowGroup>, PhaseError> {
    let mut groups: Vec<(PrimId, WindowGroup)> = Vec::new();
    for id in scene.surfaces() {
        let p = scene.prim(id);
        let Some(m) = scene.material_of(p.modifier) else {
            continue;
        };
        let mat = scene.prim(m);
        if !matches!(mat.ptype, PrimType::Bsdf | PrimType::ABsdf) {
            continue;
        }
        if p.ptype != PrimType::Polygon {
            return Err(PhaseError::located(
                &p.loc,
                format!(
                    "{} '{}' uses the BSDF '{}': window groups of the three- and five-phase methods must be polygons",
                    p.ptype.name(),
                    p.name,
                    mat.name
                ),
            ));
        }
        if let Some((_, g)) = groups.iter_mut().find(|(k, _)| *k == m) {
            g.surfaces.push(id);
            continue;
        }
        let first = usize::from(mat.ptype == PrimType::Bsdf);
        let sa = &mat.sargs;
        if first == 1 && constant(mat, &sa[0], "thickness")? != 0.0 {
            return Err(PhaseError::located(
                &mat.loc,
                format!(
                    "BSDF '{}' has a thickness (a proxy for detailed geometry): the three- and five-phase methods need a thin window; use the default method",
                    mat.name
                ),
            ));
        }
        if sa.len() > first + 5 || mat.fargs.iter().any(|v| *v != 0.0) {
            return Err(PhaseError::located(
                &mat.loc,
                format!(
                    "{} '{}': a transform or added diffuse parts are not part of the three- and five-phase methods (the XML file alone is the window's transmission)",
                    mat.ptype.name(),
                    mat.name
                ),
            ));
        }
        let up = DVec3::new(
            constant(mat, &sa[first + 1], "up vector")?,
            constant(mat, &sa[first + 2], "up vector")?,
            constant(mat, &sa[first + 3], "up vector")?,
        );
        if up.length_squared() == 0.0 {
            return Err(PhaseError::located(
                &mat.loc,
                format!("{} '{}': the up vector is zero", mat.ptype.name(), mat.name),
            ));
        }
        let file = &sa[first];
        let path = raypath.find(file).ok_or_else(|| {
            PhaseError::located(
                &mat.loc,
                format!("BSDF file \"{file}\" not found in the RAYPATH"),
            )
        })?;
        let state = load_state(&path)?;
        groups.push((
            m,
            WindowGroup {
                name: mat.name.clone(),
                surfaces: vec![id],
                up: up.normalize(),
                states: vec![state],
                loc: mat.loc.clone(),
            },
        ));
    }
    let mut groups: Vec<WindowGroup> = groups.into_iter().map(|(_, g)| g).collect();
    for (name, file) in extra {
        let g = groups.iter_mut().find(|g| &g.name == name).ok_or_else(|| {
            PhaseError::Input(format!(
                "--state {name}={}: no polygon in the scene uses a BSDF material named '{name}'",
                file.display()
            ))
        })?;
        let state = load_state(file)?;
        let (a, b) = (g.states[0].transmission.rows(), state.transmission.rows());
        if a != b {
            return Err(PhaseError::Input(format!(
                "--state {name}={}: its Klems basis has {b} patches, the group's first state {a}; all states of a group need one basis",
                file.display()
            )));
        }
        g.states.push(state);
    }
    Ok(groups)
}
