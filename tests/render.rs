//! Rendering: text tables equal to CuTe C++'s `print_layout` and LaTeX equal to its
//! `print_latex` / `print_latex_tv` (oracle output in `tests/data/render/cxx_render.txt`, made by
//! `gen_cxx_render.cpp` with the CuTe 4.2 headers), and SVG read back as XML.

use cute::cute_dyn::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// The oracle's output, split into blocks: a print_layout table starts with its layout line
/// `(`... or `Sw<`..., a LaTeX document with its `%` comment lines.
fn cxx_blocks() -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    let mut comment = false;
    for line in include_str!("data/render/cxx_render.txt").lines() {
        // A LaTeX document may open with several comment lines (print_latex of a tiled MMA).
        let starts = line.starts_with('(') || line.starts_with("Sw<") || line.starts_with('%') && !comment;
        comment = line.starts_with('%');
        if starts {
            blocks.push(String::new());
        }
        let b = blocks.last_mut().expect("starts with a header");
        b.push_str(line);
        b.push('\n');
    }
    blocks
}

#[test]
fn print_layout_equals_cute() {
    let b = cxx_blocks();
    // CuTe docs' s2xh4 (dynamic integers), then static layouts.
    assert_eq!(render::print_layout(&l("({2},({2},{2})):({4},({2},{1}))"), Style::Cpp).unwrap(), b[0]);
    assert_eq!(render::print_layout(&l("(2,3):(1,2)"), Style::Cpp).unwrap(), b[1]);
    let right = make_layout_right(&"(4,(2,3))".parse().unwrap()).unwrap();
    assert_eq!(render::print_layout(&right, Style::Cpp).unwrap(), b[2]);
    assert_eq!(render::print_layout(&l("((2,2),(3,4)):((1,24),(2,6))"), Style::Cpp).unwrap(), b[3]);
    assert_eq!(render::print_layout(&l("(3,(2,3)):(3,(12,1))"), Style::Cpp).unwrap(), b[4]);
    // The CuTe docs' table for s2xh4 (whose trailing blanks the markdown dropped).
    let doc = "(2,(2,2)):(4,(2,1))\n      0   1   2   3\n    +---+---+---+---+\n 0  | 0 | 2 | 1 | 3 |\n    +---+---+---+---+\n 1  | 4 | 6 | 5 | 7 |\n    +---+---+---+---+\n";
    let ours = render::print_layout(&l("(2,(2,2)):(4,(2,1))"), Style::Values).unwrap();
    let trimmed: String = ours.lines().map(|x| format!("{}\n", x.trim_end())).collect();
    assert_eq!(trimmed, doc);
}

#[test]
fn print_layout_of_a_composed_layout_equals_cute() {
    let b = cxx_blocks();
    // A swizzled tile and a layout as the outer function: each drawn over its inner shape.
    let c: ComposedLayout = "Sw<2,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    assert_eq!(render::print_layout(&c, Style::Cpp).unwrap(), b[8]);
    let c: ComposedLayout = "(8,8):(8,1) o 2 o (4,4):(4,1)".parse().unwrap();
    assert_eq!(render::print_layout(&c, Style::Cpp).unwrap(), b[9]);
}

/// CuTe's `print_latex(tiled_mma)`: C, A and B in one picture. C++'s comment lines show the
/// thread-value layouts composed with identity tensors (basis strides); the picture must be
/// the same.
#[test]
fn print_latex_of_a_tiled_mma_equals_cute() {
    use cute::cute_dyn::mma::{MmaAtom, TiledMma};
    let b = cxx_blocks();
    let body = |s: &str| s.lines().skip(3).collect::<Vec<_>>().join("\n");
    for (atom, layout, block) in [
        ("SM80_16x8x8_F16F16F16F16_TN", "(1,1,1):(0,0,0)", 10),
        ("SM80_16x8x16_F32F16F16F32_TN", "(2,1,1):(1,0,0)", 11),
    ] {
        let t = TiledMma::new(MmaAtom::named(atom).unwrap(), &l(layout), &[]).unwrap();
        let tile = [0, 1, 2].map(|i| t.tile_size_mnk(i).unwrap());
        let ours = render::latex_mma(
            &t.layout_c_tv().unwrap(),
            &t.layout_a_tv().unwrap(),
            &t.layout_b_tv().unwrap(),
            tile,
            Style::Cpp,
        )
        .unwrap();
        assert_eq!(body(&ours), body(&b[block]), "{atom}");
    }
}

#[test]
fn print_latex_equals_cute() {
    let b = cxx_blocks();
    assert_eq!(render::latex_layout(&l("(2,2):(1,2)"), Style::Cpp).unwrap(), b[5]);
    assert_eq!(render::latex_layout(&l("4:2"), Style::Cpp).unwrap(), b[6]);
    // CuTe's TV printer takes the layout composed with an identity layout (its comment line
    // shows basis strides); the picture itself must be the same.
    let ours = render::latex_tv(&l("(4,2):(2,1)"), &"(2,4)".parse().unwrap(), Style::Cpp).unwrap();
    let body = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&ours), body(&b[7]));
}

#[test]
fn documented_vector_tables() {
    // CuTe docs, 01_layout.md, "Vector Layouts".
    assert_eq!(
        render::print_vector(&l("8:2")).unwrap(),
        "Layout:  8:2\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  2  4  6  8 10 12 14\n"
    );
    assert_eq!(
        render::print_vector(&l("((4,2)):((1,4))")).unwrap(),
        "Layout:  ((4,2)):((1,4))\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  1  2  3  4  5  6  7\n"
    );
    // print1D / print2D of the docs' s2xs4 (2,4):(1,2) and s2xh4.
    assert_eq!(render::print1d(&l("(2,4):(1,2)")).unwrap(), "  0    1    2    3    4    5    6    7  ");
    assert_eq!(render::print2d(&l("(2,(2,2)):(4,(2,1))")).unwrap(), "  0    2    1    3  \n  4    6    5    7  \n");
}

/// One cell of an SVG picture, read back as XML.
struct Cell {
    row: i64,
    col: i64,
    attrs: std::collections::HashMap<String, String>,
    coord: String,
    texts: Vec<String>,
}

fn svg_cells(svg: &str) -> Vec<Cell> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(doc.root_element().tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("cell"))
        .map(|n| Cell {
            row: n.attribute("data-row").unwrap().parse().unwrap(),
            col: n.attribute("data-col").unwrap().parse().unwrap(),
            attrs: n.attributes().map(|a| (a.name().to_string(), a.value().to_string())).collect(),
            coord: n
                .descendants()
                .find(|t| t.attribute("class") == Some("coord"))
                .and_then(|t| t.text())
                .map(String::from)
                .unwrap_or_default(),
            texts: n
                .descendants()
                .filter(|t| t.tag_name().name() == "text" && t.attribute("class") != Some("coord"))
                .filter_map(|t| t.text())
                .map(String::from)
                .collect(),
        })
        .collect()
}

fn self_contained(svg: &str) {
    for bad in ["href", "<script", "@import", "url(", "@font-face"] {
        assert!(!svg.contains(bad), "the SVG refers outside itself: {bad}");
    }
}

#[test]
fn svg_cells_carry_the_indices() {
    for text in ["(2,(2,2)):(4,(2,1))", "(3,(2,3)):(3,(12,1))", "8:3", "((2,2),(3,4)):((1,24),(2,6))"] {
        let lay = l(text);
        let svg = render::svg_layout(&lay).unwrap();
        self_contained(&svg);
        let cells = svg_cells(&svg);
        let (m, n) = if lay.rank() == 1 {
            (lay.size().unwrap().value(), 1)
        } else {
            (lay.get(0).unwrap().size().unwrap().value(), lay.get(1).unwrap().size().unwrap().value())
        };
        assert_eq!(cells.len() as i64, m * n);
        for c in cells {
            let (i, j) = (c.row, c.col);
            let want = if lay.rank() == 1 {
                lay.call(i).unwrap()
            } else {
                lay.call_coord(&format!("({i},{j})").parse().unwrap()).unwrap().value()
            };
            assert_eq!(c.attrs["data-index"].parse::<i64>().unwrap(), want, "{text} at ({i},{j})");
            assert_eq!(c.texts, [want.to_string()]);
            assert_eq!(c.coord, format!("({i},{j})"));
        }
    }
}

#[test]
fn svg_thread_value_cells() {
    let (tv, tile) = (l("((4,2),(2,2)):((8,1),(4,2))"), "(8,4)".parse::<IntTuple>().unwrap());
    let svg = render::svg_tv(&tv, &tile).unwrap();
    self_contained(&svg);
    let cells = svg_cells(&svg);
    assert_eq!(cells.len(), 32);
    for c in cells {
        let t: i64 = c.attrs["data-thread"].parse().unwrap();
        let v: i64 = c.attrs["data-value"].parse().unwrap();
        // (t, v) -> index, read column-major in the 8x4 tile.
        let idx = tv.call_coord(&format!("({t},{v})").parse().unwrap()).unwrap().value();
        assert_eq!((idx % 8, idx / 8), (c.row, c.col));
        assert_eq!(c.texts, [format!("T{t}"), format!("V{v}")]);
        assert_eq!(c.coord, format!("({},{})", c.row, c.col));
    }
}

#[test]
fn svg_tiling_outlines_every_tile() {
    let t = logical_divide(&l("(8,6):(1,8)"), &"<4,3>".parse().unwrap()).unwrap();
    let svg = render::svg_tiling(&t).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let tiles: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("tile")).collect();
    assert_eq!(tiles.len(), 4, "2x2 tiles of 4x3");
    for tile in tiles {
        assert_eq!(tile.attribute("width"), Some("144")); // 3 cells of 48
        assert_eq!(tile.attribute("height"), Some("192")); // 4 cells of 48
    }
}

#[test]
fn rendering_refuses_what_it_cannot_draw() {
    assert!(render::print_layout(&l("(2,2,2):(1,2,4)"), Style::Values).is_err());
    assert!(render::svg_layout(&l("(1024,1024):(1,1024)")).is_err());
    assert!(render::svg_tv(&l("(4,2):(2,1)"), &"(2,2)".parse().unwrap()).is_err());
}
