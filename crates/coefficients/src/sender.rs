//! The sky sender: a glow of radiance 1 over the sky and the ground, whose hits are binned by
//! patch so that the bins line up with the rows of a sky matrix (ground first).

use daylit_compile::compile;
use daylit_scene::{load_scene_then_text, LoadOptions, SceneError};
use daylit_sky::patches::Subdivision;
use daylit_transport::contrib::{BinRay, ContribModifier, ContribSpec};
use daylit_transport::{Options, Renderer, TransportError};
use std::path::PathBuf;
use std::sync::Arc;

/// The modifier name of the sender; a scene that defines it is refused.
pub const SENDER: &str = "daylit_skyglow";

/// Scene text of the sender (both hemispheres, so ground rows get their rays too).
pub fn sender_text() -> String {
    format!(
        "void glow {SENDER} 0 0 4 1 1 1 0\n\
         {SENDER} source daylit_sky 0 0 4 0 0 1 180\n\
         {SENDER} source daylit_ground 0 0 4 0 0 -1 180\n"
    )
}

/// Why a coefficient renderer could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SenderError {
    /// The scene files did not load.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The tracer refused the scene or the options.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The user's scene already uses the sender's name.
    #[error("{0}")]
    Reserved(String),
}

/// A renderer of the user's scene lit by the sender alone, gathering sky-patch bins.
pub struct SkyRenderer {
    /// The tracer, contributions on.
    pub renderer: Renderer,
    /// The patches the bins stand for.
    pub patches: Subdivision,
}

/// Loads `files`, adds the sender and sets up contribution gathering by `patches` (with the
/// direct part split off). The scene should hold no sky of its own: any other light would
/// be in the traced values, though not in the coefficients.
pub fn sky_scene(
    files: &[PathBuf],
    load: &LoadOptions,
    opts: Options,
    patches: Subdivision,
) -> Result<SkyRenderer, SenderError> {
    let scene = load_scene_then_text(files, &sender_text(), "daylit sky sender", load)?;
    let glow = scene
        .find_modifier(SENDER)
        .ok_or_else(|| SenderError::Reserved("sender missing".into()))?;
    if scene.prims[..glow as usize]
        .iter()
        .any(|p| p.name == SENDER)
    {
        return Err(SenderError::Reserved(format!(
            "the scene already defines '{SENDER}', a name daylit reserves for its sky"
        )));
    }
    let compiled = compile(&scene);
    let mut renderer = Renderer::new(scene, compiled, opts, &load.raypath)?;
    let bin = move |r: &BinRay| Some(patches.index(r.dir));
    renderer.set_contributions(ContribSpec {
        modifiers: vec![ContribModifier {
            modifier: glow,
            bins: patches.len(),
            bin: Some(Arc::new(bin)),
        }],
        values: false,
        split_direct: true,
    });
    Ok(SkyRenderer { renderer, patches })
}
