//! RADIANCE's own binary files: `oconv` octrees (frozen or not) and `obj2mesh` meshes. Each
//! input is read as both, as is and behind each file's magic header (otherwise almost every
//! mutation stops at the first bytes). Only "no panic, no hang" is checked; errors are fine.
#![no_main]

use daylit_scene::octree::read_octree;
use daylit_scene::rtm::read_rtm;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.bin");
    let _ = read_octree(data, path);
    let _ = read_rtm(data, path);
    for header in [
        &b"#?RADIANCE\nFORMAT=Radiance_octree\n\n"[..],
        &b"#?RADIANCE\nFORMAT=Radiance_tmesh\n\n"[..],
    ] {
        let mut wrapped = header.to_vec();
        wrapped.extend_from_slice(data);
        let _ = read_octree(&wrapped, path);
        let _ = read_rtm(&wrapped, path);
    }
});
