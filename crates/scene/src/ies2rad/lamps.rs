//! Lamp tables (`lamp.tab`): lamp names matched by patterns to a colour and a lumen
//! depreciation factor, as ies2rad (and pfilt) look them up.

use glam::DVec3;

/// daylit's own lamp table, used when no `lamp.tab` is on the RAYPATH.
pub const BUILTIN_LAMP_TABLE: &str = include_str!("lamp.tab");

/// One lamp: its RGB (scaled by the depreciation), CIE chromaticity and depreciation, in
/// single precision as RADIANCE keeps them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lamp {
    /// Red, green, blue.
    pub rgb: [f32; 3],
    /// CIE x.
    pub x: f32,
    /// CIE y.
    pub y: f32,
    /// Lumen depreciation factor (mean over initial lumens).
    pub depreciation: f32,
}

impl Lamp {
    /// A lamp of chromaticity (x, y) and depreciation `m`: luminance `m`.
    fn from_xym(x: f32, y: f32, m: f32) -> Lamp {
        // Single-precision steps, as RADIANCE computes them.
        let big_x = x / y * m;
        let big_z = (m as f64 * (1.0 / y as f64 - 1.0) - big_x as f64) as f32;
        let xyz = DVec3::new(big_x as f64, m as f64, big_z as f64);
        let rgb = daylit_image::color::cie_rgb(xyz);
        Lamp {
            rgb: [rgb.x as f32, rgb.y as f32, rgb.z as f32],
            x,
            y,
            depreciation: m,
        }
    }
}

/// A lamp table: patterns in order, each with its lamp.
#[derive(Clone, Debug)]
pub struct LampTable {
    entries: Vec<(regex::Regex, Lamp)>,
}

impl LampTable {
    /// Reads a lamp table; errors name the line (`file:line: what`).
    pub fn parse(text: &str, file: &str) -> Result<LampTable, String> {
        let mut table = LampTable {
            entries: Vec::new(),
        };
        for (k, line) in text.lines().enumerate() {
            let err = |what: &str| format!("{file}:{}: {what}: {}", k + 1, line.trim_end());
            let s = line.trim_start();
            let Some(delim) = s.chars().next().filter(|&c| c != '#') else {
                continue;
            };
            let body = &s[delim.len_utf8()..];
            let end = closing(body, delim).ok_or_else(|| err("unclosed pattern"))?;
            let pattern = translate(&body[..end]).map_err(|e| err(&e))?;
            let spec = body[end + delim.len_utf8()..].trim_start();
            let lamp = if let Some(alias) = spec.strip_prefix('(') {
                let close = closing(alias, ')').unwrap_or(alias.len());
                table
                    .find(&alias[..close])
                    .ok_or_else(|| err("unmatched alias"))?
            } else if spec.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                let v: Vec<f32> = spec
                    .split_whitespace()
                    .take(3)
                    .map_while(|w| w.parse::<f32>().ok())
                    .collect();
                if v.len() != 3 {
                    return Err(err(
                        "bad lamp data (expected CIE x, y and a depreciation factor)",
                    ));
                }
                Lamp::from_xym(v[0], v[1], v[2])
            } else {
                return Err(err("missing lamp specification"));
            };
            table.entries.push((pattern, lamp));
        }
        Ok(table)
    }

    /// The first lamp whose pattern occurs in `s`.
    pub fn find(&self, s: &str) -> Option<Lamp> {
        self.entries
            .iter()
            .find(|(p, _)| p.is_match(s))
            .map(|(_, l)| *l)
    }

    /// Whether the table has no lamps.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Where `c` closes `s` (not after a backslash).
fn closing(s: &str, c: char) -> Option<usize> {
    let mut prev = None;
    for (i, ch) in s.char_indices() {
        if ch == c && prev != Some('\\') {
            return Some(i);
        }
        prev = Some(ch);
    }
    None
}

/// A RADIANCE (grep-style) pattern as a case-blind `regex`: `. * [] ^ $` keep their meaning,
/// `\<` and `\>` are word boundaries, every other character stands for itself.
fn translate(p: &str) -> Result<regex::Regex, String> {
    let mut out = String::from("(?i)");
    let mut chars = p.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('<') => out.push_str(r"\b{start}"),
                Some('>') => out.push_str(r"\b{end}"),
                Some(e) => out.push_str(&regex::escape(&e.to_string())),
                None => return Err("bad regular expression (ends in a backslash)".into()),
            },
            '[' => {
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                let mut closed = false;
                let mut n = 0;
                for d in chars.by_ref() {
                    if d == ']' && n > 0 {
                        closed = true;
                        break;
                    }
                    n += 1;
                    if matches!(d, '[' | '\\' | '&' | '~') || (d == ']' && n == 1) {
                        out.push('\\');
                    }
                    out.push(d);
                }
                if !closed {
                    return Err("bad regular expression (unclosed [)".into());
                }
                out.push(']');
            }
            '*' if first => out.push_str(r"\*"),
            '.' | '*' | '$' => out.push(c),
            '^' if first => out.push(c),
            _ => out.push_str(&regex::escape(&c.to_string())),
        }
        first = false;
    }
    regex::Regex::new(&out).map_err(|e| format!("bad regular expression ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_matches_lamp_names() {
        let t = LampTable::parse(BUILTIN_LAMP_TABLE, "lamp.tab").unwrap();
        let ww = t.find("F32T8/WW warm white fluorescent").unwrap();
        assert_eq!((ww.x, ww.y, ww.depreciation), (0.436, 0.406, 0.85));
        // An alias takes its target's values; word boundaries count.
        assert_eq!(t.find("250W HPS lamp"), t.find("high pressure sodium"));
        assert_eq!(t.find("(1) 60W INCAND A19"), t.find("incandescent"));
        assert!(t.find("LED module").is_none());
        assert!(t.find("floodlight").is_none() && t.find("PAR38 flood").is_some());
        // Equal-energy white of luminance 1 is RGB (1, 1, 1).
        let w = t.find("WHITE").unwrap();
        for c in w.rgb {
            assert!((c - 1.0).abs() < 1e-3, "{:?}", w.rgb);
        }
    }

    #[test]
    fn bad_tables_name_the_line() {
        for (text, want) in [
            ("/open .4 .4 1\n", "unclosed pattern"),
            ("# ok\n/x/ (nothing)\n", ":2: unmatched alias"),
            ("/x/ .4 .4\n", "bad lamp data"),
            ("/x/ warm\n", "missing lamp specification"),
        ] {
            let e = LampTable::parse(text, "t.tab").unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
