// left_inverse as a method of a static layout: (2,3):(2,3), by increasing stride, has 3 after
// the mode 2:2, whose inverse has size 2, and 3 % 2 != 0 (CuTe: "Left inverse divisibility
// condition"). The error names the condition, as the free function's does.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,3):(2,3)).left_inverse();
}
