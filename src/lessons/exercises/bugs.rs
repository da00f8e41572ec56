//! Exercises 31–33: find the mistake. Each shows code — two functions here, written with the
//! mistake on purpose, and the project's own response mask fed a tokenizer whose PAD is its
//! EOS — and asks what it returns on given inputs; the check compares with what the code
//! really returns, and the typical wrong answer is the right code's result (the mistake not
//! found). The page shows these functions' source as built, so what the reader reads is what
//! computed the answer.

use super::{bits, numbers, Exercise};
use crate::error::check_len;
use crate::lessons::tokens::{TOKEN_EOS, TOKEN_PAD};
use crate::{rl, Result};
use ndarray::{aview1, aview2};
use std::collections::BTreeMap;

/// GAE over a rollout buffer whose records carry the environment's two flags.
/// `bootstrap_values[t]` is V of the observation where the data stops after record `t`: the
/// last one before the reset at a truncation, the one after the buffer at its last record.
pub fn gae_from_flags(
    rewards: &[f64],
    values: &[f64],
    bootstrap_values: &[f64],
    terminated: &[bool],
    truncated: &[bool],
    gamma: f64,
    lambda: f64,
) -> Result<Vec<f64>> {
    let n = rewards.len();
    check_len("values", values.len(), n)?;
    check_len("bootstrap_values", bootstrap_values.len(), n)?;
    check_len("terminated", terminated.len(), n)?;
    check_len("truncated", truncated.len(), n)?;
    let mut advantages = vec![0.0; n];
    let mut next_advantage = 0.0;
    for t in (0..n).rev() {
        let next_value = if terminated[t] {
            0.0
        } else if truncated[t] || t + 1 == n {
            bootstrap_values[t]
        } else {
            values[t + 1]
        };
        let delta = rewards[t] + gamma * next_value - values[t];
        let trace_cut = terminated[t] || t + 1 == n;
        if trace_cut {
            next_advantage = 0.0;
        }
        advantages[t] = delta + gamma * lambda * next_advantage;
        next_advantage = advantages[t];
    }
    Ok(advantages)
}

/// The response mask of each row: 1 where the policy chose the token (the response and its
/// EOS), 0 on the prompt, the padding and after the EOS.
pub fn response_mask(
    input_ids: &[Vec<i64>],
    prompt_lengths: &[usize],
    pad_token_id: i64,
    eos_token_id: i64,
) -> Result<Vec<Vec<f64>>> {
    check_len("prompt_lengths", prompt_lengths.len(), input_ids.len())?;
    let mut masks = Vec::with_capacity(input_ids.len());
    for (row, &prompt_length) in input_ids.iter().zip(prompt_lengths) {
        let mut mask = vec![0.0; row.len().saturating_sub(1)];
        let mut active = true;
        for k in 0..mask.len() {
            let token = row[k];
            if k < prompt_length || token == pad_token_id || !active {
                continue;
            }
            mask[k] = 1.0;
            if token == eos_token_id {
                active = false;
            }
        }
        masks.push(mask);
    }
    Ok(masks)
}

/// Exercise 31's buffer: episode A truncated by the time limit at record 1, episode B from
/// record 2 on, cut by the buffer's edge at record 3.
pub const BUFFER_REWARDS: [f64; 4] = [1.0, 1.0, 1.0, 1.0];
pub const BUFFER_VALUES: [f64; 4] = [5.0, 4.0, 2.0, 3.0];
/// V(final observation) at the truncation (record 1) and V after the buffer (record 3).
pub const BUFFER_BOOTSTRAP: [f64; 4] = [0.0, 4.5, 0.0, 3.5];
pub const BUFFER_TERMINATED: [bool; 4] = [false; 4];
pub const BUFFER_TRUNCATED: [bool; 4] = [false, true, false, false];
pub const BUFFER_GAMMA: f64 = 0.9;
pub const BUFFER_LAMBDA: f64 = 0.8;

/// Exercise 32's row and its prompt length (BOS included).
pub const SHIFT_ROW: [i64; 8] = [1, 14, 15, 31, 32, 33, TOKEN_EOS, TOKEN_PAD];
pub const SHIFT_PROMPT: usize = 3;

/// Exercise 33's row from a tokenizer whose PAD is its EOS, and its prompt length.
pub const SAME_ID: i64 = TOKEN_EOS;
pub const SAME_ROW: [i64; 8] = [1, 14, 15, 31, 32, SAME_ID, SAME_ID, SAME_ID];
pub const SAME_PROMPT: usize = 3;

pub(super) fn add(all: &mut BTreeMap<usize, Exercise>) -> Result<()> {
    all.insert(31, forgotten_truncation()?);
    all.insert(32, unshifted_mask()?);
    all.insert(33, pad_is_eos()?);
    Ok(())
}

/// 31: the advantages the function returns, against the two masks' right ones.
fn forgotten_truncation() -> Result<Exercise> {
    let got = gae_from_flags(
        &BUFFER_REWARDS,
        &BUFFER_VALUES,
        &BUFFER_BOOTSTRAP,
        &BUFFER_TERMINATED,
        &BUFFER_TRUNCATED,
        BUFFER_GAMMA,
        BUFFER_LAMBDA,
    )?;
    let n = BUFFER_REWARDS.len();
    let mut next_values: Vec<f64> = BUFFER_VALUES[1..].to_vec();
    next_values.push(0.0);
    for t in 0..n {
        if BUFFER_TRUNCATED[t] || t + 1 == n {
            next_values[t] = BUFFER_BOOTSTRAP[t];
        }
    }
    let cuts: Vec<bool> = (0..n)
        .map(|t| BUFFER_TERMINATED[t] || BUFFER_TRUNCATED[t] || t + 1 == n)
        .collect();
    let right = rl::gae_advantages(
        &BUFFER_REWARDS,
        &BUFFER_VALUES,
        &next_values,
        &BUFFER_TERMINATED,
        &cuts,
        BUFFER_GAMMA,
        BUFFER_LAMBDA,
    )?;
    let deltas = rl::td_errors(
        &BUFFER_REWARDS,
        &BUFFER_VALUES,
        &next_values,
        &BUFFER_TERMINATED,
        BUFFER_GAMMA,
    )?;
    Ok(numbers(
        got,
        &[
            ("rewards", BUFFER_REWARDS.to_vec()),
            ("values", BUFFER_VALUES.to_vec()),
            ("bootstrap_values", BUFFER_BOOTSTRAP.to_vec()),
            ("terminated", bits(&BUFFER_TERMINATED)),
            ("truncated", bits(&BUFFER_TRUNCATED)),
            ("gamma", vec![BUFFER_GAMMA]),
            ("lambda", vec![BUFFER_LAMBDA]),
        ],
    )
    .with_mistake(
        right.clone(),
        "Это преимущества правильной GAE, а функция ошибается: проверьте, где она обрывает рекурсию. Запись 1 усечена, следующая запись — начало другого эпизода.",
    )
    .with_solution("deltas", deltas)
    .with_solution("right", right))
}

/// 32: the mask the function returns for one row, against the right (label) coordinates.
fn unshifted_mask() -> Result<Exercise> {
    let got = response_mask(&[SHIFT_ROW.to_vec()], &[SHIFT_PROMPT], TOKEN_PAD, TOKEN_EOS)?;
    let ids = aview2(&[SHIFT_ROW]);
    let right = rl::response_token_mask(ids, aview1(&[SHIFT_PROMPT]), TOKEN_PAD, TOKEN_EOS, true)?;
    let right = right.row(0).to_vec();
    Ok(numbers(
        got[0].clone(),
        &[
            ("input_ids", SHIFT_ROW.iter().map(|&x| x as f64).collect()),
            ("prompt_length", vec![SHIFT_PROMPT as f64]),
        ],
    )
    .with_mistake(
        right.clone(),
        "Это правильная маска в координатах меток, а функция ошибается: посмотрите, какой токен она проверяет в столбце k и какую метку этот столбец оценивает.",
    )
    .with_solution("right", right))
}

/// 33: the project's mask with PAD = EOS, against the mask a check by position gives.
fn pad_is_eos() -> Result<Exercise> {
    let ids = aview2(&[SAME_ROW]);
    let lengths = [SAME_PROMPT];
    let got = rl::response_token_mask(ids, aview1(&lengths), SAME_ID, SAME_ID, true)?;
    // By position: the first EOS after the prompt ends the response (and is in the mask).
    let mut right = vec![0.0; SAME_ROW.len() - 1];
    for pos in SAME_PROMPT..SAME_ROW.len() {
        right[pos - 1] = 1.0;
        if SAME_ROW[pos] == SAME_ID {
            break;
        }
    }
    Ok(numbers(
        got.row(0).to_vec(),
        &[
            ("input_ids", SAME_ROW.iter().map(|&x| x as f64).collect()),
            ("prompt_length", vec![SAME_PROMPT as f64]),
            ("token_id", vec![SAME_ID as f64]),
        ],
    )
    .with_mistake(
        right.clone(),
        "Так выглядела бы маска, если бы функция узнавала EOS по позиции. Но она сначала спрашивает «не заполнение ли это?» — а при PAD = EOS ответ «да» и для сгенерированного EOS.",
    )
    .with_solution("right", right))
}
