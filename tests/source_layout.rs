//! The shape of the sources: no file, Rust or JavaScript, over ~600 lines (a longer one holds
//! more than one job and is split by job), and no import cycle between JavaScript modules
//! (type-only `import('…')` in JSDoc included: tsc follows those too).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// "About 600": the most lines a source file may have.
const MAX_LINES: usize = 650;

/// Folders that hold no source of ours: build output, installed packages, generated glue.
const SKIP: &[&str] = &[
    "target",
    "node_modules",
    "site",
    "www/pkg",
    "e2e/artifacts",
    ".tools",
    ".git",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs`, `.js` and `.mjs` file under `dir`, outside [`SKIP`].
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let relative = path.strip_prefix(root()).unwrap_or(&path);
        if SKIP.iter().any(|s| relative == Path::new(s)) {
            continue;
        }
        if path.is_dir() {
            sources(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("rs" | "js" | "mjs")
        ) {
            out.push(path);
        }
    }
}

fn all_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&root(), &mut files);
    files.sort();
    files
}

#[test]
fn no_source_file_is_over_about_600_lines() {
    let files = all_sources();
    let count = |ext: &str| {
        files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == ext))
            .count()
    };
    // Every kind is counted (a wrong root or filter would pass vacuously).
    assert!(count("rs") > 50 && count("js") > 10 && count("mjs") > 10);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).ok()?.lines().count();
            let name = f.strip_prefix(root()).unwrap_or(f).display();
            (lines > MAX_LINES).then(|| format!("{name}: {lines} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "split these by job (at most {MAX_LINES} lines): {long:?}"
    );
}

/// The relative modules `text` imports (`from './x.js'`, `import './x.js'`, `import('./x.js')`).
fn imports(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for opener in [
        "from '",
        "from \"",
        "import '",
        "import \"",
        "import('",
        "import(\"",
    ] {
        let quote = opener.chars().last().unwrap_or('\'');
        let mut rest = text;
        while let Some(at) = rest.find(opener) {
            rest = &rest[at + opener.len()..];
            let end = rest.find(quote).unwrap_or(0);
            let spec = &rest[..end];
            if spec.starts_with("./") || spec.starts_with("../") {
                found.push(spec.to_string());
            }
        }
    }
    found
}

/// `spec` imported from `file`, as a path without `.` and `..`.
fn resolve(file: &Path, spec: &str) -> PathBuf {
    let mut path = file.parent().map(Path::to_path_buf).unwrap_or_default();
    for part in spec.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                path.pop();
            }
            p => path.push(p),
        }
    }
    path
}

/// A cycle through `node`, if the graph has one reachable from it.
fn cycle_from(
    node: &PathBuf,
    graph: &BTreeMap<PathBuf, Vec<PathBuf>>,
    path: &mut Vec<PathBuf>,
    done: &mut BTreeSet<PathBuf>,
) -> Option<Vec<PathBuf>> {
    if let Some(at) = path.iter().position(|p| p == node) {
        let mut cycle = path[at..].to_vec();
        cycle.push(node.clone());
        return Some(cycle);
    }
    if done.contains(node) {
        return None;
    }
    path.push(node.clone());
    for next in graph.get(node).into_iter().flatten() {
        if let Some(cycle) = cycle_from(next, graph, path, done) {
            return Some(cycle);
        }
    }
    path.pop();
    done.insert(node.clone());
    None
}

#[test]
fn no_javascript_module_imports_itself_through_others() {
    let graph: BTreeMap<PathBuf, Vec<PathBuf>> = all_sources()
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "js" || e == "mjs"))
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let targets = imports(&text).iter().map(|s| resolve(&f, s)).collect();
            (f, targets)
        })
        .collect();
    let app = root().join("www/js/app.js");
    assert!(
        graph.get(&app).is_some_and(|t| t.len() > 3),
        "app.js's imports were not read"
    );
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = cycle_from(node, &graph, &mut Vec::new(), &mut done) {
            let names: Vec<String> = cycle
                .iter()
                .map(|p| p.strip_prefix(root()).unwrap_or(p).display().to_string())
                .collect();
            panic!("import cycle: {}", names.join(" → "));
        }
    }
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let (a, b) = (root().join("a.js"), root().join("b.js"));
    assert_eq!(imports("import { x } from './b.js';"), ["./b.js"]);
    assert_eq!(
        imports("/** @typedef {import('../t.js').T} T */"),
        ["../t.js"]
    );
    assert_eq!(
        resolve(&root().join("www/js/a.js"), "../pkg/p.js"),
        root().join("www/pkg/p.js")
    );
    let graph = BTreeMap::from([(a.clone(), vec![b.clone()]), (b.clone(), vec![a.clone()])]);
    let cycle = cycle_from(&a, &graph, &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(cycle, Some(vec![a.clone(), b, a]));
}
