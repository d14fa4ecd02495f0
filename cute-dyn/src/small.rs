//! A vector that keeps up to `N` elements inline and moves to the heap past that: the layouts
//! kernels use fit without an allocation, and cloning one is a copy.

use alloc::vec::Vec;
use core::hash::{Hash, Hasher};
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};

/// Up to `N` elements inline, any number on the heap.
///
/// Invariant: the elements are `buf[..len]` while `len <= N`, and `heap[..len]` (with
/// `heap.len() == len`) past it. Where they are follows from `len` alone, so reading the
/// slice is a compare and a select, not a match on a variant (the algorithms read these
/// slices many times per operation).
pub(crate) struct Small<T: Copy, const N: usize> {
    len: usize,
    buf: [MaybeUninit<T>; N],
    /// Where `push` writes an element that does not fit inline, before it spills. Every push
    /// thus writes its element straight to a slot of `self`: an element passed to the spill by
    /// reference would be built in a stack temporary first, with narrower stores than the
    /// vector loads that copy it (a store-forwarding stall on every push, measured).
    scratch: MaybeUninit<T>,
    /// Unallocated until the first spill; kept (for reuse) when the length falls back.
    heap: Vec<T>,
}

impl<T: Copy, const N: usize> Small<T, N> {
    #[inline]
    pub(crate) fn new() -> Self {
        // Not filled: creating one costs nothing, whatever N.
        Small { len: 0, buf: [const { MaybeUninit::uninit() }; N], scratch: MaybeUninit::uninit(), heap: Vec::new() }
    }

    /// The number of elements, read from the field: through `Deref` it would first locate the
    /// elements (inline or on the heap), a compare and a select on every call.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(crate) fn from_slice(s: &[T]) -> Self {
        let mut v = Self::new();
        v.extend_from_slice(s);
        v
    }

    /// `src`'s elements written to `self`, which is empty. Inline, the slots are copied in one
    /// fixed-size block, the smallest of 4, 8 or `N` slots that holds them: a copy of a
    /// constant size is a few vector moves, where one of the live elements only is a call to
    /// `memcpy` (which cost a clone of a 3-leaf layout more than the copy). The slots past
    /// `src.len` are copied as the `MaybeUninit` they are, and stay past `self.len`.
    #[inline]
    pub(crate) fn copy_from(&mut self, src: &Self) {
        debug_assert!(self.len == 0);
        if src.len > N {
            self.spill(&src.heap);
            return;
        }
        if src.len <= 4 && N >= 4 {
            self.buf[..4].copy_from_slice(&src.buf[..4]);
        } else if src.len <= 8 && N >= 8 {
            self.buf[..8].copy_from_slice(&src.buf[..8]);
        } else {
            self.buf.copy_from_slice(&src.buf);
        }
        self.len = src.len;
    }

    #[inline]
    pub(crate) fn push(&mut self, x: T) {
        let inline = self.len < N;
        let slot = if inline { &mut self.buf[self.len] } else { &mut self.scratch };
        slot.write(x);
        if inline {
            self.len += 1;
        } else {
            // SAFETY: `scratch` was written just above.
            unsafe { self.spill_scratch() };
        }
    }

    /// `push` past the inline capacity: the element is in `scratch`.
    ///
    /// # Safety
    /// `scratch` holds an element (written by the caller).
    #[cold]
    #[inline(never)]
    unsafe fn spill_scratch(&mut self) {
        // SAFETY: the caller wrote `scratch`.
        let x = unsafe { self.scratch.assume_init() };
        self.spill(&[x]);
    }

    #[inline]
    pub(crate) fn extend_from_slice(&mut self, s: &[T]) {
        match self.buf.get_mut(self.len..self.len + s.len()) {
            Some(slots) => {
                // The slices here are a few elements long, where a call to `memcpy` costs more
                // than the copy, and LLVM makes any copy loop such a call: one element (a leaf
                // and its token, the commonest) is written by itself.
                if let ([slot], [x]) = (&mut *slots, s) {
                    slot.write(*x);
                } else {
                    for (slot, &x) in slots.iter_mut().zip(s) {
                        slot.write(x);
                    }
                }
                self.len += s.len();
            }
            None => self.spill(s),
        }
    }

    /// Append `n` copies of `x`. Where `K` slots are free inline and `n <= K`, all `K` are
    /// written (one fixed-size store; the slots past the new length are never read), so a few
    /// tokens cost no call to `memset`.
    #[inline]
    pub(crate) fn extend_repeat<const K: usize>(&mut self, x: T, n: usize) {
        match self.buf.get_mut(self.len..self.len + K) {
            Some(slots) if n <= K => {
                slots.iter_mut().for_each(|slot| {
                    slot.write(x);
                });
                self.len += n;
            }
            _ => (0..n).for_each(|_| self.push(x)),
        }
    }

    /// `extend_from_slice` past the inline capacity.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, s: &[T]) {
        if self.len <= N {
            let mut heap = core::mem::take(&mut self.heap);
            heap.clear();
            heap.extend_from_slice(self.inline());
            self.heap = heap;
        }
        self.heap.extend_from_slice(s);
        self.len = self.heap.len();
    }

    /// The elements while they are inline (`len <= N`); empty past it.
    #[inline]
    fn inline(&self) -> &[T] {
        let n = if self.len <= N { self.len } else { 0 };
        // SAFETY: `buf[..len]` is initialized while `len <= N` (the invariant: `len` grows
        // inline only after the slots below it are written, and coming back from the heap
        // writes them first). `MaybeUninit<T>` has the layout of `T`, so the prefix is a valid
        // `[T]`, borrowed as `self` is.
        unsafe { core::slice::from_raw_parts(self.buf.as_ptr().cast::<T>(), n) }
    }

    #[inline]
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        if self.len > N {
            self.heap.truncate(n);
            if n <= N {
                // Back inline, where the invariant keeps the elements while `len <= N`.
                let (heap, buf) = (&self.heap, &mut self.buf);
                for (slot, &x) in buf.iter_mut().zip(heap) {
                    slot.write(x);
                }
            }
        }
        self.len = n;
    }

    /// Keep the elements for which `keep` holds, in order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut n = 0;
        for i in 0..self.len() {
            if keep(&self[i]) {
                // Only past a dropped element: copying one onto itself reads it right after
                // it was written (a store-forwarding stall, seen in the complement's profile).
                if n != i {
                    self[n] = self[i];
                }
                n += 1;
            }
        }
        self.truncate(n);
    }

    /// Remove element `i`, keeping the order of the others.
    pub(crate) fn remove(&mut self, i: usize) -> T {
        let x = self[i];
        self.copy_within(i + 1.., i);
        self.truncate(self.len() - 1);
        x
    }
}

impl<T: Copy, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Clone for Small<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        let mut v = Self::new();
        v.copy_from(self);
        v
    }
}

impl<T: Copy, const N: usize> Deref for Small<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        if self.len <= N {
            self.inline()
        } else {
            &self.heap
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for Small<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        if self.len <= N {
            // SAFETY: as in `inline`: `buf[..len]` is initialized while `len <= N`; the borrow
            // is exclusive as `self` is.
            unsafe { core::slice::from_raw_parts_mut(self.buf.as_mut_ptr().cast::<T>(), self.len) }
        } else {
            &mut self.heap
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for Small<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        iter.into_iter().for_each(|x| v.push(x));
        v
    }
}

impl<T: Copy + core::fmt::Debug, const N: usize> core::fmt::Debug for Small<T, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (**self).fmt(f)
    }
}

// Equality and hashing see the elements only (not where they are kept).
impl<T: Copy + PartialEq, const N: usize> PartialEq for Small<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for Small<T, N> {}

impl<T: Copy + Hash, const N: usize> Hash for Small<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::Small;

    #[test]
    fn spills_to_the_heap_past_the_inline_capacity() {
        let mut v: Small<u8, 2> = Small::new();
        v.push(1);
        v.push(2);
        assert_eq!(v.heap.capacity(), 0);
        v.extend_from_slice(&[3, 4]);
        assert_eq!(v.heap, [1, 2, 3, 4]);
        assert_eq!(&*v, &[1, 2, 3, 4]);
        assert_eq!(v.remove(1), 2);
        v.retain(|&x| x != 4);
        assert_eq!(&*v, &[1, 3]);
        assert!(v == Small::<u8, 2>::from_slice(&[1, 3]));
    }

    #[test]
    fn small_clones_copy_the_live_elements_only() {
        let mut v: Small<(i64, u64), 4> = Small::new();
        v.extend_from_slice(&[(1, 2), (3, 4), (5, 6)]);
        let mut w = v.clone();
        w.push((7, 8));
        w[0].0 = 9;
        assert_eq!(&*v, &[(1, 2), (3, 4), (5, 6)]);
        assert_eq!(&*w, &[(9, 2), (3, 4), (5, 6), (7, 8)]);
        w.truncate(1);
        w.extend_from_slice(&[(2, 3)]); // one element: copied without the loop
        assert_eq!(&*w, &[(9, 2), (2, 3)]);
        w.truncate(1);
        w.extend_from_slice(&[(0, 0); 5]);
        assert_eq!(w.len(), 6);
        assert_eq!(w.clone()[5], (0, 0));
    }

    /// Every length, so that each block size `copy_from` copies (4, 8, all 16 slots) and the
    /// heap are taken; a clone holds the same elements (the definition of a copy).
    #[test]
    fn clones_of_every_length_hold_the_same_elements() {
        for n in 0..=20u64 {
            let v: Small<(i64, u64), 16> = (0..n).map(|i| (-(i as i64), i * i)).collect();
            let w = v.clone();
            assert_eq!(w.len(), n as usize);
            assert!((0..n).all(|i| w[i as usize] == (-(i as i64), i * i)));
        }
    }

    #[test]
    fn repeats_inline_in_one_chunk_and_past_it_one_by_one() {
        let mut v: Small<u8, 6> = Small::new();
        v.push(7);
        v.extend_repeat::<4>(1, 2);
        assert_eq!(&*v, &[7, 1, 1]);
        v.extend_repeat::<4>(2, 3); // 3 + 4 > 6: one at a time
        assert_eq!(&*v, &[7, 1, 1, 2, 2, 2]);
        v.extend_repeat::<4>(3, 2); // spills
        assert_eq!(&*v, &[7, 1, 1, 2, 2, 2, 3, 3]);
        v.truncate(2);
        assert_eq!(&*v, &[7, 1]);
        v.extend_repeat::<4>(5, 4);
        assert_eq!(&*v, &[7, 1, 5, 5, 5, 5]);
    }
}
