//! Reads scene text into unresolved primitives and command lines, checking every argument
//! count against RADIANCE's rules for the type.

use crate::error::{Loc, Result, SceneError};
use crate::lexer::{Lexer, Word};
use crate::types::PrimType;
use std::sync::Arc;

/// A primitive as written, before its modifier name is resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct RawPrim {
    /// Modifier name (`void`, `inherit` for aliases, or a defined modifier).
    pub modifier: String,
    /// The type keyword.
    pub ptype: PrimType,
    /// Identifier.
    pub name: String,
    /// String arguments (for an alias: the one referenced name).
    pub sargs: Vec<String>,
    /// Real arguments.
    pub fargs: Vec<f64>,
    /// Where the primitive starts.
    pub loc: Loc,
}

/// One item of scene input.
#[derive(Clone, Debug)]
pub enum Item {
    /// A primitive.
    Prim(RawPrim),
    /// A `!command` line (without the `!`).
    Command(Word),
}

/// True if `s` is an integer as RADIANCE accepts it (optional sign, digits).
pub fn is_int(s: &str) -> bool {
    let d = s.strip_prefix(['+', '-']).unwrap_or(s);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a real number as RADIANCE accepts it: sign, digits with an optional point, an optional
/// exponent. Words like `inf` or `nan` are not numbers in a scene file.
pub fn parse_real(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Reads all items of `src` (named `source` in messages), handing each to `sink` in order.
pub fn read_items(
    src: &[u8],
    source: Arc<str>,
    sink: &mut dyn FnMut(Item) -> Result<()>,
) -> Result<()> {
    let mut lx = Lexer::new(src, source);
    while let Some(c) = lx.skip_space() {
        match c {
            b'#' => lx.skip_line(),
            b'!' => sink(Item::Command(lx.command_line()))?,
            _ => sink(Item::Prim(read_prim(&mut lx)?))?,
        }
    }
    Ok(())
}

/// Scene input with its comments, for programs that read instructions from them (mkillum's
/// `#@mkillum` lines).
#[derive(Clone, Debug)]
pub enum Piece {
    /// A primitive or command.
    Item(Item),
    /// A comment line, from its `#` to the end of the line.
    Comment(String),
}

/// Reads all items and comment lines of `src` in order, handing each to `sink`.
pub fn read_pieces(
    src: &[u8],
    source: Arc<str>,
    sink: &mut dyn FnMut(Piece) -> Result<()>,
) -> Result<()> {
    let mut lx = Lexer::new(src, source);
    while let Some(c) = lx.skip_space() {
        match c {
            b'#' => sink(Piece::Comment(lx.comment_line()))?,
            b'!' => sink(Piece::Item(Item::Command(lx.command_line())))?,
            _ => sink(Piece::Item(Item::Prim(read_prim(&mut lx)?)))?,
        }
    }
    Ok(())
}

/// Reads all items of `src` into a vector.
pub fn parse_items(src: &[u8], source: Arc<str>) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    read_items(src, source, &mut |it| {
        items.push(it);
        Ok(())
    })?;
    Ok(items)
}

fn need(lx: &mut Lexer, what: &str) -> Result<Word> {
    lx.word().ok_or_else(|| {
        SceneError::at(
            &lx.loc(),
            format!("unexpected end of input: expected {what}"),
        )
    })
}

fn read_count(lx: &mut Lexer, what: &str, prim: &str) -> Result<usize> {
    let w = need(lx, &format!("the number of {what} arguments of {prim}"))?;
    if !is_int(&w.text) {
        return Err(SceneError::at(
            &w.loc,
            format!(
                "expected the number of {what} arguments of {prim} (an integer), found \"{}\"",
                w.text
            ),
        ));
    }
    match w.text.parse::<i64>() {
        Ok(n) if n >= 0 => Ok(n as usize),
        _ => Err(SceneError::at(
            &w.loc,
            format!(
                "the number of {what} arguments of {prim} must be between 0 and 2^63, found {}",
                w.text
            ),
        )),
    }
}

fn check_word(w: &Word, what: &str) -> Result<()> {
    if w.text.contains('\t') {
        return Err(SceneError::at(
            &w.loc,
            format!("illegal tab in {what} \"{}\"", w.text),
        ));
    }
    if w.text.is_empty() {
        return Err(SceneError::at(&w.loc, format!("empty {what}")));
    }
    Ok(())
}

fn read_prim(lx: &mut Lexer) -> Result<RawPrim> {
    let modw = need(lx, "a modifier name")?;
    check_word(&modw, "modifier name")?;
    let typew = need(
        lx,
        &format!("a primitive type after modifier \"{}\"", modw.text),
    )?;
    let ptype = PrimType::from_name(&typew.text).ok_or_else(|| {
        SceneError::at(
            &typew.loc,
            format!(
                "unknown primitive type \"{}\" (expected a RADIANCE type such as polygon, sphere, plastic)",
                printable(&typew.text)
            ),
        )
    })?;
    let namew = need(lx, &format!("an identifier for the {}", ptype.name()))?;
    check_word(&namew, "identifier")?;
    if ptype.is_modifier() && (namew.text == "void" || namew.text == "inherit") {
        return Err(SceneError::at(
            &namew.loc,
            format!("illegal modifier name \"{}\" (reserved)", namew.text),
        ));
    }
    let what = format!("{} \"{}\"", ptype.name(), namew.text);
    if ptype == PrimType::Alias {
        let r = need(lx, &format!("the modifier that {what} refers to"))?;
        return Ok(RawPrim {
            modifier: modw.text,
            ptype,
            name: namew.text,
            sargs: vec![r.text],
            fargs: Vec::new(),
            loc: modw.loc,
        });
    }
    if modw.text == "inherit" {
        return Err(SceneError::at(
            &modw.loc,
            "\"inherit\" may only be the modifier of an alias",
        ));
    }

    let ns = read_count(lx, "string", &what)?;
    let mut sargs = Vec::with_capacity(ns.min(64));
    for k in 0..ns {
        sargs.push(
            need(
                lx,
                &format!("string argument {} of {} for {what}", k + 1, ns),
            )?
            .text,
        );
    }
    let ni_word_loc = lx.loc();
    let ni = read_count(lx, "integer", &what)?;
    if ni != 0 {
        return Err(SceneError::at(
            &ni_word_loc,
            format!("{what}: RADIANCE primitives take 0 integer arguments, found {ni}"),
        ));
    }
    let nf = read_count(lx, "real", &what)?;
    let mut fargs = Vec::with_capacity(nf.min(4096));
    for k in 0..nf {
        let w = need(lx, &format!("real argument {} of {} for {what}", k + 1, nf))?;
        let v = parse_real(&w.text).ok_or_else(|| {
            SceneError::at(
                &w.loc,
                format!(
                    "expected a real number (argument {} of {} for {what}), found \"{}\"",
                    k + 1,
                    nf,
                    printable(&w.text)
                ),
            )
        })?;
        fargs.push(v);
    }
    let sc = ptype.string_count();
    if !sc.accepts(ns) {
        return Err(SceneError::at(
            &modw.loc,
            format!(
                "{what} takes {} string arguments, found {ns}",
                sc.describe()
            ),
        ));
    }
    let rc = ptype.real_count();
    if !rc.accepts(nf) {
        return Err(SceneError::at(
            &modw.loc,
            format!("{what} takes {} real arguments, found {nf}", rc.describe()),
        ));
    }
    Ok(RawPrim {
        modifier: modw.text,
        ptype,
        name: namew.text,
        sargs,
        fargs,
        loc: modw.loc,
    })
}

/// Shortens and escapes a word for an error message (binary garbage stays readable).
fn printable(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(|c| c.escape_debug()).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals() {
        for (s, v) in [
            ("1", 1.0),
            ("-2.5", -2.5),
            (".5", 0.5),
            ("3.", 3.0),
            ("1e-3", 1e-3),
        ] {
            assert_eq!(parse_real(s), Some(v), "{s}");
        }
        for s in [
            "", "-", ".", "e5", "1e", "inf", "nan", "1.2.3", "0x10", "1e999",
        ] {
            assert_eq!(parse_real(s), None, "{s}");
        }
    }

    #[test]
    fn reads_primitives_and_commands() {
        let src = b"# c\nvoid plastic red 0 0 5 .5 0 0 0 0\n!xform -t 1 0 0 x.rad\nred sphere ball 0 0 4 0 0 0 1\n";
        let items = parse_items(src, "t.rad".into()).unwrap();
        assert_eq!(items.len(), 3);
        match &items[2] {
            Item::Prim(p) => {
                assert_eq!(p.ptype, PrimType::Sphere);
                assert_eq!(p.fargs, vec![0.0, 0.0, 0.0, 1.0]);
                assert_eq!(p.loc.line, 4);
            }
            _ => panic!("expected a primitive"),
        }
    }
}
