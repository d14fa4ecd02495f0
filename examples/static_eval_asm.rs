//! Zero-cost check for cute-static: the same loop written with a static layout and by hand.
//! `scripts/compare_asm.sh` compiles this in release and compares the two functions' assembly.

use cute::cute_static::{layout, Layout};

/// `(8,(4,8)):(32,(1,4))` evaluated over its whole domain through the layout.
#[inline(never)]
pub fn sum_static(buf: &[u32; 256]) -> u32 {
    type L = Layout![(8,(4,8)):(32,(1,4))];
    let l = L::default();
    let mut acc = 0u32;
    for i in 0..l.size() {
        acc = acc.wrapping_add(buf[l.call(i)]);
    }
    acc
}

/// The same index expression written by hand.
#[inline(never)]
pub fn sum_hand(buf: &[u32; 256]) -> u32 {
    let mut acc = 0u32;
    for i in 0..256usize {
        let (m, n) = (i % 8, i / 8);
        acc = acc.wrapping_add(buf[m * 32 + (n % 4) + (n / 4) * 4]);
    }
    acc
}

fn main() {
    let buf: [u32; 256] = core::array::from_fn(|i| i as u32 * 7 + 1);
    let (a, b) = (sum_static(&buf), sum_hand(&buf));
    assert_eq!(a, b);
    // The layout visits every element once: the sum is the sum of the buffer.
    assert_eq!(a, buf.iter().fold(0u32, |x, y| x.wrapping_add(*y)));
    let l = layout!((8,(4,8)):(32,(1,4)));
    println!("{l}: static sum {a} == hand-written sum {b}");
}
