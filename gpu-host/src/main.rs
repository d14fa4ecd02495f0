//! `cute-gpu`: runs the Hopper HGEMM of `gpu/` (`hgemm_sm90`, and its hand-indexed twin) on the
//! GPU from Rust: loads the PTX, encodes the TMA tensor maps whose parameters cute-static
//! derives from the kernel's own shared-memory layouts, launches, checks the results exactly
//! (integer-valued inputs: against a host loop, or against cuBLAS where the host loop would take
//! minutes), and times the kernel and cuBLAS in the same run (CUDA events, medians).
//!
//! ```text
//! cute-gpu [PTX] [--launches N] [--json FILE] [--no-cluster]
//! ```
//! `PTX` defaults to `gpu/kernels.ptx` (`scripts/gpu/build.sh`). The CUDA driver and cuBLAS are
//! loaded at run time; set `LD_LIBRARY_PATH` where cuBLAS is not on the loader's path.

use std::error::Error;
use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublas::{sys as blas, CudaBlas};
use cudarc::driver::sys::{self, CUtensorMap};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use cute_static::layout;
use cute_static::tma::make_tma_copy_desc_multicast;

#[path = "../../gpu/src/hgemm_sm90/tiles.rs"]
#[allow(dead_code)]
mod tiles;
use tiles::*;

mod attention;

/// Milliseconds a run keeps the GPU busy before it is timed (its steady state).
const WARM_MS: f64 = 200.0;

use clap::Parser;
use half::{bf16, f16};

type Res<T> = Result<T, Box<dyn Error>>;

/// A `CUtensorMap` encoded from cute-static's `make_tma_copy_desc` of the global tensor and the
/// kernel's shared tile, copied to device memory (the kernel reads it there).
fn tensor_map<T: cute_static::tma::TmaTile>(
    stream: &Arc<CudaStream>,
    dtype: Dtype,
    multicast: u32,
    rows: usize,
    k: usize,
    data: &CudaSlice<u16>,
    tile: &T,
) -> Res<CudaSlice<u64>> {
    // The operand is row-major (K-major): (rows, k):(k, 1).
    // Multicast to a cluster of `multicast` blocks: each loads 1/multicast of the box.
    let d = make_tma_copy_desc_multicast(layout!(({ rows }, { k }):({ k }, 1)), dtype.cute_name(), tile, multicast)?;
    let dtype = match d.data_type {
        6 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        9 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        t => return Err(format!("tensor map data type {t}: not a 16-bit float").into()),
    };
    let swizzle = match d.swizzle {
        0 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        1 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        2 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        3 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        s => return Err(format!("swizzle mode {s}").into()),
    };
    let l2 = match d.l2_promotion {
        0 => sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_NONE,
        1 => sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
        2 => sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        3 => sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        p => return Err(format!("L2 promotion {p}").into()),
    };
    if d.interleave != 0 || d.oob_fill != 0 {
        return Err("an interleaved map or a NaN out-of-bounds fill: not this kernel's".into());
    }
    let mut map = CUtensorMap { opaque: [0; 16] };
    let (ptr, _sync) = data.device_ptr(stream);
    d.check_global_address(ptr)?;
    // SAFETY: every array has the rank's (or rank - 1's) entries, as cute-dyn's `TmaDesc` keeps
    // them; `ptr` is a live allocation of rows * k halves; `map` is writable.
    let status = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            dtype,
            d.rank() as u32,
            ptr as *mut c_void,
            d.global_dim.as_ptr(),
            d.global_strides.as_ptr(),
            d.box_dim.as_ptr(),
            d.element_strides.as_ptr(),
            sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            l2,
            sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if status != sys::CUresult::CUDA_SUCCESS {
        return Err(format!("cuTensorMapEncodeTiled: {status:?} for {d:?}").into());
    }
    Ok(stream.clone_htod(&map.opaque)?)
}

/// The 16-bit element types: half and bfloat16.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Dtype {
    F16,
    Bf16,
}

impl Dtype {
    /// CuTe's name (the tensor map's data type).
    fn cute_name(self) -> &'static str {
        match self {
            Dtype::F16 => "half_t",
            Dtype::Bf16 => "bfloat16_t",
        }
    }
    /// `x` rounded to the type (to nearest even), as bits.
    fn bits_of(self, x: f32) -> u16 {
        match self {
            Dtype::F16 => f16::from_f32(x).to_bits(),
            Dtype::Bf16 => bf16::from_f32(x).to_bits(),
        }
    }
    /// The value of bits of the type (exact).
    fn value_of(self, h: u16) -> f32 {
        match self {
            Dtype::F16 => f16::from_bits(h).to_f32(),
            Dtype::Bf16 => bf16::from_bits(h).to_f32(),
        }
    }
    fn cublas(self) -> blas::cudaDataType {
        match self {
            Dtype::F16 => blas::cudaDataType::CUDA_R_16F,
            Dtype::Bf16 => blas::cudaDataType::CUDA_R_16BF,
        }
    }
}

/// The kernels and what they need.
struct Hgemm {
    stream: Arc<CudaStream>,
    /// Name, element type, blocks a cluster, the function, and its persistent grid: the blocks
    /// the device runs at once (the driver's occupancy, [`resident_blocks`]).
    kernels: Vec<(&'static str, Dtype, usize, CudaFunction, usize)>,
    blas: CudaBlas,
}

/// The blocks of `f` the device runs at once, `threads` threads and `smem` bytes a block: for a
/// cluster kernel (its cluster size compiled in, `.reqnctapercluster`) the driver's
/// `cuOccupancyMaxActiveClusters` times the cluster's blocks (clusters are placed on GPCs, so
/// this may be fewer than the multiprocessors), otherwise blocks a multiprocessor times the
/// multiprocessors.
fn resident_blocks(
    f: &CudaFunction,
    stream: &CudaStream,
    (cluster, threads, smem): (usize, usize, usize),
    sms: usize,
) -> Res<usize> {
    let cfg = LaunchConfig {
        grid_dim: (cluster as u32, 1, 1),
        block_dim: (threads as u32, 1, 1),
        shared_mem_bytes: smem as u32,
    };
    let blocks = if cluster > 1 {
        f.occupancy_max_active_clusters(cfg, stream)? as usize * cluster
    } else {
        f.occupancy_max_active_blocks_per_multiprocessor(threads as u32, smem, None)? as usize * sms
    };
    if blocks == 0 {
        return Err(format!("no block of {threads} threads and {smem} bytes of shared memory fits the device").into());
    }
    Ok(blocks)
}

/// One problem on the device: integer-valued `A`, `B` in {-1, 0, 1}, their tensor maps, `C`.
struct Problem {
    dtype: Dtype,
    m: usize,
    n: usize,
    k: usize,
    a: Vec<u16>,
    b: Vec<u16>,
    da: CudaSlice<u16>,
    db: CudaSlice<u16>,
    dc: CudaSlice<u16>,
    map_a: CudaSlice<u64>,
    map_b: CudaSlice<u64>,
    /// `B`'s map for a multicast to a cluster of 2 (half the box a block).
    map_b2: CudaSlice<u64>,
    /// `C`'s map for the epilogue through shared memory (64x64 boxes).
    map_c: CudaSlice<u64>,
}

/// splitmix64 of the seed and an index: the inputs' deterministic pseudo-random bits.
fn splitmix(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A deterministic integer in {-1, 0, 1} per index.
fn small_int(seed: u64, i: usize) -> f32 {
    (splitmix(seed, i) % 3) as f32 - 1.0
}

impl Hgemm {
    fn problem(&self, dtype: Dtype, m: usize, n: usize, k: usize) -> Res<Problem> {
        let a: Vec<u16> = (0..m * k).map(|i| dtype.bits_of(small_int(1, i))).collect();
        let b: Vec<u16> = (0..n * k).map(|i| dtype.bits_of(small_int(2, i))).collect();
        let da = self.stream.clone_htod(&a)?;
        let db = self.stream.clone_htod(&b)?;
        let dc = self.stream.alloc_zeros::<u16>(m * n)?;
        let map_a = tensor_map(&self.stream, dtype, 1, m, k, &da, &StageA::default())?;
        let map_b = tensor_map(&self.stream, dtype, 1, n, k, &db, &StageB::default())?;
        let map_b2 = tensor_map(&self.stream, dtype, 2, n, k, &db, &StageB::default())?;
        let map_c = tensor_map(&self.stream, dtype, 1, m, n, &dc, &CTile::default())?;
        Ok(Problem { dtype, m, n, k, a, b, da, db, dc, map_a, map_b, map_b2, map_c })
    }

    /// One launch: tiles rastered in groups of `group` row tiles, one block per tile, or
    /// `blocks` blocks taking turns (a persistent grid).
    /// With clusters of `cluster` blocks, a tile is a cluster's `cluster` row tiles, and the
    /// grid a multiple of `cluster`.
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        f: &CudaFunction,
        tma_epi: bool,
        cluster: usize,
        p: &mut Problem,
        group: usize,
        blocks: Option<usize>,
    ) -> Res<()> {
        let tiles = p.m.div_ceil(BM * cluster).div_ceil(group) * group * p.n.div_ceil(BN);
        let grid = blocks.unwrap_or(tiles * cluster).min(tiles * cluster) / cluster * cluster;
        let smem = if tma_epi { SMEM_BYTES_TMA_EPI } else { SMEM_BYTES };
        let cfg = LaunchConfig {
            grid_dim: (grid as u32, 1, 1),
            block_dim: (THREADS as u32, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        let mut l = self.stream.launch_builder(f);
        let map_b = if cluster > 1 { &p.map_b2 } else { &p.map_b };
        l.arg(&p.m).arg(&p.n).arg(&p.k).arg(&group).arg(&p.map_a).arg(map_b);
        // The epilogue through shared memory stores C with TMA (its map); the others write C.
        if tma_epi {
            l.arg(&p.map_c);
        } else {
            l.arg(&mut p.dc);
        }
        // SAFETY: the kernel's signature (m, n, k, group, map_a, map_b, c) with maps of A and B and a C
        // of m * n halves; k is a multiple of 8 (checked by the map's 16-byte strides).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// cuBLAS: the same product, `C = A · Bᵀ` row-major, as column-major `Cᵀ = B · Aᵀ`
    /// (`cublasGemmEx(T, N)`, fp16 or bf16 in and out, fp32 compute, the default algorithm).
    fn cublas(&self, p: &mut Problem) -> Res<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (a, _sa) = p.da.device_ptr(&self.stream);
        let (b, _sb) = p.db.device_ptr(&self.stream);
        let (c, _sc) = cudarc::driver::DevicePtrMut::device_ptr_mut(&mut p.dc, &self.stream);
        // SAFETY: the buffers hold the sizes the dimensions and leading dimensions describe.
        unsafe {
            cudarc::cublas::result::gemm_ex(
                *self.blas.handle(),
                blas::cublasOperation_t::CUBLAS_OP_T,
                blas::cublasOperation_t::CUBLAS_OP_N,
                p.n as i32,
                p.m as i32,
                p.k as i32,
                &alpha as *const f32 as *const c_void,
                b as *const c_void,
                p.dtype.cublas(),
                p.k as i32,
                a as *const c_void,
                p.dtype.cublas(),
                p.k as i32,
                &beta as *const f32 as *const c_void,
                c as *mut c_void,
                p.dtype.cublas(),
                p.n as i32,
                blas::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                blas::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }?;
        Ok(())
    }

    /// Median milliseconds of each of `n` runs (`run(i)` launches the `i`-th), each in its own
    /// steady state: the run alone keeps the GPU busy for [`WARM_MS`] (clocks up from idle and
    /// down to what its own power draw sustains), then `launches` launches are timed. cuBLAS
    /// is timed the same way; timed first after the host filled the matrices, it used to run on
    /// a cool GPU's boost clocks, and a kernel after a lighter one on the lighter one's.
    fn time_all(&self, launches: usize, n: usize, mut run: impl FnMut(usize) -> Res<()>) -> Res<Vec<f64>> {
        let event = || self.stream.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT));
        let mut medians = Vec::with_capacity(n);
        for i in 0..n {
            let mut warm = 0.0;
            while warm < WARM_MS {
                let start = event()?;
                run(i)?;
                let end = event()?;
                end.synchronize()?;
                warm += f64::from(start.elapsed_ms(&end)?);
            }
            let mut ms = Vec::with_capacity(launches);
            for _ in 0..launches {
                let start = event()?;
                run(i)?;
                let end = event()?;
                end.synchronize()?;
                ms.push(f64::from(start.elapsed_ms(&end)?));
            }
            ms.sort_by(f64::total_cmp);
            medians.push(ms[ms.len() / 2]);
        }
        Ok(medians)
    }
}

/// `C = A · Bᵀ` on the host, exact for these integer-valued inputs.
fn host_reference(p: &Problem) -> Vec<f32> {
    let a: Vec<f32> = p.a.iter().map(|&h| p.dtype.value_of(h)).collect();
    let b: Vec<f32> = p.b.iter().map(|&h| p.dtype.value_of(h)).collect();
    let mut c = vec![0.0f32; p.m * p.n];
    for i in 0..p.m {
        let ar = &a[i * p.k..(i + 1) * p.k];
        for j in 0..p.n {
            let br = &b[j * p.k..(j + 1) * p.k];
            c[i * p.n + j] = ar.iter().zip(br).map(|(x, y)| x * y).sum();
        }
    }
    c
}

/// The index and values of the first difference, or `None`.
fn first_difference(dtype: Dtype, got: &[u16], want: impl Iterator<Item = u16>) -> Option<(usize, f32, f32)> {
    got.iter()
        .zip(want)
        .enumerate()
        .find(|(_, (g, w))| g != &w)
        .map(|(i, (g, w))| (i, dtype.value_of(*g), dtype.value_of(w)))
}

/// The Hopper HGEMM's host: exact checks of every kernel of the PTX, then timing against
/// cuBLAS in the same process.
#[derive(Parser)]
#[command(name = "cute-gpu")]
struct Args {
    /// The kernels' PTX (scripts/gpu/build.sh).
    #[arg(default_value = "gpu/kernels.ptx")]
    ptx: String,
    /// Launches a timing (the median is reported).
    #[arg(long, default_value_t = 50)]
    launches: usize,
    /// Write the checks and timings as JSON.
    #[arg(long)]
    json: Option<String>,
    /// Leave `hgemm_sm90_cluster` out (it runs by default: level with `hgemm_sm90` since its
    /// remote arrives take the default scope, docs/gpu.md).
    #[arg(long)]
    no_cluster: bool,
    /// Accepted for older command lines: the cluster kernel runs by default.
    #[arg(long, hide = true)]
    cluster: bool,
    /// Only the attention kernel (`attention_fwd`): its checks and timings.
    #[arg(long)]
    attention_only: bool,
    /// Leave the attention kernel out.
    #[arg(long)]
    no_attention: bool,
}

fn main() -> Res<()> {
    let args = Args::parse();
    let (ptx, launches, json, with_cluster) = (args.ptx, args.launches, args.json, !args.no_cluster);
    let ctx = CudaContext::new(0)?;
    let sms = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
    println!("device: {} ({} SMs, compute capability {:?})", ctx.name()?, sms, ctx.compute_capability()?);
    let stream = ctx.default_stream();
    let module = ctx.load_module(cudarc::nvrtc::Ptx::from_src(std::fs::read_to_string(&ptx)?))?;
    let mut kernels = Vec::new();
    for (name, dtype, cluster) in [
        ("hgemm_sm90", Dtype::F16, 1),
        ("hgemm_sm90_by_hand", Dtype::F16, 1),
        ("hgemm_sm90_cluster", Dtype::F16, 2),
        ("hgemm_sm90_bf16", Dtype::Bf16, 1),
        ("hgemm_sm90_tma_epi", Dtype::F16, 1),
        ("hgemm_sm90_bf16_tma_epi", Dtype::Bf16, 1),
        ("hgemm_sm90_tma_epi_cluster", Dtype::F16, 2),
        ("hgemm_sm90_bf16_tma_epi_cluster", Dtype::Bf16, 2),
    ] {
        if name.ends_with("_cluster") && !with_cluster {
            continue;
        }
        let f = module.load_function(name)?;
        let smem = if name.contains("_tma_epi") { SMEM_BYTES_TMA_EPI } else { SMEM_BYTES };
        f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem as i32)?;
        let resident = resident_blocks(&f, &stream, (cluster, THREADS, smem), sms as usize)?;
        println!("{name}: persistent grid of {resident} blocks (occupancy, clusters of {cluster})");
        kernels.push((name, dtype, cluster, f, resident));
    }
    let h = Hgemm { blas: CudaBlas::new(stream.clone())?, stream, kernels };
    let mut failures = 0;
    let mut record = Vec::new();
    if !args.no_attention {
        let mut fs = Vec::new();
        for (name, dtype, d) in [
            ("attention_fwd", Dtype::F16, 128),
            ("attention_fwd_serial", Dtype::F16, 128),
            ("attention_fwd_pingpong", Dtype::F16, 128),
            ("attention_fwd_serial_pingpong", Dtype::F16, 128),
            ("attention_fwd_by_hand", Dtype::F16, 128),
            ("attention_fwd_bf16", Dtype::Bf16, 128),
            ("attention_fwd_hd64", Dtype::F16, 64),
            ("attention_fwd_persistent", Dtype::F16, 128),
        ] {
            let f = module.load_function(name)?;
            let smem = attention::smem_bytes(d);
            f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem as i32)?;
            // A persistent kernel's grid: the blocks the device runs at once.
            let grid = if name.contains("_persistent") {
                let blocks = resident_blocks(&f, &h.stream, (1, attention::tiles::THREADS, smem), sms as usize)?;
                println!("{name}: persistent grid of {blocks} blocks (occupancy)");
                Some(blocks)
            } else {
                None
            };
            fs.push((name, dtype, d, f, grid));
        }
        let (bad, rec) = attention::run(&h.stream, &fs, &|n, run| h.time_all(launches, n, run))?;
        failures += bad;
        record.extend(rec);
    }
    if args.attention_only {
        if let Some(path) = json {
            std::fs::write(path, format!("[{}]\n", record.join(",\n")))?;
        }
        return if failures > 0 { Err(format!("{failures} wrong results").into()) } else { Ok(()) };
    }

    // Exact checks: the host loop where it is quick, cuBLAS on the large sizes (the same bits:
    // integer sums, exact in fp32 accumulators, rounded once to the output type as we round).
    for &(m, n, k) in &[
        (129, 136, 72),
        (1000, 1000, 1000),
        (128, 256, 64),
        (4096, 4096, 4104),
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        // LLM-like: an MLP's up and down projections.
        (8192, 14336, 4096),
        (8192, 4096, 14336),
    ] {
        for dtype in [Dtype::F16, Dtype::Bf16] {
            let mut p = h.problem(dtype, m, n, k)?;
            let want: Vec<u16> = if m * n * k <= 1 << 30 {
                host_reference(&p).into_iter().map(|x| dtype.bits_of(x)).collect()
            } else {
                h.cublas(&mut p)?;
                h.stream.clone_dtoh(&p.dc)?
            };
            let oracle = if m * n * k <= 1 << 30 { "host loop" } else { "cuBLAS" };
            for (name, _, cluster, f, resident) in h.kernels.iter().filter(|x| x.1 == dtype) {
                for (group, blocks) in [(1, None), (5, None), (RASTER, None), (5, Some(14)), (RASTER, Some(*resident))]
                {
                    h.stream.memset_zeros(&mut p.dc)?;
                    h.launch(f, name.contains("_tma_epi"), *cluster, &mut p, group, blocks)?;
                    let got = h.stream.clone_dtoh(&p.dc)?;
                    match first_difference(dtype, &got, want.iter().copied()) {
                    None => println!("exact  {name} {m}x{n}x{k} (raster {group}, {blocks:?} blocks): all {} elements equal ({oracle})", m * n),
                    Some((i, g, w)) => {
                        failures += 1;
                        println!("WRONG  {name} {m}x{n}x{k} (raster {group}, {blocks:?} blocks): C[{}][{}] = {g}, {oracle} {w}", i / n, i % n);
                    }
                }
                }
            }
            record.push(format!("{{\"check\":\"{m}x{n}x{k} {dtype:?}\",\"oracle\":\"{oracle}\"}}"));
        }
    }

    // Timing: medians of `launches` launches each, cuBLAS in the same run.
    println!("timing: median of {launches} launches (CUDA events), each after {WARM_MS} ms of its own launches, fp16 or bf16 in/out, fp32 accumulation");
    let shapes = [(4096usize, 4096usize, 4096usize), (8192, 8192, 8192), (8192, 14336, 4096), (8192, 4096, 14336)];
    for (dtype, (m, n, k)) in [Dtype::F16, Dtype::Bf16].into_iter().flat_map(|d| shapes.map(|s| (d, s))) {
        let mut p = h.problem(dtype, m, n, k)?;
        let flops = 2.0 * (m * n * k) as f64;
        // cuBLAS, then every kernel at each raster and grid, timed together (`time_all`).
        let mut runs = Vec::new();
        for (name, _, cluster, f, resident) in h.kernels.iter().filter(|x| x.1 == dtype) {
            // A cluster's tile is two row tiles: half as many groups for the same rows.
            let (g1, g2) = if *cluster > 1 { (4, 8) } else { (8, RASTER) };
            for (group, blocks) in [(1, None), (g1, None), (g2, None), (g1, Some(*resident)), (g2, Some(*resident))] {
                runs.push((name, *cluster, f, group, blocks));
            }
        }
        let ms = h.time_all(launches, runs.len() + 1, |i| match i.checked_sub(1) {
            None => h.cublas(&mut p),
            Some(r) => {
                let (name, cluster, f, group, blocks) = runs[r];
                h.launch(f, name.contains("_tma_epi"), cluster, &mut p, group, blocks)
            }
        })?;
        let blas_ms = ms[0];
        let mut line = format!("{m}x{n}x{k} {dtype:?}: cuBLAS {blas_ms:.3} ms ({:.0} TFLOP/s)", flops / blas_ms / 1e9);
        let size = if m == n && n == k { format!("{m}") } else { format!("\"{m}x{n}x{k}\"") };
        let mut js = format!("{{\"size\":{size},\"dtype\":\"{dtype:?}\",\"cublas_ms\":{blas_ms:.4}");
        for (&(name, _, _, group, blocks), ms) in runs.iter().zip(&ms[1..]) {
            let share = 100.0 * blas_ms / ms;
            let grid = if blocks.is_some() { "persistent" } else { "a block a tile" };
            line += &format!(
                "\n  {name} raster {group}, {grid}: {ms:.3} ms ({:.0} TFLOP/s, {share:.1}% of cuBLAS)",
                flops / ms / 1e9
            );
            js += &format!(
                ",\"{name}_raster{group}_{}_ms\":{ms:.4}",
                if blocks.is_some() { "persistent" } else { "tiles" }
            );
        }
        println!("{line}");
        record.push(js + "}");
    }
    if let Some(path) = json {
        std::fs::write(path, format!("[{}]\n", record.join(",\n")))?;
    }
    if failures > 0 {
        return Err(format!("{failures} wrong results").into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::tiles::*;
    use cute_static::gmma::{GmmaTile, K};
    use cute_static::layout::Idx2Crd;
    use cute_static::typenum::U16;
    use cute_static::{shape, tiler, Cons, Nil};

    /// The inputs and checks' conversions (the `half` crate): IEEE 754 binary16 1.0 = 0x3c00,
    /// -2.0 = 0xc000, 2048 = 0x6800, 65504 = 0x7bff, 2^-24 = 0x0001, 1/3 to 0x3555, 65520 to
    /// infinity; bfloat16 1.0 = 0x3f80, 257 to even (0x4380), 259 up (0x4382); the integers the
    /// exact checks use round-trip.
    #[test]
    fn conversions_are_ieee() {
        use super::Dtype::{Bf16, F16};
        for (x, h) in [
            (1.0f32, 0x3c00u16),
            (-2.0, 0xc000),
            (2048.0, 0x6800),
            (65504.0, 0x7bff),
            (2f32.powi(-24), 1),
            (1.0 / 3.0, 0x3555),
            (65520.0, 0x7c00),
        ] {
            assert_eq!(F16.bits_of(x), h, "{x}");
        }
        for (x, h) in [(1.0f32, 0x3f80u16), (-2.0, 0xc000), (257.0, 0x4380), (259.0, 0x4382)] {
            assert_eq!(Bf16.bits_of(x), h, "{x}");
        }
        for i in -256..=256 {
            assert_eq!(F16.value_of(F16.bits_of(i as f32)), i as f32);
            assert_eq!(Bf16.value_of(Bf16.bits_of(i as f32)), i as f32);
        }
    }

    /// The accumulator layout is the PTX ISA's `wgmma .m64nNk16` D fragment (figure "WGMMA
    /// .m64nNk16 register fragment layout for accumulator matrix D"): thread `t` of the
    /// warpgroup, value `v`: row `16 (t / 32) + (t % 32) / 4 + 8 (v / 2 % 2)`, column
    /// `8 (v / 4) + 2 (t % 4) + v % 2`; and its thread and value parts add, as the kernel's
    /// epilogue assumes.
    #[test]
    fn accumulator_layout_is_the_wgmma_fragment() {
        let coord = |t: usize, v: usize| {
            let Cons(r, Cons(c, Nil)) =
                shape!((64, 256)).idx2crd(AccLayout::default().call_coord(&shape!(({ t }, { v }))));
            (r, c)
        };
        for t in 0..128 {
            for v in 0..128 {
                let want = (16 * (t / 32) + t % 32 / 4 + 8 * (v / 2 % 2), 8 * (v / 4) + 2 * (t % 4) + v % 2);
                assert_eq!(coord(t, v), want, "thread {t} value {v}");
                let ((rt, ct), (rv, cv)) = (coord(t, 0), coord(0, v));
                assert_eq!((rt + rv, ct + cv), want);
            }
        }
    }

    /// The epilogue through shared memory (`hgemm_sm90_tma_epi`) hands `stmatrix.x4` its
    /// register `i` of 16-column group `c` as the accumulators `8c + 2i` and `+1`: by the PTX
    /// ISA (§9.7.14.5.16), register `i` of lane `l` is row `l / 4`, columns `2 (l % 4)` and
    /// `+1` of matrix `i`, the matrices being rows 0-7 and 8-15 of columns 0-7, then of
    /// columns 8-15 of the warp's 16 rows by those 16 columns. Those are the values' places in
    /// the atom's C layout.
    #[test]
    fn epilogue_matrices_are_the_accumulators() {
        let coord = |t: usize, v: usize| {
            let Cons(r, Cons(c, Nil)) =
                shape!((64, 256)).idx2crd(AccLayout::default().call_coord(&shape!(({ t }, { v }))));
            (r, c)
        };
        for t in 0..128 {
            let (warp, lane) = (t / 32, t % 32);
            for c in 0..16 {
                for i in 0..4 {
                    let (row, col) = (16 * warp + 8 * (i % 2) + lane / 4, 16 * c + 8 * (i / 2) + 2 * (lane % 4));
                    assert_eq!(coord(t, 8 * c + 2 * i), (row, col), "thread {t}, group {c}, register {i}");
                    assert_eq!(coord(t, 8 * c + 2 * i + 1), (row, col + 1));
                }
            }
        }
    }

    /// The descriptors the kernel reads off the rings are the PTX ISA's canonical K-major
    /// 128-byte-swizzle descriptors (matrix-descriptor format: start address >> 4 in bits 0-13,
    /// leading byte offset >> 4 in 16-29 (1: unused when swizzled, as CuTe sets it), stride byte
    /// offset >> 4 in 32-45 (1024: eight 128-byte rows), swizzle mode 1 = 128B in bits 62-63),
    /// each k-step 32 bytes into the 128-byte row: what the hand-indexed twin writes.
    #[test]
    fn ring_descriptors_are_canonical() {
        let hand = |start: u32| (1u64 << 62) | (64u64 << 32) | (1u64 << 16) | u64::from((start >> 4) & 0x3fff);
        let base = 0x400;
        for s in 0..STAGES {
            for kk in 0..BK / 16 {
                for w in 0..CONSUMERS {
                    let d = GmmaTile::<_, _, K, U16>::gmma_desc_of_tile(
                        SmemA::default(),
                        tiler!(<64,16>),
                        &Cons(w, Cons(kk, Cons(s, Nil))),
                        base,
                    );
                    assert_eq!(d, hand(base + (s * BM * BK * 2 + w * 64 * 128 + kk * 32) as u32));
                }
                let d = GmmaTile::<_, _, K, U16>::gmma_desc_of_tile(
                    SmemB::default(),
                    tiler!(<256,16>),
                    &Cons(0usize, Cons(kk, Cons(s, Nil))),
                    base,
                );
                assert_eq!(d, hand(base + (s * BN * BK * 2 + kk * 32) as u32));
            }
        }
    }

    /// The tensor maps: CuTe C++ 4.2's `make_tma_copy` of a K-major half matrix and a 128x64
    /// SW128 tile encodes box (64,128), 128-byte swizzle (tests/data/tma); the B tile's box is
    /// (64,256), and a stage is the box's bytes.
    #[test]
    fn tensor_map_boxes() {
        let d = cute_static::tma::make_tma_copy_desc(
            cute_static::layout!(({ 1000usize }, { 512usize }):({ 512usize }, 1)),
            "half_t",
            &StageA::default(),
        )
        .unwrap();
        assert_eq!((d.box_dim, d.swizzle, d.global_strides), (vec![64, 128], 3, vec![1024]));
        let d = cute_static::tma::make_tma_copy_desc(
            cute_static::layout!(({ 4096usize }, { 4104usize }):({ 4104usize }, 1)),
            "half_t",
            &StageB::default(),
        )
        .unwrap();
        assert_eq!((d.box_dim, d.swizzle, d.global_dim), (vec![64, 256], 3, vec![4104, 4096]));
    }
}
