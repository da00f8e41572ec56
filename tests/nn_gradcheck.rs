//! Every parameter gradient of the full PPO loss (clipped policy loss, clipped value loss,
//! entropy bonus) and of REINFORCE's two losses (policy surrogate, critic) against central finite
//! differences, in f64.

use pgbook::math;
use pgbook::nn::{fast_tanh, Mlp, MlpCache};
use pgbook::rl::DiagnosticsAccumulator;
use pgbook::rng::{normal, seeded, uniform};
use pgbook::train::ppo::{ppo_loss_and_gradients, LossCoefficients, LossWorkspace, Minibatch};

/// Relative error |a − n| / max(|a|, |n|, FLOOR): gradients far below FLOOR are compared
/// absolutely (their finite-difference estimate is only good to ~1e-11 absolute).
const FLOOR: f64 = 1e-4;
/// The stated tolerance: relative error ≤ 1e-6 for every parameter.
const TOLERANCE: f64 = 1e-6;

struct Case {
    obs: Vec<f64>,
    actions: Vec<usize>,
    old_log_probs: Vec<f64>,
    old_values: Vec<f64>,
    advantages: Vec<f64>,
    returns: Vec<f64>,
}

/// A minibatch whose ratios and value moves sit clearly inside or clearly outside the clip
/// ranges (never within 0.02 of a kink, far more than the steps ≤ 2e-4 move them).
fn case(actor: &Mlp, critic: &Mlp, n: usize, eps: f64, seed: u64) -> Case {
    let mut rng = seeded(seed);
    let obs: Vec<f64> = (0..n * 4).map(|_| normal(&mut rng)).collect();
    let mut cache = MlpCache::default();
    let logits = actor.forward(&obs, n, &mut cache).to_vec();
    let values = critic.forward(&obs, n, &mut cache).to_vec();
    let mut c = Case {
        obs,
        actions: vec![],
        old_log_probs: vec![],
        old_values: vec![],
        advantages: vec![],
        returns: vec![],
    };
    // Log-ratio offsets: inside the range, clipped above, clipped below.
    let shifts = [0.05, -0.07, 0.5, -0.6, 0.0, 0.1];
    for i in 0..n {
        let a = usize::from(uniform(&mut rng) < 0.5);
        let row = &logits[2 * i..2 * i + 2];
        let max = row[0].max(row[1]);
        let lse = max + math::ln(math::exp(row[0] - max) + math::exp(row[1] - max));
        let log_prob = row[a] - lse;
        let shift: f64 = shifts[i % shifts.len()];
        assert!(
            (math::exp(shift) - (1.0 - eps)).abs() > 0.02
                && (math::exp(shift) - (1.0 + eps)).abs() > 0.02
        );
        c.actions.push(a);
        c.old_log_probs.push(log_prob - shift);
        c.advantages.push(normal(&mut rng));
        // Old values: within the value clip range or well outside it.
        let moved = [0.05, -0.1, 0.8, -0.9][i % 4];
        c.old_values.push(values[i] - moved);
        c.returns.push(values[i] + normal(&mut rng));
    }
    c
}

fn loss(actor: &Mlp, critic: &Mlp, c: &Case, coef: &LossCoefficients) -> (f64, Vec<f64>, Vec<f64>) {
    let mb = Minibatch {
        obs: &c.obs,
        actions: &c.actions,
        old_log_probs: &c.old_log_probs,
        old_values: &c.old_values,
        advantages: &c.advantages,
        returns: &c.returns,
    };
    let mut ga = vec![0.0; actor.params().len()];
    let mut gc = vec![0.0; critic.params().len()];
    let mut ws = LossWorkspace::default();
    let mut diag = DiagnosticsAccumulator::default();
    let parts = ppo_loss_and_gradients(
        actor,
        critic,
        &mb,
        coef,
        &mut ws,
        &mut ga,
        &mut gc,
        Some(&mut diag),
    );
    (parts.loss, ga, gc)
}

fn check(coef: LossCoefficients, seed: u64) -> f64 {
    let mut rng = seeded(seed);
    let root2 = std::f64::consts::SQRT_2;
    // Bigger heads than PPO's 0.01 so that the policy gradients are not tiny.
    let mut actor = Mlp::new(&[4, 7, 6, 2], root2, 0.5, &mut rng).unwrap();
    let mut critic = Mlp::new(&[4, 7, 6, 1], root2, 1.0, &mut rng).unwrap();
    // Non-zero biases, so that their gradients are tested in a generic point.
    for p in actor.params_mut().iter_mut().chain(critic.params_mut()) {
        *p += 0.05 * normal(&mut rng);
    }
    let c = case(&actor, &critic, 24, coef.clip_epsilon, seed + 1);
    let (_, ga, gc) = loss(&actor, &critic, &c, &coef);
    // Five-point central stencil (error O(h⁴)): with h = 1e-4 both truncation (~1e-16) and
    // rounding (~1e-16·|L|/h) stay far below the tolerance.
    let h = 1e-4;
    let mut worst = 0.0f64;
    for net in 0..2 {
        let len = if net == 0 { ga.len() } else { gc.len() };
        for k in 0..len {
            let set = |a: &mut Mlp, b: &mut Mlp, v: f64| {
                if net == 0 {
                    a.params_mut()[k] = v
                } else {
                    b.params_mut()[k] = v
                }
            };
            let orig = if net == 0 {
                actor.params()[k]
            } else {
                critic.params()[k]
            };
            let mut at = |delta: f64| {
                set(&mut actor, &mut critic, orig + delta);
                let l = loss(&actor, &critic, &c, &coef).0;
                set(&mut actor, &mut critic, orig);
                l
            };
            let (p1, m1, p2, m2) = (at(h), at(-h), at(2.0 * h), at(-2.0 * h));
            let numeric = (8.0 * (p1 - m1) - (p2 - m2)) / (12.0 * h);
            let analytic = if net == 0 { ga[k] } else { gc[k] };
            let rel = (analytic - numeric).abs() / analytic.abs().max(numeric.abs()).max(FLOOR);
            assert!(
                rel <= TOLERANCE,
                "{} parameter {k}: analytic {analytic:e}, numeric {numeric:e}, rel {rel:e}",
                if net == 0 { "actor" } else { "critic" }
            );
            worst = worst.max(rel);
        }
    }
    worst
}

#[test]
fn ppo_loss_gradients_match_central_differences_with_value_clipping() {
    let worst = check(
        LossCoefficients {
            clip_epsilon: 0.2,
            value_clip: Some(0.2),
            ent_coef: 0.05,
            vf_coef: 0.5,
        },
        7,
    );
    eprintln!("worst relative error (value clipping): {worst:e}");
}

#[test]
fn ppo_loss_gradients_match_central_differences_without_value_clipping() {
    let worst = check(
        LossCoefficients {
            clip_epsilon: 0.2,
            value_clip: None,
            ent_coef: 0.01,
            vf_coef: 0.5,
        },
        19,
    );
    eprintln!("worst relative error (plain value loss): {worst:e}");
}

#[test]
fn ppo_loss_gradients_match_central_differences_without_clipping() {
    // ε = ∞ (the `clip_coef = off` setting): the objective is r·A for every sample.
    let worst = check(
        LossCoefficients {
            clip_epsilon: f64::INFINITY,
            value_clip: None,
            ent_coef: 0.01,
            vf_coef: 0.5,
        },
        23,
    );
    eprintln!("worst relative error (no clipping): {worst:e}");
}

#[test]
fn fast_tanh_derivative_is_consistent_with_one_minus_square() {
    // The backward pass uses 1 − tanh²; the approximation must be smooth enough for that.
    let h = 1e-6;
    let mut x = -6.0;
    while x < 6.0 {
        let numeric = (fast_tanh(x + h) - fast_tanh(x - h)) / (2.0 * h);
        let y = fast_tanh(x);
        assert!((numeric - (1.0 - y * y)).abs() < 1e-9, "x = {x}");
        x += 0.0137;
    }
}

/// Every parameter gradient of the REINFORCE policy surrogate −mean log π(a|s)·A and of the
/// critic's ½·mean (V − target)² against the five-point central stencil, in f64.
#[test]
fn reinforce_loss_gradients_match_central_differences_for_policy_and_critic() {
    use pgbook::train::reinforce::{
        policy_loss_and_gradients, value_loss_and_gradients, LossWorkspace, PolicyBatch,
    };
    let mut rng = seeded(41);
    let root2 = std::f64::consts::SQRT_2;
    let mut policy = Mlp::new(&[4, 7, 6, 2], root2, 0.5, &mut rng).unwrap();
    let mut critic = Mlp::new(&[4, 7, 6, 1], root2, 1.0, &mut rng).unwrap();
    for p in policy.params_mut().iter_mut().chain(critic.params_mut()) {
        *p += 0.05 * normal(&mut rng);
    }
    let n = 24;
    let obs: Vec<f64> = (0..n * 4).map(|_| normal(&mut rng)).collect();
    let actions: Vec<usize> = (0..n)
        .map(|_| usize::from(uniform(&mut rng) < 0.5))
        .collect();
    // Weights on the scale of CartPole's returns, signed as advantages are.
    let advantages: Vec<f64> = (0..n).map(|_| 20.0 * normal(&mut rng)).collect();
    let targets: Vec<f64> = (0..n).map(|_| 10.0 + 5.0 * normal(&mut rng)).collect();
    let mut ws = LossWorkspace::default();
    let policy_loss = |policy: &Mlp, ws: &mut LossWorkspace| {
        let mut g = vec![0.0; policy.params().len()];
        let batch = PolicyBatch {
            obs: &obs,
            actions: &actions,
            advantages: &advantages,
        };
        (
            policy_loss_and_gradients(policy, &batch, ws, &mut g).loss,
            g,
        )
    };
    let value_loss = |critic: &Mlp, ws: &mut LossWorkspace| {
        let mut g = vec![0.0; critic.params().len()];
        let mut values = Vec::new();
        let l = value_loss_and_gradients(critic, &obs, &targets, ws, &mut g, &mut values);
        (l, g)
    };
    let h = 1e-4;
    let mut worst = 0.0f64;
    for (name, net, loss) in [
        (
            "policy",
            &mut policy,
            &policy_loss as &dyn Fn(&Mlp, &mut LossWorkspace) -> (f64, Vec<f64>),
        ),
        ("critic", &mut critic, &value_loss),
    ] {
        let (_, analytic) = loss(net, &mut ws);
        for k in 0..analytic.len() {
            let orig = net.params()[k];
            let mut at = |delta: f64| {
                net.params_mut()[k] = orig + delta;
                let l = loss(net, &mut ws).0;
                net.params_mut()[k] = orig;
                l
            };
            let (p1, m1, p2, m2) = (at(h), at(-h), at(2.0 * h), at(-2.0 * h));
            let numeric = (8.0 * (p1 - m1) - (p2 - m2)) / (12.0 * h);
            let a = analytic[k];
            let rel = (a - numeric).abs() / a.abs().max(numeric.abs()).max(FLOOR);
            assert!(
                rel <= TOLERANCE,
                "{name} parameter {k}: analytic {a:e}, numeric {numeric:e}, rel {rel:e}"
            );
            worst = worst.max(rel);
        }
    }
    eprintln!("worst relative error (REINFORCE policy and critic): {worst:e}");
}
