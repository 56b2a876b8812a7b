//! RADIANCE's constant reduction: the rewrites calcomp applies while it reads
//! an expression (rcontrib, rtrace and rcalc read with reduction on), so that
//! our arithmetic is the same as RADIANCE's to the last bit.
//!
//! While reading ([`reduce`], every expression):
//!
//! * a constant (`:`) variable defined by then, and a call of a constant
//!   function (a `:` user function defined by then, or a constant library
//!   function) whose arguments are all numbers, become their value;
//! * `a + b`, `a - b`, `a * b`, `a / b` and `a ^ b` of two numbers become
//!   their value (a sum as `0 + a + b`);
//! * `e - c` becomes `e + (-c)`;
//! * `e / c` becomes `e * (1/c)`, the reciprocal computed once;
//! * `e * 0` becomes that 0, and `0 * e`, `0 / e` the left 0;
//! * `0 ^ e` becomes that 0, `e ^ 0` and `1 ^ e` become 1, `e ^ 1` becomes `e`;
//! * `-c` becomes the number `-c`, and `-(-e)` becomes `e`.
//!
//! Here `c` is a number and `e` anything else. After a definition is read,
//! [`optimize`] flattens nested sums and products into one node each (so
//! `a + (b + c)` is `(a + b) + c`) and combines their numbers into the first
//! number's place. Every calcomp sum starts from +0 (see
//! [`crate::parse::Expr::Spine`]). Stand-alone expressions (modifier
//! arguments, rcontrib's `-b`) are reduced but not flattened, as in RADIANCE.
//!
//! Where calcomp stops with an error (a constant that is not a number, a
//! division by a constant 0) the expression is kept as written instead.

use crate::parse::{ChainOp, Expr};

/// What is known about names at the point a statement is read.
pub(crate) trait Constants {
    /// The value of `name` if it is a constant (`:`) variable defined by now.
    fn var(&mut self, name: &str) -> Option<f64>;
    /// The value of `name(args)` if `name` is a constant function: a `:` user
    /// function defined by now, or a constant library function.
    fn call(&mut self, name: &str, args: &[f64]) -> Option<f64>;
}

fn num(e: &Expr) -> Option<f64> {
    match e {
        Expr::Num(v) => Some(*v),
        _ => None,
    }
}

/// Apply the read-time rewrites to a parsed expression.
pub(crate) fn reduce(e: Expr, k: &mut dyn Constants) -> Expr {
    match e {
        Expr::Name(name, pos) => match k.var(&name) {
            Some(v) => Expr::Num(v),
            None => Expr::Name(name, pos),
        },
        Expr::Neg(a) => match reduce(*a, k) {
            Expr::Num(v) => Expr::Num(-v),
            Expr::Neg(inner) => *inner,
            other => Expr::Neg(Box::new(other)),
        },
        Expr::Pow(a, b) => {
            let a = reduce(*a, k);
            let b = reduce(*b, k);
            power(a, b)
        }
        Expr::Chain(first, rest) => {
            // calcomp builds the left-nested binary nodes one at a time.
            let mut acc = reduce(*first, k);
            for (op, x) in rest {
                let r = reduce(x, k);
                acc = binary(op, acc, r);
            }
            acc
        }
        Expr::Call {
            name,
            pos,
            param,
            args,
        } => {
            let args: Vec<Expr> = args.into_iter().map(|a| reduce(a, k)).collect();
            if param.is_none() {
                let vals: Option<Vec<f64>> = args.iter().map(num).collect();
                if let Some(v) = vals.and_then(|v| k.call(&name, &v)) {
                    return Expr::Num(v);
                }
            }
            Expr::Call {
                name,
                pos,
                param,
                args,
            }
        }
        other => other,
    }
}

/// Append a binary node with left operand `l` (left-nested nodes share one spine).
fn push(l: Expr, op: ChainOp, r: Expr) -> Expr {
    match l {
        Expr::Spine(head, mut ops) => {
            ops.push((op, r));
            Expr::Spine(head, ops)
        }
        other => Expr::Spine(Box::new(other), vec![(op, r)]),
    }
}

fn binary(op: ChainOp, l: Expr, r: Expr) -> Expr {
    match op {
        ChainOp::Add | ChainOp::Sub => {
            if let Some(b) = num(&r) {
                if let Some(a) = num(&l) {
                    return Expr::Num(if op == ChainOp::Add {
                        0.0 + a + b
                    } else {
                        a - b
                    });
                }
                if op == ChainOp::Sub {
                    return push(l, ChainOp::Add, Expr::Num(-b));
                }
            }
            push(l, op, r)
        }
        _ => {
            let (x, y) = (num(&l), num(&r));
            match (x, y) {
                (Some(a), Some(b)) if op == ChainOp::Mul => Expr::Num(a * b),
                // calcomp refuses a constant division by 0; ours gives 0 when run.
                (Some(a), Some(b)) if b != 0.0 => Expr::Num(a / b),
                (_, Some(b)) if op == ChainOp::Div && b != 0.0 => {
                    push(l, ChainOp::Mul, Expr::Num(1.0 / b))
                }
                (_, Some(b)) if op == ChainOp::Mul && b == 0.0 => r,
                (Some(_), None) if x == Some(0.0) => l,
                _ => push(l, op, r),
            }
        }
    }
}

fn power(a: Expr, b: Expr) -> Expr {
    let (x, y) = (num(&a), num(&b));
    if let (Some(x), Some(y)) = (x, y) {
        let v = x.powf(y);
        if v.is_finite() {
            return Expr::Num(v);
        }
    } else if x == Some(0.0) {
        return a;
    } else if y == Some(0.0) || x == Some(1.0) {
        return Expr::Num(1.0);
    } else if y == Some(1.0) {
        return a;
    }
    Expr::Pow(Box::new(a), Box::new(b))
}

/// Flatten sums and products of a reduced definition, as calcomp does once a
/// definition has been read.
pub(crate) fn optimize(e: &mut Expr) {
    let collapsed = match e {
        Expr::Spine(head, ops) => {
            flatten_runs(head, ops);
            if ops.is_empty() {
                Some(std::mem::replace(&mut **head, Expr::Num(0.0)))
            } else {
                optimize(head);
                for (_, t) in ops.iter_mut() {
                    optimize(t);
                }
                None
            }
        }
        Expr::Neg(a) => {
            optimize(a);
            None
        }
        Expr::Pow(a, b) => {
            optimize(a);
            optimize(b);
            None
        }
        Expr::Call { args, .. } => {
            args.iter_mut().for_each(optimize);
            None
        }
        _ => None,
    };
    // Every operand was a number: the node is that number.
    if let Some(head) = collapsed {
        *e = head;
        optimize(e);
    }
}

/// Does `e` end in a calcomp `op` node (a run of `op` at the end of a spine)?
fn ends_with(e: &Expr, op: ChainOp) -> bool {
    matches!(e, Expr::Spine(_, ops) if ops.last().is_some_and(|(o, _)| *o == op))
}

/// Flatten and combine each run of `+` (or `*`) along a spine: a run is one
/// n-ary calcomp node whose first operand is everything before it.
fn flatten_runs(head: &mut Expr, ops: &mut Vec<(ChainOp, Expr)>) {
    // Outermost node first, as calcomp: an inner node that later becomes a
    // number is not combined into the outer one.
    let mut end = ops.len();
    while end > 0 {
        let op = ops[end - 1].0;
        let mut start = end - 1;
        if matches!(op, ChainOp::Add | ChainOp::Mul) {
            while start > 0 && ops[start - 1].0 == op {
                start -= 1;
            }
            // The node's first operand is the head only for the first node.
            let head_num = if start == 0 { num(head) } else { None };
            let nums = ops[start..end]
                .iter()
                .filter(|(_, t)| num(t).is_some())
                .count()
                + usize::from(head_num.is_some());
            if nums > 1 || ops[start..end].iter().any(|(_, t)| ends_with(t, op)) {
                let mut flat = Vec::with_capacity(end - start);
                for (_, t) in ops.drain(start..end) {
                    splice(t, op, &mut flat);
                }
                let kept = combine(flat, op, head_num, head);
                ops.splice(start..start, kept.into_iter().map(|t| (op, t)));
            }
        }
        end = start;
    }
}

/// Combine the numbers among `head_num` (the node's first operand, when it
/// is a number) and `terms` into the first number's place; return the rest.
fn combine(terms: Vec<Expr>, op: ChainOp, head_num: Option<f64>, head: &mut Expr) -> Vec<Expr> {
    let mut combined = head_num;
    let mut first_at = None;
    let mut kept = Vec::with_capacity(terms.len());
    for t in terms {
        match (num(&t), combined) {
            (Some(v), None) => {
                combined = Some(v);
                first_at = Some(kept.len());
                kept.push(t);
            }
            (Some(v), Some(c)) => {
                combined = Some(if op == ChainOp::Add { c + v } else { c * v });
            }
            (None, _) => kept.push(t),
        }
    }
    match (head_num, first_at, combined) {
        (Some(_), _, Some(c)) => *head = Expr::Num(c),
        (None, Some(j), Some(c)) => kept[j] = Expr::Num(c),
        _ => {}
    }
    kept
}

/// Put the operands of `e` into `out`, those of a nested `op` node in its place.
fn splice(e: Expr, op: ChainOp, out: &mut Vec<Expr>) {
    match e {
        Expr::Spine(head, mut ops) if ops.last().is_some_and(|(o, _)| *o == op) => {
            let start = ops.iter().rposition(|(o, _)| *o != op).map_or(0, |p| p + 1);
            let tail = ops.split_off(start);
            if ops.is_empty() {
                splice(*head, op, out);
            } else {
                out.push(Expr::Spine(head, ops));
            }
            for (_, t) in tail {
                splice(t, op, out);
            }
        }
        other => out.push(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Parser;

    struct Fixed;
    impl Constants for Fixed {
        fn var(&mut self, name: &str) -> Option<f64> {
            (name == "C").then_some(3.0)
        }
        fn call(&mut self, name: &str, args: &[f64]) -> Option<f64> {
            (name == "twice").then(|| 2.0 * args[0])
        }
    }

    fn show(e: &Expr) -> String {
        match e {
            Expr::Num(v) => format!("{v}"),
            Expr::Name(n, _) => n.clone(),
            Expr::Neg(a) => format!("-({})", show(a)),
            Expr::Pow(a, b) => format!("({})^({})", show(a), show(b)),
            Expr::Spine(h, ops) => {
                let mut s = format!("[{}", show(h));
                for (op, x) in ops {
                    let o = match op {
                        ChainOp::Add => "+",
                        ChainOp::Sub => "-",
                        ChainOp::Mul => "*",
                        ChainOp::Div => "/",
                        ChainOp::StartSum => "+0+",
                    };
                    s += &format!(" {o} {}", show(x));
                }
                s + "]"
            }
            Expr::Call { name, args, .. } => {
                let a: Vec<String> = args.iter().map(show).collect();
                format!("{name}({})", a.join(","))
            }
            other => format!("{other:?}"),
        }
    }

    fn red(text: &str, opt: bool) -> String {
        let e = Parser::new("t", text).unwrap().expression().unwrap();
        let mut e = reduce(e, &mut Fixed);
        if opt {
            optimize(&mut e);
        }
        show(&e)
    }

    #[test]
    fn read_time_rewrites() {
        assert_eq!(red("x/4", false), "[x * 0.25]");
        assert_eq!(red("x/C", false), format!("[x * {}]", 1.0 / 3.0));
        assert_eq!(red("x/y/2", false), "[x / y * 0.5]");
        assert_eq!(red("x-3", false), "[x + -3]");
        assert_eq!(red("3-x", false), "[3 - x]");
        assert_eq!(red("x*0+y", false), "[0 + y]");
        assert_eq!(red("0/x", false), "0");
        assert_eq!(red("x^0+y^1+1^z+0^w", false), "[1 + y + 1 + 0]");
        assert_eq!(red("-C", false), "-3");
        assert_eq!(red("-(-x)", false), "x");
        assert_eq!(red("twice(C)*x", false), "[6 * x]");
        assert_eq!(red("twice(x)", false), "twice(x)");
        assert_eq!(red("2*3+4/8", false), "6.5");
    }

    #[test]
    fn flattening_and_combining() {
        assert_eq!(red("a+(b+c)", true), "[a + b + c]");
        assert_eq!(red("a+(b+c)", false), "[a + [b + c]]");
        assert_eq!(red("a*(b*c)*d", true), "[a * b * c * d]");
        assert_eq!(red("2*x*3", true), "[6 * x]");
        assert_eq!(red("x*2/3", true), format!("[x * {}]", 2.0 * (1.0 / 3.0)));
        assert_eq!(red("x+1-2+y", true), "[x + -1 + y]");
        assert_eq!(red("a-b+(c-d+e)", true), "[a - b + [c - d] + e]");
        assert_eq!(red("(a+b)*(c+d)", true), "[a + b * [c + d]]");
        assert_eq!(red("a*(b/c)", true), "[a * [b / c]]");
        assert_eq!(red("f(a+(b+1)+2)", true), "f([a + b + 3])");
    }
}
