// The type form checks congruence too: (4,8) against the stride 1.
use cute::cute_static::Layout;

type Bad = Layout![(4,8):1];

fn main() {}
