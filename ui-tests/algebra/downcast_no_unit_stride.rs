// downcast needs a stride-1 mode to split.
use cute::cute_static::{downcast, layout, shape};

fn main() {
    let _ = downcast(layout!((4,8):(2,8)), shape!(2));
}
