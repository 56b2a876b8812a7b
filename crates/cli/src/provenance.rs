//! The [`Provenance`] of a run of one of daylit's own commands: the command line as given
//! and daylit's version; each command adds its inputs and settings.

use daylit_radfile::provenance::Provenance;

/// A record of this process's command line, run by this daylit.
pub fn start() -> Provenance {
    Provenance::new(std::env::args().collect(), env!("CARGO_PKG_VERSION"))
}

/// Adds the scene files given on the command line (`scene`) and the files the loaded scene
/// read or names beyond them (`scene data`: `!xform` inputs, meshes, `.cal` and data files,
/// pictures, BSDF XML, found along `raypath`), each with its hash.
pub fn add_scene(
    p: &mut Provenance,
    files: &[std::path::PathBuf],
    scene: &daylit_scene::Scene,
    raypath: &daylit_cal::RayPath,
) -> anyhow::Result<()> {
    for f in files {
        p.add_input("scene", f)?;
    }
    for f in scene.referenced_files(files, raypath) {
        p.add_input("scene data", &f)?;
    }
    Ok(())
}
