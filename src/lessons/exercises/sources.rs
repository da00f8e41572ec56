//! Exercises 17–23: describe one of the project's functions (the page shows its source), then
//! check it by hand on small inputs of its own.

use super::numeric::{gae_records, GAE_GAMMA, GAE_LAMBDA};
use super::{bits, numbers, sample_std_zscores, Exercise};
use crate::{lessons, rl, Result};
use ndarray::aview1;
use std::collections::BTreeMap;

pub(super) fn add(all: &mut BTreeMap<usize, Exercise>) -> Result<()> {
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
    let z = rl::group_zscore_advantages(aview1(&group), 1e-8)?;
    let sample = sample_std_zscores(&group);
    all.insert(
        19,
        numbers(z.to_vec(), &[("rewards", group)]).with_mistake(
            sample,
            "Похоже, σ посчитано с делением на G − 1 (выборочное, как .std() в PyTorch); здесь — с делением на G.",
        ),
    );
    // Exercise 15's two records without the trace cut at record 0: record 1's δ leaks back.
    let tr = gae_records();
    let leak = [false, true];
    let leaked = rl::gae_advantages(
        &tr.rewards,
        &tr.values,
        &tr.next_values,
        &tr.terminated,
        &leak,
        GAE_GAMMA,
        GAE_LAMBDA,
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
                ("gamma", vec![GAE_GAMMA]),
                ("lambda", vec![GAE_LAMBDA]),
            ],
        ),
    );
    // The lesson's four rows at ε = 0.5: the ratios sit on the band's edges, inside it.
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
    let tokens = lessons::tokens::tokens(0.2)?;
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
    all.insert(23, reductions(&tokens));
    Ok(())
}

/// 23: lesson 7's three reductions on its two rows; then the first answer twice as long, each
/// new token with the answer's mean term (the solution's numbers).
fn reductions(tokens: &lessons::tokens::Tokens) -> Exercise {
    let sums: Vec<f64> = tokens
        .pessimistic
        .iter()
        .map(|row| row.iter().sum())
        .collect();
    let (s1, s2) = (sums[0], sums[1]);
    let (n1, n2) = (tokens.tokens_per_row[0], tokens.tokens_per_row[1]);
    let doubled = vec![
        (2.0 * s1 + s2) / (2.0 * n1 + n2),
        (s1 / n1 + s2 / n2) / 2.0,
        (2.0 * s1 + s2) / 2.0,
    ];
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
    )
    .with_solution("row_sums", sums)
    .with_solution("row_means", vec![s1 / n1, s2 / n2])
    .with_solution("doubled", doubled)
}
