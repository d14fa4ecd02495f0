//! The `cute` command-line tool's library: the expression language of `cute eval` and its one
//! table of operations ([`eval`]), `--format json` ([`json`]), `cute show` ([`show`]) and the
//! tour ([`tour`]). The facade crate `cute` re-exports the algebra only; this is the tool.

pub mod eval;
pub mod json;
pub mod show;
pub mod tour;
