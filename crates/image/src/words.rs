//! Words of RADIANCE's plain number files (data files, fonts): `#` comments blanked to the end
//! of their line, white-space separated words read with the line they are on, for errors that
//! say where.

/// `text` with every `#` comment blanked out to its line's end (byte offsets, so line numbers,
/// are kept).
pub fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match line.find('#') {
            Some(k) => {
                out.push_str(&line[..k]);
                out.extend(std::iter::repeat_n(' ', line.len() - k));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// White-space separated numbers with their line for messages.
pub struct Words<'a> {
    it: std::iter::Peekable<std::str::SplitWhitespace<'a>>,
    text: &'a str,
    last: &'a str,
}

impl<'a> Words<'a> {
    /// The words of `text` (comments already blanked, see [`without_comments`]).
    pub fn new(text: &'a str) -> Self {
        Words {
            it: text.split_whitespace().peekable(),
            text,
            last: "",
        }
    }

    /// "line N" of the last word read.
    pub fn at(&self) -> String {
        if self.last.is_empty() {
            return "line 1".into();
        }
        let off = self.last.as_ptr() as usize - self.text.as_ptr() as usize;
        format!("line {}", self.text[..off].matches('\n').count() + 1)
    }

    /// The next word, or `None` at the end of the text.
    pub fn try_next(&mut self) -> Option<&'a str> {
        let w = self.it.next()?;
        self.last = w;
        Some(w)
    }

    fn next(&mut self, what: &str) -> Result<&'a str, String> {
        match self.it.next() {
            Some(w) => {
                self.last = w;
                Ok(w)
            }
            None => Err(format!(
                "{}: file ends where {what} was expected",
                self.at()
            )),
        }
    }

    /// The next word as a finite number; `what` names it in the error.
    pub fn real(&mut self, what: &str) -> Result<f64, String> {
        let w = self.next(what)?;
        w.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{}: expected {what}, found \"{w}\"", self.at()))
    }

    /// The next word as a whole number; `what` names it in the error.
    pub fn int(&mut self, what: &str) -> Result<usize, String> {
        let w = self.next(what)?;
        w.parse::<usize>().map_err(|_| {
            format!(
                "{}: expected {what} (a whole number), found \"{w}\"",
                self.at()
            )
        })
    }
}
