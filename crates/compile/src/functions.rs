//! Compiles the function files and expressions that modifiers name, so that a `.cal` mistake is
//! reported with its place before any rendering starts.

use crate::{Finding, Severity};
use daylit_cal::{CalEnv, RayPath};
use daylit_scene::{PrimType, Scene};

/// Indices of string arguments that are expressions, for the types whose layout is fixed.
fn expression_args(t: PrimType) -> &'static [usize] {
    match t {
        PrimType::Brightfunc | PrimType::Plasfunc | PrimType::Metfunc | PrimType::Transfunc => &[0],
        PrimType::Specfunc => &[0],
        PrimType::Colorfunc | PrimType::Texfunc => &[0, 1, 2],
        PrimType::Plastic2 | PrimType::Metal2 | PrimType::Trans2 | PrimType::Ashik2 => &[0, 1, 2],
        PrimType::Mixfunc => &[2],
        PrimType::BrtdFunc => &[0, 1, 2, 3, 4, 5],
        _ => &[],
    }
}

/// Loads every function file the scene's modifiers name and compiles their expressions.
/// Returns one finding per problem; `env` keeps what compiled.
pub fn check_functions(scene: &Scene, raypath: &RayPath, env: &mut CalEnv) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in scene.prims.iter().filter(|p| p.ptype.is_modifier()) {
        let Some(fi) = p.ptype.funcfile_index() else {
            continue;
        };
        let file = &p.sargs[fi];
        let what = format!("{} \"{}\"", p.ptype.name(), p.name);
        let mut fail = |msg: String| {
            out.push(Finding {
                severity: Severity::Error,
                loc: p.loc.clone(),
                what: what.clone(),
                msg,
            })
        };
        if let Err(e) = env.load_file(file, raypath) {
            fail(format!("function file: {e}"));
            continue;
        }
        for &i in expression_args(p.ptype) {
            if let Err(e) = env.compile_expr_in(file, &p.sargs[i]) {
                fail(format!("expression \"{}\": {e}", p.sargs[i]));
            }
        }
    }
    out
}
