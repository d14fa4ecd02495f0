//! `cute`: a calculator for CuTe layouts.
//!
//! * `cute` (no arguments): the tour: every documented CuTe example computed beside its
//!   documented value; exits non-zero if any differs.
//! * `cute eval [--style values|cpp|dsl] [EXPR]`: evaluate one expression (exit 1 when it
//!   fails), or one per line of stdin, writing exactly one line per input line (`error: ...`
//!   for a failure; exit 0).
//! * `cute show [--svg FILE | --latex FILE] [--tv TILE | --tiles | --mma ATOM] EXPR`: render a layout
//!   (or a tiled MMA).
//! * `cute ops [NAME]`: the operations of `cute eval`; `cute completions SHELL`.
//! * `--format json` for `cute eval`: one JSON object per answer (docs/json.md).

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use cute::cute_dyn::Style;
use cute_cli::eval::{eval, eval_value, find, OPS};

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
        /// Output: text in --style, or one JSON object per answer (docs/json.md).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The expression (spaces allowed; quote it for the shell). A leading `-` is part of
        /// the expression (`cute eval -1:1`), not a flag. `cute ops` lists the operations.
        #[arg(allow_hyphen_values = true)]
        expr: Option<String>,
    },
    /// List the operations of `cute eval` (name, signature, one line with the CuTe reference);
    /// with NAME, that one, with an example evaluated.
    Ops {
        /// One operation.
        name: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
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
        /// Colour every cell by its shared-memory bank (32 banks of 4 bytes) and report the
        /// bank conflicts of reading the rows and the columns with 32-thread warps. EXPR may
        /// be a swizzled (composed) layout, e.g. `Sw<3,3,3> o 0 o (8,64):(64,1)`.
        #[arg(long, conflicts_with_all = ["tv", "tiles", "latex"])]
        banks: bool,
        /// The element size for --banks, in bits.
        #[arg(long, default_value_t = 32, requires = "banks")]
        elem_bits: u32,
        /// With --banks: also search the smallest swizzle Sw<B,M,S> that makes reading the
        /// rows and the columns conflict-free, and draw the tile under it (before and after).
        #[arg(long, requires = "banks")]
        find_swizzle: bool,
        /// Draw the tiled MMA of this atom (e.g. SM80_16x8x16_F32F16F16F32_TN) over the atom
        /// layout EXPR (e.g. `(2,2,1)`): the C, A and B thread-value layouts, as tables, one SVG
        /// picture, or CuTe's print_latex of the tiled MMA.
        #[arg(long, conflicts_with_all = ["tv", "tiles", "banks"])]
        mma: Option<String>,
        /// The expression, as for `cute eval`.
        expr: String,
    },
    /// The tour of the library (the default).
    Tour,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
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

/// The answer to one expression, or its error line, in the format asked. A panic would be a
/// bug in the library (the fuzz tests look for them); it still must not take the remaining
/// lines of a batch with it.
fn line(expr: &str, style: Style, format: Format) -> Result<String, String> {
    match (std::panic::catch_unwind(|| eval_value(expr)), format) {
        (Ok(Ok(v)), Format::Text) => Ok(v.to_styled(style)),
        (Ok(Ok(v)), Format::Json) => Ok(cute_cli::json::value(&v)),
        (Ok(Err(e)), Format::Text) => Err(format!("error: {e}")),
        (Ok(Err(e)), Format::Json) => Err(cute_cli::json::error(&e)),
        (Err(_), Format::Text) => {
            Err("error: internal error (a panic in the library): please report this expression".into())
        }
        (Err(_), Format::Json) => Err(cute_cli::json::internal()),
    }
}

/// `cute ops [NAME]`.
fn ops(name: Option<&str>) -> ExitCode {
    let Some(name) = name else {
        for op in OPS {
            println!("{:<60} {}", op.signature, op.doc);
        }
        return ExitCode::SUCCESS;
    };
    let Some(op) = find(name) else {
        eprintln!("error: unknown operation '{name}' (cute ops lists them)");
        return ExitCode::FAILURE;
    };
    println!("{}\n    {}\nexample:\n    {}", op.signature, op.doc, op.example);
    match eval(op.example, Style::Values) {
        Ok(s) => println!("    = {s}"),
        Err(e) => println!("    error: {e}"),
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Tour) => {
            let mut out = io::stdout().lock();
            match cute_cli::tour::run(&mut out) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(_) | Err(_) => ExitCode::FAILURE,
            }
        }
        Some(Command::Show { svg, latex, tv, tiles, style, banks, elem_bits, find_swizzle, mma, expr }) => {
            let req = cute_cli::show::Request {
                tv,
                tiles,
                style: style.into(),
                banks: banks.then_some(elem_bits),
                find_swizzle,
                mma,
            };
            let target = match (&svg, &latex) {
                (Some(_), _) => cute_cli::show::Target::Svg,
                (_, Some(_)) => cute_cli::show::Target::Latex,
                _ => cute_cli::show::Target::Text,
            };
            match cute_cli::show::show(&expr, &req, target) {
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
        Some(Command::Ops { name }) => ops(name.as_deref()),
        Some(Command::Completions { shell }) => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut <Cli as clap::CommandFactory>::command(), "cute", &mut script);
            match io::stdout().write_all(&script) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Some(Command::Eval { style, format, expr: Some(e) }) => match line(&e, style.into(), format) {
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
        Some(Command::Eval { style, format, expr: None }) => {
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
                let answer = line(text, style.into(), format).unwrap_or_else(|e| e);
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
