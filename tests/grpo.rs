//! The GRPO family in the sequence trainer: every recipe choice's exact gradient against
//! finite differences, the KL in the reward through the advantages, the reference policy,
//! the copy task's verifier and levels, and the profiles' new report fields.

#![cfg(not(target_arch = "wasm32"))]

use ndarray::Array1;
use pgbook::rl::{self, AdvantageEstimator, KlEstimator, Reduction};
use pgbook::train::sequence::copy_task::{self, prompt_tokens};
use pgbook::train::sequence::rollout::STD_EPS;
use pgbook::train::sequence::task::EOS;
use pgbook::train::sequence::{
    KlPlacement, RatioLevel, SequenceConfig, SequenceProfile, SequenceTrainer, TaskKind,
};
use pgbook::train::settings::{Profile, Settings};

/// The GRU's run, whose parameters the tests move by hand.
type Run = pgbook::train::sequence::SequenceRun<pgbook::nn::Gru>;

/// A small copy-task configuration for the mechanical tests.
fn small() -> SequenceConfig {
    SequenceConfig {
        iterations: 10,
        group_size: 4,
        prompts_per_iteration: 3,
        embed_dim: 5,
        hidden_dim: 6,
        eval_samples_per_prompt: 4,
        head_init_scale: 1.0,
        ..SequenceConfig::for_profile(SequenceProfile::Grpo)
    }
}

/// Worst relative error of the trainer's gradient against central differences of its loss,
/// after a few signed steps away from ratio 1 (so that some tokens are clipped and the policy
/// differs from the reference). The small policy rarely answers right, so the advantages are
/// set by hand (signed, varied) for the policy terms to count; the entropy bonus is off.
fn worst_gradient_error(config: SequenceConfig, seed: u64) -> f64 {
    let config = SequenceConfig {
        entropy_coef: 0.0,
        ..config
    };
    let mut run = Run::new(config, seed).unwrap();
    let mut batch = run.collect_rollout().unwrap();
    let rows = batch.len();
    batch.advantages = (0..rows)
        .map(|b| if b % 2 == 0 { 1.0 } else { -0.7 } * (0.5 + b as f64 / rows as f64))
        .collect();
    crate::common::worst_sequence_gradient_error(&mut run, &batch)
}

#[test]
fn every_recipe_choice_has_the_exact_gradient() {
    let mut cases = Vec::new();
    for ratio_level in [RatioLevel::Token, RatioLevel::Sequence] {
        for reduction in Reduction::EVERY {
            cases.push(SequenceConfig {
                ratio_level,
                reduction,
                clip_epsilon: 0.1,
                clip_epsilon_high: Some(0.3),
                kl_placement: KlPlacement::Off,
                ..small()
            });
        }
        for kl_estimator in KlEstimator::ALL {
            cases.push(SequenceConfig {
                ratio_level,
                kl_estimator,
                kl_placement: KlPlacement::Loss,
                kl_coef: 0.5,
                ..small()
            });
        }
    }
    cases.push(SequenceConfig {
        kl_placement: KlPlacement::Reward,
        kl_coef: 0.5,
        advantage_estimator: AdvantageEstimator::Rloo,
        ..small()
    });
    for config in cases {
        let label = format!(
            "{} {} ε_high {:?} KL {} {} β {}",
            config.ratio_level,
            config.reduction,
            config.clip_epsilon_high,
            config.kl_placement,
            config.kl_estimator,
            config.kl_coef
        );
        let worst = worst_gradient_error(config, 8);
        assert!(worst > 0.0, "{label}: a zero gradient proves nothing");
        println!("{label}: max relative error {worst:.2e}");
        assert!(worst < 1e-5, "{label}: {worst:e}");
    }
}

/// The KL in the loss adds β·(the estimator reduced like the policy terms); its value is
/// `rl::kl_estimators`' and `rl::aggregate_token_terms`'.
#[test]
fn the_kl_in_the_loss_is_the_reduced_estimator() {
    for kl_estimator in KlEstimator::ALL {
        let config = SequenceConfig {
            kl_estimator,
            kl_placement: KlPlacement::Loss,
            kl_coef: 0.7,
            reduction: Reduction::ConstantLength,
            ..small()
        };
        let mut trainer = Run::new(config.clone(), 3).unwrap();
        let batch = trainer.collect_rollout().unwrap();
        // Move the policy so that it differs from the reference.
        let g = trainer.loss_and_gradient(&batch, None).unwrap().grad;
        trainer
            .params_mut()
            .iter_mut()
            .zip(&g)
            .for_each(|(p, g)| *p -= 0.1 * g.signum());
        let new = trainer.token_log_probs(&batch).unwrap();
        let k =
            rl::kl_estimators(new.view(), batch.ref_log_probs.view(), batch.mask.view()).unwrap();
        let terms = match kl_estimator {
            KlEstimator::K1 => k.k1,
            KlEstimator::K2 => k.k2,
            KlEstimator::K3 => k.k3,
        };
        let expected = 0.7
            * rl::aggregate_token_terms(
                terms.view(),
                batch.mask.view(),
                Reduction::ConstantLength,
                Some(config.max_response_len),
            )
            .unwrap();
        let got = trainer.loss_and_gradient(&batch, None).unwrap().kl_loss;
        assert!(
            expected.abs() > 1e-6,
            "{kl_estimator}: the policy did not move"
        );
        assert!(
            (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
            "{kl_estimator}: {got} vs {expected}"
        );
    }
}

/// With the KL in the reward, the advantages are the estimator's on the sums of
/// `rl::kl_in_reward`'s token rewards; the reference is the initial policy, so the first
/// rollout's penalty is exactly zero.
#[test]
fn the_kl_in_the_reward_reaches_the_advantages() {
    let config = SequenceConfig {
        kl_placement: KlPlacement::Reward,
        kl_coef: 0.3,
        advantage_estimator: AdvantageEstimator::MeanStdPopulation,
        ..small()
    };
    let mut trainer = Run::new(config.clone(), 4).unwrap();
    let first = trainer.collect_rollout().unwrap();
    for (x, y) in first.old_log_probs.iter().zip(&first.ref_log_probs) {
        assert!((x - y).abs() < 1e-12);
    }
    trainer.step().unwrap();
    trainer.step().unwrap();
    let batch = trainer.collect_rollout().unwrap();
    let token_rewards = rl::kl_in_reward(
        batch.rewards.view(),
        batch.old_log_probs.view(),
        batch.ref_log_probs.view(),
        batch.mask.view(),
        0.3,
    )
    .unwrap();
    let penalised: Array1<f64> = token_rewards
        .rows()
        .into_iter()
        .map(|r| r.iter().sum())
        .collect();
    assert!(penalised != batch.rewards, "the KL changed no reward");
    let mut expected = Vec::new();
    for group in penalised.exact_chunks(config.group_size) {
        expected.extend(
            rl::group_advantages(group, AdvantageEstimator::MeanStdPopulation, STD_EPS).unwrap(),
        );
    }
    assert_eq!(batch.advantages.to_vec(), expected);
    // The reference stays the initial policy while the policy moves.
    let fresh = Run::new(config, 4).unwrap();
    assert_eq!(trainer.reference().params, fresh.policy().params);
    assert_ne!(trainer.policy().params, fresh.policy().params);
}

/// The copy task's verifier, prompt layout and mask; before any update the reference's
/// log-probs are the policy's.
#[test]
fn copy_task_verifier_levels_and_layout() {
    let prompt = prompt_tokens(&[2, 0, 1]); // <bos> c a b =
    let (a, b, c) = (4, 5, 6);
    assert!(copy_task::verify(&prompt, &[c, a, b, EOS]).correct);
    assert!(copy_task::verify(&prompt, &[c, a, b, EOS, a]).correct);
    for wrong in [
        &[c, a, b][..],
        &[c, a, EOS],
        &[c, a, b, b, EOS],
        &[a, b, c, EOS],
        &[EOS],
    ] {
        let v = copy_task::verify(&prompt, wrong);
        assert_eq!((v.reward, v.correct), (0.0, false), "{wrong:?}");
    }
    let task = TaskKind::Copy;
    assert_eq!(task.levels(), 4);
    let mut trainer = SequenceTrainer::new(small(), 1).unwrap();
    let batch = trainer.collect_rollout().unwrap();
    assert_eq!(batch.len(), 3 * 4);
    for row in 0..batch.len() {
        let start = batch.prompt_lengths[row];
        assert_eq!(start, batch.levels[row] + 3);
        assert_eq!(batch.input_ids[[row, start - 1]], copy_task::SEP);
        // The mask starts at the first response label.
        assert_eq!(batch.mask[[row, start - 2]], 0.0);
        assert_eq!(batch.mask[[row, start - 1]], 1.0);
    }
    let reference = trainer.token_log_probs(&batch).unwrap();
    assert_eq!(reference.dim(), batch.ref_log_probs.dim());
    for (x, y) in reference.iter().zip(&batch.ref_log_probs) {
        assert!((x - y).abs() < 1e-12);
    }
}

/// The profiles' iteration reports carry the new fields, consistent with the rollout.
#[test]
fn reports_carry_lengths_kl_entropy_and_levels() {
    let mut trainer = SequenceTrainer::new(small(), 2).unwrap();
    let mut saw_both = false;
    for _ in 0..10 {
        let r = trainer.step().unwrap();
        assert_eq!(r.success_by_level.len(), 4);
        assert!(r.kl_to_reference.is_finite() && r.kl_to_reference >= 0.0);
        assert!(r.entropy > 0.0);
        match (r.mean_length_correct, r.mean_length_incorrect) {
            (Some(c), Some(i)) => {
                saw_both = true;
                let all = r.mean_response_length;
                assert!(all >= c.min(i) - 1e-12 && all <= c.max(i) + 1e-12);
            }
            (None, Some(i)) => assert_eq!(r.success_rate, 0.0, "{i}"),
            (Some(_), None) => assert_eq!(r.success_rate, 1.0),
            (None, None) => panic!("a rollout without responses"),
        }
    }
    assert!(
        saw_both,
        "no iteration had both correct and incorrect responses"
    );
    let names: Vec<&str> = SequenceProfile::ALL.iter().map(|p| p.name()).collect();
    for name in ["grpo", "dr_grpo", "rloo"] {
        assert!(names.contains(&name), "{name}");
    }
}

#[test]
fn new_settings_refuse_bad_values() {
    for (key, value) in [
        ("advantage_estimator", "grpo_plus"),
        ("kl_coef", "-0.1"),
        ("kl_placement", "everywhere"),
        ("kl_estimator", "k4"),
        ("ratio_level", "word"),
        ("clip_epsilon_high", "-1"),
        ("task", "sort"),
        ("reduction", "median"),
    ] {
        let pairs = [(key.to_string(), value.to_string())];
        let e = small().with_text(&pairs);
        assert!(e.is_err(), "{key}={value} accepted");
    }
    let good = [
        (
            "advantage_estimator".to_string(),
            "mean_std_population".to_string(),
        ),
        ("clip_epsilon_high".to_string(), "0.28".to_string()),
        ("ratio_level".to_string(), "sequence".to_string()),
        ("reduction".to_string(), "constant_length".to_string()),
    ];
    let c = small().with_text(&good).unwrap();
    assert_eq!(c.epsilon_high(), 0.28);
    assert_eq!(small().epsilon_high(), small().clip_epsilon);
    // The copy task needs room for its longest answer (4 symbols and <eos>).
    let short = SequenceConfig {
        max_response_len: 4,
        ..small()
    };
    assert!(SequenceTrainer::new(short, 1).is_err());
}

/// The copy task spans difficulty: a GRPO run learns level 1 almost always while level 4 stays
/// almost never solved, and the first evaluation shows level 1 was not solved from the start.
#[test]
fn grpo_profile_learns_the_easy_levels_and_not_the_hardest() {
    let config = SequenceConfig::for_profile(SequenceProfile::Grpo);
    let mut trainer = SequenceTrainer::new(config, 1).unwrap();
    let first = trainer.step().unwrap();
    let mut last = first.clone();
    while !trainer.done() {
        last = trainer.step().unwrap();
    }
    println!(
        "first {:?}, last {:?}",
        first.success_by_level, last.success_by_level
    );
    assert!(first.success_by_level[0] < 0.3, "{first:?}");
    assert!(last.success_by_level[0] >= 0.9, "{last:?}");
    assert!(
        last.success_by_level[1] > first.success_by_level[1] + 0.3,
        "{last:?}"
    );
    assert!(last.success_by_level[3] <= 0.1, "{last:?}");
    assert!(last.kl_to_reference > 0.0);
}
