//! RADIANCE's rad input files (`.rif`): the variables `rad` reads (`QUALITY= M`, `scene= …`,
//! `view= …`), RADIANCE's rules for reading, checking and defaulting them, and what rad derives
//! from them: rendering options for each QUALITY, DETAIL, VARIABILITY and PENUMBRAS setting,
//! pfilt options, standard views (`Xy`, `Zl`, …) and picture sizes. The numbers and the text
//! of every option follow RADIANCE 6.0a's rad, so a dry run (`rad -n`) prints what RADIANCE's
//! prints. Running the commands is the `rad` program's business (`crates/cli`).

mod options;
mod views;

use daylit_radfile::printf::format_g_digits;
use daylit_radfile::scan::is_float;

/// An error in a rad input file or a variable's value, worded as RADIANCE's rad words it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RifError(pub String);

/// How a variable's assignments are checked and combined.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// One file name, quotes removed.
    Str,
    /// LOW, MEDIUM or HIGH (any abbreviation, any case).
    Qual,
    Float,
    Int,
    Bool,
    /// One value; a later assignment replaces an earlier one (with a warning).
    One,
    /// Every assignment, joined by spaces.
    Cat,
    /// Every assignment kept apart (`view`).
    List,
}

/// A rad variable, in RADIANCE's order (which `rad -e` prints).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Var {
    AmbFile,
    Detail,
    Exposure,
    EyeSep,
    Illum,
    Indirect,
    Materials,
    Mkillum,
    Mkpmap,
    Objects,
    Oconv,
    Octree,
    OptFile,
    Pcmap,
    Penumbras,
    Pfilt,
    Pgmap,
    Picture,
    Quality,
    RawFile,
    Render,
    Report,
    Resolution,
    Rpict,
    Rvu,
    Scene,
    Up,
    Variability,
    View,
    ZFile,
    Zone,
}

/// Name, letters needed to name it, kind: in the order of [`Var`].
const DEFS: [(&str, usize, Kind); 31] = [
    ("AMBFILE", 3, Kind::Str),
    ("DETAIL", 3, Kind::Qual),
    ("EXPOSURE", 3, Kind::Float),
    ("EYESEP", 3, Kind::Float),
    ("illum", 3, Kind::Cat),
    ("INDIRECT", 3, Kind::Int),
    ("materials", 3, Kind::Cat),
    ("mkillum", 3, Kind::Cat),
    ("mkpmap", 3, Kind::Cat),
    ("objects", 3, Kind::Cat),
    ("oconv", 3, Kind::Cat),
    ("OCTREE", 3, Kind::Str),
    ("OPTFILE", 3, Kind::Str),
    ("PCMAP", 2, Kind::Str),
    ("PENUMBRAS", 3, Kind::Bool),
    ("pfilt", 2, Kind::Cat),
    ("PGMAP", 2, Kind::Str),
    ("PICTURE", 3, Kind::Str),
    ("QUALITY", 3, Kind::Qual),
    ("RAWFILE", 3, Kind::Str),
    ("render", 3, Kind::Cat),
    ("REPORT", 3, Kind::One),
    ("RESOLUTION", 3, Kind::One),
    ("rpict", 3, Kind::Cat),
    ("rvu", 3, Kind::Cat),
    ("scene", 3, Kind::Cat),
    ("UP", 2, Kind::One),
    ("VARIABILITY", 3, Kind::Qual),
    ("view", 2, Kind::List),
    ("ZFILE", 2, Kind::Str),
    ("ZONE", 2, Kind::One),
];

const ALL: [Var; 31] = [
    Var::AmbFile,
    Var::Detail,
    Var::Exposure,
    Var::EyeSep,
    Var::Illum,
    Var::Indirect,
    Var::Materials,
    Var::Mkillum,
    Var::Mkpmap,
    Var::Objects,
    Var::Oconv,
    Var::Octree,
    Var::OptFile,
    Var::Pcmap,
    Var::Penumbras,
    Var::Pfilt,
    Var::Pgmap,
    Var::Picture,
    Var::Quality,
    Var::RawFile,
    Var::Render,
    Var::Report,
    Var::Resolution,
    Var::Rpict,
    Var::Rvu,
    Var::Scene,
    Var::Up,
    Var::Variability,
    Var::View,
    Var::ZFile,
    Var::Zone,
];

impl Var {
    /// The variable's full name as rad prints it.
    pub fn name(self) -> &'static str {
        DEFS[self as usize].0
    }

    fn kind(self) -> Kind {
        DEFS[self as usize].2
    }

    /// The variable a name (or its abbreviation) stands for: at least the variable's first
    /// two or three letters, case as written.
    pub fn find(name: &str) -> Option<Var> {
        ALL.into_iter().find(|v| {
            let (full, nick, _) = DEFS[*v as usize];
            name.len() >= nick && full.starts_with(name)
        })
    }
}

/// LOW, MEDIUM or HIGH, as QUALITY, DETAIL and VARIABILITY take them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Low,
    Medium,
    High,
}

/// The simulation zone: seen from inside or outside, and its box.
#[derive(Clone, Copy, Debug)]
pub struct Zone {
    pub exterior: bool,
    pub min: [f64; 3],
    pub max: [f64; 3],
}

/// The options rad gives the renderer.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// The program (`rpict`, or the first word of the `rpict` variable).
    pub program: String,
    /// Rendering options shared with rvu, each preceded by a space.
    pub shared: String,
    /// rpict's own options (`-ps`, `-pt`, the `rpict` variable), each preceded by a space.
    pub picture: String,
    /// Whether an overture run should fill the ambient file first.
    pub overture: bool,
}

/// The picture size rad asks rpict for.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolution {
    /// rpict's size options (`-x … -y …` and `-pa` when given), enlarged by `mult`.
    pub options: String,
    pub x: i64,
    pub y: i64,
    pub aspect: f64,
    /// Oversampling that pfilt takes away: 1 for LOW, 2 for MEDIUM, 3 for HIGH quality.
    pub mult: i64,
}

/// The variables of a rad input file and of the command line after it.
#[derive(Clone, Debug)]
pub struct Rif {
    values: Vec<Vec<String>>,
}

impl Default for Rif {
    fn default() -> Self {
        Rif {
            values: vec![Vec::new(); ALL.len()],
        }
    }
}

/// The character that stands for an escaped one (a backslash and what follows it) while a
/// line is read: the escaped character itself is kept, the backslash dropped.
const ESCAPED: char = '\u{7f}';

impl Rif {
    /// Reads a rad input file's text: one assignment a line, `#` comments, `\` escaping the
    /// next character (so a line ending in `\` continues on the next). `file` names the file
    /// in errors.
    pub fn parse(text: &str, file: &str) -> Result<Rif, RifError> {
        let mut rif = Rif::default();
        let mut lineno = 0;
        let mut lines = text.split_inclusive('\n').peekable();
        while let Some(first) = lines.next() {
            lineno += 1;
            let start = lineno;
            let mut line = first.to_string();
            // An escaped newline joins the next line.
            while line.ends_with("\\\n") || line.ends_with("\\\r\n") {
                match lines.next() {
                    Some(next) => {
                        lineno += 1;
                        line.push_str(next);
                    }
                    None => break,
                }
            }
            let line = line.strip_suffix('\n').unwrap_or(&line);
            let line = line.strip_suffix('\r').unwrap_or(line);
            let mut kept = String::with_capacity(line.len());
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        kept.push(ESCAPED);
                        if let Some(n) = chars.next() {
                            kept.push(n);
                        }
                    }
                    '#' => break,
                    c => kept.push(c),
                }
            }
            if let Err(name) = rif.assign(&kept) {
                return Err(RifError(format!(
                    "{file}:{start}: unknown variable: {name} (expected one of {})",
                    DEFS.map(|d| d.0).join(", ")
                )));
            }
        }
        Ok(rif)
    }

    /// One assignment, `NAME= value` (the `=` optional, white space squeezed outside quotes).
    /// Returns whether it assigned anything (a line without a name or value does not), or the
    /// unknown name.
    pub fn assign(&mut self, text: &str) -> Result<bool, String> {
        let text = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
        let name_end = text
            .find(|c: char| c.is_ascii_whitespace() || c == '=')
            .unwrap_or(text.len());
        let (name, rest) = text.split_at(name_end);
        if name.is_empty() {
            return Ok(false);
        }
        let value = rest
            .trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '=')
            .trim_end_matches(|c: char| c.is_ascii_whitespace());
        if value.is_empty() {
            return Ok(false);
        }
        let var = Var::find(name).ok_or_else(|| name.to_string())?;
        let mut out = String::with_capacity(value.len());
        let mut quote = None;
        let mut chars = value.chars().peekable();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        while let Some(c) = chars.next() {
            if c == ESCAPED {
                continue;
            }
            let mut c = c;
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
            } else {
                if out.ends_with(|p: char| p.is_ascii_whitespace()) {
                    while c.is_ascii_whitespace() || c == ESCAPED {
                        match chars.next() {
                            Some(n) => c = n,
                            None => break,
                        }
                    }
                    if c.is_ascii_whitespace() || c == ESCAPED {
                        break;
                    }
                }
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
            }
            out.push(c);
        }
        let out = out.replace(ESCAPED, "");
        let out = out.trim_end_matches(|c: char| c.is_ascii_whitespace());
        self.values[var as usize].push(out.to_string());
        Ok(true)
    }

    /// Checks every variable's value as rad does and combines repeated assignments. Returns
    /// the warnings (a single-valued variable assigned more than once keeps its last value).
    pub fn check(&mut self) -> Result<Vec<String>, RifError> {
        let mut warnings = Vec::new();
        for var in ALL {
            let kind = var.kind();
            let vals = &mut self.values[var as usize];
            if vals.is_empty() {
                continue;
            }
            match kind {
                Kind::Cat => {
                    let joined = vals.join(" ");
                    *vals = vec![joined];
                    continue;
                }
                Kind::List => continue,
                _ => {}
            }
            if vals.len() > 1 {
                warnings.push(format!(
                    "warning - multiple assignment of variable '{}'",
                    var.name()
                ));
                vals.drain(..vals.len() - 1);
            }
            let v = &mut vals[0];
            let illegal = match kind {
                Kind::Qual if level_of(v).is_none() => Some("qualitative"),
                Kind::Bool if !["TRUE", "FALSE"].iter().any(|w| abbreviates(v, w)) => {
                    Some("boolean")
                }
                Kind::Int if !is_integer(v) => Some("integer"),
                Kind::Float if !is_float(v.trim().as_bytes()) => Some("real"),
                Kind::Str => {
                    let b = v.as_bytes();
                    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
                        *v = v[1..v.len() - 1].to_string();
                    }
                    None
                }
                _ => None,
            };
            if let Some(what) = illegal {
                return Err(RifError(format!(
                    "illegal value for {what} variable '{}': {v}",
                    var.name()
                )));
            }
        }
        Ok(warnings)
    }

    /// The variable's (first) value, if assigned.
    pub fn get(&self, var: Var) -> Option<&str> {
        self.values[var as usize].first().map(String::as_str)
    }

    /// Every assignment of a variable (the views, one each).
    pub fn all(&self, var: Var) -> &[String] {
        &self.values[var as usize]
    }

    /// Whether the variable is assigned.
    pub fn is_set(&self, var: Var) -> bool {
        !self.values[var as usize].is_empty()
    }

    /// Assigns a value where the variable has none.
    pub fn set_default(&mut self, var: Var, value: &str) {
        if !self.is_set(var) {
            self.values[var as usize] = vec![value.to_string()];
        }
    }

    /// The default zone when none is given: the exterior of the scene's bounding cube.
    pub fn set_default_zone(&mut self, origin: [f64; 3], size: f64) {
        let g = |x: f64| format_g_digits(x, 6);
        let [x, y, z] = origin;
        let zone = format!(
            "E {} {} {} {} {} {}",
            g(x),
            g(x + size),
            g(y),
            g(y + size),
            g(z),
            g(z + size)
        );
        self.set_default(Var::Zone, &zone);
    }

    /// rad's defaults for everything but the zone (set first): `radname` is the input file's
    /// name without its suffix, the default picture name.
    pub fn set_defaults(&mut self, radname: &str) -> Result<(), RifError> {
        if !self.is_set(Var::EyeSep) {
            let z = self.zone_box(false)?;
            let sum: f64 = (0..3).map(|i| z.max[i] - z.min[i]).sum();
            self.set_default(Var::EyeSep, &format!("{:.6}", 0.01 * sum));
        }
        self.set_default(Var::Indirect, "0");
        self.set_default(Var::Quality, "L");
        self.set_default(Var::Resolution, "512");
        self.set_default(Var::Picture, radname);
        self.set_default(Var::View, "X");
        self.set_default(Var::Detail, "M");
        self.set_default(Var::Penumbras, "F");
        self.set_default(Var::Variability, "L");
        Ok(())
    }

    /// Every variable and its value as rad's `-e` prints them, long values broken over lines.
    pub fn explicate(&self) -> String {
        let mut out = String::new();
        for var in ALL {
            let name = var.name();
            let kind = var.kind();
            let single = matches!(
                kind,
                Kind::Str | Kind::Float | Kind::Int | Kind::Qual | Kind::Bool
            );
            let clip = if kind == Kind::Cat { 64 } else { 236 } - name.len() as i64;
            for value in self.all(var) {
                out.push_str(name);
                out.push('=');
                if !single {
                    out.push(' ');
                }
                let chars: Vec<char> = value.chars().collect();
                let mut k = clip;
                let mut i = 0;
                while i < chars.len() {
                    out.push(chars[i]);
                    i += 1;
                    k -= 1;
                    if k <= 0 {
                        while i < chars.len() && !chars[i].is_ascii_whitespace() {
                            out.push(chars[i]);
                            i += 1;
                        }
                        if i < chars.len() {
                            if kind == Kind::Cat {
                                out.push('\n');
                                out.push_str(name);
                                out.push('=');
                            } else {
                                out.push_str(" \\\n");
                            }
                            k = clip;
                        }
                    }
                }
                out.push('\n');
            }
        }
        out
    }

    /// A qualitative variable's level (after [`Rif::set_defaults`]).
    pub fn level(&self, var: Var) -> Level {
        self.get(var).and_then(level_of).unwrap_or(Level::Low)
    }

    fn flag(&self, var: Var) -> bool {
        self.get(var).is_some_and(|v| starts_with_letter(v, 'T'))
    }

    fn bad(var: Var) -> RifError {
        RifError(format!("bad value for variable '{}'", var.name()))
    }

    /// The zone; `positive` also requires each side to be longer than zero.
    fn zone_box(&self, positive: bool) -> Result<Zone, RifError> {
        let v = self.get(Var::Zone).ok_or_else(|| Self::bad(Var::Zone))?;
        let words: Vec<&str> = v.split_ascii_whitespace().collect();
        let nums: Vec<f64> = words
            .iter()
            .skip(1)
            .take(6)
            .map_while(|w| leading_number(w))
            .collect();
        if nums.len() != 6 {
            return Err(Self::bad(Var::Zone));
        }
        let zone = Zone {
            exterior: starts_with_letter(v, 'E'),
            min: [nums[0], nums[2], nums[4]],
            max: [nums[1], nums[3], nums[5]],
        };
        if positive && (0..3).any(|i| zone.max[i] - zone.min[i] <= 1e-6) {
            return Err(Self::bad(Var::Zone));
        }
        Ok(zone)
    }

    /// The zone, each side longer than zero.
    pub fn zone(&self) -> Result<Zone, RifError> {
        self.zone_box(true)
    }
}

/// LOW, MEDIUM, HIGH or an abbreviation of one, any case.
fn level_of(v: &str) -> Option<Level> {
    [
        ("LOW", Level::Low),
        ("MEDIUM", Level::Medium),
        ("HIGH", Level::High),
    ]
    .into_iter()
    .find(|(w, _)| abbreviates(v, w))
    .map(|(_, l)| l)
}

/// The value starts with this letter in either case.
fn starts_with_letter(v: &str, letter: char) -> bool {
    v.chars()
        .next()
        .is_some_and(|c| c.eq_ignore_ascii_case(&letter))
}

/// RADIANCE's `isint`: a whole word of digits with an optional sign.
fn is_integer(v: &str) -> bool {
    let t = v.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `v` is a non-empty prefix of `word` in any case.
fn abbreviates(v: &str, word: &str) -> bool {
    !v.is_empty() && v.len() <= word.len() && word.starts_with(&v.to_ascii_uppercase())
}

fn first_word(s: &str) -> &str {
    s.trim_start()
        .split(|c: char| c.is_ascii_whitespace())
        .next()
        .unwrap_or("")
}

/// The number a word starts with, as C's `%lf` reads it (`None` when it starts with none).
fn leading_number(w: &str) -> Option<f64> {
    (1..=w.len().min(64))
        .rev()
        .filter(|&k| w.is_char_boundary(k))
        .find_map(|k| {
            let p = &w[..k];
            // Rust also reads "inf", "nan" and "e5" forms C would not start a number with.
            let first = p.as_bytes()[0];
            (first.is_ascii_digit() || b"+-.".contains(&first))
                .then(|| p.parse::<f64>().ok())
                .flatten()
        })
}

/// The integer a word starts with, as C's `%d` reads it.
fn leading_int(w: &str) -> Option<i64> {
    let end = w
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
        .map_or(w.len(), |(i, _)| i);
    w[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rif(text: &str) -> Rif {
        let mut r = Rif::parse(text, "t.rif").unwrap();
        r.check().unwrap();
        r
    }

    #[test]
    fn names_are_abbreviated_case_sensitively() {
        assert_eq!(Var::find("QUAL"), Some(Var::Quality));
        assert_eq!(Var::find("OPT"), Some(Var::OptFile));
        assert_eq!(Var::find("ZO"), Some(Var::Zone));
        assert_eq!(Var::find("Z"), None);
        assert_eq!(Var::find("qual"), None);
        assert_eq!(Var::find("vi"), Some(Var::View));
    }

    #[test]
    fn values_are_squeezed_outside_quotes_and_lines_continue() {
        let r = rif("scene= a.rad   b.rad \\\n  c.rad # comment\nscene= a \"x   y\"\nPICT= 'p'\n");
        assert_eq!(r.get(Var::Scene), Some("a.rad b.rad c.rad a \"x   y\""));
        assert_eq!(r.get(Var::Picture), Some("p"));
        assert!(Rif::parse("nonsense= 3\n", "f.rif")
            .unwrap_err()
            .0
            .starts_with("f.rif:1: unknown variable: nonsense"));
    }

    #[test]
    fn checks_refuse_illegal_values_and_keep_the_last_single_value() {
        let mut r = Rif::parse("QUALITY= great\n", "t").unwrap();
        assert!(r.check().is_err());
        let mut r = Rif::parse("IND= x\n", "t").unwrap();
        assert!(r.check().is_err());
        let mut r = Rif::parse("QUAL= H\nQUAL= m\n", "t").unwrap();
        assert_eq!(r.check().unwrap().len(), 1);
        assert_eq!(r.level(Var::Quality), Level::Medium);
    }

    #[test]
    fn medium_quality_options_follow_the_zone() {
        let mut r = rif("ZONE= I 0 3 0 2 0 1.75\nQUAL= M\nIND= 1\nAMB= a.amb\nVAR= H\n");
        r.set_defaults("t").unwrap();
        let o = r.render_options(4.0).unwrap();
        // cube 4 over a mean side of 2.25: -ar (int)(32 × 1.78) = 56; -ms 2.25/40.
        assert_eq!(
            o.shared,
            " -dp 512 -ar 56 -ms 0.056 -ds .3 -dt .07 -dc .7 -dr 1 -ss 1 -st .1 -ab 1 -af a.amb \
             -aa .1 -ad 1536 -as 392 -av 0.01 0.01 0.01 -lr 8 -lw 1e-4"
        );
        assert_eq!(o.picture, " -ps 6 -pt .08");
        assert!(o.overture);
        assert_eq!(r.get(Var::EyeSep), Some("0.067500"));
    }

    #[test]
    fn standard_views_sit_on_the_zone() {
        let mut r =
            rif("ZONE= I 0 3 0 2 0 1.75\nUP= Z\nview= Xy\nview= Zl\nview= mine -vp 1 1 1\n");
        r.set_defaults("t").unwrap();
        let (name, v) = r.view(0, None).unwrap().unwrap();
        assert_eq!(name, "Xy");
        assert_eq!(
            v,
            "-vtv -vp 2.85 0.1 0.875 -vd -3 2 0 -vu 0 0 1 -vh 45 -vv 45"
        );
        let (_, v) = r.view(1, None).unwrap().unwrap();
        assert_eq!(
            v,
            "-vtl -vp 1.5 1 1.66 -vd 0 0 -1.75 -vu 0 1 0 -vh 4.01 -vv 4.01"
        );
        let (name, v) = r.view(2, None).unwrap().unwrap();
        assert_eq!((name.as_str(), v.as_str()), ("mine", "-vu 0 0 1 -vp 1 1 1"));
        assert!(r.view(3, None).unwrap().is_none());
        let (name, _) = r.view(0, Some("2")).unwrap().unwrap();
        assert_eq!(name, "Zl");
    }
}
