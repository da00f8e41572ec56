//! Lesson 10: the checkable exercises. Each has its right answer computed here (by the same
//! `rl` functions the lessons use) and a check of the reader's answer that says, in Russian,
//! whether it is right. Choice exercises compare the set of marked options; numeric and code
//! exercises compare numbers within a stated tolerance. The reader's text is parsed here (a
//! decimal comma, a real minus), never trusted as a number by the page.

use crate::{lessons, rl, Result};
use serde::Serialize;
use std::collections::BTreeMap;

mod check;
pub use check::{check, parse_answer, Check};

/// Absolute tolerance of every numeric answer (three decimals are enough).
pub const TOLERANCE: f64 = 0.005;

/// One exercise's right answer and what the page shows of it.
#[derive(Debug, Clone, Serialize)]
pub struct Exercise {
    /// Choice: the right options (1-based); empty for a numeric exercise.
    pub correct_options: Vec<usize>,
    /// How many options a choice exercise has.
    pub options: usize,
    /// Numeric: the values the fields must hold, in the fields' order (as open as the
    /// solution behind «Показать решение»).
    pub expected: Vec<f64>,
    /// Numeric: the tolerance the page states.
    pub tolerance: f64,
    /// Inputs a code exercise gives the reader (shown on the page), by name.
    pub given: BTreeMap<&'static str, Vec<f64>>,
    /// Typical mistakes: the values a reader who made one would enter, and the hint the check
    /// gives when the wrong fields hold exactly those (not shown on the page before a check).
    #[serde(skip)]
    pub mistakes: Vec<Mistake>,
}

/// A typical wrong answer and what to say about it.
#[derive(Debug, Clone)]
pub struct Mistake {
    pub values: Vec<f64>,
    pub hint: &'static str,
}

impl Exercise {
    fn with_mistake(mut self, values: Vec<f64>, hint: &'static str) -> Self {
        self.mistakes.push(Mistake { values, hint });
        self
    }
}

fn choice(options: usize, correct: &[usize]) -> Exercise {
    Exercise {
        correct_options: correct.to_vec(),
        options,
        expected: Vec::new(),
        tolerance: 0.0,
        given: BTreeMap::new(),
        mistakes: Vec::new(),
    }
}

fn numbers(expected: Vec<f64>, given: &[(&'static str, Vec<f64>)]) -> Exercise {
    Exercise {
        correct_options: Vec::new(),
        options: 0,
        expected,
        tolerance: TOLERANCE,
        given: given.iter().cloned().collect(),
        mistakes: Vec::new(),
    }
}

fn bits(xs: &[bool]) -> Vec<f64> {
    xs.iter().map(|&b| f64::from(u8::from(b))).collect()
}

/// Every checkable exercise, by number.
pub fn exercises() -> Result<BTreeMap<usize, Exercise>> {
    let score = lessons::score::score()?;
    let returns = lessons::returns::returns()?;
    let bstar = lessons::baselines::bstar()?;
    let rloo = lessons::baselines::rloo()?;
    let gae = lessons::gae::worked()?;
    let ppo = lessons::clipping::ppo()?;
    let tokens = lessons::tokens::tokens(0.2)?;
    let mut all = BTreeMap::new();
    all.insert(1, choice(5, &[2, 4]));
    all.insert(6, choice(5, &[1, 2, 3]));
    let probs_grad = [score.probs.clone(), score.grad.clone()].concat();
    all.insert(11, numbers(probs_grad, &[]));
    all.insert(
        12,
        numbers(
            [returns.reward_to_go.clone(), returns.weights].concat(),
            &[],
        )
        .with_mistake(
            [returns.reward_to_go.clone(), returns.reward_to_go].concat(),
            "Похоже, в веса вписаны сами G_t: внешний множитель γ^t забыт. Умножьте G_t на γ^t.",
        ),
    );
    let mut b = vec![bstar.value];
    b.extend(&bstar.grad_norm_sq);
    b.push(bstar.b_star);
    all.insert(13, numbers(b, &[]));
    let mut r = vec![rloo.group_mean];
    r.extend(&rloo.rloo);
    let mut centred = vec![rloo.group_mean];
    centred.extend(&rloo.centered);
    all.insert(
        14,
        numbers(r, &[]).with_mistake(
            centred,
            "Похоже, вписаны центрированные преимущества R_i − R̄, а не RLOO: опорный уровень RLOO — среднее остальных ответов, без текущего (разница — множитель G/(G − 1)).",
        ),
    );
    let a = &gae.analysis;
    all.insert(
        15,
        numbers(
            [
                a.deltas.clone(),
                a.advantages.clone(),
                a.value_targets.clone(),
            ]
            .concat(),
            &[],
        )
        .with_mistake(
            [
                a.single_done_deltas.clone(),
                a.single_done_advantages.clone(),
                a.single_done_value_targets.clone(),
            ]
            .concat(),
            "Похоже, запись 0 посчитана как истинное завершение (один флаг done): усечение не терминально, бутстрэппинг γ·V(s_1) на нём нужен.",
        ),
    );
    let mut p = ppo.pessimistic.clone();
    p.push(ppo.mean_objective);
    p.push(ppo.approx_kl);
    let mut unclipped = ppo.unclipped.clone();
    unclipped.push(unclipped.iter().sum::<f64>() / unclipped.len() as f64);
    unclipped.push(ppo.approx_kl);
    all.insert(
        16,
        numbers(p, &[]).with_mistake(
            unclipped,
            "Похоже, вписаны неклиппированные члены r·Â: цель PPO — минимум из r·Â и clip(r, 1 − ε, 1 + ε)·Â.",
        ),
    );

    // Code exercises: the project's function on small given inputs.
    let (logits, action) = (vec![2.0, 0.0], 0usize);
    all.insert(
        17,
        numbers(
            rl::grad_log_softmax(&logits, action)?,
            &[("logits", logits), ("action", vec![action as f64])],
        ),
    );
    let (rewards, gamma) = (vec![0.0, 1.0, 1.0], 0.9);
    all.insert(
        18,
        numbers(
            rl::reward_to_go(&rewards, gamma)?,
            &[("rewards", rewards), ("gamma", vec![gamma])],
        ),
    );
    let group = vec![1.0, 0.0, 0.0, 1.0];
    let z = rl::group_zscore_advantages(ndarray::aview1(&group), 1e-8)?;
    let sample = sample_std_zscores(&group);
    all.insert(
        19,
        numbers(z.to_vec(), &[("rewards", group)]).with_mistake(
            sample,
            "Похоже, σ посчитано с делением на G − 1 (выборочное, как .std() в PyTorch); здесь, как в курсе, — с делением на G.",
        ),
    );
    // Exercise 15's two records without the trace cut at record 0: record 1's δ leaks back.
    let tr = &gae.trajectory;
    let leak = [false, true];
    let leaked = rl::gae_advantages(
        &tr.rewards,
        &tr.values,
        &tr.next_values,
        &tr.terminated,
        &leak,
        a.gamma,
        a.lambda,
    )?;
    all.insert(
        20,
        numbers(
            leaked,
            &[
                ("rewards", tr.rewards.clone()),
                ("values", tr.values.clone()),
                ("next_values", tr.next_values.clone()),
                ("terminated", bits(&tr.terminated)),
                ("trace_cuts", bits(&leak)),
                ("gamma_lambda", vec![a.gamma, a.lambda]),
            ],
        ),
    );
    // The four rows at ε = 0.5: the ratios sit on the band's edges, inside it.
    let edge = lessons::clipping::four_rows(0.5)?;
    all.insert(
        21,
        numbers(
            vec![
                edge.diagnostics.ratio_outside_fraction,
                edge.diagnostics.active_clip_fraction,
                edge.mean_objective,
            ],
            &[
                ("ratio", edge.ratio.to_vec()),
                ("advantage", edge.advantage.to_vec()),
                ("clip_epsilon", vec![0.5]),
            ],
        ),
    );
    all.insert(
        22,
        numbers(
            tokens.mask[1].clone(),
            &[
                (
                    "input_ids",
                    tokens.input_ids[1].iter().map(|&x| x as f64).collect(),
                ),
                ("prompt_length", vec![tokens.prompt_lengths[1] as f64]),
            ],
        ),
    );
    // 23: lesson 7's three reductions on its two rows.
    all.insert(
        23,
        numbers(
            vec![
                tokens.token_mean,
                tokens.sequence_mean,
                tokens.sequence_sum_mean,
            ],
            &[],
        )
        .with_mistake(
            vec![
                tokens.sequence_mean,
                tokens.token_mean,
                tokens.sequence_sum_mean,
            ],
            "Похоже, token_mean и sequence_mean перепутаны: token_mean делит сумму по всем ответам на общее число токенов, sequence_mean усредняет средние по ответам.",
        ),
    );
    // 24: σ and the successful answer's z-score in a group with one success of four and in one
    // with two: the rarer success gets the larger weight (lesson 3's difficulty bias).
    let (rare, even) = (vec![1.0, 0.0, 0.0, 0.0], vec![1.0, 1.0, 0.0, 0.0]);
    let z_rare = rl::group_zscore_advantages(ndarray::aview1(&rare), 1e-8)?;
    let z_even = rl::group_zscore_advantages(ndarray::aview1(&even), 1e-8)?;
    let sigma = |g: &[f64]| {
        let m = g.iter().sum::<f64>() / g.len() as f64;
        let var = g.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / g.len() as f64;
        var.sqrt()
    };
    let sample_sigma = |g: &[f64]| sigma(g) * (g.len() as f64 / (g.len() as f64 - 1.0)).sqrt();
    all.insert(
        24,
        numbers(
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
        ),
    );
    // 25: one value-clipping case; which branch of the max gives the gradient.
    let (value, old_value, target, clip) = (1.5, 1.0, 2.0, 0.2);
    let (v_clip, term, d_value) = rl::clipped_value_term(value, old_value, target, clip);
    all.insert(
        25,
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
        ),
    );
    // 26 (lesson 9): the first answer's advantage in one group under four estimators.
    let group = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let first = |e: rl::AdvantageEstimator| -> Result<f64> {
        Ok(rl::group_advantages(ndarray::aview1(&group), e, 1e-8)?[0])
    };
    use rl::AdvantageEstimator as E;
    let estimators = [E::Mean, E::Rloo, E::MeanStdPopulation, E::MeanStdSample];
    let right = estimators
        .iter()
        .map(|&e| first(e))
        .collect::<Result<Vec<_>>>()?;
    let swapped = vec![right[0], right[1], right[3], right[2]];
    all.insert(
        26,
        numbers(right, &[("rewards", group.clone())]).with_mistake(
            swapped,
            "Похоже, два последних перепутаны: у GRPO σ популяционное (деление на G), у mean_std_sample — с делением на G − 1, и оно больше, а преимущество меньше.",
        ),
    );
    // 27 (lesson 9): k1, k2, k3 of one token from its two log-probabilities.
    let (log_p, log_ref) = (-1.5, -0.7);
    let d = log_p - log_ref;
    let values = |d: f64| rl::KlEstimator::ALL.map(|k| k.value(d)).to_vec();
    all.insert(
        27,
        numbers(
            values(d),
            &[("log_prob", vec![log_p]), ("ref_log_prob", vec![log_ref])],
        )
        .with_mistake(
            values(-d),
            "Похоже, d взято с обратным знаком: d = log π_θ − log π_ref, логарифм текущей политики минус логарифм опорной.",
        ),
    );
    Ok(all)
}

/// Z-scores with the sample (n − 1) standard deviation: the typical mistake of exercises 19, 24.
fn sample_std_zscores(group: &[f64]) -> Vec<f64> {
    let n = group.len() as f64;
    let m = group.iter().sum::<f64>() / n;
    let var = group.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / (n - 1.0).max(1.0);
    let s = var.sqrt();
    group.iter().map(|r| (r - m) / (s + 1e-8)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(xs: &[f64]) -> Vec<String> {
        xs.iter()
            .map(|x| format!("{x:.4}").replace('.', ",").replace('-', "−"))
            .collect()
    }

    #[test]
    fn right_and_wrong_answers() {
        let all = exercises().unwrap();
        for (n, ex) in &all {
            if ex.options > 0 {
                let right: Vec<String> = ex.correct_options.iter().map(|k| k.to_string()).collect();
                assert!(check(*n, &right).unwrap().correct, "{n}");
                assert!(!check(*n, &["1".into()]).unwrap().correct, "{n}");
                assert!(!check(*n, &[]).unwrap().correct);
            } else {
                let right = texts(&ex.expected);
                assert!(check(*n, &right).unwrap().correct, "{n}: {right:?}");
                let mut wrong = ex.expected.clone();
                wrong[0] += 0.1;
                let c = check(*n, &texts(&wrong)).unwrap();
                assert!(!c.correct && !c.items[0], "{n}");
                assert!(c.message.contains("поля 1"), "{}", c.message);
            }
        }
        assert_eq!(all.keys().filter(|&&n| (11..=25).contains(&n)).count(), 15);
    }

    /// Each typical mistake gets its own hint, and a different wrong answer does not.
    #[test]
    fn typical_mistakes_get_their_hint() {
        let all = exercises().unwrap();
        let mut hinted = Vec::new();
        for (n, ex) in &all {
            for m in &ex.mistakes {
                assert_ne!(
                    m.values, ex.expected,
                    "{n}: the mistake is the right answer"
                );
                let c = check(*n, &texts(&m.values)).unwrap();
                assert!(
                    !c.correct && c.message.contains(m.hint),
                    "{n}: {}",
                    c.message
                );
                hinted.push(*n);
            }
            if !ex.mistakes.is_empty() {
                let mut other = ex.expected.clone();
                other[0] += 1.0;
                let c = check(*n, &texts(&other)).unwrap();
                assert!(
                    ex.mistakes.iter().all(|m| !c.message.contains(m.hint)),
                    "{n}"
                );
            }
        }
        for n in [12, 14, 15, 16, 19, 23, 24, 25, 26, 27] {
            assert!(hinted.contains(&n), "exercise {n} has no typical mistake");
        }
    }

    #[test]
    fn lesson_nine_exercises() {
        let all = exercises().unwrap();
        // Two successes of six: mean 1/3; RLOO 1 − 1/5; σ = √(2/9), sample σ = √(4/15).
        let e = &all[&26].expected;
        let want = [
            2.0 / 3.0,
            0.8,
            (2.0 / 3.0) / (2.0f64 / 9.0).sqrt(),
            (2.0 / 3.0) / (4.0f64 / 15.0).sqrt(),
        ];
        for (got, want) in e.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        let k = &all[&27].expected;
        assert!((k[0] + 0.8).abs() < 1e-12 && (k[1] - 0.32).abs() < 1e-12);
        assert!((k[2] - (crate::math::exp(0.8) - 1.8)).abs() < 1e-12);
    }

    #[test]
    fn the_new_exercises_expected_values() {
        let all = exercises().unwrap();
        let e = |n: usize| all[&n].expected.clone();
        // Reductions: lesson 7's numbers.
        assert!((e(23)[0] - 0.530272250309676).abs() < 1e-12);
        // One success of four: σ = √(1/4 · 3/4), z = 0,75/σ = √3; two of four: σ = 0,5, z = 1.
        assert!((e(24)[0] - (0.1875f64).sqrt()).abs() < 1e-12);
        assert!((e(24)[1] - 3f64.sqrt()).abs() < 1e-6 && (e(24)[3] - 1.0).abs() < 1e-6);
        // Value clipping: V_clip = 1,2, ½·0,8² = 0,32, no gradient.
        assert!((e(25)[0] - 1.2).abs() < 1e-12 && (e(25)[1] - 0.32).abs() < 1e-12);
        assert_eq!(e(25)[2], 0.0);
    }

    #[test]
    fn the_readers_text_is_parsed_not_trusted() {
        assert_eq!(parse_answer(" −0,25 "), Some(-0.25));
        assert_eq!(parse_answer("1.5"), Some(1.5));
        for bad in ["", "abc", "1,2,3", "NaN", "inf", "0x10"] {
            assert_eq!(parse_answer(bad), None, "{bad}");
        }
        let c = check(
            14,
            &["x".into(), "".into(), "".into(), "".into(), "".into()],
        )
        .unwrap();
        assert!(!c.correct && c.message.contains("Не число в полях 1"));
        assert!(check(99, &[]).is_err());
        assert!(check(11, &["1".into()]).is_err());
        assert!(check(1, &["7".into()]).is_err());
    }

    #[test]
    fn code_exercises_have_their_expected_values() {
        let all = exercises().unwrap();
        // e_0 − softmax(2, 0); G for rewards (0, 1, 1) at γ = 0.9; the leak 8 + 0.9·100.
        let e = |n: usize| all[&n].expected.clone();
        assert!((e(17)[0] + e(17)[1]).abs() < 1e-15);
        assert!((e(18)[0] - 0.9 * 1.9).abs() < 1e-12);
        assert!((e(20)[0] - 98.0).abs() < 1e-12, "{:?}", e(20));
        assert_eq!(e(21)[..2], [0.0, 0.0]);
        assert_eq!(e(22), vec![0.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    }
}
