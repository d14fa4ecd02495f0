// Shape (2,3) and stride (1,2,6): tuples of ranks 2 and 3.
use cute::cute_static::{Layout, Shape, StaticLayout, Stride};

fn kernel<L: StaticLayout>() -> usize {
    L::default().cosize()
}

fn main() {
    let _ = kernel::<Layout<Shape![(2,3)], Stride![(1,2,6)]>>();
}
