#!/usr/bin/env bash
# Differential run of cute-dyn: the working tree's answers against those of an earlier commit,
# on random layouts and tilers, for the algebra's operations (the answer in the DSL style, or
# the error's text). For a change that must keep every answer (issue #12's rewrites): it stops
# at the first input whose answers differ and prints both.
#   scripts/differential.sh REV [INPUTS] [SEED] [deep]
# INPUTS defaults to 200000 (about 38 answers each); `deep` draws layouts of up to 64 leaves, past the
# inline capacity, so that the heap path is taken. Needs only cargo (no network: no new crate).
set -euo pipefail
rev=$1
inputs=${2:-200000}
seed=${3:-11400714819323198485}
deep=${4:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The earlier cute-dyn, renamed so that both can be linked into one binary.
mkdir -p "$work/old"
git -C "$repo" archive "$rev" cute-dyn | tar -x -C "$work/old"
sed -i 's/^name = "cute-dyn"/name = "cute-dyn-old"/; s/^edition.workspace = true/edition = "2021"/; s/^license.workspace = true/license = "MIT OR Apache-2.0"/' \
    "$work/old/cute-dyn/Cargo.toml"

mkdir -p "$work/diff/src"
cat > "$work/diff/Cargo.toml" <<EOF
[package]
name = "differential"
version = "0.1.0"
edition = "2021"

[dependencies]
new = { package = "cute-dyn", path = "$repo/cute-dyn" }
old = { package = "cute-dyn-old", path = "$work/old/cute-dyn" }

[workspace]
EOF
cat > "$work/diff/src/main.rs" <<'EOF'
/// xorshift64: reproducible from the seed, no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A leaf: static, dynamic (`{v}`), or dynamic with a divisor (`{v:d}`).
fn int(r: &mut Rng, v: i64) -> String {
    match r.below(8) {
        0 => format!("{{{v}}}"),
        1 => {
            let d = r.pick(&[1, 2, 4]);
            if v != 0 && v % d == 0 { format!("{{{v}:{d}}}") } else { format!("{v}") }
        }
        _ => format!("{v}"),
    }
}

/// A nesting profile: `L` for a leaf.
fn profile(r: &mut Rng, depth: u32, width: u64) -> String {
    if depth == 0 || r.below(3) == 0 {
        return "L".into();
    }
    let modes: Vec<String> = (0..1 + r.below(width)).map(|_| profile(r, depth - 1, width)).collect();
    format!("({})", modes.join(","))
}

/// A layout: size-1 modes, zero and (rarely) negative strides included.
fn layout(r: &mut Rng, deep: bool) -> String {
    let p = if deep { profile(r, 3, 4) } else { profile(r, 2, 3) };
    let (mut shape, mut stride) = (String::new(), String::new());
    for c in p.chars() {
        if c == 'L' {
            let s = r.pick(&[1, 1, 2, 2, 2, 3, 4, 4, 6, 8]);
            let d = r.pick(&[0, 1, 1, 2, 2, 3, 4, 6, 8, 12, 16, 24, 32]) * if r.below(20) == 0 { -1 } else { 1 };
            shape.push_str(&int(r, s));
            stride.push_str(&int(r, d));
        } else {
            shape.push(c);
            stride.push(c);
        }
    }
    format!("{shape}:{stride}")
}

/// A tiler: an integer, a by-mode tiler (`_`, integers, layouts), or a layout.
fn tiler(r: &mut Rng, deep: bool) -> String {
    match r.below(5) {
        0 => format!("{}", 1 + r.below(8)),
        1 => {
            let modes: Vec<String> = (0..1 + r.below(3))
                .map(|_| match r.below(3) {
                    0 => "_".to_string(),
                    1 => format!("{}", 1 + r.below(6)),
                    _ => layout(r, deep),
                })
                .collect();
            format!("<{}>", modes.join(","))
        }
        _ => layout(r, deep),
    }
}

/// A coordinate for `shape`: at each level `_`, an integer (in range or past it), or the
/// tuple of the modes' coordinates (sometimes a mode short or one too many).
fn coord(r: &mut Rng, shape: &new::IntTuple) -> String {
    match (r.below(6), shape) {
        (0, _) => "_".to_string(),
        (1, _) => format!("{}", r.below(1 + (new::int_tuple::product(shape).map_or(1, |x| x.value()).max(1) as u64).saturating_mul(5) / 4)),
        (_, new::Tuple::Node(v)) => {
            let mut m: Vec<String> = v.iter().map(|s| coord(r, s)).collect();
            match r.below(12) {
                0 => {
                    m.pop();
                }
                1 => m.push("_".to_string()),
                _ => {}
            }
            format!("({})", m.join(","))
        }
        (_, new::Tuple::Leaf(x)) => format!("{}", r.below(1 + (x.value().max(1) as u64).saturating_mul(5) / 4)),
    }
}

/// An answer as text: a layout in the DSL style (static flags and divisors shown), an integer
/// with its flag and divisor, an error by its message.
trait Answer {
    fn text(&self) -> String;
}
impl Answer for old::Layout {
    fn text(&self) -> String {
        self.to_styled(old::Style::Dsl)
    }
}
impl Answer for new::Layout {
    fn text(&self) -> String {
        self.to_styled(new::Style::Dsl)
    }
}
impl Answer for old::Int {
    fn text(&self) -> String {
        format!("{:?}", self)
    }
}
impl Answer for new::Int {
    fn text(&self) -> String {
        format!("{:?}", self)
    }
}
impl Answer for String {
    fn text(&self) -> String {
        self.clone()
    }
}
impl<A: Answer, B: Answer> Answer for (A, B) {
    fn text(&self) -> String {
        format!("{} @ {}", self.0.text(), self.1.text())
    }
}
impl<T: Answer, E: std::fmt::Display> Answer for Result<T, E> {
    fn text(&self) -> String {
        match self {
            Ok(x) => x.text(),
            Err(e) => format!("error: {e}"),
        }
    }
}

/// Both crates' answers to one operation (on the operands' two parsings); stops the run where
/// they differ.
macro_rules! same {
    ($count:ident, $input:expr, $f:ident($($x:ident),*)) => {
        same!($count, $input, stringify!($f), old::$f($(&$x.0),*), new::$f($(&$x.1),*))
    };
    ($count:ident, $input:expr, $name:expr, $old:expr, $new:expr) => {{
        let (old, new) = ($old.text(), $new.text());
        if old != new {
            println!("{} differs on {:?}\n  before: {old}\n  now:    {new}", $name, $input);
            std::process::exit(1);
        }
        $count += 1;
    }};
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let inputs: u64 = args[1].parse().unwrap();
    let mut r = Rng(args[2].parse::<u64>().unwrap() | 1);
    let deep = args.get(3).is_some_and(|a| a == "deep");
    let mut answers = 0u64;
    for _ in 0..inputs {
        let (a, b, t) = (layout(&mut r, deep), layout(&mut r, deep), tiler(&mut r, deep));
        let c = 1 + r.below(64) as i64;
        let input = (&a, &b, &t, c);
        let a = (a.parse::<old::Layout>().unwrap(), a.parse::<new::Layout>().unwrap());
        let b = (b.parse::<old::Layout>().unwrap(), b.parse::<new::Layout>().unwrap());
        let t = (t.parse::<old::Tiler>().unwrap(), t.parse::<new::Tiler>().unwrap());
        let c = (old::IntTuple::int(c), new::IntTuple::int(c));
        // Shape-reading operations: a's shape, ordered by a's strides (congruent to it), and a
        // target that b's modes divide, k copies of each.
        let shape = (a.0.shape(), a.1.shape());
        let order = (a.0.stride(), a.1.stride());
        let target: Vec<String> =
            (0..b.1.rank()).map(|i| (b.1.get(i).unwrap().size().unwrap().value() * (1 + r.below(3) as i64)).to_string()).collect();
        let target = format!("({})", target.join(","));
        let target = (target.parse::<old::IntTuple>().unwrap(), target.parse::<new::IntTuple>().unwrap());
        // Slices of a by a coordinate of its shape, and the partitions of its zipped divide by
        // a coordinate of the mode they slice (a tile, or a thread's element).
        let ca = coord(&mut r, &a.1.shape());
        let ca = (ca.parse::<old::Coord>().unwrap(), ca.parse::<new::Coord>().unwrap());
        let (o, n) = (a.0.slice(&ca.0), a.1.slice(&ca.1));
        same!(answers, input, "slice", o, n);
        let (o, n) = (a.0.dice(&ca.0), a.1.dice(&ca.1));
        same!(answers, input, "dice", o, n);
        let (o, n) = (a.0.slice_and_offset(&ca.0), a.1.slice_and_offset(&ca.1));
        same!(answers, input, "slice_and_offset", o, n);
        let (o, n) = (old::tensor::local_tile(&a.0, &t.0, &ca.0, None), new::tensor::local_tile(&a.1, &t.1, &ca.1, None));
        same!(answers, input, "local_tile", o, n);
        let (o, n) = (old::tensor::outer_partition(&a.0, &t.0, &ca.0), new::tensor::outer_partition(&a.1, &t.1, &ca.1));
        same!(answers, input, "outer_partition", o, n);
        if let Ok(z) = new::zipped_divide(&a.1, &t.1) {
            for (k, f) in [(1, old::tensor::inner_partition as fn(&_, &_, &_) -> _), (0, old::tensor::outer_partition)] {
                let cz = coord(&mut r, &z.get(k).unwrap().shape());
                let cz = (cz.parse::<old::Coord>().unwrap(), cz.parse::<new::Coord>().unwrap());
                let g = if k == 1 { new::tensor::inner_partition } else { new::tensor::outer_partition };
                let (o, n) = (f(&a.0, &t.0, &cz.0), g(&a.1, &t.1, &cz.1));
                same!(answers, input, "partition", o, n);
            }
        }
        // A thread layout b over a: thread `i`'s part (b is often not compact: then refused).
        let i = new::Int::st(r.below(b.1.size().map_or(1, |x| x.value()).max(1) as u64 + 1) as i64);
        let (o, nw) = (old::tensor::local_partition(&a.0, &b.0, old::Int::st(i.value()), None), new::tensor::local_partition(&a.1, &b.1, i, None));
        same!(answers, input, "local_partition", o, nw);
        // The same over a compact thread layout of b's shape (always a thread's part), and as a
        // tensor over storage (its layout and its first element: the offset).
        if let (Ok(c0), Ok(c1)) = (old::make_layout_left(&b.0.shape()), new::make_layout_left(&b.1.shape())) {
            let (o, nw) = (old::tensor::local_partition(&a.0, &c0, old::Int::st(i.value()), None), new::tensor::local_partition(&a.1, &c1, i, None));
            same!(answers, input, "local_partition compact", o, nw);
            let cosize = a.1.cosize().map(|c| c.value()).unwrap_or(-1);
            if (1..1 << 16).contains(&cosize) {
                let data: Vec<u32> = (0..cosize as u32).collect();
                let tid = i.value() as usize;
                let o = old::tensor::Tensor::new(&data[..], a.0.clone())
                    .and_then(|t| t.local_partition(&c0, tid).map(|p| (p.layout().to_styled(old::Style::Dsl), p.get(0).ok().copied())));
                let nw = new::tensor::Tensor::new(&data[..], a.1.clone())
                    .and_then(|t| t.local_partition(&c1, tid).map(|p| (p.layout().to_styled(new::Style::Dsl), p.get(0).ok().copied())));
                let show = |r: Result<(String, Option<u32>), String>| format!("{r:?}");
                same!(answers, input, "Tensor::local_partition", show(o.map_err(|e| e.to_string())), show(nw.map_err(|e| e.to_string())));
            }
        }
        same!(answers, input, coalesce(a));
        same!(answers, input, filter_zeros(a));
        same!(answers, input, nullspace(a));
        same!(answers, input, max_alignment(a));
        same!(answers, input, make_layout_left(shape));
        same!(answers, input, make_layout_right(shape));
        same!(answers, input, make_ordered_layout(shape, order));
        let n = 1i64 << r.below(4);
        let (o, nw) = (old::upcast(&a.0, n), new::upcast(&a.1, n));
        same!(answers, input, "upcast", o, nw);
        let (o, nw) = (old::downcast(&a.0, n), new::downcast(&a.1, n));
        same!(answers, input, "downcast", o, nw);
        let idx: Vec<usize> = (0..1 + r.below(3)).map(|_| r.below(a.1.rank() as u64 + 1) as usize).collect();
        let (o, nw) = (a.0.select(&idx), a.1.select(&idx));
        same!(answers, input, "select", o, nw);
        same!(answers, input, make_layout_like(a));
        same!(answers, input, make_fragment_like(a));
        let (o, n) = (old::tile_to_shape(&b.0, &target.0, None), new::tile_to_shape(&b.1, &target.1, None));
        same!(answers, input, "tile_to_shape", o, n);
        let (o, n) = (old::tile_to_shape(&b.0, &target.0, Some(&target.0)), new::tile_to_shape(&b.1, &target.1, Some(&target.1)));
        same!(answers, input, "tile_to_shape ordered", o, n);
        same!(answers, input, filter(a));
        same!(answers, input, complement(a, c));
        same!(answers, input, complement_cosize(a));
        same!(answers, input, composition(a, t));
        same!(answers, input, logical_divide(a, t));
        same!(answers, input, zipped_divide(a, t));
        same!(answers, input, tiled_divide(a, t));
        same!(answers, input, flat_divide(a, t));
        same!(answers, input, logical_product(a, t));
        same!(answers, input, zipped_product(a, t));
        same!(answers, input, tiled_product(a, t));
        same!(answers, input, flat_product(a, t));
        same!(answers, input, blocked_product(a, b));
        same!(answers, input, raked_product(a, b));
    }
    println!("{answers} answers identical to those of the earlier commit");
}
EOF
CARGO_TARGET_DIR="$repo/target/differential" cargo build --release --quiet --manifest-path "$work/diff/Cargo.toml"
"$repo/target/differential/release/differential" "$inputs" "$seed" "$deep"
