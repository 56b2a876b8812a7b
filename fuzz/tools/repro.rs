//! Loads scene files the way `daylit` does (`load_scene`, commands resolved relative to the
//! process's current directory), with no shell and no file checks, and reports the result.
//! Used for reproducers that need files beside them (fuzz/regressions/scene_text/*/).
//!
//! Usage: cd <folder> && cargo run --release --manifest-path <repo>/fuzz/Cargo.toml --example repro -- scene.rad

use daylit_scene::{load_scene, LoadOptions};
use std::path::PathBuf;

fn main() {
    let files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let opts = LoadOptions {
        allow_commands: false,
        check_files: false,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    match load_scene(&files, &opts) {
        Ok(s) => println!("ok: {} primitives ({:.1?})", s.prims.len(), t.elapsed()),
        Err(e) => println!("error: {e} ({:.1?})", t.elapsed()),
    }
}
