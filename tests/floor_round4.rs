//! Issue "The floor, round 4": each item beside its oracle. CuTe C++ 4.2's answers were taken
//! from the g++ drivers of `tests/data/` (the TMA maps of rank 5 and of extents past 2^31 are in
//! `tests/data/tma/cxx_tma.tsv`, checked by `tests/tma.rs`) or from one-off g++ runs of the
//! headers, quoted where used; the laws are CuTe's own @post conditions (`cute_dyn::post`).

use cute::cute_dyn::gmma::{gmma_desc_of_tile, make_gmma_desc, Major};
use cute::cute_dyn::swizzle::{ComposedLayout, MaybeComposed};
use cute::cute_dyn::{self as dy, post, IntTuple, Layout, Tiler};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn t(s: &str) -> Tiler {
    Tiler::Layout(l(s))
}

/// `cute eval`'s answer, or its error's text.
fn eval(expr: &str) -> Result<String, String> {
    cute_cli::eval::eval(expr, dy::Style::Values).map_err(|e| e.to_string())
}

fn err(expr: &str) -> String {
    eval(expr).expect_err(expr)
}

// ------------------------------------------------------------------ 1, 2: silent descriptors

/// Item 1: a core-matrix row of descending elements has no descriptor (C++ computes
/// `...403fff` from wrapped fields; cute-dyn answered the ascending layout's `0x...0800400000`).
#[test]
fn a_descending_core_matrix_row_is_refused() {
    let tile = MaybeComposed::Layout(l("((8,8),(8,2)):((8,64),(-1,512))"));
    let e = make_gmma_desc(Major::K, 16, &tile, 0).unwrap_err().to_string();
    assert!(e.contains("negative stride -1") && e.contains("upward"), "{e}");
    // The same through the tool, and a negative stride of the K rest (LBO's mode).
    let e = err("gmma_desc(K,half_t,((8,8),(8,2)):((8,64),(1,-512)))");
    assert!(e.contains("negative stride -512"), "{e}");
}

/// Item 2: a K-major block of 4 rows (C++ 4.2: `Expected MN-size multiple of 8`), each of the
/// issue's three ways in; cute-static's are compile errors (`ui-tests/gmma/k_major_four_rows_*`).
#[test]
fn a_k_major_block_of_four_rows_is_refused() {
    let sw128: ComposedLayout = "Sw<3,3,3> o 0 o (4,16):(64,1)".parse().unwrap();
    for tile in [MaybeComposed::Composed(sw128), MaybeComposed::Layout(l("(4,8):(8,1)"))] {
        let e = make_gmma_desc(Major::K, 16, &tile, 0).unwrap_err().to_string();
        assert!(e.contains("multiple of 8; this one's is 4"), "{tile}: {e}");
    }
    let smem = MaybeComposed::Composed("Sw<3,3,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))".parse().unwrap());
    let e = gmma_desc_of_tile(Major::K, 16, &smem, (4, 16), &"(0,0)".parse().unwrap(), 1024).unwrap_err();
    assert!(e.to_string().contains("multiple of 8; this one's is 4"), "{e}");
}

// ------------------------------------------------------------ 5, 6: refusals CuTe does not make

/// Item 5: products of a layout with negative strides, judged by what a product is (mode 0 is
/// A, mode 1 compatible with B, size(A) * size(B), no overlap).
#[test]
fn products_of_negative_strides() {
    // C++ 4.2: (_8,(_4)):(_-1,(_0)).
    assert_eq!(dy::logical_product(&l("8:-1"), &t("(4):(0)")).unwrap().to_string(), "(8,(4)):(-1,(0))");
    // C++ 4.2: (_3,_1):(_-3,_18); the same function (its second mode has one element).
    let r = dy::logical_product(&l("3:-3"), &t("1:12")).unwrap();
    assert!(post::same_function(&r, &l("(3,1):(-3,18)")).unwrap(), "{r}");
    // C++ 4.2 gives (_2,(_-1,_-3)):(_-1,(_1,_-2)), negative extents; ours is a product.
    for (a, b) in [("2:-1", "3:1"), ("(4,3):(-1,-4)", "(2,2):(1,2)"), ("(2,3):(-3,1)", "2:1")] {
        let r = dy::logical_product(&l(a), &t(b)).unwrap();
        post::check_logical_product(&l(a), &t(b), &r).unwrap_or_else(|e| panic!("{a} x {b} = {r}: {e}"));
    }
    // Copies that overlap stay refused: (2,3):(-1,1) reaches -1..2 with 6 coordinates.
    assert!(dy::logical_product(&l("(2,3):(-1,1)"), &t("2:1")).is_err());
}

/// Item 5, the debatable two: C++ accepts them because `-5 < 2` passes its stride condition
/// vacuously; its second modes are not complement o B (`(5,7):(2,-30)`: C(B(1)) = C(-5) = -21,
/// not -30). Decided: refused, as the composition they are built on (docs/deviations.md).
#[test]
fn products_by_a_negative_tiler_are_refused_as_their_composition() {
    let e = dy::logical_product(&l("5:2"), &t("7:-5")).unwrap_err();
    assert_eq!(e.kind(), "stride_divisibility", "{e}");
    let e = dy::logical_product(&l("5:3"), &t("(6,8):(1,-6)")).unwrap_err();
    assert_eq!(e.kind(), "postcondition", "{e}");
    assert!(e.to_string().contains("R(c) == A(B(c))"), "{e}");
}

/// Item 6: one rule for a layout that is not injective, CuTe's law `L(R(L(i))) == L(i)`.
#[test]
fn left_inverse_of_a_non_injective_layout_follows_cutes_law() {
    // C++ 4.2: (_12,_3):(_0,_4).
    let a = l("(4,3):(12,12)");
    let r = dy::left_inverse(&a).unwrap();
    assert_eq!(r.to_string(), "(12,3):(0,4)");
    post::check_left_inverse(&a, &r).unwrap();
    // Not injective either (its stride-0 mode); answered, lawfully.
    let a = l("(5,32,2):(-2,0,-1)");
    let r = dy::left_inverse(&a).unwrap();
    for i in 0..a.size().unwrap().value() {
        let li = a.call(i).unwrap();
        assert_eq!(a.call(r.call(li).unwrap()).unwrap(), li, "{a} at {i}: R = {r}");
    }
    // C++ 4.2 answers (2,2,3,4):(256,8,1,2), which breaks the law at 17: refused, with it
    // (cute-static: a compile error, ui-tests/algebra/left_inverse_not_injective.rs).
    let e = dy::left_inverse(&l("((2,4,8,4),4):((4,12,2,12),1)")).unwrap_err().to_string();
    assert!(e.contains("L(R(L(i))) == L(i)") && e.contains("i = 17: L(17) = 8"), "{e}");
}

/// Item 6 in cute-static: the type checker's answer is C++'s, its law checked by the compiler;
/// with a run-time leaf, cute-dyn's answer (the law checked when it runs).
#[test]
fn static_left_inverse_of_a_non_injective_layout_follows_cutes_law() {
    use cute::cute_static::{layout, left_inverse, Decided};
    assert_eq!(left_inverse(layout!((4,3):(12,12))).to_string(), "(12,3):(0,4)");
    assert_eq!(
        left_inverse(layout!((8,64):(1,2))).to_string(),
        dy::left_inverse(&l("(8,64):(1,2)")).unwrap().to_string()
    );
    let three = 3usize;
    let r: Decided<_> = layout!((4,{three}):(12,12)).left_inverse().unwrap();
    assert_eq!(r.to_dyn().unwrap().to_string(), dy::left_inverse(&l("(4,{3}):(12,12)")).unwrap().to_string());
}

// --------------------------------------------------------------------- 7: the true reason

/// Item 7: `(2,2):(6,4)` is injective (image 0, 4, 6, 10); CuTe's complement cannot place its
/// interleaved modes. The refusal says so, in complement and in the divides and products
/// built on it; a layout that does map two coordinates to one index names them.
#[test]
fn interleaved_modes_are_not_called_non_injective() {
    let a = l("(2,2):(6,4)");
    assert!(post::is_injective(&a).unwrap());
    let e = dy::complement(&a, &IntTuple::int(16)).unwrap_err();
    assert_eq!(e.kind(), "interleaved", "{e}");
    let text = e.to_string();
    assert!(text.contains("is injective") && text.contains("stride 6") && text.contains("span 8"), "{text}");
    for e in [
        dy::logical_divide(&l("32:1"), &t("(2,2):(6,4)")).unwrap_err(),
        dy::logical_product(&a, &t("2:1")).unwrap_err(),
    ] {
        assert_eq!(e.kind(), "interleaved", "{e}");
    }
    let e = dy::complement(&l("(2,2):(1,1)"), &IntTuple::int(16)).unwrap_err();
    assert_eq!(e.kind(), "non_injective");
    assert!(e.to_string().contains("it maps 1 and 2 to 1"), "{e}");
    // Stride-0 modes are filtered out first, as complement does: the witness is filter(L)'s.
    let e = dy::complement(&l("(2,3,2):(2,0,2)"), &IntTuple::int(16)).unwrap_err();
    assert!(e.to_string().contains("its stride-0 modes filtered out, (2,2):(2,2) maps 1 and 2 to 2"), "{e}");
}

/// Item 7, over random layouts: every complement refused as non-injective has two coordinates
/// that meet, and every one refused as interleaved is injective.
#[test]
fn each_refusal_reason_is_true_on_random_layouts() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (mut non_injective, mut interleaved) = (0, 0);
    for _ in 0..20_000 {
        let rank = 1 + next(3) as usize;
        let modes: Vec<String> = (0..rank).map(|_| format!("{}", 1 + next(5))).collect();
        let strides: Vec<String> = (0..rank).map(|_| format!("{}", next(13))).collect();
        let a = l(&format!("({}):({})", modes.join(","), strides.join(",")));
        let Err(e) = dy::complement(&a, &IntTuple::int(64)) else { continue };
        let filtered = dy::filter(&a).unwrap();
        match e.kind() {
            "non_injective" => {
                non_injective += 1;
                assert!(!post::is_injective(&filtered).unwrap(), "{a}: {e}");
            }
            "interleaved" => {
                interleaved += 1;
                assert!(post::is_injective(&filtered).unwrap(), "{a}: {e}");
            }
            _ => {}
        }
    }
    assert!(non_injective > 100 && interleaved > 100, "{non_injective} / {interleaved}");
}

// ------------------------------------------------------- 8: messages that name the user's input

/// Item 8: each of the twelve message classes, its text about what the user wrote.
#[test]
fn messages_name_the_users_input() {
    let smem = "tile_to_shape(Layout_K_SW128_Atom<half_t>,(64,64))";
    let cases: &[(String, &[&str])] = &[
        // a tile at byte -32
        (format!("gmma_desc(K,half_t,{smem},(64,16),(0,0),-32)"), &["starts at byte -32", "not negative"]),
        // a negative offset of the tile's layout (was "(below 16384)")
        ("gmma_desc(K,half_t,((8,8),(8,2)):((-8,64),(1,512)))".into(), &["negative stride -8"]),
        // a rank-3 coordinate (was "rank mismatch in append")
        (format!("gmma_desc(K,half_t,{smem},(64,16),(0,0,0))"), &["coordinate (0,0,0) has rank 3", "(m,k)"]),
        // a (64,24) tile (was "modes overlap in composition")
        (
            format!("gmma_desc(K,half_t,{smem},(64,24),(0,0))"),
            &["tile (64,24) does not divide", "not a multiple of 24"],
        ),
        // zero extents (was "division by zero in ceil_div")
        (format!("gmma_desc(K,half_t,{smem},(0,16),(0,0))"), &["tile (0,16) is empty"]),
        ("tma_desc(half_t,({1000},{512}):({512},1),(0,32):(32,1))".into(), &["(0,32):(32,1) is empty"]),
        // a multicast count of -1 (was "must be a CTA count, got an integer")
        (format!("tma_desc(half_t,({{1000}},{{512}}):({{512}},1),{smem},-1)"), &["multicast", "-1 is not a count"]),
        // a rank-3 shared tile (was "rank mismatch in composition: expected a tiler")
        ("tma_desc(half_t,({1000},{512}):({512},1),(64,32,2):(32,1,2048))".into(), &["has rank 3", "rank 2"]),
        // a tile with no unit stride (was "walks 1:0")
        ("tma_desc(half_t,({1000},{512}):({512},1),(64,32):(64,2))".into(), &["no mode of stride 1"]),
        // tile_to_shape's order (was the shape of tiles, (8,1), which the user never wrote)
        ("tile_to_shape(Layout_K_SW128_Atom<half_t>,(64,64),(0,1,2))".into(), &["order (0,1,2)", "(64,64)"]),
        // a refused left_inverse: the layout as written (not its mirror image) and the witness
        ("left_inverse(((2,4,8,4),4):((-4,-12,-2,-12),-1))".into(), &["((-4,-12,-2,-12),-1)", "i = 17"]),
        // a huge target (was a bare "arithmetic overflow in multiply")
        (
            "tile_to_shape(Layout_K_SW128_Atom<half_t>,(4611686018427387904,64))".into(),
            &["(4611686018427387904,64)", "i64"],
        ),
        // an element type wgmma does not read, and an unknown name: the supported ones listed
        (format!("gmma_desc(K,double,{smem})"), &["does not read double", "half_t, bfloat16_t"]),
        (format!("gmma_desc(K,float16,{smem})"), &["'float16'", "half_t, bfloat16_t"]),
    ];
    for (expr, want) in cases {
        let e = err(expr);
        for w in *want {
            assert!(e.contains(w), "{expr}: {e:?} does not say {w:?}");
        }
    }
}

// ------------------------------------------------------------------- 9, 10: C++'s forms

/// Item 9: the empty mode of `tile_to_shape` keeps C++'s stride (C++ 4.2, printed on bytes:
/// `Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_0),(_64,_1)):((_64,_512),(_1,_0))`).
#[test]
fn tile_to_shape_of_an_empty_shape_is_cxx_s() {
    for (expr, cxx) in [
        ("tile_to_shape(Layout_K_SW128_Atom<half_t>,(0,64))", "Sw<3,3,3> o 0 o ((8,0),(64,1)):((64,512),(1,0))"),
        ("tile_to_shape(Layout_K_SW128_Atom<half_t>,(64,0))", "Sw<3,3,3> o 0 o ((8,8),(64,0)):((64,512),(1,4096))"),
        ("tile_to_shape((2,2):(1,2),(0,4))", "((2,0),(2,2)):((1,4),(2,0))"),
    ] {
        assert_eq!(eval(expr).unwrap(), cxx, "{expr}");
    }
}

/// Item 10: the offset outside the swizzle is static where every term of it is. C++ 4.2:
/// `slice_and_offset(make_coord(_5{},_), Sw<1,1,1> o 768 o ...)` is `(Sw<1,1,1> o 768 o
/// ((_8,_2)):((_1,_8)), _80)`, and at `((1,_),_)` with a run-time 1 on the other layout,
/// `(Sw<3,0,-3> o 129 o (_4,(_4,_4)):(_2,(_8,_32)), _0)`: the run-time part in the offset.
#[test]
fn a_static_offset_of_a_slice_is_static() {
    let c: ComposedLayout = "Sw<1,1,1> o {768} o ((4,4),(8,2)):((16,64),(1,8))".parse().unwrap();
    let (r, off) = c.slice_and_offset(&"(5,_)".parse().unwrap()).unwrap();
    assert_eq!((r.to_string(), off.value(), off.is_static()), ("Sw<1,1,1> o {768} o ((8,2)):((1,8))".into(), 80, true));
    let c: ComposedLayout = "Sw<3,0,-3> o {128} o ((2,4),(4,4)):((1,2),(8,32))".parse().unwrap();
    let (r, off) = c.slice_and_offset(&"(({1},_),_)".parse().unwrap()).unwrap();
    assert_eq!(
        (r.to_string(), off.value(), off.is_static()),
        ("Sw<3,0,-3> o {129} o (4,(4,4)):(2,(8,32))".into(), 0, true)
    );
    // A run-time coordinate on the anti-ZY bits keeps the offset run-time (C++: `80` for an
    // `int` coordinate 5).
    let (_, off) = ComposedLayout::slice_and_offset(
        &"Sw<1,1,1> o {768} o ((4,4),(8,2)):((16,64),(1,8))".parse().unwrap(),
        &"({5},_)".parse().unwrap(),
    )
    .unwrap();
    assert_eq!((off.value(), off.is_static()), (80, false));
}
