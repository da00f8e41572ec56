//! Group advantages of the GRPO family (one group = the G responses to one prompt) and the
//! exact expected gradient behind the std's "difficulty bias".

use super::arrays::check_finite;
use super::baselines::{group_mean_advantages, rloo_advantages};
use crate::error::{
    check_finite_scalar, check_non_empty, check_unit_interval, Error, Result, Rule,
};
use ndarray::{Array1, ArrayView1};

crate::choice! {
    /// How a group's rewards become advantages.
    pub enum AdvantageEstimator, parse crate::error::Name::Estimator {
        /// A_i = r_i: no baseline.
        None = "none",
        /// A_i = r_i − mean(r) (Dr. GRPO): biased by (G − 1)/G.
        Mean = "mean",
        /// A_i = r_i − mean of the others (RLOO): unbiased; needs G ≥ 2.
        Rloo = "rloo",
        /// (r_i − mean)/std with ddof 0 (GRPO).
        MeanStdPopulation = "mean_std_population",
        /// (r_i − mean)/std with ddof 1; needs G ≥ 2.
        MeanStdSample = "mean_std_sample",
    }
}

fn two_or_more(arg: &str, len: usize) -> Result<()> {
    if len < 2 {
        let rule = Rule::Count {
            min: 2,
            max: usize::MAX,
        };
        return Err(Error::range(arg, rule, len));
    }
    Ok(())
}

/// Advantages of one group of rewards under `estimator`. The std estimators give all zeros
/// when the group's std is below `eps` (every answer alike: no signal).
///
/// ```
/// use ndarray::aview1;
/// use pgbook::rl::{group_advantages, AdvantageEstimator};
/// let a = group_advantages(aview1(&[1.0, 0.0, 1.0, 1.0]), AdvantageEstimator::Mean, 1e-8).unwrap();
/// assert_eq!(a.to_vec(), vec![0.25, -0.75, 0.25, 0.25]);
/// ```
pub fn group_advantages(
    rewards: ArrayView1<'_, f64>,
    estimator: AdvantageEstimator,
    eps: f64,
) -> Result<Array1<f64>> {
    check_non_empty("rewards", rewards.len())?;
    check_finite("rewards", &rewards)?;
    check_finite_scalar("eps", eps)?;
    if eps < 0.0 {
        return Err(Error::range("eps", Rule::non_negative(), eps));
    }
    let ddof = match estimator {
        AdvantageEstimator::None => return Ok(rewards.to_owned()),
        AdvantageEstimator::Mean => return group_mean_advantages(rewards),
        AdvantageEstimator::Rloo => return rloo_advantages(rewards),
        AdvantageEstimator::MeanStdPopulation => 0,
        AdvantageEstimator::MeanStdSample => {
            two_or_more("rewards", rewards.len())?;
            1
        }
    };
    let centered = group_mean_advantages(rewards)?;
    let squares: f64 = centered.iter().map(|c| c * c).sum();
    let std = (squares / (centered.len() - ddof) as f64).sqrt();
    if std < eps {
        return Ok(Array1::zeros(centered.len()));
    }
    Ok(centered.mapv_into(|c| c / std))
}

/// The exact expected gradient of one group for a one-logit Bernoulli policy
/// (see [`bernoulli_group_gradient`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BernoulliGroupGradient {
    /// dJ/dθ = p(1 − p).
    pub exact: f64,
    /// E[(1/G) Σ_i A_i ∂log π(y_i)/∂θ].
    pub expected_gradient: f64,
    /// expected_gradient / exact; `None` when exact = 0.
    pub ratio: Option<f64>,
    /// E[A_i | y_i correct]; `None` when p = 0.
    pub advantage_if_correct: Option<f64>,
    /// E[A_i | y_i wrong]; `None` when p = 1.
    pub advantage_if_wrong: Option<f64>,
}

/// The exact expectation of a group's gradient estimate for a policy that answers correctly
/// with p = sigmoid(θ) (reward 1, else 0): enumerates how many of the other G − 1 answers are
/// correct. `ratio` > 1 means the estimator overweights prompts with this p.
///
/// ```
/// use pgbook::rl::{bernoulli_group_gradient, AdvantageEstimator};
/// let g = bernoulli_group_gradient(0.5, 5, AdvantageEstimator::Mean, 1e-8).unwrap();
/// assert!((g.ratio.unwrap() - 0.8).abs() < 1e-12); // (G − 1)/G
/// ```
pub fn bernoulli_group_gradient(
    success_prob: f64,
    group_size: usize,
    estimator: AdvantageEstimator,
    eps: f64,
) -> Result<BernoulliGroupGradient> {
    check_unit_interval("success_prob", success_prob)?;
    if group_size == 0 {
        return Err(Error::range("group_size", Rule::at_least(1.0), 0usize));
    }
    let p = success_prob;
    let others = group_size - 1;
    // E[A_0 | y_0 = own] over k ~ Binomial(G − 1, p) correct answers among the others.
    let conditional = |own: f64| -> Result<f64> {
        let mut expectation = 0.0;
        let mut choose = 1.0;
        let mut rewards = vec![0.0; group_size];
        rewards[0] = own;
        for k in 0..=others {
            if k > 0 {
                choose = choose * (others - k + 1) as f64 / k as f64;
                rewards[k] = 1.0;
            }
            let pmf = choose
                * crate::math::pow(p, k as f64)
                * crate::math::pow(1.0 - p, (others - k) as f64);
            let a = group_advantages(ArrayView1::from(&rewards), estimator, eps)?;
            expectation += pmf * a[0];
        }
        Ok(expectation)
    };
    let (if_correct, if_wrong) = (conditional(1.0)?, conditional(0.0)?);
    let exact = p * (1.0 - p);
    // By symmetry every i contributes the same: p·E[A|correct]·(1 − p) + (1 − p)·E[A|wrong]·(−p).
    let expected_gradient = p * if_correct * (1.0 - p) - (1.0 - p) * if_wrong * p;
    Ok(BernoulliGroupGradient {
        exact,
        expected_gradient,
        ratio: (exact != 0.0).then(|| expected_gradient / exact),
        advantage_if_correct: (p != 0.0).then_some(if_correct),
        advantage_if_wrong: (p != 1.0).then_some(if_wrong),
    })
}
