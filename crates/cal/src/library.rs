//! The embedded function-file library (our own texts, same names and
//! argument conventions as RADIANCE's files).

/// `(file name, text)` of every embedded function file.
pub const EMBEDDED_FILES: &[(&str, &str)] = &[
    ("rayinit.cal", include_str!("lib/rayinit.cal")),
    ("skybright.cal", include_str!("lib/skybright.cal")),
    ("perezlum.cal", include_str!("lib/perezlum.cal")),
    // Luminaire distributions (ies2rad output).
    ("source.cal", include_str!("lib/source.cal")),
    ("tilt.cal", include_str!("lib/tilt.cal")),
    // Direction coordinates of mkillum's illum distributions.
    ("illum.cal", include_str!("lib/illum.cal")),
    // Normal interpolation of genrev -s and gensurf -s output.
    ("rev.cal", include_str!("lib/rev.cal")),
    ("surf.cal", include_str!("lib/surf.cal")),
    // Smoothed and textured triangles of converted meshes.
    ("tmesh.cal", include_str!("lib/tmesh.cal")),
    // Sky and hemisphere bins for rcontrib/rfluxmtx.
    ("tregenza.cal", include_str!("lib/tregenza.cal")),
    ("reinhart.cal", include_str!("lib/reinhart.cal")),
    ("reinhartb.cal", include_str!("lib/reinhartb.cal")),
    ("disk2square.cal", include_str!("lib/disk2square.cal")),
    ("klems_full.cal", include_str!("lib/klems_full.cal")),
    ("klems_half.cal", include_str!("lib/klems_half.cal")),
    ("klems_quarter.cal", include_str!("lib/klems_quarter.cal")),
    ("cieskyscan.cal", include_str!("lib/cieskyscan.cal")),
];

/// Text of an embedded file by exact name (no directory part).
pub fn embedded_file(name: &str) -> Option<&'static str> {
    EMBEDDED_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}
