//! The Tensor Memory Accelerator: bulk tensor copies between global memory, described by a
//! `CUtensorMap` the host encodes, and shared memory (`cp.async.bulk.tensor`, PTX ISA
//! §9.7.9.25.5.1; completion §9.7.9.25.5.3), 1 to 5 dimensions. A load completes transaction
//! bytes on an mbarrier; a store is a bulk group this thread commits and waits for.
//! Coordinates are the tensor map's, innermost first, in elements.

use super::ptx;

/// The loads, multicast loads and stores of one dimension count.
macro_rules! tma_dims {
    ($($d:literal: $load:ident, $multicast:ident, $store:ident, [$c0:ident $($c:ident)*];)*) => {$(
        #[doc = concat!("A ", $d, "-D TMA load of the box at `coord` of the tensor map at `map` into shared `dst`, completing `bar`'s transaction bytes.")]
        ///
        /// # Safety
        /// `map` points to a valid `CUtensorMap` in global (or constant, or parameter) memory;
        /// `dst` is a shared address aligned as the map's swizzle needs (1024 bytes for 128B,
        /// 128 otherwise) with room for the box; `bar` an initialized mbarrier whose phase
        /// expects the box's bytes.
        #[inline(always)]
        pub unsafe fn $load(dst: u32, map: *const u8, bar: u32, coord: [i32; $d]) {
            let [$c0 $(, $c)*] = coord;
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!("cp.async.bulk.tensor.", $d, "d.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{m}, {{",
                        "{", stringify!($c0), "}", $(", {", stringify!($c), "}",)* "}}], [{b}];"),
                    d = in(reg32) dst, m = in(reg64) map, $c0 = in(reg32) $c0, $($c = in(reg32) $c,)* b = in(reg32) bar,
                    options(nostack)
                );
            }
        }

        #[doc = concat!("[`", stringify!($load), "`] multicast: the box lands at `dst` and completes `bar` in each block of the cluster whose bit is set in `mask`.")]
        ///
        /// # Safety
        /// As the load, in every block of the mask (ranks below the cluster's size); each of
        /// them expects the box's bytes.
        #[inline(always)]
        pub unsafe fn $multicast(dst: u32, map: *const u8, bar: u32, coord: [i32; $d], mask: u16) {
            let [$c0 $(, $c)*] = coord;
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!("cp.async.bulk.tensor.", $d, "d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{d}], [{m}, {{",
                        "{", stringify!($c0), "}", $(", {", stringify!($c), "}",)* "}}], [{b}], {k};"),
                    d = in(reg32) dst, m = in(reg64) map, $c0 = in(reg32) $c0, $($c = in(reg32) $c,)* b = in(reg32) bar,
                    k = in(reg16) mask, options(nostack)
                );
            }
        }

        #[doc = concat!("A ", $d, "-D TMA store of the shared box at `src` to `coord` of the tensor map at `map`, in this thread's bulk group ([`store_commit`], [`store_wait_read`]).")]
        ///
        /// # Safety
        /// `map` is a valid `CUtensorMap`; `src` a shared address aligned as its swizzle needs,
        /// whose box was written before [`fence_proxy_async`] and is not written again until
        /// the group's reads complete.
        #[inline(always)]
        pub unsafe fn $store(map: *const u8, src: u32, coord: [i32; $d]) {
            let [$c0 $(, $c)*] = coord;
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!("cp.async.bulk.tensor.", $d, "d.global.shared::cta.bulk_group [{m}, {{",
                        "{", stringify!($c0), "}", $(", {", stringify!($c), "}",)* "}}], [{s}];"),
                    m = in(reg64) map, $c0 = in(reg32) $c0, $($c = in(reg32) $c,)* s = in(reg32) src,
                    options(nostack)
                );
            }
        }
    )*};
}

tma_dims! {
    1: load_1d, load_1d_multicast, store_1d, [c0];
    2: load_2d, load_2d_multicast, store_2d, [c0 c1];
    3: load_3d, load_3d_multicast, store_3d, [c0 c1 c2];
    4: load_4d, load_4d_multicast, store_4d, [c0 c1 c2 c3];
    5: load_5d, load_5d_multicast, store_5d, [c0 c1 c2 c3 c4];
}

/// `cp.async.bulk.commit_group`: the stores issued so far form one bulk group.
#[inline(always)]
pub fn store_commit() {
    // SAFETY: groups this thread's bulk copies; no memory access.
    unsafe {
        ptx!("cp.async.bulk.commit_group;", options(nostack));
    }
}

/// `cp.async.bulk.wait_group.read N`: at most `N` of this thread's bulk groups still read
/// their shared source.
#[inline(always)]
pub fn store_wait_read<const N: u32>() {
    // SAFETY: waits on this thread's own groups.
    unsafe {
        ptx!("cp.async.bulk.wait_group.read {n};", n = const N, options(nostack));
    }
}

/// `fence.proxy.async.shared::cta` (§9.7.13.4.2): this thread's shared-memory writes before it
/// are visible to the asynchronous proxy (a TMA store that reads them) after it.
#[inline(always)]
pub fn fence_proxy_async() {
    // SAFETY: a fence.
    unsafe {
        ptx!("fence.proxy.async.shared::cta;", options(nostack));
    }
}
