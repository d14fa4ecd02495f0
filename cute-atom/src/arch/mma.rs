//! Ampere's warp MMA, `mma.sync.aligned.m16n8k16` (PTX ISA §9.7.14.5.14): 32 threads compute
//! a 16x8 tile of `D = A · B + C` from register fragments (f16 or bf16 in, f32 accumulate),
//! synchronously. The atoms that call them are [`crate::atom::mma`].

use super::ptx;
use super::wgmma::Accumulators;

impl Accumulators for [f32; 4] {
    #[inline(always)]
    fn fence_operands(&mut self) {
        // SAFETY: no instruction (a PTX comment naming the registers).
        unsafe {
            ptx!("// {0} {1} {2} {3}", inout(reg32) self[0], inout(reg32) self[1], inout(reg32) self[2],
                inout(reg32) self[3], options(nomem, nostack));
        }
    }
    #[inline(always)]
    fn for_each_pair(&self, mut f: impl FnMut(usize, f32, f32)) {
        f(0, self[0], self[1]);
        f(2, self[2], self[3]);
    }
    #[inline(always)]
    fn for_each_mut(&mut self, mut f: impl FnMut(usize, &mut f32)) {
        for (v, x) in self.iter_mut().enumerate() {
            f(v, x);
        }
    }
}

macro_rules! mma_m16n8k16 {
    ($($name:ident, $t:literal;)*) => {$(
        #[doc = concat!("`mma.sync.aligned.m16n8k16.row.col.f32.", $t, ".", $t, ".f32`: `d = a · b + d` for one 16x8x16 tile; `a` and `b` the thread's pairs of elements (the atom's A and B layouts).")]
        ///
        /// # Safety
        /// Every thread of the warp executes it, together (`.sync.aligned`).
        #[inline(always)]
        pub unsafe fn $name(d: &mut [f32; 4], a: &[u32; 4], b: [u32; 2]) {
            // SAFETY: a register-only instruction; the caller's promise.
            unsafe {
                ptx!(
                    concat!("mma.sync.aligned.m16n8k16.row.col.f32.", $t, ".", $t, ".f32 {{{d0}, {d1}, {d2}, {d3}}}, ",
                        "{{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{d0}, {d1}, {d2}, {d3}}};"),
                    d0 = inout(reg32) d[0], d1 = inout(reg32) d[1], d2 = inout(reg32) d[2], d3 = inout(reg32) d[3],
                    a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                    b0 = in(reg32) b[0], b1 = in(reg32) b[1], options(pure, nomem, nostack)
                );
            }
        }
    )*};
}

mma_m16n8k16! {
    m16n8k16_f32_f16_f16_f32, "f16";
    m16n8k16_f32_bf16_bf16_f32, "bf16";
}
