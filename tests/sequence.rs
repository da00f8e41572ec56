//! The GRU sequence policy: verifier rules, batch layout and masks, RLOO, the loss against the
//! `rl::` objective, gradients, learning, determinism and bad configurations.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::error::ErrorKind;
use pgbook::plots::{sequence_curves, to_svg, Theme};
use pgbook::rl::{self, DiagnosticsAccumulator, Reduction};
use pgbook::train::sequence::task::{self, verify, EOS, PAD};
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};

/// The GRU's run, whose parameters the tests move by hand.
type Run = pgbook::train::sequence::SequenceRun<pgbook::nn::Gru>;

/// Symbol token ids.
const A: i64 = 6;
const B: i64 = 7;
const C: i64 = 8;
const D: i64 = 9;

/// A small, fast configuration for the mechanical tests.
fn small(reduction: Reduction) -> SequenceConfig {
    SequenceConfig {
        iterations: 10,
        group_size: 4,
        embed_dim: 5,
        hidden_dim: 6,
        eval_samples_per_prompt: 8,
        reduction,
        ..SequenceConfig::full()
    }
}

#[test]
fn verifier_follows_the_documented_rule() {
    // q0 → A C, q1 → B D, q2 → D A.
    let cases: &[(usize, &[i64], f64, bool)] = &[
        (0, &[A, C, EOS], 1.0, true),
        (1, &[B, D, EOS], 1.0, true),
        (2, &[D, A, EOS], 1.0, true),
        // Partial credit: each symbol in place, and stopping on time.
        (0, &[A, B, EOS], 0.7, false),
        (0, &[B, C, EOS], 0.7, false),
        (0, &[B, B, EOS], 0.4, false),
        (0, &[C, A, EOS], 0.4, false),
        // No <eos>: cut at the maximum length.
        (0, &[A, C], 0.6, false),
        (0, &[A, C, A, B], 0.4, false),
        // Stopping too early earns no stop credit.
        (0, &[EOS], 0.0, false),
        (0, &[A, EOS], 0.3, false),
        // Overlong: −0.1 per symbol beyond the second, stopped or not.
        (0, &[A, C, D, EOS], 0.5, false),
        (1, &[A, A, A, A], -0.2, false),
        (1, &[B, D, B, EOS], 0.5, false),
        // Tokens after the first <eos> are ignored.
        (2, &[D, A, EOS, PAD, B], 1.0, true),
    ];
    for &(class, response, reward, correct) in cases {
        let v = verify(class, response);
        assert_eq!(
            (v.reward, v.correct),
            (reward, correct),
            "class {class}, response {}",
            task::decode(response)
        );
    }
    for class in 0..task::NUM_PROMPTS {
        assert_eq!(verify(class, &task::correct_response(class)).reward, 1.0);
    }
}

#[test]
fn rollout_layout_mask_and_rloo_advantages() {
    let config = small(Reduction::TokenMean);
    let (g, t) = (config.group_size, config.sequence_len());
    let mut trainer = SequenceTrainer::new(config, 3).unwrap();
    let batch = trainer.collect_rollout().unwrap();
    assert_eq!(batch.len(), 3 * g);
    for b in 0..batch.len() {
        let row = &batch.input_ids.row(b).to_vec();
        let class = batch.prompt_classes[b];
        assert_eq!(class, b / g, "rows are grouped by prompt");
        assert_eq!(row.len(), t);
        assert_eq!(&row[..2], &[task::BOS, task::PROMPT_TOKENS[class]]);
        // The response: symbols, then possibly <eos>, then only PAD.
        let response: Vec<i64> = row[2..].iter().copied().filter(|&x| x != PAD).collect();
        let n = response.len();
        assert!((1..=t - 2).contains(&n));
        assert!(row[2 + n..].iter().all(|&x| x == PAD));
        assert!(response[..n - 1].iter().all(|&x| x != EOS));
        // Mask: exactly the response labels (columns 1..=n), <eos> included.
        let expected: Vec<f64> = (0..t - 1)
            .map(|k| if (1..=n).contains(&k) { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(batch.mask.row(b).to_vec(), expected);
        assert_eq!(batch.response_len(b), n);
        // Old log-probs: negative on the mask, 0 elsewhere.
        for k in 0..t - 1 {
            let lp = batch.old_log_probs[[b, k]];
            assert!(if expected[k] == 1.0 {
                lp < 0.0
            } else {
                lp == 0.0
            });
        }
        assert_eq!(batch.rewards[b], verify(class, &response).reward);
    }
    for class in 0..3 {
        let group = class * g..(class + 1) * g;
        let advantages = batch.advantages.to_vec();
        let rewards = batch.rewards.to_vec();
        let sum: f64 = advantages[group.clone()].iter().sum();
        assert!(sum.abs() < 1e-12, "group {class} sums to {sum}");
        let expected = rl::rloo_advantages(rewards[group.clone()].into()).unwrap();
        assert_eq!(&advantages[group], expected.to_vec().as_slice());
    }
}

#[test]
fn first_batch_is_kept_for_display_with_zero_sum_groups() {
    let mut trainer = SequenceTrainer::new(small(Reduction::TokenMean), 4).unwrap();
    assert!(trainer.first_batch().is_none());
    trainer.step().unwrap();
    let rows = trainer.first_batch().unwrap().to_vec();
    trainer.step().unwrap();
    assert_eq!(
        trainer.first_batch().unwrap(),
        rows.as_slice(),
        "kept, not replaced"
    );
    for class in 0..3 {
        let sum: f64 = rows
            .iter()
            .filter(|r| r.prompt_class == class)
            .map(|r| r.advantage)
            .sum();
        assert!(sum.abs() < 1e-12);
    }
    let row = &rows[0];
    assert!(row.text.starts_with("<bos> q0"));
    assert!(!row.text.contains("<pad>"));
    assert_eq!(row.mask.len(), row.input_ids.len() - 1);
}

#[test]
fn loss_equals_minus_the_rl_objective_for_every_reduction() {
    for reduction in Reduction::ALL {
        let mut config = small(reduction);
        config.entropy_coef = 0.0;
        let mut trainer = Run::new(config.clone(), 7).unwrap();
        let batch = trainer.collect_rollout().unwrap();
        // At the sampling policy every ratio is exactly 1: nothing is clipped, KL is 0.
        let mut diag = DiagnosticsAccumulator::default();
        let fresh = trainer.loss_and_gradient(&batch, Some(&mut diag)).unwrap();
        let new = trainer.token_log_probs(&batch).unwrap();
        assert_eq!(
            new, batch.old_log_probs,
            "{reduction}: sampling and forward agree"
        );
        let d = diag.finish().unwrap();
        assert_eq!(d.approx_kl_nonnegative, 0.0);
        assert_eq!(d.ratio_outside_fraction, 0.0);
        // Move the policy so that ratios leave the clip range, then compare.
        for _ in 0..4 {
            let g = trainer.loss_and_gradient(&batch, None).unwrap().grad;
            let lr = 0.2;
            trainer
                .params_mut()
                .iter_mut()
                .zip(&g)
                .for_each(|(p, g)| *p -= lr * g.signum());
        }
        let mut diag = DiagnosticsAccumulator::default();
        let moved = trainer.loss_and_gradient(&batch, Some(&mut diag)).unwrap();
        let clipped = diag.finish().unwrap().active_clip_fraction;
        println!("{reduction}: active clip fraction {clipped:.3}");
        assert!(
            clipped > 0.0,
            "{reduction}: the comparison must cover clipped tokens"
        );
        assert!(fresh.policy_loss.is_finite());
        let new = trainer.token_log_probs(&batch).unwrap();
        let objective = rl::masked_token_ppo_objective(
            new.view(),
            batch.old_log_probs.view(),
            batch.advantages.view(),
            batch.mask.view(),
            config.clip_epsilon,
            reduction,
        )
        .unwrap();
        let diff = (moved.policy_loss + objective).abs();
        assert!(
            diff < 1e-12,
            "{reduction}: loss {} vs objective {objective}",
            moved.policy_loss
        );
        assert_eq!(
            moved.loss, moved.policy_loss,
            "no entropy term when its weight is 0"
        );
    }
}

/// The trainer's loss gradient (clipped PPO under each reduction, plus the entropy bonus)
/// against central differences of its own loss value.
#[test]
fn loss_gradient_matches_finite_differences() {
    for reduction in Reduction::ALL {
        let mut trainer = Run::new(small(reduction), 8).unwrap();
        let batch = trainer.collect_rollout().unwrap();
        let worst = crate::common::worst_sequence_gradient_error(&mut trainer, &batch);
        println!("{reduction}: max relative error {worst:.2e}");
        assert!(worst < 1e-5, "{reduction}: {worst:e}");
    }
}

#[test]
fn smoke_profile_learns() {
    let config = SequenceConfig::smoke();
    let mut trainer = SequenceTrainer::new(config, 5).unwrap();
    let initial = trainer.evaluate().unwrap().mean_reward;
    let mut reports = Vec::new();
    while !trainer.done() {
        reports.push(trainer.step().unwrap());
    }
    let tail: f64 = reports[reports.len() - 5..]
        .iter()
        .map(|r| r.eval_mean_reward)
        .sum::<f64>()
        / 5.0;
    println!("smoke seed 5: evaluation mean reward {initial:.3} → {tail:.3}");
    assert!(tail > initial + 0.4, "{initial} → {tail}");
    assert!(reports
        .iter()
        .all(|r| r.approx_kl.is_finite() && r.approx_kl >= 0.0));
}

#[test]
fn full_profile_seed_5_answers_every_prompt() {
    let mut trainer = SequenceTrainer::new(SequenceConfig::full(), 5).unwrap();
    let mut last = None;
    while !trainer.done() {
        last = Some(trainer.step().unwrap());
    }
    let last = last.unwrap();
    let greedy = trainer.greedy_answers().unwrap();
    let texts: Vec<&str> = greedy.iter().map(|g| g.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "<bos> q0 A C <eos>",
            "<bos> q1 B D <eos>",
            "<bos> q2 D A <eos>"
        ]
    );
    assert_eq!(last.greedy_correct, 3);
    assert!(last.eval_success_rate >= 0.95, "{last:?}");
}

#[test]
fn same_seed_same_run_and_evaluation_does_not_disturb_training() {
    let run = |seed, extra_evaluations: bool| {
        let mut trainer = Run::new(small(Reduction::SequenceMean), seed).unwrap();
        let mut reports = Vec::new();
        for _ in 0..5 {
            reports.push(trainer.step().unwrap());
            if extra_evaluations {
                trainer.evaluate().unwrap();
            }
        }
        (reports, trainer.policy().params.clone())
    };
    let (r1, p1) = run(11, false);
    let (r2, p2) = run(11, false);
    assert_eq!(r1, r2);
    assert_eq!(p1, p2, "bit-identical parameters");
    let (_, p3) = run(11, true);
    assert_eq!(p1, p3, "extra evaluations draw from their own stream");
    let (_, p4) = run(12, false);
    assert_ne!(p1, p4);
}

#[test]
fn bad_configs_are_clear_errors() {
    let bad = |f: fn(&mut SequenceConfig), arg: &str| {
        let mut c = SequenceConfig::smoke();
        f(&mut c);
        match SequenceTrainer::new(c, 1) {
            Err(e) => match e.kind() {
                ErrorKind::Range { arg: a, .. } => assert_eq!(a, arg, "{e}"),
                _ => panic!("{arg}: expected a range error, got {e}"),
            },
            Ok(_) => panic!("{arg}: expected an error"),
        }
    };
    bad(|c| c.group_size = 1, "group_size");
    bad(|c| c.iterations = 0, "iterations");
    bad(|c| c.max_response_len = 2, "max_response_len");
    bad(|c| c.ppo_epochs = 0, "ppo_epochs");
    bad(|c| c.learning_rate = f64::NAN, "learning_rate");
    bad(|c| c.clip_epsilon = 1.5, "clip_epsilon");
    bad(|c| c.entropy_coef = -1.0, "entropy_coef");

    let err = "token_sum".parse::<Reduction>().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Unknown { what, name, .. } if *what == pgbook::error::Name::Reduction && name == "token_sum"),
        "{err}"
    );
    let mut json = serde_json::to_value(SequenceConfig::full()).unwrap();
    json["reduction"] = "token_sum".into();
    let err = SequenceConfig::from_json(&json.to_string()).unwrap_err();
    assert!(err.to_string().contains("token_sum"), "{err}");
    json["reduction"] = "sequence_sum_mean".into();
    json["group_size"] = 1.into();
    assert!(SequenceConfig::from_json(&json.to_string()).is_err());
    assert!(SequenceConfig::profile("huge").is_err());
}

#[test]
fn config_round_trips_through_json() {
    let config = small(Reduction::SequenceSumMean);
    let json = serde_json::to_string(&config).unwrap();
    assert!(json.contains("\"reduction\":\"sequence_sum_mean\""));
    assert_eq!(SequenceConfig::from_json(&json).unwrap(), config);
}

#[test]
fn non_finite_parameters_stop_the_run_naming_the_iteration() {
    let mut trainer = Run::new(small(Reduction::TokenMean), 2).unwrap();
    trainer.step().unwrap();
    // The last head bias takes part in every sampled token.
    let last = trainer.params_mut().len() - 1;
    trainer.params_mut()[last] = f64::NAN;
    match trainer.step() {
        Err(e) => assert!(
            matches!(e.kind(), ErrorKind::Diverged { step: 2, .. }),
            "expected divergence in iteration 2, got {e}"
        ),
        Ok(_) => panic!("expected Diverged"),
    }
}

#[test]
fn curves_render_to_svg() {
    let mut trainer = SequenceTrainer::new(small(Reduction::TokenMean), 1).unwrap();
    let reports: Vec<_> = (0..4).map(|_| trainer.step().unwrap()).collect();
    let svg = to_svg(640, 360, |a| {
        sequence_curves::draw(
            a,
            &sequence_curves::Data {
                reports: &reports,
                x_end: 0,
            },
            &Theme::default(),
        )
    })
    .unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("итерация"));
    assert!(svg.contains("средняя награда"));
    // An empty history still draws empty axes.
    let empty = to_svg(320, 200, |a| {
        sequence_curves::draw(
            a,
            &sequence_curves::Data {
                reports: &[],
                x_end: 0,
            },
            &Theme::default(),
        )
    })
    .unwrap();
    assert!(empty.contains("</svg>"));
}

#[test]
fn leaving_eos_out_of_the_mask_drops_exactly_the_eos_labels() {
    let first_batch = |include_eos: bool| {
        let config = SequenceConfig {
            include_eos,
            ..small(Reduction::TokenMean)
        };
        let mut t = SequenceTrainer::new(config, 5).unwrap();
        t.step().unwrap();
        t.first_batch().unwrap().to_vec()
    };
    let (with, without) = (first_batch(true), first_batch(false));
    // The same seed samples the same first batch; only the mask differs.
    assert_eq!(with.len(), without.len());
    let mut dropped = 0;
    for (w, o) in with.iter().zip(&without) {
        assert_eq!(w.input_ids, o.input_ids);
        for (k, (&mw, &mo)) in w.mask.iter().zip(&o.mask).enumerate() {
            let label_is_eos = w.input_ids[k + 1] == EOS;
            if label_is_eos && mw == 1 {
                assert_eq!(mo, 0, "the <eos> label stayed in the mask");
                dropped += 1;
            } else {
                assert_eq!(mw, mo, "a non-<eos> label changed");
            }
        }
    }
    assert!(
        dropped > 0,
        "no response ended with <eos> in the first batch"
    );
    // The lengths the lab reports count the <eos> either way (lesson 8's table compares them).
    let batch = |include_eos: bool| {
        let config = SequenceConfig {
            include_eos,
            ..small(Reduction::TokenMean)
        };
        SequenceTrainer::new(config, 5)
            .unwrap()
            .collect_rollout()
            .unwrap()
    };
    let (with, without) = (batch(true), batch(false));
    for b in 0..with.len() {
        assert_eq!(with.response_len(b), without.response_len(b), "row {b}");
    }
}
