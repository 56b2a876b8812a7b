//! Parser for the calc language, following calcomp's grammar:
//!
//! ```text
//! statement := ';' | defn ';'
//! defn      := NAME ('(' PARAM {',' PARAM} ')')? ('=' | ':') E1
//! E1 := E2 {('+'|'-') E2}        left associative
//! E2 := E3 {('*'|'/') E3}        left associative
//! E3 := E4 ['^' E3]              right associative
//! E4 := '-' E5 | ['+'] E5        unary sign binds tighter than '^'
//! E5 := '(' E1 ')' | '$' INT | NAME ['(' E1 {',' E1} ')'] | NUMBER
//! ```
//!
//! As in calcomp, white space and `{ }` comments (which nest) are skipped
//! between *any* two characters, even inside names and numbers.

use crate::error::CalError;

/// Deepest nesting of parentheses / powers / calls accepted; deeper input is
/// rejected instead of risking a stack overflow.
const MAX_NEST: u32 = 200;

/// Position of a character in a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

/// Binary operators of a flattened chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChainOp {
    Add,
    Sub,
    Mul,
    Div,
    /// Compiled code only: the first `+` of a calcomp sum, `(acc + 0) + v`
    /// (calcomp sums start from +0, which turns a -0 first term into +0).
    StartSum,
}

/// Expression tree as parsed (names unresolved).
#[derive(Debug, Clone)]
pub(crate) enum Expr {
    Num(f64),
    /// A variable (or function used as a value) reference.
    Name(String, Pos),
    /// Parameter `i` (0-based) of the function being defined.
    Param(u32),
    /// `$N` channel.
    Chan(u32, Pos),
    /// Internal: a ray variable (used by the built-in definitions only).
    Ray(crate::RayVar),
    /// Internal: a record quantity (rcalc's `recno`, `outno`).
    Record(crate::RecordVar),
    Neg(Box<Expr>),
    /// `first op1 e1 op2 e2 ...` evaluated left to right, as parsed: one
    /// level of the grammar (`+`/`-` or `*`/`/`), before [`crate::reduce`].
    Chain(Box<Expr>, Vec<(ChainOp, Expr)>),
    /// After [`crate::reduce`]: calcomp's left-nested binary operators
    /// `((head op1 e1) op2 e2) ...`. A run of consecutive `Add`s is one
    /// calcomp sum node and evaluates from +0: `0 + acc + e_i + ... + e_j`.
    Spine(Box<Expr>, Vec<(ChainOp, Expr)>),
    Pow(Box<Expr>, Box<Expr>),
    /// Function call; `param` is set when the callee is a parameter.
    Call {
        name: String,
        pos: Pos,
        param: Option<u32>,
        args: Vec<Expr>,
    },
}

/// One statement `name = expr;`, `name : expr;` or `f(a,b) = expr;`.
#[derive(Debug, Clone)]
pub(crate) struct Definition {
    pub name: String,
    pub params: Option<Vec<String>>,
    pub constant: bool,
    pub body: Expr,
}

pub(crate) struct Parser<'a> {
    chars: Vec<char>,
    idx: usize,
    line: u32,
    col: u32,
    /// Lookahead character (`None` at end of input).
    next: Option<char>,
    next_pos: Pos,
    source: &'a str,
    params: Vec<String>,
    depth: u32,
    /// Definitions of output channels (`$1 = ...`) are allowed (rcalc).
    output_channels: bool,
}

fn is_id(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '`'
}

impl<'a> Parser<'a> {
    pub fn new(source: &'a str, text: &str) -> Result<Self, CalError> {
        let mut p = Parser {
            chars: text.chars().collect(),
            idx: 0,
            line: 1,
            col: 0,
            next: None,
            next_pos: Pos { line: 1, col: 1 },
            source,
            params: Vec::new(),
            depth: 0,
            output_channels: false,
        };
        p.scan()?;
        Ok(p)
    }

    fn raw(&mut self) -> Option<char> {
        let c = *self.chars.get(self.idx)?;
        self.idx += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 0;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    /// Advance to the next significant character, skipping blanks and comments.
    fn scan(&mut self) -> Result<(), CalError> {
        loop {
            let c = self.raw();
            let pos = Pos {
                line: self.line,
                col: self.col.max(1),
            };
            match c {
                None => {
                    self.next = None;
                    self.next_pos = Pos {
                        line: self.line,
                        col: self.col + 1,
                    };
                    return Ok(());
                }
                Some('{') => {
                    let mut depth = 1u32;
                    while depth > 0 {
                        match self.raw() {
                            None => {
                                self.next_pos = Pos {
                                    line: self.line,
                                    col: self.col + 1,
                                };
                                return Err(self.err("'}' expected (unterminated comment)"));
                            }
                            Some('{') => depth += 1,
                            Some('}') => depth -= 1,
                            _ => {}
                        }
                    }
                }
                Some(ch) if ch.is_whitespace() => {}
                Some(ch) => {
                    self.next = Some(ch);
                    self.next_pos = pos;
                    return Ok(());
                }
            }
        }
    }

    fn err(&self, msg: &str) -> CalError {
        CalError::Syntax {
            source_name: self.source.to_string(),
            line: self.next_pos.line,
            column: self.next_pos.col,
            message: msg.to_string(),
        }
    }

    fn err_at(&self, pos: Pos, msg: &str) -> CalError {
        CalError::Syntax {
            source_name: self.source.to_string(),
            line: pos.line,
            column: pos.col,
            message: msg.to_string(),
        }
    }

    pub fn at_end(&self) -> bool {
        self.next.is_none()
    }

    /// Parse the next statement; `Ok(None)` for an empty statement.
    pub fn statement(&mut self) -> Result<Option<Definition>, CalError> {
        if self.next == Some(';') {
            self.scan()?;
            return Ok(None);
        }
        let d = self.definition()?;
        if self.next.is_some() {
            if self.next != Some(';') {
                return Err(self.err("';' expected"));
            }
            self.scan()?;
        }
        Ok(Some(d))
    }

    fn name(&mut self) -> Result<String, CalError> {
        let mut s = String::new();
        while let Some(c) = self.next {
            if !is_id(c) {
                break;
            }
            s.push(c);
            self.scan()?;
        }
        Ok(s)
    }

    /// Accept definitions of output channels, `$N = expr` (rcalc's records).
    pub fn allow_output_channels(&mut self) {
        self.output_channels = true;
    }

    fn definition(&mut self) -> Result<Definition, CalError> {
        match self.next {
            Some(c) if c.is_ascii_alphabetic() || c == '`' => {}
            Some('$') if self.output_channels => return self.channel_definition(),
            None => return Err(self.err("unexpected end of input: definition expected")),
            _ => return Err(self.err("illegal variable name")),
        }
        let name = self.name()?;
        let mut params = None;
        if self.next == Some('(') {
            let mut list = Vec::new();
            loop {
                self.scan()?;
                match self.next {
                    Some(c) if c.is_ascii_alphabetic() => {}
                    _ => return Err(self.err("illegal parameter name")),
                }
                let ppos = self.next_pos;
                let p = self.name()?;
                if p.contains('`') {
                    return Err(self.err_at(ppos, "illegal parameter name"));
                }
                list.push(p);
                if self.next != Some(',') {
                    break;
                }
            }
            if self.next != Some(')') {
                return Err(self.err("')' expected"));
            }
            self.scan()?;
            params = Some(list);
        }
        let constant = match self.next {
            Some('=') => false,
            Some(':') => true,
            _ => return Err(self.err("'=' or ':' expected")),
        };
        self.scan()?;
        self.params = params.clone().unwrap_or_default();
        let body = self.e1();
        self.params.clear();
        Ok(Definition {
            name,
            params,
            constant,
            body: body?,
        })
    }

    /// `$N = expr;`: the definition is named `$N`, N from 1.
    fn channel_definition(&mut self) -> Result<Definition, CalError> {
        let pos = self.next_pos;
        self.scan()?;
        let n = self.integer()?;
        if n == 0 {
            return Err(self.err_at(pos, "illegal channel number"));
        }
        if self.next != Some('=') {
            return Err(self.err("'=' expected"));
        }
        self.scan()?;
        Ok(Definition {
            name: format!("${n}"),
            params: None,
            constant: false,
            body: self.e1()?,
        })
    }

    /// Decimal digits (none reads as 0), saturating.
    fn integer(&mut self) -> Result<u32, CalError> {
        let mut n: u32 = 0;
        while let Some(c) = self.next.filter(|c| c.is_ascii_digit()) {
            n = n.saturating_mul(10).saturating_add(c as u32 - '0' as u32);
            self.scan()?;
        }
        Ok(n)
    }

    /// Parse a whole text as one expression (no parameters in scope).
    pub fn expression(&mut self) -> Result<Expr, CalError> {
        if self.next.is_none() {
            return Err(self.err("empty expression"));
        }
        let e = self.e1()?;
        if self.next.is_some() {
            return Err(self.err("unexpected character"));
        }
        Ok(e)
    }

    fn enter(&mut self) -> Result<(), CalError> {
        self.depth += 1;
        if self.depth > MAX_NEST {
            return Err(self.err("expression nested too deeply"));
        }
        Ok(())
    }

    fn e1(&mut self) -> Result<Expr, CalError> {
        self.enter()?;
        let first = self.e2()?;
        let mut rest = Vec::new();
        while let Some(c @ ('+' | '-')) = self.next {
            self.scan()?;
            let op = if c == '+' { ChainOp::Add } else { ChainOp::Sub };
            rest.push((op, self.e2()?));
        }
        self.depth -= 1;
        Ok(if rest.is_empty() {
            first
        } else {
            Expr::Chain(Box::new(first), rest)
        })
    }

    fn e2(&mut self) -> Result<Expr, CalError> {
        let first = self.e3()?;
        let mut rest = Vec::new();
        while let Some(c @ ('*' | '/')) = self.next {
            self.scan()?;
            let pos = self.next_pos;
            let e = self.e3()?;
            if c == '/' {
                if const_value(&e) == Some(0.0) {
                    return Err(self.err_at(pos, "divide by zero constant"));
                }
                rest.push((ChainOp::Div, e));
            } else {
                rest.push((ChainOp::Mul, e));
            }
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Expr::Chain(Box::new(first), rest)
        })
    }

    fn e3(&mut self) -> Result<Expr, CalError> {
        let base = self.e4()?;
        if self.next != Some('^') {
            return Ok(base);
        }
        self.enter()?;
        self.scan()?;
        let exp = self.e3()?;
        self.depth -= 1;
        Ok(Expr::Pow(Box::new(base), Box::new(exp)))
    }

    fn e4(&mut self) -> Result<Expr, CalError> {
        if self.next == Some('-') {
            self.scan()?;
            let e = self.e5()?;
            return Ok(match e {
                Expr::Num(v) => Expr::Num(-v),
                Expr::Neg(inner) => *inner,
                other => Expr::Neg(Box::new(other)),
            });
        }
        if self.next == Some('+') {
            self.scan()?;
        }
        self.e5()
    }

    fn e5(&mut self) -> Result<Expr, CalError> {
        match self.next {
            Some('(') => {
                self.scan()?;
                let e = self.e1()?;
                if self.next != Some(')') {
                    return Err(self.err("')' expected"));
                }
                self.scan()?;
                Ok(e)
            }
            Some('$') => {
                let pos = self.next_pos;
                self.scan()?;
                Ok(Expr::Chan(self.integer()?, pos))
            }
            Some(c) if c.is_ascii_alphabetic() || c == '`' => {
                let pos = self.next_pos;
                let name = self.name()?;
                let param = self
                    .params
                    .iter()
                    .position(|p| *p == name)
                    .map(|i| i as u32);
                if self.next == Some('(') {
                    self.enter()?;
                    let mut args = Vec::new();
                    loop {
                        self.scan()?;
                        args.push(self.e1()?);
                        if self.next != Some(',') {
                            break;
                        }
                    }
                    if self.next != Some(')') {
                        return Err(self.err("')' expected"));
                    }
                    self.scan()?;
                    self.depth -= 1;
                    return Ok(Expr::Call {
                        name,
                        pos,
                        param,
                        args,
                    });
                }
                Ok(match param {
                    Some(i) => Expr::Param(i),
                    None => Expr::Name(name, pos),
                })
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number().map(Expr::Num),
            None => Err(self.err("unexpected end of input: expression expected")),
            _ => Err(self.err("unexpected character")),
        }
    }

    fn number(&mut self) -> Result<f64, CalError> {
        let mut s = String::new();
        while let Some(c) = self.next.filter(|c| c.is_ascii_digit()) {
            s.push(c);
            self.scan()?;
        }
        if self.next == Some('.') {
            s.push('.');
            self.scan()?;
            if s.len() == 1 && !self.next.is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.err("badly formed number"));
            }
            while let Some(c) = self.next.filter(|c| c.is_ascii_digit()) {
                s.push(c);
                self.scan()?;
            }
        }
        if matches!(self.next, Some('e' | 'E')) {
            s.push('e');
            self.scan()?;
            if let Some(c @ ('+' | '-')) = self.next {
                s.push(c);
                self.scan()?;
            }
            if !self.next.is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.err("missing exponent"));
            }
            while let Some(c) = self.next.filter(|c| c.is_ascii_digit()) {
                s.push(c);
                self.scan()?;
            }
        }
        // "2." is valid for Rust's parser too; guard anyway.
        s.parse::<f64>()
            .map_err(|_| self.err("badly formed number"))
    }
}

/// Value of a purely numeric subtree (as calcomp folds while parsing).
pub(crate) fn const_value(e: &Expr) -> Option<f64> {
    match e {
        Expr::Num(v) => Some(*v),
        Expr::Neg(a) => const_value(a).map(|v| -v),
        Expr::Pow(a, b) => {
            let v = const_value(a)?.powf(const_value(b)?);
            v.is_finite().then_some(v)
        }
        Expr::Chain(first, rest) => {
            let mut acc = const_value(first)?;
            for (op, e) in rest {
                let v = const_value(e)?;
                acc = match op {
                    ChainOp::Add => acc + v,
                    ChainOp::StartSum => acc + 0.0 + v,
                    ChainOp::Sub => acc - v,
                    ChainOp::Mul => acc * v,
                    ChainOp::Div => {
                        if v == 0.0 {
                            return None;
                        }
                        acc / v
                    }
                };
            }
            Some(acc)
        }
        Expr::Spine(head, ops) => {
            let mut acc = const_value(head)?;
            let mut prev = None;
            for (op, e) in ops {
                let v = const_value(e)?;
                acc = match op {
                    // The first `+` of a run starts a calcomp sum (from +0).
                    ChainOp::Add if prev != Some(ChainOp::Add) => acc + 0.0 + v,
                    ChainOp::Add => acc + v,
                    ChainOp::StartSum => acc + 0.0 + v,
                    ChainOp::Sub => acc - v,
                    ChainOp::Mul => acc * v,
                    ChainOp::Div => {
                        if v == 0.0 {
                            return None;
                        }
                        acc / v
                    }
                };
                prev = Some(*op);
            }
            Some(acc)
        }
        _ => None,
    }
}
