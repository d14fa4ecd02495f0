//! # cute-layout
//!
//! NVIDIA CuTe's layout algebra in Rust. This facade re-exports the three crates:
//!
//! * [`cute_dyn`]: layouts over runtime integers, each static or dynamic (with a known
//!   divisor); every precondition checked; the notation's parser and printer.
//! * [`cute_static`]: layouts as type-level integers.
//! * [`cute_macros`]: layout literals.
//!
//! The `cute` command-line tool (built from this package) lives in the `cute-cli` crate.
//!
//! ```
//! use cute::cute_dyn::*;
//! let a: Layout = "(12,(4,8)):(59,(13,1))".parse()?;
//! let r = composition(&a, &"<3:4,8:2>".parse()?)?;
//! assert_eq!(r.to_string(), "(3,(2,4)):(236,(26,1))");
//! # Ok::<(), Error>(())
//! ```

pub use cute_dyn;
pub use cute_macros;
pub use cute_static;

/// The README's code, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
