//! Hopper's TMA tensor maps, on the host: the parameters `cuTensorMapEncodeTiled` takes for a
//! load of a static shared tile (a `tile_to_shape` of a [`gmma`](crate::gmma) atom, or any static
//! layout) from a global tensor of run-time extents. A tensor map is built on the host before
//! the launch, so this is cute-dyn's derivation (`cute_dyn::tma`, checked against CuTe C++ 4.2)
//! over the two layouts, converted: feature `dyn`.

use crate::layout::{Congruent, Layout, LayoutFn};
use crate::swizzle::{ComposedLayout, Swizzle};

/// A shared tile a TMA writes: a static layout, or `Sw<B,M,S> o 0 o layout`.
pub trait TmaTile {
    /// The cute-dyn tile.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed>;
}
impl<S: Congruent<D>, D: crate::int_tuple::IntTuple> TmaTile for Layout<S, D> {
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed> {
        Ok(cute_dyn::swizzle::MaybeComposed::Layout(self.to_dyn()?))
    }
}
impl<B, M, SH, O, S, D> TmaTile for ComposedLayout<Swizzle<B, M, SH>, O, Layout<S, D>>
where
    B: typenum::Unsigned,
    M: typenum::Unsigned,
    SH: crate::swizzle::Shift,
    O: typenum::Unsigned + Default,
    S: Congruent<D>,
    D: crate::int_tuple::IntTuple,
    Swizzle<B, M, SH>: crate::swizzle::ValidSwizzle,
{
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed> {
        Ok(cute_dyn::swizzle::MaybeComposed::Composed(self.to_dyn()?))
    }
}

/// `make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout)`'s tensor map: the global tensor's layout
/// `global` (static or run-time leaves), its element type `elem` (a CuTe name) and the shared
/// tile `smem`. See [`cute_dyn::tma::make_tma_copy_desc`] for the derivation and conditions.
///
/// # Errors
/// Those of [`cute_dyn::tma::make_tma_copy_desc`], with the numbers.
///
/// # Examples
/// ```
/// use cute_static::gmma::{LayoutAtom, K, Sw128};
/// use cute_static::tma::make_tma_copy_desc;
/// use cute_static::typenum::U16;
/// use cute_static::{layout, shape, tile_to_shape};
/// // CuTe C++ 4.2 (tests/data/tma): a K-major half A of 1000x512, a 128x64 SW128 tile:
/// // globalDim (512,1000), globalStrides (1024 bytes), boxDim (64,128), swizzle 128B.
/// let (m, k) = (1000usize, 512usize);
/// let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128,64)));
/// let d = make_tma_copy_desc(layout!(({m},{k}):({k},1)), "half_t", &smem)?;
/// assert_eq!((d.global_dim, d.global_strides, d.box_dim, d.swizzle), (vec![512, 1000], vec![1024], vec![64, 128], 3));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_tma_copy_desc<G: LayoutFn, T: TmaTile>(
    global: G,
    elem: &str,
    smem: &T,
) -> cute_dyn::Result<cute_dyn::tma::TmaDesc> {
    cute_dyn::tma::make_tma_copy_desc(&global.to_dyn()?, elem, &smem.to_dyn_tile()?)
}

/// [`make_tma_copy_desc`] for a load multicast to `multicast` CTAs of a cluster
/// (`SM90_TMA_LOAD_MULTICAST`): see [`cute_dyn::tma::make_tma_copy_desc_multicast`].
///
/// # Errors
/// Those of [`cute_dyn::tma::make_tma_copy_desc_multicast`].
pub fn make_tma_copy_desc_multicast<G: LayoutFn, T: TmaTile>(
    global: G,
    elem: &str,
    smem: &T,
    multicast: u32,
) -> cute_dyn::Result<cute_dyn::tma::TmaDesc> {
    cute_dyn::tma::make_tma_copy_desc_multicast(&global.to_dyn()?, elem, &smem.to_dyn_tile()?, multicast)
}
