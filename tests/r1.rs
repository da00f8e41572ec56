//! Issue 37's pipeline on the sequence trainer: the addition task, SFT before RL (the SFT
//! policy as RL's start and KL reference), pass@k and the group statistics, dynamic sampling,
//! the `r1_*` profiles. Its runs are recorded (`tests/fixtures/r1_runs.jsonl`) and replayed
//! bit for bit here and in the browsers (`tests/sequence_wasm.rs`).

#![cfg(not(target_arch = "wasm32"))]

use pgbook::error::ErrorKind;
use pgbook::train::lines::run_lines;
use pgbook::train::sequence::addition_task as add;
use pgbook::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer, TaskKind};
use pgbook::train::settings::{Profile, Settings};

const BIN: &str = env!("CARGO_BIN_EXE_pgbook");

fn smoke() -> SequenceConfig {
    SequenceConfig::for_profile(SequenceProfile::R1Smoke)
}

fn non_decreasing(xs: &[f64]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1]) && xs.iter().all(|x| (0.0..=1.0).contains(x))
}

#[test]
fn every_r1_profile_runs_sft_then_its_recipe_on_the_addition_task() {
    use pgbook::rl::{AdvantageEstimator, Reduction};
    use pgbook::train::sequence::KlPlacement;
    let r1: Vec<_> = SequenceProfile::ALL
        .iter()
        .filter(|p| p.name().starts_with("r1_"))
        .collect();
    assert_eq!(r1.len(), 5);
    for &&profile in &r1 {
        let c = SequenceConfig::for_profile(profile);
        c.validate().unwrap();
        assert_eq!(c.task, TaskKind::Addition, "{}", profile.name());
        assert!(
            c.sft_steps > 0 && c.pass_k_samples > 0,
            "{}",
            profile.name()
        );
    }
    let dr = SequenceConfig::for_profile(SequenceProfile::R1DrGrpo);
    assert_eq!(dr.advantage_estimator, AdvantageEstimator::Mean);
    assert_eq!(dr.reduction, Reduction::ConstantLength);
    assert_eq!(dr.kl_placement, KlPlacement::Off);
    let grpo = SequenceConfig::for_profile(SequenceProfile::R1Grpo);
    let higher = SequenceConfig::for_profile(SequenceProfile::R1ClipHigher);
    assert_eq!(
        SequenceConfig {
            clip_epsilon_high: None,
            ..higher
        },
        grpo
    );
    let dynamic = SequenceConfig::for_profile(SequenceProfile::R1Dynamic);
    assert_eq!(
        SequenceConfig {
            dynamic_sampling: false,
            ..dynamic
        },
        grpo
    );
}

#[test]
fn the_pipeline_reports_sft_pass_at_k_and_the_groups() {
    let config = smoke();
    let mut trainer = SequenceTrainer::new(config.clone(), 5).unwrap();
    let untrained = trainer.params();
    assert_eq!(trainer.reference_params(), untrained);
    let first = trainer.step().unwrap();
    let sft = first
        .sft
        .as_ref()
        .expect("the first iteration carries the SFT stage");
    assert_eq!(sft.losses.len(), config.sft_steps);
    assert!(sft.losses.iter().all(|l| l.is_finite() && *l > 0.0));
    assert!(sft.tokens >= config.sft_steps * config.sft_batch * 3);
    // RL starts from the SFT policy, which is also its reference.
    assert_ne!(trainer.reference_params(), untrained);
    for p in [&sft.pass_at_k_untrained, &sft.pass_at_k_sft] {
        let p = p.as_ref().expect("pass@k before and after SFT");
        assert_eq!(p.n, 4);
        assert_eq!(p.prompts_by_level, vec![2; 4]);
        assert_eq!(p.curve.len(), 4);
        assert!(non_decreasing(&p.curve), "{:?}", p.curve);
        assert_eq!(p.curve_by_level.len(), 4);
        assert!(p.curve_by_level.iter().all(|c| non_decreasing(c)));
    }
    let groups = first.group_stats.expect("group statistics with pass@k on");
    assert!((0.0..=1.0).contains(&groups.zero_variance_share));
    assert_eq!(
        (first.groups_drawn, first.groups_dropped),
        (Some(config.prompts_per_iteration), Some(0))
    );
    assert!(first.pass_at_k.is_none(), "pass@k every 2 iterations");
    let second = trainer.step().unwrap();
    assert!(second.sft.is_none() && second.pass_at_k.is_some());
    let third = trainer.step().unwrap();
    assert!(
        third.pass_at_k.is_some(),
        "the last iteration always has pass@k"
    );
    let stages = trainer.summary().pass_at_k.expect("the summary's pass@k");
    assert!(stages.untrained.is_some() && stages.sft.is_some());
    assert_eq!(stages.rl, third.pass_at_k);
}

#[test]
fn sft_lowers_the_cross_entropy_of_the_demonstrations() {
    let config = SequenceConfig {
        sft_steps: 150,
        sft_learning_rate: 1e-2,
        iterations: 1,
        ..smoke()
    };
    let report = SequenceTrainer::new(config, 3).unwrap().step().unwrap();
    let losses = report.sft.unwrap().losses;
    let (first, last) = (losses[0], losses[losses.len() - 1]);
    // Uniform over 12 actions is ln 12 ≈ 2.48 nats per token.
    assert!((first - pgbook::math::ln(12.0)).abs() < 0.2, "{first}");
    assert!(last < 0.75 * first, "{first} → {last}");
}

#[test]
fn training_and_sft_never_draw_a_held_out_prompt_and_evaluation_draws_only_those() {
    let mut trainer = SequenceTrainer::new(smoke(), 9).unwrap();
    for _ in 0..20 {
        let batch = trainer.collect_rollout().unwrap();
        for (row, &len) in batch
            .input_ids
            .rows()
            .into_iter()
            .zip(&batch.prompt_lengths)
        {
            let prompt: Vec<i64> = row.iter().take(len).copied().collect();
            let (a, b) = add::operands(&prompt).expect("an addition prompt");
            assert!(!add::is_held_out(a, b), "{a} + {b} is held out");
        }
    }
    for level in 0..add::MAX_LEVEL {
        let prompts = TaskKind::Addition.evaluation_prompts(level, 16);
        assert_eq!(prompts.len(), if level == 0 { 15 } else { 16 });
        for p in prompts {
            let (a, b) = add::operands(&p.tokens).unwrap();
            assert!(add::is_held_out(a, b) && p.level == level);
        }
    }
}

#[test]
fn dynamic_sampling_drops_groups_that_teach_nothing_within_its_bound() {
    let config = SequenceConfig {
        dynamic_sampling: true,
        format_reward: 0.5,
        ..smoke()
    };
    let (want, bound) = (config.prompts(), config.prompts() * config.max_draw_factor);
    let mut trainer = SequenceTrainer::new(config.clone(), 4).unwrap();
    let mut saw_a_drop = false;
    for _ in 0..12 {
        let batch = trainer.collect_rollout().unwrap();
        let drawn = batch.drawn_rewards.len();
        assert!((want..=bound).contains(&drawn), "{drawn}");
        assert_eq!(batch.len(), want * config.group_size);
        let alike = |g: &[f64]| g.iter().all(|&r| r == g[0]);
        let dead_drawn = batch.drawn_rewards.iter().filter(|g| alike(g)).count();
        let dead_in_batch = batch
            .rewards
            .as_slice()
            .unwrap()
            .chunks(config.group_size)
            .filter(|g| alike(g))
            .count();
        // Every dead group drawn is dropped, or fills a batch the bound left short.
        assert_eq!(dead_drawn, batch.dropped + dead_in_batch);
        if drawn < bound {
            assert_eq!(dead_in_batch, 0, "a batch short only at the bound");
        }
        saw_a_drop |= batch.dropped > 0;
    }
    assert!(saw_a_drop, "the smoke policy's groups are often all alike");
    let report = trainer.step().unwrap();
    let drawn = report.groups_drawn.unwrap();
    assert_eq!(drawn - report.groups_dropped.unwrap(), want);
}

#[test]
fn bad_r1_settings_are_refused_with_the_setting_named() {
    let arg_of = |c: SequenceConfig| match SequenceTrainer::new(c, 1).map(|_| ()) {
        Err(e) => match e.kind() {
            ErrorKind::Range { arg, .. } => arg.clone(),
            other => panic!("{other:?}"),
        },
        Ok(()) => panic!("accepted"),
    };
    let short = SequenceConfig {
        max_response_len: 8,
        ..smoke()
    };
    assert_eq!(arg_of(short.clone()), "max_response_len");
    // Without working in the demonstrations, a direct answer fits.
    let direct = SequenceConfig {
        sft_worked_share: 0.0,
        context_len: 24,
        ..short
    };
    assert!(SequenceTrainer::new(direct, 1).is_ok());
    let lesson8 = SequenceConfig {
        dynamic_sampling: true,
        ..SequenceConfig::smoke()
    };
    assert_eq!(arg_of(lesson8), "dynamic_sampling");
    let out = std::process::Command::new(BIN)
        .args(["train", "sequence", "--profile", "r1_smoke"])
        .args(["--set", "max_response_len=8", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("max_response_len") && !err.contains("panicked"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// `r1_smoke` in both precisions, as JSON lines: the same seed twice gives the same lines, and
/// the lines recorded natively (`PGBOOK_RECORD=1 cargo test --test it r1::` writes them anew
/// after a change meant to change the runs); `tests/sequence_wasm.rs` replays them in wasm.
#[test]
fn the_same_seed_gives_the_same_lines_and_the_recorded_ones() {
    use pgbook::nn::Precision;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/r1_runs.jsonl");
    let mut text = String::new();
    for precision in [Precision::F32, Precision::F64] {
        let config = SequenceConfig {
            precision,
            dynamic_sampling: precision == Precision::F64,
            ..smoke()
        };
        let lines = run_lines::<SequenceTrainer>(&config, &[5]).unwrap();
        assert_eq!(lines, run_lines::<SequenceTrainer>(&config, &[5]).unwrap());
        assert!(lines[0].contains("\"sft\":{") && lines[3].contains("\"pass_at_k\":{"));
        let case = serde_json::json!({ "config": config, "seed": 5, "lines": lines });
        text.push_str(&case.to_string());
        text.push('\n');
    }
    if std::env::var_os("PGBOOK_RECORD").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let recorded = std::fs::read_to_string(path).expect("the recorded runs");
    assert_eq!(text, recorded, "the runs differ from the recorded ones");
    assert!(!recorded.contains("NaN"));
}

#[test]
fn dynamic_samplings_extra_draws_are_planned_as_a_range_up_to_its_bound() {
    let dynamic = SequenceConfig::for_profile(SequenceProfile::R1Dynamic);
    assert!(dynamic.dynamic_sampling && dynamic.max_draw_factor > 1);
    let plain = SequenceConfig {
        dynamic_sampling: false,
        ..dynamic.clone()
    };
    let with_factor = |f: usize| {
        SequenceConfig {
            max_draw_factor: f,
            ..dynamic.clone()
        }
        .cost()
    };
    // What a run plans is the same with or without dynamic sampling; only the most it may do
    // grows, by one more rollout per iteration for each step of the bound.
    let (off, on) = (plain.cost(), dynamic.cost());
    assert_eq!(off.work, on.work);
    assert_eq!(off.work_max, off.work);
    assert!(on.work_max > on.work);
    let one_more = with_factor(2).work_max - on.work;
    assert!(one_more > 0.0);
    let extra = on.work_max - on.work;
    let expected = (dynamic.max_draw_factor - 1) as f64 * one_more;
    assert!(
        (extra - expected).abs() <= 1e-9 * expected,
        "{extra} vs {expected}"
    );
    assert_eq!(with_factor(1).work_max, on.work);
    // The settings' work bound counts every draw the bound allows.
    assert!(dynamic.total_work() > plain.total_work());
}
