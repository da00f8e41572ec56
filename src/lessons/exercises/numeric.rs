//! Exercises with numbers to compute by hand: 9 and 11–16 on inputs of their own (the lessons'
//! worked examples stay in the lessons, so these test transfer, not recall), 24–27 on the GRPO
//! lesson's estimators.

use super::{numbers, sample_std_zscores, Exercise};
use crate::lessons::baselines::optimal_baseline;
use crate::lessons::gae::{analyse_trajectory, GaeTrajectory};
use crate::{math, rl, Result};
use ndarray::aview1;
use std::collections::BTreeMap;

/// Exercise 11: logits and the chosen action.
pub const SOFTMAX_LOGITS: [f64; 3] = [0.5, 1.5, -1.0];
pub const SOFTMAX_ACTION: usize = 0;
/// Exercise 12: rewards of an episode and γ.
pub const RETURNS_REWARDS: [f64; 3] = [0.0, 2.0, 1.0];
pub const RETURNS_GAMMA: f64 = 0.8;
/// Exercise 13: a two-action policy with probabilities (0.7, 0.3) and the actions' mean rewards.
pub const BSTAR_PROBS: [f64; 2] = [0.7, 0.3];
pub const BSTAR_Q: [f64; 2] = [2.0, -1.0];
/// Exercise 14: one group's rewards.
pub const RLOO_REWARDS: [f64; 5] = [1.0, 0.0, 0.0, 1.0, 0.5];
/// Exercises 9 and 16: four samples' ratios and advantages, and ε.
pub const PPO_RATIO: [f64; 4] = [1.3, 0.7, 1.1, 0.75];
pub const PPO_ADVANTAGE: [f64; 4] = [2.0, 1.0, -1.0, -0.5];
pub const PPO_EPSILON: f64 = 0.2;

/// Exercise 15's two records (and exercise 20's): record 0 is truncated (it bootstraps and cuts
/// the trace), record 1 belongs to another episode and is terminal.
pub fn gae_records() -> GaeTrajectory {
    GaeTrajectory {
        rewards: vec![1.0, 5.0],
        values: vec![4.0, 3.0],
        next_values: vec![6.0, 0.0],
        terminated: vec![false, true],
        trace_cuts: vec![true, true],
        done: vec![true, true],
    }
}
/// γ and λ of exercises 15 and 20.
pub const GAE_GAMMA: f64 = 0.9;
pub const GAE_LAMBDA: f64 = 0.95;

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

pub(super) fn add(all: &mut BTreeMap<usize, Exercise>) -> Result<()> {
    all.insert(9, clip_diagnostics()?);
    all.insert(11, softmax()?);
    all.insert(12, returns()?);
    all.insert(13, optimal()?);
    all.insert(14, rloo()?);
    all.insert(15, gae()?);
    all.insert(16, ppo_objective()?);
    all.insert(24, difficulty()?);
    all.insert(25, value_clipping());
    all.insert(26, four_estimators()?);
    all.insert(27, kl_estimates());
    Ok(())
}

fn ppo_given() -> Vec<(&'static str, Vec<f64>)> {
    vec![
        ("ratio", PPO_RATIO.to_vec()),
        ("advantage", PPO_ADVANTAGE.to_vec()),
        ("clip_epsilon", vec![PPO_EPSILON]),
        ("clip_interval", vec![1.0 - PPO_EPSILON, 1.0 + PPO_EPSILON]),
    ]
}

fn ppo_diagnostics() -> Result<rl::PpoDiagnostics> {
    let new_log_prob = PPO_RATIO.map(math::ln);
    rl::ppo_diagnostics(&new_log_prob, &[0.0; 4], &PPO_ADVANTAGE, PPO_EPSILON)
}

/// 9: the two fractions of the four samples.
fn clip_diagnostics() -> Result<Exercise> {
    let d = ppo_diagnostics()?;
    let (outside, active) = (d.ratio_outside_fraction, d.active_clip_fraction);
    Ok(numbers(vec![outside, active], &ppo_given())
        .with_mistake(
            vec![active, outside],
            "Похоже, доли перепутаны: вне интервала — все отношения за пределами [1 − ε, 1 + ε], а активное клиппирование — только те из них, что ушли в «выгодную» сторону.",
        )
        .with_mistake(
            vec![outside, outside],
            "Похоже, клиппирование посчитано активным у каждого отношения вне интервала: но если отношение ушло в «невыгодную» сторону (r < 1 − ε при Â > 0 или r > 1 + ε при Â < 0), минимум берёт неклиппированный член.",
        ))
}

/// 11: softmax and the score of one action.
fn softmax() -> Result<Exercise> {
    let probs = rl::stable_softmax(&SOFTMAX_LOGITS)?;
    let grad = rl::grad_log_softmax(&SOFTMAX_LOGITS, SOFTMAX_ACTION)?;
    let flipped: Vec<f64> = grad.iter().map(|g| -g).collect();
    let grad_sum = grad.iter().sum();
    Ok(numbers(
        [probs.clone(), grad.clone()].concat(),
        &[
            ("logits", SOFTMAX_LOGITS.to_vec()),
            ("action", vec![SOFTMAX_ACTION as f64]),
        ],
    )
    .with_solution("probs", probs.clone())
    .with_solution("grad", grad)
    .with_solution("grad_sum", vec![grad_sum])
    .with_mistake(
        [probs, flipped].concat(),
        "Похоже, знак градиента обратный (π − e_a): производная log π_a по z_a равна 1 − π_a > 0 — вероятность выбранного действия растёт вместе с его логитом.",
    ))
}

/// 12: reward-to-go and the weights γ^t G_t.
fn returns() -> Result<Exercise> {
    let g = rl::reward_to_go(&RETURNS_REWARDS, RETURNS_GAMMA)?;
    let w = rl::discounted_score_weights(&RETURNS_REWARDS, RETURNS_GAMMA)?;
    let discounts: Vec<f64> = (0..w.len())
        .map(|t| (0..t).fold(1.0, |acc, _| acc * RETURNS_GAMMA))
        .collect();
    Ok(numbers(
        [g.clone(), w.clone()].concat(),
        &[
            ("rewards", RETURNS_REWARDS.to_vec()),
            ("gamma", vec![RETURNS_GAMMA]),
        ],
    )
    .with_solution("reward_to_go", g.clone())
    .with_solution("discounts", discounts)
    .with_solution("weights", w)
    .with_mistake(
        [g.clone(), g].concat(),
        "Похоже, в веса вписаны сами G_t: внешний множитель γ^t забыт. Умножьте G_t на γ^t.",
    ))
}

/// 13: V, the squared score norms and b* of a two-action policy.
fn optimal() -> Result<Exercise> {
    let logits = [math::ln(BSTAR_PROBS[0] / BSTAR_PROBS[1]), 0.0];
    let (norms, value, b_star) = optimal_baseline(&logits, &BSTAR_Q)?;
    // Only the chosen action's component squared, (1 − p_a)²: the other component is forgotten
    // (b* is the same, the norms are half).
    let halves: Vec<f64> = norms.iter().map(|n| n / 2.0).collect();
    let mut right = vec![value];
    right.extend(&norms);
    right.push(b_star);
    let mut as_value = right.clone();
    as_value[3] = value;
    let mut half = vec![value];
    half.extend(&halves);
    half.push(b_star);
    Ok(numbers(
        right,
        &[("probs", BSTAR_PROBS.to_vec()), ("q", BSTAR_Q.to_vec())],
    )
    .with_solution("value", vec![value])
    .with_solution("grad_norm_sq", norms.clone())
    .with_solution("b_star", vec![b_star])
    .with_mistake(
        as_value,
        "Похоже, в b* вписана ценность V: b* взвешивает значения действий не только вероятностью p_a, но и квадратом нормы ‖u_a‖².",
    )
    .with_mistake(
        half,
        "Похоже, в ‖u_a‖² учтена только компонента выбранного действия, (1 − p_a)²: у вектора e_a − π две компоненты, и вторая, −p_{1−a}, по модулю такая же.",
    ))
}

/// 14: the group mean and RLOO's advantages.
fn rloo() -> Result<Exercise> {
    let r = &RLOO_REWARDS;
    let rloo = rl::rloo_advantages(aview1(r))?.to_vec();
    let centred = rl::group_mean_advantages(aview1(r))?.to_vec();
    let loo = rl::leave_one_out_baselines(aview1(r))?.to_vec();
    let with_mean = |xs: &[f64]| [vec![mean(r)], xs.to_vec()].concat();
    let g = r.len() as f64;
    Ok(numbers(with_mean(&rloo), &[("rewards", r.to_vec())])
        .with_mistake(
            with_mean(&centred),
            "Похоже, вписаны центрированные преимущества R_i − R̄, а не RLOO: опорный уровень RLOO — среднее остальных ответов, без текущего (разница — множитель G/(G − 1)).",
        )
        .with_mistake(
            with_mean(&loo),
            "Похоже, вписаны сами опорные уровни (S − R_i)/(G − 1): преимущество — награда минус опорный уровень.",
        )
        .with_solution("mean", vec![mean(r)])
        .with_solution("rloo", rloo.clone())
        .with_solution("centred", centred)
        .with_solution("loo_baselines", loo)
        .with_solution("scale", vec![g / (g - 1.0), (g - 1.0) / g]))
}

/// 15: δ, advantages and value targets of two records; what one `done` flag would give.
fn gae() -> Result<Exercise> {
    let tr = gae_records();
    let a = analyse_trajectory(&tr, GAE_GAMMA, GAE_LAMBDA)?;
    let right = [
        a.deltas.clone(),
        a.advantages.clone(),
        a.value_targets.clone(),
    ]
    .concat();
    let single = [
        a.single_done_deltas.clone(),
        a.single_done_advantages.clone(),
        a.single_done_value_targets.clone(),
    ]
    .concat();
    Ok(numbers(
        right,
        &[
            ("rewards", tr.rewards.clone()),
            ("values", tr.values.clone()),
            ("next_values", tr.next_values.clone()),
            ("gamma", vec![GAE_GAMMA]),
            ("lambda", vec![GAE_LAMBDA]),
        ],
    )
    .with_mistake(
        single,
        "Похоже, запись 0 посчитана как истинное завершение (один флаг done): усечение не терминально, бутстрэппинг γ·V на нём нужен.",
    )
    .with_solution("deltas", a.deltas)
    .with_solution("advantages", a.advantages)
    .with_solution("value_targets", a.value_targets)
    .with_solution("single_done_deltas", a.single_done_deltas)
    .with_solution("single_done_advantages", a.single_done_advantages)
    .with_solution("single_done_value_targets", a.single_done_value_targets))
}

/// 16: the pessimistic terms, the batch objective and the non-negative KL estimate.
fn ppo_objective() -> Result<Exercise> {
    let t = rl::ppo_clipped_terms(&PPO_RATIO, &PPO_ADVANTAGE, PPO_EPSILON)?;
    let d = ppo_diagnostics()?;
    let kl_terms: Vec<f64> = PPO_RATIO.iter().map(|r| (r - 1.0) - math::ln(*r)).collect();
    let with_means =
        |terms: &[f64]| [terms.to_vec(), vec![mean(terms), d.approx_kl_nonnegative]].concat();
    // Clipping applied on both sides: the clipped term taken wherever the ratio left the band.
    let both_sides: Vec<f64> = (0..4)
        .map(|i| {
            let outside = (PPO_RATIO[i] - 1.0).abs() > PPO_EPSILON;
            if outside {
                t.clipped[i]
            } else {
                t.unclipped[i]
            }
        })
        .collect();
    Ok(numbers(with_means(&t.pessimistic), &ppo_given())
        .with_mistake(
            with_means(&t.unclipped),
            "Похоже, вписаны неклиппированные члены r·Â: цель PPO — минимум из r·Â и clip(r, 1 − ε, 1 + ε)·Â.",
        )
        .with_mistake(
            with_means(&both_sides),
            "Похоже, клиппированный член взят у каждого отношения вне интервала: но минимум выбирает его, только когда отношение ушло в «выгодную» сторону; в «невыгодную» остаётся r·Â.",
        )
        .with_solution("mean_objective", vec![mean(&t.pessimistic)])
        .with_solution("pessimistic", t.pessimistic.clone())
        .with_solution("unclipped", t.unclipped)
        .with_solution("clipped", t.clipped)
        .with_solution("kl_terms", kl_terms)
        .with_solution("approx_kl", vec![d.approx_kl_nonnegative]))
}

/// 24: σ and the successful answer's z-score in a group with one success of four and in one
/// with two: the rarer success gets the larger weight (lesson 9's difficulty bias). The
/// solution separates the two effects: the centring (1 − p) and the division by σ (1/σ).
fn difficulty() -> Result<Exercise> {
    let (rare, even) = (vec![1.0, 0.0, 0.0, 0.0], vec![1.0, 1.0, 0.0, 0.0]);
    let z_rare = rl::group_zscore_advantages(aview1(&rare), 1e-8)?;
    let z_even = rl::group_zscore_advantages(aview1(&even), 1e-8)?;
    let sigma = |g: &[f64]| {
        let m = mean(g);
        let var = g.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / g.len() as f64;
        var.sqrt()
    };
    let sample_sigma = |g: &[f64]| sigma(g) * (g.len() as f64 / (g.len() as f64 - 1.0)).sqrt();
    let centred = |g: &[f64]| g[0] - mean(g);
    Ok(numbers(
        vec![sigma(&rare), z_rare[0], sigma(&even), z_even[0]],
        &[("rare", rare.clone()), ("even", even.clone())],
    )
    .with_mistake(
        vec![
            sample_sigma(&rare),
            sample_std_zscores(&rare)[0],
            sample_sigma(&even),
            sample_std_zscores(&even)[0],
        ],
        "Похоже, σ посчитано с делением на G − 1; здесь нужно «популяционное» σ с делением на G.",
    )
    .with_solution("centred", vec![centred(&rare), centred(&even)])
    .with_solution(
        "inverse_sigma",
        vec![1.0 / sigma(&rare), 1.0 / sigma(&even)],
    )
    .with_solution(
        "ratios",
        vec![
            centred(&rare) / centred(&even),
            sigma(&even) / sigma(&rare),
            z_rare[0] / z_even[0],
        ],
    ))
}

/// 25: one value-clipping case; which branch of the max gives the gradient.
fn value_clipping() -> Exercise {
    let (value, old_value, target, clip) = (1.5, 1.0, 2.0, 0.2);
    let (v_clip, term, d_value) = rl::clipped_value_term(value, old_value, target, clip);
    numbers(
        vec![v_clip, term, d_value],
        &[
            ("value", vec![value]),
            ("old_value", vec![old_value]),
            ("target", vec![target]),
            ("clip", vec![clip]),
        ],
    )
    .with_mistake(
        vec![v_clip, term, v_clip - target],
        "Похоже, производная взята по клиппированной ветви как по V: но V_clip при V вне коридора от V не зависит, и градиент этой ветви равен нулю.",
    )
}

/// 26 (lesson 9): the first answer's advantage in one group under four estimators.
fn four_estimators() -> Result<Exercise> {
    let group = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let first = |e: rl::AdvantageEstimator| -> Result<f64> {
        Ok(rl::group_advantages(aview1(&group), e, 1e-8)?[0])
    };
    use rl::AdvantageEstimator as E;
    let estimators = [E::Mean, E::Rloo, E::MeanStdPopulation, E::MeanStdSample];
    let right = estimators
        .iter()
        .map(|&e| first(e))
        .collect::<Result<Vec<_>>>()?;
    let swapped = vec![right[0], right[1], right[3], right[2]];
    Ok(numbers(right, &[("rewards", group.clone())]).with_mistake(
        swapped,
        "Похоже, два последних перепутаны: в этом упражнении третий оцениватель делит на популяционное σ (деление на G), а четвёртый — на выборочное (деление на G − 1); выборочное больше, а преимущество меньше.",
    ))
}

/// 27 (lesson 9): k1, k2, k3 of one token from its two log-probabilities.
fn kl_estimates() -> Exercise {
    let (log_p, log_ref) = (-1.5, -0.7);
    let d = log_p - log_ref;
    let values = |d: f64| rl::KlEstimator::ALL.map(|k| k.value(d)).to_vec();
    numbers(
        values(d),
        &[("log_prob", vec![log_p]), ("ref_log_prob", vec![log_ref])],
    )
    .with_mistake(
        values(-d),
        "Похоже, d взято с обратным знаком: d = log π_θ − log π_ref, логарифм текущей политики минус логарифм опорной.",
    )
}
