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
            assert!(
                now == then,
                "{:?}: line {} differs\n now  {}\n then {}",
                run.args,
                i + 1,
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
        assert_eq!(lines_of_link(&run.url), run.lines, "{}", run.url);
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
