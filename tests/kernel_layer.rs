//! The kernel layer (issue "Generic kernels, not only generic algebra"): what its items 7 found
//! silently different between the crates and C++, each pinned to C++'s answer or to one
//! refusal in both crates, with the reason.

use cute::cute_dyn as dy;
use cute::cute_static::tensor::{local_partition, PtrTensor, Tensor, TensorError};
use cute::cute_static::{flat_divide, layout, tiler};

/// A tuple shape in a tiler is a by-mode tiler (C++'s `make_tile(Shape<_2,_2>{}, _4{})`), in
/// the macro as in cute-dyn's parser; a layout is written with its stride.
#[test]
fn a_shape_in_a_tiler_is_by_mode() -> Result<(), dy::Error> {
    // CuTe C++ 4.2: ((_2,_2),_4,(_2,_2),_2):((_1,_4),_16,(_2,_8),_64)
    let cxx = "((2,2),4,(2,2),2):((1,4),16,(2,8),64)";
    assert_eq!(flat_divide(layout!(((4,4),8):((1,4),16)), tiler!(<(2,2),4>)).to_string(), cxx);
    assert_eq!(flat_divide(layout!(((4,4),8):((1,4),16)), tiler!(<<2,2>,4>)).to_string(), cxx);
    assert_eq!(dy::flat_divide(&"((4,4),8):((1,4),16)".parse()?, &"<(2,2),4>".parse()?)?.to_string(), cxx);
    // The layout (2,2):(1,2) as the first mode's tiler is another divide: pycute 4.2's
    // logical_divide by (Layout((2,2),(1,2)), Layout(4,1)) is (((2,2),4),(4,2)):(((1,2),4),(16,64)).
    assert_eq!(
        flat_divide(layout!(((4,4),8):((1,4),16)), tiler!(<(2,2):(1,2),4>)).to_string(),
        "((2,2),4,4,2):((1,2),16,4,64)"
    );
    Ok(())
}

/// Thread `index`'s coordinate is C++'s (`(index / stride) % extent` in each mode), in both
/// crates; where the layout does not map it back to `index`, both refuse (C++ goes on with
/// another thread's part, or divides by a stride 0).
#[test]
fn local_partition_reads_threads_as_cxx_and_refuses_alike() -> Result<(), dy::Error> {
    let tensor = layout!((16,64):(1,16));
    let tensor_dy: dy::Layout = "(16,64):(1,16)".parse()?;
    let both = |threads_dy: &str, tid: usize| {
        dy::tensor::local_partition(&tensor_dy, &threads_dy.parse().unwrap(), dy::Int::dy(tid as i64), None)
            .map(|(l, off)| (l.to_string(), off.value() as usize))
    };
    // Compact thread layouts: CuTe's comment in tensor_impl.hpp, thread 17 of (2,16):(16,1)
    // is (1,1), 1 + 16 elements in (C++ 4.2).
    let (p, off) = local_partition(tensor, layout!((2,16):(16,1)), 17).unwrap();
    assert_eq!((p.to_string(), off), ("(8,4):(2,256)".to_string(), 17));
    assert_eq!(both("(2,16):(16,1)", 17)?, (p.to_string(), off));
    // (3,2):(2,3) is injective but not compact: C++'s coordinate of thread 3 is
    // ((3/2)%3, (3/3)%2) = (1,1), where the layout is 5; of thread 2 it is (1,0), at 2.
    let injective = layout!((3,2):(2,3));
    let mut data: Vec<u32> = (0..6 * 64).collect();
    let t = Tensor::new(&data[..], layout!((6,64):(1,6))).unwrap();
    assert!(matches!(t.local_partition(injective, 3), Err(TensorError::ThreadNotReached { thread: 3, image: 5 })));
    assert!(
        dy::tensor::local_partition(&"(6,64):(1,6)".parse()?, &"(3,2):(2,3)".parse()?, dy::Int::dy(3), None).is_err()
    );
    assert_eq!(t.local_partition(injective, 2).unwrap()[0], 1);
    // Non-injective (2,2):(1,1): thread 1's coordinate is (1,1), where the layout is 2 (C++
    // answers with that coordinate's part, @17); thread 2's is (0,0), at 0 (C++: @0).
    let overlapping = layout!((2,2):(1,1));
    for tid in [1, 2, 3] {
        assert!(local_partition(tensor, overlapping, tid).is_err(), "thread {tid}");
        assert!(both("(2,2):(1,1)", tid).is_err(), "thread {tid}");
    }
    let (p, off) = local_partition(tensor, overlapping, 0).unwrap();
    assert_eq!(both("(2,2):(1,1)", 0)?, (p.to_string(), off));
    // Broadcast threads (4,2):(1,0): C++'s coordinate divides by the stride 0; both refuse
    // and say so.
    let e = local_partition(tensor, layout!((4,2):(1,0)), 1).unwrap_err();
    assert!(e.to_string().contains("extent 2 and stride 0"), "{e}");
    let e = both("(4,2):(1,0)", 1).unwrap_err();
    assert!(e.to_string().contains("stride 0"), "{e}");
    // An extent-1 mode's stride 0 needs no division (C++'s `_0` coordinate): (2,4,1):(4,1,0).
    let (p, off) = local_partition(layout!((8,8,2):(1,8,64)), layout!((2,4,1):(4,1,0)), 5).unwrap();
    let d =
        dy::tensor::local_partition(&"(8,8,2):(1,8,64)".parse()?, &"(2,4,1):(4,1,0)".parse()?, dy::Int::dy(5), None)?;
    assert_eq!((p.to_string(), off), (d.0.to_string(), d.1.value() as usize));
    // A pointer tensor reads the same coordinate (after wrapping the index).
    let ptr = PtrTensor::new(data.as_mut_ptr(), layout!((6,64):(1,6)));
    assert_eq!(ptr.local_partition(injective, 2).unwrap().addr(0), ptr.addr(1));
    Ok(())
}

/// A tensor's `local_partition` gives a mode that keeps one element the stride 0, as C++'s
/// divide and the free function do: pycute 4.2's `zipped_divide((16,4):(1,4096), (4:1,4:1))`
/// is `((4,4),(4,1)):((1,4096),(4,0))`, its rest mode each thread's part.
#[test]
fn a_partition_mode_of_one_element_has_stride_0() -> Result<(), dy::Error> {
    let ld = 4096;
    let data = vec![0u32; 4 * ld];
    let l = layout!((16,4):(1,{ld}));
    let threads = layout!((4,4):(1,4));
    let t = Tensor::new(&data[..], l).unwrap();
    let from_tensor = t.local_partition(threads, 5).unwrap().layout().to_string();
    let (free, _) = local_partition(l, threads, 5).unwrap();
    let (d, _) = dy::tensor::local_partition(
        &format!("(16,4):(1,{ld})").parse()?,
        &"(4,4):(1,4)".parse()?,
        dy::Int::dy(5),
        None,
    )?;
    assert_eq!(from_tensor, "(4,1):(4,0)");
    assert_eq!(free.to_string(), from_tensor);
    assert_eq!(d.to_string(), from_tensor);
    Ok(())
}

use cute::cute_static::mma::{SM80_16x8x16_F32F16F16F32_TN, TiledMma};
use cute::cute_static::{FragmentLike, LocalPartition, LocalTile, PartitionC, PartitionFragmentC};

/// A kernel's prologue generic over the matrix layout (static, or with run-time extents), the
/// CTA tiler, the CTA coordinate and the thread layout: one bound per operation it calls
/// (`local_tile`, `local_partition`, `make_fragment_like`). The static and the mixed layouts
/// take the same path; `try_local_tile` is `Ok` where the type checker divided.
fn thread_fragment<L, T, C, Thr>(
    a: L,
    cta_tiler: T,
    cta: &C,
    threads: Thr,
    tid: usize,
) -> Result<(String, usize, String), TensorError>
where
    L: LocalTile<T, C>,
    L::Tile: LocalPartition<Thr>,
    <L::Tile as LocalPartition<Thr>>::Output: FragmentLike,
{
    let (tile, tile_offset) = a.try_local_tile(cta_tiler, cta)?;
    let (part, offset) = tile.local_partition(threads, tid)?;
    Ok((part.to_string(), tile_offset + offset, part.fragment_like().to_string()))
}

/// The values notation without the divisors of run-time leaves: `{512:4}` as `{512}`.
fn without_divisors(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for ch in text.chars() {
        match ch {
            ':' if out.rfind('{') > out.rfind('}') => skipping = true,
            '}' => {
                skipping = false;
                out.push(ch);
            }
            _ if !skipping => out.push(ch),
            _ => {}
        }
    }
    out
}

/// A tiled MMA's C partition and fragment, generic over the MMA and the C layout: one bound
/// each.
fn c_fragment<M, L>(mma: &M, c: L, tid: usize) -> Result<(String, usize, String), TensorError>
where
    M: PartitionC<L> + PartitionFragmentC<L>,
    L: Copy,
{
    let (part, offset) = mma.partition_c(c, tid)?;
    Ok((part.to_string(), offset, mma.partition_fragment_c(c, tid)?.to_string()))
}

/// The generic prologue on a static matrix and on one of run-time extents agrees with
/// cute-dyn's `local_tile`, `local_partition` and `make_fragment_like` (CuTe's definitions),
/// and the static and the mixed runs give one function.
#[test]
fn one_generic_prologue_for_static_and_run_time_layouts() -> Result<(), dy::Error> {
    use cute::cute_static::Cons;
    let cta = Cons(1usize, Cons(2usize, cute::cute_static::Nil));
    let (m, k) = (128usize, 64usize);
    let dyn_answer = |a: &str, tid: i64| -> Result<(String, usize, String), dy::Error> {
        let (tile, t_off) = dy::tensor::local_tile(&a.parse()?, &"<32,16>".parse()?, &"(1,2)".parse()?, None)?;
        let (part, p_off) = dy::tensor::local_partition(&tile, &"(8,4):(4,1)".parse()?, dy::Int::dy(tid), None)?;
        Ok((part.to_string(), (t_off.value() + p_off.value()) as usize, dy::make_fragment_like(&part)?.to_string()))
    };
    for tid in [0, 5, 17, 31] {
        let s = thread_fragment(layout!((128,64):(1,128)), tiler!(<32,16>), &cta, layout!((8,4):(4,1)), tid).unwrap();
        let d = thread_fragment(layout!(({m},{k}):(1,{m})), tiler!(<32,16>), &cta, layout!((8,4):(4,1)), tid).unwrap();
        assert_eq!(s, dyn_answer("(128,64):(1,128)", tid as i64)?, "thread {tid}");
        // (cute-static's run-time leaves carry no divisor: `{512}` where cute-dyn knows `{512:4}`)
        let (part, off, frg) = dyn_answer("({128},{64}):(1,{128})", tid as i64)?;
        assert_eq!(d, (without_divisors(&part), off, frg), "thread {tid}");
        // The same offsets; the mixed strides are run-time values.
        assert_eq!(s.1, d.1);
    }
    // The C partition of CuTe C++ 4.2's example, static and with a run-time ldc.
    let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, cute::cute_static::Layout![(2,2,1):(1,2,0)]>::new();
    let (p, off, frg) = c_fragment(&mma, layout!((64,32):(1,64)), 120).unwrap();
    assert_eq!((p.as_str(), off), ("((2,2),2,2):((64,8),32,1024)", 534));
    let ldc = 64;
    let (p, off, frg_mixed) = c_fragment(&mma, layout!((64,32):(1,{ldc})), 120).unwrap();
    assert_eq!((p.as_str(), off), ("((2,2),2,2):(({64},8),32,{1024})", 534));
    // make_fragment_like of ((2,2),2,2): compact, column-major over the first mode (CuTe).
    assert_eq!(frg, dy::make_fragment_like(&"((2,2),2,2):((64,8),32,1024)".parse()?)?.to_string());
    assert_eq!(frg_mixed, frg);
    Ok(())
}

/// `Tensor::new` of a layout whose size or cosize overflows is an error, not a panic.
#[test]
fn a_tensor_over_an_overflowing_layout_is_an_error() {
    let data = [0u8; 4];
    let big = usize::MAX / 2 + 1;
    let e = Tensor::new(&data[..], layout!((2,2):({big},{big}))).unwrap_err();
    assert!(matches!(e, TensorError::Overflow { what: "cosize" }), "{e}");
    let e = Tensor::new(&data[..], layout!(({big},4):(0,0))).unwrap_err();
    assert!(matches!(e, TensorError::Overflow { what: "size" }), "{e}");
}

/// One error type at the top: cute-static's errors (the algebra's and the tensors') convert into
/// cute-dyn's, so one function takes both crates' `?`, with the same kind and numbers.
#[test]
fn static_errors_convert_into_cute_dyn_errors() {
    use cute::cute_static::{shape, upcast};
    // A row-major tile with a run-time leading dimension, read as 8-element vectors, then
    // partitioned over 3x2 threads.
    fn vectors(ld: usize, tid: usize) -> Result<String, dy::Error> {
        let v = upcast(layout!((64,32):({ld},1)), shape!(8))?;
        let d = dy::upcast(&format!("(64,32):({{{ld}}},1)").parse()?, 8)?;
        assert_eq!(v.to_string(), d.to_string());
        let data = [0u32; 24];
        let t = Tensor::new(&data[..], layout!((6,4):(1,6)))?;
        let _ = t.local_partition(layout!((3,2):(1,3)), tid)?;
        Ok(v.to_string())
    }
    assert_eq!(vectors(1024, 5).unwrap(), "(64,4):({128},1)");
    // Rows that do not start on a vector: cute-dyn's error, kind and numbers.
    let (e, want) = (vectors(1001, 0).unwrap_err(), dy::upcast(&"(64,32):({1001},1)".parse().unwrap(), 8).unwrap_err());
    assert_eq!((e.kind(), e.to_string()), (want.kind(), want.to_string()));
    // A thread past the thread layout: a tensor error, its text kept.
    let e = vectors(1024, 6).unwrap_err();
    assert!(e.kind() == "invalid_argument" && e.to_string().contains("thread 6"), "{e}");
}

/// C++'s `local_tile(mA, cta_tiler, make_coord(bx, by, _), Step<_1,X,_1>{})`: `_` keeps the k
/// mode, the tile `(BM, BK, k)` (cute-dyn's doc example, CuTe C++ 4.2's answer), static and with
/// run-time extents, against cute-dyn.
#[test]
fn underscore_in_a_tile_coordinate_keeps_the_mode() -> Result<(), dy::Error> {
    use cute::cute_static::tensor::local_tile_projected;
    use cute::cute_static::typenum::{B0, B1};
    use cute::cute_static::{Cons, Nil, Under};
    let step = Cons(B1, Cons(B0, Cons(B1, Nil))); // Step<_1,X,_1>
    let cta = Cons(1usize, Cons(2usize, Cons(Under, Nil)));
    let (tile, offset) = local_tile_projected(layout!((128,16):(1,128)), tiler!(<32,64,4>), &cta, step);
    assert_eq!((tile.to_string(), offset), ("(32,4,4):(1,128,512)".to_string(), 32));
    let (m, k) = (128usize, 16usize);
    let (tile, offset) = local_tile_projected(layout!(({m},{k}):(1,{m})), tiler!(<32,64,4>), &cta, step)?;
    let (d, d_off) = dy::tensor::local_tile(
        &"({128},{16}):(1,{128})".parse()?,
        &"<32,64,4>".parse()?,
        &"(1,2,_)".parse()?,
        Some(&"(1,_,1)".parse()?),
    )?;
    assert_eq!((tile.to_string(), offset), (without_divisors(&d.to_string()), d_off.value() as usize));
    // Without a projection: the (32,4) tiles of a (128,16) matrix at row 3, every k tile kept.
    let (tile, offset) =
        cute::cute_static::local_tile(layout!((128,16):(1,128)), tiler!(<32,4>), &Cons(3usize, Cons(Under, Nil)));
    let (d, d_off) = dy::tensor::local_tile(&"(128,16):(1,128)".parse()?, &"<32,4>".parse()?, &"(3,_)".parse()?, None)?;
    assert_eq!((tile.to_string(), offset), (d.to_string(), d_off.value() as usize));
    Ok(())
}

/// One bound, `LayoutFn`, to evaluate, print and hand a layout to cute-dyn in generic code.
#[test]
fn one_bound_evaluates_prints_and_converts() -> Result<(), dy::Error> {
    use cute::cute_static::LayoutFn;
    fn describe<L: LayoutFn>(l: L) -> Result<(String, usize, String), dy::Error> {
        Ok((l.to_string(), l.call(l.size() - 1), l.to_dyn()?.to_styled(dy::Style::Cpp)))
    }
    let n = 8;
    // The last index of (2,(1,6)):(1,(6,2)) is 1 + 5 * 2 = 11; C++ prints static leaves `_N`.
    assert_eq!(
        describe(layout!((2,(1,6)):(1,(6,2))))?,
        ("(2,(1,6)):(1,(6,2))".into(), 11, "(_2,(_1,_6)):(_1,(_6,_2))".into())
    );
    // A run-time leaf prints as its value in C++'s style.
    assert_eq!(describe(layout!((2,{n}):(1,2)))?, ("(2,{8}):(1,2)".into(), 15, "(_2,8):(_1,_2)".into()));
    Ok(())
}
