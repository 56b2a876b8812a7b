//! RADIANCE's RAYPATH search rules for function files.

use std::path::{Path, PathBuf};

/// Directories searched for `.cal` files, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RayPath {
    dirs: Vec<PathBuf>,
}

impl Default for RayPath {
    fn default() -> Self {
        RayPath {
            dirs: vec![PathBuf::from(".")],
        }
    }
}

impl RayPath {
    /// From the `RAYPATH` environment variable (platform path-list syntax,
    /// `:`-separated on Unix); `.` when unset or empty.
    pub fn from_env() -> Self {
        match std::env::var_os("RAYPATH") {
            Some(v) if !v.is_empty() => RayPath {
                dirs: std::env::split_paths(&v)
                    .map(|p| {
                        if p.as_os_str().is_empty() {
                            PathBuf::from(".")
                        } else {
                            p
                        }
                    })
                    .collect(),
            },
            _ => RayPath::default(),
        }
    }

    /// An explicit list of directories.
    pub fn new<I, P>(dirs: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        RayPath {
            dirs: dirs.into_iter().map(Into::into).collect(),
        }
    }

    /// The directories, in search order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// True when `name` is used as given rather than searched for: absolute
    /// paths and names starting with `./` or `../` (as RADIANCE's getpath).
    pub fn is_explicit(name: &str) -> bool {
        Path::new(name).is_absolute()
            || name.starts_with("./")
            || name.starts_with("../")
            || name.starts_with('~')
    }

    /// Find `name` on disk; `None` if no readable file is found.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        if name.is_empty() {
            return None;
        }
        if Self::is_explicit(name) {
            let p = expand_home(name);
            return p.is_file().then_some(p);
        }
        self.dirs.iter().map(|d| d.join(name)).find(|p| p.is_file())
    }
}

fn expand_home(name: &str) -> PathBuf {
    if let Some(rest) = name.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return Path::new(&home).join(rest);
        }
    }
    PathBuf::from(name)
}
