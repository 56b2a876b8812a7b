//! Every malformed scene gives an error naming file, line and column and what was expected.

use daylit_scene::{load_scene, load_scene_text, LoadOptions, SceneError};
use std::path::Path;

const PLASTIC: &str = "void plastic m 0 0 5 .5 .5 .5 0 0\n";

/// (scene text, expected "line:col", words the message must contain)
const CASES: &[(&str, &str, &[&str])] = &[
    ("void plastic p 1 x 0 5 .5 .5 .5 0 0", "1:1", &["plastic \"p\"", "exactly 0 string", "found 1"]),
    ("void plastic p 0 0 4 .5 .5 .5 0", "1:1", &["exactly 5 real", "found 4"]),
    ("void plastic m 0 0 5 1 1 1 0 0\nm polygon f 0 0 7 0 0 0 1 0 0 1", "2:1", &["polygon \"f\"", "multiple of 3"]),
    ("void plastic m 0 0 5 1 1 1 0 0\nm polygon f 0 0 6 0 0 0 1 0 0", "2:1", &["at least 9"]),
    ("void plastic p 0 0 5 .5 .5 abc 0 0", "1:28", &["expected a real number", "argument 3 of 5", "\"abc\""]),
    ("void plastic p x 0 5 .5 .5 .5 0 0", "1:16", &["number of string arguments", "integer", "\"x\""]),
    ("void plastic p -1 0 5 .5 .5 .5 0 0", "1:16", &["number of string arguments", "-1"]),
    ("void plastic p 0 2 1 2 5 .5 .5 .5 0 0", "1:17", &["0 integer arguments", "found 2"]),
    ("void plastik p 0 0 5 .5 .5 .5 0 0", "1:6", &["unknown primitive type", "plastik"]),
    ("nomat polygon f 0 0 9 0 0 0 1 0 0 1 1 0", "1:1", &["undefined modifier \"nomat\"", "polygon \"f\""]),
    ("m sphere s 0 0 4 0 0 0 1\nvoid plastic m 0 0 5 .5 .5 .5 0 0", "1:1", &["undefined modifier \"m\"", "defined before"]),
    ("void plastic m 0 0 5 1 1 1 0 0\nm sphere s 0 0 4 0 0 0 1\ns polygon p 0 0 9 0 0 0 1 0 0 1 1 0", "3:1", &["undefined modifier \"s\""]),
    ("void alias a nothing", "1:1", &["alias \"a\"", "bad reference \"nothing\""]),
    ("void plastic m 0 0 5 1 1 1 0 0\nm sphere s 0 0 4 0 0 0 1\nvoid alias a s", "3:1", &["surfaces cannot be aliased"]),
    ("inherit plastic p 0 0 5 .5 .5 .5 0 0", "1:1", &["\"inherit\" may only be the modifier of an alias"]),
    ("void plastic void 0 0 5 .5 .5 .5 0 0", "1:14", &["illegal modifier name \"void\""]),
    ("void plastic p 0 0 5 .5 .5", "1:27", &["unexpected end of input", "real argument 3 of 5"]),
    ("void plastic", "1:13", &["unexpected end of input", "identifier"]),
    ("void plastic p 0 0", "1:19", &["unexpected end of input", "number of real arguments"]),
    ("\u{1}\u{2}garbage \u{7f}\u{3} x y", "1:11", &["unknown primitive type"]),
    ("void brightfunc b 2 f nosuch.cal 0 0", "1:1", &["brightfunc \"b\"", "cannot find function file \"nosuch.cal\""]),
    ("void brightdata d 3 f nosuch.dat skybright.cal 0 0", "1:1", &["cannot find file \"nosuch.dat\""]),
    ("!gensky 13 21 12", "1:1", &["gensky: bad month 13", "expected 1 to 12"]),
    ("!gendaylit 3 21 12 -W 800", "1:1", &["gendaylit: option -W needs a value"]),
    ("!gensky 3 21 12 | rcalc -e x", "1:1", &["\"gensky 3 21 12 | rcalc -e x\" is not built into daylit", "--allow-commands"]),
    ("!obj2rad model.obj", "1:1", &["not built into daylit", "--allow-commands"]),
    ("!xform -t 1 0 0 nosuch.rad", "1:1", &["xform: cannot find scene file \"nosuch.rad\""]),
    ("!xform -t 1 0 nosuch.rad", "1:1", &["-t expects a number", "nosuch.rad"]),
    ("!xform -s 0 x.rad", "1:1", &["must not be 0"]),
    ("!xform -q x.rad", "1:1", &["command line error at \"-q\""]),
    ("!xform -rz 90", "1:1", &["no file reads standard input"]),
    ("!xform -a 0 -t 1 0 0 x.rad", "1:1", &["bad count for -a"]),
    ("!genbox m b 1 0 1", "1:1", &["sizes must be positive"]),
    ("!genbox m b 1 1", "1:1", &["usage"]),
    ("!genbox m b 1 1 1 -r .6", "1:1", &["less than half"]),
    ("!", "1:1", &["empty command"]),
    ("void plastic \"a\tb\" 0 0 5 .5 .5 .5 0 0", "1:14", &["illegal tab in identifier"]),
    ("void plastic p 0 0 5 .5 .5 1e999 0 0", "1:28", &["expected a real number"]),
    ("void plastic p 99999999999 a b", "1:31", &["unexpected end of input", "string argument 3 of 99999999999"]),
    ("void mist fog 0 0 2 .1 .1", "1:1", &["mist \"fog\"", "one of 0, 3, 6, 7"]),
    ("void glass g 0 0 5 .9 .9 .9 1.5 0", "1:1", &["glass \"g\"", "one of 3, 4"]),
    ("void illum i 2 a b 0 3 1 1 1", "1:1", &["at most 1 string"]),
    ("void plastic m 0 0 5 1 1 1 0 0\nvoid mixfunc x 4 m nothing f . 0 0", "2:1", &["undefined modifier \"nothing\"", "mixfunc \"x\""]),
    ("!genbox m b 1 1 1", "1:1", &["undefined modifier \"m\"", "b.1540"]),
];

/// What is wrong with the error for one case, if anything.
fn check_error(err: SceneError, src: &str, at: &str, words: &[&str]) -> Option<String> {
    let msg = err.to_string();
    let loc = format!("case:{at}:");
    if !msg.starts_with(&loc) {
        return Some(format!("{src:?}: expected location {loc}, got: {msg}"));
    }
    words
        .iter()
        .find(|w| !msg.contains(*w))
        .map(|w| format!("{src:?}: message lacks {w:?}: {msg}"))
}

#[test]
fn malformed_scenes_give_located_errors() {
    assert!(CASES.len() >= 25);
    let opts = LoadOptions::default();
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(
            |(src, at, words)| match load_scene_text(src, "case", Path::new("."), &opts) {
                Ok(_) => Some(format!("{src:?}: accepted malformed input")),
                Err(e) => check_error(e, src, at, words),
            },
        )
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_inside_included_files_name_that_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("part.rad"),
        format!("{PLASTIC}\nm sphere s 0 0 3 0 0 0\n"),
    )
    .unwrap();
    let err = load_scene_text(
        "!xform -t 1 0 0 part.rad\n",
        "case",
        dir.path(),
        &LoadOptions::default(),
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("part.rad:3:1:") && msg.contains("exactly 4 real"),
        "{msg}"
    );
}

#[test]
fn unreadable_files_are_errors() {
    let err = load_scene(&["/nonexistent/x.rad".into()], &LoadOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent/x.rad: cannot read"),
        "{err}"
    );
}

#[test]
fn a_file_including_itself_stops() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("loop.rad"), "!xform loop.rad\n").unwrap();
    let err = load_scene_text(
        "!xform loop.rad\n",
        "case",
        dir.path(),
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("nested more than"), "{err}");
}

#[test]
fn runaway_generators_stop_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("args.txt"), "-f args.txt\n").unwrap();
    let opts = LoadOptions::default();
    let run = |text: &str| {
        load_scene_text(text, "case", dir.path(), &opts)
            .unwrap_err()
            .to_string()
    };
    let e = run("void plastic m 0 0 5 .5 .5 .5 0 0\n!genbox m b 1 1 1 | xform -f args.txt\n");
    assert!(
        e.contains("case:2:1") && e.contains("nested more than"),
        "{e}"
    );
    let e = run(
        "void plastic m 0 0 5 .5 .5 .5 0 0\n!genbox m b 1 1 1 | xform -a 3000 -a 3000 -t 1 0 0\n",
    );
    assert!(
        e.contains("case:2:1") && e.contains("more than 10000000 primitives"),
        "{e}"
    );
    let e = run("!xform -f /dev/zero\n");
    assert!(e.contains("/dev/zero") && e.contains("a device"), "{e}");
    let e = run("!xform -rz 90 /dev/zero\n");
    assert!(e.contains("cannot find scene file \"/dev/zero\""), "{e}");
}
