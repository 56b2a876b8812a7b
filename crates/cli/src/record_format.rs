//! rcalc's record formats: literal text with numeric fields `${…}` and string fields
//! `$(name)` (`$$` is a dollar sign), each field as wide as it is written.
//!
//! - Output (`-o format`): the fields are expressions, laid out as RADIANCE's rcalc lays
//!   them: a field next to non-blank text on both sides is printed without padding, one
//!   after non-blank text is left-justified, others are right-justified; numbers as `%g`
//!   (`%.Ne` when wider than 9, `%.0f` when whole).
//! - Input (`-i format`): the fields are variables read from the text ([`Matcher`]); a field
//!   ends at the first character of the literal after it; a variable met twice must agree
//!   (numbers within 0.1 %, strings exactly, `-s` presets included).

use anyhow::{bail, Context};
use daylit_cal::{CalEnv, EvalState, ExprId, RayContext};
use daylit_coefficients::rfluxmtx::format_g_digits;
use std::collections::HashMap;

/// One piece of a format.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// Text printed as it is.
    Literal(String),
    /// A string variable and the width of its field.
    Text { name: String, width: usize },
    /// An expression and the width of its field.
    Number { expr: String, width: usize },
}

/// Reads a format: the text itself when it holds a `$`, else the file it names. A newline is
/// added at the end when missing and `newline` is set (rcalc's `-l` before the format
/// clears it).
pub fn read(spec: &str, newline: bool) -> anyhow::Result<Vec<Field>> {
    let mut text = if spec.contains('$') {
        spec.to_string()
    } else {
        std::fs::read_to_string(spec).with_context(|| format!("rcalc: {spec}: cannot open"))?
    };
    if newline && !text.ends_with('\n') {
        text.push('\n');
    }
    parse(&text)
}

fn parse(text: &str) -> anyhow::Result<Vec<Field>> {
    let mut fields = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '$' {
            lit.push(c);
            continue;
        }
        let close = match chars.next() {
            Some('$') => {
                lit.push('$');
                continue;
            }
            Some('{') => '}',
            Some('(') => ')',
            _ => bail!("rcalc: format error: '$' must be followed by '{{', '(' or '$'"),
        };
        if !lit.is_empty() {
            fields.push(Field::Literal(std::mem::take(&mut lit)));
        }
        // The width counts the dollar sign and both brackets.
        let mut body = String::new();
        let mut width = 3;
        loop {
            match chars.next() {
                Some(ch) if ch == close => break,
                Some(ch) => {
                    width += 1;
                    if !ch.is_whitespace() {
                        body.push(ch);
                    }
                }
                None => bail!("rcalc: format error: '{close}' missing"),
            }
        }
        fields.push(if close == '}' {
            Field::Number { expr: body, width }
        } else {
            Field::Text { name: body, width }
        });
    }
    if !lit.is_empty() {
        fields.push(Field::Literal(lit));
    }
    Ok(fields)
}

/// A format with its expressions compiled.
pub struct Output {
    fields: Vec<Field>,
    exprs: Vec<Option<ExprId>>,
}

impl Output {
    /// Compiles the numeric fields in `env`.
    pub fn new(fields: Vec<Field>, env: &mut CalEnv) -> anyhow::Result<Output> {
        let mut exprs = Vec::with_capacity(fields.len());
        for f in &fields {
            exprs.push(match f {
                Field::Number { expr, .. } => Some(
                    env.compile_expr(expr)
                        .map_err(|e| anyhow::anyhow!("rcalc: output format: {e}"))?,
                ),
                _ => None,
            });
        }
        Ok(Output { fields, exprs })
    }

    /// Appends one record; `strings` gives the string variables' values.
    pub fn write(
        &self,
        env: &CalEnv,
        st: &mut EvalState,
        ctx: &dyn RayContext,
        strings: &HashMap<String, String>,
        blanks_equal: bool,
        buf: &mut Vec<u8>,
    ) -> Result<(), String> {
        let ids: Vec<ExprId> = self.exprs.iter().flatten().copied().collect();
        let mut values = vec![0.0; ids.len()];
        env.eval_exprs(&ids, &mut values, st, ctx);
        if let Some(e) = st.take_error() {
            return Err(e.to_string());
        }
        let mut values = values.into_iter();
        let mut after_text = false;
        for (k, f) in self.fields.iter().enumerate() {
            let before_text = blanks_equal
                && match self.fields.get(k + 1) {
                    None => false,
                    Some(Field::Literal(l)) => !l.starts_with(' '),
                    Some(_) => true,
                };
            let s = match f {
                Field::Literal(l) => {
                    buf.extend_from_slice(l.as_bytes());
                    after_text = !l.ends_with(' ');
                    continue;
                }
                Field::Text { name, width } => {
                    let v = strings
                        .get(name)
                        .ok_or_else(|| format!("{name}: undefined string"))?;
                    pad(v, *width, after_text, before_text)
                }
                Field::Number { width, .. } => {
                    let v = values.next().unwrap_or(0.0);
                    pad(&number(v, *width), *width, after_text, before_text)
                }
            };
            buf.extend_from_slice(s.as_bytes());
            after_text = true;
        }
        Ok(())
    }
}

/// rcalc's layout of a field: unpadded between text, left-justified after text, else
/// right-justified.
fn pad(v: &str, width: usize, after_text: bool, before_text: bool) -> String {
    match (after_text, before_text) {
        (true, true) => v.to_string(),
        (true, false) => format!("{v:<width$}"),
        _ => format!("{v:>width$}"),
    }
}

/// `%g`, `%.Ne` for fields wider than 9, `%.0f` for whole numbers.
fn number(v: f64, width: usize) -> String {
    let a = v.abs();
    if a < 2147483648.0 {
        let i = (a + 0.5).floor();
        if i != 0.0 && (a - i).abs() <= a * 1e-14 {
            return format!("{v:.0}");
        }
    }
    if width <= 9 {
        format_g_digits(v, 6)
    } else {
        let mut s = String::new();
        daylit_matrix::format_e(v, width - 5, &mut s);
        s
    }
}

/// An input record format: its fields, and for each numeric field the index of its variable
/// (an external name of the record environment, ids from 0 in order).
pub struct InputFormat {
    fields: Vec<Field>,
    var_of: Vec<Option<usize>>,
    /// Distinct numeric variables, in order of first appearance.
    pub vars: Vec<String>,
}

impl InputFormat {
    /// Makes every numeric field's name a variable the records answer (`define_external`).
    pub fn new(fields: Vec<Field>, env: &mut CalEnv) -> InputFormat {
        let mut vars: Vec<String> = Vec::new();
        let var_of = fields
            .iter()
            .map(|f| match f {
                Field::Number { expr, .. } => Some(match vars.iter().position(|v| v == expr) {
                    Some(k) => k,
                    None => {
                        env.define_external(expr);
                        vars.push(expr.clone());
                        vars.len() - 1
                    }
                }),
                _ => None,
            })
            .collect();
        InputFormat {
            fields,
            var_of,
            vars,
        }
    }
}

/// How blanks and lines are matched, and what is passed through (`-p`: unmatched text, `-P`:
/// records whose `cond` fails too).
#[derive(Clone, Copy)]
pub struct Matching {
    pub blanks_equal: bool,
    pub ignore_newlines: bool,
    /// 0 off, 1 for `-p`, -1 for `-P`.
    pub passive: i8,
}

/// Reads records of an input format from bytes, as rcalc's look-ahead reader does: a record
/// that fails to match is abandoned one character later (`home`), and a line that starts a
/// failed match is skipped whole unless newlines are ignored.
pub struct Matcher<'a> {
    fmt: &'a InputFormat,
    m: Matching,
    buf: &'a [u8],
    home: usize,
    pos: usize,
    /// The numeric variables of the current record (`None`: not seen yet).
    pub values: Vec<Option<f64>>,
    /// The string variables of the current record, from the `-s` presets.
    pub strings: HashMap<String, String>,
    presets: HashMap<String, String>,
}

impl<'a> Matcher<'a> {
    pub fn new(
        fmt: &'a InputFormat,
        m: Matching,
        buf: &'a [u8],
        presets: &[(String, String)],
    ) -> Matcher<'a> {
        let presets: HashMap<String, String> = presets.iter().cloned().collect();
        Matcher {
            fmt,
            m,
            buf,
            home: 0,
            pos: 0,
            values: vec![None; fmt.vars.len()],
            strings: presets.clone(),
            presets,
        }
    }

    fn chr(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    /// Bytes read so far (the end of the last record).
    pub fn position(&self) -> usize {
        self.pos
    }

    fn blank(&self, c: u8) -> bool {
        if self.m.ignore_newlines {
            c.is_ascii_whitespace()
        } else {
            c == b' ' || c == b'\t'
        }
    }

    fn scan(&mut self) {
        if self.pos < self.buf.len() {
            self.pos += 1;
        }
    }

    /// Gives up the character at home (passed through in passive mode).
    fn skip(&mut self, out: &mut Vec<u8>) {
        if self.home < self.buf.len() {
            if self.m.passive != 0 {
                out.push(self.buf[self.home]);
            }
            self.home += 1;
        }
        self.pos = self.home;
    }

    /// After a record: home moves to the end of it, writing it out first when it was skipped
    /// under `-P`.
    pub fn advance(&mut self, skipped: bool, out: &mut Vec<u8>) {
        if skipped && self.m.passive < 0 {
            out.extend_from_slice(&self.buf[self.home..self.pos]);
        }
        self.home = self.pos;
    }

    /// The rest after the last record (passed through in passive mode).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if self.m.passive != 0 {
            out.extend_from_slice(&self.buf[self.home.min(self.buf.len())..]);
        }
    }

    /// Matches the next record; false at the end of the input.
    pub fn next_record(&mut self, out: &mut Vec<u8>) -> bool {
        while self.chr().is_some() {
            if self.m.blanks_equal {
                while self.chr().is_some_and(|c| self.blank(c)) {
                    self.skip(out);
                }
                if self.chr().is_none() {
                    return false;
                }
            }
            let eat_line = !self.m.ignore_newlines && self.chr() != Some(b'\n');
            self.values.iter_mut().for_each(|v| *v = None);
            self.strings.clone_from(&self.presets);
            if (0..self.fmt.fields.len()).all(|k| self.field(k)) {
                return true;
            }
            self.skip(out);
            if eat_line {
                loop {
                    match self.chr() {
                        None => return false,
                        Some(b'\n') => break,
                        Some(_) => self.skip(out),
                    }
                }
                self.skip(out);
            }
        }
        false
    }

    /// Whether a field's word goes on with `c`: up to the next literal's first character
    /// (blanks for a blank) when blanks compare equal, else up to the field's width.
    fn continues(&self, c: u8, delim: Option<u8>, len: usize, width: usize) -> bool {
        match delim {
            Some(d) if self.m.blanks_equal => {
                if self.blank(d) {
                    !self.blank(c)
                } else {
                    c != d
                }
            }
            _ => len < width,
        }
    }

    /// Matches field `k` at the current position.
    fn field(&mut self, k: usize) -> bool {
        let fields = &self.fmt.fields;
        let delim = match fields.get(k + 1) {
            Some(Field::Literal(l)) => l.bytes().next(),
            _ => None,
        };
        match &fields[k] {
            Field::Literal(l) => {
                let lit = l.as_bytes();
                let mut i = 0;
                loop {
                    let c = lit.get(i).copied();
                    if self.m.blanks_equal && c.is_some_and(|c| self.blank(c)) {
                        if !self.chr().is_some_and(|c| self.blank(c)) {
                            return false;
                        }
                        while lit.get(i).is_some_and(|&c| self.blank(c)) {
                            i += 1;
                        }
                        while self.chr().is_some_and(|c| self.blank(c)) {
                            self.scan();
                        }
                    } else if c.is_some() && c == self.chr() {
                        i += 1;
                        self.scan();
                    } else {
                        return false;
                    }
                    if i >= lit.len() {
                        return true;
                    }
                }
            }
            Field::Text { name, width } => {
                let mut word = Vec::new();
                loop {
                    let inword = match self.chr() {
                        None | Some(b'\n') => false,
                        Some(c) => self.continues(c, delim, word.len(), *width),
                    };
                    if !inword || word.len() >= 127 {
                        break;
                    }
                    word.push(self.chr().expect("in a word"));
                    self.scan();
                }
                let word = String::from_utf8_lossy(&word).into_owned();
                match self.strings.get(name) {
                    Some(v) => *v == word,
                    None => {
                        self.strings.insert(name.clone(), word);
                        true
                    }
                }
            }
            Field::Number { width, .. } => {
                let mut word = Vec::new();
                let mut start = None;
                loop {
                    let c = self.chr();
                    let numeric = |c: u8| c.is_ascii_digit() || b"-.+eE".contains(&c);
                    let inword = match c {
                        Some(c) if (start.is_none() && self.blank(c)) || numeric(c) => {
                            self.continues(c, delim, word.len(), *width)
                        }
                        _ => false,
                    };
                    if !inword || word.len() >= 127 {
                        break;
                    }
                    let c = c.expect("in a word");
                    if start.is_none() && !self.blank(c) {
                        start = Some(word.len());
                    }
                    word.push(c);
                    self.scan();
                }
                let d = start.map_or(0.0, |s| {
                    daylit_radfile::scan::atof(&String::from_utf8_lossy(&word[s..]))
                });
                let var = self.fmt.var_of[k].expect("numeric fields have variables");
                match self.values[var] {
                    None => {
                        self.values[var] = Some(d);
                        true
                    }
                    Some(v) => {
                        let r = (v - d) / if d == 0.0 { 1.0 } else { d };
                        (-0.001..=0.001).contains(&r)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arbitrary formats and inputs never panic the matcher, and it always ends.
    #[test]
    fn matching_random_text_never_panics() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"x =${}()$ \t\n1.5e-9+ab,;";
        for _ in 0..2000 {
            let mut pick = |n: usize| -> Vec<u8> {
                (0..n)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            };
            let fmt = String::from_utf8(pick(12)).unwrap();
            let input = pick(60);
            let Ok(fields) = parse(&fmt) else { continue };
            let mut env = CalEnv::for_records();
            let f = InputFormat::new(fields, &mut env);
            for passive in [0, 1, -1] {
                for (blanks_equal, ignore_newlines) in [(true, false), (false, true)] {
                    let m = Matching {
                        blanks_equal,
                        ignore_newlines,
                        passive,
                    };
                    let mut matcher = Matcher::new(&f, m, &input, &[]);
                    let mut out = Vec::new();
                    let mut last = None;
                    while matcher.next_record(&mut out) {
                        // An empty match would repeat forever; rcalc stops there.
                        if last == Some(matcher.position()) {
                            break;
                        }
                        last = Some(matcher.position());
                        matcher.advance(false, &mut out);
                    }
                    matcher.finish(&mut out);
                }
            }
        }
    }
}
