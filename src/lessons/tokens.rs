//! Lesson 7: autoregressive answers — the two-row token batch after the causal shift, its
//! response mask, token ratios and clipped terms, and the three reductions.

use super::Figure;
use crate::plots::tokens::{Data, TokenKind};
use crate::rl::{self, Grid, Reduction};
use crate::{math, Result};
use ndarray::aview1;
use serde::Serialize;

/// The token example at one clip range.
#[derive(Debug, Clone, Serialize)]
pub struct Tokens {
    pub input_ids: Vec<Vec<i64>>,
    pub prompt_lengths: Vec<usize>,
    pub advantages: Vec<f64>,
    pub clip_epsilon: f64,
    pub mask: Grid,
    pub mask_without_eos: Grid,
    /// The first row's labels input_ids[0][1..] above its mask: column k of the mask belongs
    /// to the label input_ids[0][k + 1] (lesson 8 shows the alignment).
    pub first_row_alignment: Grid,
    pub ratio: Grid,
    pub unclipped: Grid,
    pub pessimistic: Grid,
    pub tokens_per_row: Vec<f64>,
    pub sequence_log_ratio: Vec<f64>,
    pub sequence_ratio: Vec<f64>,
    pub token_mean: f64,
    pub sequence_mean: f64,
    pub sequence_sum_mean: f64,
    /// Every reduction by name with its objective, in [`Reduction::ALL`]'s order (the page
    /// lists them from here).
    pub reductions: Vec<(String, f64)>,
}

/// The token example's inputs (PAD = 0, EOS = 2). Off-mask log-probs hold large junk on
/// purpose: it must never reach `exp`.
pub struct TokenExample {
    pub input_ids: Vec<Vec<i64>>,
    pub prompt_lengths: Vec<usize>,
    pub old_log_probs: Grid,
    pub new_log_probs: Grid,
    pub advantages: Vec<f64>,
}

/// PAD token of the token example.
pub const TOKEN_PAD: i64 = 0;
/// EOS token of the token example.
pub const TOKEN_EOS: i64 = 2;

/// The lesson's two-row token batch.
pub fn token_example() -> TokenExample {
    TokenExample {
        input_ids: vec![vec![1, 10, 11, 20, 21, 2, 0], vec![1, 12, 30, 2, 0, 0, 0]],
        prompt_lengths: vec![3, 2],
        old_log_probs: vec![
            vec![-9.0, -8.0, -1.0, -1.2, -0.8, -20.0],
            vec![-7.0, -0.7, -0.9, -30.0, -40.0, -50.0],
        ],
        new_log_probs: vec![
            vec![9.0, 8.0, -0.7, -1.5, -0.9, 20.0],
            vec![7.0, -0.5, -1.2, 30.0, 40.0, 50.0],
        ],
        advantages: vec![1.5, -0.8],
    }
}

/// What the token figure's switches change in the example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenOptions {
    /// The first row's prompt length (BOS included).
    pub first_prompt_length: usize,
    /// Whether the generated EOS is in the mask (the right choice).
    pub include_eos: bool,
    /// The deliberate bug: the mask built in token coordinates (column k ↔ input_ids[k])
    /// instead of label coordinates (column k ↔ input_ids[k + 1]).
    pub off_by_one: bool,
}

impl Default for TokenOptions {
    fn default() -> Self {
        TokenOptions {
            first_prompt_length: 3,
            include_eos: true,
            off_by_one: false,
        }
    }
}

/// The token example at clip range `clip_epsilon`.
pub fn tokens(clip_epsilon: f64) -> Result<Tokens> {
    tokens_with(clip_epsilon, TokenOptions::default())
}

/// The token example at clip range `clip_epsilon` with the figure's switches `opts`.
pub fn tokens_with(clip_epsilon: f64, opts: TokenOptions) -> Result<Tokens> {
    let mut ex = token_example();
    let t = ex.input_ids[0].len();
    if !(1..t).contains(&opts.first_prompt_length) {
        let rule = crate::error::Rule::between(1.0, (t - 1) as f64);
        return Err(crate::Error::range(
            "prompt_length",
            rule,
            opts.first_prompt_length,
        ));
    }
    ex.prompt_lengths[0] = opts.first_prompt_length;
    let ids = rl::array2("input_ids", &ex.input_ids)?;
    let lengths = aview1(&ex.prompt_lengths);
    let mut mask =
        rl::response_token_mask(ids.view(), lengths, TOKEN_PAD, TOKEN_EOS, opts.include_eos)?;
    if opts.off_by_one {
        // Column k takes what belongs to column k − 1: every kept label moves one to the right.
        for mut row in mask.rows_mut() {
            for k in (1..row.len()).rev() {
                row[k] = row[k - 1];
            }
            row[0] = 0.0;
        }
    }
    let mask_without_eos =
        rl::response_token_mask(ids.view(), lengths, TOKEN_PAD, TOKEN_EOS, false)?;
    let new = rl::array2("new_log_probs", &ex.new_log_probs)?;
    let old = rl::array2("old_log_probs", &ex.old_log_probs)?;
    let advantages = aview1(&ex.advantages);
    let terms = rl::masked_token_ppo_terms(
        new.view(),
        old.view(),
        advantages,
        mask.view(),
        clip_epsilon,
    )?;
    let sequence_log_ratio =
        rl::sequence_log_probability_ratio(new.view(), old.view(), mask.view())?;
    let objective = |r| {
        rl::masked_token_ppo_objective(
            new.view(),
            old.view(),
            advantages,
            mask.view(),
            clip_epsilon,
            r,
        )
    };
    let first_row_alignment = vec![
        ex.input_ids[0][1..].iter().map(|&id| id as f64).collect(),
        mask.row(0).to_vec(),
    ];
    Ok(Tokens {
        first_row_alignment,
        tokens_per_row: mask
            .rows()
            .into_iter()
            .map(|row| row.iter().sum())
            .collect(),
        sequence_ratio: sequence_log_ratio.iter().map(|&x| math::exp(x)).collect(),
        sequence_log_ratio: sequence_log_ratio.to_vec(),
        reductions: Reduction::ALL
            .into_iter()
            .map(|r| Ok((r.name().to_string(), objective(r)?)))
            .collect::<Result<_>>()?,
        token_mean: objective(Reduction::TokenMean)?,
        sequence_mean: objective(Reduction::SequenceMean)?,
        sequence_sum_mean: objective(Reduction::SequenceSumMean)?,
        input_ids: ex.input_ids,
        prompt_lengths: ex.prompt_lengths,
        advantages: ex.advantages,
        clip_epsilon,
        mask: rl::rows(mask.view()),
        mask_without_eos: rl::rows(mask_without_eos.view()),
        ratio: rl::rows(terms.ratio.view()),
        unclipped: rl::rows(terms.unclipped.view()),
        pessimistic: rl::rows(terms.pessimistic.view()),
    })
}

/// What each label input_ids[k + 1] of one row is, as the figure names it.
fn label_kinds(row: &[i64], prompt_length: usize) -> Vec<TokenKind> {
    let mut stopped = false;
    row.iter()
        .enumerate()
        .skip(1)
        .map(|(j, &id)| {
            let kind = if j < prompt_length {
                TokenKind::Prompt
            } else if id == TOKEN_PAD {
                TokenKind::Pad
            } else if stopped {
                TokenKind::AfterEos
            } else if id == TOKEN_EOS {
                TokenKind::Eos
            } else {
                TokenKind::Response
            };
            stopped |= j >= prompt_length && id == TOKEN_EOS;
            kind
        })
        .collect()
}

/// The figure at ε with the switches `opts`: the example's numbers and, per label position,
/// what the plot draws.
pub fn figure(clip_epsilon: f64, opts: TokenOptions) -> Result<Figure<Tokens, Data>> {
    let tk = tokens_with(clip_epsilon, opts)?;
    let data = Data {
        clip_epsilon,
        // Column k predicts the label input_ids[b][k + 1] (the causal shift).
        labels: tk
            .input_ids
            .iter()
            .zip(&tk.prompt_lengths)
            .map(|(row, &prompt)| label_kinds(row, prompt))
            .collect(),
        mask: tk.mask.clone(),
        ratio: tk.ratio.clone(),
        unclipped: tk.unclipped.clone(),
        pessimistic: tk.pessimistic.clone(),
        advantages: tk.advantages.clone(),
    };
    Ok(Figure { numbers: tk, data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn draws_and_changes_with_epsilon() {
        let draw = |eps| {
            let f = figure(eps, TokenOptions::default())?;
            plots::to_svg(760, 340, |a| {
                plots::tokens::draw(a, &f.data, &Theme::default())
            })
        };
        let svg = |eps| draw(eps).unwrap();
        assert_ne!(svg(0.2), svg(0.4));
        assert!(svg(0.2).contains("вне маски"));
        assert!(draw(1.0).is_err());
    }

    #[test]
    fn the_figure_names_tokens_and_indices_in_the_texts_typography() {
        let f = figure(0.2, TokenOptions::default()).unwrap();
        use TokenKind::*;
        assert_eq!(
            f.data.labels[0],
            [Prompt, Prompt, Response, Response, Eos, Pad]
        );
        assert_eq!(f.data.labels[1], [Prompt, Response, Eos, Pad, Pad, Pad]);
        let svg = plots::to_svg(760, 320, |a| {
            plots::tokens::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        for text in ["запрос", "EOS", "PAD", "k = 5", "A = −0,8", "A = 1,5"] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(
            !svg.contains("\n20\n") && !svg.contains("\n0.8\n"),
            "raw ids or decimal points"
        );
        assert_eq!(
            f.numbers.first_row_alignment[0],
            [10.0, 11.0, 20.0, 21.0, 2.0, 0.0]
        );
        assert_eq!(f.numbers.first_row_alignment[1], f.numbers.mask[0]);
    }

    #[test]
    fn the_switches_move_the_mask() {
        let at = |opts| figure(0.2, opts).unwrap().numbers;
        let right = at(TokenOptions::default());
        let no_eos = at(TokenOptions {
            include_eos: false,
            ..TokenOptions::default()
        });
        assert_eq!(right.mask[0], [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]);
        assert_eq!(no_eos.mask[0], [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
        let shifted = at(TokenOptions {
            off_by_one: true,
            ..TokenOptions::default()
        });
        // The bug keeps the PAD label and drops the first answer token.
        assert_eq!(shifted.mask[0], [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        assert!(shifted.token_mean.is_finite() && shifted.token_mean != right.token_mean);
        let longer = at(TokenOptions {
            first_prompt_length: 4,
            ..TokenOptions::default()
        });
        assert_eq!(longer.mask[0], [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        for bad in [0, 7] {
            let opts = TokenOptions {
                first_prompt_length: bad,
                ..TokenOptions::default()
            };
            assert!(figure(0.2, opts).is_err(), "{bad}");
        }
    }
}
