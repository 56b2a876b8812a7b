//! `pkgBSDF`: BSDF XML files packaged as RADIANCE scenes (`daylit_coefficients::pkgbsdf`
//! does the work). Each goes to `NAME.rad` in the current directory, or with `-s` (one file
//! only) to standard output. `-i` (detail geometry as a frozen octree instance) is refused:
//! daylit writes no RADIANCE octrees.

use crate::output::{print, write_atomic};
use anyhow::bail;
use daylit_cal::RayPath;
use daylit_coefficients::pkgbsdf::package;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "Usage: pkgBSDF [-i][-s] input.xml ..";

/// Runs pkgBSDF with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut to_stdout = false;
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        match a.as_str() {
            "-i" => bail!(
                "-i (frozen octree instances) is not implemented: daylit writes no \
                 RADIANCE octrees; package without -i and run oconv on the result\n{USAGE}"
            ),
            "-s" => to_stdout = true,
            _ => bail!("unknown option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let files = &args[i..];
    if files.is_empty() {
        bail!("missing XML input\n{USAGE}");
    }
    if to_stdout && files.len() > 1 {
        bail!("cannot send multiple BSDFs to stdout");
    }
    let raypath = RayPath::from_env();
    let mut failed = false;
    for f in files {
        // Each file is packaged whole before anything is written, so a failure leaves
        // nothing behind for it.
        let done = package(f, &raypath, "pkgBSDF").map_err(anyhow::Error::from);
        let done = done.and_then(|p| {
            for w in &p.warnings {
                eprintln!("pkgBSDF: {f}: warning: {w}");
            }
            if to_stdout {
                print(&p.scene)
            } else {
                write_atomic(Path::new(&format!("{}.rad", p.name)), p.scene.as_bytes())
            }
        });
        if let Err(e) = done {
            eprintln!("pkgBSDF: {e:#}");
            eprintln!("pkgBSDF: conversion of '{f}' failed");
            failed = true;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
