//! Runs recorded before the policy seam (issue 36) still give the same JSON lines, byte for
//! byte: `tests/fixtures/sequence_runs_before_seam.jsonl` holds, for a spread of settings
//! (every profile, the KL in the reward and in the loss with each estimator, GSPO's ratio,
//! clip-higher, both tasks, `<eos>` out of the mask, every reduction and advantage estimator,
//! the network's and the optimiser's settings; two seeds each), the argument list of
//! `pgbook train sequence … --json --threads 1`, the book's link to the same run, and the
//! lines the CLI printed at the commit named on the file's first line (the summaries without
//! their `wall_s`). A link without `policy` is a GRU run: the links recorded then must
//! still parse to the same settings. The page's side (a recorded link replayed in the
//! browser) is `e2e/tests/92-grpo`.
//!
//! One redefinition since the recording is deliberate (issue 38): an answer's length counts
//! its `<eos>` whether or not the mask holds it, so that runs with and without `<eos>` in the
//! mask compare. For runs with `include_eos=false` the length fields are compared apart: each
//! is at least what was recorded and at most one token more; every other field is exact.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::train::lines::run_lines;
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
use pgbook::train::settings::seeds::parse_seeds;
use pgbook::train::settings::Request;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pgbook");

#[derive(serde::Deserialize)]
struct Recorded {
    args: Vec<String>,
    url: String,
    lines: Vec<String>,
}

fn recorded() -> Vec<Recorded> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sequence_runs_before_seam.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the fixture is part of the crate");
    text.lines()
        .skip(1) // the header: the commit the runs were recorded at
        .map(|line| serde_json::from_str(line).expect("a recorded run"))
        .collect()
}

/// The CLI's `--json` lines with the summaries' wall time taken out, as recorded.
fn untimed(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|line| match line.find(",\"wall_s\":") {
            Some(at) => format!("{}}}", &line[..at]),
            None => line.to_string(),
        })
        .collect()
}

/// Whether a recorded run leaves `<eos>` out of the mask (its lengths were redefined since).
fn eos_out_of_mask(args: &[String]) -> bool {
    args.iter().any(|a| a == "include_eos=false")
}

/// Checks one line against its recording: byte for byte, or — a run with `<eos>` out of the
/// mask — every field exact but the lengths, each now within one `<eos>` above the recorded.
fn same_line(now: &str, then: &str, eos_out: bool) -> Result<(), String> {
    if !eos_out {
        return if now == then {
            Ok(())
        } else {
            Err("the line differs".into())
        };
    }
    let parse = |line: &str| {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line)
            .map_err(|e| format!("not a JSON object: {e}"))
    };
    let (mut now, mut then) = (parse(now)?, parse(then)?);
    let lengths: Vec<String> = then
        .keys()
        .filter(|k| k.contains("length"))
        .cloned()
        .collect();
    for key in &lengths {
        let (a, b) = (now.remove(key), then.remove(key));
        match (
            a.as_ref().and_then(|v| v.as_f64()),
            b.as_ref().and_then(|v| v.as_f64()),
        ) {
            (Some(a), Some(b)) if a >= b && a <= b + 1.0 => {}
            (None, None) if a == b => {}
            _ => return Err(format!("{key}: now {a:?}, then {b:?}")),
        }
    }
    if now == then {
        Ok(())
    } else {
        Err("a field other than the lengths differs".into())
    }
}

#[test]
fn every_recorded_run_prints_the_same_lines() {
    let runs = recorded();
    assert!(runs.len() >= 25, "{} runs recorded", runs.len());
    for run in &runs {
        let out = Command::new(BIN)
            .args(&run.args)
            .output()
            .expect("the CLI runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{:?}: {stderr}", run.args);
        let lines = untimed(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(lines.len(), run.lines.len(), "{:?}: line count", run.args);
        for (i, (now, then)) in lines.iter().zip(&run.lines).enumerate() {
            let same = same_line(now, then, eos_out_of_mask(&run.args));
            assert!(
                same.is_ok(),
                "{:?}: line {}: {}\n now  {}\n then {}",
                run.args,
                i + 1,
                same.err().unwrap_or_default(),
                &now[..now.len().min(300)],
                &then[..then.len().min(300)]
            );
        }
    }
}

/// The run a link starts, as the page's worker runs it: the query's profile and overrides
/// resolved by the schema (what `check_run` does), each seed trained in turn, its lines.
fn lines_of_link(url: &str) -> Vec<String> {
    let query = url
        .split_once('?')
        .map_or("", |(_, q)| q.split('#').next().unwrap_or(""));
    let (mut profile, mut seeds, mut set) = (String::new(), Vec::new(), Vec::new());
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').expect("key=value");
        assert!(
            !value.contains('%'),
            "{url}: the recorded links need no decoding"
        );
        match key {
            "run" => assert_eq!(value, "sequence"),
            "profile" => profile = value.to_string(),
            "seed" | "seeds" => seeds = parse_seeds(value).expect("seeds"),
            _ => set.push((key.to_string(), value.to_string())),
        }
    }
    let (_, config) = Request { profile, set }
        .resolve::<SequenceConfig>()
        .expect("the link's settings");
    run_lines::<SequenceTrainer>(&config, &seeds).expect("the run")
}

#[test]
fn every_recorded_link_starts_the_same_run() {
    // A link saved before the seam has no `policy`: it must still be a GRU run with exactly
    // the recorded lines, and the CLI must still print that link for those arguments.
    for run in recorded() {
        assert!(!run.url.contains("policy="), "{}", run.url);
        let lines = lines_of_link(&run.url);
        assert_eq!(lines.len(), run.lines.len(), "{}", run.url);
        for (now, then) in lines.iter().zip(&run.lines) {
            let same = same_line(now, then, eos_out_of_mask(&run.args));
            assert!(
                same.is_ok(),
                "{}: {}",
                run.url,
                same.err().unwrap_or_default()
            );
        }
        let args: Vec<&String> = run.args.iter().filter(|a| *a != "--json").collect();
        let out = Command::new(BIN)
            .args(args)
            .arg("--url")
            .output()
            .expect("the CLI runs");
        assert!(out.status.success(), "{:?}", run.args);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), run.url);
    }
}
