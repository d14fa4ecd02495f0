// Generator of cxx_gmma_fp8.tsv: CuTe C++ 4.2's MMA_Traits of the SM90 8-bit float warpgroup
// MMAs (`SM90_64xNx32_F32{A}{B}_{SS,RS}_TN`, A and B each e4m3 or e5m2): Shape_MNK, ThrID,
// ALayout, BLayout, CLayout, one line each. Build and run from this directory:
//
//   g++ -std=c++17 -I<cutlass include> -I<cccl include> -I<cuda_runtime include> \
//       -I<cuda_nvcc include> gen_cxx_gmma_fp8.cpp -o /tmp/gen && /tmp/gen > cxx_gmma_fp8.tsv
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>
#include <iostream>
using namespace cute;
template <class Op>
void p(char const* name) {
  using T = MMA_Traits<Op>;
  std::cout << name << '\t' << typename T::Shape_MNK{} << '\t' << typename T::ThrID{} << '\t'
            << typename T::ALayout{} << '\t' << typename T::BLayout{} << '\t' << typename T::CLayout{} << '\n';
}
#define ATOM(N, AB, K) p<SM90_64x##N##x32_F32##AB##_##K##_TN<>>("SM90_64x" #N "x32_F32" #AB "_" #K "_TN");
#define TYPES(N, K) ATOM(N, E4M3E4M3, K) ATOM(N, E4M3E5M2, K) ATOM(N, E5M2E4M3, K) ATOM(N, E5M2E5M2, K)
#define SIZE(N) TYPES(N, SS) TYPES(N, RS)
int main() {
  SIZE(8) SIZE(16) SIZE(32) SIZE(64) SIZE(96) SIZE(128) SIZE(192) SIZE(256)
}
