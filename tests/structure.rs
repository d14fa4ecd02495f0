//! The module structure of the two algebra crates: no two modules import each other, and no
//! longer cycle either (issue #11: "split the modules so that no two modules import each
//! other"), so each module can be read after the ones it builds on.
//!
//! A module's imports are the `crate::<module>` paths in its code (comments aside), `$crate::`
//! in its macros included.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module name -> the modules of the same crate it names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<_> = fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    let modules: BTreeSet<String> =
        files.iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    let mut graph = BTreeMap::new();
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut uses = BTreeSet::new();
        for line in fs::read_to_string(path).unwrap().lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                // `crate::a::..` and `crate::{a, b::..}`
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap().split(',').collect(),
                    None => vec![rest],
                };
                for n in names {
                    let m: String = n.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if m != name && modules.contains(&m) {
                        uses.insert(m);
                    }
                }
            }
        }
        graph.insert(name, uses);
    }
    graph
}

/// A cycle of imports, if there is one (depth-first search, the path so far on a stack).
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|p| p == m) {
            let mut c = path[start..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in &graph[m] {
            if let Some(c) = visit(next, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

#[test]
fn the_finder_sees_a_cycle() {
    // The check itself: a graph with a cycle is reported, one without is not.
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])).unwrap().len(), 4);
    assert!(cycle(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_none());
    let here = imports(Path::new("cute-static/src"));
    assert!(here["composition"].contains("coalesce"), "composition builds on coalesce: {:?}", here["composition"]);
}

#[test]
fn no_two_modules_of_cute_static_import_each_other() {
    let graph = imports(Path::new("cute-static/src"));
    assert!(graph.len() > 20);
    assert_eq!(cycle(&graph), None, "a cycle of imports in cute-static");
}

#[test]
fn no_two_modules_of_cute_dyn_import_each_other() {
    let graph = imports(Path::new("cute-dyn/src"));
    assert!(graph.len() > 20);
    assert_eq!(cycle(&graph), None, "a cycle of imports in cute-dyn");
}
