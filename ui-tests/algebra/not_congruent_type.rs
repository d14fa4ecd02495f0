// A layout type assembled from a Shape! and a Stride! of different profiles.
use cute::cute_static::{Layout, Shape, Stride};

fn size<S: cute::cute_static::Congruent<D>, D: cute::cute_static::IntTuple>(l: Layout<S, D>) -> usize {
    l.size()
}

fn main() {
    let l: Layout<Shape![(2,(3,4))], Stride![(1,(2,6,24))]> = Default::default();
    let _ = size(l);
}
