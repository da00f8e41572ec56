//! The PPO trainer's unit tests: the rollout's masks, the loss at the old policy, divergence.
use super::*;
use crate::envs::cartpole::{CartPole, OBS_DIM};
use crate::error::Quantity;
use crate::nn::MlpCache;
use crate::rl::DiagnosticsAccumulator;
use crate::rl::{gae_advantages, Truncation};
use crate::train::cartpole::observation;
use crate::train::compare::Quartiles;

fn tiny() -> PpoConfig {
    PpoConfig {
        num_envs: 2,
        num_steps: 4,
        num_updates: 3,
        minibatch_size: 4,
        update_epochs: 2,
        hidden_sizes: vec![8, 8],
        ..PpoConfig::full()
    }
}

#[test]
fn truncation_bootstraps_from_the_last_real_observation_and_cuts_the_trace() {
    let mut tr = Ppo::<f64>::new(tiny(), 3).unwrap();
    // Env 0 is upright two steps before the time limit: its step t = 1 is step 500.
    tr.envs.envs[0] = CartPole::from_state_at([0.0, 0.0, 0.01, 0.0], 498);
    tr.envs.obs[..OBS_DIM].copy_from_slice(&observation(&tr.envs.envs[0]));
    // Replay env 0's first two steps to know the real observation at the limit.
    let mut cache = MlpCache::default();
    let cfg = tr.config.clone();
    tr.rollout.collect(
        &mut tr.envs,
        &tr.agent.actor,
        &tr.agent.critic,
        &cfg.rollout_spec(),
        &mut tr.rng,
    );
    let ro = &tr.rollout;
    let t_len = 4;
    let mut replay = CartPole::from_state_at([0.0, 0.0, 0.01, 0.0], 498);
    replay.step(ro.actions[0]);
    let t = replay.step(ro.actions[1]);
    assert!(t.truncated && !t.terminated);
    let v_final = tr
        .agent
        .critic
        .forward(&observation(&replay), 1, &mut cache)[0];
    // t = 0 continues into t = 1: bootstrap from the stored value, no cut.
    assert_eq!(ro.next_values[0], ro.values[1]);
    assert!(!ro.trace_cuts[0] && !ro.terminated[0]);
    // t = 1 is truncated: not terminal, bootstrapped from V(final real obs), trace cut.
    assert!(!ro.terminated[1] && ro.trace_cuts[1]);
    assert_eq!(ro.next_values[1], v_final);
    // After the reset the next record starts a fresh episode.
    assert_ne!(ro.obs[2 * OBS_DIM..3 * OBS_DIM], observation(&replay));
    // The buffer's last record of every env: cut, bootstrapped from the next observation.
    let v_next = tr
        .agent
        .critic
        .forward(&tr.envs.obs, 2, &mut cache)
        .to_vec();
    for (e, &v) in v_next.iter().enumerate() {
        let k = e * t_len + t_len - 1;
        assert!(ro.trace_cuts[k]);
        if !ro.terminated[k] && tr.envs.envs[e].steps() > 0 {
            assert_eq!(ro.next_values[k], v);
        }
    }
}

/// A trainer whose env 0 is upright two steps before the time limit, and its rollout.
fn truncated_rollout(config: PpoConfig) -> Ppo<f64> {
    let mut tr = Ppo::<f64>::new(config, 3).unwrap();
    tr.envs.envs[0] = CartPole::from_state_at([0.0, 0.0, 0.01, 0.0], 498);
    tr.envs.obs[..OBS_DIM].copy_from_slice(&observation(&tr.envs.envs[0]));
    let cfg = tr.config.clone();
    tr.rollout.collect(
        &mut tr.envs,
        &tr.agent.actor,
        &tr.agent.critic,
        &cfg.rollout_spec(),
        &mut tr.rng,
    );
    tr
}

#[test]
fn terminal_truncation_is_one_done_flag_no_bootstrap_at_the_time_limit() {
    let (bootstrap, terminal) = (
        truncated_rollout(tiny()),
        truncated_rollout(PpoConfig {
            truncation: Truncation::Terminal,
            ..tiny()
        }),
    );
    let (b, t) = (&bootstrap.rollout, &terminal.rollout);
    // The same data (the masks do not change what the policy samples) ...
    assert_eq!((&b.actions, &b.rewards), (&t.actions, &t.rewards));
    // ... but the truncation at t = 1 is now a terminal: no bootstrap from V(s_final).
    assert!(!b.terminated[1] && b.next_values[1] != 0.0);
    assert!(t.terminated[1] && t.trace_cuts[1] && t.next_values[1] == 0.0);
    // Everything else is as with two masks.
    for k in (0..b.rewards.len()).filter(|&k| k != 1) {
        assert_eq!(b.terminated[k], t.terminated[k], "record {k}");
        assert_eq!(b.next_values[k], t.next_values[k], "record {k}");
    }
    // Either way the critic's value at the limit is reported (lesson 4's column): one
    // truncation, V(s_final) — the bootstrap the two masks use.
    assert_eq!(b.truncation_values, vec![b.next_values[1]]);
    assert_eq!(t.truncation_values, b.truncation_values);
}

#[test]
fn the_value_at_the_time_limit_is_reported_per_update_and_tabulated_per_seed() {
    use crate::train::cartpole::{final_extras, CartPoleReport, VALUE_AT_LIMIT};
    let mut tr = PpoTrainer::new(tiny(), 3).unwrap();
    let first = tr.step().unwrap();
    // No episode of a fresh policy lasts 500 steps in 4.
    assert_eq!(first.value_at_truncation, None);
    let mut with = first.clone();
    with.value_at_truncation = Some(90.0);
    let mut other = first.clone();
    other.value_at_truncation = Some(80.0);
    let seeds: [&[UpdateReport]; 3] = [&[first.clone(), with.clone()], &[with, other], &[first]];
    let extras = final_extras(&seeds);
    assert_eq!(extras.len(), 1);
    assert_eq!(extras[0].name, VALUE_AT_LIMIT);
    // Per seed: 90 and (90 + 80) / 2; the third never reached the limit.
    assert_eq!(extras[0].value, Quartiles::of(&[90.0, 85.0]));
    assert!(final_extras::<crate::train::reinforce::UpdateReport>(&[]).is_empty());
    const { assert!(UpdateReport::CRITIC_AT_LIMIT) };
}

#[test]
fn the_boundary_cut_keeps_environments_apart_and_forgetting_it_leaks_the_next_one() {
    let cfg = tiny();
    let mut with_cut = truncated_rollout(cfg.clone());
    with_cut
        .rollout
        .compute_advantages(&cfg.rollout_spec(), 1)
        .unwrap();
    let ro = &with_cut.rollout;
    // With the cut, the buffer's GAE is each environment's GAE on its own.
    let t_len = cfg.num_steps;
    for e in 0..cfg.num_envs {
        let r = e * t_len..(e + 1) * t_len;
        let own = gae_advantages(
            &ro.rewards[r.clone()],
            &ro.values[r.clone()],
            &ro.next_values[r.clone()],
            &ro.terminated[r.clone()],
            &ro.trace_cuts[r.clone()],
            cfg.gamma,
            cfg.gae_lambda,
        )
        .unwrap();
        assert_eq!(ro.advantages[r], own[..]);
    }
    let forgot = PpoConfig {
        boundary_trace_cut: false,
        ..tiny()
    };
    let mut without = truncated_rollout(forgot.clone());
    without
        .rollout
        .compute_advantages(&forgot.rollout_spec(), 1)
        .unwrap();
    let wo = &without.rollout;
    // Env 0's last record (t_len − 1) runs on into env 1's first record (t_len).
    let last = t_len - 1;
    assert!(!wo.trace_cuts[last] && !wo.terminated[last]);
    let leak = forgot.gamma * forgot.gae_lambda * wo.advantages[last + 1];
    assert_eq!(wo.advantages[last], ro.advantages[last] + leak);
    assert_ne!(leak, 0.0);
    // The very last record of the buffer has nothing after it.
    let end = wo.advantages.len() - 1;
    assert_eq!(wo.advantages[end], ro.advantages[end]);
}

#[test]
fn a_non_finite_parameter_stops_the_run_naming_the_update() {
    let mut tr = Ppo::<f64>::new(tiny(), 5).unwrap();
    tr.step().unwrap();
    tr.agent.critic.params_mut()[0] = f64::NAN;
    match tr.step() {
        Err(e) => assert_eq!(
            e.kind(),
            &crate::error::ErrorKind::Diverged {
                step: 2,
                unit: crate::error::StepUnit::Update,
                quantity: Quantity::ValueEstimate
            }
        ),
        Ok(_) => panic!("expected divergence"),
    }
}

#[test]
fn stored_old_log_probs_and_values_match_the_loss_exactly_before_the_update() {
    // Row results do not depend on the batch they are computed in, so the ratio of the
    // first minibatch is exactly 1 and the value error is exactly 0.
    let mut tr = Ppo::<f64>::new(tiny(), 9).unwrap();
    let cfg = tr.config.clone();
    tr.rollout.collect(
        &mut tr.envs,
        &tr.agent.actor,
        &tr.agent.critic,
        &cfg.rollout_spec(),
        &mut tr.rng,
    );
    let ro = &tr.rollout;
    let zeros = vec![0.0; ro.actions.len()];
    let mb = Minibatch {
        obs: &ro.obs,
        actions: &ro.actions,
        old_log_probs: &ro.log_probs,
        old_values: &ro.values,
        advantages: &zeros,
        returns: &ro.values,
    };
    let coef = LossCoefficients {
        clip_epsilon: 0.2,
        value_clip: None,
        ent_coef: 0.0,
        vf_coef: 0.5,
    };
    let mut grads = (
        vec![0.0; tr.agent.actor.params().len()],
        vec![0.0; tr.agent.critic.params().len()],
    );
    let mut diag = DiagnosticsAccumulator::default();
    let parts = ppo_loss_and_gradients(
        &tr.agent.actor,
        &tr.agent.critic,
        &mb,
        &coef,
        &mut LossWorkspace::default(),
        &mut grads.0,
        &mut grads.1,
        Some(&mut diag),
    );
    let d = diag.finish().unwrap();
    assert_eq!(d.mean_log_ratio, 0.0);
    assert_eq!(d.approx_kl_nonnegative, 0.0);
    assert_eq!(parts.value_loss, 0.0);
}
