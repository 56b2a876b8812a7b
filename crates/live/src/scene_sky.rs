//! The sky in the user's scene files: their `source` primitives (how RADIANCE writes suns and
//! sky domes, by hand or through `!gensky` / `!gendaylit` lines), described for the page —
//! which files and commands it came from, and the date, time and CIE model a `!gensky` line
//! names, so that the page's controls start there.
//!
//! The rule the page and the command line follow: the session starts with this sky; a sky
//! chosen on the page (or with `--sky`) replaces every `source` in the files.

use crate::session::{SkyKind, SkyTime};
use daylit_scene::Scene;
use serde::Serialize;
use std::path::Path;

/// What the scene files' sky is and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SceneSky {
    /// Names of the `source` primitives (`sun`, `sky`, `ground`, …).
    pub sources: Vec<String>,
    /// The scene files they and their modifiers were read from, as given.
    pub files: Vec<String>,
    /// The inline commands that made them (`!gensky 12 21 14 +s`).
    pub commands: Vec<String>,
    /// Short, for the sky selector: "clear.rad" (file names, or the command when the sky
    /// comes from the command line alone).
    pub label: String,
    /// The whole story, for the page's note.
    pub note: String,
    /// The date and time of a `!gensky` / `!gendaylit` line (the first), if it names one.
    pub time: Option<SkyTime>,
    /// The generated sky most like it: the CIE model of a `!gensky` line.
    pub like: Option<SkyKind>,
}

impl SceneSky {
    /// The sky of `scene`, `None` when it has no `source` primitive.
    pub fn of(scene: &Scene) -> Option<SceneSky> {
        let found = scene.distant_sources();
        if found.is_empty() {
            return None;
        }
        let mut files: Vec<String> = Vec::new();
        let mut commands: Vec<String> = Vec::new();
        for o in found.iter().flat_map(|s| &s.origins) {
            let list = if o.starts_with('!') {
                &mut commands
            } else {
                &mut files
            };
            if !list.contains(o) {
                list.push(o.clone());
            }
        }
        let sources: Vec<String> = found.into_iter().map(|s| s.name).collect();
        let names: Vec<String> = files
            .iter()
            .map(|f| {
                Path::new(f)
                    .file_name()
                    .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let label = if names.is_empty() {
            commands.join(", ")
        } else {
            names.join(", ")
        };
        let mut note = format!(
            "the sky in your scene files: {} ({} source primitive{}: {})",
            if files.is_empty() {
                "the command line".to_string()
            } else {
                files.join(", ")
            },
            sources.len(),
            if sources.len() == 1 { "" } else { "s" },
            sources.join(", ")
        );
        if !commands.is_empty() {
            note.push_str(&format!(", made by {}", commands.join(" and ")));
        }
        let (time, like) = commands
            .iter()
            .find_map(|c| generator_time(c))
            .map_or((None, None), |(t, k)| (Some(t), k));
        Some(SceneSky {
            sources,
            files,
            commands,
            label,
            note,
            time,
            like,
        })
    }
}

/// The date and time a `!gensky` / `!gendaylit` command names (`month day hour`, the hour
/// decimal or `HH:MM`, a leading `+` for solar time taken as read), and for gensky the CIE
/// model its flags ask for (clear with sun by default, as gensky).
fn generator_time(command: &str) -> Option<(SkyTime, Option<SkyKind>)> {
    let words: Vec<&str> = command.trim_start_matches('!').split_whitespace().collect();
    let prog = Path::new(words.first()?).file_name()?.to_str()?;
    if prog != "gensky" && prog != "gendaylit" {
        return None;
    }
    let month: u32 = words.get(1)?.parse().ok()?;
    let day: u32 = words.get(2)?.parse().ok()?;
    let h = words.get(3)?.trim_start_matches('+');
    let hours = match h.split_once(':') {
        Some((hh, mm)) => hh.parse::<f64>().ok()? + mm.parse::<f64>().ok()? / 60.0,
        None => h.parse::<f64>().ok()?,
    };
    if !(0.0..24.0).contains(&hours) {
        return None;
    }
    let minutes = (hours * 60.0).round() as u32;
    let t = SkyTime {
        month,
        day,
        hour: (minutes / 60).min(23),
        minute: if minutes / 60 > 23 { 59 } else { minutes % 60 },
    };
    t.check().ok()?;
    let like = (prog == "gensky").then(|| {
        words[4..]
            .iter()
            .rev()
            .find_map(|w| match *w {
                "+s" | "-s" => Some(SkyKind::Clear),
                "+i" | "-i" => Some(SkyKind::Intermediate),
                "-c" | "-u" => Some(SkyKind::Overcast),
                _ => None,
            })
            .unwrap_or(SkyKind::Clear)
    });
    Some((t, like))
}

#[cfg(test)]
mod tests {
    use super::*;
    use daylit_scene::{load_scene_text, LoadOptions};

    fn sky_of(text: &str) -> Option<SceneSky> {
        let s = load_scene_text(
            text,
            "skies/sky.rad",
            Path::new("."),
            &LoadOptions::default(),
        )
        .unwrap();
        SceneSky::of(&s)
    }

    const DOME: &str = "
skyfunc glow sky_glow
0
0
4 1 1 1 0

sky_glow source sky
0
0
4 0 0 1 180
";

    #[test]
    fn a_gensky_line_and_its_dome() {
        let s = sky_of(&format!(
            "!gensky 12 21 14.5 -a 40 -o 105 -m 105 -c\n{DOME}"
        ))
        .unwrap();
        assert_eq!(s.sources, ["sky"]);
        assert_eq!(s.files, ["skies/sky.rad"]);
        assert_eq!(s.commands, ["!gensky 12 21 14.5 -a 40 -o 105 -m 105 -c"]);
        assert_eq!(s.label, "sky.rad");
        assert!(
            s.note.contains("skies/sky.rad") && s.note.contains("!gensky 12 21 14.5"),
            "{}",
            s.note
        );
        let t = s.time.unwrap();
        assert_eq!((t.month, t.day, t.hour, t.minute), (12, 21, 14, 30));
        assert_eq!(s.like, Some(SkyKind::Overcast));
    }

    #[test]
    fn a_sun_by_hand_and_no_sky() {
        let sun = "void light solar\n0\n0\n3 1e6 1e6 1e6\n\nsolar source sun\n0\n0\n4 0 -1 1 0.5\n";
        let s = sky_of(sun).unwrap();
        assert_eq!((s.sources.len(), s.time, s.like), (1, None, None));
        assert!(s.commands.is_empty());
        assert!(sky_of("void plastic p\n0\n0\n5 .5 .5 .5 0 0\n").is_none());
    }

    #[test]
    fn generator_lines() {
        let (t, k) = generator_time("!gensky 6 21 +9.5").unwrap();
        assert_eq!((t.hour, t.minute, k), (9, 30, Some(SkyKind::Clear)));
        let (t, k) = generator_time("!gendaylit 3 1 12 -W 500 100").unwrap();
        assert_eq!((t.month, t.day, t.hour, k), (3, 1, 12, None));
        for bad in [
            "!gensky -ang 30 40 +s",
            "!gensky 2 30 12",
            "!xform sky.rad",
            "!gensky 1 1 25",
        ] {
            assert!(generator_time(bad).is_none(), "{bad}");
        }
    }
}
