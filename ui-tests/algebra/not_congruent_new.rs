// A kernel generic over its tile layout, given a layout type whose profiles differ inside: the
// mode (3,4) of the shape pairs with the leaf 2 of the stride.
use cute::cute_static::{Layout, Shape, StaticLayout, Stride};

fn kernel<L: StaticLayout>() -> usize {
    L::default().size()
}

fn main() {
    let _ = kernel::<Layout<Shape![(2,(3,4))], Stride![(1,2)]>>();
}
