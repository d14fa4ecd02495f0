//! Compile-time checks that speak in words with their numbers: a constant's panic, its message
//! built by the compiler (cute-static's `ConstMessage`).

use cute_static::product::ConstMessage;

/// A piece of a message: words, or a number printed in decimal.
pub(crate) enum Piece<'a> {
    /// Words.
    S(&'a str),
    /// A number.
    N(usize),
    /// A number in binary, `0b...` (a mask).
    B(usize),
}

/// Fails the constant being evaluated with the message `pieces` spell.
pub(crate) const fn fail(pieces: &[Piece]) -> ! {
    let mut msg = ConstMessage::new();
    let mut i = 0;
    while i < pieces.len() {
        match pieces[i] {
            Piece::S(s) => msg.push(s),
            Piece::N(n) => msg.number(n),
            Piece::B(mut b) => {
                let (mut digits, mut n) = ([0u8; 66], 0);
                loop {
                    digits[n] = b'0' + (b % 2) as u8;
                    b /= 2;
                    n += 1;
                    if b == 0 {
                        break;
                    }
                }
                msg.push("0b");
                while n > 0 {
                    n -= 1;
                    msg.push(if digits[n] == b'1' { "1" } else { "0" });
                }
            }
        }
        i += 1;
    }
    panic!("{}", msg.as_str())
}
