// A thread-value layout type written with a stride of the wrong profile.
use cute_static::{Layout, StaticLayout};

type ThrVal = Layout![(16,(4,2)):(4,1)];

fn value_row<L: StaticLayout>(t: usize) -> usize {
    L::default().call(t)
}

fn main() {
    let _ = value_row::<ThrVal>(3);
}
