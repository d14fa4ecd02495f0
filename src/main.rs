//! `cute`: a calculator for CuTe layouts.
//!
//! * `cute` (no arguments): the tour: every documented CuTe example computed beside its
//!   documented value; exits non-zero if any differs.
//! * `cute eval [--style values|cpp|dsl] [EXPR]`: evaluate one expression (exit 1 when it
//!   fails), or one per line of stdin, writing exactly one line per input line (`error: ...`
//!   for a failure; exit 0).
//! * `cute show [--svg FILE | --latex FILE] [--tv TILE | --tiles] EXPR`: render a layout.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use cute::cute_dyn::Style;
use cute::eval::eval;

#[derive(Parser)]
#[command(name = "cute", version, about = "A calculator for NVIDIA CuTe layouts")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate an expression, e.g. `composition((6,2):(8,2),(4,3):(3,1))`; with no EXPR, one
    /// expression per line of stdin.
    Eval {
        /// How integers are printed.
        #[arg(long, value_enum, default_value_t = StyleArg::Values)]
        style: StyleArg,
        /// The expression (spaces allowed; quote it for the shell). A leading `-` is part of
        /// the expression (`cute eval -1:1`), not a flag.
        #[arg(allow_hyphen_values = true)]
        expr: Option<String>,
    },
    /// Render a layout: a text table by default (CuTe's print_layout; a rank-1 layout as a
    /// vector table), or SVG / LaTeX (TikZ) into a file.
    Show {
        /// Write a self-contained SVG picture to this file.
        #[arg(long, conflicts_with = "latex")]
        svg: Option<std::path::PathBuf>,
        /// Write LaTeX/TikZ (as CuTe's print_latex) to this file.
        #[arg(long)]
        latex: Option<std::path::PathBuf>,
        /// EXPR is a thread-value layout (thread, value) -> index into a tile of this shape,
        /// e.g. `--tv '(8,8)'`: cells are coloured by thread and labelled T<t> V<v>.
        #[arg(long, conflicts_with = "tiles")]
        tv: Option<String>,
        /// EXPR is a tiling (the result of a divide or product, modes (tile, rest)): outline
        /// every tile.
        #[arg(long)]
        tiles: bool,
        /// How the layout is printed in titles.
        #[arg(long, value_enum, default_value_t = StyleArg::Values)]
        style: StyleArg,
        /// The expression, as for `cute eval`.
        expr: String,
    },
    /// The tour of the library (the default).
    Tour,
}

#[derive(Clone, Copy, ValueEnum)]
enum StyleArg {
    Values,
    Cpp,
    Dsl,
}

impl From<StyleArg> for Style {
    fn from(s: StyleArg) -> Style {
        match s {
            StyleArg::Values => Style::Values,
            StyleArg::Cpp => Style::Cpp,
            StyleArg::Dsl => Style::Dsl,
        }
    }
}

/// The answer to one expression, or its error line. A panic would be a bug in the library
/// (the fuzz tests look for them); it still must not take the remaining lines of a batch
/// with it.
fn line(expr: &str, style: Style) -> Result<String, String> {
    match std::panic::catch_unwind(|| eval(expr, style)) {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err(format!("error: {e}")),
        Err(_) => Err("error: internal error (a panic in the library): please report this expression".into()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Tour) => {
            let mut out = io::stdout().lock();
            match cute::tour::run(&mut out) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(_) | Err(_) => ExitCode::FAILURE,
            }
        }
        Some(Command::Show { svg, latex, tv, tiles, style, expr }) => {
            let req = cute::show::Request { tv, tiles, style: style.into() };
            let target = match (&svg, &latex) {
                (Some(_), _) => cute::show::Target::Svg,
                (_, Some(_)) => cute::show::Target::Latex,
                _ => cute::show::Target::Text,
            };
            match cute::show::show(&expr, &req, target) {
                Ok(text) => match svg.or(latex) {
                    Some(path) => match std::fs::write(&path, text) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("error: cannot write {}: {e}", path.display());
                            ExitCode::FAILURE
                        }
                    },
                    None => {
                        print!("{text}");
                        ExitCode::SUCCESS
                    }
                },
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Eval { style, expr: Some(e) }) => match line(&e, style.into()) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            // One expression: its failure is the command's failure.
            Err(s) => {
                println!("{s}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Eval { style, expr: None }) => {
            let (stdin, stdout) = (io::stdin(), io::stdout());
            let (mut input, mut out) = (stdin.lock(), io::BufWriter::new(stdout.lock()));
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(_) => return ExitCode::FAILURE,
                }
                // Invalid UTF-8 is a bad expression (an error line), not a failure to read.
                let text = String::from_utf8_lossy(&buf);
                let text = text.strip_suffix('\n').unwrap_or(&text);
                let answer = line(text, style.into()).unwrap_or_else(|e| e);
                if writeln!(out, "{answer}").is_err() {
                    return ExitCode::FAILURE;
                }
            }
            if out.flush().is_err() {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
    }
}
