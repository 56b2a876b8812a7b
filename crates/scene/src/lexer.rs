//! Splits scene text into words the way RADIANCE reads it: white space separates words, `'` or `"`
//! quote parts of a word, `#` starts a comment line and `!` a command line (continued by `\`).
//! Every word carries its line and column.

use crate::error::Loc;
use std::sync::Arc;

/// A cursor over scene text that tracks line and column.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
    source: Arc<str>,
}

/// One word of input with the place it started.
#[derive(Clone, Debug)]
pub struct Word {
    /// The text, quotes removed.
    pub text: String,
    /// Where it began.
    pub loc: Loc,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`, which came from `source` (a file name or command).
    pub fn new(src: &'a [u8], source: Arc<str>) -> Self {
        // Editors on Windows may start a file with a UTF-8 byte-order mark; it is not a word.
        let pos = if src.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Lexer {
            src,
            pos,
            line: 1,
            col: 1,
            source,
        }
    }

    /// The location of the next character.
    pub fn loc(&self) -> Loc {
        Loc::new(self.source.clone(), self.line, self.col)
    }

    fn bump(&mut self) -> Option<u8> {
        let c = *self.src.get(self.pos)?;
        self.pos += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if c & 0xC0 != 0x80 {
            // Count characters, not UTF-8 continuation bytes.
            self.col += 1;
        }
        Some(c)
    }

    /// Skips white space; returns the next character without consuming it.
    pub fn skip_space(&mut self) -> Option<u8> {
        while let Some(&c) = self.src.get(self.pos) {
            if c.is_ascii_whitespace() {
                self.bump();
            } else {
                return Some(c);
            }
        }
        None
    }

    /// Consumes the rest of the current line (a comment).
    pub fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == b'\n' {
                break;
            }
        }
    }

    /// Reads the rest of the current line (a comment, from its `#`), without the line's end.
    pub fn comment_line(&mut self) -> String {
        let mut out = Vec::new();
        while let Some(c) = self.bump() {
            match c {
                b'\n' => break,
                b'\r' if self.src.get(self.pos) == Some(&b'\n') => {}
                c => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Reads a `!command` line (the `!` included in the input, excluded from the result),
    /// joining lines that end with a backslash.
    pub fn command_line(&mut self) -> Word {
        let loc = self.loc();
        self.bump(); // the '!'
        let mut out = Vec::new();
        while let Some(c) = self.bump() {
            match c {
                b'\n' => break,
                b'\\' if self.src.get(self.pos) == Some(&b'\n') => {
                    self.bump();
                    out.push(b' ');
                }
                b'\\' if self.src.get(self.pos..self.pos + 2) == Some(b"\r\n") => {
                    self.bump();
                    self.bump();
                    out.push(b' ');
                }
                b'\r' => {}
                c => out.push(c),
            }
        }
        Word {
            text: String::from_utf8_lossy(&out).into_owned(),
            loc,
        }
    }

    /// Reads the next word, or `None` at the end of the input.
    pub fn word(&mut self) -> Option<Word> {
        self.skip_space()?;
        let loc = self.loc();
        let mut out = Vec::new();
        let mut quote: Option<u8> = None;
        while let Some(&c) = self.src.get(self.pos) {
            match quote {
                Some(q) if c == q => quote = None,
                None if c == b'"' || c == b'\'' => quote = Some(c),
                None if c.is_ascii_whitespace() => break,
                _ => out.push(c),
            }
            self.bump();
        }
        Some(Word {
            text: String::from_utf8_lossy(&out).into_owned(),
            loc,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quotes_and_positions() {
        let src = b"void plastic  \"red mat\"\n 0 'a b'c\n";
        let mut lx = Lexer::new(src, "t.rad".into());
        let w: Vec<Word> = std::iter::from_fn(|| lx.word()).collect();
        let texts: Vec<&str> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["void", "plastic", "red mat", "0", "a bc"]);
        assert_eq!((w[2].loc.line, w[2].loc.col), (1, 15));
        assert_eq!((w[4].loc.line, w[4].loc.col), (2, 4));
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let mut lx = Lexer::new(b"\xEF\xBB\xBFvoid x", "t.rad".into());
        let w = lx.word().unwrap();
        assert_eq!((w.text.as_str(), w.loc.col), ("void", 1));
    }

    #[test]
    fn command_continuation() {
        let src = b"!xform -t 1 \\\n 2 3 f.rad\nnext";
        let mut lx = Lexer::new(src, "t.rad".into());
        let c = lx.command_line();
        assert_eq!(c.text, "xform -t 1   2 3 f.rad");
        assert_eq!(lx.word().unwrap().text, "next");
    }
}
