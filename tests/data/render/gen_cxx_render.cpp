// Generator of tests/data/render/cxx_render.txt: CuTe C++ 4.2 (headers from the PyPI wheel
// nvidia-cutlass 4.2.0.0, see DESIGN 6) printing the layouts that tests/render.rs checks.
// g++ -std=c++17 -I<cutlass include> -I<cccl include> -I<cuda_runtime include> -I<cuda_nvcc include> gen_cxx_render.cpp && ./a.out > cxx_render.txt
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/util/print_latex.hpp>
using namespace cute;
int main() {
  print_layout(make_layout(make_shape(2, make_shape(2,2)), make_stride(4, make_stride(2,1))));
  print_layout(Layout<Shape<_2,_3>>{});
  print_layout(make_layout(Shape<_4,Shape<_2,_3>>{}, LayoutRight{}));
  print_layout(Layout<Shape<Shape<_2,_2>,Shape<_3,_4>>, Stride<Stride<_1,_24>,Stride<_2,_6>>>{});
  print_layout(Layout<Shape<_3,Shape<_2,_3>>, Stride<_3,Stride<_12,_1>>>{});
  print_latex(Layout<Shape<_2,_2>, Stride<_1,_2>>{});
  print_latex(Layout<_4, _2>{});
  print_latex_tv(composition(make_identity_layout(Shape<_2,_4>{}), Layout<Shape<_4,_2>, Stride<_2,_1>>{}), Shape<_2,_4>{});
  // Composed layouts: the function over the inner layout's shape.
  print_layout(composition(Swizzle<2,0,2>{}, Layout<Shape<_4,_4>,Stride<_4,_1>>{}));
  print_layout(composition(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, Int<2>{}, Layout<Shape<_4,_4>,Stride<_4,_1>>{}));
  // Tiled MMAs: C, A and B thread-value pictures in one document.
  print_latex(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}));
  print_latex(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_1,_1>>{}));
  return 0;
}
