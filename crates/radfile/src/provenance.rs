//! How a result was made, recorded in every result file daylit's own commands write
//! (`daylit annual`, `daylit render`, `daylit glare --annual`): the command line, daylit's
//! version, each input file with the SHA-256 of its content, the settings and the seed.
//!
//! One [`Provenance`] is built by the command and handed to each writer, which records it
//! in its file's own way: a `"provenance"` object in JSON ([`Provenance`] is `Serialize`),
//! `#` comment lines at the top of a CSV ([`Provenance::csv_comment`]), `NAME= value` lines
//! in a RADIANCE picture header ([`Provenance::header_lines`]), and PNG text chunks
//! ([`Provenance::png_text`]). The RADIANCE programs (rpict, rtrace, …) keep RADIANCE's own
//! header conventions and do not use this.
//!
//! The hash is of the file's bytes as read, so a result can be matched to the exact scene
//! and weather file that made it; files that a scene file itself reads (`!xform` inputs,
//! `.cal` and data files) are not followed.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// An input file of a result and the SHA-256 of its content.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InputFile {
    /// What the file is to the command: `scene`, `weather`, `sensors`, `schedule`, ….
    pub role: String,
    /// The path as given on the command line (`-` for standard input).
    pub path: PathBuf,
    /// The SHA-256 of the file's bytes in lower-case hex; `None` for standard input and
    /// pipes, whose bytes cannot be read twice.
    pub sha256: Option<String>,
}

/// How a result was made (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Provenance {
    /// The command line as given: the program name, then its arguments.
    pub command_line: Vec<String>,
    /// daylit's version, e.g. `0.1.0`.
    pub version: String,
    /// The input files in the order added.
    pub inputs: Vec<InputFile>,
    /// The settings that shape the numbers, as key/value pairs in the order added (defaults
    /// included, so a result says what it used even when the command line did not).
    pub settings: Vec<(String, String)>,
    /// The random seed of the Monte Carlo work, where there is one.
    pub seed: Option<u64>,
}

/// An input file could not be read for its hash.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {} to record its hash", path.display())]
pub struct ProvenanceError {
    /// The file.
    pub path: PathBuf,
    /// The cause.
    #[source]
    pub source: std::io::Error,
}

/// The SHA-256 of a file's content in lower-case hex, read in blocks.
pub fn sha256_file(path: &Path) -> Result<String, ProvenanceError> {
    let err = |source| ProvenanceError {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(err)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(err)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The SHA-256 of `bytes` in lower-case hex.
pub fn sha256_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Provenance {
    /// `path` as a report lists it: with the first 16 hex digits of its SHA-256 when it is
    /// one of the inputs and has one.
    pub fn described(&self, path: &Path) -> String {
        match self
            .inputs
            .iter()
            .find(|i| i.path == path)
            .and_then(|i| i.sha256.as_deref())
        {
            Some(h) => format!("{} (SHA-256 {}…)", path.display(), &h[..h.len().min(16)]),
            None => path.display().to_string(),
        }
    }

    /// A record of `command_line` (program name first) run by daylit `version`, with no
    /// inputs or settings yet.
    pub fn new(command_line: Vec<String>, version: &str) -> Provenance {
        Provenance {
            command_line,
            version: version.to_string(),
            ..Provenance::default()
        }
    }

    /// Adds an input file with the hash of its content; none for `-` (standard input) and
    /// other files that are not regular files (pipes), whose bytes cannot be read twice.
    pub fn add_input(&mut self, role: &str, path: &Path) -> Result<(), ProvenanceError> {
        let regular = path != Path::new("-")
            && std::fs::metadata(path)
                .map_err(|source| ProvenanceError {
                    path: path.to_path_buf(),
                    source,
                })?
                .is_file();
        let sha256 = if regular {
            Some(sha256_file(path)?)
        } else {
            None
        };
        self.inputs.push(InputFile {
            role: role.to_string(),
            path: path.to_path_buf(),
            sha256,
        });
        Ok(())
    }

    /// Adds a setting; its value as the user would write it.
    pub fn add_setting(&mut self, key: &str, value: impl ToString) {
        self.settings.push((key.to_string(), value.to_string()));
    }

    /// The command line as one line, words quoted where the shell needs it.
    pub fn command_text(&self) -> String {
        self.command_line
            .iter()
            .map(|w| crate::header::word(w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The settings as `key=value` words joined by spaces.
    pub fn settings_text(&self) -> String {
        self.settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The record as lines of text: `daylit VERSION`, `command: …`, one `ROLE: PATH
    /// sha256=HEX` per input, `settings: …`, `seed: N`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!("daylit {}", self.version),
            format!("command: {}", self.command_text()),
        ];
        for f in &self.inputs {
            out.push(format!(
                "{}: {} sha256={}",
                f.role,
                f.path.display(),
                f.sha256.as_deref().unwrap_or("(not a regular file)")
            ));
        }
        if !self.settings.is_empty() {
            out.push(format!("settings: {}", self.settings_text()));
        }
        if let Some(s) = self.seed {
            out.push(format!("seed: {s}"));
        }
        out
    }

    /// The record as CSV comment lines, each starting with `# ` and ending in a newline, to
    /// stand before the CSV's header row.
    pub fn csv_comment(&self) -> String {
        self.lines()
            .iter()
            .map(|l| format!("# {}\n", l.replace(['\n', '\r'], " ")))
            .collect()
    }

    /// Lines for a RADIANCE information header, in its `NAME= value` style:
    /// `DAYLIT_VERSION= V`, one `ROLE_SHA256= HEX PATH` per input (`SCENE_SHA256=`,
    /// `WEATHER_SHA256=`, …), `DAYLIT_SETTINGS= k=v …` and `SEED= N`. The command line is
    /// left to the header's own command-line line.
    pub fn header_lines(&self) -> Vec<String> {
        let mut out = vec![format!("DAYLIT_VERSION= {}", self.version)];
        for f in &self.inputs {
            let role: String = f
                .role
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_uppercase()
                    } else {
                        '_'
                    }
                })
                .collect();
            out.push(format!(
                "{role}_SHA256= {} {}",
                f.sha256.as_deref().unwrap_or("-"),
                f.path.display()
            ));
        }
        if !self.settings.is_empty() {
            out.push(format!("DAYLIT_SETTINGS= {}", self.settings_text()));
        }
        if let Some(s) = self.seed {
            out.push(format!("SEED= {s}"));
        }
        out.into_iter()
            .map(|l| l.replace(['\n', '\r'], " "))
            .collect()
    }

    /// PNG text chunks (keyword, text), all in Latin-1's ASCII part as tEXt chunks need:
    /// `Software` (daylit and its version), `Comment` (the command line) and
    /// `daylit:provenance` (the whole record as JSON, non-ASCII characters escaped).
    pub fn png_text(&self) -> Vec<(String, String)> {
        vec![
            ("Software".into(), format!("daylit {}", self.version)),
            ("Comment".into(), ascii_escape(&self.command_text())),
            ("daylit:provenance".into(), self.json_ascii()),
        ]
    }

    /// The record as compact JSON text with every non-ASCII character written as a
    /// `\uXXXX` escape (JSON readers decode it to the same string).
    pub fn json_ascii(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
        out
    }
}

/// Non-ASCII characters as `\u{…}` (for text fields that must stay ASCII).
fn ascii_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                format!("\\u{{{:x}}}", c as u32)
            }
        })
        .collect()
}

/// The settings as a JSON object in their order.
struct Settings<'a>(&'a [(String, String)]);

impl Serialize for Settings<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// `{"command_line": [...], "daylit_version": "...", "inputs": [{"role", "path",
/// "sha256"}], "settings": {key: value, ...}, "seed": N | null}`.
impl Serialize for Provenance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Provenance", 5)?;
        st.serialize_field("command_line", &self.command_line)?;
        st.serialize_field("daylit_version", &self.version)?;
        st.serialize_field("inputs", &self.inputs)?;
        st.serialize_field("settings", &Settings(&self.settings))?;
        st.serialize_field("seed", &self.seed)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_text() {
        // FIPS 180-2's example "abc".
        assert_eq!(
            sha256_bytes(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn records_in_every_form() {
        let dir = tempfile::tempdir().unwrap();
        let scene = dir.path().join("room é.rad");
        std::fs::write(&scene, "abc").unwrap();
        let mut p = Provenance::new(vec!["daylit".into(), "annual".into()], "0.1.0");
        p.add_input("scene", &scene).unwrap();
        p.add_input("scene", Path::new("-")).unwrap();
        p.add_setting("ab", 2);
        p.seed = Some(7);
        let hash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["inputs"][0]["sha256"], hash);
        assert!(v["inputs"][1]["sha256"].is_null());
        assert_eq!(v["settings"]["ab"], "2");
        assert_eq!(v["seed"], 7);
        let csv = p.csv_comment();
        assert!(csv.lines().all(|l| l.starts_with("# ")));
        assert!(csv.contains(&format!("sha256={hash}")));
        let h = p.header_lines();
        assert!(h.contains(&"DAYLIT_VERSION= 0.1.0".to_string()));
        assert!(h[1].starts_with(&format!("SCENE_SHA256= {hash} ")));
        assert!(h.contains(&"SEED= 7".to_string()));
        for (k, t) in p.png_text() {
            assert!(k.is_ascii() && t.is_ascii(), "{k}: {t}");
        }
        let back: serde_json::Value = serde_json::from_str(&p.json_ascii()).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn missing_input_is_an_error() {
        let mut p = Provenance::default();
        let e = p
            .add_input("weather", Path::new("/no/such/file.epw"))
            .unwrap_err();
        assert!(e.to_string().contains("/no/such/file.epw"));
    }
}
