//! A vector that keeps up to `N` elements inline and moves to the heap past that: the layouts
//! kernels use fit without an allocation, and cloning one is a copy.

use alloc::vec::Vec;
use core::hash::{Hash, Hasher};
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};

/// Up to `N` elements inline, any number on the heap.
pub(crate) enum Small<T: Copy, const N: usize> {
    /// The first `len` elements of `buf` are initialized; the rest are never read.
    Inline { len: usize, buf: [MaybeUninit<T>; N] },
    /// Past the inline capacity.
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> Small<T, N> {
    pub(crate) fn new() -> Self {
        // Not filled: creating one costs nothing, whatever N.
        Small::Inline { len: 0, buf: [const { MaybeUninit::uninit() }; N] }
    }

    pub(crate) fn from_slice(s: &[T]) -> Self {
        let mut v = Self::new();
        v.extend_from_slice(s);
        v
    }

    pub(crate) fn push(&mut self, x: T) {
        match self {
            Small::Inline { len, buf } if *len < N => {
                buf[*len].write(x);
                *len += 1;
            }
            _ => self.extend_from_slice(&[x]),
        }
    }

    pub(crate) fn extend_from_slice(&mut self, s: &[T]) {
        match self {
            Small::Inline { len, buf } if *len + s.len() <= N => {
                buf[*len..*len + s.len()].write_copy_of_slice(s);
                *len += s.len();
            }
            Small::Inline { .. } => {
                let mut v = Vec::with_capacity((self.len() + s.len()).max(2 * N));
                v.extend_from_slice(self);
                v.extend_from_slice(s);
                *self = Small::Heap(v);
            }
            Small::Heap(v) => v.extend_from_slice(s),
        }
    }

    pub(crate) fn truncate(&mut self, n: usize) {
        match self {
            Small::Inline { len, .. } => *len = n.min(*len),
            Small::Heap(v) => v.truncate(n),
        }
    }

    /// Keep the elements for which `keep` holds, in order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut n = 0;
        for i in 0..self.len() {
            if keep(&self[i]) {
                self[n] = self[i];
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

/// Copies the live elements only.
impl<T: Copy, const N: usize> Clone for Small<T, N> {
    fn clone(&self) -> Self {
        match self {
            Small::Inline { .. } => Self::from_slice(self),
            Small::Heap(v) => Small::Heap(v.clone()),
        }
    }
}

impl<T: Copy, const N: usize> Deref for Small<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            // SAFETY: `buf[..len]` is initialized: `len` only grows in `push` and
            // `extend_from_slice`, after the slots below the new `len` are written, and
            // `truncate` only lowers it. `MaybeUninit<T>` has the layout of `T`, so the
            // initialized prefix is a valid `[T]` of `len` elements, borrowed as `self` is.
            Small::Inline { len, buf } => unsafe { core::slice::from_raw_parts(buf.as_ptr().cast::<T>(), *len) },
            Small::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for Small<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            // SAFETY: as in `deref`; the borrow is exclusive as `self` is.
            Small::Inline { len, buf } => unsafe {
                core::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<T>(), *len)
            },
            Small::Heap(v) => v,
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
        assert!(matches!(v, Small::Inline { .. }));
        v.extend_from_slice(&[3, 4]);
        assert!(matches!(v, Small::Heap(_)));
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
        w.extend_from_slice(&[(0, 0); 5]);
        assert_eq!(w.len(), 6);
        assert_eq!(w.clone()[5], (0, 0));
    }
}
