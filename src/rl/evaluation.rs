//! Evaluating a language-model policy as the field does: pass@k from n samples per prompt
//! (Chen et al., 2021), its curve over k, and the statistics of a batch of groups — how many
//! teach nothing because every answer in them scored alike.

use super::arrays::check_finite;
use crate::error::{check_non_empty, Error, Result, Rule};
use ndarray::ArrayView2;

fn whole(arg: &str, value: usize, min: usize, max: usize) -> Result<()> {
    if value < min || value > max {
        let rule = Rule::WholeNumber {
            min: min as u64,
            max: max as u64,
        };
        return Err(Error::range(arg, rule, value));
    }
    Ok(())
}

/// The unbiased estimate of the chance that at least one of `k` answers, drawn without
/// replacement from `n` sampled of which `c` are correct, is correct: 1 − C(n−c, k)/C(n, k),
/// computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i) so that it stays finite for n in the thousands.
/// Exactly 1 when fewer than `k` answers are wrong.
///
/// ```
/// use pgbook::rl::pass_at_k;
/// assert_eq!(pass_at_k(64, 1, 1).unwrap(), 1.0 / 64.0);
/// assert_eq!(pass_at_k(10, 7, 4).unwrap(), 1.0); // only 3 wrong: any 4 hold a right one
/// assert!(pass_at_k(4, 1, 5).is_err());
/// ```
pub fn pass_at_k(n: usize, c: usize, k: usize) -> Result<f64> {
    whole("n", n, 1, usize::MAX)?;
    whole("c", c, 0, n)?;
    whole("k", k, 1, n)?;
    if n - c < k {
        return Ok(1.0);
    }
    let k = k as f64;
    let mut none_right = 1.0;
    for i in n - c + 1..=n {
        none_right *= 1.0 - k / i as f64;
    }
    Ok(1.0 - none_right)
}

/// pass@k for each `k` of `ks`: the mean over prompts of [`pass_at_k`] with each prompt's
/// count of correct answers among its `n` samples.
///
/// ```
/// use pgbook::rl::pass_at_k_curve;
/// let curve = pass_at_k_curve(&[2], 8, &[1, 8]).unwrap();
/// assert_eq!(curve, vec![0.25, 1.0]);
/// ```
pub fn pass_at_k_curve(correct: &[usize], n: usize, ks: &[usize]) -> Result<Vec<f64>> {
    check_non_empty("correct", correct.len())?;
    check_non_empty("ks", ks.len())?;
    ks.iter()
        .map(|&k| {
            let mut sum = 0.0;
            for &c in correct {
                sum += pass_at_k(n, c, k)?;
            }
            Ok(sum / correct.len() as f64)
        })
        .collect()
}

/// What a batch of groups (one group of G rewards per prompt) can teach.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GroupStats {
    /// Share of groups whose rewards are all equal: a centred estimator gives each of their
    /// answers advantage 0, so they teach nothing.
    pub zero_variance_share: f64,
    /// Share of groups with every reward 1; `None` unless every reward is 0 or 1.
    pub all_correct_share: Option<f64>,
    /// Share of groups with every reward 0; `None` unless every reward is 0 or 1.
    pub all_wrong_share: Option<f64>,
    /// Mean over groups of the within-group standard deviation (ddof 0).
    pub mean_group_std: f64,
}

/// The statistics of `rewards` `[P, G]`: one row per prompt's group.
///
/// ```
/// use ndarray::array;
/// use pgbook::rl::group_stats;
/// let s = group_stats(array![[1.0, 1.0], [0.0, 1.0]].view()).unwrap();
/// assert_eq!((s.zero_variance_share, s.all_correct_share, s.mean_group_std), (0.5, Some(0.5), 0.25));
/// ```
pub fn group_stats(rewards: ArrayView2<'_, f64>) -> Result<GroupStats> {
    let (groups, size) = rewards.dim();
    check_non_empty("rewards", groups)?;
    check_non_empty("rewards[0]", size)?;
    check_finite("rewards", &rewards)?;
    let binary = rewards.iter().all(|&r| r == 0.0 || r == 1.0);
    let (mut alike, mut all_right, mut all_wrong, mut std_sum) = (0usize, 0usize, 0usize, 0.0);
    for row in rewards.rows() {
        let first = row[0];
        if row.iter().all(|&r| r == first) {
            alike += 1;
            all_right += usize::from(first == 1.0);
            all_wrong += usize::from(first == 0.0);
        }
        let mut sum = 0.0;
        for &r in row {
            sum += r;
        }
        let mean = sum / size as f64;
        let mut squares = 0.0;
        for &r in row {
            squares += (r - mean) * (r - mean);
        }
        std_sum += (squares / size as f64).sqrt();
    }
    let share = |count: usize| count as f64 / groups as f64;
    Ok(GroupStats {
        zero_variance_share: share(alike),
        all_correct_share: binary.then(|| share(all_right)),
        all_wrong_share: binary.then(|| share(all_wrong)),
        mean_group_std: std_sum / groups as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn pass_at_k_matches_the_binomial_ratio_and_refuses_bad_counts() {
        // 1 − C(3, 3)/C(5, 3) = 1 − 1/10.
        assert!((pass_at_k(5, 2, 3).unwrap() - 0.9).abs() < 1e-15);
        assert_eq!(pass_at_k(5, 0, 5).unwrap(), 0.0);
        for (n, c, k) in [(0, 0, 1), (4, 5, 1), (4, 1, 0), (4, 1, 5)] {
            assert!(pass_at_k(n, c, k).is_err(), "{n} {c} {k}");
        }
        // Large n stays finite and in [0, 1].
        let v = pass_at_k(3459, 3, 817).unwrap();
        assert!(v.is_finite() && (0.0..=1.0).contains(&v));
    }

    #[test]
    fn group_stats_counts_groups_that_teach_nothing() {
        let s = group_stats(array![[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]].view()).unwrap();
        assert_eq!(s.zero_variance_share, 1.0);
        assert_eq!(
            (s.all_correct_share, s.all_wrong_share),
            (Some(0.5), Some(0.5))
        );
        let real = group_stats(array![[0.5, 0.5], [0.0, 1.0]].view()).unwrap();
        assert_eq!((real.all_correct_share, real.mean_group_std), (None, 0.25));
        assert!(group_stats(array![[f64::NAN]].view()).is_err());
        assert!(group_stats(ndarray::Array2::<f64>::zeros((0, 3)).view()).is_err());
        assert!(group_stats(ndarray::Array2::<f64>::zeros((2, 0)).view()).is_err());
    }
}
