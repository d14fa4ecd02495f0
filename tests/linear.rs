//! Layouts as maps over bits (issue #63), checked by evaluating every index: the bridge
//! (CuTe → bits → CuTe) on every power-of-two case of CuTe C++ 4.2's composed-layout corpus and
//! of its 24 GMMA swizzle atoms, the composition and inverse of swizzles that CuTe's `Swizzle`
//! cannot express (CUTLASS issue 1531), the search for `S` with `S o input = output` (CUTLASS
//! issue 1038), and the refusals.

use cute_dyn::linear::{find_swizzle, BitMap, CuteForm};
use cute_dyn::{ComposedLayout, Layout, Swizzle};
use proptest::prelude::*;

const COMPOSED: &str = include_str!("data/composed/cxx_composed.tsv");
const GMMA: &str = include_str!("data/gmma/cxx_gmma.tsv");

/// The CuTe form's value at index `i`.
fn form_at(f: &CuteForm, i: i64) -> i64 {
    match f {
        CuteForm::Layout(l) => l.call(i).unwrap(),
        CuteForm::Swizzled(c) => c.call_index(i).unwrap(),
        CuteForm::Xor(x, l) => x.apply(l.call(i).unwrap() as u64).unwrap() as i64,
        other => panic!("{other}: a map of offsets, not of an index"),
    }
}

/// Round trip of one composed layout: its bits agree with it at every index, and so does the
/// CuTe form they go back to. `None` where it is not a map over bits (refused with a reason).
fn round_trip(c: &ComposedLayout) -> Option<CuteForm> {
    let m = BitMap::from_composed(c).ok()?;
    let n = c.size().unwrap().value();
    let form = m.to_cute().unwrap();
    for i in 0..n {
        let want = c.call_index(i).unwrap();
        assert_eq!(m.apply(i as u64).unwrap() as i64, want, "{c} at {i}: bits");
        assert_eq!(form_at(&form, i), want, "{c} at {i}: back as {form}");
    }
    Some(form)
}

#[test]
fn composed_corpus_round_trips() {
    let mut checked = 0;
    for line in COMPOSED.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let Some(answer) = f.get(2) else { continue };
        let Ok(c) = answer.parse::<ComposedLayout>() else { continue };
        if c.size().is_ok_and(|s| s.value() <= 1 << 16) && round_trip(&c).is_some() {
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked} composed layouts of the corpus round-tripped");
}

#[test]
fn gmma_atoms_round_trip_to_their_swizzle() {
    let mut atoms = 0;
    for line in GMMA.lines().filter(|l| l.starts_with("atom\t")) {
        // `Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)`: the swizzle acts on the byte
        // address, so on elements of N bits it is Sw<B, M - log2(N/8), S> (offset 0).
        let f: Vec<&str> = line.split('\t').collect();
        let (bits, text): (u32, &str) = (f[2].parse().unwrap(), f[4]);
        let sw: Vec<i64> = text[3..text.find('>').unwrap()].split(',').map(|x| x.parse().unwrap()).collect();
        let layout = &text[text.rfind(" o ").unwrap() + 3..];
        let shift = i64::from((bits / 8).trailing_zeros());
        let c: ComposedLayout = format!("Sw<{},{},{}> o 0 o {layout}", sw[0], sw[1] - shift, sw[2]).parse().unwrap();
        let form = round_trip(&c).unwrap_or_else(|| panic!("{c} is a map over bits"));
        // The simplest form keeps the atom's swizzle (or none for the interleaved atoms).
        let (b, m, s) = c.swizzled_layout_parts();
        match form {
            CuteForm::Swizzled(back) => assert_eq!(back.swizzle_params(), Some((b, m, s)), "{c}: {back}"),
            CuteForm::Layout(_) => assert_eq!(b, 0, "{c}"),
            other => panic!("{c}: a swizzle atom is one Sw, not {other}"),
        }
        atoms += 1;
    }
    assert_eq!(atoms, 24);
}

/// Helpers over the corpus's composed layouts `Sw<B,M,S> o 0 o L`.
trait Parts {
    fn swizzled_layout_parts(&self) -> (i64, i64, i64);
    fn swizzle_params(&self) -> Option<(i64, i64, i64)>;
}
impl Parts for ComposedLayout {
    fn swizzled_layout_parts(&self) -> (i64, i64, i64) {
        self.swizzle_params().unwrap()
    }
    fn swizzle_params(&self) -> Option<(i64, i64, i64)> {
        match &self.outer()[0].1 {
            cute_dyn::swizzle::Func::Swizzle(sw) => Some(sw.params()),
            _ => None,
        }
    }
}

/// CUTLASS issue 1531: `composition(Swizzle<3,0,3>, Swizzle<1,2,1>)`, which CuTe's `Swizzle`
/// cannot represent, is an XOR map: equal to applying both at every offset, no single
/// `Sw<B,M,S>`, and inverted by its inverse.
#[test]
fn composition_of_swizzles_cute_cannot_express() {
    let (a, b) = (Swizzle::new(3, 0, 3).unwrap(), Swizzle::new(1, 2, 1).unwrap());
    let c = BitMap::from_swizzle(&a, 0).unwrap().compose(&BitMap::from_swizzle(&b, 0).unwrap()).unwrap();
    for x in 0..1 << 8 {
        assert_eq!(c.apply(x as u64).unwrap() as i64, a.apply(b.apply(x).unwrap()).unwrap(), "at {x}");
    }
    assert_eq!(c.as_swizzle(), None);
    assert!(c.to_string().starts_with("xor["), "{c}");
    // Its simplest CuTe form: two swizzles composed, C++'s ComposedLayout<Swizzle, Int,
    // Swizzle>, which evaluates to the same map.
    let CuteForm::Swizzles(two) = c.to_cute().unwrap() else { panic!("{c}: two swizzles") };
    for x in 0..1 << 8 {
        assert_eq!(two.call_index(x).unwrap(), a.apply(b.apply(x).unwrap()).unwrap(), "{two} at {x}");
    }
    let inv = c.inverse().unwrap();
    for x in 0..1u64 << 8 {
        assert_eq!(inv.apply(c.apply(x).unwrap()).unwrap(), x);
        assert_eq!(c.apply(inv.apply(x).unwrap()).unwrap(), x);
    }
    // Sw<3,4,3> o Sw<3,4,3> is the identity: a swizzle is its own inverse.
    let s = BitMap::from_swizzle(&Swizzle::new(3, 4, 3).unwrap(), 0).unwrap();
    assert_eq!(s.compose(&s).unwrap().as_swizzle(), Some(Swizzle::new(0, 0, 0).unwrap()));
}

/// CUTLASS issue 1038: the swizzle `S` with `composition(S, input) = output`, for outputs made
/// by every swizzle of up to 9 bits over row-major tiles: the one found agrees at every index
/// and is no larger (in `B`) than the one used.
#[test]
fn find_swizzle_recovers_every_small_swizzle() {
    let tiles: [Layout; 3] =
        ["(8,8):(8,1)".parse().unwrap(), "(16,32):(32,1)".parse().unwrap(), "(4,(2,64)):(128,(1,2))".parse().unwrap()];
    let mut found = 0;
    for input in &tiles {
        let bits = BitMap::from_layout(input).unwrap();
        for b in 1..=3 {
            for m in 0..=3 {
                for s in [3, 4, -4] {
                    let Ok(sw) = Swizzle::new(b, m, s) else { continue };
                    let out = BitMap::from_composed(&ComposedLayout::new(sw, 0, input.clone()))
                        .unwrap_or_else(|e| panic!("{sw} {input}: {e}"));
                    let x = find_swizzle(&bits, &out).unwrap();
                    for i in 0..input.size().unwrap().value() {
                        assert_eq!(x.apply(input.call(i).unwrap() as u64).unwrap(), out.apply(i as u64).unwrap());
                    }
                    assert!(x.as_swizzle().is_some_and(|f| f.params().0 <= b), "{sw} over {input}: {x}");
                    found += 1;
                }
            }
        }
    }
    assert!(found >= 60);
}

/// Where no map exists: the input sends two index bits to one offset bit... it cannot (a
/// layout with carries is refused), so here to offsets whose XOR is 0 through a zero stride
/// while the output keeps them apart.
#[test]
fn find_swizzle_says_when_none_exists() {
    let input = BitMap::from_layout(&"(2,2):(1,0)".parse().unwrap()).unwrap();
    let output = BitMap::from_layout(&"(2,2):(1,2)".parse().unwrap()).unwrap();
    let e = find_swizzle(&input, &output).unwrap_err().to_string();
    assert!(e.contains("index bit 1") && e.contains("no S has S o input = output"), "{e}");
}

#[test]
fn refusals_say_why() {
    let err = |l: &str| BitMap::from_layout(&l.parse().unwrap()).unwrap_err().to_string();
    assert!(err("(3,2):(1,3)").contains("extent 3 is not a power of two"));
    assert!(err("(2,2):(1,3)").contains("stride 3 is not a power of two"));
    assert!(err("(2,2):(-1,2)").contains("stride -1 is negative"));
    assert!(err("(2,2):(1,1)").contains("index bits 0 and 1 both go to offset 1"));
    let c: ComposedLayout = "Sw<3,4,3> o 8 o (8,64):(64,1)".parse().unwrap();
    assert!(BitMap::from_composed(&c).unwrap_err().to_string().contains("affine"));
    let layout = BitMap::from_layout(&"(4,4):(4,1)".parse().unwrap()).unwrap();
    assert!(layout.inverse().unwrap_err().to_string().contains("invert an XOR map"));
    assert!(BitMap::xor_map(vec![1, 1]).inverse().unwrap_err().to_string().contains("not a bijection"));
}

fn pow2_layout() -> impl Strategy<Value = Layout> {
    // Up to 4 modes of extents 1..16 (powers of two), strides distinct powers of two (or 0),
    // placed so that no two index bits share an offset bit.
    (
        1usize..=4,
        proptest::collection::vec(0u32..=4, 4),
        proptest::sample::subsequence((0u32..12).collect::<Vec<_>>(), 4),
        proptest::collection::vec(any::<bool>(), 4),
    )
        .prop_map(|(r, ks, offs, zero)| {
            let mut used = 0u64;
            let mut pairs = Vec::new();
            for i in 0..r {
                let k = ks[i];
                let b = offs[i] * 4 % 16;
                let bits = ((1u64 << k) - 1) << b;
                let d = if zero[i] || used & bits != 0 {
                    0
                } else {
                    used |= bits;
                    1i64 << b
                };
                pairs.push(format!("{}:{}", 1 << k, d));
            }
            let (s, d): (Vec<_>, Vec<_>) = pairs.iter().map(|p| p.split_once(':').unwrap()).unzip();
            format!("({}):({})", s.join(","), d.join(",")).parse().unwrap()
        })
}

proptest! {
    /// A layout's bits are the layout (every index), and the way back is the same function.
    #[test]
    fn layouts_round_trip(l in pow2_layout(), b in 0i64..3, m in 0i64..4, s in 3i64..5) {
        let n = l.size().unwrap().value();
        let bits = BitMap::from_layout(&l).unwrap();
        let form = bits.to_cute().unwrap();
        for i in 0..n {
            prop_assert_eq!(bits.apply(i as u64).unwrap() as i64, l.call(i).unwrap());
            prop_assert_eq!(form_at(&form, i), l.call(i).unwrap());
        }
        let c = ComposedLayout::new(Swizzle::new(b, m, s).unwrap(), 0, l);
        round_trip(&c);
    }
}

/// The searched swizzle against the hand-chosen ones of the GPU kernels (gpu/src): the
/// transpose's `Sw<5,0,5>` over a 32x32 tile of floats, the Hopper epilogue tile's 128-byte
/// swizzle (CUTLASS's choice for a shared `C` tile), and the `mma.sync` HGEMM's `A` and `B`
/// stages (`Sw<2,3,3> o (128,32):(32,1)` and `Sw<3,3,4> o (32,128):(128,1)` in halves), read as
/// 16-byte chunks (`ldmatrix` reads 8 rows of one chunk column a phase, `cp.async` writes rows):
/// the search's conflicts are the hand-chosen one's, none, and it finds them at once.
#[test]
fn conflict_free_search_matches_the_kernels_swizzles() {
    use cute_dyn::linear::conflict_free_swizzle;
    use cute_dyn::render::bank_conflicts;
    let cost = |tile: &Layout, sw: Swizzle, bits: u32| {
        let (m, n) = (tile.get(0).unwrap().size().unwrap().value(), tile.get(1).unwrap().size().unwrap().value());
        let offs: Vec<i64> = (0..m)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| sw.apply(tile.call(i + m * j).unwrap()).unwrap())
            .collect();
        [true, false].map(|rows| bank_conflicts(m, n, &offs, bits, rows).extra)
    };
    let start = std::time::Instant::now();
    for (tile, bits, hand) in [
        ("(32,32):(32,1)", 32, Swizzle::new(5, 0, 5).unwrap()),
        // Chunks of 8 halves: Sw<2,3,3> on halves is Sw<2,0,3> on chunks, Sw<3,3,4> is Sw<3,0,4>.
        ("(128,4):(4,1)", 128, Swizzle::new(2, 0, 3).unwrap()),
        ("(32,16):(16,1)", 128, Swizzle::new(3, 0, 4).unwrap()),
        // A Hopper epilogue's 64x256 tile of C (16-bit) in shared memory, written by `stmatrix`
        // (8 rows of one 16-byte chunk a phase) and read by rows for the TMA store: CUTLASS's
        // tile_to_shape of the 128-byte-swizzled atom, in chunks ((8,8),(8,4)):((8,64),(1,512))
        // (atoms of 8 rows x 8 chunks, down the rows first), its swizzle Sw<3,4,3> on bytes,
        // Sw<3,0,3> on chunks.
        ("((8,8),(8,4)):((8,64),(1,512))", 128, Swizzle::new(3, 0, 3).unwrap()),
    ] {
        let tile: Layout = tile.parse().unwrap();
        let found = conflict_free_swizzle(&tile, bits).unwrap();
        assert_eq!(cost(&tile, hand, bits), [0, 0], "{hand} o {tile}");
        assert_eq!(cost(&tile, found.swizzle, bits), [0, 0], "{} o {tile}", found.swizzle);
        assert_eq!([found.after[0].extra, found.after[1].extra], [0, 0]);
        assert!(found.before[1].extra > 0, "{tile}: its columns conflict unswizzled");
        assert!(found.swizzle.params().0 <= hand.params().0, "{tile}: {} is no larger than {hand}", found.swizzle);
    }
    assert!(start.elapsed().as_secs_f64() < 1.0);
}
