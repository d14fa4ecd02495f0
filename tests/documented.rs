//! The documented CuTe examples and CuTe DSL results, exactly.
//!
//! `seed_examples.md` (the corpus's collection of the CuTe documentation's examples, each checked
//! against NVIDIA's pycute) is read as data, so every documented line is tested as written.

use cute::cute_dyn::*;
use cute_cli::eval::{eval, eval_checked};

/// The answer in `style`, every result along the way checked against its operation's @post.
fn checked(expr: &str, style: Style) -> String {
    let (answer, violation) = eval_checked(expr, style);
    assert!(violation.is_none(), "{expr}: {violation:?}");
    answer.unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn values(expr: &str) -> String {
    checked(expr, Style::Values)
}

fn dsl(expr: &str) -> String {
    checked(expr, Style::Dsl)
}

#[test]
fn every_seed_example_reproduces() {
    let doc = include_str!("data/conformance/seed_examples.md");
    let mut n = 0;
    for line in doc.lines() {
        // - `op(args) -> expected` — status
        let Some(rest) = line.strip_prefix("- `") else { continue };
        let Some((code, _)) = rest.split_once('`') else { continue };
        let Some((expr, expected)) = code.split_once(" -> ") else { continue };
        // The pycute bug note (an int tiler in logical_product) documents pycute's wrong answer;
        // CuTe's documented value is the layout form, checked above it.
        if line.contains("bug") {
            continue;
        }
        assert_eq!(values(expr), expected, "{expr}");
        n += 1;
    }
    // 25 documented results and the <3:1,4:1> tiler-form note.
    assert_eq!(n, 26);
}

#[test]
fn seed_coordinate_mappings() {
    let l: Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
    for i in 0..3 {
        for j in 0..2 {
            for k in 0..3 {
                let c: Coord = format!("({i},({j},{k}))").parse().unwrap();
                assert_eq!(l.call_coord(&c).unwrap().value(), i * 3 + j * 12 + k);
            }
        }
    }
    let order: Vec<i64> = (0..18).map(|i| l.call(i).unwrap()).collect();
    assert_eq!(order, [0, 3, 6, 12, 15, 18, 1, 4, 7, 13, 16, 19, 2, 5, 8, 14, 17, 20]);
    let l: Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
    let order: Vec<i64> = (0..8).map(|i| l.call(i).unwrap()).collect();
    assert_eq!(order, [0, 4, 2, 6, 1, 5, 3, 7]);
}

#[test]
fn cute_dsl_results() {
    // (2,(1,6)):(1,({6},2)) prints (2,(1,6)):(1,(?,2)); its coalesce is the static 12:1.
    assert_eq!(dsl("(2,(1,6)):(1,({6},2))"), "(2,(1,6)):(1,(?,2))");
    assert_eq!(values("coalesce((2,(1,6)):(1,({6},2)))"), "12:1");
    // composition((6,2):({8},2), (4,3):(3,1)) prints ((2,2),3):((?{div=3},2),?) and
    // evaluates to ((2,2),3):((24,2),8).
    assert_eq!(dsl("composition((6,2):({8},2),(4,3):(3,1))"), "((2,2),3):((?{div=3},2),?)");
    assert_eq!(values("values(composition((6,2):({8},2),(4,3):(3,1)))"), "((2,2),3):((24,2),8)");
    // All-dynamic composition((10,2):(16,4),(5,4):(1,5)) keeps the general form; the static
    // version is simplified. Same function.
    let dynamic = "composition(({10},{2}):({16},{4}),({5},{4}):({1},{5}))";
    assert_eq!(values(&format!("values({dynamic})")), "((5,1),(2,2)):((16,4),(80,4))");
    assert_eq!(dsl(dynamic), "((?,?),(?,?)):((?,?),(?,?))");
    assert_eq!(values("composition((10,2):(16,4),(5,4):(1,5))"), "(5,(2,2)):(16,(80,4))");
    assert_eq!(values(&format!("image(values({dynamic}))")), values("image((5,(2,2)):(16,(80,4)))"));
    // composition of the all-dynamic (12,(4,8)):(59,(13,1)) with the shape tiler (3,8).
    let dynamic = "composition(({12},({4},{8})):({59},({13},{1})),<3,8>)";
    assert_eq!(dsl(dynamic), "(3,(?,?)):(?,(?,?))");
    assert_eq!(values(&format!("values({dynamic})")), "(3,(4,2)):(59,(13,1))");
}

#[test]
fn cute_cpp_documented_constructions() {
    // layout.hpp: make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{}) -> (_2,_2,_2,_2):(_1,_4,_8,_2)
    assert_eq!(values("make_ordered_layout((2,2,2,2),(0,2,3,1))"), "(2,2,2,2):(1,4,8,2)");
    // make_ordered_layout(make_shape(2,3,4,5), make_step(Int<2>{}, 67, 42, Int<50>{})) -> (2,3,4,5):(_1,10,30,2)
    assert_eq!(
        eval("make_ordered_layout(({2},{3},{4},{5}),(2,{67},{42},50))", Style::Cpp).unwrap(),
        "(2,3,4,5):(_1,10,30,2)"
    );
    // int_tuple.hpp: shape_div((4,5,6),40) -> (1,1,3)
    assert_eq!(values("shape_div((4,5,6),40)"), "(1,1,3)");
    // layout.hpp coalesce note: (_4,_1):(_1,_0) coalesces to _4:_1.
    assert_eq!(values("coalesce((4,1):(1,0))"), "4:1");
}

#[test]
fn the_tour_is_all_good() {
    let mut out = Vec::new();
    assert_eq!(cute_cli::tour::run(&mut out).unwrap(), 0, "{}", String::from_utf8_lossy(&out));
}

/// Composed layouts as CuTe C++ prints them (`composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,
/// Stride<_64,_1>>{})` prints `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)`), read back in every style,
/// and evaluated by the definition: `Sw<B,M,S>(x) = x ^ ((x & yyy) >> S)` with
/// `yyy = (2^B - 1) << (M + S)`, here at `x = L(i) = 64 * (i % 8) + i / 8`.
#[test]
fn composed_layouts_print_parse_and_evaluate_as_cute() {
    let expr = "composition(Sw<3,3,3>,(8,64):(64,1))";
    assert_eq!(checked(expr, Style::Cpp), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
    for style in [Style::Values, Style::Cpp, Style::Dsl] {
        let text = checked(expr, style);
        let back: ComposedLayout = parse_styled(&text, style).unwrap();
        assert_eq!(back.to_styled(style), text, "{style:?}");
    }
    let image = values(&format!("image({expr})"));
    let want: Vec<String> = (0..512)
        .map(|i| {
            let x = 64 * (i % 8) + i / 8;
            (x ^ ((x & (0b111 << 6)) >> 3)).to_string()
        })
        .collect();
    assert_eq!(image, format!("({})", want.join(",")));
    // C++ elides an identity swizzle, and composes a composed layout's inner layout.
    assert_eq!(values("composition(Sw<0,4,3>,(8,64):(64,1))"), "(8,64):(64,1)");
    assert_eq!(values("composition(Sw<3,3,3> o 0 o (8,64):(64,1),<4,8>)"), "Sw<3,3,3> o 0 o (4,8):(64,1)");
    // cute/layout_composed.hpp: the divides, the products, tile_to_shape, get, ... of
    // Sw o 0 o L are Sw o 0 o (the same of L); size, shape, cosize are L's.
    for (op, rest) in [("tile_to_shape", ",(64,128)"), ("zipped_divide", ",<4,8>"), ("get", ",1"), ("coalesce", "")] {
        let of_composed = values(&format!("{op}(Sw<3,3,3> o 0 o (8,64):(64,1){rest})"));
        let of_inner = values(&format!("{op}((8,64):(64,1){rest})"));
        assert_eq!(of_composed, format!("Sw<3,3,3> o 0 o {of_inner}"), "{op}");
    }
    assert_eq!(values("size(Sw<3,3,3> o 0 o (8,64):(64,1))"), "512");
}
