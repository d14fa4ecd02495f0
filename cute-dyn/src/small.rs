//! A vector that keeps up to `N` elements inline and moves to the heap past that: the layouts
//! kernels use fit without an allocation, and cloning one is a copy.

use alloc::vec::Vec;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

/// Up to `N` elements inline, any number on the heap.
#[derive(Clone)]
pub(crate) enum Small<T: Copy + Default, const N: usize> {
    /// The first `len` elements of `buf` (the rest are `T::default()`, never read).
    Inline { len: usize, buf: [T; N] },
    /// Past the inline capacity.
    Heap(Vec<T>),
}

impl<T: Copy + Default, const N: usize> Small<T, N> {
    pub(crate) fn new() -> Self {
        Small::Inline { len: 0, buf: [T::default(); N] }
    }

    pub(crate) fn from_slice(s: &[T]) -> Self {
        let mut v = Self::new();
        v.extend_from_slice(s);
        v
    }

    pub(crate) fn push(&mut self, x: T) {
        self.extend_from_slice(&[x]);
    }

    pub(crate) fn extend_from_slice(&mut self, s: &[T]) {
        match self {
            Small::Inline { len, buf } if *len + s.len() <= N => {
                buf[*len..*len + s.len()].copy_from_slice(s);
                *len += s.len();
            }
            Small::Inline { len, buf } => {
                let mut v = Vec::with_capacity((*len + s.len()).max(2 * N));
                v.extend_from_slice(&buf[..*len]);
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

impl<T: Copy + Default, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Small<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Small::Inline { len, buf } => &buf[..*len],
            Small::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Small<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Small::Inline { len, buf } => &mut buf[..*len],
            Small::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Small<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        iter.into_iter().for_each(|x| v.push(x));
        v
    }
}

// Equality and hashing see the elements only (not where they are kept).
impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Small<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Small<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for Small<T, N> {
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
}
