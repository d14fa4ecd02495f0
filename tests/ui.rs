//! Compile-fail cases: malformed literals are refused at expansion, with the span on the
//! offending token (ui-tests/macros/), and every precondition of the type-level algebra that
//! static values violate is a compile error naming the condition with its numbers in decimal
//! (ui-tests/algebra/); ui-tests/pass/ holds programs that must build and run. The `.stderr`
//! snapshots are reviewed like code; regenerate them with `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn malformed_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/macros/*.rs");
}

/// Generic code missing the one bound an operation needs: rustc names the trait to add.
#[test]
fn generic_code_missing_a_bound() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/generic/*.rs");
}

#[test]
fn algebra_preconditions() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/algebra/*.rs");
    t.pass("ui-tests/pass/*.rs");
}

/// The preconditions' messages show numbers in decimal: no typenum type in any message or
/// label we write, nor in the trait rustc names for a numeric condition (rustc's own "required
/// for" notes name the internal types, and a congruence error names the two tuple types).
#[test]
fn messages_are_decimal() {
    for (path, text) in algebra_snapshots() {
        assert!(!text.contains("E0275"), "{}: the type checker overflowed", path.display());
        for line in text.lines() {
            let ours = line.starts_with("error[")
                || (line.contains("= help: the trait") && line.contains("Violated"))
                || (line.contains("^ ") && !line.contains("|_") && !line.contains(" implements "));
            if ours {
                for typenum in ["UInt<", "UTerm", "B0", "B1"] {
                    assert!(!line.contains(typenum), "{}: {line}", path.display());
                }
            }
        }
    }
}

/// The `.stderr` snapshots of ui-tests/algebra, with their text.
fn algebra_snapshots() -> impl Iterator<Item = (std::path::PathBuf, String)> {
    std::fs::read_dir("ui-tests/algebra").unwrap().filter_map(|entry| {
        let path = entry.unwrap().path();
        path.extension().is_some_and(|e| e == "stderr").then(|| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
    })
}

/// No algebra error lists impls as "the following other types implement": a condition that
/// can fail is a trait of no impls (its message the error), not a trait whose impls rustc
/// would list as near misses.
#[test]
fn algebra_errors_list_no_impls() {
    for (path, text) in algebra_snapshots() {
        assert!(!text.contains("other types implement"), "{}: rustc lists impls", path.display());
    }
}
