//! Writes seeds for the `scene_archive` target: each scene file given on the command line is
//! loaded (no shell, no file checks, commands run in the file's own folder) and encoded with
//! `daylit_scene::archive::encode`; `<out>/<name>.full` is the whole binary scene file and
//! `<out>/<name>.payload` the payload alone (the target wraps every input in a valid header
//! and checksum as well, so payload seeds reach the record decoder).
//!
//! Usage: cargo run --release --manifest-path fuzz/Cargo.toml --example make_seeds -- OUT FILE.rad...

use daylit_scene::{archive, load_scene_text, LoadOptions};
use std::path::Path;

const MAT: &str = "void plastic mat 0 0 5 .5 .5 .5 0 0\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = Path::new(&args[0]);
    std::fs::create_dir_all(out).unwrap();
    let mut n = 0;
    for f in &args[1..] {
        let path = Path::new(f);
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let dir = path.parent().unwrap_or(Path::new("."));
        let opts = LoadOptions {
            allow_commands: false,
            check_files: false,
            raypath: daylit_cal::RayPath::new([dir.to_path_buf()]),
        };
        // Golden fragments use a modifier "mat" they do not define: define it in front.
        let scene = match load_scene_text(&text, f, dir, &opts)
            .or_else(|_| load_scene_text(&format!("{MAT}{text}"), f, dir, &opts))
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skip {f}: {e}");
                continue;
            }
        };
        let bytes = archive::encode(&scene, &[format!("daylit oconv {f}")]);
        assert!(archive::decode(&bytes).is_ok(), "{f}: encoded scene does not decode");
        // Payload: after the blank line ending the header, tag (4) + version (4) + length (8) + crc (4).
        let hdr_end = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
        let payload = &bytes[hdr_end + 20..];
        let name = f.replace(['/', '.'], "_");
        std::fs::write(out.join(format!("{name}.full")), &bytes).unwrap();
        std::fs::write(out.join(format!("{name}.payload")), payload).unwrap();
        n += 1;
    }
    // An empty scene, and one with an OBJ mesh (the only way meshes enter a scene).
    let empty = archive::encode(&daylit_scene::Scene::default(), &[]);
    std::fs::write(out.join("empty.full"), &empty).unwrap();
    let tmp = std::env::temp_dir().join(format!("daylit-fuzz-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mats = tmp.join("m.rad");
    std::fs::write(&mats, "void plastic wood 0 0 5 .5 .3 .1 0 0\nvoid plastic steel 0 0 5 .6 .6 .6 0 0\nvoid alias oak wood\n").unwrap();
    let obj = tmp.join("chair.obj");
    std::fs::write(
        &obj,
        "o chair\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nusemtl wood\nf 1//1 2//1 3//1 4//1\nusemtl steel\nf 1 2 3\n",
    )
    .unwrap();
    let opts = LoadOptions { allow_commands: false, check_files: false, ..Default::default() };
    let scene = daylit_scene::load_scene(&[mats, obj], &opts).expect("mesh scene");
    assert!(!scene.meshes.is_empty());
    let bytes = archive::encode(&scene, &[]);
    let hdr_end = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    std::fs::write(out.join("mesh.full"), &bytes).unwrap();
    std::fs::write(out.join("mesh.payload"), &bytes[hdr_end + 20..]).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("wrote seeds for {n} scene files to {}", out.display());
}
