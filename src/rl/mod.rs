//! The course's mathematics as pure functions: f64 in (slices, or ndarray views where the
//! course's reference has 1-D and 2-D arrays), `Result` out, no RNG and no I/O
//! (except the seeded baseline simulation). Names follow the course's reference cases.

mod arrays;
mod baselines;
mod evaluation;
mod gae;
mod grpo;
mod kl;
mod ppo;
mod returns;
mod simulate;
mod softmax;
mod tokens;

pub use arrays::{array2, rows, Grid};
pub use baselines::{
    group_gradient_estimates, group_mean_advantages, group_zscore_advantages,
    leave_one_out_baselines, rloo_advantages, GroupGradients,
};
pub use evaluation::{group_stats, pass_at_k, pass_at_k_curve, GroupStats};
pub use gae::{gae_advantages, td_errors, Truncation};
pub use grpo::{
    bernoulli_group_gradient, group_advantages, AdvantageEstimator, BernoulliGroupGradient,
};
pub use kl::{kl_estimators, kl_in_reward, KlEstimates, KlEstimator};
pub use ppo::{
    asymmetric_clipped_objective, asymmetric_clipped_terms, clipped_objective, clipped_value_term,
    ppo_clipped_terms, ppo_diagnostics, ClippedTerms, DiagnosticsAccumulator, PpoDiagnostics,
};
pub use returns::{discounted_score_weights, reward_to_go};
pub use simulate::{
    bandit_exact_gradient, bandit_exact_stds, bandit_plain_std, simulate_group_baseline_bias,
    simulate_group_zscore, BaselineBias, BANDIT_COMPONENT, BANDIT_LOGITS, BANDIT_SUCCESS,
    MAX_SAMPLES,
};
pub use softmax::{grad_log_softmax, log_softmax, softmax_entropy, stable_softmax};
pub use tokens::{
    aggregate_token_terms, broadcast_sequence_advantages, masked_token_ppo_objective,
    masked_token_ppo_terms, response_token_mask, row_sums, sequence_level_ratio,
    sequence_log_probability, sequence_log_probability_ratio, sequence_probability_ratio,
    Reduction, TokenTerms,
};
