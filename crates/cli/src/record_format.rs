//! rcalc's output record formats (`-o format`): literal text with numeric fields `${expr}`
//! and string fields `$(name)` (`$$` is a dollar sign), each field as wide as it is written,
//! laid out as RADIANCE's rcalc lays them: a field next to non-blank text on both sides is
//! printed without padding, one after non-blank text is left-justified, others are
//! right-justified; numbers as `%g` (`%.Ne` when wider than 9, `%.0f` when whole).

use anyhow::{bail, Context};
use daylit_cal::{CalEnv, EvalState, ExprId, RayContext};
use daylit_coefficients::rfluxmtx::format_g_digits;

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
/// added at the end when missing.
pub fn read(spec: &str) -> anyhow::Result<Vec<Field>> {
    let text = if spec.contains('$') {
        spec.to_string()
    } else {
        std::fs::read_to_string(spec).with_context(|| format!("rcalc: {spec}: cannot open"))?
    };
    let mut text = text;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    parse(&text)
}

fn parse(text: &str) -> anyhow::Result<Vec<Field>> {
    let mut fields = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
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
    strings: Vec<Option<String>>,
}

impl Output {
    /// Compiles the numeric fields in `env`; string fields take their `-s` values.
    pub fn new(
        fields: Vec<Field>,
        env: &mut CalEnv,
        presets: &[(String, String)],
    ) -> anyhow::Result<Output> {
        let mut exprs = Vec::with_capacity(fields.len());
        let mut strings = Vec::with_capacity(fields.len());
        for f in &fields {
            match f {
                Field::Number { expr, .. } => {
                    let id = env
                        .compile_expr(expr)
                        .map_err(|e| anyhow::anyhow!("rcalc: output format: {e}"))?;
                    exprs.push(Some(id));
                    strings.push(None);
                }
                Field::Text { name, .. } => {
                    let v = presets
                        .iter()
                        .rev()
                        .find(|p| &p.0 == name)
                        .map(|p| p.1.clone());
                    if v.is_none() {
                        bail!("rcalc: {name}: undefined string");
                    }
                    exprs.push(None);
                    strings.push(v);
                }
                Field::Literal(_) => {
                    exprs.push(None);
                    strings.push(None);
                }
            }
        }
        Ok(Output {
            fields,
            exprs,
            strings,
        })
    }

    /// Appends one record.
    pub fn write(
        &self,
        env: &CalEnv,
        st: &mut EvalState,
        ctx: &dyn RayContext,
        blanks_equal: bool,
        buf: &mut Vec<u8>,
    ) -> Result<(), daylit_cal::EvalError> {
        let ids: Vec<ExprId> = self.exprs.iter().flatten().copied().collect();
        let mut values = vec![0.0; ids.len()];
        env.eval_exprs(&ids, &mut values, st, ctx);
        if let Some(e) = st.take_error() {
            return Err(e);
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
                Field::Text { width, .. } => {
                    let v = self.strings[k].as_deref().unwrap_or("");
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
