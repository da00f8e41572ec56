//! The A2C trainer's unit tests: one gradient step per rollout, the finished run.
use super::*;
use crate::error::ErrorKind;
use crate::train::settings::Settings;

fn tiny() -> A2cConfig {
    A2cConfig {
        num_envs: 2,
        num_steps: 4,
        num_updates: 3,
        hidden_sizes: vec![8],
        evaluation_every: 2,
        ..A2cConfig::smoke()
    }
}

#[test]
fn each_update_is_one_rollout_and_one_step_of_both_networks() {
    let mut tr = A2cTrainer::new(tiny(), 5).unwrap();
    let (actor, critic) = (tr.agent.actor.clone(), tr.agent.critic.clone());
    let r = tr.step().unwrap();
    assert_eq!((r.update, r.env_steps), (1, 8));
    assert_ne!(tr.agent.actor.params(), actor.params());
    assert_ne!(tr.agent.critic.params(), critic.params());
    // The rollout's targets are its advantages plus its values.
    let ro = &tr.rollout;
    for k in 0..8 {
        assert_eq!(ro.returns[k], ro.advantages[k] + ro.values[k]);
    }
    assert!(r.evaluation.is_none());
    assert!(tr.step().unwrap().evaluation.is_some());
    assert!(tr.step().unwrap().evaluation.is_some());
    assert!(tr.is_finished());
    let steps: Vec<u64> = tr.evaluations().iter().map(|e| e.env_steps).collect();
    assert_eq!(steps, vec![0, 16, 24]);
    assert!(matches!(
        tr.step().unwrap_err().kind(),
        ErrorKind::Finished {
            steps: 3,
            unit: crate::error::StepUnit::Update
        }
    ));
    assert_eq!(tr.progress().done, A2cTrainer::planned(&tiny()).total);
}

#[test]
fn bad_settings_are_refused_before_anything_runs() {
    for (k, v) in [
        ("num_envs", "0"),
        ("gamma", "1.5"),
        ("num_steps", "1000000"),
    ] {
        let e = A2cConfig::smoke()
            .with_text(&[(k.into(), v.into())])
            .and_then(|c| A2cTrainer::new(c, 1).map(|_| ()))
            .unwrap_err();
        assert_eq!(e.arg(), Some(k), "{e}");
    }
}
