//! IEEE binary16 conversions for the host side's inputs and checks (round to nearest even).

/// `f32` to binary16 bits, rounded to nearest even; overflow to infinity, NaN kept.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal (or zero): the implicit bit joins the mantissa, shifted right.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let rest = man & 0x1fff;
    let mut r = ((e as u32) << 10) | (man >> 13);
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        r += 1; // a carry into the exponent is the right rounding too
    }
    sign | r as u16
}

/// `f32` to bfloat16 bits (the upper half of the `f32`), rounded to nearest even; NaN kept.
pub fn f32_to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    let round = 0x7fff + ((bits >> 16) & 1);
    ((bits + round) >> 16) as u16
}

/// binary16 bits to `f32` (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: normalize.
            let shift = man.leading_zeros() - 21;
            sign | ((113 - shift) << 23) | ((man << shift) & 0x3ff) << 13
        }
        (0x1f, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_known_values() {
        // IEEE 754 binary16: 1.0 = 0x3c00, -2.0 = 0xc000, 2048 = 0x6800, 65504 = 0x7bff,
        // the smallest subnormal 2^-24 = 0x0001, 1/3 rounds to 0x3555.
        for (x, h) in [
            (1.0f32, 0x3c00u16),
            (-2.0, 0xc000),
            (2048.0, 0x6800),
            (65504.0, 0x7bff),
            (2f32.powi(-24), 1),
            (1.0 / 3.0, 0x3555),
        ] {
            assert_eq!(f32_to_f16(x), h, "{x}");
        }
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // rounds to infinity
        for h in 0..=0x7bffu16 {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
            assert_eq!(f32_to_f16(f16_to_f32(h | 0x8000)), h | 0x8000, "{h:#x}");
        }
        for i in -2048..=2048 {
            assert_eq!(f16_to_f32(f32_to_f16(i as f32)), i as f32);
        }
        // bfloat16: 1.0 = 0x3f80, -2.0 = 0xc000; 257 rounds to even (256 = 0x4380), 259 up to
        // 260 (0x4382); integers up to 256 are exact.
        for (x, h) in [(1.0f32, 0x3f80u16), (-2.0, 0xc000), (257.0, 0x4380), (259.0, 0x4382)] {
            assert_eq!(f32_to_bf16(x), h, "{x}");
        }
        for i in -256..=256 {
            assert_eq!(f32::from_bits(u32::from(f32_to_bf16(i as f32)) << 16), i as f32);
        }
    }
}
