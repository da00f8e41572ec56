//! The lessons' Python (`www/python/`) and the notebook to take home, run by `python3` with
//! NumPy (scripts/setup.sh installs it, with nbclient and ipykernel): every snippet against the
//! core's vectors and the fixture's golden cases, a deliberately wrong snippet failing, and
//! both notebooks executed in a fresh Jupyter kernel — the teacher's passes every check, the
//! student's stubs fail each with a readable message.

use crate::common::fixtures_dir;
use pgbook::lessons::code;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under the target directory (tests run in parallel: one per test).
fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/python-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn python(args: &[&Path]) -> Output {
    let out = Command::new("python3")
        .args(args)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 must be on PATH (scripts/setup.sh installs NumPy, nbclient, ipykernel)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("ModuleNotFoundError"),
        "python3 lacks a module: run scripts/setup.sh\n{err}"
    );
    out
}

fn snippets(python_dir: &Path, dir: &Path) -> Output {
    let cases = dir.join("cases.json");
    let json = serde_json::to_string(&code::cases_by_function().unwrap()).unwrap();
    std::fs::write(&cases, json).unwrap();
    let script = root().join("tests/python/check_snippets.py");
    let fixture = fixtures_dir().join("reference_cases.json");
    python(&[&script, &cases, python_dir, &fixture])
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn every_snippet_agrees_with_the_core_and_the_golden_cases() {
    let out = snippets(&root().join("www/python"), &scratch("snippets"));
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    // Every function file is checked (the PyTorch one through its NumPy twin, or by torch).
    let files = std::fs::read_dir(root().join("www/python"))
        .unwrap()
        .count();
    assert!(
        t.contains(&format!("{} passed, 0 failed", files - 2)),
        "{t}"
    );
    for f in [
        "reward_to_go",
        "gae_advantages",
        "kl_estimators",
        "token_log_probs",
    ] {
        assert!(
            t.contains(&format!("✓ {f}: пройдены все случаи")),
            "{f}: {t}"
        );
    }
}

/// A snippet that disagrees with the core fails the check, naming the function, the case and
/// the typical mistake it made.
#[test]
fn a_wrong_snippet_fails() {
    let dir = scratch("broken");
    let copy = dir.join("python");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(root().join("www/python")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    // Reward-to-go summed forwards: the past rewards instead of the future ones.
    let file = copy.join("reward_to_go.py");
    let source = std::fs::read_to_string(&file).unwrap();
    let broken = source.replace("range(len(r) - 1, -1, -1)", "range(len(r))");
    assert_ne!(
        broken, source,
        "the loop to break is gone from reward_to_go.py"
    );
    std::fs::write(&file, broken).unwrap();
    let out = snippets(&copy, &dir);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("✗ reward_to_go: пройдено"), "{t}");
    assert!(t.contains("Случай «пример урока 2»"), "{t}");
    assert!(
        t.contains("Подсказка: Похоже, награда накоплена слева направо"),
        "{t}"
    );
}

fn run_notebook(teacher: bool) -> Vec<Value> {
    let dir = scratch(if teacher { "teacher" } else { "student" });
    let nb = dir.join("exercises.ipynb");
    std::fs::write(&nb, code::notebook(teacher).unwrap()).unwrap();
    let out = python(&[&root().join("tests/python/run_notebook.py"), &nb]);
    assert!(out.status.success(), "{}", text(&out));
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
}

fn check_cells(cells: &[Value]) -> Vec<(String, String)> {
    cells
        .iter()
        .filter(|c| c["source"].as_str().unwrap().starts_with("check("))
        .map(|c| {
            assert_eq!(c["error"], false, "{c}");
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("source"), s("text"))
        })
        .collect()
}

#[test]
fn the_teachers_notebook_passes_every_check() {
    let cells = run_notebook(true);
    let checks = check_cells(&cells);
    assert_eq!(checks.len(), code::exercises().unwrap().len());
    for (source, text) in &checks {
        let functions = source.matches(',').count() + 1;
        assert_eq!(
            text.matches("пройдены все случаи").count(),
            functions,
            "{source}: {text}"
        );
        assert!(!text.contains('✗'), "{source}: {text}");
    }
    let summary = cells.last().unwrap()["text"].as_str().unwrap();
    assert!(summary.contains("написано верно 9 из 9"), "{summary}");
}

#[test]
fn the_students_notebook_fails_every_check_readably() {
    let cells = run_notebook(false);
    let checks = check_cells(&cells);
    assert_eq!(checks.len(), code::exercises().unwrap().len());
    for (source, text) in &checks {
        let functions = source.matches(',').count() + 1;
        let stubs = text
            .matches("функция ещё не написана (raise NotImplementedError)")
            .count();
        assert_eq!(stubs, functions, "{source}: {text}");
        assert!(!text.contains("Traceback"), "{source}: {text}");
    }
    let summary = cells.last().unwrap()["text"].as_str().unwrap();
    assert!(summary.contains("написано верно 0 из 9"), "{summary}");
}
