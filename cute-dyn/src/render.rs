//! Seeing a layout: CuTe's text tables (`print1D`, `print2D`, `print_layout`), self-contained
//! SVG (a layout coloured by index, a thread-value layout coloured by thread, a tiling with each
//! tile outlined), and LaTeX/TikZ equivalent to CuTe's `print_latex` / `print_latex_tv`.
//!
//! Rank-2 pictures index rows by mode 0 and columns by mode 1; a hierarchical mode is read with
//! a 1-D coordinate (flattened colexicographically), as CuTe does.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::error::{Error, Result};
use crate::int_tuple::{self, IntTuple, Tuple};
use crate::layout::Layout;
use crate::print::Style;

/// The largest picture (in cells) the renderers draw; bigger layouts are an error, not a
/// multi-gigabyte string.
pub const MAX_CELLS: i64 = 1 << 16;

/// The (rows, columns) of a rank-1 or rank-2 layout (a rank-1 layout is one column).
fn extent(l: &Layout, op: &'static str) -> Result<(i64, i64)> {
    let (m, n) = match l.rank() {
        1 => (l.size()?.value(), 1),
        2 => (l.get(0)?.size()?.value(), l.get(1)?.size()?.value()),
        r => {
            return Err(Error::RankMismatch {
                op,
                expected: "rank 1 or 2 (group modes first, e.g. group(L,1,3))".into(),
                found: r,
            })
        }
    };
    // An empty mode still draws the other mode's header: bound both extents, not the product.
    if m < 0 || n < 0 || m.max(1).saturating_mul(n.max(1)) > MAX_CELLS {
        return Err(Error::InvalidArgument { op, reason: alloc::format!("{m}x{n} cells is too many to draw") });
    }
    Ok((m, n))
}

/// What a picture draws: a function over the shape of a layout, titled by its notation. A
/// layout is its own; a composed layout (a swizzled shared-memory tile) draws its function
/// over its innermost layout's shape, as CuTe's `print_layout` of a `ComposedLayout` does.
pub trait Drawn: crate::print::Notation {
    /// The layout whose shape the picture takes (and whose cosize sets `print_layout`'s
    /// cell width, as in C++).
    ///
    /// # Errors
    /// Where there is none (a composed layout whose innermost function is a swizzle).
    fn shape_layout(&self) -> Result<&Layout>;

    /// The function at a coordinate of that shape.
    ///
    /// # Errors
    /// The function's own.
    fn value_at(&self, c: &crate::Coord) -> Result<i64>;
}

impl Drawn for Layout {
    fn shape_layout(&self) -> Result<&Layout> {
        Ok(self)
    }

    fn value_at(&self, c: &crate::Coord) -> Result<i64> {
        Ok(self.call_coord(c)?.value())
    }
}

impl Drawn for crate::ComposedLayout {
    fn shape_layout(&self) -> Result<&Layout> {
        self.layout()
    }

    fn value_at(&self, c: &crate::Coord) -> Result<i64> {
        self.call(c)
    }
}

/// `L(m, n)`, with 1-D coordinates for each mode.
fn at<D: Drawn + ?Sized>(l: &D, m: i64, n: i64) -> Result<i64> {
    let leaf = |x: i64| Tuple::Leaf(Some(crate::Int::dy(x)));
    if l.shape_layout()?.rank() == 1 {
        return l.value_at(&leaf(m));
    }
    l.value_at(&Tuple::Node(alloc::vec![leaf(m), leaf(n)]))
}

/// The rank-2 grid of indices, row by row.
fn grid<D: Drawn + ?Sized>(l: &D, op: &'static str) -> Result<(i64, i64, Vec<i64>)> {
    let (m, n) = extent(l.shape_layout()?, op)?;
    let mut v = Vec::with_capacity((m * n) as usize);
    for i in 0..m {
        for j in 0..n {
            v.push(at(l, i, j)?);
        }
    }
    Ok((m, n, v))
}

/// CuTe's `print1D`: `L(i)` for every `i`, each as `%3d` and two spaces.
///
/// # Errors
/// `InvalidArgument` for a layout larger than [`MAX_CELLS`]; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: print1D(s2xh4)
/// let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
/// assert_eq!(render::print1d(&l)?, "  0    4    2    6    1    5    3    7  ");
/// # Ok::<(), Error>(())
/// ```
pub fn print1d(l: &Layout) -> Result<String> {
    let n = l.size()?.value();
    if !(0..=MAX_CELLS).contains(&n) {
        return Err(Error::InvalidArgument { op: "print1d", reason: alloc::format!("{n} cells is too many to draw") });
    }
    let mut s = String::new();
    for i in 0..n {
        let _ = write!(s, "{:3}  ", l.call(i)?);
    }
    Ok(s)
}

/// CuTe's `print2D`: one line per row `m`, `L(m, n)` as `%3d` and two spaces.
///
/// # Errors
/// `RankMismatch` unless rank 2; `InvalidArgument` for too many cells; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: print2D(s2xd4_a) for (2,4):(12,1)
/// assert_eq!(render::print2d(&"(2,4):(12,1)".parse()?)?, "  0    1    2    3  \n 12   13   14   15  \n");
/// # Ok::<(), Error>(())
/// ```
pub fn print2d(l: &Layout) -> Result<String> {
    if l.rank() != 2 {
        return Err(Error::RankMismatch { op: "print2d", expected: "rank 2".into(), found: l.rank() });
    }
    let (m, n, v) = grid(l, "print2d")?;
    let mut s = String::new();
    for i in 0..m {
        for j in 0..n {
            let _ = write!(s, "{:3}  ", v[(i * n + j) as usize]);
        }
        s.push('\n');
    }
    Ok(s)
}

fn num_digits(x: i64) -> usize {
    let mut d = 1;
    let mut x = x.unsigned_abs();
    while x >= 10 {
        x /= 10;
        d += 1;
    }
    d
}

/// CuTe's `print_layout`: the layout (printed in `style`; CuTe prints its C++ form), column
/// indices, and a boxed table of `L(m, n)`. A rank-1 layout is shown as one column.
///
/// # Errors
/// `RankMismatch` unless rank 1 or 2; `InvalidArgument` for too many cells; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs, 01_layout.md: print_layout(s2xh4), whose integers are dynamic (CuTe C++ ends
/// // the column line with a blank, which the docs' markdown drops)
/// let l: Layout = "({2},({2},{2})):({4},({2},{1}))".parse()?;
/// let table = [
///     "(2,(2,2)):(4,(2,1))",
///     "      0   1   2   3 ",
///     "    +---+---+---+---+",
///     " 0  | 0 | 2 | 1 | 3 |",
///     "    +---+---+---+---+",
///     " 1  | 4 | 6 | 5 | 7 |",
///     "    +---+---+---+---+",
/// ]
/// .map(|line| format!("{line}\n"))
/// .concat();
/// assert_eq!(render::print_layout(&l, Style::Cpp)?, table);
/// # Ok::<(), Error>(())
/// ```
pub fn print_layout<D: Drawn + ?Sized>(l: &D, style: Style) -> Result<String> {
    let (m, n, v) = grid(l, "print_layout")?;
    let cells: Vec<String> = v.iter().map(|x| alloc::format!("{x}")).collect();
    // C++'s width is the cosize's digits; a negative index (a negative stride) needs its sign
    // too, or its cell is wider than the rules.
    let widest = cells.iter().map(String::len).max().unwrap_or(0);
    let w = num_digits(l.shape_layout()?.cosize()?.value()).max(widest) + 2;
    Ok(boxed_table(&l.to_styled(style), m, n, &cells, w))
}

/// CuTe's `print_layout` frame: a title line, column indices, and one boxed row per `m`, each
/// cell right-aligned in `w - 2` characters.
fn boxed_table(title: &str, m: i64, n: i64, cells: &[String], w: usize) -> String {
    let delim: String = core::iter::once('+').chain(core::iter::repeat_n('-', w)).collect();
    let mut s = alloc::format!("{title}\n    ");
    for j in 0..n {
        let _ = write!(s, "  {:>width$} ", j, width = w - 2);
    }
    s.push('\n');
    let rule = |s: &mut String| {
        s.push_str("    ");
        for _ in 0..n {
            s.push_str(&delim);
        }
        s.push_str("+\n");
    };
    for i in 0..m {
        rule(&mut s);
        let _ = write!(s, "{i:2}  ");
        for j in 0..n {
            let _ = write!(s, "| {:>width$} ", cells[(i * n + j) as usize], width = w - 2);
        }
        s.push_str("|\n");
    }
    rule(&mut s);
    s
}

/// A `print_layout`-style table of a thread-value layout over a tile: each cell shows the
/// `T<t>V<v>` that holds it (`.` where no thread does).
///
/// # Errors
/// As [`svg_tv`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let t = render::print_tv(&"(2,2):(2,1)".parse()?, &"(2,2)".parse()?)?;
/// assert!(t.contains(" 0  | T0V0 | T1V0 |\n"));
/// # Ok::<(), Error>(())
/// ```
pub fn print_tv(tv: &Layout, tile: &IntTuple) -> Result<String> {
    let (m, n, cells) = tv_cells(tv, tile)?;
    let labels: Vec<String> =
        cells.iter().map(|c| c.map_or_else(|| ".".into(), |(t, v)| alloc::format!("T{t}V{v}"))).collect();
    let w = labels.iter().map(String::len).max().unwrap_or(1) + 2;
    Ok(boxed_table(&alloc::format!("{tv} over {tile}"), m, n, &labels, w))
}

/// The CuTe docs' vector table of a rank-1 layout: `Layout:`, `Coord :` and `Index :` lines.
///
/// # Errors
/// `InvalidArgument` for too many cells; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs, 01_layout.md, "Vector Layouts"
/// let t = render::print_vector(&"((4,2)):((2,1))".parse()?)?;
/// assert_eq!(t, "Layout:  ((4,2)):((2,1))\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  2  4  6  1  3  5  7\n");
/// # Ok::<(), Error>(())
/// ```
pub fn print_vector(l: &Layout) -> Result<String> {
    let n = l.size()?.value();
    if !(0..=MAX_CELLS).contains(&n) {
        return Err(Error::InvalidArgument { op: "print_vector", reason: alloc::format!("{n} cells is too many") });
    }
    let idx = (0..n).map(|i| l.call(i)).collect::<Result<Vec<_>>>()?;
    let w = idx.iter().chain([n - 1].iter()).map(|&x| num_digits(x) + usize::from(x < 0)).max().unwrap_or(1) + 1;
    let w = w.max(3);
    let mut s = alloc::format!("Layout:  {l}\nCoord :");
    for i in 0..n {
        let _ = write!(s, "{i:>w$}");
    }
    s.push_str("\nIndex :");
    for x in &idx {
        let _ = write!(s, "{x:>w$}");
    }
    s.push('\n');
    Ok(s)
}

// ------------------------------------------------------------------------------------ SVG

/// CuTe's `TSVGColor_BWx8`: eight greys by index.
const GREYS: [(u8, u8, u8); 8] = [
    (255, 255, 255),
    (230, 230, 230),
    (205, 205, 205),
    (180, 180, 180),
    (155, 155, 155),
    (130, 130, 130),
    (105, 105, 105),
    (80, 80, 80),
];

/// CuTe's `SVGColor_TV`: eight pastel colours by thread.
const THREADS: [(u8, u8, u8); 8] = [
    (175, 175, 255),
    (175, 255, 175),
    (255, 255, 175),
    (255, 175, 175),
    (210, 210, 255),
    (210, 255, 210),
    (255, 255, 210),
    (255, 210, 210),
];

const CELL: i64 = 48;
const MARGIN: i64 = 48;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The frame of an SVG picture of an `m`×`n` grid: header, title, row and column labels.
fn svg_open(s: &mut String, title: &str, m: i64, n: i64) {
    svg_open_sized(s, title, m, n, 0, 0);
}

/// [`svg_open`] with room for `extra_h` pixels below the grid and at least `min_w` wide.
fn svg_open_sized(s: &mut String, title: &str, m: i64, n: i64, min_w: i64, extra_h: i64) {
    // Wide enough for the title too (monospace 12px: about 7.3px a character).
    let title_w = 8 + title.chars().count() as i64 * 15 / 2;
    let (w, h) = ((MARGIN + n * CELL + 8).max(title_w).max(min_w), MARGIN + m * CELL + 8 + extra_h);
    let _ = write!(
        s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"monospace\">\n<title>{}</title>\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <text x=\"4\" y=\"14\" font-size=\"12\">{}</text>\n",
        escape(title),
        escape(title)
    );
    for i in 0..m {
        let _ = writeln!(
            s,
            "<text class=\"row-label\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\" dominant-baseline=\"central\">{i}</text>",
            MARGIN - 6,
            MARGIN + i * CELL + CELL / 2
        );
    }
    for j in 0..n {
        let _ = writeln!(
            s,
            "<text class=\"col-label\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{j}</text>",
            MARGIN + j * CELL + CELL / 2,
            MARGIN - 8
        );
    }
}

fn svg_cell(s: &mut String, i: i64, j: i64, fill: (u8, u8, u8), attrs: &str, lines: &[String], tip: &str) {
    let (x, y) = (MARGIN + j * CELL, MARGIN + i * CELL);
    let dark = u32::from(fill.0) + u32::from(fill.1) + u32::from(fill.2) < 3 * 128;
    let ink = if dark { "white" } else { "black" };
    let _ = write!(
        s,
        "<g class=\"cell\" data-row=\"{i}\" data-col=\"{j}\"{attrs}><title>{}</title>\
         <rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"rgb({},{},{})\" stroke=\"black\" stroke-width=\"1\"/>",
        escape(tip),
        fill.0,
        fill.1,
        fill.2
    );
    // The cell's (row, column) coordinate, small, in its top-left corner.
    let _ = write!(
        s,
        "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"8\" fill=\"{ink}\" fill-opacity=\"0.7\">({i},{j})</text>",
        x + 3,
        y + 9
    );
    let k = lines.len() as i64;
    for (t, line) in lines.iter().enumerate() {
        let ty = y + CELL / 2 + 3 + (2 * t as i64 - (k - 1)) * 7;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{ty}\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"{ink}\">{}</text>",
            x + CELL / 2,
            escape(line)
        );
    }
    s.push_str("</g>\n");
}

fn natural(l: &Layout, i: i64, j: i64) -> Result<String> {
    // The natural (hierarchical) coordinate of cell (i, j).
    let mode = |k: usize, x: i64| -> Result<IntTuple> {
        let shape = if l.rank() == 1 { l.shape().clone() } else { l.shape().get(k)?.clone() };
        int_tuple::idx2crd(&IntTuple::int(x), &shape)
    };
    Ok(if l.rank() == 1 {
        alloc::format!("{}", mode(0, i)?)
    } else {
        alloc::format!("({},{})", mode(0, i)?, mode(1, j)?)
    })
}

/// An SVG picture of a rank-1 or rank-2 layout: a grid of cells coloured by index (CuTe's
/// eight greys), each labelled with its index and (small) its `(row,col)` coordinate, carrying `data-row`, `data-col` and `data-index`
/// attributes and a tooltip with its natural coordinate. Self-contained: no fonts, no scripts.
///
/// # Errors
/// As [`print_layout`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let svg = render::svg_layout(&"(2,(2,2)):(4,(2,1))".parse::<Layout>()?)?;
/// assert!(svg.contains("data-row=\"1\" data-col=\"2\" data-index=\"5\""));
/// # Ok::<(), Error>(())
/// ```
pub fn svg_layout<D: Drawn + ?Sized>(l: &D) -> Result<String> {
    let (m, n, v) = grid(l, "svg")?;
    let mut s = String::new();
    svg_open(&mut s, &l.to_styled(Style::Values), m, n);
    for i in 0..m {
        for j in 0..n {
            let idx = v[(i * n + j) as usize];
            let tip = alloc::format!("{} -> {idx}", natural(l.shape_layout()?, i, j)?);
            let attrs = alloc::format!(" data-index=\"{idx}\"");
            svg_cell(&mut s, i, j, GREYS[idx.rem_euclid(8) as usize], &attrs, &[alloc::format!("{idx}")], &tip);
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The rows and columns of a tile and, row by row, the (thread, value) that holds each cell.
type TvCells = (i64, i64, Vec<Option<(i64, i64)>>);

/// Where each element of an `M`×`N` tile comes from under a thread-value layout
/// `(thread, value) -> index` (the index read colexicographically in the tile): the first
/// (thread, value) that reaches each cell, as CuTe's `print_latex_tv` fills it.
fn tv_cells(tv: &Layout, tile: &IntTuple) -> Result<TvCells> {
    if tv.rank() != 2 {
        return Err(Error::RankMismatch {
            op: "svg_tv",
            expected: "a rank-2 (thread, value) layout".into(),
            found: tv.rank(),
        });
    }
    let pe = int_tuple::product_each(tile)?.leaves();
    let (m, n) = match pe.as_slice() {
        [m] => (m.value(), 1),
        [m, n] => (m.value(), n.value()),
        _ => {
            return Err(Error::RankMismatch {
                op: "svg_tv",
                expected: "a rank-1 or rank-2 tile".into(),
                found: pe.len(),
            })
        }
    };
    if m <= 0 || n <= 0 || m.saturating_mul(n) > MAX_CELLS {
        return Err(Error::InvalidArgument { op: "svg_tv", reason: alloc::format!("a {m}x{n} tile cannot be drawn") });
    }
    let (nt, nv) = (tv.get(0)?.size()?.value(), tv.get(1)?.size()?.value());
    if nt.saturating_mul(nv) > MAX_CELLS {
        return Err(Error::InvalidArgument { op: "svg_tv", reason: "too many (thread, value) pairs".into() });
    }
    let mut cells = alloc::vec![None; (m * n) as usize];
    for t in 0..nt {
        for v in 0..nv {
            let idx = at(tv, t, v)?;
            if idx < 0 || idx >= m * n {
                return Err(Error::InvalidArgument {
                    op: "svg_tv",
                    reason: alloc::format!("(T{t},V{v}) maps to {idx}, outside the {m}x{n} tile"),
                });
            }
            // Column-major in the tile: idx = row + col * M.
            let cell = &mut cells[((idx % m) * n + idx / m) as usize];
            if cell.is_none() {
                *cell = Some((t, v));
            }
        }
    }
    Ok((m, n, cells))
}

/// An SVG picture of a thread-value layout over an `M`×`N` tile: each cell coloured by the
/// thread that holds it (CuTe's TV palette) and labelled `T<t>` / `V<v>`; cells no thread holds
/// stay white.
///
/// # Errors
/// `RankMismatch` unless `tv` is rank 2 and the tile rank 1 or 2; `InvalidArgument` when an
/// index falls outside the tile or the picture is too large.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // 4 threads, 2 values each, over a 2x4 tile (thread t holds column t).
/// let svg = render::svg_tv(&"(4,2):(2,1)".parse()?, &"(2,4)".parse()?)?;
/// assert!(svg.contains("data-row=\"1\" data-col=\"3\" data-thread=\"3\" data-value=\"1\""));
/// # Ok::<(), Error>(())
/// ```
pub fn svg_tv(tv: &Layout, tile: &IntTuple) -> Result<String> {
    let (m, n, cells) = tv_cells(tv, tile)?;
    let mut s = String::new();
    svg_open(&mut s, &alloc::format!("{tv} over {tile}"), m, n);
    for i in 0..m {
        for j in 0..n {
            match cells[(i * n + j) as usize] {
                Some((t, v)) => {
                    let attrs = alloc::format!(" data-thread=\"{t}\" data-value=\"{v}\"");
                    let lines = [alloc::format!("T{t}"), alloc::format!("V{v}")];
                    let tip = alloc::format!("({i},{j}) <- (T{t},V{v})");
                    svg_cell(&mut s, i, j, THREADS[t.rem_euclid(8) as usize], &attrs, &lines, &tip);
                }
                None => svg_cell(&mut s, i, j, (255, 255, 255), "", &[], &alloc::format!("({i},{j}) unassigned")),
            }
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The tile extent of each axis of a tiling: a mode `(tile, rest...)` has tiles of
/// `size(tile)`; a mode that is not a tuple is one tile.
fn tile_extent(l: &Layout, k: usize) -> Result<i64> {
    let mode = if l.rank() == 1 { l.clone() } else { l.get(k)? };
    Ok(if mode.shape().is_tuple() && mode.rank() >= 2 { mode.get(0)?.size()?.value() } else { mode.size()?.value() })
}

/// An SVG picture of a tiling, the rank-2 result of a divide or product whose modes are
/// `(tile, rest)`: the cells as in [`svg_layout`], and every tile outlined (a `rect` of class
/// `tile` carrying `data-tile-row` / `data-tile-col`).
///
/// # Errors
/// As [`svg_layout`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let t = logical_divide(&"(4,6):(1,4)".parse()?, &"<2,3>".parse()?)?;
/// let svg = render::svg_tiling(&t)?;
/// assert_eq!(svg.matches("class=\"tile\"").count(), 4); // 2x2 tiles of 2x3
/// # Ok::<(), Error>(())
/// ```
pub fn svg_tiling(l: &Layout) -> Result<String> {
    let mut s = svg_layout(l)?;
    let (m, n) = extent(l, "svg_tiling")?;
    let (tm, tn) = (tile_extent(l, 0)?.max(1), if l.rank() == 1 { 1 } else { tile_extent(l, 1)?.max(1) });
    s.truncate(s.len() - "</svg>\n".len());
    for bi in 0..(m + tm - 1) / tm {
        for bj in 0..(n + tn - 1) / tn {
            let _ = writeln!(
                s,
                "<rect class=\"tile\" data-tile-row=\"{bi}\" data-tile-col=\"{bj}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
                 fill=\"none\" stroke=\"rgb(200,0,0)\" stroke-width=\"3\"/>",
                MARGIN + bj * tn * CELL,
                MARGIN + bi * tm * CELL,
                tn.min(n - bj * tn) * CELL,
                tm.min(m - bi * tm) * CELL
            );
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

// ---------------------------------------------------------------------------------- LaTeX

const LATEX_HEAD: &str = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

const LATEX_GREYS: [&str; 8] =
    ["black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70"];

fn latex_tail(s: &mut String, m: i64, n: i64) {
    let _ = write!(s, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({m},{n});\n\n");
    for i in 0..m {
        let _ = writeln!(s, "\\node at ({i},-1) {{\\Large{{\\texttt{{{i}}}}}}};");
    }
    for j in 0..n {
        let _ = writeln!(s, "\\node at (-1,{j}) {{\\Large{{\\texttt{{{j}}}}}}};");
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
}

/// LaTeX/TikZ of a rank-1 or rank-2 layout, as CuTe's `print_latex` writes it (a rank-1 layout
/// is padded to rank 2 with `1:0`; the comment line shows the layout in `style`).
///
/// # Errors
/// As [`print_layout`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let tex = render::latex_layout(&"(2,2):(1,2)".parse()?, Style::Cpp)?;
/// assert!(tex.starts_with("% Layout: (_2,_2):(_1,_2)\n\\documentclass[convert]{standalone}"));
/// assert!(tex.contains("\\node[fill=black!60] at (1,1) {3};"));
/// # Ok::<(), Error>(())
/// ```
pub fn latex_layout(l: &Layout, style: Style) -> Result<String> {
    let l2 = l.append_to(2)?;
    let (m, n, v) = grid(&l2, "latex")?;
    let mut s = alloc::format!("% Layout: {}\n{LATEX_HEAD}", l2.to_styled(style));
    for i in 0..m {
        for j in 0..n {
            let idx = v[(i * n + j) as usize];
            let _ = writeln!(s, "\\node[fill={}] at ({i},{j}) {{{idx}}};", LATEX_GREYS[idx.rem_euclid(8) as usize]);
        }
    }
    latex_tail(&mut s, m, n);
    Ok(s)
}

const LATEX_THREADS: [&str; 8] = [
    "{rgb,255:red,175;green,175;blue,255}",
    "{rgb,255:red,175;green,255;blue,175}",
    "{rgb,255:red,255;green,255;blue,175}",
    "{rgb,255:red,255;green,175;blue,175}",
    "{rgb,255:red,210;green,210;blue,255}",
    "{rgb,255:red,210;green,255;blue,210}",
    "{rgb,255:red,255;green,255;blue,210}",
    "{rgb,255:red,255;green,210;blue,210}",
];

/// LaTeX/TikZ of a thread-value layout over a tile, as CuTe's `print_latex_tv` writes it.
///
/// # Errors
/// As [`svg_tv`].
pub fn latex_tv(tv: &Layout, tile: &IntTuple, style: Style) -> Result<String> {
    let (m, n, cells) = tv_cells(tv, tile)?;
    let mut s = alloc::format!("% Layout TV: {}\n{LATEX_HEAD}", tv.to_styled(style));
    // CuTe writes the nodes in (thread, value) order.
    let mut nodes: Vec<(i64, i64, i64, i64)> = Vec::new();
    for i in 0..m {
        for j in 0..n {
            if let Some((t, v)) = cells[(i * n + j) as usize] {
                nodes.push((t, v, i, j));
            }
        }
    }
    nodes.sort_unstable();
    for (t, v, i, j) in nodes {
        let _ = writeln!(
            s,
            "\\node[fill={}] at ({i},{j}) {{\\shortstack{{T{t} \\\\ V{v}}}}};",
            LATEX_THREADS[t.rem_euclid(8) as usize]
        );
    }
    latex_tail(&mut s, m, n);
    Ok(s)
}

/// LaTeX/TikZ of a tiled MMA as CuTe's `print_latex(tiled_mma)` draws it: C at the origin, A to
/// its left and B above it, each cell labelled with the first (thread, value) that holds it.
/// `c`, `a` and `b` map `(thread, value)` to the column-major index in the `(M,N)`, `(M,K)` and
/// `(N,K)` tiles (`get_layoutC/A/B_TV`); the comment lines show them in `style` (C++ prints them
/// composed with identity tensors, in basis strides).
///
/// # Errors
/// `InvalidArgument` for a tile larger than [`MAX_CELLS`]; those of evaluation.
///
/// # Examples
/// ```
/// use cute_dyn::{mma::{MmaAtom, TiledMma}, render, Style};
/// let t = TiledMma::new(MmaAtom::named("SM80_16x8x8_F16F16F16F16_TN")?, &"(1,1,1):(0,0,0)".parse()?, &[])?;
/// let tile = [t.tile_size_mnk(0)?, t.tile_size_mnk(1)?, t.tile_size_mnk(2)?];
/// let tex = render::latex_mma(&t.layout_c_tv()?, &t.layout_a_tv()?, &t.layout_b_tv()?, tile, Style::Cpp)?;
/// // Thread 0 holds C(0,0) and C(0,1); A's column k = 0 is drawn at y = -K-1.
/// assert!(tex.contains("\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,1) {\\shortstack{T0 \\\\ V1}};"));
/// assert!(tex.contains("at (0,-9) {\\shortstack{T0 \\\\ V0}};"));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn latex_mma(c: &Layout, a: &Layout, b: &Layout, [m, n, k]: [i64; 3], style: Style) -> Result<String> {
    // Cells are placed by `index % rows`: every extent must be positive (and the picture small).
    if m.min(n).min(k) <= 0 {
        return Err(Error::InvalidArgument {
            op: "latex",
            reason: alloc::format!("tile ({m},{n},{k}) has an empty extent"),
        });
    }
    check_cells("latex", m.saturating_add(k).saturating_add(1), n.saturating_add(k).saturating_add(1))?;
    let mut s = alloc::format!(
        "% LayoutC: {}\n% LayoutA: {}\n% LayoutB: {}\n{LATEX_HEAD}",
        c.to_styled(style),
        a.to_styled(style),
        b.to_styled(style)
    );
    // C, then A (drawn left of C), then B (drawn above C, k along the rows).
    for (idx, (tv, rows)) in [(c, m), (a, m), (b, n)].into_iter().enumerate() {
        let at = |i: i64, j: i64| match idx {
            0 => (i, j),
            1 => (i, j - k - 1),
            _ => (j - k - 1, i),
        };
        let mut filled = alloc::collections::BTreeSet::new();
        for t in 0..tv.get(0)?.size()?.value() {
            for v in 0..tv.get(1)?.size()?.value() {
                let coord = Tuple::Node(alloc::vec![
                    Tuple::Leaf(Some(crate::Int::dy(t))),
                    Tuple::Leaf(Some(crate::Int::dy(v)))
                ]);
                let i = tv.call_coord(&coord)?.value();
                let (x, y) = at(i % rows, i / rows);
                if filled.insert((x, y)) {
                    let fill = LATEX_THREADS[t.rem_euclid(8) as usize];
                    let _ = writeln!(s, "\\node[fill={fill}] at ({x},{y}) {{\\shortstack{{T{t} \\\\ V{v}}}}};");
                }
            }
        }
        let grid = match idx {
            0 => (0, 0, m, n),
            1 => (0, -k - 1, m, -1),
            _ => (-k - 1, 0, -1, n),
        };
        let _ = write!(
            s,
            "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},{}) grid ({},{});\n\n",
            grid.0, grid.1, grid.2, grid.3
        );
        // The labels of A's and B's rows and columns.
        let label = |s: &mut String, x: i64, y: i64, text: i64| {
            let _ = writeln!(s, "\\node at ({x},{y}) {{\\Large{{\\texttt{{{text}}}}}}};");
        };
        if idx == 1 {
            (0..m).for_each(|i| label(&mut s, i, -k - 2, i));
            (0..k).for_each(|kk| label(&mut s, -1, kk - k - 1, kk));
        } else if idx == 2 {
            (0..n).for_each(|j| label(&mut s, -k - 2, j, j));
            (0..k).for_each(|kk| label(&mut s, kk - k - 1, -1, kk));
        }
    }
    s.push_str("\\end{tikzpicture}\n\\end{document}\n");
    Ok(s)
}

/// An SVG picture of a tiled MMA arranged as CuTe's `print_latex` of one: C's `(M,N)` tile, A's
/// `(M,K)` tile to its left, B above it drawn `(K,N)` so that its columns line up with C's; each
/// cell coloured by thread and labelled with its (thread, value), as [`svg_tv`]. The layouts as
/// for [`latex_mma`].
///
/// # Errors
/// As [`svg_tv`].
///
/// # Examples
/// ```
/// use cute_dyn::{mma::{MmaAtom, TiledMma}, render};
/// let t = TiledMma::new(MmaAtom::named("SM80_16x8x8_F16F16F16F16_TN")?, &"(1,1,1):(0,0,0)".parse()?, &[])?;
/// let tile = [t.tile_size_mnk(0)?, t.tile_size_mnk(1)?, t.tile_size_mnk(2)?];
/// let svg = render::svg_mma(&t.layout_c_tv()?, &t.layout_a_tv()?, &t.layout_b_tv()?, tile)?;
/// assert_eq!(svg.matches("<svg ").count(), 4); // the page and C, A, B
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn svg_mma(c: &Layout, a: &Layout, b: &Layout, [m, n, k]: [i64; 3]) -> Result<String> {
    let shape = |x: i64, y: i64| Tuple::Node(alloc::vec![IntTuple::int(x), IntTuple::int(y)]);
    // B's (n, k) index moved to the transposed (k, n) tile: n * K + k.
    let transpose = Layout::new(shape(n, k), shape(k, 1))?;
    let b_t = crate::composition(&transpose, &crate::Tiler::Layout(b.clone()))?;
    let parts = [svg_tv(c, &shape(m, n))?, svg_tv(a, &shape(m, k))?, svg_tv(&b_t, &shape(k, n))?];
    let size = |svg: &str, attr: &str| -> i64 {
        let at = svg.find(&alloc::format!(" {attr}=\"")).map_or(0, |i| i + attr.len() + 3);
        svg[at..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or(0)
    };
    let (wa, hb) = (size(&parts[1], "width"), size(&parts[2], "height"));
    let (w, h) = (
        wa + size(&parts[0], "width").max(size(&parts[2], "width")),
        hb + size(&parts[0], "height").max(size(&parts[1], "height")),
    );
    let mut s = alloc::format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    for (part, (x, y)) in parts.iter().zip([(wa, hb), (0, hb), (wa, 0)]) {
        let body = part.split_once('\n').map_or(part.as_str(), |(_, rest)| rest);
        s.push_str(&body.replacen("<svg ", &alloc::format!("<svg x=\"{x}\" y=\"{y}\" "), 1));
    }
    s.push_str("</svg>\n");
    Ok(s)
}

// ------------------------------------------------------------------ shared-memory banks

/// What a 32-thread warp pays to access a tile's rows, or its columns, in shared memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BankConflicts {
    /// The most wavefronts one access takes (1: conflict-free).
    pub worst: i64,
    /// The wavefronts beyond one per access, summed over all accesses.
    pub extra: i64,
    /// The number of accesses.
    pub accesses: i64,
}

/// The bank of the element at `offset` (in elements of `elem_bits` bits): 32 banks of 4 bytes.
pub fn bank_of(offset: i64, elem_bits: u32) -> i64 {
    (word_of(offset, elem_bits) % 32) as i64
}

/// The 4-byte word holding the element at `offset` (in `i128`: `offset * elem_bits` can pass
/// `i64` for a layout's large indices); negative words wrap into the banks as positive ones do.
fn word_of(offset: i64, elem_bits: u32) -> i128 {
    (i128::from(offset) * i128::from(elem_bits) / 32).rem_euclid(1 << 64)
}

/// The bank conflicts of reading a row-major grid of offsets (`m` rows, `n` columns) by rows
/// (`by_rows`: thread `t` of an access takes cell `(i, j0 + t)`) or by columns (cell
/// `(i0 + t, j)`). An access is as many threads as one wavefront serves (32, or 1024 /
/// `elem_bits` for wider elements); it takes as many wavefronts as the most distinct 4-byte
/// words any one bank holds among its cells (the same word is broadcast).
pub fn bank_conflicts(m: i64, n: i64, offsets: &[i64], elem_bits: u32, by_rows: bool) -> BankConflicts {
    let per_access = (1024 / i64::from(elem_bits.max(1))).clamp(1, 32);
    let (lines, len) = if by_rows { (m, n) } else { (n, m) };
    let mut out = BankConflicts { worst: if lines * len > 0 { 1 } else { 0 }, extra: 0, accesses: 0 };
    for line in 0..lines {
        for start in (0..len).step_by(per_access as usize) {
            let mut words: Vec<(i64, i128)> = (start..(start + per_access).min(len))
                .map(|k| {
                    let cell = if by_rows { line * n + k } else { k * n + line };
                    let word = word_of(offsets[cell as usize], elem_bits);
                    ((word % 32) as i64, word)
                })
                .collect();
            words.sort_unstable();
            words.dedup();
            let mut per_bank = [0i64; 32];
            for (bank, _) in &words {
                per_bank[*bank as usize] += 1;
            }
            let wavefronts = per_bank.iter().copied().max().unwrap_or(0).max(1);
            out.worst = out.worst.max(wavefronts);
            out.extra += wavefronts - 1;
            out.accesses += 1;
        }
    }
    out
}

fn bank_summary(m: i64, n: i64, offsets: &[i64], elem_bits: u32) -> String {
    let line = |what: &str, c: BankConflicts| {
        alloc::format!(
            "{what}: {} accesses of up to 32 threads, worst {}-way, {} extra wavefronts{}\n",
            c.accesses,
            c.worst,
            c.extra,
            if c.extra == 0 { " (conflict-free)" } else { "" }
        )
    };
    alloc::format!(
        "{}{}",
        line("rows", bank_conflicts(m, n, offsets, elem_bits, true)),
        line("columns", bank_conflicts(m, n, offsets, elem_bits, false))
    )
}

/// `print_layout`'s table with each cell's shared-memory bank instead of its index, and the
/// bank conflicts of reading the rows and the columns with 32-thread warps.
///
/// # Errors
/// `InvalidArgument` for too many cells.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // A row-major 32x32 tile of 4-byte elements: a column lies in one bank (32-way conflict).
/// let l: Layout = "(32,32):(32,1)".parse()?;
/// let offsets: Vec<i64> = (0..32).flat_map(|i| (0..32).map(move |j| 32 * i + j)).collect();
/// let t = render::print_banks("(32,32):(32,1)", 32, 32, &offsets, 32)?;
/// assert!(t.contains("columns: 32 accesses of up to 32 threads, worst 32-way, 992 extra wavefronts\n"));
/// assert!(t.contains("rows: 32 accesses of up to 32 threads, worst 1-way, 0 extra wavefronts (conflict-free)\n"));
/// # let _ = l;
/// # Ok::<(), Error>(())
/// ```
pub fn print_banks(title: &str, m: i64, n: i64, offsets: &[i64], elem_bits: u32) -> Result<String> {
    check_cells("print_banks", m, n)?;
    let cells: Vec<String> = offsets.iter().map(|&o| alloc::format!("{}", bank_of(o, elem_bits))).collect();
    let mut s = boxed_table(&alloc::format!("{title}  (banks, {elem_bits}-bit elements)"), m, n, &cells, 4);
    s.push_str(&bank_summary(m, n, offsets, elem_bits));
    Ok(s)
}

/// An SVG picture of the grid coloured by shared-memory bank (32 hues), each cell labelled with
/// its index and `b<bank>`, with the bank-conflict summary below.
///
/// # Errors
/// `InvalidArgument` for too many cells.
pub fn svg_banks(title: &str, m: i64, n: i64, offsets: &[i64], elem_bits: u32) -> Result<String> {
    check_cells("svg_banks", m, n)?;
    let mut s = String::new();
    let summary = bank_summary(m, n, offsets, elem_bits);
    let widest = summary.lines().map(|l| l.chars().count() as i64).max().unwrap_or(0);
    svg_open_sized(&mut s, title, m, n, 8 + widest * 15 / 2, 40);
    for i in 0..m {
        for j in 0..n {
            let o = offsets[(i * n + j) as usize];
            let bank = bank_of(o, elem_bits);
            svg_cell(
                &mut s,
                i,
                j,
                hue(bank),
                &alloc::format!(" data-index=\"{o}\" data-bank=\"{bank}\""),
                &[alloc::format!("{o}"), alloc::format!("b{bank}")],
                &alloc::format!("index {o}, bank {bank}"),
            );
        }
    }
    for (k, text) in summary.lines().enumerate() {
        let _ = writeln!(
            s,
            "<text class=\"banks\" x=\"4\" y=\"{}\" font-size=\"12\">{}</text>",
            MARGIN + m * CELL + 16 + 16 * k as i64,
            escape(text)
        );
    }
    s.push_str("</svg>\n");
    Ok(s)
}

fn check_cells(op: &'static str, m: i64, n: i64) -> Result<()> {
    if m < 0 || n < 0 || m.max(1).saturating_mul(n.max(1)) > MAX_CELLS {
        return Err(Error::InvalidArgument { op, reason: alloc::format!("{m}x{n} cells is too many to draw") });
    }
    Ok(())
}

/// One of 32 distinguishable pale hues for bank `b`.
fn hue(b: i64) -> (u8, u8, u8) {
    // Hue steps of 11/32 of the circle so that neighbouring banks differ.
    let h = (b * 11 % 32) as f64 / 32.0 * 6.0;
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    let (r, g, bl) = match h as i64 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let pale = |c: f64| (160.0 + 95.0 * c) as u8;
    (pale(r), pale(g), pale(bl))
}
