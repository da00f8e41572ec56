//! 34–35 (lesson «R1-Zero во вкладке»): pass@k from n samples, the unbiased estimate against the
//! naive one; the groups of a batch that teach nothing.

use super::{numbers, Exercise};
use crate::{rl, Result};
use ndarray::{aview1, Array2};
use std::collections::BTreeMap;

/// Exercise 34's samples: n answers to one prompt, c of them right, and the k asked about.
const SAMPLES: usize = 10;
const CORRECT: usize = 3;
const KS: [usize; 3] = [1, 2, 5];
/// Exercise 35's batch: five groups of four 0/1 rewards.
const GROUPS: [[f64; 4]; 5] = [
    [1.0, 1.0, 1.0, 1.0],
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 1.0, 0.0],
];

pub(super) fn add(all: &mut BTreeMap<usize, Exercise>) -> Result<()> {
    all.insert(34, pass_at_k()?);
    all.insert(35, dead_groups()?);
    Ok(())
}

fn naive(k: usize) -> f64 {
    let miss = 1.0 - CORRECT as f64 / SAMPLES as f64;
    let mut all_miss = 1.0;
    for _ in 0..k {
        all_miss *= miss;
    }
    1.0 - all_miss
}

/// 34: the unbiased pass@1, pass@2, pass@5 and the naive pass@5 from 3 right of 10.
fn pass_at_k() -> Result<Exercise> {
    let mut expected = KS
        .iter()
        .map(|&k| rl::pass_at_k(SAMPLES, CORRECT, k))
        .collect::<Result<Vec<_>>>()?;
    expected.push(naive(5));
    let plugged: Vec<f64> = KS.iter().map(|&k| naive(k)).chain([naive(5)]).collect();
    Ok(numbers(
        expected,
        &[
            ("n", vec![SAMPLES as f64]),
            ("c", vec![CORRECT as f64]),
            ("k", KS.iter().map(|&k| k as f64).collect()),
        ],
    )
    .with_mistake(
        plugged,
        "Похоже, во все поля подставлено c/n в 1 − (1 − p)^k: это наивная оценка. Несмещённая — \
         1 − C(n − c, k)/C(n, k), доля наборов из k ответов без возвращения, где нет ни одного верного.",
    )
    .with_solution("naive", KS.iter().map(|&k| naive(k)).collect()))
}

/// 35: the share of groups with equal rewards, the answers with a non-zero advantage under
/// the group mean (Dr. GRPO), and the advantage of the one right answer of group 3.
fn dead_groups() -> Result<Exercise> {
    let flat: Vec<f64> = GROUPS.iter().flatten().copied().collect();
    let rewards = Array2::from_shape_vec((GROUPS.len(), 4), flat)
        .map_err(|_| crate::Error::shape("rewards", vec![GROUPS.len(), 4], vec![]))?;
    let stats = rl::group_stats(rewards.view())?;
    let mut live = 0usize;
    let mut third = 0.0;
    for (i, g) in GROUPS.iter().enumerate() {
        let a = rl::group_advantages(aview1(g), rl::AdvantageEstimator::Mean, 1e-8)?;
        live += a.iter().filter(|&&x| x != 0.0).count();
        if i == 2 {
            third = a[0];
        }
    }
    let all_wrong = stats.all_wrong_share.unwrap_or(0.0);
    let given: Vec<(&'static str, Vec<f64>)> = GROUPS
        .iter()
        .zip(["g1", "g2", "g3", "g4", "g5"])
        .map(|(g, name)| (name, g.to_vec()))
        .collect();
    Ok(numbers(vec![stats.zero_variance_share, live as f64, third], &given)
        .with_mistake(
            vec![all_wrong, live as f64, third],
            "Похоже, посчитаны только группы, где все ответы неверны. Группа, где все ответы верны, \
             тоже ничему не учит: центрированное преимущество каждого её ответа — ноль.",
        )
        .with_solution("all_wrong_share", vec![all_wrong])
        .with_solution("all_correct_share", vec![stats.all_correct_share.unwrap_or(0.0)]))
}

#[cfg(test)]
mod tests {
    /// The numbers the statements' solutions quote: 1 − C(7, 2)/C(10, 2) = 1 − 21/45 and
    /// 1 − C(7, 5)/C(10, 5) = 1 − 21/252; three of five groups alike; groups 3 and 5 live.
    #[test]
    fn the_answers_are_the_closed_forms() {
        let e = super::pass_at_k().unwrap();
        let want = [0.3, 1.0 - 21.0 / 45.0, 1.0 - 21.0 / 252.0, 1.0 - 0.16807];
        for (got, want) in e.expected.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        let d = super::dead_groups().unwrap();
        assert_eq!(d.expected, vec![0.6, 8.0, 0.75]);
    }
}
