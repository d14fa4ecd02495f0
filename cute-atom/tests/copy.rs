//! `copy_if` of a tiled copy run on the host with an atom that records its calls: each thread's
//! calls are its `partition_S` (cute-static's, proven against CuTe C++ 4.2) in order, at the
//! addresses the operands' layouts give, predicated at each call's first coordinate; over all
//! threads every atom-aligned chunk of the tile is copied once.

use std::cell::RefCell;
use std::marker::PhantomData;

use cute_atom::algorithm::{copy_if, CopyCall, TiledCopyCall};
use cute_atom::SmemTensor;
use cute_static::copy::{CopyAtom, TiledCopy, UniversalCopy};
use cute_static::swizzle::Swizzle;
use cute_static::tensor::PtrTensor;
use cute_static::typenum::{Unsigned, P3, P4, U0, U2, U3, U8};
use cute_static::{layout, ComposedLayout, Layout};

/// An atom with `UniversalCopy`'s layouts whose call records `(source, destination, pred)`.
#[derive(Clone, Copy, Default, Debug)]
struct Record<V>(PhantomData<V>);
impl<V: Unsigned + Default + Copy> CopyAtom for Record<V> {
    const NAME: &'static str = "Record";
    type NumThr = <UniversalCopy<V> as CopyAtom>::NumThr;
    type NumVal = V;
    type Src = <UniversalCopy<V> as CopyAtom>::Src;
    type Dst = Self::Src;
    type Ref = Self::Src;
}
thread_local! {
    static CALLS: RefCell<Vec<(usize, u32, bool)>> = const { RefCell::new(Vec::new()) };
}
impl<T, V: Unsigned + Default + Copy> CopyCall<*mut T, u32> for Record<V> {
    unsafe fn call(src: *mut T, dst: u32, pred: bool) {
        CALLS.with(|c| c.borrow_mut().push((src as usize, dst, pred)));
    }
}
thread_local! {
    static STORES: RefCell<Vec<(u32, usize, bool)>> = const { RefCell::new(Vec::new()) };
}
/// Shared to global: `(shared source, global destination, pred)`.
impl<T, V: Unsigned + Default + Copy> CopyCall<u32, *mut T> for Record<V> {
    unsafe fn call(src: u32, dst: *mut T, pred: bool) {
        STORES.with(|c| c.borrow_mut().push((src, dst as usize, pred)));
    }
}

/// Runs thread `t`'s `copy_if` and returns its calls.
fn calls<C: TiledCopyCall<S, D>, S: cute_atom::algorithm::CopyOperand, D: cute_atom::algorithm::CopyOperand>(
    c: &C,
    t: usize,
    pred: impl Fn(usize, usize) -> bool,
    s: &S,
    d: &D,
) -> Vec<(usize, u32, bool)> {
    CALLS.with(|c| c.borrow_mut().clear());
    // SAFETY: the recording atom reads and writes nothing.
    unsafe { copy_if(c, t, pred, s, d) };
    CALLS.with(|c| c.take())
}

/// CuTe's `Sw<B,M,S>` written out: bits `[M+S, M+S+B)` xor-ed into `[M, M+B)`.
fn swizzle(o: usize, b: u32, m: u32, s: u32) -> usize {
    o ^ ((o >> s) & (((1 << b) - 1) << m))
}

#[test]
fn copy_if_calls_are_the_threads_partitions() {
    const BASE: usize = 0x10000;
    const LD: usize = 4096;
    // hgemm's A stage: 256 threads, (64,4):(4,1), 16-byte chunks of a 128x32 tile, Sw<2,3,3>.
    type CopyA = TiledCopy<Record<U8>, Layout![(64,4):(4,1)], Layout![(1,8):(0,1)]>;
    type SmemA = ComposedLayout<Swizzle<U2, U3, P3>, U0, Layout![(128,32):(32,1)]>;
    // hgemm's B stage: (16,16):(16,1) over a 32x128 tile, Sw<3,3,4>.
    type CopyB = TiledCopy<Record<U8>, Layout![(16,16):(16,1)], Layout![(1,8):(0,1)]>;
    type SmemB = ComposedLayout<Swizzle<U3, U3, P4>, U0, Layout![(32,128):(128,1)]>;

    macro_rules! case {
        ($copy:ty, $smem:ty, $rows:tt, $cols:tt, $sw:expr, $ragged:expr) => {{
            let (rows, cols) = ($rows, $cols);
            let src = PtrTensor::new(BASE as *mut u16, layout!(($rows, $cols):({ LD }, 1)));
            let dst = SmemTensor::<u16, $smem>::new(0, Default::default());
            let copy = <$copy>::new();
            let mut seen = vec![0; rows * cols];
            for t in 0..256 {
                let got = calls(&copy, t, |r, _| r < $ragged, &src, &dst);
                // The oracle: partition_S of the tile's column-major index, 8 values a call.
                let (part, off) = copy.partition_s(layout!(($rows, $cols):(1, $rows)), t).unwrap();
                assert_eq!(got.len() * 8, part.size(), "thread {t}");
                for (n, &(s, d, p)) in got.iter().enumerate() {
                    let i = off + part.call(8 * n);
                    let (r, c) = (i % rows, i / rows);
                    for v in 1..8 {
                        assert_eq!(off + part.call(8 * n + v), i + v * rows, "thread {t} call {n}: a row's 8 values");
                    }
                    assert_eq!(s, BASE + 2 * (r * LD + c), "thread {t} call {n}: source of ({r}, {c})");
                    assert_eq!(d as usize, 2 * swizzle(cols * r + c, $sw.0, $sw.1, $sw.2), "thread {t} call {n}: destination");
                    assert_eq!(p, r < $ragged, "thread {t} call {n}: predicate");
                    seen[r * cols + c] += 1;
                }
            }
            for (i, &n) in seen.iter().enumerate() {
                assert_eq!(n, usize::from(i % 8 == 0), "chunk at ({}, {})", i / cols, i % cols);
            }
        }};
    }
    case!(CopyA, SmemA, 128, 32, (2, 3, 3), 100);
    case!(CopyB, SmemB, 32, 128, (3, 3, 4), 17);
}

/// `transpose_padded`'s two copies (`gpu/src/transpose.rs`): 32x8 threads, `(8,32):(32,1)`, one
/// 4-byte element a call, global to the padded shared tile `(32,32):(33,1)`, then the shared
/// tile read transposed (`local_tile_t`) to the output. Every call's addresses and predicate
/// are the hand-indexed twin's (`transpose_padded_by_hand`): thread `(tx, ty)`'s `j`-th element
/// is `(ty + 8j, tx)` in, shared offset `33 (ty + 8j) + tx`; out, shared offset `33 tx + ty + 8j`.
#[test]
fn transpose_copies_are_the_twins_loads_and_stores() {
    const BASE: usize = 0x20000;
    type Copy = TiledCopy<Record<cute_static::typenum::U1>, Layout![(8,32):(32,1)], Layout![(1,1):(0,0)]>;
    type Padded = Layout![(32,32):(33,1)];
    let (m, n, r0, c0) = (70usize, 45usize, 64usize, 32usize); // a ragged corner tile
    let input = PtrTensor::new((BASE + 4 * (r0 * n + c0)) as *mut f32, layout!((32, 32):({ n }, 1)));
    let output = PtrTensor::new((BASE + 4 * (c0 * m + r0)) as *mut f32, layout!((32, 32):({ m }, 1)));
    let tile = SmemTensor::<f32, Padded>::new(0, Default::default());
    let copy = Copy::new();
    for (tx, ty) in (0..8).flat_map(|ty| (0..32).map(move |tx| (tx, ty))) {
        let t = tx + 32 * ty;
        let loads = calls(&copy, t, |r, c| r0 + r < m && c0 + c < n, &input, &tile);
        let want: Vec<_> = (0..4)
            .map(|j| {
                let r = ty + 8 * j;
                (BASE + 4 * ((r0 + r) * n + c0 + tx), 4 * (33 * r + tx) as u32, r0 + r < m && c0 + tx < n)
            })
            .collect();
        assert_eq!(loads, want, "thread ({tx}, {ty}): loads");
        STORES.with(|c| c.borrow_mut().clear());
        // SAFETY: the recording atom reads and writes nothing.
        unsafe { copy_if(&copy, t, |c, r| c0 + c < n && r0 + r < m, &tile.local_tile_t::<32, 32>((0, 0)), &output) };
        let stores = STORES.with(|c| c.take());
        let want: Vec<_> = (0..4)
            .map(|j| {
                let c = ty + 8 * j;
                (4 * (33 * tx + c) as u32, BASE + 4 * ((c0 + c) * m + r0 + tx), c0 + c < n && r0 + tx < m)
            })
            .collect();
        assert_eq!(stores, want, "thread ({tx}, {ty}): stores");
    }
}

/// A shared tile whose row mode is nested, `((3,4),4):((1,100),400)`: its rows are not one
/// stride apart, so an address of a repeated copy tile is not the first tile's plus a constant
/// (rows 4..8 of row band 1 start inside the second group of 3). Every call still writes the
/// element the layout gives its coordinate: `(r, c)` at `(r % 3) + 100 (r / 3) + 400 c`.
#[test]
fn nested_shared_rows_are_addressed_whole() {
    const BASE: usize = 0x30000;
    // 4x4 threads, one 4-byte element each, over a 12x4 tile: three 4-row bands.
    type Copy = TiledCopy<Record<cute_static::typenum::U1>, Layout![(4,4):(1,4)], Layout![(1,1):(0,0)]>;
    type Nested = Layout![((3,4),4):((1,100),400)];
    let src = PtrTensor::new(BASE as *mut f32, layout!((12, 4):(4, 1)));
    let dst = SmemTensor::<f32, Nested>::new(0, Default::default());
    for t in 0..16 {
        let got = calls(&Copy::new(), t, |_, _| true, &src, &dst);
        let (r0, c) = (t % 4, t / 4);
        let want: Vec<_> = (0..3)
            .map(|band| {
                let r = r0 + 4 * band;
                (BASE + 4 * (4 * r + c), 4 * ((r % 3) + 100 * (r / 3) + 400 * c) as u32, true)
            })
            .collect();
        assert_eq!(got, want, "thread {t}");
    }
}

/// Which operands' repeated tiles are addressed as the first tile's plus a constant: the padded
/// tile's, both ways (and read transposed); not a global tile's, a swizzled tile's, or the
/// nested rows' above.
#[test]
fn split_addresses_only_where_offsets_add_up() {
    use cute_atom::tensor::SmemTile;
    type Copy = TiledCopy<UniversalCopy<cute_static::typenum::U1>, Layout![(8,32):(32,1)], Layout![(1,1):(0,0)]>;
    type Gmem = PtrTensor<f32, Layout![(32,32):(usize,1)]>;
    type Padded = Layout![(32,32):(33,1)];
    type Swizzled =
        ComposedLayout<Swizzle<cute_static::typenum::U5, U0, cute_static::typenum::P5>, U0, Layout![(32,32):(32,1)]>;
    assert_eq!(<Copy as TiledCopyCall<Gmem, SmemTensor<f32, Padded>>>::SPLIT, [false, true]);
    assert_eq!(<Copy as TiledCopyCall<SmemTile<f32, Padded, 32, 32, true>, Gmem>>::SPLIT, [true, false]);
    assert_eq!(<Copy as TiledCopyCall<Gmem, SmemTensor<f32, Swizzled>>>::SPLIT, [false, false]);
    type Nested = TiledCopy<UniversalCopy<cute_static::typenum::U1>, Layout![(4,4):(1,4)], Layout![(1,1):(0,0)]>;
    type Rows = Layout![((3,4),4):((1,100),400)];
    assert_eq!(
        <Nested as TiledCopyCall<PtrTensor<f32, Layout![(12,4):(4,1)]>, SmemTensor<f32, Rows>>>::SPLIT,
        [false, false]
    );
}
