//! The transformer behind the sequence trainer's seam: PPO's first ratio exactly 1 (sampling
//! through the KV cache and training through the batched forward agree to the bit), every
//! GRPO-family setting training it in either precision, the trainer's exact gradient through
//! it, its settings' relations, lesson 8's smoke run learning with it, and short recorded
//! runs (`tests/fixtures/transformer_runs.jsonl`) that the wasm build must reproduce too
//! (`tests/sequence_wasm.rs`).

#![cfg(not(target_arch = "wasm32"))]

use pgbook::error::ErrorKind;
use pgbook::nn::{Gru, Precision, Transformer};
use pgbook::rl::{AdvantageEstimator, KlEstimator, Reduction};
use pgbook::train::lines::run_lines;
use pgbook::train::sequence::{
    KlPlacement, PolicyKind, RatioLevel, SequenceConfig, SequenceProfile, SequenceRun,
    SequenceTrainer, TaskKind,
};
use pgbook::train::settings::{Request, Settings};

/// A small, fast transformer run of the `transformer` profile's recipe.
fn small(precision: Precision) -> SequenceConfig {
    SequenceConfig {
        iterations: 3,
        prompts_per_iteration: 3,
        group_size: 4,
        model_dim: 8,
        heads: 2,
        layers: 1,
        mlp_dim: 16,
        eval_samples_per_prompt: 4,
        learning_rate: 3e-3,
        precision,
        ..SequenceConfig::for_profile(SequenceProfile::Transformer)
    }
}

#[test]
fn the_first_epochs_ratio_is_exactly_one() {
    for precision in [Precision::F32, Precision::F64] {
        for task in TaskKind::ALL {
            let mut config = SequenceConfig {
                task,
                max_response_len: task.max_answer_len().max(4),
                ..small(precision)
            };
            // The addition task's prompts are longer than `small`'s context.
            config.context_len = config.context_len.max(config.sequence_len());
            let mut trainer = SequenceTrainer::new(config, 3).unwrap();
            for _ in 0..2 {
                // Sampled through the KV cache, then read back by the batched forward.
                let batch = trainer.collect_rollout().unwrap();
                let new = trainer.token_log_probs(&batch).unwrap();
                let masked = batch.mask.iter().filter(|&&m| m == 1.0).count();
                assert!(masked > 0);
                for ((n, o), m) in new.iter().zip(&batch.old_log_probs).zip(&batch.mask) {
                    if *m == 1.0 {
                        assert_eq!(n.to_bits(), o.to_bits(), "{precision:?} {task}");
                    }
                }
                trainer.step().unwrap();
            }
        }
    }
}

/// Covers every value of every GRPO-family setting at least once (and both tasks and
/// precisions), a few iterations each.
fn matrix() -> Vec<SequenceConfig> {
    let mut configs = Vec::new();
    let precisions = [Precision::F32, Precision::F64];
    for (i, reduction) in Reduction::EVERY.into_iter().enumerate() {
        for ratio_level in [RatioLevel::Token, RatioLevel::Sequence] {
            configs.push(SequenceConfig {
                reduction,
                ratio_level,
                clip_epsilon_high: (i % 2 == 1).then_some(0.28),
                precision: precisions[i % 2],
                ..small(Precision::F32)
            });
        }
    }
    for (i, estimator) in AdvantageEstimator::ALL.into_iter().enumerate() {
        configs.push(SequenceConfig {
            advantage_estimator: estimator,
            include_eos: i % 2 == 0,
            task: TaskKind::ALL[i % 2],
            max_response_len: 5,
            precision: precisions[i % 2],
            ..small(Precision::F32)
        });
    }
    for (i, kl_estimator) in KlEstimator::ALL.into_iter().enumerate() {
        for kl_placement in [KlPlacement::Off, KlPlacement::Reward, KlPlacement::Loss] {
            configs.push(SequenceConfig {
                kl_estimator,
                kl_placement,
                kl_coef: 0.05,
                precision: precisions[i % 2],
                ..small(Precision::F32)
            });
        }
    }
    configs
}

#[test]
fn every_grpo_family_setting_trains_the_transformer() {
    let configs = matrix();
    assert!(configs.len() >= 20);
    for config in configs {
        let label = format!(
            "{} {} {} ε_high {:?} KL {} {} eos {} {} {}",
            config.reduction,
            config.ratio_level,
            config.advantage_estimator,
            config.clip_epsilon_high,
            config.kl_placement,
            config.kl_estimator,
            config.include_eos,
            config.task,
            config.precision.name()
        );
        let mut trainer = SequenceTrainer::new(config.clone(), 5).unwrap();
        let mut twin = SequenceTrainer::new(config, 5).unwrap();
        while !trainer.is_finished() {
            let report = trainer.step().unwrap_or_else(|e| panic!("{label}: {e}"));
            assert!(
                report.policy_loss.is_finite() && report.grad_norm > 0.0,
                "{label}"
            );
            assert!(
                report.approx_kl.is_finite() && report.approx_kl >= 0.0,
                "{label}"
            );
            assert_eq!(
                twin.step().unwrap(),
                report,
                "{label}: the same seed, the same run"
            );
        }
        assert_eq!(trainer.params(), twin.params());
        assert_ne!(
            trainer.params(),
            trainer.reference_params(),
            "{label}: it moved"
        );
    }
}

#[test]
fn the_trainers_gradient_through_the_transformer_is_exact() {
    // The policy terms, the KL in the loss and the entropy bonus, at both ratio levels (the
    // loss itself is the GRU's: tests/grpo.rs checks every recipe choice through it).
    let base = SequenceConfig {
        entropy_coef: 0.0,
        head_init_scale: 1.0,
        max_response_len: 5,
        context_len: 11,
        ..small(Precision::F64)
    };
    let mut cases = Vec::new();
    for (ratio_level, reduction) in [
        (RatioLevel::Token, Reduction::TokenMean),
        (RatioLevel::Sequence, Reduction::ConstantLength),
    ] {
        cases.push(SequenceConfig {
            ratio_level,
            reduction,
            clip_epsilon: 0.1,
            clip_epsilon_high: Some(0.3),
            kl_placement: KlPlacement::Loss,
            kl_coef: 0.5,
            ..base.clone()
        });
    }
    cases.push(SequenceConfig {
        entropy_coef: 0.3,
        ..base
    });
    for config in cases {
        let label = format!("{} {}", config.ratio_level, config.reduction);
        let mut run = SequenceRun::<Transformer<f64>>::new(config, 8).unwrap();
        let mut batch = run.collect_rollout().unwrap();
        let rows = batch.len();
        batch.advantages = (0..rows)
            .map(|b| if b % 2 == 0 { 1.0 } else { -0.7 } * (0.5 + b as f64 / rows as f64))
            .collect();
        let worst = crate::common::worst_sequence_gradient_error(&mut run, &batch);
        println!("transformer {label}: max relative error {worst:.2e}");
        assert!(worst > 0.0 && worst < 1e-5, "{label}: {worst:e}");
    }
}

#[test]
fn the_transformers_settings_are_checked() {
    let range_error = |config: SequenceConfig, arg: &str| match SequenceTrainer::new(config, 1) {
        Err(e) => match e.kind() {
            ErrorKind::Range { arg: a, .. } => assert_eq!(a, arg, "{e}"),
            _ => panic!("{arg}: expected a range error, got {e}"),
        },
        Ok(_) => panic!("{arg}: expected an error"),
    };
    let t = small(Precision::F32);
    range_error(
        SequenceConfig {
            model_dim: 10,
            heads: 4,
            ..t.clone()
        },
        "model_dim",
    );
    range_error(
        SequenceConfig {
            context_len: 12,
            ..t.clone()
        },
        "context_len",
    );
    let gru = SequenceConfig {
        policy: PolicyKind::Gru,
        ..t.clone()
    };
    range_error(gru.clone(), "precision");
    // The GRU ignores the transformer's shape, and a run is the network its settings name.
    let gru = SequenceConfig {
        precision: Precision::F64,
        heads: 3,
        context_len: 2,
        ..gru
    };
    assert!(SequenceTrainer::new(gru.clone(), 1).is_ok());
    assert!(SequenceRun::<Transformer<f64>>::new(gru.clone(), 1).is_err());
    assert!(SequenceRun::<Gru>::new(gru, 1).is_ok());
    assert!(SequenceRun::<Transformer<f64>>::new(t.clone(), 1).is_err());
    assert!(SequenceRun::<Transformer<f32>>::new(t, 1).is_ok());
    // A link's text: the setting by name, the error naming its choices.
    let request = |set: &[(&str, &str)]| Request {
        profile: "grpo".into(),
        set: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    };
    let (_, c) = request(&[("policy", "transformer"), ("precision", "f32")])
        .resolve::<SequenceConfig>()
        .unwrap();
    assert_eq!(
        (c.policy, c.precision),
        (PolicyKind::Transformer, Precision::F32)
    );
    let e = request(&[("policy", "lstm")])
        .resolve::<SequenceConfig>()
        .unwrap_err();
    assert!(e.to_string().contains("gru, transformer"), "{e}");
    let (_, gru) = request(&[]).resolve::<SequenceConfig>().unwrap();
    assert_eq!(
        gru.policy,
        PolicyKind::Gru,
        "a link without `policy` is a GRU run"
    );
}

#[test]
fn lesson_eights_smoke_run_learns_with_the_transformer() {
    let config = SequenceConfig {
        policy: PolicyKind::Transformer,
        precision: Precision::F32,
        ..SequenceConfig::smoke()
    };
    let mut trainer = SequenceTrainer::new(config, 5).unwrap();
    let initial = trainer.evaluate().unwrap().mean_reward;
    let mut last = None;
    while !trainer.is_finished() {
        last = Some(trainer.step().unwrap());
    }
    let last = last.unwrap();
    assert!(
        last.eval_mean_reward > initial + 0.3,
        "reward {initial:.3} → {:.3}",
        last.eval_mean_reward
    );
}

/// Short transformer runs in both precisions and on both tasks, as JSON lines: recorded once
/// natively, checked here and, bit for bit, in the browsers by `tests/sequence_wasm.rs`.
/// `PGBOOK_RECORD=1 cargo test --test it recorded_transformer_runs` writes them anew (after a
/// change that is meant to change the runs).
#[test]
fn recorded_transformer_runs_give_the_same_lines() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/transformer_runs.jsonl"
    );
    let cases: Vec<(SequenceConfig, u64)> = [Precision::F32, Precision::F64]
        .into_iter()
        .flat_map(|precision| {
            // The two tasks recorded with the transformer (the addition task's runs are
            // tests/r1.rs's).
            [TaskKind::ThreePrompts, TaskKind::Copy].map(|task| {
                let config = SequenceConfig {
                    task,
                    max_response_len: 5,
                    ..small(precision)
                };
                (config, 7)
            })
        })
        .collect();
    let record = std::env::var_os("PGBOOK_RECORD").is_some();
    let mut text = String::new();
    for (config, seed) in &cases {
        let lines = run_lines::<SequenceTrainer>(config, &[*seed]).unwrap();
        let case = serde_json::json!({ "config": config, "seed": seed, "lines": lines });
        text.push_str(&case.to_string());
        text.push('\n');
    }
    if record {
        std::fs::write(path, &text).unwrap();
    }
    let recorded = std::fs::read_to_string(path).expect("the recorded runs");
    assert_eq!(text, recorded, "the runs differ from the recorded ones");
    assert!(recorded.lines().count() == 4 && !recorded.contains("NaN"));
}
