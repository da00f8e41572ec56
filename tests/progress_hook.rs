//! Progress inside a step: every trainer tells the progress hook where it is (experience
//! collected, epochs and minibatches, the critic's fit, the evaluation) as it goes, in order,
//! and a hook changes nothing the run computes.
use pgbook::train::settings::{Profile, Settings};
use pgbook::train::{a2c, ppo, reinforce, sequence, with_progress_hook, Stage, Trainer};
use std::cell::RefCell;
use std::rc::Rc;

/// Two steps of `T`'s smoke profile with a hook recording every stage, and the same two
/// steps without one: the reports must be equal, the stages are returned per step.
fn stages_of<T: Trainer>(config: T::Config) -> Vec<Vec<Stage>> {
    let (mut hooked, mut plain) = (
        T::new(config.clone(), 7).unwrap(),
        T::new(config, 7).unwrap(),
    );
    let mut steps = Vec::new();
    for _ in 0..2 {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&seen);
        let report =
            with_progress_hook(move |s| sink.borrow_mut().push(s), || hooked.step()).unwrap();
        assert_eq!(
            report,
            plain.step().unwrap(),
            "{}: a hook changed the run",
            T::NAME
        );
        steps.push(seen.take());
    }
    // Without a hook installed nothing is called (and nothing fails).
    pgbook::train::report_stage(Stage::Evaluation);
    steps
}

/// The fractions a step's stages stand for never go back, and stay within the step.
fn assert_moves_forward<T: Trainer>(steps: &[Vec<Stage>], share: f64) {
    for stages in steps {
        assert!(stages.len() >= 2, "{}: {stages:?}", T::NAME);
        let fractions: Vec<f64> = stages.iter().map(|s| s.fraction(share)).collect();
        assert!(
            fractions.windows(2).all(|w| w[0] <= w[1]),
            "{}: {fractions:?}",
            T::NAME
        );
        assert!(
            fractions.iter().all(|f| (0.0..=1.0).contains(f)),
            "{}: {fractions:?}",
            T::NAME
        );
        assert!(fractions[0] < 1.0, "{}: {fractions:?}", T::NAME);
        let inside = |f: &f64| *f > 0.0 && *f < 1.0;
        assert!(fractions.iter().any(inside), "{}: {fractions:?}", T::NAME);
    }
}

fn smoke<C: Settings>() -> C {
    C::for_profile(<C as Settings>::Profile::parse("smoke").unwrap())
}

#[test]
fn ppo_reports_its_rollout_then_every_minibatch_of_every_epoch() {
    let config = ppo::PpoConfig {
        num_updates: 2,
        evaluation_every: 1,
        ..smoke()
    };
    let (batch, minibatch, epochs) = (
        config.batch_size(),
        config.minibatch_size,
        config.update_epochs,
    );
    let share = ppo::PpoTrainer::cost(&config).rollout_share;
    let steps = stages_of::<ppo::PpoTrainer>(config.clone());
    let stages = &steps[0];
    let rollouts: Vec<_> = stages
        .iter()
        .filter(|s| matches!(s, Stage::Rollout { .. }))
        .collect();
    assert_eq!(
        rollouts.len(),
        config.num_steps,
        "one report per time step of the N environments"
    );
    assert_eq!(
        rollouts.last(),
        Some(&&Stage::Rollout {
            done: batch as u64,
            total: batch as u64
        })
    );
    let minibatches = stages
        .iter()
        .filter(|s| matches!(s, Stage::Minibatch { .. }))
        .count();
    assert_eq!(minibatches, epochs * batch.div_ceil(minibatch));
    assert!(stages.contains(&Stage::Minibatch {
        epoch: epochs as u64,
        epochs: epochs as u64,
        minibatch: (batch / minibatch) as u64,
        minibatches: (batch / minibatch) as u64,
    }));
    assert_eq!(stages.last(), Some(&Stage::Evaluation));
    assert_moves_forward::<ppo::PpoTrainer>(&steps, share);
}

#[test]
fn a2c_reports_its_rollout_and_its_one_gradient_step() {
    let config = a2c::A2cConfig {
        num_updates: 2,
        ..smoke()
    };
    let share = a2c::A2cTrainer::cost(&config).rollout_share;
    let steps = stages_of::<a2c::A2cTrainer>(config.clone());
    let full_batch = Stage::Minibatch {
        epoch: 1,
        epochs: 1,
        minibatch: 1,
        minibatches: 1,
    };
    for stages in &steps {
        assert_eq!(
            stages.iter().filter(|s| **s == full_batch).count(),
            1,
            "{stages:?}"
        );
        assert_eq!(
            stages
                .iter()
                .filter(|s| matches!(s, Stage::Rollout { .. }))
                .count(),
            config.num_steps
        );
    }
    assert_moves_forward::<a2c::A2cTrainer>(&steps, share);
}

#[test]
fn reinforce_reports_episodes_collected_and_the_critics_fit() {
    let config: reinforce::ReinforceConfig = smoke();
    assert_eq!(config.baseline, reinforce::Baseline::Value);
    let share = reinforce::ReinforceTrainer::cost(&config).rollout_share;
    let steps = stages_of::<reinforce::ReinforceTrainer>(config.clone());
    for stages in &steps {
        let episodes = config.episodes_per_update as u64;
        assert!(stages.contains(&Stage::Rollout {
            done: episodes,
            total: episodes
        }));
        let critic = stages
            .iter()
            .filter(|s| matches!(s, Stage::Critic { .. }))
            .count();
        assert_eq!(critic, config.value_steps, "{stages:?}");
    }
    assert_moves_forward::<reinforce::ReinforceTrainer>(&steps, share);
}

#[test]
fn the_sequence_trainer_reports_answers_sampled_epochs_and_its_evaluation() {
    let config: sequence::SequenceConfig = smoke();
    let share = sequence::SequenceTrainer::cost(&config).rollout_share;
    let steps = stages_of::<sequence::SequenceTrainer>(config.clone());
    for stages in &steps {
        let answers = (config.prompts() * config.group_size) as u64;
        let rollouts = stages
            .iter()
            .filter(|s| matches!(s, Stage::Rollout { .. }))
            .count();
        assert_eq!(rollouts as u64, answers);
        let epochs = stages
            .iter()
            .filter(|s| matches!(s, Stage::Minibatch { .. }))
            .count();
        assert_eq!(epochs, config.ppo_epochs);
        assert_eq!(stages.last(), Some(&Stage::Evaluation));
    }
    assert_moves_forward::<sequence::SequenceTrainer>(&steps, share);
}

#[test]
fn a_stage_stands_for_the_share_of_its_step_done() {
    let r = 0.25;
    assert_eq!(
        Stage::Rollout {
            done: 50,
            total: 100
        }
        .fraction(r),
        0.125
    );
    let mb = |epoch, minibatch| Stage::Minibatch {
        epoch,
        epochs: 2,
        minibatch,
        minibatches: 4,
    };
    assert_eq!(mb(1, 1).fraction(r), 0.25);
    assert_eq!(mb(2, 1).fraction(r), 0.25 + 0.75 * 0.5);
    assert_eq!(Stage::Critic { step: 1, steps: 10 }.fraction(r), 0.25);
    assert_eq!(Stage::Evaluation.fraction(r), 1.0);
    // An empty rollout or a share out of range stays within the step.
    assert_eq!(Stage::Rollout { done: 0, total: 0 }.fraction(2.0), 0.0);
}
