//! `cute-gpu`: runs the Hopper GEMMs of `gpu/` (`hgemm_sm90` and its hand-indexed twin, the
//! bf16 and e4m3 kernels, the attention kernels) on the GPU from Rust: loads the PTX, encodes
//! the TMA tensor maps whose parameters cute-static derives from the kernel's own shared-memory
//! layouts, launches, checks the results exactly (integer-valued inputs: against a host loop,
//! or against cuBLAS or cuBLASLt where the host loop would take minutes), and times the kernels
//! and the baselines in the same run (CUDA events, medians).
//!
//! ```text
//! cute-gpu [PTX] [--launches N] [--json FILE] [--no-cluster] [--fp8-only | --no-fp8]
//! ```
//! `PTX` defaults to `gpu/kernels.ptx` (`scripts/gpu/build.sh`). The CUDA driver and cuBLAS are
//! loaded at run time; set `LD_LIBRARY_PATH` where cuBLAS is not on the loader's path.

use std::error::Error;
use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublas::{sys as blas, CudaBlas};
use cudarc::driver::sys::{self, CUtensorMap};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg,
    ValidAsZeroBits,
};
use cute_static::layout;
use cute_static::tma::make_tma_copy_desc_multicast;

#[path = "../../gpu/src/hgemm_sm90/tiles.rs"]
#[allow(dead_code)]
mod tiles;
use tiles::*;

mod attention;
mod lt;

/// Milliseconds a run keeps the GPU busy before it is timed (its steady state).
const WARM_MS: f64 = 200.0;

use clap::Parser;
use half::{bf16, f16};

type Res<T> = Result<T, Box<dyn Error>>;

/// A `CUtensorMap` encoded from cute-static's `make_tma_copy_desc` of the global tensor and the
/// kernel's shared tile, copied to device memory (the kernel reads it there).
fn tensor_map<T: cute_static::tma::TmaTile, E>(
    stream: &Arc<CudaStream>,
    dtype: Dtype,
    multicast: u32,
    rows: usize,
    k: usize,
    data: &CudaSlice<E>,
    tile: &T,
) -> Res<CudaSlice<u64>> {
    // The operand is row-major (K-major): (rows, k):(k, 1).
    // Multicast to a cluster of `multicast` blocks: each loads 1/multicast of the box.
    let d = make_tma_copy_desc_multicast(layout!(({ rows }, { k }):({ k }, 1)), dtype.cute_name(), tile, multicast)?;
    encode_tensor_map(stream, d, data)
}

/// The `CUtensorMap` of descriptor `d` over `data`, copied to device memory.
fn encode_tensor_map<E>(
    stream: &Arc<CudaStream>,
    d: cute_static::cute_dyn::tma::TmaDesc,
    data: &CudaSlice<E>,
) -> Res<CudaSlice<u64>> {
    let dtype = match d.data_type {
        0 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
        6 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        9 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        t => return Err(format!("tensor map data type {t}: not a 16-bit or 8-bit float").into()),
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
    // them; `ptr` is a live allocation the descriptor's tensor lies in (the callers' `data`
    // holds the global tensor the descriptor was made from); `map` is writable.
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

/// The element types: half and bfloat16 (in and out), and the 8-bit float e4m3 (in; its
/// products are bfloat16).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Dtype {
    F16,
    Bf16,
    E4M3,
}

impl Dtype {
    /// CuTe's name (the tensor map's data type).
    fn cute_name(self) -> &'static str {
        match self {
            Dtype::F16 => "half_t",
            Dtype::Bf16 => "bfloat16_t",
            Dtype::E4M3 => "float_e4m3_t",
        }
    }
    /// `x` rounded to the type (to nearest even), as bits.
    fn bits_of(self, x: f32) -> u16 {
        match self {
            Dtype::F16 => f16::from_f32(x).to_bits(),
            Dtype::Bf16 => bf16::from_f32(x).to_bits(),
            Dtype::E4M3 => u16::from(e4m3_of(x)),
        }
    }
    /// The value of bits of the type (exact).
    fn value_of(self, h: u16) -> f32 {
        match self {
            Dtype::F16 => f16::from_bits(h).to_f32(),
            Dtype::Bf16 => bf16::from_bits(h).to_f32(),
            Dtype::E4M3 => e4m3_value(h as u8),
        }
    }
    /// The type of `C` (the kernels' and the baseline's output).
    fn out(self) -> Dtype {
        match self {
            Dtype::E4M3 => Dtype::Bf16,
            d => d,
        }
    }
    /// `k` as the type's TMA maps and baseline take it: e4m3 rows are multiples of 16 bytes.
    fn k_for(self, k: usize) -> usize {
        match self {
            Dtype::E4M3 => k.next_multiple_of(16),
            _ => k,
        }
    }
    fn cublas(self) -> Res<blas::cudaDataType> {
        match self {
            Dtype::F16 => Ok(blas::cudaDataType::CUDA_R_16F),
            Dtype::Bf16 => Ok(blas::cudaDataType::CUDA_R_16BF),
            Dtype::E4M3 => Err("cublasGemmEx does not take e4m3: the baseline is cuBLASLt".into()),
        }
    }
}

/// The value of an OCP 8-bit float E4M3 (FN: no infinities): sign, 4 exponent bits of bias 7,
/// 3 mantissa bits; exponent 0 subnormal (`m / 8 * 2^-6`); `S.1111.111` NaN.
fn e4m3_value(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (i32::from(b >> 3 & 0xf), f32::from(b & 7));
    if e == 15 && m == 7.0 {
        return f32::NAN;
    }
    sign * if e == 0 { m / 8.0 * 2f32.powi(-6) } else { (1.0 + m / 8.0) * 2f32.powi(e - 7) }
}

/// `x` to the nearest E4M3 (ties to the even code), saturating at ±448: the code of least
/// distance, found among all 254 finite ones (the inputs are few and small).
fn e4m3_of(x: f32) -> u8 {
    (0..=255u8)
        .filter(|&b| !e4m3_value(b).is_nan())
        .min_by(|&p, &q| {
            let (dp, dq) = ((e4m3_value(p) - x).abs(), (e4m3_value(q) - x).abs());
            dp.total_cmp(&dq).then((p & 1).cmp(&(q & 1)))
        })
        .unwrap_or(0)
}

/// A matrix element's storage: the bits of a 16-bit or an 8-bit float.
trait Storage: DeviceRepr + ValidAsZeroBits + Copy + Unpin + 'static {
    fn from_bits(b: u16) -> Self;
    fn bits(self) -> u16;
}
impl Storage for u16 {
    fn from_bits(b: u16) -> Self {
        b
    }
    fn bits(self) -> u16 {
        self
    }
}
impl Storage for u8 {
    fn from_bits(b: u16) -> Self {
        b as u8
    }
    fn bits(self) -> u16 {
        u16::from(self)
    }
}

/// The kernels and what they need.
struct Hgemm {
    stream: Arc<CudaStream>,
    /// Name, element type, blocks a cluster, the function, and its persistent grid: the blocks
    /// the device runs at once (the driver's occupancy, [`resident_blocks`]).
    kernels: Vec<(&'static str, Dtype, usize, CudaFunction, usize)>,
    blas: CudaBlas,
    lt: lt::Lt,
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

/// One problem on the device: integer-valued `A`, `B` in {-1, 0, 1} of type `dtype` (stored as
/// `E`), their tensor maps, `C` of `dtype.out()`.
struct Problem<E> {
    dtype: Dtype,
    m: usize,
    n: usize,
    k: usize,
    a: Vec<E>,
    b: Vec<E>,
    da: CudaSlice<E>,
    db: CudaSlice<E>,
    dc: CudaSlice<u16>,
    map_a: CudaSlice<u64>,
    /// `A`'s map for the ping-pong kernels (a consumer's 64-row box), and for a multicast to
    /// a 1x2 cluster (half the box a block).
    map_a64: CudaSlice<u64>,
    map_b: CudaSlice<u64>,
    /// `B`'s map for a multicast to a cluster of 2 (half the box a block).
    map_b2: CudaSlice<u64>,
    /// `C`'s map for the epilogue through shared memory (64x64 boxes).
    map_c: CudaSlice<u64>,
    /// cuBLASLt's plans for e4m3 (fast accumulation, then promoted), built on first use.
    plans: Option<(lt::Plan, lt::Plan)>,
}

/// A GEMM launch's grid.
#[derive(Clone, Copy, Debug)]
enum Grid {
    /// One block (or cluster) a tile.
    Tiles,
    /// This many blocks taking the tiles in turn (the resident grid, or fewer).
    Persistent(usize),
    /// Persistent on at most this many blocks, in as many waves as they need, but with the
    /// tiles spread evenly over the waves: 512 tiles on 132 resident blocks are 4 waves, so 128
    /// blocks (a public Hopper worklog's "128 blocks rather than 132"; fewer SMs drawing power).
    Balanced(usize),
}

impl Grid {
    fn describe(self) -> &'static str {
        match self {
            Grid::Tiles => "a block a tile",
            Grid::Persistent(_) => "persistent",
            Grid::Balanced(_) => "persistent, balanced waves",
        }
    }
    /// The JSON key's part.
    fn key(self) -> &'static str {
        match self {
            Grid::Tiles => "tiles",
            Grid::Persistent(_) => "persistent",
            Grid::Balanced(_) => "balanced",
        }
    }
}

/// What a GEMM kernel's name says of its launch.
struct Shape {
    /// `C` is stored by TMA (its map the last argument), not through a pointer.
    tma_epi: bool,
    /// Ping-pong consumers: `A`'s map has a 64-row box.
    pingpong: bool,
    /// A 1x2 cluster: its blocks take column tiles side by side and multicast `A` (its map's
    /// box half a row tile, 64 rows), each loading its own `B`.
    along_n: bool,
    /// Rows of a block's tile (a cluster's is `cluster` of them).
    bm: usize,
    /// Dynamic shared memory a block.
    smem: usize,
}

impl Shape {
    fn of(name: &str) -> Shape {
        let along_n = name.ends_with("_cluster1x2");
        if name.contains("_pingpong") {
            Shape { tma_epi: true, pingpong: true, along_n, bm: BM / CONSUMERS, smem: SMEM_BYTES_PP }
        } else if name.contains("_tma_epi") {
            Shape { tma_epi: true, pingpong: false, along_n, bm: BM, smem: SMEM_BYTES_TMA_EPI }
        } else {
            Shape { tma_epi: false, pingpong: false, along_n, bm: BM, smem: SMEM_BYTES }
        }
    }
}

/// splitmix64 of the seed and an index: the inputs' deterministic pseudo-random bits.
fn splitmix(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A deterministic integer in {-1, 0, 1} per index, as its place in that list (0, 1 or 2).
fn small_int(seed: u64, i: usize) -> usize {
    (splitmix(seed, i) % 3) as usize
}

impl Hgemm {
    fn problem<E: Storage>(&self, dtype: Dtype, m: usize, n: usize, k: usize) -> Res<Problem<E>> {
        // The three values' bits, converted once (e4m3's conversion searches its codes).
        let bits = [-1.0f32, 0.0, 1.0].map(|x| E::from_bits(dtype.bits_of(x)));
        let a: Vec<E> = (0..m * k).map(|i| bits[small_int(1, i)]).collect();
        let b: Vec<E> = (0..n * k).map(|i| bits[small_int(2, i)]).collect();
        let da = self.stream.clone_htod(&a)?;
        let db = self.stream.clone_htod(&b)?;
        let dc = self.stream.alloc_zeros::<u16>(m * n)?;
        let s = &self.stream;
        // The maps' boxes are the kernel's stages (8-bit: 128x128 and 256x128 bytes).
        let (map_a, map_a64, map_b, map_b2) = if dtype == Dtype::E4M3 {
            let (ta, tb) = (Stage8A::default(), Stage8B::default());
            (
                tensor_map(s, dtype, 1, m, k, &da, &ta)?,
                tensor_map(s, dtype, 1, m, k, &da, &Stage8PpA::default())?,
                tensor_map(s, dtype, 1, n, k, &db, &tb)?,
                tensor_map(s, dtype, 2, n, k, &db, &tb)?,
            )
        } else {
            let (ta, tb) = (StageA::default(), StageB::default());
            (
                tensor_map(s, dtype, 1, m, k, &da, &ta)?,
                tensor_map(s, dtype, 1, m, k, &da, &StagePpA::default())?,
                tensor_map(s, dtype, 1, n, k, &db, &tb)?,
                tensor_map(s, dtype, 2, n, k, &db, &tb)?,
            )
        };
        let map_c = tensor_map(s, dtype.out(), 1, m, n, &dc, &CTile::default())?;
        Ok(Problem { dtype, m, n, k, a, b, da, db, dc, map_a, map_a64, map_b, map_b2, map_c, plans: None })
    }

    /// One launch of kernel `name`: tiles rastered in groups of `group` row tiles, on `grid`.
    /// With clusters of `cluster` blocks, a tile is a cluster's `cluster` row tiles (or, 1x2,
    /// column tiles), and the grid a multiple of `cluster`. A ping-pong kernel's tiles are 64
    /// rows (a block's two consumers take them in turn).
    #[allow(clippy::too_many_arguments)]
    fn launch<E: Storage>(
        &self,
        name: &str,
        f: &CudaFunction,
        cluster: usize,
        p: &mut Problem<E>,
        group: usize,
        grid: Grid,
    ) -> Res<()> {
        let Shape { tma_epi, pingpong, along_n, bm, smem } = Shape::of(name);
        // Tiles (a cluster's, with clusters), the last raster group's included.
        let tiles = Raster::new((p.m, p.n), bm, group, cluster, along_n).units();
        let units = match grid {
            Grid::Tiles => tiles,
            Grid::Persistent(blocks) => (blocks / cluster).max(1),
            // As many waves as the resident grid takes, each as full as the tiles allow.
            Grid::Balanced(blocks) => tiles.div_ceil(tiles.div_ceil((blocks / cluster).max(1))),
        };
        let grid = units.min(tiles) * cluster;
        let cfg = LaunchConfig {
            grid_dim: (grid as u32, 1, 1),
            block_dim: (THREADS as u32, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        let mut l = self.stream.launch_builder(f);
        let map_b = if cluster > 1 && !along_n { &p.map_b2 } else { &p.map_b };
        let map_a = if pingpong || along_n { &p.map_a64 } else { &p.map_a };
        l.arg(&p.m).arg(&p.n).arg(&p.k).arg(&group).arg(map_a).arg(map_b);
        // The epilogue through shared memory stores C with TMA (its map); the others write C.
        if tma_epi {
            l.arg(&p.map_c);
        } else {
            l.arg(&mut p.dc);
        }
        // SAFETY: the kernel's signature (m, n, k, group, map_a, map_b, c) with maps of A and B of
        // its element type and a C of m * n 16-bit elements; k's rows are multiples of 16 bytes
        // (checked by the maps' strides).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// cuBLAS: the same product, `C = A · Bᵀ` row-major, as column-major `Cᵀ = B · Aᵀ`
    /// (`cublasGemmEx(T, N)`, fp16 or bf16 in and out, fp32 compute, the default algorithm).
    fn cublas<E: Storage>(&self, p: &mut Problem<E>) -> Res<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (a, _sa) = p.da.device_ptr(&self.stream);
        let (b, _sb) = p.db.device_ptr(&self.stream);
        let (c, _sc) = cudarc::driver::DevicePtrMut::device_ptr_mut(&mut p.dc, &self.stream);
        let dt = p.dtype.cublas()?;
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
                dt,
                p.k as i32,
                a as *const c_void,
                dt,
                p.k as i32,
                &beta as *const f32 as *const c_void,
                c as *mut c_void,
                dt,
                p.n as i32,
                blas::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                blas::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }?;
        Ok(())
    }

    /// The baseline: cuBLAS for 16-bit elements, cuBLASLt for e4m3 (its first plan, fast
    /// accumulation, as the kernels accumulate; `promoted`: its second).
    fn baseline<E: Storage>(&self, p: &mut Problem<E>, promoted: bool) -> Res<()> {
        if p.dtype == Dtype::E4M3 && p.plans.is_none() {
            // Built on first use: cuBLASLt's fp8 refuses some ragged shapes the kernels take.
            let plan = |fast| {
                lt::Plan::e4m3(&self.lt, (p.m, p.n, p.k), fast)
                    .map_err(|e| format!("cuBLASLt e4m3 {}x{}x{}: {e}", p.m, p.n, p.k))
            };
            p.plans = Some((plan(true)?, plan(false)?));
        }
        match &p.plans {
            Some((fast, slow)) => {
                let plan = if promoted { slow } else { fast };
                plan.run(&self.lt, &self.stream, &p.da, &p.db, &mut p.dc)
            }
            None => self.cublas(p),
        }
    }

    /// Every kernel of `dtype` at each raster and grid on one problem, against the host loop
    /// (small sizes) or the baseline; the number of wrong results.
    fn check<E: Storage>(
        &self,
        dtype: Dtype,
        (m, n, k): (usize, usize, usize),
        record: &mut Vec<String>,
    ) -> Res<usize> {
        let out = dtype.out();
        let mut p = self.problem::<E>(dtype, m, n, k)?;
        let small = m * n * k <= 1 << 30;
        let want: Vec<u16> = if small {
            host_reference(&p).into_iter().map(|x| out.bits_of(x)).collect()
        } else {
            self.baseline(&mut p, false)?;
            self.stream.clone_dtoh(&p.dc)?
        };
        let oracle = match (small, dtype) {
            (true, _) => "host loop",
            (false, Dtype::E4M3) => "cuBLASLt",
            (false, _) => "cuBLAS",
        };
        let mut failures = 0;
        for (name, _, cluster, f, resident) in self.kernels.iter().filter(|x| x.1 == dtype) {
            let configs = [
                (1, Grid::Tiles),
                (5, Grid::Tiles),
                (RASTER, Grid::Tiles),
                (5, Grid::Persistent(14)),
                (RASTER, Grid::Persistent(*resident)),
                (RASTER, Grid::Balanced(*resident)),
            ];
            for (group, blocks) in configs {
                self.stream.memset_zeros(&mut p.dc)?;
                self.launch(name, f, *cluster, &mut p, group, blocks)?;
                let got = self.stream.clone_dtoh(&p.dc)?;
                let run = format!("{name} {m}x{n}x{k} (raster {group}, {blocks:?} blocks)");
                match first_difference(out, &got, want.iter().copied()) {
                    None => println!("exact  {run}: all {} elements equal ({oracle})", m * n),
                    Some((i, g, w)) => {
                        failures += 1;
                        println!("WRONG  {run}: C[{}][{}] = {g}, {oracle} {w}", i / n, i % n);
                    }
                }
            }
        }
        record.push(format!("{{\"check\":\"{m}x{n}x{k} {dtype:?}\",\"oracle\":\"{oracle}\"}}"));
        Ok(failures)
    }

    /// The baseline, then every kernel of `dtype` at each raster and grid, timed together
    /// ([`Hgemm::time_all`]) on one shape; for e4m3, cuBLASLt with promoted accumulation too.
    /// Prints a line each and returns the JSON record.
    fn time_shape<E: Storage>(&self, dtype: Dtype, (m, n, k): (usize, usize, usize), launches: usize) -> Res<String> {
        let mut p = self.problem::<E>(dtype, m, n, k)?;
        let flops = 2.0 * (m * n * k) as f64;
        let mut runs = Vec::new();
        for (name, _, cluster, f, resident) in self.kernels.iter().filter(|x| x.1 == dtype) {
            // A 2x1 cluster's tile is two row tiles: half as many groups for the same rows (a
            // 1x2 cluster's is one row tile); a ping-pong tile half a row tile: twice as many.
            let shape = Shape::of(name);
            let (g1, g2) = match (*cluster > 1 && !shape.along_n, shape.pingpong) {
                (true, _) => (4, 8),
                (false, true) => (16, 2 * RASTER),
                (false, false) => (8, RASTER),
            };
            for (group, blocks) in [
                (g1, Grid::Tiles),
                (g2, Grid::Tiles),
                (g1, Grid::Persistent(*resident)),
                (g2, Grid::Persistent(*resident)),
                (g1, Grid::Balanced(*resident)),
                (g2, Grid::Balanced(*resident)),
            ] {
                runs.push((name, *cluster, f, group, blocks));
            }
        }
        // Run 0 the baseline, 1 (e4m3) cuBLASLt with promoted accumulation, then the kernels.
        let extra = usize::from(dtype == Dtype::E4M3);
        let ms = self.time_all(launches, runs.len() + 1 + extra, |i| match i.checked_sub(1 + extra) {
            None => self.baseline(&mut p, i == 1),
            Some(r) => {
                let (name, cluster, f, group, blocks) = runs[r];
                self.launch(name, f, cluster, &mut p, group, blocks)
            }
        })?;
        let (base, base_ms) = (if extra == 1 { "cuBLASLt" } else { "cuBLAS" }, ms[0]);
        let mut line = format!("{m}x{n}x{k} {dtype:?}: {base} {base_ms:.3} ms ({:.0} TFLOP/s)", flops / base_ms / 1e9);
        let size = if m == n && n == k { format!("{m}") } else { format!("\"{m}x{n}x{k}\"") };
        let mut js = format!("{{\"size\":{size},\"dtype\":\"{dtype:?}\",\"{}_ms\":{base_ms:.4}", base.to_lowercase());
        if extra == 1 {
            line +=
                &format!("\n  cuBLASLt, promoted accumulation: {:.3} ms ({:.0} TFLOP/s)", ms[1], flops / ms[1] / 1e9);
            js += &format!(",\"cublaslt_promoted_ms\":{:.4}", ms[1]);
        }
        for (&(name, _, _, group, blocks), ms) in runs.iter().zip(&ms[1 + extra..]) {
            let share = 100.0 * base_ms / ms;
            let grid = blocks.describe();
            line += &format!(
                "\n  {name} raster {group}, {grid}: {ms:.3} ms ({:.0} TFLOP/s, {share:.1}% of {base})",
                flops / ms / 1e9
            );
            js += &format!(",\"{name}_raster{group}_{}_ms\":{ms:.4}", blocks.key());
        }
        println!("{line}");
        Ok(js + "}")
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
fn host_reference<E: Storage>(p: &Problem<E>) -> Vec<f32> {
    let a: Vec<f32> = p.a.iter().map(|&h| p.dtype.value_of(h.bits())).collect();
    let b: Vec<f32> = p.b.iter().map(|&h| p.dtype.value_of(h.bits())).collect();
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
    /// Only these attention kernels (comma-separated names; all by default).
    #[arg(long, value_delimiter = ',')]
    attention_kernels: Vec<String>,
    /// An earlier PTX whose attention kernels (those run) are checked and timed beside these,
    /// in the same process, named `baseline <name>`: a change measured against its before.
    #[arg(long)]
    baseline: Option<String>,
    /// Only the 8-bit float (e4m3) GEMMs: their checks and timings against cuBLASLt.
    #[arg(long, conflicts_with = "no_fp8")]
    fp8_only: bool,
    /// Leave the 8-bit float GEMMs out.
    #[arg(long)]
    no_fp8: bool,
}

fn main() -> Res<()> {
    let args = Args::parse();
    let (ptx, launches, json, with_cluster) = (args.ptx, args.launches, args.json, !args.no_cluster);
    let ctx = CudaContext::new(0)?;
    let sms = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
    println!("device: {} ({} SMs, compute capability {:?})", ctx.name()?, sms, ctx.compute_capability()?);
    let stream = ctx.default_stream();
    let load =
        |path: &str| -> Res<_> { Ok(ctx.load_module(cudarc::nvrtc::Ptx::from_src(std::fs::read_to_string(path)?))?) };
    let module = load(&ptx)?;
    let mut kernels = Vec::new();
    for (name, dtype, cluster) in [
        ("hgemm_sm90", Dtype::F16, 1),
        ("hgemm_sm90_by_hand", Dtype::F16, 1),
        ("hgemm_sm90_cluster", Dtype::F16, 2),
        ("hgemm_sm90_bf16", Dtype::Bf16, 1),
        ("hgemm_sm90_tma_epi", Dtype::F16, 1),
        ("hgemm_sm90_tma_epi_by_hand", Dtype::F16, 1),
        ("hgemm_sm90_bf16_tma_epi", Dtype::Bf16, 1),
        ("hgemm_sm90_tma_epi_cluster", Dtype::F16, 2),
        ("hgemm_sm90_bf16_tma_epi_cluster", Dtype::Bf16, 2),
        ("fp8_gemm_sm90", Dtype::E4M3, 1),
        ("fp8_gemm_sm90_tma_epi", Dtype::E4M3, 1),
        ("fp8_gemm_sm90_tma_epi_cluster", Dtype::E4M3, 2),
        ("hgemm_sm90_tma_epi_cluster1x2", Dtype::F16, 2),
        ("hgemm_sm90_bf16_tma_epi_cluster1x2", Dtype::Bf16, 2),
        ("fp8_gemm_sm90_tma_epi_cluster1x2", Dtype::E4M3, 2),
        ("hgemm_sm90_pingpong", Dtype::F16, 1),
        ("hgemm_sm90_bf16_pingpong", Dtype::Bf16, 1),
        ("fp8_gemm_sm90_pingpong", Dtype::E4M3, 1),
    ] {
        // `--attention-only` loads no GEMM, so that a PTX trimmed to attention kernels runs.
        if args.attention_only
            || name.contains("_cluster") && !with_cluster
            || (dtype == Dtype::E4M3 && args.no_fp8)
            || (dtype != Dtype::E4M3 && args.fp8_only)
        {
            continue;
        }
        let f = module.load_function(name)?;
        let smem = Shape::of(name).smem;
        f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem as i32)?;
        let resident = resident_blocks(&f, &stream, (cluster, THREADS, smem), sms as usize)?;
        println!("{name}: persistent grid of {resident} blocks (occupancy, clusters of {cluster})");
        kernels.push((name, dtype, cluster, f, resident));
    }
    let h = Hgemm { blas: CudaBlas::new(stream.clone())?, lt: lt::Lt::new(&stream)?, stream, kernels };
    let mut failures = 0;
    let mut record = Vec::new();
    if !args.no_attention && !args.fp8_only {
        // This PTX's kernels, then (`--baseline`) the earlier PTX's of the same names.
        let mut modules = vec![("", module.clone())];
        if let Some(path) = &args.baseline {
            modules.push(("baseline ", load(path)?));
        }
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
            ("attention_fwd_persistent_overlap", Dtype::F16, 128),
            ("attention_fwd_pinned", Dtype::F16, 128),
            ("attention_fwd_persistent_overlap_pinned", Dtype::F16, 128),
            ("attention_fwd_bf16_pinned", Dtype::Bf16, 128),
            ("attention_fwd_bf16_persistent_overlap_pinned", Dtype::Bf16, 128),
            ("attention_fwd_n176_pinned", Dtype::F16, 128),
            ("attention_fwd_n176_persistent_overlap_pinned", Dtype::F16, 128),
            ("attention_fwd_bf16_n176_pinned", Dtype::Bf16, 128),
            ("attention_fwd_bf16_n176_persistent_overlap_pinned", Dtype::Bf16, 128),
            ("attention_fwd_n176_pinned_cluster", Dtype::F16, 128),
            ("attention_fwd_pinned_cluster", Dtype::F16, 128),
            ("attention_fwd_hd256", Dtype::F16, 256),
            ("attention_fwd_bf16_hd256", Dtype::Bf16, 256),
            ("attention_fwd_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_persistent_overlap_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_bf16_pinned_epi", Dtype::Bf16, 128),
            ("attention_fwd_bf16_persistent_overlap_pinned_epi", Dtype::Bf16, 128),
            ("attention_fwd_persistent_overlap_pingpong_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_wide_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_wide_persistent_overlap_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_wide_persistent_overlap_pingpong_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_n176_wide_persistent_overlap_pinned", Dtype::F16, 128),
            ("attention_fwd_bf16_wide_pinned_epi", Dtype::Bf16, 128),
            ("attention_fwd_bf16_wide_persistent_overlap_pinned_epi", Dtype::Bf16, 128),
            ("attention_fwd_bf16_n176_wide_persistent_overlap_pinned", Dtype::Bf16, 128),
            ("attention_fwd_n176_persistent_overlap_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_n176_wide_persistent_overlap_pinned_epi", Dtype::F16, 128),
            ("attention_fwd_bf16_n176_wide_persistent_overlap_pinned_epi", Dtype::Bf16, 128),
        ] {
            if !args.attention_kernels.is_empty() && !args.attention_kernels.iter().any(|k| k == name) {
                continue;
            }
            for (prefix, m) in &modules {
                let f = match m.load_function(name) {
                    Ok(f) => f,
                    // A kernel the baseline does not have yet.
                    Err(_) if !prefix.is_empty() => continue,
                    Err(e) => return Err(e.into()),
                };
                let smem = attention::smem_bytes(d, attention::kind_of(name));
                f.set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem as i32,
                )?;
                // A persistent kernel's grid: the blocks the device runs at once.
                let grid = if name.contains("_persistent") {
                    let blocks = resident_blocks(&f, &h.stream, (1, attention::tiles::THREADS, smem), sms as usize)?;
                    println!("{prefix}{name}: persistent grid of {blocks} blocks (occupancy)");
                    Some(blocks)
                } else {
                    None
                };
                fs.push((format!("{prefix}{name}"), dtype, d, f, grid));
            }
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

    let dtypes: &[Dtype] = if args.fp8_only {
        &[Dtype::E4M3]
    } else if args.no_fp8 {
        &[Dtype::F16, Dtype::Bf16]
    } else {
        &[Dtype::F16, Dtype::Bf16, Dtype::E4M3]
    };
    // Exact checks: the host loop where it is quick, the baseline on the large sizes (the same
    // bits: integer sums, exact in fp32 accumulators, rounded once to the output type as we
    // round).
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
        for &dtype in dtypes {
            let k = dtype.k_for(k);
            failures += if dtype == Dtype::E4M3 {
                h.check::<u8>(dtype, (m, n, k), &mut record)?
            } else {
                h.check::<u16>(dtype, (m, n, k), &mut record)?
            };
        }
    }

    // Timing: medians of `launches` launches each, the baselines in the same run.
    println!("timing: median of {launches} launches (CUDA events), each after {WARM_MS} ms of its own launches, fp32 accumulation");
    let shapes = [(4096usize, 4096usize, 4096usize), (8192, 8192, 8192), (8192, 14336, 4096), (8192, 4096, 14336)];
    for (dtype, shape) in dtypes.iter().flat_map(|&d| shapes.map(|s| (d, s))) {
        record.push(if dtype == Dtype::E4M3 {
            h.time_shape::<u8>(dtype, shape, launches)?
        } else {
            h.time_shape::<u16>(dtype, shape, launches)?
        });
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

    /// The kernels' tile order covers `C`: over every unit of the raster and every block of
    /// its cluster, each block tile inside `C` is computed exactly once (2x1 and 1x2 clusters,
    /// ragged sizes, the ping-pong's 64-row tiles, groups that do not divide the rows). A
    /// placement past `C` is only ever a cluster's second block.
    #[test]
    fn raster_places_every_tile_once() {
        for (m, n) in [(129, 136), (1000, 1000), (300, 700), (4096, 4096), (8192, 4096), (128, 256)] {
            for bm in [BM, BM / 2] {
                for group in [1, 3, 5, 16] {
                    for (cluster, along_n) in [(1, false), (2, false), (2, true)] {
                        let raster = Raster::new((m, n), bm, group, cluster, along_n);
                        let (rows, cols) = (m.div_ceil(bm), n.div_ceil(BN));
                        let mut seen = vec![0; rows * cols];
                        for unit in 0..raster.units() {
                            for rank in 0..cluster {
                                let ((r, c), valid) = raster.place(unit, rank);
                                if !valid {
                                    continue;
                                }
                                if r < rows && c < cols {
                                    seen[r * cols + c] += 1;
                                } else {
                                    assert!(rank > 0, "{m}x{n} bm {bm} group {group}: unit {unit} at ({r}, {c})");
                                }
                            }
                        }
                        let case = format!("{m}x{n} bm {bm} group {group} cluster {cluster} along_n {along_n}");
                        assert!(seen.iter().all(|&k| k == 1), "{case}: {seen:?}");
                    }
                }
            }
        }
    }

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

    /// E4M3 as the OCP 8-bit float specification (v1.0, table 1) gives it: 1.0 = 0x38,
    /// -2.0 = 0xc0, the largest normal 448 = 0x7e, the smallest normal 2^-6 = 0x08, the smallest
    /// subnormal 2^-9 = 0x01, 0x7f NaN; 449 rounds to 448, 17 to 16 (ties to even: 0x58 over
    /// 0x59 = 18), 0.5 = 0x30; the inputs' integers round-trip.
    #[test]
    fn e4m3_is_the_ocp_format() {
        use super::{e4m3_of, e4m3_value};
        for (b, x) in
            [(0x38u8, 1.0f32), (0xc0, -2.0), (0x7e, 448.0), (0x08, 2f32.powi(-6)), (0x01, 2f32.powi(-9)), (0x30, 0.5)]
        {
            assert_eq!(e4m3_value(b), x, "{b:#x}");
            assert_eq!(e4m3_of(x), b, "{x}");
        }
        assert!(e4m3_value(0x7f).is_nan() && e4m3_value(0xff).is_nan());
        assert_eq!((e4m3_of(449.0), e4m3_of(17.0), e4m3_of(1000.0)), (0x7e, 0x58, 0x7e));
        for i in -16..=16 {
            assert_eq!(e4m3_value(e4m3_of(i as f32)), i as f32);
        }
    }

    /// The 8-bit kernels' maps: a K-major byte matrix and the 128x128 stage (one 128-byte row
    /// a k-tile) make a 128x128 box, 128-byte swizzle, data type UINT8 (0); the B stage's box is
    /// 128x256.
    #[test]
    fn fp8_tensor_map_boxes() {
        let d = cute_static::tma::make_tma_copy_desc(
            cute_static::layout!(({ 1000usize }, { 1008usize }):({ 1008usize }, 1)),
            "float_e4m3_t",
            &Stage8A::default(),
        )
        .unwrap();
        assert_eq!((d.box_dim, d.swizzle, d.data_type, d.global_strides), (vec![128, 128], 3, 0, vec![1008]));
        let d = cute_static::tma::make_tma_copy_desc(
            cute_static::layout!(({ 4096usize }, { 4096usize }):({ 4096usize }, 1)),
            "float_e4m3_t",
            &Stage8B::default(),
        )
        .unwrap();
        assert_eq!((d.box_dim, d.swizzle), (vec![128, 256], 3));
        assert_eq!(BK8, 128);
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

    /// `hgemm_sm90_tma_epi_by_hand` (the twin, `gpu/src/hgemm_sm90/by_hand.rs`) writes the
    /// `stmatrix` address of lane `l`, 16-column group `g` as `r * 128 + ((q ^ (r % 8)) * 16)`
    /// bytes, with `r = 16 warp + 8 (l / 8 % 2) + l % 8` and `q = 2 g + l / 16`: row `l % 8` of
    /// matrix `l / 8`, in the 128-byte-swizzled tile. It must be the C tile's layout (`CTile`,
    /// what the layout kernel and the TMA store read) at that row and column `16 g + 8 (l / 16)`,
    /// and, 16 bytes on, its next 8 columns.
    #[test]
    fn tma_epi_twin_addresses_are_the_tile_layout() {
        let tile = CTile::default();
        let bytes = |r: usize, c: usize| 2 * tile.call_coord(&shape!(({ r }, { c })));
        for t in 0..128 {
            let (warp, lane) = (t / 32, t % 32);
            let r = 16 * warp + 8 * (lane / 8 % 2) + lane % 8;
            for g in 0..4 {
                let q = 2 * g + lane / 16;
                let hand = r * 128 + ((q ^ (r % 8)) * 16);
                let col = 16 * g + 8 * (lane / 16);
                assert_eq!(hand, bytes(r, col), "thread {t}, group {g}");
                for e in 1..8 {
                    assert_eq!(hand + 2 * e, bytes(r, col + e), "thread {t}, group {g}, element {e}");
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
