//! CartPole-v1 against Gymnasium's recorded trajectories (`cartpole_trajectories.json`).

use crate::common::{f, load_fixture, vec_f64};
use pgbook::envs::cartpole::{dynamics, is_terminal, observe, CartPole, MAX_EPISODE_STEPS};
use pgbook::rng::seeded;
use serde_json::Value;

fn state(v: &Value) -> [f64; 4] {
    let s = vec_f64(v);
    assert_eq!(s.len(), 4, "a state has four components");
    [s[0], s[1], s[2], s[3]]
}

fn obs(v: &Value) -> [f32; 4] {
    state(v).map(|x| x as f32)
}

fn episodes() -> Vec<Value> {
    let fixture = load_fixture("cartpole_trajectories.json");
    let eps = fixture["episodes"]
        .as_array()
        .expect("episodes is an array")
        .clone();
    assert!(!eps.is_empty(), "the fixture holds episodes");
    eps
}

#[test]
fn every_recorded_transition_is_reproduced_one_step_at_a_time() {
    let mut transitions = 0;
    for ep in episodes() {
        let steps = ep["steps"].as_array().expect("steps");
        assert_eq!(steps.len() as u64, ep["length"].as_u64().expect("length"));
        for (t, step) in steps.iter().enumerate() {
            let s = state(&step["state"]);
            assert_eq!(
                observe(&s),
                obs(&step["observation"]),
                "observation at t={t}"
            );
            let action = step["action"].as_u64().expect("action") as usize;
            let mut env = CartPole::from_state(s);
            let next = dynamics(s, action);
            let want = state(&step["next_state"]);
            for k in 0..4 {
                assert!(
                    (next[k] - want[k]).abs() <= 1e-12,
                    "seed {} t={t} component {k}: {} vs {}",
                    ep["reset_seed"],
                    next[k],
                    want[k]
                );
            }
            assert_eq!(observe(&next), obs(&step["next_observation"]));
            let tr = env.step(action);
            assert_eq!(env.state(), next);
            assert_eq!(tr.reward, f(&step["reward"]));
            assert_eq!(tr.terminated, step["terminated"].as_bool().expect("bool"));
            assert_eq!(is_terminal(&next), tr.terminated);
            transitions += 1;
        }
    }
    assert!(transitions > 1000, "only {transitions} transitions checked");
}

#[test]
fn open_loop_replay_stays_within_the_readme_tolerances() {
    for ep in episodes() {
        let policy = ep["policy"].as_str().expect("policy");
        // Balancing episodes run 500 steps: rounding grows ~45× per 50 steps, so only the
        // first 150 are comparable open-loop (README).
        let horizon = if policy == "balancing" {
            150
        } else {
            usize::MAX
        };
        let mut env = CartPole::from_state(state(&ep["initial_state"]));
        assert_eq!(env.observation(), obs(&ep["initial_observation"]));
        let steps = ep["steps"].as_array().expect("steps");
        let mut last = None;
        for (t, step) in steps.iter().enumerate().take(horizon) {
            let action = step["action"].as_u64().expect("action") as usize;
            let tr = env.step(action);
            let want = state(&step["next_state"]);
            for k in 0..4 {
                assert!(
                    (env.state()[k] - want[k]).abs() <= 1e-9,
                    "{policy} seed {} t={t}: {:?} vs {want:?}",
                    ep["reset_seed"],
                    env.state()
                );
            }
            assert_eq!(tr.terminated, step["terminated"].as_bool().expect("bool"));
            assert_eq!(tr.truncated, step["truncated"].as_bool().expect("bool"));
            last = Some(tr);
        }
        if horizon == usize::MAX {
            let tr = last.expect("non-empty episode");
            assert_eq!(tr.terminated, ep["terminated"].as_bool().expect("bool"));
            let want = state(&ep["final_state"]);
            for k in 0..4 {
                assert!(
                    (env.state()[k] - want[k]).abs() <= 1e-9,
                    "{policy} final state"
                );
            }
        }
    }
}

#[test]
fn truncation_at_500_steps_is_separate_from_termination() {
    // The recorded flags follow the rule "truncated iff the 500th step".
    for ep in episodes()
        .into_iter()
        .filter(|e| e["policy"] == "balancing")
    {
        let steps = ep["steps"].as_array().expect("steps");
        assert_eq!(steps.len(), MAX_EPISODE_STEPS as usize);
        for (t, step) in steps.iter().enumerate() {
            let last = t + 1 == MAX_EPISODE_STEPS as usize;
            assert_eq!(step["truncated"].as_bool(), Some(last));
            assert_eq!(step["terminated"].as_bool(), Some(false));
        }
    }
    // Our counter: the fixture's balancing policy from a recorded start survives 500 steps,
    // and only the 500th reports `truncated`.
    let ep = episodes()
        .into_iter()
        .find(|e| e["policy"] == "balancing")
        .expect("a balancing episode");
    let mut env = CartPole::from_state(state(&ep["initial_state"]));
    let flags: Vec<(bool, bool)> = (0..MAX_EPISODE_STEPS)
        .map(|_| {
            let o = env.observation();
            let action = usize::from(f64::from(o[2]) + 0.5 * f64::from(o[3]) > 0.0);
            let tr = env.step(action);
            (tr.terminated, tr.truncated)
        })
        .collect();
    assert!(flags[..499].iter().all(|&(a, b)| !a && !b));
    assert_eq!(flags[499], (false, true));
}

#[test]
fn reset_is_uniform_in_the_small_box_and_seeded() {
    let (mut a, mut b) = (seeded(3), seeded(3));
    for _ in 0..200 {
        let env = CartPole::new(&mut a);
        assert_eq!(env, CartPole::new(&mut b));
        assert!(env.state().iter().all(|s| (-0.05..0.05).contains(s)));
        assert_eq!(env.steps(), 0);
    }
}
