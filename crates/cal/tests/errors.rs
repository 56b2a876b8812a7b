//! Error reporting: location and message, and no panics.

use daylit_cal::{CalEnv, CalError};

fn load_err(text: &str) -> CalError {
    CalEnv::new()
        .load_str("bad.cal", text)
        .expect_err("should fail")
}

fn assert_at(e: &CalError, line: u32, col: u32, needle: &str) {
    assert_eq!((e.line(), e.column()), (Some(line), Some(col)), "{e}");
    assert!(e.to_string().contains(needle), "{e} lacks {needle}");
    assert!(
        e.to_string().starts_with("bad.cal:") || e.to_string().contains("expression"),
        "{e}"
    );
}

#[test]
fn missing_semicolon() {
    assert_at(&load_err("a = 1\nb = 2;"), 2, 1, "';' expected");
}

#[test]
fn missing_close_paren() {
    assert_at(&load_err("a = (1 + 2;"), 1, 11, "')' expected");
}

#[test]
fn unexpected_character() {
    assert_at(
        &load_err("x = 1;\ny = 2 * #;"),
        2,
        9,
        "unexpected character",
    );
}

#[test]
fn bad_number() {
    assert_at(&load_err("a = .;"), 1, 6, "badly formed number");
    assert_at(&load_err("a = 1e+;"), 1, 8, "missing exponent");
}

#[test]
fn illegal_names() {
    assert_at(&load_err("3a = 1;"), 1, 1, "illegal variable name");
    assert_at(&load_err("f(1) = 1;"), 1, 3, "illegal parameter name");
    assert_at(&load_err("f(a`b) = 1;"), 1, 3, "illegal parameter name");
}

#[test]
fn missing_assignment() {
    assert_at(&load_err("a + 1;"), 1, 3, "'=' or ':' expected");
}

#[test]
fn unterminated_comment() {
    assert_at(
        &load_err("a = 1; { open { nested } \n"),
        2,
        1,
        "'}' expected",
    );
}

#[test]
fn divide_by_zero_constant() {
    assert_at(&load_err("a = x / (2-2);"), 1, 9, "divide by zero constant");
}

#[test]
fn empty_call_and_double_minus() {
    assert_at(&load_err("a = f();"), 1, 7, "unexpected character");
    assert_at(&load_err("a = --1;"), 1, 6, "unexpected character");
}

#[test]
fn too_deep() {
    let text = format!("a = {}1{};", "(".repeat(1000), ")".repeat(1000));
    assert!(load_err(&text).to_string().contains("nested too deeply"));
}

#[test]
fn end_of_input() {
    assert_at(&load_err("a = 1 +"), 1, 8, "expression expected");
}

#[test]
fn undefined_names_at_link_time() {
    let mut env = CalEnv::new();
    env.load_str(
        "bad.cal",
        "a = 1;\nb = 2 * nosuch + a;\nf(x) = g(x);\nh = a(2);",
    )
    .unwrap(); // as in RADIANCE, undefined names only matter when used
    let e = env.compile_expr("b").unwrap_err();
    assert_at(&e, 2, 9, "nosuch: undefined variable");
    let e = env.compile_expr("f(1)").unwrap_err();
    assert_at(&e, 3, 8, "g: undefined function");
    let e = env.resolve_var_in(".", "h").unwrap_err();
    assert_at(&e, 4, 5, "called as a function");
    assert!(env.link().is_err());
    let e = env.compile_expr("sin()").unwrap_err();
    assert_eq!(e.column(), Some(5));
    let e = env.compile_expr("atan2(1)").unwrap_err();
    assert!(e.to_string().contains("too few arguments"), "{e}");
    let e = env.compile_expr("$99").unwrap_err();
    assert!(e.to_string().contains("illegal channel"), "{e}");
    // Defining the missing name later fixes it.
    env.load_str("fix.cal", "nosuch = 5; g(x) = x;").unwrap();
    assert!(env.compile_expr("b + f(1)").is_ok());
    assert!(env.resolve_var_in(".", "nonexistent").is_err());
}

#[test]
fn expression_errors() {
    let mut env = CalEnv::new();
    let e = env.compile_expr("1 + ").unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(5)));
    let e = env.compile_expr("1 2 )").unwrap_err();
    assert!(e.to_string().contains("unexpected character"));
    assert!(env.compile_expr("").is_err());
}

#[test]
fn failed_load_leaves_env_unchanged() {
    let mut env = CalEnv::new();
    assert!(env.load_str("bad.cal", "q = 7; r = ;").is_err());
    assert!(env.variable("q").is_none());
}
