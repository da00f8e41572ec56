//! The REINFORCE trainer end to end: configuration errors, the weights against the course's
//! functions, determinism, JSON lines, and learning.

use pgbook::error::ErrorKind;
use pgbook::nn::{set_widest_kernels, Kernels};
use pgbook::rl;
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::lines::{parse_line, report_line, summary_line, Parsed};
use pgbook::train::links::{run_link, DEFAULT_BASE};
use pgbook::train::reinforce::{
    advantages, Baseline, ReinforceConfig, ReinforceTrainer, UpdateReport, Weight,
};
use pgbook::train::settings::Settings;
use pgbook::train::{Progress, ProgressUnit, Trainer};

fn short(budget: usize) -> ReinforceConfig {
    ReinforceConfig {
        env_step_budget: budget,
        hidden_sizes: vec![16, 16],
        ..ReinforceConfig::smoke()
    }
}

fn invalid_arg(config: ReinforceConfig) -> String {
    match ReinforceTrainer::new(config, 1) {
        Err(e) => e.arg().unwrap_or_default().to_string(),
        Ok(_) => panic!("a bad config was accepted"),
    }
}

#[test]
fn bad_configs_are_rejected_with_the_field_named() {
    let base = ReinforceConfig::smoke();
    let with = |change: fn(&mut ReinforceConfig)| {
        let mut c = base.clone();
        change(&mut c);
        c
    };
    let cases: Vec<(ReinforceConfig, &str)> = vec![
        (with(|c| c.episodes_per_update = 0), "episodes_per_update"),
        (with(|c| c.episodes_per_update = 257), "episodes_per_update"),
        (with(|c| c.env_step_budget = 0), "env_step_budget"),
        (with(|c| c.env_step_budget = 3_999), "env_step_budget"),
        (with(|c| c.env_step_budget = usize::MAX), "env_step_budget"),
        (with(|c| c.gamma = f64::NAN), "gamma"),
        (with(|c| c.gamma = 1.5), "gamma"),
        (with(|c| c.learning_rate = 0.0), "learning_rate"),
        (with(|c| c.learning_rate = f64::INFINITY), "learning_rate"),
        (
            with(|c| c.value_learning_rate = -1e-3),
            "value_learning_rate",
        ),
        (with(|c| c.value_steps = 0), "value_steps"),
        (with(|c| c.max_grad_norm = 0.0), "max_grad_norm"),
        (with(|c| c.hidden_sizes = vec![]), "hidden_sizes"),
        (with(|c| c.hidden_sizes = vec![64, 0]), "hidden_sizes"),
        (with(|c| c.evaluation_episodes = 0), "evaluation_episodes"),
    ];
    for (config, field) in cases {
        assert_eq!(invalid_arg(config), field);
    }
    // Each bound alone is fine, their product (the run's work) is not.
    let huge = with(|c| {
        (c.env_step_budget, c.value_steps, c.hidden_sizes) = (100_000_000, 1000, vec![1024; 4])
    });
    assert!(matches!(
        ReinforceTrainer::new(huge, 1).unwrap_err().kind(),
        ErrorKind::Range { .. }
    ));
    // Choices are checked by name, as `--set` and the page's URL give them.
    for (k, v) in [("weight", "G0"), ("baseline", "mean"), ("norm_adv", "yes")] {
        let e = base.with_text(&[(k.into(), v.into())]).unwrap_err();
        assert_eq!(e.arg(), Some(k));
    }
    let e = base
        .with_text(&[("env_step_budget".into(), "1000".into())])
        .unwrap_err();
    assert!(e.to_string().contains("4000"), "{e}");
    // The page's message names the setting by its Russian label.
    let russian = e.russian(&pgbook::train::settings::label_ru::<ReinforceConfig>);
    assert!(russian.contains("бюджет шагов среды"), "{russian}");
    assert!(ReinforceConfig::profile("huge").is_err());
}

#[test]
fn the_full_profile_is_the_course_default_and_every_value_reads_back() {
    let full = ReinforceConfig::full();
    assert_eq!(
        (full.weight, full.baseline, full.norm_adv),
        (Weight::RewardToGo, Baseline::Value, false)
    );
    assert!(full.env_step_budget <= 300_000);
    let text = serde_json::to_string(&full).unwrap();
    assert_eq!(
        serde_json::from_str::<ReinforceConfig>(&text).unwrap(),
        full
    );
    let set = full
        .with_text(&[
            ("weight".into(), "whole_return".into()),
            ("baseline".into(), "batch_mean".into()),
            ("norm_adv".into(), "true".into()),
        ])
        .unwrap();
    assert_eq!(
        (set.weight, set.baseline, set.norm_adv),
        (Weight::WholeReturn, Baseline::BatchMean, true)
    );
    assert_eq!(set.overrides_of(&full).len(), 3);
    let schema = pgbook::train::settings::schema_json::<ReinforceConfig>();
    let weight = schema["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "weight")
        .unwrap();
    assert_eq!(
        weight["choices"],
        serde_json::json!(["whole_return", "reward_to_go", "discounted"])
    );
    assert_eq!(
        schema["profiles"][1]["seeds"],
        serde_json::json!([11, 37, 71, 101, 131])
    );
}

#[test]
fn the_weights_are_the_course_functions_of_each_episode_and_the_baselines_rl_s() {
    let mut tr = ReinforceTrainer::new(short(8_000), 7).unwrap();
    let report = tr.step().unwrap();
    let batch = tr.batch().clone();
    let gamma = tr.config().gamma;
    let mut rtg = Vec::new();
    let mut disc = Vec::new();
    let mut whole = Vec::new();
    for e in 0..batch.episodes() {
        let r = &batch.rewards[batch.episode(e)];
        let g = rl::reward_to_go(r, gamma).unwrap();
        whole.extend(std::iter::repeat_n(g[0], g.len()));
        rtg.extend(g);
        disc.extend(rl::discounted_score_weights(r, gamma).unwrap());
    }
    assert_eq!(batch.weights(Weight::RewardToGo, gamma).unwrap(), rtg);
    assert_eq!(batch.weights(Weight::Discounted, gamma).unwrap(), disc);
    assert_eq!(batch.weights(Weight::WholeReturn, gamma).unwrap(), whole);
    let mean = rtg.iter().sum::<f64>() / rtg.len() as f64;
    assert!((report.weight_mean - mean).abs() < 1e-9);
    // The batch mean is rl's group mean over the batch's steps; normalisation rl's z-score.
    let centred = rl::group_mean_advantages(ndarray::aview1(&whole)).unwrap();
    assert_eq!(
        advantages(&whole, Baseline::BatchMean, None, false).unwrap(),
        centred.to_vec()
    );
    let z = rl::group_zscore_advantages(ndarray::aview1(&whole), 1e-8).unwrap();
    assert_eq!(
        advantages(&whole, Baseline::None, None, true).unwrap(),
        z.to_vec()
    );
    // An episode's undiscounted return is its length on CartPole.
    let lengths: Vec<f64> = (0..batch.episodes())
        .map(|e| batch.episode(e).len() as f64)
        .collect();
    assert_eq!(batch.episode_returns(), lengths);
}

fn run(config: ReinforceConfig, seed: u64) -> (String, Vec<[f64; 4]>) {
    let mut tr = ReinforceTrainer::new(config, seed).unwrap();
    let mut reports = Vec::new();
    while !tr.is_finished() {
        reports.push(tr.step().unwrap());
    }
    (
        serde_json::to_string(&reports).unwrap(),
        tr.greedy_episode(99),
    )
}

#[test]
fn the_same_seed_gives_a_byte_identical_run_on_every_kernel_path() {
    // Compared through their JSON text: every float to the last bit. The portable kernels are
    // what wasm runs, so this is also the browser's run.
    let config = short(12_000);
    let mut runs = Vec::new();
    for k in [Kernels::Portable, Kernels::Avx2, Kernels::Avx512] {
        set_widest_kernels(k);
        runs.push(run(config.clone(), 11));
    }
    set_widest_kernels(Kernels::Avx512);
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
    assert_ne!(run(config, 12).0, runs[0].0, "another seed, another run");
}

#[test]
fn every_variant_of_a_seed_starts_from_the_same_batch() {
    let first = |weight, baseline, norm_adv| {
        let config = ReinforceConfig {
            weight,
            baseline,
            norm_adv,
            ..short(8_000)
        };
        let mut tr = ReinforceTrainer::new(config, 21).unwrap();
        let r = tr.step().unwrap();
        (tr.batch().clone(), r, tr.step().unwrap())
    };
    let (base, r0, second) = first(Weight::RewardToGo, Baseline::Value, false);
    assert!(r0.value_loss.is_some() && r0.explained_variance.is_some());
    for (w, b, n) in [
        (Weight::WholeReturn, Baseline::None, false),
        (Weight::RewardToGo, Baseline::None, false),
        (Weight::Discounted, Baseline::BatchMean, false),
        (Weight::WholeReturn, Baseline::None, true),
    ] {
        let (batch, r, then) = first(w, b, n);
        assert_eq!(batch.actions, base.actions);
        assert_eq!(batch.obs, base.obs);
        assert_eq!(r.value_loss, None);
        // The step differs, so the second batch does too.
        assert_ne!(then.policy_loss, second.policy_loss);
    }
}

#[test]
fn subtracting_the_batch_mean_moves_the_level_not_the_spread() {
    let spread = |baseline| {
        let config = ReinforceConfig {
            baseline,
            ..short(8_000)
        };
        let r = ReinforceTrainer::new(config, 5).unwrap().step().unwrap();
        (r.weight_std, r.advantage_std, r.weight_mean)
    };
    let (w, none, _) = spread(Baseline::None);
    assert_eq!(none, w);
    let (w2, mean, _) = spread(Baseline::BatchMean);
    // Subtracting the mean leaves the spread, not the level: A has the same std, mean 0.
    assert_eq!(w2, w);
    assert!((mean - w).abs() < 1e-9);
}

#[test]
fn json_lines_have_ppos_shape_and_read_back() {
    let mut tr = ReinforceTrainer::new(short(8_000), 3).unwrap();
    let r: UpdateReport = tr.step().unwrap();
    let line = report_line::<ReinforceTrainer>(3, &r).unwrap();
    assert!(
        line.starts_with(r#"{"kind":"update","seed":3,"update":1,"env_steps":"#),
        "{line}"
    );
    assert!(line.contains(r#""evaluation":"#));
    assert!(matches!(
        parse_line::<ReinforceTrainer>(&line).unwrap(),
        Parsed::Report { seed: 3, report } if report == r
    ));
    let line = summary_line::<ReinforceTrainer>(&tr.summary(), &Default::default()).unwrap();
    for key in [
        r#""kind":"summary""#,
        r#""solved_from_env_steps":"#,
        r#""final_evaluation_mean":"#,
    ] {
        assert!(line.contains(key), "{line}");
    }
    assert!(
        matches!(parse_line::<ReinforceTrainer>(&line), Ok(Parsed::Summary(s)) if s == tr.summary())
    );
}

#[test]
fn the_trainer_contract_progress_and_the_books_link() {
    let config = short(9_000);
    let planned = ReinforceTrainer::planned(&config);
    assert_eq!(
        (planned.total, planned.unit, planned.done),
        (9_000, ProgressUnit::EnvSteps, 0)
    );
    let mut tr = ReinforceTrainer::new(config.clone(), 2).unwrap();
    assert_eq!(tr.evaluations().len(), 1);
    let mut updates = 0u64;
    while !tr.is_finished() {
        tr.step().unwrap();
        updates += 1;
    }
    assert!(updates <= planned.steps);
    assert_eq!(
        tr.progress(),
        Progress {
            done: tr.env_steps(),
            ..planned
        }
    );
    assert_eq!(tr.summary().env_steps, tr.env_steps());
    assert_eq!(ReinforceTrainer::NAME, "reinforce");
    let set = [("weight".to_string(), "whole_return".to_string())];
    let link = run_link::<ReinforceTrainer>(DEFAULT_BASE, "full", &set, &[11, 37]).unwrap();
    assert_eq!(
        link,
        "http://127.0.0.1:8000/baselines.html?run=reinforce&profile=full&weight=whole_return&seeds=11,37#trainer-reinforce"
    );
}

#[test]
fn smoke_profile_learns_and_the_whole_return_lags() {
    // The smoke profile of seed 101 (30,000 environment steps): reward-to-go with the learned
    // baseline reaches 500 (stable from 23,926 steps); the whole return, same seed and budget,
    // stays near 100.
    let evaluations = |config: ReinforceConfig| {
        let mut tr = ReinforceTrainer::new(config, 101).unwrap();
        while !tr.is_finished() {
            tr.step().unwrap();
        }
        tr.evaluations().to_vec()
    };
    let mean = |xs: &[pgbook::train::cartpole::Evaluation]| {
        xs.iter().map(|e| e.mean).sum::<f64>() / xs.len() as f64
    };
    let evs = evaluations(ReinforceConfig::smoke());
    let early = mean(&evs[1..5]);
    let late = mean(&evs[evs.len() - 3..]);
    assert!(early < 100.0, "early evaluations average {early}");
    assert!(late >= 400.0, "the last three evaluations average {late}");
    let whole = evaluations(ReinforceConfig {
        weight: Weight::WholeReturn,
        baseline: Baseline::None,
        ..ReinforceConfig::smoke()
    });
    let whole_late = mean(&whole[whole.len() - 3..]);
    assert!(
        whole_late < late - 150.0,
        "whole return {whole_late} vs {late}"
    );
}

#[test]
fn lesson_one_first_task_holds_on_the_smoke_seeds() {
    // Lesson 1 tells the reader what the `smoke` profile shows: the curve starts at the first
    // evaluations the core reports and ends at least at `final_at_least` on every seed.
    let facts = pgbook::lessons::trainers::trainers()
        .unwrap()
        .reinforce_smoke;
    assert_eq!(facts.seeds.len(), facts.first_evaluations.len());
    for (&seed, &first) in facts.seeds.iter().zip(&facts.first_evaluations) {
        let mut tr = ReinforceTrainer::new(facts.config.clone(), seed).unwrap();
        while !tr.is_finished() {
            tr.step().unwrap();
        }
        let evs = tr.evaluations();
        assert_eq!(evs[0].mean, first, "seed {seed}: the first evaluation");
        let last = evs.last().unwrap().mean;
        assert!(
            last >= facts.final_at_least && first < last,
            "seed {seed}: {first} → {last}"
        );
    }
}
