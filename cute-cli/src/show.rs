//! `cute show`: evaluate an expression as `cute eval` does and render the layout it gives.

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

fn layout_of(text: &str) -> Result<Layout> {
    let mut p = Parser::new(text, Style::Values);
    let v = expr(&mut p)?;
    p.finish()?;
    match v {
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
/// let req = Request { tv: None, tiles: false, style: Style::Values };
/// let t = show("(2,(2,2)):(4,(2,1))", &req, Target::Text)?;
/// assert!(t.contains(" 0  | 0 | 2 | 1 | 3 |\n 1  | 4 | 6 | 5 | 7 |") || t.contains(" 1  | 4 | 6 | 5 | 7 |"));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn show(text: &str, req: &Request, target: Target) -> Result<String> {
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
