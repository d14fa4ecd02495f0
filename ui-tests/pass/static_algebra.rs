// The same operations as the compile-fail cases, with operands that satisfy their
// preconditions, build and give CuTe's documented results.
use cute::cute_static::{complement, composition, layout, logical_divide, logical_product, shape, stride, tiler, Layout};

fn main() {
    // CuTe docs (layout algebra): composition and complement.
    let r = composition(layout!((6,2):(8,2)), layout!((4,3):(3,1)));
    assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
    assert_eq!(complement(layout!(4:2), shape!(24)).to_string(), "(2,3):(1,8)");
    assert_eq!(complement(layout!((2,2):(1,6)), shape!(24)).to_string(), "(3,2):(2,12)");
    let r = logical_divide(layout!((4,2,3):(2,1,8)), layout!(4:2));
    assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    let r = logical_product(layout!((2,2):(4,1)), layout!(6:1));
    assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    let r = composition(layout!((12,(4,8)):(59,(13,1))), tiler!(<3:4,8:2>));
    assert_eq!(r.to_string(), "(3,(2,4)):(236,(26,1))");
    // In-range static coordinates (CuTe docs): (3,(2,3)):(3,(12,1)) maps (1,(1,2)), (1,5)
    // and 16 to 17.
    let l = layout!((3,(2,3)):(3,(12,1)));
    assert_eq!(l.call_coord(&shape!((1,(1,2)))), 17);
    assert_eq!(l.call_coord(&shape!((1,5))), 17);
    assert_eq!(l.call_coord(&shape!(16)), 17);
    let _: Layout<_, _> = Layout::new(shape!((2,3)), stride!((1,2)));
}
