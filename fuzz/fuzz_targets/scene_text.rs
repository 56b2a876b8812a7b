//! Scene language: lexing, parsing, name resolution and the native `!xform` / `!genbox`
//! expansion. Only "no panic, no hang" is checked; errors are fine.
#![no_main]

use daylit_scene::{load_scene_text, LoadOptions};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// An empty directory used as cwd and the only RAYPATH entry, so `!xform file` finds nothing
/// but what the input itself names (and no shell command ever runs: allow_commands is false).
fn empty_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("daylit-fuzz-empty-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("create empty cwd");
        d
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let cwd = empty_dir();
    let opts = LoadOptions {
        allow_commands: false,
        check_files: false,
        raypath: daylit_cal::RayPath::new([cwd.clone()]),
    };
    let _ = load_scene_text(&text, "fuzz.rad", cwd, &opts);
});
