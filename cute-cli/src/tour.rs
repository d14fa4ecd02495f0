//! The tour (`cargo run --release`): every documented CuTe example, computed by the library
//! beside its documented value.
//!
//! Sources: the CuTe documentation's examples as collected (and checked against NVIDIA's pycute)
//! in the conformance corpus's `seed_examples.md`, and the CuTe DSL results recorded in the
//! design brief (section 3).

use std::io::{self, Write};

use cute_dyn::Style;

use crate::eval::eval;

/// One documented example: an expression, the style it is printed in, the documented text.
pub struct Example {
    /// Where the example comes from.
    pub section: &'static str,
    /// A `cute eval` expression.
    pub expr: &'static str,
    /// The printing style of the documented value.
    pub style: Style,
    /// The documented value.
    pub expected: &'static str,
}

const fn ex(section: &'static str, expr: &'static str, expected: &'static str) -> Example {
    Example { section, expr, style: Style::Values, expected }
}

const fn dsl(section: &'static str, expr: &'static str, expected: &'static str) -> Example {
    Example { section, expr, style: Style::Dsl, expected }
}

/// Every documented example.
pub const EXAMPLES: &[Example] = &[
    ex("coalesce", "coalesce((2,(1,6)):(1,(6,2)))", "12:1"),
    ex("coalesce", "coalesce(((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12))", "(24,6):(4,2)"),
    ex("by-mode coalesce", "coalesce((2,(1,6)):(1,(6,2)), (1,1))", "(2,6):(1,2)"),
    ex("by-mode coalesce", "coalesce((2,(1,6)):(1,(6,2)), (1,(2,3)))", "(2,(1,6)):(1,(0,2))"),
    ex("composition", "composition((6,2):(8,2), (4,3):(3,1))", "((2,2),3):((24,2),8)"),
    ex("composition", "composition((10,2):(16,4), (5,4):(1,5))", "(5,(2,2)):(16,(80,4))"),
    ex("by-mode composition", "composition((12,(4,8)):(59,(13,1)), <3:4,8:2>)", "(3,(2,4)):(236,(26,1))"),
    ex("by-mode composition", "composition((12,(4,8)):(59,(13,1)), <3,8>)", "(3,(4,2)):(59,(13,1))"),
    ex("complement", "complement(4:1, 24)", "6:4"),
    ex("complement", "complement(6:4, 24)", "4:1"),
    ex("complement", "complement((4,6):(1,4), 24)", "1:0"),
    ex("complement", "complement(4:2, 24)", "(2,3):(1,8)"),
    ex("complement", "complement((2,4):(1,6), 24)", "3:2"),
    ex("complement", "complement((2,2):(1,6), 24)", "(3,2):(2,12)"),
    ex("logical_divide", "logical_divide((4,2,3):(2,1,8), 4:2)", "((2,2),(2,3)):((4,1),(2,8))"),
    ex(
        "logical_divide",
        "logical_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)",
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))",
    ),
    ex(
        "zipped_divide",
        "zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)",
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
    ),
    ex(
        "tiled_divide",
        "tiled_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)",
        "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))",
    ),
    ex(
        "flat_divide",
        "flat_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)",
        "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))",
    ),
    ex("logical_product", "logical_product((2,2):(4,1), 6:1)", "((2,2),(2,3)):((4,1),(2,8))"),
    ex("blocked_product", "blocked_product((2,5):(5,1), (3,4):(1,3))", "((2,3),(5,4)):((5,10),(1,30))"),
    ex("raked_product", "raked_product((2,5):(5,1), (3,4):(1,3))", "((3,2),(4,5)):((10,5),(30,1))"),
    ex("zipped_product", "zipped_product((2,5):(5,1), (3,4):(1,3))", "((2,5),(3,4)):((5,1),(10,30))"),
    ex("tiled_product", "tiled_product((2,5):(5,1), (3,4):(1,3))", "((2,5),3,4):((5,1),10,30)"),
    ex("flat_product", "flat_product((2,5):(5,1), (3,4):(1,3))", "(2,5,3,4):(5,1,10,30)"),
    ex("coordinate mapping", "image((3,(2,3)):(3,(12,1)))", "(0,3,6,12,15,18,1,4,7,13,16,19,2,5,8,14,17,20)"),
    ex("coordinate mapping", "image((2,(2,2)):(4,(2,1)))", "(0,4,2,6,1,5,3,7)"),
    dsl("CuTe DSL: printing", "(2,(1,6)):(1,({6},2))", "(2,(1,6)):(1,(?,2))"),
    dsl("CuTe DSL: coalesce", "coalesce((2,(1,6)):(1,({6},2)))", "12:1"),
    dsl("CuTe DSL: composition", "composition((6,2):({8},2), (4,3):(3,1))", "((2,2),3):((?{div=3},2),?)"),
    ex("CuTe DSL: composition", "values(composition((6,2):({8},2), (4,3):(3,1)))", "((2,2),3):((24,2),8)"),
    ex(
        "CuTe DSL: composition",
        "values(composition(({10},{2}):({16},{4}), ({5},{4}):({1},{5})))",
        "((5,1),(2,2)):((16,4),(80,4))",
    ),
    dsl("CuTe DSL: composition", "composition(({12},({4},{8})):({59},({13},{1})), <3,8>)", "(3,(?,?)):(?,(?,?))"),
    ex(
        "CuTe DSL: composition",
        "values(composition(({12},({4},{8})):({59},({13},{1})), <3,8>))",
        "(3,(4,2)):(59,(13,1))",
    ),
];

/// Print every example with a mark; return the number that differ.
///
/// # Errors
/// Only a failure to write.
pub fn run(out: &mut impl Write) -> io::Result<usize> {
    writeln!(out, "cute-layout tour: documented CuTe examples, computed\n")?;
    let mut bad = 0;
    let mut section = "";
    for e in EXAMPLES {
        if e.section != section {
            section = e.section;
            writeln!(out, "## {section}")?;
        }
        let got = eval(e.expr, e.style).unwrap_or_else(|err| format!("error: {err}"));
        let ok = got == e.expected;
        bad += usize::from(!ok);
        writeln!(out, "  [{}] {}\n        = {}", if ok { "ok" } else { "DIFFERS" }, e.expr, got)?;
        if !ok {
            writeln!(out, "        documented: {}", e.expected)?;
        }
    }
    writeln!(out, "\n{} of {} documented results reproduced exactly", EXAMPLES.len() - bad, EXAMPLES.len())?;

    // A kernel: examples/dot_product.rs, 8 threads over a static shared tile.
    writeln!(out, "\n## Layouts in kernel code: the dot-product puzzle (examples/dot_product.rs)")?;
    let (got, expected) = cute_kernels::dot_product::run();
    writeln!(out, "  out: {got:?}\n  expected: {expected:?}")?;
    if got != expected {
        writeln!(out, "  DIFFERS")?;
        bad += 1;
    }
    Ok(bad)
}
