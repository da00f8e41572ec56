//! The `pgbook` command line as a user meets it: every bound checked before any work (exit 2
//! and a message, nothing trained), a closed pipe ends quietly, every option checked before
//! training, help on every level, and the settings' schema.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::train::ppo::PpoConfig;
use pgbook::train::reinforce::ReinforceConfig;
use pgbook::train::sequence::SequenceConfig;
use pgbook::train::settings::{Profile, Settings};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pgbook");

/// Runs the CLI; returns (exit code, stdout, stderr). A run that has not ended after two
/// minutes is a hang (killed, the test fails): a guard, not a time budget.
fn run(args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI runs");
    // Both pipes drained beside the wait, so that neither fills and blocks the CLI.
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).ok();
            text
        })
    };
    let out = read(Box::new(child.stdout.take().expect("stdout")));
    let err = read(Box::new(child.stderr.take().expect("stderr")));
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(120) {
            child.kill().ok();
            panic!("{args:?}: the CLI did not end (a hang)");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (
        status.code().unwrap_or(-1),
        out.join().expect("stdout"),
        err.join().expect("stderr"),
    )
}

/// Refused with exit code 2 and a message naming `names`, before any training: nothing on
/// stdout. (That the check precedes any allocation is the schema's: see
/// `every_refused_size_is_refused_by_the_schema_alone` below.)
fn refused(args: &[&str], names: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(
        err.contains(names),
        "{args:?}: the message should name {names}: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: printed before refusing: {out}");
}

/// `pairs` on the default profile's settings: an error naming `name`, from the schema's checks
/// alone (no trainer exists yet; the CLI's `train` runs exactly these before `Trainer::new`).
fn schema_refuses<S: Settings>(pairs: &[(&str, &str)], name: &str) {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let base = S::for_profile(S::Profile::ALL[0]);
    let e = base.with_text(&pairs).expect_err("refused by the schema");
    assert!(e.to_string().contains(name), "{pairs:?}: {e}");
}

#[test]
fn every_refused_size_is_refused_by_the_schema_alone() {
    schema_refuses::<SequenceConfig>(&[("iterations", "10000000000")], "iterations");
    schema_refuses::<SequenceConfig>(&[("group_size", "100000000000")], "group_size");
    schema_refuses::<SequenceConfig>(&[("ppo_epochs", "100000000")], "ppo_epochs");
    schema_refuses::<SequenceConfig>(&[("hidden_dim", "1000000")], "hidden_dim");
    schema_refuses::<PpoConfig>(&[("update_epochs", "1000000")], "update_epochs");
    schema_refuses::<PpoConfig>(&[("hidden_sizes", "100000")], "hidden_sizes");
    schema_refuses::<PpoConfig>(&[("num_envs", "4096"), ("num_steps", "4096")], "num_steps");
    schema_refuses::<PpoConfig>(
        &[("num_updates", "100000"), ("hidden_sizes", "1024,1024")],
        "num_updates",
    );
    schema_refuses::<ReinforceConfig>(&[("env_step_budget", "100000000000")], "env_step_budget");
    schema_refuses::<ReinforceConfig>(&[("episodes_per_update", "100000")], "episodes_per_update");
    schema_refuses::<ReinforceConfig>(&[("env_step_budget", "3999")], "env_step_budget");
    schema_refuses::<ReinforceConfig>(
        &[
            ("env_step_budget", "100000000"),
            ("value_steps", "1000"),
            ("hidden_sizes", "1024,1024"),
        ],
        "env_step_budget",
    );
}

#[test]
fn every_size_bound_is_checked_before_any_allocation_or_work() {
    refused(
        &["train", "sequence", "--iterations", "10000000000"],
        "iterations",
    );
    refused(
        &["train", "sequence", "--iterations", "18446744073709551615"],
        "iterations",
    );
    refused(
        &["train", "sequence", "--group-size", "100000000000"],
        "group_size",
    );
    refused(
        &["train", "sequence", "--set", "ppo_epochs=100000000"],
        "ppo_epochs",
    );
    refused(
        &["train", "sequence", "--set", "hidden_dim=1000000"],
        "hidden_dim",
    );
    refused(
        &["train", "ppo", "--set", "update_epochs=1000000"],
        "update_epochs",
    );
    refused(
        &["train", "ppo", "--set", "hidden_sizes=100000"],
        "hidden_sizes",
    );
    refused(
        &[
            "train",
            "ppo",
            "--set",
            "num_envs=4096",
            "--set",
            "num_steps=4096",
        ],
        "num_steps",
    );
    // Each bound alone is fine, their product (total work) is not.
    refused(
        &[
            "train",
            "ppo",
            "--set",
            "num_updates=100000",
            "--set",
            "hidden_sizes=1024,1024",
        ],
        "num_updates",
    );
    refused(
        &["train", "ppo", "--seeds", "1000000000000000000000"],
        "seed",
    );
    refused(&["train", "ppo", "--seeds", "9007199254740992"], "seed");
    refused(
        &["train", "reinforce", "--env-step-budget", "100000000000"],
        "env_step_budget",
    );
    refused(
        &["train", "reinforce", "--set", "episodes_per_update=100000"],
        "episodes_per_update",
    );
    // The budget must hold one batch of 500-step episodes.
    refused(
        &["train", "reinforce", "--set", "env_step_budget=3999"],
        "env_step_budget",
    );
    refused(
        &[
            "train",
            "reinforce",
            "--set",
            "env_step_budget=100000000",
            "--set",
            "value_steps=1000",
            "--set",
            "hidden_sizes=1024,1024",
        ],
        "env_step_budget",
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(BIN)
        .args([
            "train",
            "ppo",
            "--profile",
            "smoke",
            "--seeds",
            "11",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    // Read one line, then close the pipe as `head -1` does.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("a first line");
    drop(stdout);
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the CLI did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .ok();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        err.is_empty(),
        "nothing on stderr after a closed pipe: {err}"
    );
}

#[test]
fn every_option_is_checked_before_training_starts() {
    // A mistyped option, a bad value, an unwritable directory: refused at once.
    refused(
        &["train", "ppo", "--profile", "full", "--sed", "5"],
        "--sed",
    );
    refused(
        &["train", "ppo", "--profile", "full", "--threads", "x"],
        "--threads",
    );
    refused(
        &["train", "ppo", "--profile", "full", "--json=false"],
        "--json",
    );
    refused(
        &[
            "train",
            "ppo",
            "--profile",
            "full",
            "--svg-dir",
            "/proc/pgbook",
        ],
        "/proc/pgbook",
    );
    refused(&["train", "ppo", "--profile", "huge"], "huge");
    refused(&["train", "ppo", "--set", "gamma"], "--set");
    refused(&["train", "ppo", "--set", "gama=0.9"], "gama");
    refused(&["train", "reinforcement"], "reinforcement");
    refused(
        &["train", "reinforce", "--set", "weight=whole"],
        "whole_return",
    );
    refused(&["train", "reinforce", "--baseline", "critic"], "baseline");
}

#[test]
fn help_on_every_level_lists_the_options() {
    for args in [
        &["--help"][..],
        &["help"],
        &["train", "--help"],
        &["train", "ppo", "--help"],
        &["train", "reinforce", "--help"],
        &[],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        for option in ["--set", "--config", "--seeds", "--json", "settings"] {
            assert!(out.contains(option), "{args:?} does not mention {option}");
        }
    }
}

#[test]
fn settings_print_the_schema_and_overrides_apply() {
    let (code, out, _) = run(&["settings", "ppo", "--json"]);
    assert_eq!(code, 0);
    let schema: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let fields = schema["fields"].as_array().expect("fields");
    for f in fields {
        for key in ["name", "type", "default", "label", "help"] {
            assert!(f.get(key).is_some(), "{f} lacks {key}");
        }
        assert!(f.get("choices").is_some() || f["type"] == "bool" || f.get("min").is_some());
    }
    let (code, out, _) = run(&["settings", "reinforce", "--json"]);
    assert_eq!(code, 0);
    let schema: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let names: Vec<&str> = schema["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    for name in [
        "weight",
        "baseline",
        "norm_adv",
        "value_steps",
        "env_step_budget",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let (code, out, _) = run(&["settings", "sequence"]);
    assert!(code == 0 && out.contains("reduction") && out.contains("token_mean"));
    // --set and --config reach the run (two updates of one seed, as JSON lines).
    let dir = std::env::temp_dir().join(format!("pgbook-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let config = dir.join("c.json");
    std::fs::write(&config, r#"{"num_updates": 2, "evaluation_every": 1}"#).expect("write");
    let path = config.to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "train",
        "ppo",
        "--seeds",
        "3",
        "--config",
        &path,
        "--set",
        "gamma=0.9",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 3, "two updates and a summary");
    assert_eq!(lines[0]["kind"], "update");
    assert_eq!(lines[2]["kind"], "summary");
    assert!(lines[1]["evaluation"].is_object());
    // REINFORCE's lines have the same shape: one update per step, one summary per seed.
    let (code, out, err) = run(&[
        "train",
        "reinforce",
        "--profile",
        "smoke",
        "--seeds",
        "3,4",
        "--threads",
        "1",
        "--set",
        "env_step_budget=4000",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(
        lines.len(),
        4,
        "one update per seed and two summaries: {out}"
    );
    assert_eq!(
        (&lines[0]["kind"], &lines[0]["seed"]),
        (&"update".into(), &3.into())
    );
    assert!(
        lines[0]["evaluation"].is_object(),
        "the last update is evaluated"
    );
    assert_eq!(lines[2]["kind"], "summary");
    assert!(lines[3].get("solved_from_env_steps").is_some());
    assert!(lines[3]["final_evaluation_mean"].is_number());
    let (code, out, _) = run(&["train", "reinforce", "--profile", "smoke", "--seed", "5"]);
    assert!(
        code == 0 && out.contains("REINFORCE") && out.contains("reward_to_go"),
        "{out}"
    );
}

#[test]
fn url_prints_the_books_link_to_the_same_run() {
    let (code, out, err) = run(&[
        "train",
        "ppo",
        "--profile",
        "full",
        "--set",
        "gamma=0.98",
        "--set",
        "clip_coef=off",
        "--seeds",
        "11,37",
        "--url",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim(),
        "http://127.0.0.1:8000/ppo.html?run=ppo&profile=full&gamma=0.98&clip_coef=off&seeds=11,37#trainer-ppo"
    );
    // A setting equal to the profile's is no override; the base is the book's address.
    let (code, out, _) = run(&[
        "train",
        "sequence",
        "--profile",
        "smoke",
        "--set",
        "reduction=token_mean",
        "--seed",
        "5",
        "--url",
        "--url-base",
        "https://school.example/pgbook/",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "https://school.example/pgbook/sequences.html?run=sequence&profile=smoke&seed=5#trainer-sequence"
    );
    let (code, out, _) = run(&[
        "train",
        "reinforce",
        "--profile",
        "full",
        "--set",
        "weight=whole_return",
        "--set",
        "baseline=none",
        "--url",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "http://127.0.0.1:8000/baselines.html?run=reinforce&profile=full&weight=whole_return&baseline=none&seeds=11,37,71,101,131#trainer-reinforce"
    );
    // The sequence lab trains a profile's five seeds too.
    let (code, out, err) = run(&["train", "sequence", "--profile", "grpo", "--url"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.trim()
            .ends_with("sequences.html?run=sequence&profile=grpo&seed=1,2,3,4,5#trainer-sequence"),
        "{out}"
    );
    refused(
        &["train", "ppo", "--url", "--url-base", "ftp://x"],
        "url-base",
    );
    // The book in one file takes the run in its fragment; the served folder does not run
    // from disk.
    let (code, out, err) = run(&[
        "train",
        "a2c",
        "--profile",
        "smoke",
        "--seed",
        "11",
        "--url",
        "--url-base",
        "file:///media/usb/pgbook.html",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim(),
        "file:///media/usb/pgbook.html#gae/trainer-a2c?run=a2c&profile=smoke&seeds=11"
    );
    refused(
        &["train", "ppo", "--url", "--url-base", "file:///media/usb/"],
        "pgbook.html",
    );
}

#[test]
fn replay_plays_a_policy_files_greedy_episode_and_refuses_broken_files() {
    use pgbook::train::cartpole::CartPoleTrainer;
    use pgbook::train::policy::{replay, PolicyFile};
    use pgbook::train::ppo::{PpoConfig, PpoTrainer};
    use pgbook::train::Trainer;
    let config = PpoConfig {
        num_updates: 4,
        ..PpoConfig::smoke()
    };
    let mut t = PpoTrainer::new(config, 37).unwrap();
    while !t.is_finished() {
        t.step().unwrap();
    }
    let file = PolicyFile::of(&t, &t.actor(), t.updates_done(), t.summary().env_steps);
    let dir = std::env::temp_dir().join(format!("pgbook-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("policy.json");
    std::fs::write(&path, file.to_json().unwrap()).unwrap();
    let path = path.to_str().unwrap();
    let (code, out, err) = run(&["replay", path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let expected = replay(&t.actor(), file.precision().unwrap(), file.replay_seed());
    assert_eq!(line["reset_seed"], expected.reset_seed);
    assert_eq!(line["episode_return"], expected.episode_return);
    let states: Vec<[f64; 4]> = serde_json::from_value(line["states"].clone()).unwrap();
    assert_eq!(states, expected.states);
    let (code, out, _) = run(&["replay", path, "--reset-seed", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("reset seed 5"), "{out}");
    // A missing file, a file that is no policy, a bad option: exit 2 with what is wrong.
    refused(
        &["replay", "/nonexistent/policy.json"],
        "/nonexistent/policy.json",
    );
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"format\": 1}").unwrap();
    refused(&["replay", broken.to_str().unwrap()], "policy");
    refused(&["replay", path, "--reset-seed", "-1"], "reset-seed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn prepared_runs_a_lessons_comparison_and_checks_its_prediction() {
    // Lesson 4's masks on one seed: three rows, the critic's column, every prediction checked.
    let (code, out, err) = run(&["prepared", "masks", "--seeds", "11", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let rows = v["results"].as_array().expect("results");
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["seeds"], 1);
        assert_eq!(r["finished"], 1);
        let extra = r["extra"].as_array().expect("extra");
        assert_eq!(extra[0]["name"], "прогноз критика у лимита времени");
    }
    let checked = v["verdict"]["checked"].as_array().expect("checked");
    assert_eq!(checked.len(), 3);
    for c in checked {
        assert_ne!(c["outcome"], "unknown", "{c}");
        assert!(
            c["text"].as_str().unwrap_or("").starts_with("Прогноз «"),
            "{c}"
        );
    }
    refused(&["prepared", "nope"], "masks");
    refused(&["prepared", "masks", "--seeds", "x"], "seed");
    refused(&["prepared", "masks", "--threads", "0"], "threads");
}
