//! The REINFORCE trainer's unit tests: the batch, the weights, the budget, divergence.
use super::*;
use crate::envs::cartpole::{CartPole, OBS_DIM, THETA_THRESHOLD, X_THRESHOLD};

fn tiny() -> ReinforceConfig {
    ReinforceConfig {
        episodes_per_update: 3,
        env_step_budget: 3 * 500 + 200,
        hidden_sizes: vec![8, 8],
        ..ReinforceConfig::full()
    }
}

#[test]
fn a_batch_is_whole_episodes_laid_out_one_after_the_other() {
    let mut tr = ReinforceTrainer::new(tiny(), 3).unwrap();
    // The batch's environments are the first resets drawn from the training stream.
    let mut rng = tr.rng.clone();
    let mut envs: Vec<CartPole> = (0..3).map(|_| CartPole::new(&mut rng)).collect();
    tr.step().unwrap();
    let b = &tr.batch;
    assert_eq!(b.episodes(), 3);
    assert_eq!(b.starts[0], 0);
    assert_eq!(*b.starts.last().unwrap(), b.len());
    assert_eq!(b.obs.len(), b.len() * OBS_DIM);
    assert_eq!(b.rewards.len(), b.len());
    for (e, env) in envs.iter_mut().enumerate() {
        // Replaying the episode's actions reproduces its observations, and it ends exactly at
        // its last step.
        let r = b.episode(e);
        assert!(!r.is_empty());
        for k in r.clone() {
            let o = crate::train::cartpole::observation(env);
            assert_eq!(&o[..], &b.obs[k * OBS_DIM..(k + 1) * OBS_DIM]);
            let t = env.step(b.actions[k]);
            assert_eq!(t.terminated || t.truncated, k + 1 == r.end, "step {k}");
        }
    }
}

#[test]
fn weights_are_the_course_functions_of_each_episode() {
    let b = Batch {
        obs: vec![0.0; 5 * OBS_DIM],
        actions: vec![0; 5],
        rewards: vec![1.0, 1.0, 1.0, 1.0, 1.0],
        starts: vec![0, 3, 5],
    };
    let g = 0.5;
    let whole = b.weights(Weight::WholeReturn, g).unwrap();
    assert_eq!(whole, vec![1.75, 1.75, 1.75, 1.5, 1.5]);
    let rtg = b.weights(Weight::RewardToGo, g).unwrap();
    assert_eq!(rtg, vec![1.75, 1.5, 1.0, 1.5, 1.0]);
    let disc = b.weights(Weight::Discounted, g).unwrap();
    assert_eq!(disc, vec![1.75, 0.75, 0.25, 1.5, 0.5]);
    // Baselines and normalisation.
    let none = advantages(&rtg, Baseline::None, None, false).unwrap();
    assert_eq!(none, rtg);
    let mean = rtg.iter().sum::<f64>() / 5.0;
    let centred = advantages(&rtg, Baseline::BatchMean, None, false).unwrap();
    assert!(centred
        .iter()
        .zip(&rtg)
        .all(|(c, w)| (c - (w - mean)).abs() < 1e-15));
    let v = [0.5, 0.25, 0.0, 1.0, 0.75];
    let learned = advantages(&rtg, Baseline::Value, Some(&v), false).unwrap();
    assert_eq!(learned, vec![1.25, 1.25, 1.0, 0.5, 0.25]);
    assert!(advantages(&rtg, Baseline::Value, None, false).is_err());
    let z = advantages(&whole, Baseline::None, None, true).unwrap();
    let (m, s) = mean_std(&z);
    assert!(m.abs() < 1e-12 && (s - 1.0).abs() < 1e-12, "{m} {s}");
    // Normalising subtracts the batch mean: with or without that baseline, the same numbers.
    let zc = advantages(&whole, Baseline::BatchMean, None, true).unwrap();
    assert!(z.iter().zip(&zc).all(|(a, b)| (a - b).abs() < 1e-12));
    // Weights that do not vary normalise to zero, not to NaN.
    let flat = advantages(&[2.0, 2.0], Baseline::None, None, true).unwrap();
    assert_eq!(flat, vec![0.0, 0.0]);
}

#[test]
fn no_episode_is_shorter_than_min_episode_steps() {
    // The fastest falls start at a corner of the reset box and push one way (or alternate):
    // every action sequence of MIN_EPISODE_STEPS − 1 steps from every corner survives.
    let m = MIN_EPISODE_STEPS - 1;
    let mut shortest = usize::MAX;
    for corner in 0..16u32 {
        let s: Vec<f64> = (0..4)
            .map(|i| if corner >> i & 1 == 1 { 0.05 } else { -0.05 })
            .collect();
        for seq in 0..(1u32 << (m + 1)) {
            let mut env = CartPole::from_state([s[0], s[1], s[2], s[3]]);
            for t in 0..=m {
                let tr = env.step((seq >> t & 1) as usize);
                if tr.terminated {
                    shortest = shortest.min(t + 1);
                    let st = env.state();
                    assert!(st[0].abs() > X_THRESHOLD || st[2].abs() > THETA_THRESHOLD);
                    break;
                }
            }
        }
    }
    assert!(
        shortest >= MIN_EPISODE_STEPS,
        "an episode of {shortest} steps"
    );
}

#[test]
fn the_budget_is_never_exceeded_and_bounds_the_updates() {
    let config = tiny();
    let mut tr = ReinforceTrainer::new(config.clone(), 5).unwrap();
    let planned = ReinforceTrainer::planned(&config);
    assert_eq!(planned.total, 1700);
    let mut updates = 0;
    while !tr.is_finished() {
        let r = tr.step().unwrap();
        updates += 1;
        assert_eq!(r.update, updates);
        assert_eq!(r.episodes_finished, 3);
    }
    assert!(tr.env_steps() <= 1700);
    assert!(tr.env_steps() + 1500 > 1700);
    assert!(updates as u64 <= planned.steps);
    // A finished run refuses another step.
    assert!(matches!(
        tr.step().unwrap_err().kind(),
        crate::error::ErrorKind::Finished { .. }
    ));
    // Evaluated at 0 steps and after the last update.
    assert_eq!(tr.evaluations()[0].env_steps, 0);
    assert_eq!(tr.evaluations().last().unwrap().env_steps, tr.env_steps());
}

#[test]
fn a_non_finite_parameter_stops_the_run_naming_the_update() {
    let mut tr = ReinforceTrainer::new(tiny(), 5).unwrap();
    tr.agent.critic.params_mut()[0] = f64::NAN;
    match tr.step() {
        Err(e) => assert_eq!(
            e.kind(),
            &crate::error::ErrorKind::Diverged {
                step: 1,
                unit: crate::error::StepUnit::Update,
                quantity: Quantity::ValueEstimate
            }
        ),
        Ok(_) => panic!("expected divergence"),
    }
}
