//! `daylit install-links DIR`: one symbolic link per RADIANCE program daylit answers to, so
//! that a tool which runs `rtrace`, `rcontrib`, `rmtxop` … finds daylit when DIR is first on
//! its PATH (or is its RADIANCE binary folder).

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `daylit install-links`.
#[derive(clap::Args)]
pub struct Args {
    /// Folder for the links (created if missing). Existing links of these names are
    /// replaced; other files of these names are left alone and reported.
    pub dir: PathBuf,
    /// Replace regular files of these names as well.
    #[arg(long)]
    pub force: bool,
}

/// Creates the links; an existing file that is not a link stops the run unless `--force`.
pub fn run(a: &Args, names: &[&str]) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("cannot find the daylit executable")?;
    std::fs::create_dir_all(&a.dir)
        .with_context(|| format!("cannot create {}", a.dir.display()))?;
    let mut blocked = Vec::new();
    for name in names {
        let link = a.dir.join(name);
        let is_plain_file = std::fs::symlink_metadata(&link).is_ok_and(|m| !m.is_symlink());
        if is_plain_file && !a.force {
            blocked.push(link.display().to_string());
            continue;
        }
        replace_with_link(&exe, &link)?;
    }
    if !blocked.is_empty() {
        anyhow::bail!(
            "left alone (not links; --force replaces them): {}",
            blocked.join(", ")
        );
    }
    println!(
        "{} RADIANCE programs now run daylit ({}): {}",
        names.len(),
        exe.display(),
        a.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The link is made beside its final name and renamed over it, so no moment lacks it.
fn replace_with_link(exe: &Path, link: &Path) -> anyhow::Result<()> {
    let tmp = link.with_extension("daylit-link.tmp");
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(exe, &tmp)
        .with_context(|| format!("cannot create {}", tmp.display()))?;
    std::fs::rename(&tmp, link).with_context(|| format!("cannot replace {}", link.display()))
}
