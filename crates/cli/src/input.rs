//! Reading a program's inputs as RADIANCE's utilities name them: a file, `-` for standard
//! input, or `!command` for a command's output.

use anyhow::{bail, Context};
use std::io::Read;

/// The bytes of one input and the name errors give it (`<stdin>` for `-`).
pub fn read_operand(program: &str, spec: &str) -> anyhow::Result<(String, Vec<u8>)> {
    if spec == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .with_context(|| format!("{program}: cannot read standard input"))?;
        Ok(("<stdin>".to_string(), b))
    } else if let Some(cmd) = spec.strip_prefix('!') {
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stderr(std::process::Stdio::inherit())
            .output()
            .with_context(|| format!("{program}: cannot run {cmd}"))?;
        if !o.status.success() {
            bail!("{program}: command '{cmd}' failed ({})", o.status);
        }
        Ok((spec.to_string(), o.stdout))
    } else {
        let b = std::fs::read(spec).with_context(|| format!("{program}: {spec}: cannot open"))?;
        Ok((spec.to_string(), b))
    }
}

/// The one input after a program's options: the named file, or standard input when none.
pub fn read_single(
    program: &str,
    rest: &[String],
    usage: &str,
) -> anyhow::Result<(String, Vec<u8>)> {
    match rest {
        [] => read_operand(program, "-"),
        [f] if f != "-" => read_operand(program, f),
        _ => bail!("{program}: bad # file arguments ({usage})"),
    }
}

/// An exposure change in whole f-stops as RADIANCE's picture converters take it (`-e +2`,
/// `-e -1`): the sign is required, the number read as C's `atoi` reads it.
pub fn signed_stops(v: &str, usage: &str) -> anyhow::Result<i32> {
    if !v.starts_with(['+', '-']) {
        anyhow::bail!("-e takes a signed number of stops (+2, -1), not '{v}'\n{usage}");
    }
    Ok(daylit_radfile::scan::atoi(v) as i32)
}

/// RADIANCE's renderers' argument expansion: an argument `@file` stands for the words of the
/// file (split at white space, no quoting), `$NAME` for the words of environment variable
/// NAME; expanded words are expanded again.
pub fn expand_arguments(program: &str, args: &[String]) -> anyhow::Result<Vec<String>> {
    let mut out: Vec<String> = Vec::with_capacity(args.len());
    let mut todo: Vec<String> = args.iter().rev().cloned().collect();
    let mut expansions = 0;
    while let Some(a) = todo.pop() {
        let words = if let Some(file) = a.strip_prefix('@') {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("{program}: cannot expand '{a}': cannot read {file}"))?;
            text.split_ascii_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        } else if let Some(name) = a.strip_prefix('$').filter(|n| !n.is_empty()) {
            let value = std::env::var(name).with_context(|| {
                format!("{program}: cannot expand '{a}': no environment variable {name}")
            })?;
            value.split_ascii_whitespace().map(str::to_string).collect()
        } else {
            out.push(a);
            continue;
        };
        expansions += 1;
        if expansions > 1000 {
            bail!("{program}: cannot expand '{a}': options files include each other");
        }
        todo.extend(words.into_iter().rev());
    }
    Ok(out)
}

/// Whether RADIANCE's matrix programs read operand `spec` as a BSDF: a file (not `!command`)
/// whose name ends in `.xml`, in any case.
pub fn is_bsdf_xml(spec: &str) -> bool {
    !spec.starts_with('!')
        && spec.len() > 4
        && spec.is_char_boundary(spec.len() - 4)
        && spec[spec.len() - 4..].eq_ignore_ascii_case(".xml")
}

/// The matrix RADIANCE's `rmtxop` and `dctimestep` make of a Klems BSDF XML file
/// (`cm_loadBTDF`, `cm_loadBRDF`): exiting × incident patches, RGB, each element the BSDF times
/// the incident patch's projected solid angle.
pub fn bsdf_matrix(
    program: &str,
    path: &str,
    which: daylit_bsdf::Which,
) -> anyhow::Result<daylit_matrix::Matrix> {
    let bsdf = daylit_bsdf::Bsdf::load(std::path::Path::new(path))
        .map_err(|e| anyhow::anyhow!("{program}: {e}"))?;
    let k = bsdf
        .klems(which)
        .map_err(|e| anyhow::anyhow!("{program}: {e}"))?;
    let data = k.data.iter().flatten().copied().collect();
    daylit_matrix::Matrix::new(k.rows, k.cols, 3, data)
        .map_err(|e| anyhow::anyhow!("{program}: {path}: {e}"))
}
