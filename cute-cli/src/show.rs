//! `cute show`: evaluate an expression as `cute eval` does and render the layout it gives.

use cute_dyn::mma::{MmaAtom, TiledMma};
use cute_dyn::{render, Error, IntTuple, Layout, Parser, Result, Style};

use crate::eval::{expr, Value};

/// What to draw.
pub struct Request {
    /// Draw a thread-value layout over a tile of this shape (text in the notation).
    pub tv: Option<String>,
    /// Outline the tiles of a `(tile, rest)` tiling.
    pub tiles: bool,
    /// The style of the layout in titles.
    pub style: Style,
    /// Colour by shared-memory bank for elements of this many bits, and report the bank
    /// conflicts of reading the rows and the columns (`--banks [--elem-bits N]`).
    pub banks: Option<u32>,
    /// With `banks`: also the smallest swizzle that makes reading the rows and the columns
    /// conflict-free, and the tile under it (`--find-swizzle`).
    pub find_swizzle: bool,
    /// Draw the tiled MMA of this atom (`--mma SM80_16x8x16_F32F16F16F32_TN`) over the atom
    /// layout the expression gives (a layout or a shape, e.g. `(2,2,1)`): C, A and B.
    pub mma: Option<String>,
}

/// The output format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// CuTe's `print_layout` table (a vector table for rank 1).
    Text,
    /// A self-contained SVG picture.
    Svg,
    /// LaTeX/TikZ as CuTe's `print_latex`.
    Latex,
}

fn value_of(text: &str) -> Result<Value> {
    let mut p = Parser::new(text, Style::Values);
    let v = expr(&mut p)?;
    p.finish()?;
    Ok(v)
}

fn layout_of(text: &str) -> Result<Layout> {
    match value_of(text)? {
        Value::Layout(l) => Ok(l),
        other => Err(Error::InvalidArgument {
            op: "show",
            reason: format!("the expression gives {}, not a layout", other.to_styled(Style::Values)),
        }),
    }
}

/// Evaluate `text` and render the layout.
///
/// # Errors
/// Those of the expression; `InvalidArgument` when it is not a layout; those of
/// [`cute_dyn::render`] (rank, size).
///
/// # Examples
/// ```
/// use cute_cli::show::{show, Request, Target};
/// use cute_dyn::Style;
/// let req = Request { tv: None, tiles: false, style: Style::Values, banks: None, find_swizzle: false, mma: None };
/// let t = show("(2,(2,2)):(4,(2,1))", &req, Target::Text)?;
/// assert!(t.contains(" 0  | 0 | 2 | 1 | 3 |\n 1  | 4 | 6 | 5 | 7 |") || t.contains(" 1  | 4 | 6 | 5 | 7 |"));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn show(text: &str, req: &Request, target: Target) -> Result<String> {
    if let Some(bits) = req.banks {
        let before = banks(text, bits, req.style, target)?;
        if !req.find_swizzle {
            return Ok(before);
        }
        let Value::Layout(tile) = value_of(text)? else {
            return Err(Error::InvalidArgument { op: "show", reason: "--find-swizzle searches over a layout".into() });
        };
        let found = cute_dyn::linear::conflict_free_swizzle(&tile, bits)?;
        let after = banks(&format!("{} o 0 o {text}", found.swizzle), bits, req.style, target)?;
        return Ok(match target {
            Target::Text => format!("{before}\nsmallest conflict-free swizzle: {}\n\n{after}", found.swizzle),
            _ => after,
        });
    }
    if let Some(atom) = &req.mma {
        return mma(atom, text, req.style, target);
    }
    if let Value::Composed(c) = value_of(text)? {
        // A swizzled tile: its function over the inner layout's shape (CuTe's print_layout).
        return match target {
            Target::Text => render::print_layout(&c, req.style),
            Target::Svg if !req.tiles && req.tv.is_none() => render::svg_layout(&c),
            _ => Err(Error::InvalidArgument {
                op: "show",
                reason: "a composed layout draws as a table or an SVG grid (no --tv, --tiles or --latex)".into(),
            }),
        };
    }
    let l = layout_of(text)?;
    if let Some(tile) = &req.tv {
        let tile: IntTuple = tile.parse()?;
        return match target {
            Target::Text => render::print_tv(&l, &tile),
            Target::Svg => render::svg_tv(&l, &tile),
            Target::Latex => render::latex_tv(&l, &tile, req.style),
        };
    }
    match target {
        Target::Text if l.rank() == 1 => render::print_vector(&l),
        Target::Text => render::print_layout(&l, req.style),
        Target::Svg if req.tiles => render::svg_tiling(&l),
        Target::Svg => render::svg_layout(&l),
        Target::Latex => render::latex_layout(&l, req.style),
    }
}

/// `--mma ATOM`: the tiled MMA's C, A and B thread-value layouts, as tables, as one SVG
/// picture, or as CuTe's `print_latex` of the tiled MMA.
fn mma(atom: &str, text: &str, style: Style, target: Target) -> Result<String> {
    let atoms = match value_of(text)? {
        Value::Layout(l) => l,
        Value::Tuple(t) => cute_dyn::make_layout_left(&no_underscore(&t)?)?,
        Value::Int(i) => cute_dyn::make_layout_left(&IntTuple::Leaf(i))?,
        other => {
            return Err(Error::InvalidArgument {
                op: "show",
                reason: format!("--mma takes an atom layout, not {}", other.to_styled(Style::Values)),
            })
        }
    };
    let t = TiledMma::new(MmaAtom::named(atom)?, &atoms, &[])?;
    let tile = [t.tile_size_mnk(0)?, t.tile_size_mnk(1)?, t.tile_size_mnk(2)?];
    let (c, a, b) = (t.layout_c_tv()?, t.layout_a_tv()?, t.layout_b_tv()?);
    match target {
        Target::Latex => render::latex_mma(&c, &a, &b, tile, style),
        Target::Svg => render::svg_mma(&c, &a, &b, tile),
        Target::Text => {
            let [m, n, k] = tile;
            let shape = |x: i64, y: i64| IntTuple::Node(vec![IntTuple::int(x), IntTuple::int(y)]);
            let mut out = format!(
                "{atom} over {}: {} threads, tile (M,N,K) = ({m},{n},{k})\n",
                atoms.to_styled(style),
                t.size()?
            );
            for (name, tv, tile) in
                [("C (M,N)", &c, shape(m, n)), ("A (M,K)", &a, shape(m, k)), ("B (N,K)", &b, shape(n, k))]
            {
                out.push_str(&format!("\n{name}: {}\n", tv.to_styled(style)));
                out.push_str(&render::print_tv(tv, &tile)?);
            }
            Ok(out)
        }
    }
}

fn no_underscore(t: &cute_dyn::Coord) -> Result<IntTuple> {
    t.try_map(&mut |x| x.ok_or_else(|| Error::InvalidArgument { op: "show", reason: "'_' in an atom layout".into() }))
}

/// `--banks`: the grid of a rank-1 or rank-2 layout or composed layout (a swizzled shared-memory
/// tile), each cell's bank, and the conflicts of reading its rows and its columns.
fn banks(text: &str, elem_bits: u32, style: Style, target: Target) -> Result<String> {
    if ![8, 16, 32, 64, 128].contains(&elem_bits) {
        return Err(Error::InvalidArgument {
            op: "show",
            reason: format!("--elem-bits {elem_bits}: 8, 16, 32, 64 or 128"),
        });
    }
    let v = value_of(text)?;
    let (title, inner) = match &v {
        Value::Layout(l) => (l.to_styled(style), l.clone()),
        Value::Composed(c) => (v.to_styled(style), c.layout()?.clone()),
        other => {
            return Err(Error::InvalidArgument {
                op: "show",
                reason: format!("the expression gives {}, not a layout", other.to_styled(Style::Values)),
            })
        }
    };
    let (m, n) = match inner.rank() {
        1 => (inner.size()?.value(), 1),
        2 => (inner.get(0)?.size()?.value(), inner.get(1)?.size()?.value()),
        r => {
            return Err(Error::RankMismatch { op: "show", expected: "rank 1 or 2".into(), found: r });
        }
    };
    if m.max(1).saturating_mul(n.max(1)) > render::MAX_CELLS {
        return Err(Error::InvalidArgument { op: "show", reason: format!("{m}x{n} cells is too many to draw") });
    }
    let mut offsets = Vec::with_capacity((m * n) as usize);
    for i in 0..m {
        for j in 0..n {
            let c: cute_dyn::Coord = if inner.rank() == 1 { format!("{i}") } else { format!("({i},{j})") }.parse()?;
            offsets.push(match &v {
                Value::Composed(comp) => comp.call(&c)?,
                _ => inner.call_coord(&c)?.value(),
            });
        }
    }
    match target {
        Target::Svg => render::svg_banks(&title, m, n, &offsets, elem_bits),
        Target::Text => render::print_banks(&title, m, n, &offsets, elem_bits),
        Target::Latex => Err(Error::InvalidArgument { op: "show", reason: "--banks draws text or SVG".into() }),
    }
}
