//! `rcalc`: RADIANCE's record calculator. Each input record (a line of
//! blank- or `-tS`-separated columns, or `-id`/`-if` binary values) is
//! transformed by calcomp definitions (`-e`, `-f`, read through `crates/cal`
//! as a record environment: `$N` input columns, `$N = ...` output columns,
//! `in(n)`, `cond`, `recno`, `outno`) into one output record, text (`%.9g`,
//! separator between columns), binary (`-od`/`-of`) or through an output record
//! format (`-o fmt`). Input records may be matched by a record format instead
//! (`-i fmt`, its fields are variables; `-l` matches across lines; `-p`/`-P`
//! pass unmatched text through), see `crate::record_format`; `-s` presets
//! string fields. No header is read or written, as in RADIANCE's. `-in`/`-on`
//! limit records over all files; `-n` writes one record from no input.

use anyhow::{bail, Context};
use daylit_cal::{CalEnv, EvalState, RayContext, RayPath, RayVar, RecordVar, VarId};
use daylit_coefficients::rfluxmtx::format_g_digits;
use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: rcalc [-b][-l][-n][-w][-u][-tS][-s svar=sval][-e expr][-f source][-l][-p|-P][-i{a|d|f|D|F}[N]|-i format][-o{a|d|f|D|F}|-o format][-in M][-on M] [file ..]";

/// Binary value types of `-i`/`-o`: `d`/`f`, upper case byte-swapped.
#[derive(Clone, Copy, PartialEq)]
enum Binary {
    Double { swap: bool },
    Float { swap: bool },
}

impl Binary {
    fn parse(c: u8) -> Option<Binary> {
        match c {
            b'd' => Some(Binary::Double { swap: false }),
            b'D' => Some(Binary::Double { swap: true }),
            b'f' => Some(Binary::Float { swap: false }),
            b'F' => Some(Binary::Float { swap: true }),
            _ => None,
        }
    }

    fn size(self) -> usize {
        match self {
            Binary::Double { .. } => 8,
            Binary::Float { .. } => 4,
        }
    }

    fn decode(self, b: &[u8]) -> f64 {
        match self {
            Binary::Double { swap } => {
                let a: [u8; 8] = b.try_into().expect("8 bytes");
                if swap {
                    f64::from_be_bytes(a)
                } else {
                    f64::from_le_bytes(a)
                }
            }
            Binary::Float { swap } => {
                let a: [u8; 4] = b.try_into().expect("4 bytes");
                f64::from(if swap {
                    f32::from_be_bytes(a)
                } else {
                    f32::from_le_bytes(a)
                })
            }
        }
    }

    fn encode(self, v: f64, out: &mut Vec<u8>) {
        match self {
            Binary::Double { swap: false } => out.extend_from_slice(&v.to_le_bytes()),
            Binary::Double { swap: true } => out.extend_from_slice(&v.to_be_bytes()),
            Binary::Float { swap: false } => out.extend_from_slice(&(v as f32).to_le_bytes()),
            Binary::Float { swap: true } => out.extend_from_slice(&(v as f32).to_be_bytes()),
        }
    }
}

struct Options {
    /// Blanks compare equal (default): columns are runs of non-blanks when
    /// the separator is white space.
    blanks_equal: bool,
    sep: u8,
    /// Binary input: type and values per record.
    input: Option<(Binary, usize)>,
    output: Option<Binary>,
    in_limit: u64,
    out_limit: u64,
    flush: bool,
    no_input: bool,
    /// `-o format`: an output record format (file or inline), and whether a newline ends
    /// it (not when `-l` came before it).
    out_format: Option<(String, bool)>,
    /// `-i format`: an input record format, likewise.
    in_format: Option<(String, bool)>,
    /// `-l`: input formats match across newlines.
    ignore_newlines: bool,
    /// `-p` (1) or `-P` (-1): pass unmatched text (and failed records) through.
    passive: i8,
    /// `-s svar=sval`, in order.
    presets: Vec<(String, String)>,
}

/// One input record as the definitions see it.
struct Record {
    text: Vec<u8>,
    values: Vec<f64>,
    binary: bool,
    blanks_equal: bool,
    sep: u8,
    recno: f64,
    outno: f64,
    /// Values of an input format's numeric fields.
    ext: Vec<f64>,
}

impl Record {
    /// No record yet, read as `o` says.
    fn empty(o: &Options) -> Record {
        Record {
            text: Vec::new(),
            values: Vec::new(),
            binary: o.input.is_some(),
            blanks_equal: o.blanks_equal,
            sep: o.sep,
            recno: 0.0,
            outno: 0.0,
            ext: Vec::new(),
        }
    }

    /// Byte offset of column `n` (from 1) in a text record.
    fn column_start(&self, n: u32) -> usize {
        let t = &self.text;
        let mut p = 0;
        let white_split = self.blanks_equal && self.sep.is_ascii_whitespace();
        for _ in 1..n {
            if white_split {
                while p < t.len() && t[p].is_ascii_whitespace() {
                    p += 1;
                }
                while p < t.len() && !t[p].is_ascii_whitespace() {
                    p += 1;
                }
            } else {
                while p < t.len() {
                    p += 1;
                    if t[p - 1] == self.sep {
                        break;
                    }
                }
            }
        }
        p
    }

    fn column(&self, n: u32) -> f64 {
        if self.binary {
            return self.values.get(n as usize - 1).copied().unwrap_or(0.0);
        }
        let p = self.column_start(n);
        let rest = &self.text[p..];
        let word_end =
            rest.iter()
                .position(|&c| !c.is_ascii_whitespace())
                .map_or(rest.len(), |s| {
                    s + rest[s..]
                        .iter()
                        .position(|c| c.is_ascii_whitespace())
                        .unwrap_or(rest.len() - s)
                });
        daylit_radfile::scan::atof(&String::from_utf8_lossy(&rest[..word_end]))
    }

    /// `in(0)`: the number of columns.
    fn count(&self) -> f64 {
        if self.binary {
            return self.values.len() as f64;
        }
        let t = &self.text;
        let n = if self.blanks_equal && self.sep.is_ascii_whitespace() {
            t.split(|c| c.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
                .count()
        } else {
            let body = t.strip_suffix(b"\n").unwrap_or(t);
            if body.is_empty() {
                0
            } else {
                body.split(|&c| c == self.sep).count()
            }
        };
        n as f64
    }
}

impl RayContext for Record {
    fn ray_var(&self, _v: RayVar) -> f64 {
        0.0
    }
    fn args(&self) -> &[f64] {
        &[]
    }
    fn record_var(&self, v: RecordVar) -> f64 {
        match v {
            RecordVar::Column(n) => self.column(n),
            RecordVar::ColumnCount => self.count(),
            RecordVar::RecNo => self.recno,
            RecordVar::OutNo => self.outno,
        }
    }
    fn external(&self, id: u32, _args: &[f64]) -> f64 {
        self.ext.get(id as usize).copied().unwrap_or(0.0)
    }
}

/// The compiled definitions and what each record evaluates.
struct Program {
    env: CalEnv,
    cond: Option<VarId>,
    columns: Vec<(u32, VarId)>,
    format: Option<crate::record_format::Output>,
    input_format: Option<crate::record_format::InputFormat>,
    presets: std::collections::HashMap<String, String>,
}

/// `rcalc` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options {
        blanks_equal: true,
        sep: b'\t',
        input: None,
        output: None,
        in_limit: 0,
        out_limit: 0,
        flush: false,
        no_input: false,
        out_format: None,
        in_format: None,
        ignore_newlines: false,
        passive: 0,
        presets: Vec::new(),
    };
    let mut env = CalEnv::for_records();
    let raypath = RayPath::from_env();
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let opt = args[i].as_str();
        let a = opt.as_bytes();
        let mut value = |what: &str| -> anyhow::Result<&str> {
            i += 1;
            args.get(i)
                .map(String::as_str)
                .with_context(|| format!("rcalc: {what} needs an argument ({USAGE})"))
        };
        let count = |v: &str| -> anyhow::Result<u64> {
            v.trim()
                .parse::<i64>()
                .map(|n| n.max(0) as u64)
                .with_context(|| format!("rcalc: {v}: a whole number expected"))
        };
        match (a.get(1).copied(), a.get(2).copied()) {
            (Some(b'b'), _) => o.blanks_equal = !o.blanks_equal,
            (Some(b'l'), _) => o.ignore_newlines = !o.ignore_newlines,
            // Warnings (division by zero ...) are never printed.
            (Some(b'w'), _) => {}
            (Some(b'u'), _) => o.flush = !o.flush,
            (Some(b't'), sep) => o.sep = sep.unwrap_or(0),
            (Some(b'n'), None) => o.no_input = true,
            (Some(b'e'), None) => {
                let e = value("-e")?;
                env.load_str("command line -e", e)
                    .map_err(|err| anyhow::anyhow!("rcalc: {err}"))?;
            }
            (Some(b'f'), None) => {
                let f = value("-f")?;
                env.load_file_global(f, &raypath)
                    .map_err(|err| anyhow::anyhow!("rcalc: {err}"))?;
            }
            // A string variable's preset: record formats read and check it.
            (Some(b's'), None) => {
                let s = value("-s")?;
                let (name, val) = s
                    .split_once('=')
                    .with_context(|| format!("rcalc: -s {s}: svar=sval expected"))?;
                o.presets.push((name.trim().to_string(), val.to_string()));
            }
            (Some(b'i'), Some(b'n')) if a.len() == 3 => o.in_limit = count(value("-in")?)?,
            (Some(b'o'), Some(b'n')) if a.len() == 3 => o.out_limit = count(value("-on")?)?,
            (Some(b'i'), Some(b'a')) => o.input = None,
            (Some(b'o'), Some(b'a')) => o.output = None,
            (Some(b'i'), Some(c)) if Binary::parse(c).is_some() => {
                let kind = Binary::parse(c).expect("checked");
                let digits: String = opt[3..].chars().take_while(char::is_ascii_digit).collect();
                let n = if digits.is_empty() {
                    1
                } else {
                    digits.parse::<usize>().unwrap_or(usize::MAX)
                };
                if n == 0 || n.saturating_mul(kind.size()) > 16384 {
                    bail!("rcalc: {opt}: too many input columns");
                }
                o.input = Some((kind, n));
            }
            (Some(b'o'), Some(c)) if Binary::parse(c).is_some() => {
                o.output = Binary::parse(c);
            }
            (Some(b'o'), None) => {
                o.out_format = Some((value("-o")?.to_string(), !o.ignore_newlines))
            }
            (Some(b'i'), None) => {
                o.in_format = Some((value("-i")?.to_string(), !o.ignore_newlines))
            }
            (Some(b'p'), None) => o.passive = 1,
            (Some(b'P'), None) => o.passive = -1,
            _ => bail!("rcalc: unknown option {opt} ({USAGE})"),
        }
        i += 1;
    }
    let files = &args[i..];
    if o.passive != 0 && (o.in_format.is_none() || o.out_format.is_none()) {
        bail!("rcalc: options -p and -P require -i and -o formats");
    }
    let program = Program::new(env, &o)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = if o.no_input {
        if !files.is_empty() {
            bail!("rcalc: file argument(s) incompatible with -n");
        }
        let mut st = EvalState::for_env(&program.env);
        let mut buf = Vec::new();
        program.write_record(&Record::empty(&o), &o, &mut st, &program.presets, &mut buf)?;
        out.write_all(&buf).and_then(|_| out.flush())
    } else {
        let mut counts = (0u64, 0u64);
        if files.is_empty() {
            program.run(
                &mut BufReader::new(std::io::stdin().lock()),
                &o,
                &mut counts,
                &mut out,
            )
        } else {
            let mut r = Ok(());
            for f in files {
                let file =
                    std::fs::File::open(f).with_context(|| format!("rcalc: {f}: cannot open"))?;
                r = program.run(&mut BufReader::new(file), &o, &mut counts, &mut out);
                if r.is_err() || o.in_limit > 0 && counts.0 >= o.in_limit {
                    break;
                }
            }
            r
        }
        .and_then(|_| out.flush())
    };
    match result {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("rcalc"),
        _ => Ok(ExitCode::SUCCESS),
    }
}

impl Program {
    fn new(mut env: CalEnv, o: &Options) -> anyhow::Result<Program> {
        let cond = env.variable("cond");
        if cond.is_some_and(|c| env.is_constant(c)) {
            bail!("rcalc: cond: defined as constant");
        }
        let columns = env.output_columns();
        // The input format's variables first: output expressions may use them.
        let input_format = match &o.in_format {
            Some((spec, newline)) => Some(crate::record_format::InputFormat::new(
                crate::record_format::read(spec, *newline)?,
                &mut env,
            )),
            None => None,
        };
        let format = match &o.out_format {
            Some((spec, newline)) => {
                let fields = crate::record_format::read(spec, *newline)?;
                Some(crate::record_format::Output::new(fields, &mut env)?)
            }
            None => None,
        };
        Ok(Program {
            env,
            cond,
            columns,
            format,
            input_format,
            presets: o.presets.iter().cloned().collect(),
        })
    }

    /// Transforms every record of one input; `counts` (records read,
    /// written) carry over between files for `-in`/`-on`.
    fn run(
        &self,
        input: &mut impl BufRead,
        o: &Options,
        counts: &mut (u64, u64),
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        if let Some(fmt) = &self.input_format {
            return self.run_formatted(fmt, input, o, counts, out);
        }
        let mut st = EvalState::for_env(&self.env);
        let mut rec = Record::empty(o);
        let mut raw = Vec::new();
        let mut buf = Vec::new();
        loop {
            if o.in_limit > 0 && counts.0 >= o.in_limit
                || o.out_limit > 0 && counts.1 >= o.out_limit
            {
                return Ok(());
            }
            match o.input {
                Some((kind, n)) => {
                    raw.resize(kind.size() * n, 0);
                    match input.read_exact(&mut raw) {
                        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
                        r => r?,
                    }
                    rec.values.clear();
                    rec.values
                        .extend(raw.chunks_exact(kind.size()).map(|b| kind.decode(b)));
                }
                None => {
                    rec.text.clear();
                    if input.read_until(b'\n', &mut rec.text)? == 0 {
                        return Ok(());
                    }
                }
            }
            counts.0 += 1;
            rec.recno = counts.0 as f64;
            rec.outno = (counts.1 + 1) as f64;
            if let Some(c) = self.cond {
                let mut v = [0.0];
                self.env.eval_vars(&[c], &mut v, &mut st, &rec);
                self.check(&mut st)?;
                if v[0] <= 0.0 {
                    continue;
                }
            }
            buf.clear();
            self.write_record(&rec, o, &mut st, &self.presets, &mut buf)?;
            out.write_all(&buf)?;
            if o.flush {
                out.flush()?;
            }
            counts.1 += 1;
        }
    }

    /// [`Program::run`] for records matched by an input format.
    fn run_formatted(
        &self,
        fmt: &crate::record_format::InputFormat,
        input: &mut impl BufRead,
        o: &Options,
        counts: &mut (u64, u64),
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        let matching = crate::record_format::Matching {
            blanks_equal: o.blanks_equal,
            ignore_newlines: o.ignore_newlines,
            passive: o.passive,
        };
        let mut m = crate::record_format::Matcher::new(fmt, matching, &bytes, &o.presets);
        let mut st = EvalState::for_env(&self.env);
        let mut rec = Record::empty(o);
        let mut buf = Vec::new();
        let mut last_end = None;
        loop {
            buf.clear();
            let limited = o.in_limit > 0 && counts.0 >= o.in_limit
                || o.out_limit > 0 && counts.1 >= o.out_limit;
            if limited || !m.next_record(&mut buf) {
                if !limited {
                    m.finish(&mut buf);
                }
                return out.write_all(&buf);
            }
            // RADIANCE's rcalc repeats a record that matches empty text forever.
            if last_end == Some(m.position()) {
                out.write_all(&buf)?;
                return Err(std::io::Error::other(format!(
                    "the input format matches empty text at byte {} (it would repeat forever)",
                    m.position()
                )));
            }
            last_end = Some(m.position());
            counts.0 += 1;
            rec.recno = counts.0 as f64;
            rec.outno = (counts.1 + 1) as f64;
            rec.ext = m.values.iter().map(|v| v.unwrap_or(0.0)).collect();
            let pass = match self.cond {
                Some(c) => {
                    let mut v = [0.0];
                    self.env.eval_vars(&[c], &mut v, &mut st, &rec);
                    self.check(&mut st)?;
                    v[0] > 0.0
                }
                None => true,
            };
            m.advance(!pass, &mut buf);
            if pass {
                self.write_record(&rec, o, &mut st, &m.strings, &mut buf)?;
                counts.1 += 1;
            }
            out.write_all(&buf)?;
            if o.flush {
                out.flush()?;
            }
        }
    }

    /// Formats one output record (nothing when no column is defined).
    fn write_record(
        &self,
        rec: &Record,
        o: &Options,
        st: &mut EvalState,
        strings: &std::collections::HashMap<String, String>,
        buf: &mut Vec<u8>,
    ) -> std::io::Result<()> {
        if let Some(f) = &self.format {
            return f
                .write(&self.env, st, rec, strings, o.blanks_equal, buf)
                .map_err(std::io::Error::other);
        }
        let ids: Vec<VarId> = self.columns.iter().map(|c| c.1).collect();
        let mut values = vec![0.0; ids.len()];
        self.env.eval_vars(&ids, &mut values, st, rec);
        self.check(st)?;
        let mut pos = 0u32;
        for (&(n, _), &v) in self.columns.iter().zip(&values) {
            match o.output {
                None => {
                    pos = pos.max(1);
                    while pos < n {
                        buf.push(o.sep);
                        pos += 1;
                    }
                    buf.extend_from_slice(format_g_digits(v, 9).as_bytes());
                }
                Some(kind) => {
                    while pos + 1 < n {
                        kind.encode(0.0, buf);
                        pos += 1;
                    }
                    pos += 1;
                    kind.encode(v, buf);
                }
            }
        }
        if pos > 0 && o.output.is_none() {
            buf.push(b'\n');
        }
        Ok(())
    }

    /// A fatal calcomp error (undefined name met, runaway recursion) ends the run.
    fn check(&self, st: &mut EvalState) -> std::io::Result<()> {
        match st.take_error() {
            Some(e) => Err(std::io::Error::other(format!("{e}"))),
            None => Ok(()),
        }
    }
}
