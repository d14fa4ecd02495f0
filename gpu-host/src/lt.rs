//! The 8-bit float baseline: cuBLASLt's e4m3 GEMM (`cublasLtMatmul`, the heuristic's first
//! algorithm), `C = A · Bᵀ` row-major as column-major `Cᵀ = B · Aᵀ`: cuBLASLt's fp8 form "TN"
//! (A transposed, B not), e4m3 in, bf16 out, fp32 compute and scale. cudarc's safe `Matmul`
//! takes one element type for A, B and C, so the plan is built on its `result` layer.

use std::ffi::c_void;
use std::mem::size_of;
use std::sync::Arc;

use cudarc::cublaslt::result as lt;
use cudarc::cublaslt::sys;
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};

use crate::Res;

/// cuBLASLt's handle and its workspace (32 MiB, NVIDIA's recommendation for Hopper).
pub struct Lt {
    handle: sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
}

impl Lt {
    pub fn new(stream: &Arc<CudaStream>) -> Res<Self> {
        Ok(Lt { handle: lt::create_handle()?, workspace: stream.alloc_zeros::<u8>(32 << 20)? })
    }
}

impl Drop for Lt {
    fn drop(&mut self) {
        // SAFETY: the handle is live and dropped once.
        let _ = unsafe { lt::destroy_handle(self.handle) };
    }
}

/// One product's descriptors and algorithm, built once (the heuristic query costs host time
/// that would otherwise sit between the timing's events).
pub struct Plan {
    /// `(m, n, k)`: what `run`'s buffers must hold.
    mnk: (usize, usize, usize),
    desc: sys::cublasLtMatmulDesc_t,
    a: sys::cublasLtMatrixLayout_t,
    b: sys::cublasLtMatrixLayout_t,
    c: sys::cublasLtMatrixLayout_t,
    algo: sys::cublasLtMatmulAlgo_t,
}

impl Plan {
    /// `C (m x n, bf16) = A (m x k, e4m3) · B (n x k, e4m3)ᵀ`, all row-major; `fast_accum`
    /// accumulates in the tensor cores' accumulators throughout (what the kernels here do),
    /// else cuBLASLt promotes partial sums to fp32 at intervals.
    pub fn e4m3(l: &Lt, (m, n, k): (usize, usize, usize), fast_accum: bool) -> Res<Self> {
        use sys::cudaDataType_t::{CUDA_R_16BF, CUDA_R_32F, CUDA_R_8F_E4M3};
        let desc = lt::create_matmul_desc(sys::cublasComputeType_t::CUBLAS_COMPUTE_32F, CUDA_R_32F)?;
        let set = |attr, v: i32| {
            // SAFETY: a live descriptor; the attribute is an int32 read from `v`.
            unsafe { lt::set_matmul_desc_attribute(desc, attr, &v as *const i32 as *const c_void, size_of::<i32>()) }
        };
        use sys::cublasLtMatmulDescAttributes_t as D;
        set(D::CUBLASLT_MATMUL_DESC_TRANSA, cudarc::cublas::sys::cublasOperation_t::CUBLAS_OP_T as i32)?;
        set(D::CUBLASLT_MATMUL_DESC_TRANSB, cudarc::cublas::sys::cublasOperation_t::CUBLAS_OP_N as i32)?;
        // FAST_ACCUM is an int8_t (the cuBLASLt documentation's attribute table).
        let fast = i8::from(fast_accum);
        // SAFETY: a live descriptor; the attribute is the int8 `fast`.
        unsafe {
            lt::set_matmul_desc_attribute(
                desc,
                D::CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                &fast as *const i8 as *const c_void,
                size_of::<i8>(),
            )
        }?;
        // Column-major: B (n x k row-major) is k x n, read transposed; A is k x m; C is n x m.
        let (k64, n64, m64) = (k as u64, n as u64, m as u64);
        let a = lt::create_matrix_layout(CUDA_R_8F_E4M3, k64, n64, k as i64)?;
        let b = lt::create_matrix_layout(CUDA_R_8F_E4M3, k64, m64, k as i64)?;
        let c = lt::create_matrix_layout(CUDA_R_16BF, n64, m64, n as i64)?;
        let pref = lt::create_matmul_pref()?;
        let size = l.workspace.len();
        // SAFETY: live objects; the attribute is a size_t read from `size`.
        let heuristic = unsafe {
            lt::set_matmul_pref_attribute(
                pref,
                sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &size as *const usize as *const c_void,
                size_of::<usize>(),
            )?;
            let h = lt::get_matmul_algo_heuristic(l.handle, desc, a, b, c, c, pref);
            lt::destroy_matmul_pref(pref)?;
            h?
        };
        Ok(Plan { mnk: (m, n, k), desc, a, b, c, algo: heuristic.algo })
    }

    /// Launches the product on `stream`: `a`, `b` of `m * k` and `n * k` bytes (`E` is their
    /// storage, one byte), `c` of `m * n` bf16 (as `u16`); shorter buffers are refused.
    pub fn run<E>(
        &self,
        l: &Lt,
        stream: &Arc<CudaStream>,
        a: &CudaSlice<E>,
        b: &CudaSlice<E>,
        c: &mut CudaSlice<u16>,
    ) -> Res<()> {
        if size_of::<E>() != 1 {
            return Err("cuBLASLt's e4m3 product takes one-byte elements".into());
        }
        let (m, n, k) = self.mnk;
        if a.len() < m * k || b.len() < n * k || c.len() < m * n {
            return Err(format!(
                "cuBLASLt e4m3 {m}x{n}x{k}: buffers of {}, {} and {} elements are too short",
                a.len(),
                b.len(),
                c.len()
            )
            .into());
        }
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pa, _sa) = a.device_ptr(stream);
        let (pb, _sb) = b.device_ptr(stream);
        let (pc, _sc) = c.device_ptr_mut(stream);
        let size = l.workspace.len();
        // cuBLASLt writes the workspace; no Rust reference sees it.
        let (pw, _sw) = l.workspace.device_ptr(stream);
        // SAFETY: the plan's layouts describe `m * k`, `n * k` and `m * n` elements, which the
        // buffers hold (checked above); C is also the (unread, beta = 0) input; the workspace
        // holds `size` bytes.
        unsafe {
            lt::matmul(
                l.handle,
                self.desc,
                &alpha as *const f32 as *const c_void,
                &beta as *const f32 as *const c_void,
                pb as *const c_void,
                self.a,
                pa as *const c_void,
                self.b,
                pc as *const c_void,
                self.c,
                pc as *mut c_void,
                self.c,
                &self.algo,
                pw as *mut c_void,
                size,
                stream.cu_stream() as sys::cudaStream_t,
            )
        }?;
        Ok(())
    }
}

impl Drop for Plan {
    fn drop(&mut self) {
        // SAFETY: live objects, each destroyed once.
        unsafe {
            let _ = lt::destroy_matrix_layout(self.a);
            let _ = lt::destroy_matrix_layout(self.b);
            let _ = lt::destroy_matrix_layout(self.c);
            let _ = lt::destroy_matmul_desc(self.desc);
        }
    }
}
