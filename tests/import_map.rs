//! The import map of `src/`: each folder's rooms (its files and sub-folders, its `mod.rs` as
//! one more room) joined by arrows (`use crate::…`, `super::…`, `self::…`, a child's name),
//! stacked into floors. An arrow that closes a circle runs up a floor; the fewest such arrows
//! (a minimum feedback arc set, exact per circle) are counted as "up". The test fails on any
//! circle or upward arrow. `PGBOOK_IMPORT_MAP=DIR` measures another tree's `src/` (read only)
//! and prints its counts: `PGBOOK_IMPORT_MAP=/some/checkout cargo test --test it import_map --
//! --nocapture`. `src/bin/` is another crate (it imports `pgbook::`) and stands apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod parse;
use parse::{code_only, tests_too, tokens, use_tree, without_tests, Tok};

/// A module path from the crate root, e.g. `["train", "cartpole", "agent"]`.
type ModPath = Vec<String>;

/// The crate's file modules: module path → file.
fn file_modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    fn walk(dir: &Path, at: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                if at.is_empty() && name == "bin" {
                    continue;
                }
                let mut sub = at.clone();
                sub.push(name);
                walk(&path, &sub, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut module = at.clone();
                if !(stem == "mod" || (at.is_empty() && stem == "lib")) {
                    module.push(stem.to_string());
                }
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &Vec::new(), &mut out);
    out
}

/// The file modules each file module refers to.
fn references(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut all = BTreeMap::new();
    for (module, file) in modules {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let code = code_only(&text);
        let code = if tests_too() {
            code
        } else {
            without_tests(&code)
        };
        let mut toks = tokens(&code);
        if file.ends_with("mod.rs") || file.ends_with("lib.rs") {
            toks = without_reexports(toks);
        }
        let mut found = BTreeSet::new();
        // Inline modules (`mod tests { … }`) by brace depth: `super::` inside one is the file.
        let mut inline: Vec<(usize, String)> = Vec::new();
        let mut depth = 0usize;
        let mut i = 0;
        while i < toks.len() {
            match &toks[i] {
                Tok::Open => depth += 1,
                Tok::Close => {
                    depth = depth.saturating_sub(1);
                    if inline.last().is_some_and(|(d, _)| *d == depth) {
                        inline.pop();
                    }
                }
                Tok::Ident(w) if w == "mod" => {
                    if let (Some(Tok::Ident(name)), Some(Tok::Open)) =
                        (toks.get(i + 1), toks.get(i + 2))
                    {
                        inline.push((depth, name.clone()));
                        i += 2;
                        continue;
                    }
                }
                _ => {}
            }
            let here: ModPath = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(_, n)| n.clone()))
                .collect();
            let start_of_path = i == 0 || toks[i - 1] != Tok::Sep;
            let is_use = i > 0 && matches!(&toks[i - 1], Tok::Ident(w) if w == "use");
            if let Tok::Ident(first) = &toks[i] {
                let root: Option<ModPath> = match first.as_str() {
                    "crate" => Some(Vec::new()),
                    "super" | "self" => {
                        let mut base = here.clone();
                        let mut j = i;
                        // super::super::…
                        while matches!(&toks[j], Tok::Ident(w) if w == "super") {
                            base.pop();
                            if toks.get(j + 1) == Some(&Tok::Sep)
                                && matches!(toks.get(j + 2), Some(Tok::Ident(w)) if w == "super")
                            {
                                j += 2;
                            } else {
                                break;
                            }
                        }
                        i = j;
                        Some(base)
                    }
                    // `use child::…` names a child module without `self::`.
                    name if is_use && modules.contains_key(&extend(&here, name)) => {
                        let mut paths = Vec::new();
                        let mut at = i;
                        use_tree(&toks, &mut at, &here, &mut paths);
                        for p in paths {
                            found.insert(deepest(modules, &p));
                        }
                        i = at;
                        continue;
                    }
                    _ => None,
                };
                if let (Some(base), true) = (root, start_of_path) {
                    if toks.get(i + 1) == Some(&Tok::Sep) {
                        let mut at = i + 2;
                        let mut paths = Vec::new();
                        use_tree(&toks, &mut at, &base, &mut paths);
                        for p in paths {
                            found.insert(deepest(modules, &p));
                        }
                        i = at;
                        continue;
                    }
                }
            }
            i += 1;
        }
        // An inline `super::` inside `mod tests` resolves to the file itself (or its items).
        found.remove(module);
        all.insert(module.clone(), found);
    }
    all
}

/// Files declared `#[cfg(test)] mod name;` (test-only modules), as module paths.
fn test_files(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeSet<ModPath> {
    let mut out = BTreeSet::new();
    for (module, file) in modules {
        let code = code_only(&std::fs::read_to_string(file).unwrap_or_default());
        let mut rest = code.as_str();
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let item = rest.trim_start();
            let item = item.strip_prefix("pub ").unwrap_or(item);
            if let Some(decl) = item.strip_prefix("mod ") {
                if let Some(name) = decl.split(';').next().filter(|n| !n.contains('{')) {
                    out.insert(extend(module, name.trim()));
                }
            }
        }
    }
    out
}

/// A folder's front door: its `pub use` lines re-export its rooms and are no arrows (the
/// rooms' own imports are).
fn without_reexports(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let is_pub = matches!(&toks[i], Tok::Ident(w) if w == "pub");
        // `pub use`, or `pub(crate) use` / `pub(super) use` (the parentheses read as Other).
        let use_at = (i + 1..(i + 5).min(toks.len()))
            .find(|&j| matches!(&toks[j], Tok::Ident(w) if w == "use"));
        let plain = use_at.is_some_and(|j| {
            toks[i + 1..j].iter().all(|t| {
                matches!(t, Tok::Other)
                    || matches!(t, Tok::Ident(w) if w == "crate" || w == "super")
            })
        });
        if is_pub && plain {
            while i < toks.len() && toks[i] != Tok::Semi {
                i += 1;
            }
            i += 1;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

fn extend(base: &ModPath, name: &str) -> ModPath {
    let mut p = base.clone();
    p.push(name.to_string());
    p
}

/// The longest prefix of `path` that is a file module.
fn deepest(modules: &BTreeMap<ModPath, PathBuf>, path: &[String]) -> ModPath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains_key(p))
        .unwrap_or_default()
}

/// One folder's map.
#[derive(Debug, Default)]
struct Folder {
    rooms: BTreeSet<String>,
    arrows: BTreeSet<(String, String)>,
}

/// The room of `module` inside folder `folder` (`module` lies in it): its child, or `mod`.
fn room(folder: &[String], module: &[String]) -> String {
    module
        .get(folder.len())
        .cloned()
        .unwrap_or_else(|| if folder.is_empty() { "lib" } else { "mod" }.to_string())
}

fn folders(src: &Path) -> BTreeMap<String, Folder> {
    let mut modules = file_modules(src);
    if !tests_too() {
        let tests = test_files(&modules);
        modules.retain(|m, _| !tests.iter().any(|t| m.starts_with(t)));
    }
    let refs = references(&modules);
    let mut out: BTreeMap<String, Folder> = BTreeMap::new();
    let folder_of = |m: &ModPath| m.join("/");
    // Rooms: every folder (a module with a mod.rs or lib.rs) gets its children and itself.
    for (module, file) in &modules {
        let is_folder = file.ends_with("mod.rs") || file.ends_with("lib.rs");
        if is_folder {
            out.entry(folder_of(module))
                .or_default()
                .rooms
                .insert(room(module, module));
        }
        if let Some((_, parent)) = module.split_last() {
            out.entry(folder_of(&parent.to_vec()))
                .or_default()
                .rooms
                .insert(module[parent.len()].clone());
        }
    }
    for (from, targets) in &refs {
        for to in targets {
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            let folder = &from[..common.min(from.len())];
            // The folder is the deepest one both lie in: a file's own module is its folder only
            // when it is a mod.rs; a leaf file's common prefix is one up.
            let folder: Vec<String> = if out.contains_key(&folder.join("/")) {
                folder.to_vec()
            } else {
                folder[..folder.len().saturating_sub(1)].to_vec()
            };
            let (a, b) = (room(&folder, from), room(&folder, to));
            if a != b {
                if let Some(f) = out.get_mut(&folder.join("/")) {
                    f.arrows.insert((a, b));
                }
            }
        }
    }
    out
}

/// Counts for one folder: rooms, floors, arrows, up, circles; with the up arrows named.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Counts {
    rooms: usize,
    floors: usize,
    arrows: usize,
    up: usize,
    circles: usize,
}

fn measure(folder: &Folder) -> (Counts, Vec<(String, String)>, Vec<Vec<String>>) {
    let rooms: Vec<&String> = folder.rooms.iter().collect();
    let index = |r: &String| rooms.iter().position(|x| *x == r);
    let n = rooms.len();
    let mut adj = vec![vec![false; n]; n];
    for (a, b) in &folder.arrows {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            adj[i][j] = true;
        }
    }
    let circles = simple_cycles(&adj);
    // Minimum feedback arc set: the order of rooms (bottom first) with the fewest arrows up,
    // exact by dynamic programming over subsets of each strongly connected part.
    let order = best_order(&adj);
    let pos: Vec<usize> = {
        let mut p = vec![0; n];
        for (k, &r) in order.iter().enumerate() {
            p[r] = k;
        }
        p
    };
    let mut up = Vec::new();
    for i in 0..n {
        for j in 0..n {
            // i imports j: j must stand lower (earlier in `order`).
            if adj[i][j] && pos[j] > pos[i] {
                up.push((rooms[i].clone(), rooms[j].clone()));
            }
        }
    }
    // Floors: the longest downward chain once the up arrows are set aside.
    let mut floor = vec![1usize; n];
    for &r in &order {
        for j in 0..n {
            if adj[r][j] && pos[j] < pos[r] {
                floor[r] = floor[r].max(floor[j] + 1);
            }
        }
    }
    let counts = Counts {
        rooms: n,
        floors: floor.iter().copied().max().unwrap_or(0),
        arrows: folder.arrows.len(),
        up: up.len(),
        circles: circles.len(),
    };
    let named = circles
        .iter()
        .map(|c| c.iter().map(|&i| rooms[i].clone()).collect())
        .collect();
    (counts, up, named)
}

/// The circles: strongly connected parts of two or more rooms (rooms that reach each other).
fn simple_cycles(adj: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    // Reachability by Floyd–Warshall (folders are small).
    let mut reach = adj.to_vec();
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if reach[i][k] && reach[k][j] {
                    reach[i][j] = true;
                }
            }
        }
    }
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for i in 0..n {
        if seen[i] {
            continue;
        }
        let part: Vec<usize> = (0..n)
            .filter(|&j| j == i || (reach[i][j] && reach[j][i]))
            .collect();
        for &j in &part {
            seen[j] = true;
        }
        if part.len() > 1 {
            out.push(part);
        }
    }
    out
}

/// Rooms bottom first, with the fewest arrows pointing to a later room: the circles stacked
/// bottom first, each circle's rooms in its best order (exact, by subsets).
fn best_order(adj: &[Vec<bool>]) -> Vec<usize> {
    let n = adj.len();
    let mut parts = simple_cycles(adj);
    for r in 0..n {
        if !parts.iter().any(|p| p.contains(&r)) {
            parts.push(vec![r]);
        }
    }
    // Stack the parts: a part goes on once every part it points into is placed.
    let mut placed = vec![false; parts.len()];
    let mut order = Vec::new();
    while order.len() < n {
        let next = (0..parts.len()).find(|&k| {
            !placed[k]
                && parts[k].iter().all(|&i| {
                    (0..n).all(|j| !adj[i][j] || parts[k].contains(&j) || order.contains(&j))
                })
        });
        let Some(k) = next else { break };
        placed[k] = true;
        order.extend(part_order(adj, &parts[k]));
    }
    order
}

/// One circle's rooms bottom first with the fewest arrows up (dynamic programming over subsets).
fn part_order(adj: &[Vec<bool>], part: &[usize]) -> Vec<usize> {
    let n = part.len();
    if n > 20 {
        return part.to_vec();
    }
    let full = (1usize << n) - 1;
    let mut cost = vec![usize::MAX; 1 << n];
    let mut choice = vec![0usize; 1 << n];
    cost[0] = 0;
    for s in 0..=full {
        if cost[s] == usize::MAX {
            continue;
        }
        for r in 0..n {
            if s & (1 << r) != 0 {
                continue;
            }
            // Placing r above s: r's arrows into rooms not yet placed will point up.
            let ups = (0..n)
                .filter(|&j| j != r && adj[part[r]][part[j]] && s & (1 << j) == 0)
                .count();
            let t = s | (1 << r);
            if cost[s] + ups < cost[t] {
                cost[t] = cost[s] + ups;
                choice[t] = r;
            }
        }
    }
    let mut order = Vec::new();
    let mut s = full;
    while s != 0 {
        order.push(part[choice[s]]);
        s &= !(1 << choice[s]);
    }
    order.reverse();
    order
}

fn report(src: &Path) -> (Counts, Counts, Vec<String>) {
    let maps = folders(src);
    let mut total = Counts::default();
    let mut top = Counts::default();
    let mut problems = Vec::new();
    for (name, folder) in &maps {
        let (c, up, circles) = measure(folder);
        if name.is_empty() {
            top = c;
        }
        total.rooms += c.rooms;
        total.arrows += c.arrows;
        total.up += c.up;
        total.circles += c.circles;
        total.floors = total.floors.max(c.floors);
        let shown = if name.is_empty() { "src" } else { name };
        println!(
            "{shown}/: {} rooms, {} floors, {} arrows, {} up, {} circles",
            c.rooms, c.floors, c.arrows, c.up, c.circles
        );
        if std::env::var("PGBOOK_IMPORT_MAP_ARROWS").is_ok_and(|f| f == shown) {
            println!("{shown}/ arrows: {:?}", folder.arrows);
        }
        for (a, b) in up {
            problems.push(format!("{shown}/: {a} → {b} runs up"));
        }
        for c in circles {
            problems.push(format!("{shown}/: circle of {}", c.join(", ")));
        }
    }
    println!(
        "all folders: {} rooms, {} arrows, {} up, {} circles (deepest folder {} floors)",
        total.rooms, total.arrows, total.up, total.circles, total.floors
    );
    (top, total, problems)
}

/// Arrows up still standing, each to be folded away: none since issue 41. The test fails on
/// any other: a new circle or a new arrow up. Delete a line once its arrow is gone (the test
/// says so).
const KNOWN: &[&str] = &[];

#[test]
fn the_import_map_of_src_has_no_circle_and_no_arrow_up() {
    let root = std::env::var("PGBOOK_IMPORT_MAP")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let (top, total, problems) = report(&root.join("src"));
    // A wrong root or parser would pass vacuously.
    assert!(
        top.rooms > 8 && top.arrows > 10,
        "src/ was not read: {top:?}"
    );
    assert!(total.arrows > 100, "too few arrows read: {total:?}");
    for p in &problems {
        println!("{p}");
    }
    if std::env::var("PGBOOK_IMPORT_MAP").is_err() {
        let new: Vec<&String> = problems
            .iter()
            .filter(|p| !KNOWN.contains(&p.as_str()))
            .collect();
        assert!(
            new.is_empty(),
            "the import map runs up (see the module's doc): {new:#?}"
        );
        let gone: Vec<&&str> = KNOWN
            .iter()
            .filter(|k| !problems.iter().any(|p| p == *k))
            .collect();
        assert!(
            gone.is_empty(),
            "gone from the map, delete from KNOWN: {gone:#?}"
        );
    }
}

#[test]
fn the_import_map_sees_a_circle_and_an_arrow_up() {
    let dir = std::env::temp_dir().join(format!("pgbook-import-map-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("low")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod low; mod high;\n").unwrap();
    std::fs::write(
        src.join("low/mod.rs"),
        "mod a; mod b;\n// use crate::high; is a comment\nuse self::a::X;\n",
    )
    .unwrap();
    std::fs::write(src.join("low/a.rs"), "use super::b::Y;\n").unwrap();
    std::fs::write(
        src.join("low/b.rs"),
        "pub fn f() { let s = \"crate::high\"; crate::high::g(s) }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("high.rs"),
        "use crate::low::{a::X, b};\n#[cfg(test)] mod tests { use super::*; }\n",
    )
    .unwrap();
    let maps = folders(&src);
    let (top, up, circles) = measure(&maps[""]);
    assert_eq!(
        (top.rooms, top.arrows, top.up, top.circles),
        (3, 2, 1, 1),
        "{maps:?}"
    );
    assert_eq!(up.len(), 1);
    assert_eq!(circles.len(), 1);
    let (low, _, _) = measure(&maps["low"]);
    // mod → a, a → b.
    assert_eq!((low.rooms, low.arrows, low.up, low.circles), (3, 2, 0, 0));
    std::fs::remove_dir_all(&dir).ok();
}
