//! `cute eval --format json`: one JSON object per answer (schema in `docs/json.md`).
//!
//! Written by hand: the schema is small and fixed, and the printer is all it needs.

use std::fmt::Write;

use cute_dyn::{Coord, Error, Int, Style, Tuple};

use crate::eval::Value;

/// A JSON string literal.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A leaf: `{"value":8,"static":true,"divisor":8}` (the divisor of a static value is itself).
fn leaf(i: &Int) -> String {
    format!(r#"{{"value":{},"static":{},"divisor":{}}}"#, i.value(), i.is_static(), i.divisor())
}

/// A tuple as nested arrays of leaves; `_` is `null`.
fn tree(t: &Coord) -> String {
    match t {
        Tuple::Leaf(Some(i)) => leaf(i),
        Tuple::Leaf(None) => "null".into(),
        Tuple::Node(v) => format!("[{}]", v.iter().map(tree).collect::<Vec<_>>().join(",")),
    }
}

/// The three texts of a value.
fn texts(v: &Value) -> String {
    let [a, b, c] = [Style::Values, Style::Cpp, Style::Dsl].map(|s| string(&v.to_styled(s)));
    format!(r#""values":{a},"cpp":{b},"dsl":{c}"#)
}

/// The JSON object of a value.
pub fn value(v: &Value) -> String {
    let kind = string(v.kind_name());
    match v {
        Value::Int(i) => format!(r#"{{"kind":{kind},{},"value":{}}}"#, texts(v), leaf(i)),
        Value::Bool(b) => format!(r#"{{"kind":{kind},"value":{b}}}"#),
        Value::Tuple(t) => format!(r#"{{"kind":{kind},{},"tuple":{}}}"#, texts(v), tree(t)),
        Value::Layout(l) => format!(
            r#"{{"kind":{kind},{},"shape":{},"stride":{}}}"#,
            texts(v),
            tree(&l.shape().to_coord()),
            tree(&l.stride().to_coord())
        ),
        Value::Pair(a, b) => format!(r#"{{"kind":{kind},{},"first":{},"second":{}}}"#, texts(v), value(a), value(b)),
        Value::Swizzle(s) => {
            let (b, m, sh) = s.params();
            format!(r#"{{"kind":{kind},"values":{},"params":[{b},{m},{sh}]}}"#, string(&s.to_string()))
        }
        Value::Tiler(_)
        | Value::Composed(_)
        | Value::Mma(_)
        | Value::Basis(_)
        | Value::Identity(_)
        | Value::CopyAtom(_)
        | Value::Copy(_)
        | Value::Name(_)
        | Value::TmaDesc(_) => {
            format!(r#"{{"kind":{kind},{}}}"#, texts(v))
        }
        Value::Bits(b) => {
            let cols: Vec<String> = b.columns().iter().map(|c| c.to_string()).collect();
            format!(r#"{{"kind":{kind},{},"xor":{},"columns":[{}]}}"#, texts(v), b.is_xor(), cols.join(","))
        }
        Value::GmmaDesc(d) => {
            format!(r#"{{"kind":{kind},{},"value":{}}}"#, texts(v), d.to_u64())
        }
    }
}

/// The JSON object of an error: `{"error":{"kind":"stride_divisibility","message":"..."}}`.
pub fn error(e: &Error) -> String {
    format!(r#"{{"error":{{"kind":{},"message":{}}}}}"#, string(e.kind()), string(&e.to_string()))
}

/// The JSON line for a batch line that broke the library (a panic): kind `internal`.
pub fn internal() -> String {
    r#"{"error":{"kind":"internal","message":"internal error (a panic in the library): please report this expression"}}"#
        .into()
}
