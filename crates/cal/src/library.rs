//! The embedded function-file library (our own texts, same names and
//! argument conventions as RADIANCE's files).

/// `(file name, text)` of every embedded function file.
pub const EMBEDDED_FILES: &[(&str, &str)] = &[
    ("rayinit.cal", include_str!("lib/rayinit.cal")),
    ("skybright.cal", include_str!("lib/skybright.cal")),
    ("perezlum.cal", include_str!("lib/perezlum.cal")),
];

/// Text of an embedded file by exact name (no directory part).
pub fn embedded_file(name: &str) -> Option<&'static str> {
    EMBEDDED_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}
