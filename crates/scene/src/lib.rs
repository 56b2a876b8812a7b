//! The RADIANCE scene language, read exactly as RADIANCE reads it.
//!
//! Data flow: scene text → [`lexer`] words → [`parse`] raw primitives and `!commands` →
//! [`load`] (commands expanded: [`xform`], [`genbox`], [`genprism`], [`genrev`], [`genworm`],
//! [`genblinds`], [`gensurf`];
//! OBJ meshes from [`obj`]) →
//! [`scene::SceneBuilder`] (modifier names resolved) → [`Scene`]. [`archive`] stores a
//! resolved scene in the binary file that `daylit oconv` writes. RADIANCE's own binary files,
//! [`octree`]s and compiled meshes ([`rtm`]), are read through [`portable`], and
//! [`compound`] places what `instance` and `mesh` primitives name. [`sources`] lists a scene's
//! distant sources (suns, sky domes) with the files and commands they came from, and leaves
//! surfaces out of a scene. [`extent`] bounds a scene and finds surfaces too large or too far
//! away to be meant.

pub mod archive;
pub mod compound;
pub mod curve;
pub mod error;
pub mod extent;
pub mod genblinds;
pub mod genbox;
pub mod genprism;
pub mod genrev;
pub mod gensurf;
pub mod genworm;
pub mod ies2rad;
pub mod lexer;
pub mod load;
pub mod mgf;
pub mod mgf2rad;
pub mod obj;
pub mod obj2mesh;
pub mod obj2rad;
pub mod objutil;
pub mod octree;
pub mod parse;
pub mod portable;
pub mod referenced;
pub mod rif;
pub mod rtm;
pub mod rtm_write;
pub mod scene;
pub mod sources;
pub mod types;
pub mod xform;
pub mod xform_text;

pub use error::{Loc, SceneError};
pub use load::{
    generated_text, load_scene, load_scene_text, load_scene_then_text, LoadOptions, TEXT_GENERATORS,
};
pub use scene::{LocalMesh, Mesh, Placement, PrimId, Primitive, Scene, SceneBuilder};
pub use sources::DistantSource;
pub use types::{Class, PrimType};
