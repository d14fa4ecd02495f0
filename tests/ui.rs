//! Compile-fail cases (ui-tests/): malformed literals are refused at expansion, with the span
//! on the offending token. The `.stderr` snapshots are reviewed like code; regenerate them with
//! `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn malformed_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/macros/*.rs");
}
