//! Zero cost on the host, kept: the release x86-64 assembly of cute-static's index arithmetic
//! against the same arithmetic written by hand (`tests/data/zero_cost/lib.rs`, compiled here as
//! its own crate). Each layout function has at most as many instructions as its twin and calls
//! nothing its twin does not (no panic path). The GPU kernels have the same guard on their PTX
//! (`scripts/gpu/ptx_guard.py`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cases of `tests/data/zero_cost/lib.rs`.
const CASES: [&str; 6] = ["static_sum", "matrix_coord", "nested_coord", "ptr_tile", "sw333", "sw505"];

/// Compile the twins crate in release and return its assembly.
fn assembly() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/zero_cost");
    std::fs::create_dir_all(work.join("src")).unwrap();
    std::fs::copy(root.join("tests/data/zero_cost/lib.rs"), work.join("src/lib.rs")).unwrap();
    // The workspace's lock file: the same dependency versions, already fetched.
    std::fs::copy(root.join("Cargo.lock"), work.join("Cargo.lock")).unwrap();
    let manifest = format!(
        "[package]\nname = \"zero-cost\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
         [lib]\npath = \"src/lib.rs\"\n\
         [dependencies]\ncute-static = {{ path = {:?}, default-features = false }}\n\
         [profile.release]\ndebug = false\n[workspace]\n",
        root.join("cute-static")
    );
    std::fs::write(work.join("Cargo.toml"), manifest).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(&work)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .args(["rustc", "--release", "--offline", "--quiet", "--lib", "--"])
        .args(["--emit", "asm", "-C", "llvm-args=-x86-asm-syntax=intel"])
        .output()
        .unwrap();
    assert!(out.status.success(), "building the twins failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let deps: PathBuf = work.join("target/release/deps");
    let asm = std::fs::read_dir(&deps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .max_by_key(|p| p.metadata().unwrap().modified().unwrap())
        .expect("an assembly file");
    std::fs::read_to_string(asm).unwrap()
}

/// Each function's instructions (labels and directives dropped), a merged function (`a = b`)
/// read as the one it is an alias of.
fn functions(asm: &str) -> BTreeMap<String, Vec<String>> {
    let mut bodies: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut aliases = Vec::new();
    let mut current: Option<String> = None;
    for line in asm.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [a, "=", b] = words[..] {
            aliases.push((a.to_string(), b.to_string()));
        }
        if let Some(name) = line.strip_suffix(':').filter(|n| !n.starts_with('.') && !n.starts_with('\t')) {
            current = Some(name.to_string());
            bodies.entry(name.to_string()).or_default();
        } else if line.starts_with(".Lfunc_end") {
            current = None;
        } else if let Some(f) = &current {
            let code = line.split('#').next().unwrap().trim();
            if line.starts_with('\t') && !code.is_empty() && !code.starts_with('.') {
                bodies.get_mut(f).unwrap().push(code.to_string());
            }
        }
    }
    for (a, b) in aliases {
        if let Some(body) = bodies.get(&b).cloned() {
            bodies.insert(a, body);
        }
    }
    bodies
}

fn calls(body: &[String]) -> Vec<&str> {
    body.iter()
        .filter(|i| i.starts_with("call") || i.starts_with("jmp") && i.contains("panic"))
        .map(|i| i.as_str())
        .collect()
}

#[test]
fn layout_index_arithmetic_is_no_larger_than_the_hand_written() {
    let asm = assembly();
    let f = functions(&asm);
    let mut failures = Vec::new();
    for case in CASES {
        let (l, h) = (format!("{case}_layout"), format!("{case}_by_hand"));
        let (bl, bh) = (&f[&l], &f[&h]);
        println!("{case}: layout {} instructions, by hand {}", bl.len(), bh.len());
        println!("  {l}:\n    {}\n  {h}:\n    {}", bl.join("\n    "), bh.join("\n    "));
        if bl.len() > bh.len() {
            failures.push(format!("{l}: {} instructions, more than {h}'s {}", bl.len(), bh.len()));
        }
        let extra: Vec<_> = calls(bl).into_iter().filter(|c| !calls(bh).contains(c)).collect();
        if !extra.is_empty() {
            failures.push(format!("{l} calls what {h} does not: {extra:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
