//! The autoregressive case: response masks after the causal shift, sequence log-probabilities
//! and ratios (token- and GSPO's sequence-level), token-level clipped terms and the loss
//! reductions (lesson 7's three and Dr. GRPO's constant length).
//!
//! Layout: `input_ids[b]` holds `T` tokens (prompt, response, PAD…). Predictions are shifted by
//! one: column `k` of every `[B, T−1]` array belongs to the label `input_ids[b][k+1]`.

use super::arrays::{check_finite, check_shape2};
use super::ppo::clipped_objective;
use crate::error::{check_clip_epsilon, check_len, Error, Result, Rule};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

/// Mask `[B, T−1]` of the labels that are response tokens: at or after the prompt, not PAD, and
/// not after the first response EOS. The EOS itself is kept when `include_eos` (the model must
/// learn to stop); PAD is skipped wherever it stands; an EOS inside the prompt is ignored.
///
/// ```
/// use ndarray::{aview1, aview2};
/// let ids = aview2(&[[1, 10, 11, 20, 21, 2, 0]]);
/// let m = pgbook::rl::response_token_mask(ids, aview1(&[3]), 0, 2, true).unwrap();
/// assert_eq!(m, aview2(&[[0.0, 0.0, 1.0, 1.0, 1.0, 0.0]]));
/// ```
pub fn response_token_mask(
    input_ids: ArrayView2<'_, i64>,
    prompt_lengths: ArrayView1<'_, usize>,
    pad_token_id: i64,
    eos_token_id: i64,
    include_eos: bool,
) -> Result<Array2<f64>> {
    let (b, t) = input_ids.dim();
    check_len("prompt_lengths", prompt_lengths.len(), b)?;
    if t == 0 {
        return Err(Error::range("input_ids[0]", Rule::NonEmpty, 0usize));
    }
    let mut mask = Array2::zeros((b, t - 1));
    for (i, row) in input_ids.rows().into_iter().enumerate() {
        let mut active = true;
        for pos in 1..t {
            let token = row[pos];
            // The PAD test comes before the EOS test, as in the course's reference.
            if pos < prompt_lengths[i] || token == pad_token_id || !active {
                continue;
            }
            let is_eos = token == eos_token_id;
            if !is_eos || include_eos {
                mask[[i, pos - 1]] = 1.0;
            }
            if is_eos {
                active = false;
            }
        }
    }
    Ok(mask)
}

pub(super) fn check_binary_mask(arg: &str, mask: ArrayView2<'_, f64>) -> Result<()> {
    match mask.indexed_iter().find(|(_, &m)| m != 0.0 && m != 1.0) {
        Some(((b, k), &m)) => Err(Error::range(format!("{arg}[{b}][{k}]"), Rule::Binary, m)),
        None => Ok(()),
    }
}

/// The sum of each row, in index order (ndarray's `sum` would reassociate it).
pub fn row_sums(x: ArrayView2<'_, f64>) -> Vec<f64> {
    x.rows().into_iter().map(|row| row.iter().sum()).collect()
}

/// Log-probability of each whole sequence: the row sum of token log-probs (over the mask).
pub fn sequence_log_probability(
    token_log_probs: ArrayView2<'_, f64>,
    mask: Option<ArrayView2<'_, f64>>,
) -> Result<Array1<f64>> {
    check_finite("token_log_probs", &token_log_probs)?;
    let Some(mask) = mask else {
        return Ok(Array1::from(row_sums(token_log_probs)));
    };
    check_finite("mask", &mask)?;
    check_shape2("mask", mask, token_log_probs.dim())?;
    Ok(token_log_probs
        .rows()
        .into_iter()
        .zip(mask.rows())
        .map(|(lp, m)| lp.iter().zip(m).map(|(l, m)| l * m).sum())
        .collect())
}

/// Spreads one advantage per sequence over its response tokens: A_b · mask[b][t].
pub fn broadcast_sequence_advantages(
    sequence_advantages: ArrayView1<'_, f64>,
    token_mask: ArrayView2<'_, f64>,
) -> Result<Array2<f64>> {
    check_finite("sequence_advantages", &sequence_advantages)?;
    check_finite("token_mask", &token_mask)?;
    check_len(
        "sequence_advantages",
        sequence_advantages.len(),
        token_mask.nrows(),
    )?;
    Ok(Array2::from_shape_fn(token_mask.dim(), |(b, k)| {
        sequence_advantages[b] * token_mask[[b, k]]
    }))
}

/// Shape checks shared by the token-level functions; returns `(B, T)`.
fn check_token_inputs(
    new: ArrayView2<'_, f64>,
    old: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<(usize, usize)> {
    let shape = new.dim();
    check_finite("new_log_probs", &new)?;
    check_finite("old_log_probs", &old)?;
    check_shape2("old_log_probs", old, shape)?;
    check_finite("mask", &mask)?;
    check_shape2("mask", mask, shape)?;
    check_binary_mask("mask", mask)?;
    Ok(shape)
}

/// Masked log-ratio: new − old where the mask is 1, exactly 0 elsewhere. Masked positions may
/// hold any finite junk; it never reaches `exp`.
#[inline]
fn masked_log_ratio(new: f64, old: f64, mask: f64) -> f64 {
    if mask == 1.0 {
        new - old
    } else {
        0.0
    }
}

/// Token-level clipped-surrogate terms, all `[B, T]`, exactly 0 (ratio exactly 1) off the mask.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenTerms {
    /// exp(masked log-ratio).
    pub ratio: Array2<f64>,
    /// ratio · A_b on the mask.
    pub unclipped: Array2<f64>,
    /// clip(ratio, 1 − ε, 1 + ε) · A_b on the mask.
    pub clipped: Array2<f64>,
    /// min(unclipped, clipped) on the mask.
    pub pessimistic: Array2<f64>,
}

/// Token-level PPO terms with one advantage per sequence broadcast over its tokens.
pub fn masked_token_ppo_terms(
    new_log_probs: ArrayView2<'_, f64>,
    old_log_probs: ArrayView2<'_, f64>,
    advantages: ArrayView1<'_, f64>,
    mask: ArrayView2<'_, f64>,
    clip_epsilon: f64,
) -> Result<TokenTerms> {
    let (b, t) = check_token_inputs(new_log_probs, old_log_probs, mask)?;
    check_len("advantages", advantages.len(), b)?;
    check_finite("advantages", &advantages)?;
    check_clip_epsilon(clip_epsilon)?;
    let (lo, hi) = (1.0 - clip_epsilon, 1.0 + clip_epsilon);
    let mut out = TokenTerms {
        ratio: Array2::ones((b, t)),
        unclipped: Array2::zeros((b, t)),
        clipped: Array2::zeros((b, t)),
        pessimistic: Array2::zeros((b, t)),
    };
    for i in 0..b {
        for k in 0..t {
            if mask[[i, k]] != 1.0 {
                continue;
            }
            let log_ratio = masked_log_ratio(new_log_probs[[i, k]], old_log_probs[[i, k]], 1.0);
            let ratio = crate::math::exp(log_ratio);
            let a = advantages[i];
            out.ratio[[i, k]] = ratio;
            out.unclipped[[i, k]] = ratio * a;
            out.clipped[[i, k]] = ratio.clamp(lo, hi) * a;
            out.pessimistic[[i, k]] = clipped_objective(ratio, a, clip_epsilon);
        }
    }
    Ok(out)
}

/// Σ_t of the masked log-ratio per row: log of the sequence probability ratio.
pub fn sequence_log_probability_ratio(
    new_log_probs: ArrayView2<'_, f64>,
    old_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<Array1<f64>> {
    let (b, t) = check_token_inputs(new_log_probs, old_log_probs, mask)?;
    Ok((0..b)
        .map(|i| {
            (0..t)
                .map(|k| {
                    masked_log_ratio(new_log_probs[[i, k]], old_log_probs[[i, k]], mask[[i, k]])
                })
                .sum()
        })
        .collect())
}

/// The sequence probability ratio: exp of [`sequence_log_probability_ratio`], the product of
/// the token ratios. It can overflow to +∞ for long, strongly changed responses — one reason
/// token-level clipping is used instead.
pub fn sequence_probability_ratio(
    new_log_probs: ArrayView2<'_, f64>,
    old_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<Array1<f64>> {
    Ok(
        sequence_log_probability_ratio(new_log_probs, old_log_probs, mask)?
            .mapv_into(crate::math::exp),
    )
}

crate::choice! {
    /// How token terms are aggregated into one objective.
    pub enum Reduction as EVERY, parse crate::error::Name::Reduction {
        /// Σ_b s_b / Σ_b n_b: every token weighs the same; long answers weigh more.
        TokenMean = "token_mean",
        /// mean_b(s_b / n_b): every sequence weighs the same; its tokens share that weight.
        SequenceMean = "sequence_mean",
        /// mean_b(s_b): sums over tokens, so the scale grows with the length.
        SequenceSumMean = "sequence_sum_mean",
        /// Σ_b s_b / (B · L) with L the maximum response length (Dr. GRPO): every token weighs
        /// the same whatever its response's length and its batch's.
        ConstantLength = "constant_length",
    }
}

impl Reduction {
    /// The three of lesson 7, in the order it presents them (they need no maximum length).
    pub const ALL: [Reduction; 3] = [
        Reduction::TokenMean,
        Reduction::SequenceMean,
        Reduction::SequenceSumMean,
    ];

    /// Reduces row sums `s_b` and response token counts `n_b`. `max_length` is the constant L
    /// of `constant_length` (an integer ≥ 1 and ≥ every n_b, else an error); the others
    /// ignore it.
    pub fn reduce(
        self,
        row_sums: &[f64],
        row_counts: &[f64],
        max_length: Option<usize>,
    ) -> Result<f64> {
        let b = row_sums.len();
        let length = self.constant_length(row_counts, max_length)?;
        if b == 0 {
            return Ok(0.0);
        }
        Ok(match self {
            Reduction::TokenMean => {
                row_sums.iter().sum::<f64>() / row_counts.iter().sum::<f64>().max(1.0)
            }
            Reduction::SequenceMean => {
                row_sums
                    .iter()
                    .zip(row_counts)
                    .map(|(s, n)| s / n.max(1.0))
                    .sum::<f64>()
                    / b as f64
            }
            Reduction::SequenceSumMean => row_sums.iter().sum::<f64>() / b as f64,
            Reduction::ConstantLength => row_sums.iter().sum::<f64>() / (b as f64 * length),
        })
    }

    /// L of `constant_length` as f64 after its checks (1 for the other reductions).
    fn constant_length(self, row_counts: &[f64], max_length: Option<usize>) -> Result<f64> {
        if self != Reduction::ConstantLength {
            return Ok(1.0);
        }
        let length = match max_length {
            Some(l) if l >= 1 => l,
            other => {
                let rule = Rule::Requires {
                    what: "max_length ≥ 1".into(),
                };
                return Err(Error::range("max_length", rule, other.unwrap_or(0)));
            }
        };
        if let Some(b) = row_counts.iter().position(|&n| n > length as f64) {
            let rule = Rule::at_most(length as f64);
            return Err(Error::range(format!("mask[{b}]"), rule, row_counts[b]));
        }
        Ok(length as f64)
    }

    /// d objective / d (term of a token in row `b`): the weight each token's term gets
    /// (`max_length` is L of `constant_length`, ignored by the others).
    pub fn token_weight(
        self,
        row_count: f64,
        total_count: f64,
        batch: usize,
        max_length: usize,
    ) -> f64 {
        match self {
            Reduction::TokenMean => 1.0 / total_count.max(1.0),
            Reduction::SequenceMean => 1.0 / (row_count.max(1.0) * batch as f64),
            Reduction::SequenceSumMean => 1.0 / batch as f64,
            Reduction::ConstantLength => 1.0 / (batch as f64 * max_length as f64),
        }
    }
}

/// The token-level PPO objective (to maximise; the loss is its negative) under `reduction`.
pub fn masked_token_ppo_objective(
    new_log_probs: ArrayView2<'_, f64>,
    old_log_probs: ArrayView2<'_, f64>,
    advantages: ArrayView1<'_, f64>,
    mask: ArrayView2<'_, f64>,
    clip_epsilon: f64,
    reduction: Reduction,
) -> Result<f64> {
    let terms =
        masked_token_ppo_terms(new_log_probs, old_log_probs, advantages, mask, clip_epsilon)?;
    let sums = row_sums(terms.pessimistic.view());
    let counts = row_sums(mask);
    reduction.reduce(&sums, &counts, None)
}

/// GSPO's length-normalised sequence ratio: exp(Σ_t mask·(new − old) / max(n_b, 1)) per row;
/// a row without response tokens gives exactly 1.
pub fn sequence_level_ratio(
    new_log_probs: ArrayView2<'_, f64>,
    old_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<Array1<f64>> {
    let log_ratio = sequence_log_probability_ratio(new_log_probs, old_log_probs, mask)?;
    let counts = row_sums(mask);
    Ok(log_ratio
        .iter()
        .zip(&counts)
        .map(|(l, n)| crate::math::exp(l / n.max(1.0)))
        .collect())
}

/// Masked token terms `[B, T]` reduced to one value (terms off the mask are never read).
/// `max_length` is needed by `constant_length` only.
///
/// ```
/// use ndarray::aview2;
/// use pgbook::rl::{aggregate_token_terms, Reduction};
/// let (terms, mask) = (aview2(&[[1.0, 2.0, 9.0], [7.0, 7.0, 3.0]]), aview2(&[[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]));
/// assert_eq!(aggregate_token_terms(terms, mask, Reduction::ConstantLength, Some(3)).unwrap(), 1.0);
/// ```
pub fn aggregate_token_terms(
    terms: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
    reduction: Reduction,
    max_length: Option<usize>,
) -> Result<f64> {
    check_finite("terms", &terms)?;
    check_finite("mask", &mask)?;
    check_shape2("mask", mask, terms.dim())?;
    check_binary_mask("mask", mask)?;
    let sums: Vec<f64> = terms
        .rows()
        .into_iter()
        .zip(mask.rows())
        .map(|(t, m)| {
            t.iter()
                .zip(m)
                .filter(|(_, &m)| m == 1.0)
                .map(|(t, _)| *t)
                .sum()
        })
        .collect();
    reduction.reduce(&sums, &row_sums(mask), max_length)
}
