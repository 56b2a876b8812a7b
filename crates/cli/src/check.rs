//! `daylit check`: what a scene holds and what looks wrong in it.

use crate::output::{self, outln};
use crate::SceneArgs;
use daylit_compile::Severity;
use daylit_scene::{load_scene, LoadOptions, Scene};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Arguments of `daylit check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
}

/// Modifiers that nothing refers to.
pub fn unused_modifiers(scene: &Scene) -> Vec<u32> {
    let mut used = vec![false; scene.prims.len()];
    for p in &scene.prims {
        let refs = p
            .modifier
            .iter()
            .chain(p.alias_of.iter())
            .chain(p.mod_refs.iter().flatten());
        for &m in refs {
            used[m as usize] = true;
        }
    }
    for m in scene
        .meshes
        .iter()
        .flat_map(|m| m.modifiers.iter().flatten())
    {
        used[*m as usize] = true;
    }
    (0..scene.prims.len() as u32)
        .filter(|&i| scene.prim(i).ptype.is_modifier() && !used[i as usize])
        .collect()
}

/// `daylit check`. Exits non-zero when geometry is degenerate (it would be dropped), a
/// function file does not compile, anything cannot be traced, or a surface is too large or
/// too far away to be meant (each listed with its place).
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let opts = LoadOptions {
        allow_commands: a.scene.allow_commands,
        ..Default::default()
    };
    let scene = load_scene(&a.scene.files, &opts)?;
    let mut shapes = daylit_compile::shapes(&scene);
    let mut env = daylit_cal::CalEnv::new();
    shapes.findings.extend(daylit_compile::check_functions(
        &scene,
        &opts.raypath,
        &mut env,
    ));

    let mut out = String::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &scene.prims {
        *counts.entry(p.ptype.name()).or_default() += 1;
    }
    let nmod = scene.prims.iter().filter(|p| p.ptype.is_modifier()).count();
    outln!(
        out,
        "primitives: {} ({} modifiers, {} surfaces); mesh triangles: {}",
        scene.prims.len(),
        nmod,
        scene.prims.len() - nmod,
        scene.mesh_triangles()
    );
    outln!(out, "by type:");
    for (t, n) in &counts {
        outln!(out, "  {t:<12} {n:>10}");
    }
    if !scene.meshes.is_empty() {
        outln!(
            out,
            "  {:<12} {:>10}",
            "(mesh tris)",
            scene.mesh_triangles()
        );
    }
    match shapes.bounds() {
        Some((lo, hi)) => {
            let d = hi - lo;
            // Huge numbers (a typing mistake, listed below) in exponent form, not 300 digits.
            let n = |x: f64| {
                if x.abs() < 1e9 {
                    format!("{x:.4}")
                } else {
                    format!("{x:.4e}")
                }
            };
            outln!(
                out,
                "bounding box: ({}, {}, {}) to ({}, {}, {}); size {} x {} x {}",
                n(lo.x),
                n(lo.y),
                n(lo.z),
                n(hi.x),
                n(hi.y),
                n(hi.z),
                n(d.x),
                n(d.y),
                n(d.z)
            );
        }
        None => outln!(out, "bounding box: none (no surfaces)"),
    }
    let lights = scene.prims.iter().filter(|p| p.ptype.is_light()).count();
    outln!(
        out,
        "distant sources: {}; light-emitting modifiers: {lights}",
        shapes.sources.len()
    );
    let unused = unused_modifiers(&scene);
    outln!(out, "unused modifiers: {}", unused.len());
    for &i in &unused {
        let p = scene.prim(i);
        outln!(out, "  {}: {} \"{}\"", p.loc, p.ptype.name(), p.name);
    }
    // Modifiers that cannot be shaded (unsupported types, bad arguments, missing files),
    // all of them, as every renderer would refuse them.
    let untraceable = daylit_transport::material::Modifiers::problems(&scene, &opts.raypath);
    let count = |s: Severity| shapes.findings.iter().filter(|f| f.severity == s).count();
    let (degenerate, errors) = (count(Severity::Degenerate), count(Severity::Error));
    // RADIANCE accepts these; daylit's own commands refuse them.
    let implausible = daylit_scene::extent::implausible(&scene);
    outln!(out,
        "problems: {} ({degenerate} degenerate surfaces, dropped as RADIANCE drops them; {errors} errors in geometry or functions; {} modifiers that cannot be traced; {} surfaces too large or too far away to be meant)",
        shapes.findings.len() + untraceable.len() + implausible.len(),
        untraceable.len(),
        implausible.len(),
    );
    for f in &shapes.findings {
        outln!(out, "  {f}");
    }
    for e in &untraceable {
        outln!(out, "  {e}");
    }
    for i in &implausible {
        outln!(out, "  {}: implausible: {}: {}", i.loc, i.what, i.msg);
    }
    output::print(&out)?;
    Ok(
        if degenerate + errors + untraceable.len() + implausible.len() > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        },
    )
}
