//! A2C on CartPole from the outside: the smoke profile learns, a seed gives a byte-identical
//! run (on every kernel path, so the browser's too), the CLI knows it through the registry,
//! and its messages use its own Russian labels.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::nn::{set_widest_kernels, Kernels};
use pgbook::train::a2c::{A2cConfig, A2cTrainer};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::cartpole::Evaluation;
use pgbook::train::registry;
use pgbook::train::settings::Settings;
use pgbook::train::Trainer;
use std::process::Command;

fn run(config: A2cConfig, seed: u64) -> (String, Vec<Evaluation>) {
    let mut tr = A2cTrainer::new(config, seed).unwrap();
    let mut reports = Vec::new();
    while !tr.is_finished() {
        reports.push(tr.step().unwrap());
    }
    (
        serde_json::to_string(&reports).unwrap(),
        tr.evaluations().to_vec(),
    )
}

#[test]
fn the_smoke_profile_learns_on_its_seeds() {
    let mean = |xs: &[Evaluation]| xs.iter().map(|e| e.mean).sum::<f64>() / xs.len() as f64;
    // Seeds 11 and 37 (51,200 transitions): the first evaluations after training starts
    // average under 100, the last three 358.6 and 500.
    for seed in [11, 37] {
        let (_, evs) = run(A2cConfig::smoke(), seed);
        let early = mean(&evs[1..5]);
        let late = mean(&evs[evs.len() - 3..]);
        assert!(
            early < 100.0,
            "seed {seed}: early evaluations average {early}"
        );
        assert!(
            late >= 300.0,
            "seed {seed}: the last three evaluations average {late}"
        );
    }
}

#[test]
fn the_same_seed_gives_a_byte_identical_run_on_every_kernel_path() {
    let config = A2cConfig {
        num_updates: 40,
        ..A2cConfig::smoke()
    };
    let mut runs = Vec::new();
    for k in [Kernels::Portable, Kernels::Avx2, Kernels::Avx512] {
        set_widest_kernels(k);
        runs.push(run(config.clone(), 11).0);
    }
    set_widest_kernels(Kernels::Avx512);
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
    assert_ne!(run(config, 12).0, runs[0], "another seed, another run");
}

#[test]
fn the_cli_trains_and_describes_it_from_the_registry() {
    let bin = env!("CARGO_BIN_EXE_pgbook");
    let out = Command::new(bin)
        .args([
            "train",
            "a2c",
            "--profile",
            "smoke",
            "--seed",
            "5",
            "--set",
            "num_updates=3",
        ])
        .args(["--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[..3].iter().all(|l| l.contains(r#""kind":"update""#)));
    assert!(lines[3].contains(r#""kind":"summary""#));
    let out = Command::new(bin)
        .args(["settings", "a2c", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fields = schema["fields"].as_array().unwrap();
    assert_eq!(fields.len(), A2cConfig::FIELDS.len());
    let out = Command::new(bin).args(["train", "a3c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("train a2c"));
}

#[test]
fn bad_settings_name_a2cs_own_labels() {
    let e = A2cConfig::smoke()
        .with_text(&[("num_envs".into(), "0".into())])
        .unwrap_err();
    let message = e.russian(&|n| registry::label(A2cTrainer::NAME, n));
    assert!(message.contains("параллельных сред N"), "{message}");
    assert!(A2cTrainer::new(
        A2cConfig {
            num_steps: 1 << 20,
            ..A2cConfig::smoke()
        },
        1
    )
    .is_err());
}
