//! Helpers shared by the oracle tests.

/// The top-level arguments of `op(a,b,...)` (commas inside `()` and `<>` do not split).
pub fn args(expr: &str) -> Vec<&str> {
    let inner = &expr[expr.find('(').unwrap() + 1..expr.len() - 1];
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out
}
