//! Pipelines (CUTLASS's `cutlass/pipeline`): rings of shared-memory stages between producers
//! and consumers, as types whose sizes, transaction bytes and masks the compiler computes and
//! checks.

pub mod tma_async;

pub use tma_async::{PipelineState, PipelineTmaAsync, Ring, StageCopies};
