//! The `cute` binary: `cute eval` writes one line per input line and exits 0; the tour exits 0.

use std::io::Write;
use std::process::{Command, Stdio};

fn cute(args: &[&str], stdin: &[u8]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run cute");
    // Written from a thread: a long input would otherwise fill the output pipe first.
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn eval_stdin_one_line_per_line() {
    let input = b"coalesce((2,(1,6)):(1,(6,2)))\n\xff\xfe\n\ncomplement((2,2):(1,1))\nfoo(1)\n(2,3:(1,2)\n  composition( (6,2):(8,2) , (4,3):(3,1) )\nslice_and_offset((_,1),(4,2):(2,1))";
    let (code, out) = cute(&["eval"], input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert_eq!(lines[0], "12:1");
    assert!(lines[1].starts_with("error: parse error at byte 0"), "{}", lines[1]);
    assert!(lines[2].starts_with("error: "));
    // L(1) = L(2) = 1: the witness of the definition.
    assert_eq!(
        lines[3],
        "error: non-injective layout in complement: (2,2):(1,1) maps two coordinates to one index (it maps 1 and 2 to 1)"
    );
    assert_eq!(lines[4], "error: parse error at byte 0: unknown operation 'foo'");
    assert_eq!(lines[5], "error: parse error at byte 4: expected ',', found ':'");
    assert_eq!(lines[6], "((2,2),3):((24,2),8)");
    assert_eq!(lines[7], "[(4):(2),1]");
}

#[test]
fn eval_styles_and_argument() {
    let e = "composition((6,2):({8},2),(4,3):(3,1))";
    assert_eq!(cute(&["eval", "--style", "dsl", e], b"").1, "((2,2),3):((?{div=3},2),?)\n");
    assert_eq!(cute(&["eval", "--style", "cpp", e], b"").1, "((_2,_2),_3):((24,_2),8)\n");
    assert_eq!(cute(&["eval", e], b"").1, "((2,2),3):(({24:3},2),{8})\n");
}

#[test]
fn the_tour_exits_zero() {
    let (code, out) = cute(&[], b"");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("34 of 34 documented results reproduced exactly"), "{out}");
}

#[test]
fn show_text_and_svg() {
    let (code, out) = cute(&["show", "(2,(2,2)):(4,(2,1))"], b"");
    assert_eq!(code, 0);
    assert!(out.contains(" 0  | 0 | 2 | 1 | 3 |\n"), "{out}");
    let dir = std::env::temp_dir().join(format!("cute-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("t.svg");
    let (code, _) =
        cute(&["show", "--tiles", "--svg", svg.to_str().unwrap(), "logical_divide((8,6):(1,8),<4,3>)"], b"");
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(text.matches("class=\"tile\"").count(), 4);
    // Not a layout, or too high a rank: an error and a non-zero exit.
    assert_ne!(cute(&["show", "size(4:1)"], b"").0, 0);
    assert_ne!(cute(&["show", "(2,2,2):(1,2,4)"], b"").0, 0);
}

/// Regression (issue 10): a failed one-shot `cute eval` exited 0, and `-1:1` was taken for a
/// flag.
#[test]
fn eval_one_shot_failure_exits_non_zero_and_negative_literals_are_expressions() {
    let (code, out) = cute(&["eval", "complement((2,2):(1,1))"], b"");
    assert_eq!(code, 1);
    assert!(out.starts_with("error: non-injective layout in complement"), "{out}");
    // -1:1 reaches the evaluator (a negative shape is refused there, at byte 0), not clap.
    assert_eq!(
        cute(&["eval", "-1:1"], b""),
        (1, "error: parse error at byte 0: invalid argument to make_layout: negative shape -1\n".into(),)
    );
    assert_eq!(cute(&["eval", "-3"], b""), (0, "-3\n".into()));
    assert_eq!(cute(&["eval", "--style", "cpp", "1:-1"], b""), (0, "_1:_-1\n".into()));
}

/// `--format json`: one object per answer, of each kind, and errors with their kind (the
/// schema of docs/json.md). Expected values are CuTe's documented results.
#[test]
fn eval_json_of_every_kind() {
    let input = b"composition((6,2):({8},2),(4,3):(3,1))\n7\n(1,_)\nslice_and_offset((_,1),(4,2):(2,1))\nSw<3,3,3>\nis_injective(4:1)\n<3,_>\ncomplement((2,2):(1,1))\ncomposition((6,2):(1,7),4:9)\n(2,3:(1,2)\n";
    let (code, out) = cute(&["eval", "--format", "json"], input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    // CuTe DSL docs: ((2,2),3):((?{div=3},2),?), values ((2,2),3):((24,2),8)
    assert_eq!(
        lines[0],
        r#"{"kind":"layout","values":"((2,2),3):(({24:3},2),{8})","cpp":"((_2,_2),_3):((24,_2),8)","dsl":"((2,2),3):((?{div=3},2),?)","shape":[[{"value":2,"static":true,"divisor":2},{"value":2,"static":true,"divisor":2}],{"value":3,"static":true,"divisor":3}],"stride":[[{"value":24,"static":false,"divisor":3},{"value":2,"static":true,"divisor":2}],{"value":8,"static":false,"divisor":1}]}"#
    );
    assert_eq!(
        lines[1],
        r#"{"kind":"int","values":"7","cpp":"_7","dsl":"7","value":{"value":7,"static":true,"divisor":7}}"#
    );
    assert_eq!(
        lines[2],
        r#"{"kind":"tuple","values":"(1,_)","cpp":"(_1,_)","dsl":"(1,_)","tuple":[{"value":1,"static":true,"divisor":1},null]}"#
    );
    // slice_and_offset((_,1), (4,2):(2,1)) = ((4):(2), 1)
    assert!(
        lines[3].starts_with(r#"{"kind":"pair","values":"[(4):(2),1]","cpp":"[(_4):(_2),_1]","dsl":"[(4):(2),1]","first":{"kind":"layout","values":"(4):(2)""#),
        "{}",
        lines[3]
    );
    assert!(lines[3].ends_with(
        r#""second":{"kind":"int","values":"1","cpp":"_1","dsl":"1","value":{"value":1,"static":true,"divisor":1}}}"#
    ));
    assert_eq!(lines[4], r#"{"kind":"swizzle","values":"Sw<3,3,3>","params":[3,3,3]}"#);
    assert_eq!(lines[5], r#"{"kind":"bool","value":true}"#);
    assert_eq!(lines[6], r#"{"kind":"tiler","values":"<3,_>","cpp":"<_3,_>","dsl":"<3,_>"}"#);
    assert!(lines[7].starts_with(r#"{"error":{"kind":"non_injective","message":"non-injective layout in complement"#));
    assert!(lines[8].starts_with(r#"{"error":{"kind":"stride_divisibility","message":"stride divisibility"#));
    assert_eq!(lines[9], r#"{"error":{"kind":"parse","message":"parse error at byte 4: expected ',', found ':'"}}"#);
}

/// `cute ops`: every operation listed, one line each; `cute ops NAME` evaluates its example.
#[test]
fn ops_lists_the_table_and_shows_examples() {
    let (code, out) = cute(&["ops"], b"");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), cute_cli::eval::OPS.len());
    assert!(
        out.lines().any(|l| l.starts_with("composition(layout | swizzle | composed, tiler) -> layout | composed")),
        "{out}"
    );
    // CuTe docs: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8))
    let (code, out) = cute(&["ops", "logical_divide"], b"");
    assert_eq!(code, 0);
    assert!(out.ends_with("    = ((2,2),(2,3)):((4,1),(2,8))\n"), "{out}");
    assert_ne!(cute(&["ops", "no_such_op"], b"").0, 0);
    // Every example of the table evaluates.
    for op in cute_cli::eval::OPS {
        assert!(cute_cli::eval::eval(op.example, cute::cute_dyn::Style::Values).is_ok(), "{}: {}", op.name, op.example);
        assert!(op.example.starts_with(op.name), "{}'s example uses it", op.name);
    }
    let (code, out) = cute(&["completions", "bash"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("_cute()"), "{out}");
}

/// A minimal JSON reader: enough to check that every line `--format json` writes is one
/// well-formed object, and to take its top-level `values` string.
fn json_values(line: &str) -> Option<String> {
    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
    fn string(b: &[u8], i: &mut usize) -> Option<String> {
        (b.get(*i) == Some(&b'"')).then_some(())?;
        *i += 1;
        let mut out = Vec::new();
        while *i < b.len() {
            match b[*i] {
                b'"' => {
                    *i += 1;
                    return String::from_utf8(out).ok();
                }
                b'\\' => {
                    out.push(*b.get(*i + 1)?);
                    *i += 2;
                }
                c => {
                    out.push(c);
                    *i += 1;
                }
            }
        }
        None
    }
    fn value(b: &[u8], i: &mut usize, top: bool, found: &mut Option<String>) -> Option<()> {
        ws(b, i);
        match *b.get(*i)? {
            b'{' => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Some(());
                }
                loop {
                    ws(b, i);
                    let key = string(b, i)?;
                    ws(b, i);
                    (b.get(*i) == Some(&b':')).then_some(())?;
                    *i += 1;
                    ws(b, i);
                    if top && key == "values" && b.get(*i) == Some(&b'"') {
                        *found = Some(string(b, i)?);
                    } else {
                        value(b, i, false, found)?;
                    }
                    ws(b, i);
                    match *b.get(*i)? {
                        b',' => *i += 1,
                        b'}' => {
                            *i += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Some(());
                }
                loop {
                    value(b, i, false, found)?;
                    ws(b, i);
                    match *b.get(*i)? {
                        b',' => *i += 1,
                        b']' => {
                            *i += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => string(b, i).map(|_| ()),
            _ => {
                let start = *i;
                while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'-') {
                    *i += 1;
                }
                let tok = std::str::from_utf8(&b[start..*i]).ok()?;
                (tok == "true" || tok == "false" || tok == "null" || tok.parse::<i128>().is_ok()).then_some(())
            }
        }
    }
    let (b, mut i, mut found) = (line.as_bytes(), 0, None);
    value(b, &mut i, true, &mut found)?;
    ws(b, &mut i);
    (i == b.len()).then_some(found.unwrap_or_default())
}

/// The JSON output of the whole conformance corpus: every line one well-formed object whose
/// `values` text is the text output's (errors: the same error message).
#[test]
fn eval_json_of_the_whole_corpus() {
    let data = include_str!("data/conformance.tsv");
    let exprs: Vec<&str> =
        data.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').next().unwrap()).collect();
    let input = exprs.join("\n") + "\n";
    let (_, text) = cute(&["eval"], input.as_bytes());
    let (code, json) = cute(&["eval", "--format", "json"], input.as_bytes());
    assert_eq!(code, 0);
    let (text, json): (Vec<&str>, Vec<&str>) = (text.lines().collect(), json.lines().collect());
    assert_eq!((text.len(), json.len()), (exprs.len(), exprs.len()));
    for ((e, t), j) in exprs.iter().zip(&text).zip(&json) {
        let values = json_values(j).unwrap_or_else(|| panic!("{e}: not one JSON object: {j}"));
        match t.strip_prefix("error: ") {
            Some(msg) => assert!(j.contains(&format!(r#""message":"{}""#, msg.replace('"', "\\\""))), "{e}: {j}"),
            None if j.starts_with(r#"{"kind":"bool""#) => assert!(j.ends_with(&format!("{t}}}")), "{e}: {j}"),
            None => assert_eq!(&values, t, "{e}"),
        }
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out) = cute(&["completions", shell], b"");
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("cute") && out.contains("eval") && out.len() > 500, "{shell}: {out}");
    }
}

/// `cute show --banks`: the bank of every cell and the conflicts of warp-wide row and column
/// reads. By the definition (32 banks of 4 bytes): a row-major (32,32) tile of 4-byte elements
/// puts a column in one bank (32-way); `Sw<5,0,5>` spreads it (conflict-free); a row-major
/// (8,64) tile of 2-byte elements puts a column's 8 elements in one bank (8-way, 7 extra
/// wavefronts for each of 64 columns); `Sw<3,3,3>` (the classic 128-byte swizzle) removes it.
#[test]
fn show_banks_reports_conflicts_as_defined() {
    let tail = |args: &[&str]| {
        let (code, out) = cute(args, b"");
        assert_eq!(code, 0, "{out}");
        out.lines().rev().take(2).collect::<Vec<_>>().into_iter().rev().map(String::from).collect::<Vec<_>>()
    };
    assert_eq!(
        tail(&["show", "--banks", "(32,32):(32,1)"]),
        [
            "rows: 32 accesses of up to 32 threads, worst 1-way, 0 extra wavefronts (conflict-free)",
            "columns: 32 accesses of up to 32 threads, worst 32-way, 992 extra wavefronts"
        ]
    );
    assert_eq!(
        tail(&["show", "--banks", "composition(Sw<5,0,5>,(32,32):(32,1))"])[1],
        "columns: 32 accesses of up to 32 threads, worst 1-way, 0 extra wavefronts (conflict-free)"
    );
    assert_eq!(
        tail(&["show", "--banks", "--elem-bits", "16", "(8,64):(64,1)"])[1],
        "columns: 64 accesses of up to 32 threads, worst 8-way, 448 extra wavefronts"
    );
    assert_eq!(
        tail(&["show", "--banks", "--elem-bits", "16", "Sw<3,3,3> o 0 o (8,64):(64,1)"])[1],
        "columns: 64 accesses of up to 32 threads, worst 1-way, 0 extra wavefronts (conflict-free)"
    );
    // The SVG: one cell per element, each with its bank, read back as XML.
    let dir = std::env::temp_dir().join(format!("cute-banks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("b.svg");
    let (code, _) = cute(
        &["show", "--banks", "--elem-bits", "16", "--svg", svg.to_str().unwrap(), "Sw<3,3,3> o 0 o (8,64):(64,1)"],
        b"",
    );
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cells: Vec<_> = doc.descendants().filter(|n| n.attribute("data-bank").is_some()).collect();
    assert_eq!(cells.len(), 512);
    // Cell (1,0) is Sw<3,3,3>(64) = 64 ^ ((64 & 0b111000000) >> 3) = 72: bank 72*2/4 % 32 = 4.
    let c =
        cells.iter().find(|n| n.attribute("data-row") == Some("1") && n.attribute("data-col") == Some("0")).unwrap();
    assert_eq!((c.attribute("data-index"), c.attribute("data-bank")), (Some("72"), Some("4")));
}

/// `cute show --mma ATOM EXPR`: the tiled MMA's C, A and B thread-value layouts. For
/// `mma.m16n8k8`, PTX ISA's accumulator fragment: lane `l` holds row `l / 4`, columns
/// `2 * (l % 4)` and `2 * (l % 4) + 1` (its values 0 and 1), so row 0 reads T0V0 T0V1 T1V0 ... T3V1.
/// The SVG has C (16x8), A (16x8) and B (8x8) cells, each with its thread; LaTeX is CuTe's
/// `print_latex` (tests/render.rs).
#[test]
fn show_mma_draws_the_fragments() {
    let (code, out) = cute(&["show", "--mma", "SM80_16x8x8_F16F16F16F16_TN", "(1,1,1)"], b"");
    assert_eq!(code, 0, "{out}");
    for part in ["C (M,N)", "A (M,K)", "B (N,K)"] {
        assert!(out.contains(part), "{part}: {out}");
    }
    assert!(out.contains(" 0  |  T0V0 |  T0V1 |  T1V0 |  T1V1 |  T2V0 |  T2V1 |  T3V0 |  T3V1 |"), "{out}");
    let dir = std::env::temp_dir().join(format!("cute-mma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("m.svg");
    let (code, _) =
        cute(&["show", "--mma", "SM80_16x8x8_F16F16F16F16_TN", "--svg", svg.to_str().unwrap(), "(1,1,1)"], b"");
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cells = doc.descendants().filter(|n| n.attribute("data-thread").is_some()).count();
    assert_eq!(cells, 16 * 8 + 16 * 8 + 8 * 8);
    let (code, _) = cute(&["show", "--mma", "SM99_NOPE", "(1,1,1)"], b"");
    assert_ne!(code, 0);
}

/// Error texts that say what is wrong (issue #48, item 5): no "expected rank 1, found rank 1",
/// no "(not compact)" for a thread past a compact thread layout, the whole misspelt word, and
/// a table whose negative cells fit their rules.
#[test]
fn error_texts_name_what_differs() {
    for (expr, says, not) in [
        ("call(4:1,(2))", "expected an integer coordinate for an integer shape, found rank 1", "expected rank 1"),
        ("domain_offset((1),4:1)", "an integer coordinate for an integer shape", "expected rank 1"),
        (
            "local_partition((8,8):(1,8),(4,2):(1,4),9)",
            "9 is outside (4,2):(1,4), whose indices are below its cosize 8",
            "not compact",
        ),
        (
            "partition_fragment_a(tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,1,1):(1,1,1)),(64,64):(1,64),200)",
            "{200} is outside (32,2,1,1):(1,32,32,32), whose indices are below its cosize 64",
            "not compact",
        ),
        ("sizé(4:1)", "'sizé'", "'siz'"),
    ] {
        let (code, out) = cute(&["eval", expr], b"");
        assert_ne!(code, 0, "{expr}: {out}");
        assert!(out.contains(says) && !out.contains(not), "{expr}: {out}");
    }
    // Every row of the table is as wide as its rules, the minus signs counted.
    let (code, out) = cute(&["show", "(2,2):(-10,1)"], b"");
    assert_eq!(code, 0, "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains('|') || l.contains('+')).collect();
    assert!(rows.iter().all(|l| l.trim_end().len() == rows[0].trim_end().len()), "{out}");
    assert!(out.contains("| -10 |  -9 |"), "{out}");
}

/// C++'s `composition(Swizzle<0,M,S>, _0, L)` is `L` (swizzle_layout.hpp): an operation on a
/// composed layout whose swizzle is the identity at offset 0 (the SM90 GMMA INTER atoms)
/// gives the layout, the operation's answer on `L` itself; a real swizzle is kept.
#[test]
fn the_identity_swizzle_is_elided_as_cxx_does() {
    let eval = |e: &str| {
        let (code, out) = cute(&["eval", e], b"");
        assert_eq!(code, 0, "{e}: {out}");
        out.trim().to_string()
    };
    for (composed, plain) in [
        ("tile_to_shape(composed(Sw<0,4,3>,0,(8,8):(8,1)),(128,64))", "tile_to_shape((8,8):(8,1),(128,64))"),
        ("logical_divide(Sw<0,4,3> o 0 o (8,8):(8,1),<4,4>)", "logical_divide((8,8):(8,1),<4,4>)"),
    ] {
        assert_eq!(eval(composed), eval(plain), "{composed}");
    }
    let kept = eval("tile_to_shape(composed(Sw<3,4,3>,0,(8,64):(64,1)),(128,64))");
    assert!(kept.starts_with("Sw<3,4,3> o 0 o "), "{kept}");
}

/// Issue #63's two CUTLASS questions answered by `cute eval` (the README's commands), each
/// answer checked against its definition at every offset.
#[test]
fn eval_answers_the_cutlass_swizzle_questions() {
    use cute_dyn::{ComposedLayout, Layout, Swizzle};
    // CUTLASS issue 1531: composition(Swizzle<3,0,3>, Swizzle<1,2,1>), an XOR map no Sw is.
    let (code, out) = cute(&["eval", "compose_bits(Sw<3,0,3>,Sw<1,2,1>)"], b"");
    assert_eq!(code, 0);
    let cols: Vec<i64> = out
        .trim()
        .strip_prefix("xor[")
        .unwrap()
        .strip_suffix(']')
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    let (a, b) = (Swizzle::new(3, 0, 3).unwrap(), Swizzle::new(1, 2, 1).unwrap());
    for x in 0..1i64 << cols.len() {
        let by_cols = (0..cols.len()).filter(|j| x >> j & 1 == 1).fold(0, |acc, j| acc ^ cols[j]);
        assert_eq!(by_cols, a.apply(b.apply(x).unwrap()).unwrap(), "at {x}");
    }
    // CUTLASS issue 1038: the swizzle that makes a row-major 8x64 tile of halves into GMMA's
    // 128-byte-swizzled atom (in elements, Sw<3,3,3> o 0 o (8,64):(64,1)).
    let (code, out) = cute(&["eval", "find_swizzle((8,64):(64,1),Sw<3,3,3> o 0 o (8,64):(64,1))"], b"");
    assert_eq!(code, 0);
    let sw: Vec<i64> = out.trim()[3..out.trim().len() - 1].split(',').map(|c| c.parse().unwrap()).collect();
    let found = Swizzle::new(sw[0], sw[1], sw[2]).unwrap();
    let input: Layout = "(8,64):(64,1)".parse().unwrap();
    let output: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
    for i in 0..512 {
        assert_eq!(found.apply(input.call(i).unwrap()).unwrap(), output.call_index(i).unwrap(), "at {i}");
    }
    // The conflict-free search of `cute show --banks`: the transpose's tile, before and after.
    let (code, out) = cute(&["show", "--banks", "--find-swizzle", "(32,32):(32,1)"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("columns: 32 accesses of up to 32 threads, worst 32-way, 992 extra wavefronts\n"), "{out}");
    assert!(out.contains("smallest conflict-free swizzle: Sw<5,0,5>"), "{out}");
    assert!(
        out.contains("columns: 32 accesses of up to 32 threads, worst 1-way, 0 extra wavefronts (conflict-free)"),
        "{out}"
    );
    // And where none exists, why.
    let (_, out) = cute(&["eval", "find_swizzle((2,2):(1,0),(2,2):(1,2))"], b"");
    assert!(out.contains("no S has S o input = output"), "{out}");
}
