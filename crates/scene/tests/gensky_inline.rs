//! `!gensky` and `!gendaylit` inside scene files run natively (no shell), giving the same
//! primitives as the text the generators print; pipelines into `xform` work; bad arguments are
//! errors located at the command.

use daylit_scene::{load_scene_text, LoadOptions, Scene};
use std::path::Path;

/// The sky's glow and source, as scenes usually add them after the generator.
const SKY_REST: &str = "skyfunc glow skyglow 0 0 4 1 1 1 0\nskyglow source sky 0 0 4 0 0 1 180\n";

fn load(text: &str) -> Scene {
    load_scene_text(text, "case", Path::new("."), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// Type, name and arguments of every primitive, for comparing two scenes.
fn summary(s: &Scene) -> Vec<(String, String, Vec<String>, Vec<f64>)> {
    s.prims
        .iter()
        .map(|p| {
            (
                format!("{:?}", p.ptype),
                p.name.clone(),
                p.sargs.clone(),
                p.fargs.clone(),
            )
        })
        .collect()
}

fn words(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(String::from).collect()
}

#[test]
fn gensky_and_gendaylit_commands_load_natively() {
    let gensky_args = "3 21 12 -a 40 -o 105 -m 105 +s";
    let gendaylit_args = "6 21 12 -a 40 -o 105 -m 105 -W 850 120";
    let gensky = daylit_sky::gensky::gensky_text(&words(gensky_args))
        .unwrap()
        .text;
    let gendaylit = daylit_sky::gendaylit::gendaylit_text(&words(gendaylit_args))
        .unwrap()
        .text;
    for (cmd, text) in [
        (format!("!gensky {gensky_args}\n"), gensky),
        (format!("!gendaylit {gendaylit_args}\n"), gendaylit),
    ] {
        let native = load(&format!("{cmd}{SKY_REST}"));
        let printed = load(&format!("{text}{SKY_REST}"));
        assert_eq!(summary(&native), summary(&printed), "{cmd}");
        // light solar, source sun, brightfunc skyfunc, glow, source.
        assert_eq!(native.prims.len(), 5, "{cmd}");
    }
}

#[test]
fn gensky_pipes_into_xform() {
    let s = load(&format!(
        "!gensky 3 21 12 -a 40 -o 105 -m 105 | xform -rz 90\n{SKY_REST}"
    ));
    let plain = load(&format!("!gensky 3 21 12 -a 40 -o 105 -m 105\n{SKY_REST}"));
    let sun = |s: &Scene| {
        s.prims
            .iter()
            .find(|p| p.name == "sun")
            .unwrap()
            .fargs
            .clone()
    };
    let (r, p) = (sun(&s), sun(&plain));
    // A rotation of 90° about z takes (x, y, z) to (−y, x, z).
    for (a, b) in [(r[0], -p[1]), (r[1], p[0]), (r[2], p[2])] {
        assert!((a - b).abs() < 1e-6, "rotated sun {r:?} from {p:?}");
    }
    let func = s.prims.iter().find(|p| p.name == "skyfunc").unwrap();
    // As RADIANCE's xform writes it (`gensky 3 21 12 | xform -rz 90`).
    assert_eq!(
        func.sargs,
        ["skybr", "skybright.cal", "-i", "1", "-rz", "90"]
    );
}

#[test]
fn gensky_bad_arguments_are_located_errors() {
    let text = "# a sky\n\n!gensky 3 21 12 -t\n";
    let e = load_scene_text(text, "case", Path::new("."), &LoadOptions::default()).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("case:3:1:") && msg.contains("gensky: option -t needs a value"),
        "{msg}"
    );
}

#[test]
fn a_command_line_argument_starting_with_bang_is_a_command() {
    // oconv "!genbox m b 1 2 3": the argument is a command, not a file name.
    let alone = daylit_scene::load_scene(
        &["!genbox m b 1 2 3 | xform -t 1 0 0".into()],
        &LoadOptions::default(),
    );
    // With no file defining `m` the command's output names an undefined modifier: it ran.
    let e = alone.unwrap_err().to_string();
    assert!(e.contains("command line") && e.contains("\"m\""), "{e}");
    let dir = std::env::temp_dir().join(format!("daylit_bang_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mat = dir.join("m.rad");
    std::fs::write(&mat, "void plastic m 0 0 5 .5 .5 .5 0 0\n").unwrap();
    let s = daylit_scene::load_scene(
        &[mat, "!genbox m b 1 2 3 | xform -t 1 0 0".into()],
        &LoadOptions::default(),
    )
    .unwrap();
    let text = load("void plastic m 0 0 5 .5 .5 .5 0 0\n!genbox m b 1 2 3 | xform -t 1 0 0\n");
    assert_eq!(summary(&s), summary(&text));
    std::fs::remove_dir_all(&dir).ok();
}
