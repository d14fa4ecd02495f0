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
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
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
    assert_eq!(lines[3], "error: non-injective layout in complement: (2,2):(1,1) maps two coordinates to one index");
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
