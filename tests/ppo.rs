//! The PPO trainer end to end: configuration errors, determinism, learning, and the figures.

use pgbook::envs::cartpole::THETA_THRESHOLD;
use pgbook::error::ErrorKind;
use pgbook::nn::{kernel_path, set_widest_kernels, Kernels, Precision};
use pgbook::plots::{learning_curve, ppo_diagnostics, to_svg, Theme};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::curves::aggregate;
use pgbook::train::lines::run_lines;
use pgbook::train::ppo::{PpoConfig, PpoTrainer, UpdateReport};
use pgbook::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer};
use pgbook::train::settings::Settings;
use pgbook::train::{Progress, Trainer};

fn short(updates: usize) -> PpoConfig {
    PpoConfig {
        num_updates: updates,
        evaluation_every: 2,
        ..PpoConfig::smoke()
    }
}

fn invalid_arg(config: PpoConfig) -> String {
    match PpoTrainer::new(config, 1) {
        Err(e) => match e.kind() {
            ErrorKind::Range { arg, .. } => arg.clone(),
            _ => panic!("unexpected error kind: {e}"),
        },
        Ok(_) => panic!("a bad config was accepted"),
    }
}

#[test]
fn bad_configs_are_rejected_with_the_field_named() {
    let base = PpoConfig::smoke();
    let with = |change: fn(&mut PpoConfig)| {
        let mut c = base.clone();
        change(&mut c);
        c
    };
    let cases: Vec<(PpoConfig, &str)> = vec![
        (with(|c| c.num_envs = 0), "num_envs"),
        (with(|c| c.num_envs = usize::MAX), "num_envs"),
        (with(|c| c.num_steps = 0), "num_steps"),
        (
            with(|c| (c.num_envs, c.num_steps) = (4096, 1 << 20)),
            "num_steps",
        ),
        (with(|c| c.minibatch_size = 257), "minibatch_size"),
        (with(|c| c.minibatch_size = 0), "minibatch_size"),
        (with(|c| c.learning_rate = 0.0), "learning_rate"),
        (with(|c| c.learning_rate = -1e-3), "learning_rate"),
        (with(|c| c.learning_rate = f64::NAN), "learning_rate"),
        (with(|c| c.gamma = f64::NAN), "gamma"),
        (with(|c| c.gamma = 1.5), "gamma"),
        (with(|c| c.gae_lambda = f64::INFINITY), "gae_lambda"),
        (with(|c| c.clip_coef = Some(0.0)), "clip_coef"),
        (with(|c| c.clip_coef = Some(1.0)), "clip_coef"),
        (
            with(|c| (c.clip_coef, c.clip_vloss) = (None, true)),
            "clip_vloss",
        ),
        (with(|c| c.ent_coef = f64::NAN), "ent_coef"),
        (with(|c| c.vf_coef = -0.5), "vf_coef"),
        (with(|c| c.max_grad_norm = f64::NAN), "max_grad_norm"),
        (with(|c| c.max_grad_norm = 0.0), "max_grad_norm"),
        (with(|c| c.hidden_sizes = vec![64, 0]), "hidden_sizes"),
        (with(|c| c.hidden_sizes = vec![]), "hidden_sizes"),
        (with(|c| c.update_epochs = 0), "update_epochs"),
        (with(|c| c.num_updates = 0), "num_updates"),
        (with(|c| c.evaluation_episodes = 0), "evaluation_episodes"),
    ];
    for (config, field) in cases {
        assert_eq!(invalid_arg(config), field);
    }
    assert!(PpoConfig::profile("huge").is_err());
    // The error reads as a sentence naming the rule.
    let msg = PpoTrainer::new(with(|c| c.minibatch_size = 1000), 1)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        msg.contains("minibatch_size") && msg.contains("256"),
        "{msg}"
    );
}

#[test]
fn configs_and_reports_round_trip_through_json() {
    let config = PpoConfig::full();
    let text = serde_json::to_string(&config).unwrap();
    assert_eq!(serde_json::from_str::<PpoConfig>(&text).unwrap(), config);
    let mut tr = PpoTrainer::new(short(2), 4).unwrap();
    tr.step().unwrap();
    let report = tr.step().unwrap();
    assert!(report.evaluation.is_some());
    let back: UpdateReport =
        serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(back, report);
}

fn run(seed: u64, updates: usize) -> (Vec<UpdateReport>, Vec<[f64; 4]>) {
    run_in(Precision::F64, seed, updates)
}

fn run_in(precision: Precision, seed: u64, updates: usize) -> (Vec<UpdateReport>, Vec<[f64; 4]>) {
    let config = PpoConfig {
        precision,
        ..short(updates)
    };
    let mut tr = PpoTrainer::new(config, seed).unwrap();
    let reports = (0..updates).map(|_| tr.step().unwrap()).collect();
    (reports, tr.greedy_episode(99))
}

#[test]
fn the_same_seed_gives_a_bit_identical_run() {
    let (a, ga) = run(11, 6);
    let (b, gb) = run(11, 6);
    // Compared through their JSON text: every float to the last bit.
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(ga, gb);
    let (c, _) = run(12, 6);
    assert_ne!(a, c, "another seed, another run");
}

#[test]
fn every_kernel_path_gives_the_same_run() {
    // What makes a browser run equal the CLI's: the portable kernels (what wasm runs), AVX2
    // and AVX-512 give the same bits for a whole run. The cap is process-wide, but only this
    // test sets it, and the paths differ in speed only.
    // The same for f32 networks (16 lanes in AVX-512, 8 in AVX2, 4 in wasm).
    let mut by_precision = Vec::new();
    for precision in [Precision::F64, Precision::F32] {
        let mut runs = Vec::new();
        for k in [Kernels::Portable, Kernels::Avx2, Kernels::Avx512] {
            set_widest_kernels(k);
            assert!(kernel_path() <= k);
            let (reports, greedy) = run_in(precision, 37, 4);
            runs.push((serde_json::to_string(&reports).unwrap(), greedy));
        }
        set_widest_kernels(Kernels::Avx512);
        assert!(runs.windows(2).all(|w| w[0] == w[1]), "{precision:?}");
        by_precision.push(runs.swap_remove(0));
    }
    // The setting does reach the networks.
    assert_ne!(by_precision[0], by_precision[1]);
    // The transformer policy of the sequence trainer, in both precisions (its products run
    // through the same kernels, its attention and norms in plain loops).
    for precision in ["f64", "f32"] {
        let config = SequenceConfig::for_profile(SequenceProfile::Transformer)
            .with_text(&[
                ("precision".into(), precision.into()),
                ("iterations".into(), "2".into()),
                ("eval_samples_per_prompt".into(), "8".into()),
            ])
            .unwrap();
        let mut runs = Vec::new();
        for k in [Kernels::Portable, Kernels::Avx2, Kernels::Avx512] {
            set_widest_kernels(k);
            runs.push(run_lines::<SequenceTrainer>(&config, &[3]).unwrap());
        }
        set_widest_kernels(Kernels::Avx512);
        assert!(
            runs.windows(2).all(|w| w[0] == w[1]),
            "transformer {precision}"
        );
    }
    assert!(Kernels::parse("sse").is_err());
    assert_eq!(Kernels::parse("avx2").unwrap(), Kernels::Avx2);
}

#[test]
fn the_trainer_counts_steps_and_refuses_to_run_past_the_end() {
    let mut tr = PpoTrainer::new(short(3), 2).unwrap();
    assert_eq!(
        tr.evaluations().len(),
        1,
        "the untrained policy is evaluated at 0 steps"
    );
    assert_eq!(tr.evaluations()[0].env_steps, 0);
    assert_eq!(tr.evaluations()[0].returns.len(), 10);
    for u in 1..=3 {
        let r = tr.step().unwrap();
        assert_eq!(r.update, u);
        assert_eq!(r.env_steps, 256 * u as u64);
        assert!(r.approx_kl >= 0.0);
        assert!((0.0..=1.0).contains(&r.active_clip_fraction));
        assert!(r.active_clip_fraction <= r.ratio_outside_fraction + 1e-12);
    }
    // Evaluations at update 2 (every 2) and at the last update.
    let steps: Vec<u64> = tr.evaluations().iter().map(|e| e.env_steps).collect();
    assert_eq!(steps, vec![0, 512, 768]);
    assert!(tr.is_finished());
    assert!(tr.step().is_err());
    // The progress bar's total, known before the run (the page checks it before any worker
    // starts), is where the run ends.
    let planned = PpoTrainer::planned(&short(3));
    assert_eq!(
        tr.progress(),
        Progress {
            done: 768,
            ..planned
        }
    );
    assert_eq!(planned.total, 768);
    let summary = tr.summary();
    assert_eq!(summary.env_steps, tr.config().total_env_steps());
    assert_eq!(summary.env_steps, 768);
    assert_eq!(summary.final_evaluation_mean, tr.evaluations()[2].mean);
    // The greedy episode for an animation: states from reset to the end.
    let states = tr.greedy_episode(5);
    assert!(states.len() >= 2 && states.len() <= 501);
    assert!(states[0].iter().all(|s| s.abs() <= 0.05));
    let last = states[states.len() - 1];
    assert!(states.len() == 501 || last[0].abs() > 2.4 || last[2].abs() > THETA_THRESHOLD);
}

#[test]
fn smoke_profile_learns() {
    // The smoke profile of seed 11: the greedy evaluation must rise clearly from the first
    // updates' level to well above it by the end. (The untrained policy's greedy evaluation
    // at 0 steps is luck of the initial logits' signs and is left out.)
    let mut tr = PpoTrainer::new(PpoConfig::smoke(), 11).unwrap();
    while !tr.is_finished() {
        tr.step().unwrap();
    }
    let evs = tr.evaluations();
    let mean = |xs: &[pgbook::train::cartpole::Evaluation]| {
        xs.iter().map(|e| e.mean).sum::<f64>() / xs.len() as f64
    };
    let early = mean(&evs[1..5]);
    let late = mean(&evs[evs.len() - 5..]);
    assert_eq!(evs[evs.len() - 1].env_steps, 30_720);
    assert!(early < 100.0, "early evaluations average {early}");
    assert!(late >= 300.0, "the last five evaluations average {late}");
}

#[test]
fn f64_networks_give_a_bit_identical_run_and_learn_the_smoke_profile() {
    let config = PpoConfig {
        precision: Precision::F64,
        ..PpoConfig::smoke()
    };
    let train = |seed: u64| {
        let mut tr = PpoTrainer::new(config.clone(), seed).unwrap();
        let mut reports = Vec::new();
        while !tr.is_finished() {
            reports.push(tr.step().unwrap());
        }
        (serde_json::to_string(&reports).unwrap(), tr.summary())
    };
    let (reports, summary) = train(11);
    assert_eq!(train(11).0, reports, "same seed, same bits");
    // Deterministic, so these are the run's own numbers with a margin: both course seeds
    // end solved, as in f32.
    assert!(summary.final_evaluation_mean >= 475.0, "{summary:?}");
    assert!(summary.solved_from_env_steps.is_some(), "{summary:?}");
    let (_, other) = train(37);
    assert!(other.final_evaluation_mean >= 475.0, "{other:?}");
}

#[test]
fn precision_is_a_setting_with_two_choices() {
    let set = |v: &str| PpoConfig::smoke().with_text(&[("precision".into(), v.into())]);
    assert_eq!(set("f32").unwrap().precision, Precision::F32);
    assert_eq!(set("f64").unwrap().precision, Precision::F64);
    assert!(set("f16").unwrap_err().to_string().contains("precision"));
    assert_eq!(PpoConfig::full().precision, Precision::F32);
    assert_eq!(PpoConfig::smoke().to_json()["precision"], "f32");
    assert_eq!(PpoConfig::cleanrl().precision, Precision::F64);
}

#[test]
fn figures_render_to_svg_with_russian_labels() {
    let runs: Vec<_> = [3u64, 4, 5]
        .iter()
        .map(|&s| {
            let mut tr = PpoTrainer::new(short(4), s).unwrap();
            let history: Vec<UpdateReport> = (0..4).map(|_| tr.step().unwrap()).collect();
            (history, tr.evaluations().to_vec())
        })
        .collect();
    let evaluations: Vec<_> = runs.iter().map(|r| r.1.clone()).collect();
    let curve = aggregate(&evaluations).unwrap();
    assert_eq!(curve.env_steps, vec![0, 512, 1024]);
    assert_eq!(curve.runs.len(), 3);

    let svg = to_svg(900, 500, |area| {
        learning_curve::draw(
            area,
            &learning_curve::Data {
                curve: &curve,
                profile: "smoke",
                x_end: 0.0,
            },
            &Theme::default(),
        )
    })
    .unwrap();
    for label in [
        "переходы среды",
        "медиана",
        "межквартильный",
        "потолок 500",
        "профиль smoke",
    ] {
        assert!(svg.contains(label), "learning curve lacks '{label}'");
    }
    // Band polygon, one line per seed plus the median, and a dashed ceiling.
    assert!(svg.contains("<polygon"));
    assert!(svg.matches("<polyline").count() >= 4);

    let svg = to_svg(900, 480, |area| {
        ppo_diagnostics::draw(
            area,
            &ppo_diagnostics::Data {
                history: &runs[0].0,
                seed: 3,
                x_end: 0,
            },
            &Theme::default(),
        )
    })
    .unwrap();
    for label in [
        "обновление PPO",
        "приближённая KL",
        "активного клиппирования",
        "вне интервала",
    ] {
        assert!(svg.contains(label), "diagnostics lack '{label}'");
    }
    // Before the first update the page draws empty axes.
    let empty = to_svg(300, 200, |area| {
        ppo_diagnostics::draw(
            area,
            &ppo_diagnostics::Data {
                history: &[],
                seed: 3,
                x_end: 0,
            },
            &Theme::default(),
        )
    });
    assert!(empty.is_ok());
    let no_points = aggregate::<pgbook::train::cartpole::Evaluation>(&[vec![]]).unwrap();
    let empty = to_svg(300, 200, |area| {
        learning_curve::draw(
            area,
            &learning_curve::Data {
                curve: &no_points,
                profile: "full",
                x_end: 0.0,
            },
            &Theme::default(),
        )
    });
    assert!(empty.is_ok());
}

#[test]
fn target_kl_stops_the_epochs_of_an_update() {
    let run = |config: PpoConfig| {
        let mut t = PpoTrainer::new(config, 11).unwrap();
        let reports: Vec<UpdateReport> = (0..3).map(|_| t.step().unwrap()).collect();
        (reports, t.actor().params().to_vec())
    };
    let base = PpoConfig {
        num_updates: 3,
        ..PpoConfig::full()
    };
    // A target no KL stays under stops every update after its first epoch: the same run as
    // one epoch per update (the shuffles of later epochs are never drawn).
    let tiny = run(PpoConfig {
        target_kl: Some(1e-12),
        ..base.clone()
    });
    let one_epoch = run(PpoConfig {
        update_epochs: 1,
        ..base.clone()
    });
    assert_eq!(tiny, one_epoch);
    // A target no KL reaches changes nothing; off is the default.
    assert_eq!(base.target_kl, None);
    let loose = run(PpoConfig {
        target_kl: Some(10.0),
        ..base.clone()
    });
    assert_eq!(loose, run(base.clone()));
    assert_ne!(loose, tiny);
    // Bad targets are refused by the schema, by name.
    for bad in [0.0, -1.0, f64::NAN, 11.0] {
        let c = PpoConfig {
            target_kl: Some(bad),
            ..base.clone()
        };
        assert_eq!(invalid_arg_or_non_finite(c), "target_kl", "{bad}");
    }
}

fn invalid_arg_or_non_finite(config: PpoConfig) -> String {
    match PpoTrainer::new(config, 1) {
        Err(e) => e.arg().unwrap_or_default().to_string(),
        Ok(_) => panic!("a bad config was accepted"),
    }
}

#[test]
fn the_lessons_mistakes_are_settings_that_change_the_run() {
    use pgbook::rl::Truncation;
    use pgbook::train::settings::Settings;
    let run = |config: PpoConfig| {
        let mut t = PpoTrainer::new(config, 37).unwrap();
        (0..4).map(|_| t.step().unwrap()).collect::<Vec<_>>()
    };
    let base = short(4);
    let correct = run(base.clone());
    // No clipping: every ratio takes part and ε is reported as none (its diagnostics are
    // measured against the profile's ε: tests/ppo_reference_clip.rs).
    let unclipped = run(PpoConfig {
        clip_coef: None,
        ..base.clone()
    });
    assert!(unclipped.iter().all(|r| r.clip_epsilon.is_none()));
    assert!(correct.iter().all(|r| r.clip_epsilon.is_some()));
    assert_ne!(unclipped[3].policy_loss, correct[3].policy_loss);
    // The smoke profile's 8 × 32 rollouts cut every environment's record 31; forgetting that
    // cut changes the advantages from the first update on. (Truncation needs 500 steps: the
    // smoke run has none yet, so one `done` flag gives the same run here.)
    let leaky = run(PpoConfig {
        boundary_trace_cut: false,
        ..base.clone()
    });
    assert_ne!(leaky[0].value_loss, correct[0].value_loss);
    let terminal = run(PpoConfig {
        truncation: Truncation::Terminal,
        ..base.clone()
    });
    assert_eq!(terminal, correct);
    // All three are named settings with text values, as in `--set` and in the page's URL.
    let set = base
        .with_text(&[
            ("clip_coef".into(), "off".into()),
            ("truncation".into(), "terminal".into()),
            ("boundary_trace_cut".into(), "false".into()),
        ])
        .unwrap();
    assert_eq!(
        (set.clip_coef, set.truncation, set.boundary_trace_cut),
        (None, Truncation::Terminal, false)
    );
    let bad = base.with_text(&[("truncation".into(), "done".into())]);
    assert!(bad.unwrap_err().to_string().contains("bootstrap"));
}
