//! Lesson 7: autoregressive answers — the two-row token batch after the causal shift, its
//! response mask, token ratios and clipped terms, and the three reductions.

use super::Figure;
use crate::plots::tokens::{Data, TokenKind};
use crate::rl::{self, Grid, Reduction};
use crate::text::{list, num, yes_no, Description, Table};
use crate::{math, Result};
use ndarray::aview1;
use serde::Serialize;

/// The token example at one clip range.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Tokens {
    pub input_ids: Vec<Vec<i64>>,
    pub prompt_lengths: Vec<usize>,
    pub advantages: Vec<f64>,
    /// The log-probabilities the ratios come from (junk off the mask, on purpose).
    pub old_log_probs: Grid,
    pub new_log_probs: Grid,
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
        old_log_probs: ex.old_log_probs,
        new_log_probs: ex.new_log_probs,
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
    let description = describe(&tk);
    Ok(Figure {
        numbers: tk,
        data,
        description,
    })
}

/// The token figure in words: the mask per row, the reductions, and every label's numbers.
fn describe(tk: &Tokens) -> Description {
    let reductions: Vec<String> = tk
        .reductions
        .iter()
        .map(|(name, value)| format!("{name} {}", num(*value, 4)))
        .collect();
    let text = format!(
        "При ε = {}: токенов в маске ответа по строкам {}; отношения последовательностей {}. \
         Цели трёх редукций: {}.",
        num(tk.clip_epsilon, 2),
        list(&tk.tokens_per_row, 0),
        list(&tk.sequence_ratio, 3),
        reductions.join("; "),
    );
    let name = |id: i64| match id {
        TOKEN_PAD => "PAD".to_string(),
        TOKEN_EOS => "EOS".to_string(),
        1 => "BOS".to_string(),
        id => id.to_string(),
    };
    let mut table = Table::new(&[
        "строка",
        "k",
        "метка input_ids[k + 1]",
        "в маске",
        "r",
        "min(r·A; clip(r)·A)",
    ]);
    for (b, row) in tk.input_ids.iter().enumerate() {
        for k in 0..tk.mask[b].len() {
            let masked = tk.mask[b][k] > 0.0;
            let shown = |x: f64| if masked { num(x, 3) } else { "—".to_string() };
            table = table.row([
                b.to_string(),
                k.to_string(),
                name(row[k + 1]),
                yes_no(masked).to_string(),
                shown(tk.ratio[b][k]),
                shown(tk.pessimistic[b][k]),
            ]);
        }
    }
    Description { text, table }
}

/// Longest answer on the sequence-ratio figure's axis.
pub const SEQUENCE_MAX_LENGTH: usize = 2000;
/// Largest per-token |log-ratio| the figure takes.
pub const SEQUENCE_MAX_DELTA: f64 = 0.1;

/// What the sequence-ratio figure shows: every masked token's log-ratio moved by `delta`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SequenceRatio {
    pub length: usize,
    pub delta: f64,
    pub clip_epsilon: f64,
    /// Each token's ratio e^δ.
    pub token_ratio: f64,
    /// ln ρ_b = n·δ and ρ_b = e^{nδ}.
    pub log_ratio: f64,
    pub ratio: f64,
    /// ρ_b as the text writes it (a power of ten past a million).
    pub ratio_text: String,
    /// The shortest answer whose ratio leaves [1 − ε, 1 + ε] (none when δ = 0), and as the
    /// caption says it.
    pub leaves_at: Option<usize>,
    pub leaves_text: String,
}

/// A ratio as the text writes it: decimals near 1, whole numbers, then a power of ten.
fn ratio_text(x: f64) -> String {
    if x < 100.0 {
        crate::text::decimal(x, 3)
    } else if x < 1e6 {
        let digits = format!("{x:.0}");
        // Thousands apart with a thin space, as Russian typesetting does.
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push('\u{202F}');
            }
            out.push(c);
        }
        out
    } else {
        let exponent = math::ln(x) / math::ln(10.0);
        let whole = exponent.floor();
        let mantissa = math::pow(10.0, exponent - whole);
        const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
        let power: String = (whole as i64)
            .to_string()
            .bytes()
            .map(|b| match b {
                b'0'..=b'9' => SUPERSCRIPTS[usize::from(b - b'0')],
                _ => '⁻',
            })
            .collect();
        format!("{}·10{power}", crate::text::decimal(mantissa, 1))
    }
}

/// The figure at length `length`, per-token log-ratio `delta` and clip range `clip_epsilon`:
/// ρ_b = e^{nδ} leaves the band 1 ± ε once n·|δ| passes |ln(1 ± ε)|, whatever small δ is.
pub fn sequence_ratio_figure(
    length: usize,
    delta: f64,
    clip_epsilon: f64,
) -> Result<Figure<SequenceRatio, crate::plots::sequence_ratio::Data>> {
    use crate::error::{self as checks, Rule};
    if !(1..=SEQUENCE_MAX_LENGTH).contains(&length) {
        let rule = Rule::between(1.0, SEQUENCE_MAX_LENGTH as f64);
        return Err(crate::Error::range("length", rule, length));
    }
    checks::check_finite_scalar("delta", delta)?;
    checks::check_rule(
        "delta",
        delta,
        Rule::between(-SEQUENCE_MAX_DELTA, SEQUENCE_MAX_DELTA),
    )?;
    checks::check_clip_epsilon(clip_epsilon)?;
    let band = (math::ln(1.0 - clip_epsilon), math::ln(1.0 + clip_epsilon));
    let n = length as f64;
    let log_ratio = n * delta;
    let ratio = math::exp(log_ratio);
    // The first whole n with n·δ past the band's edge on δ's side.
    let edge = if delta > 0.0 { band.1 } else { band.0 };
    let leaves_at = (delta != 0.0).then(|| (edge / delta).floor() as usize + 1);
    let x_hi = (2 * length).clamp(100, SEQUENCE_MAX_LENGTH) as f64;
    let curve = (0..=200)
        .map(|i| {
            let x = x_hi * i as f64 / 200.0;
            (x, x * delta)
        })
        .collect();
    let numbers = SequenceRatio {
        length,
        delta,
        clip_epsilon,
        token_ratio: math::exp(delta),
        log_ratio,
        ratio,
        ratio_text: ratio_text(ratio),
        leaves_at,
        leaves_text: match leaves_at {
            Some(m) => format!("n = {m}"),
            None => "ни одна длина: при δ = 0 отношение ответа равно 1".to_string(),
        },
    };
    let data = crate::plots::sequence_ratio::Data {
        clip_epsilon,
        length,
        log_ratio,
        ratio_label: numbers.ratio_text.clone(),
        curve,
        band,
        leaves_at: leaves_at.filter(|&m| (m as f64) <= x_hi),
    };
    let text = format!(
        "При длине ответа n = {length} каждый токен сдвинул логарифм отношения на δ = {} (отношение токена {}): \
         ln ρ_b = {}, ρ_b = {}. {}",
        num(delta, 3),
        num(numbers.token_ratio, 4),
        num(log_ratio, 2),
        numbers.ratio_text,
        match leaves_at {
            Some(m) => format!("Полосу [1 − ε; 1 + ε] при ε = {} отношение ответа покидает с длины {m}.", num(clip_epsilon, 2)),
            None => "При δ = 0 отношение ответа остаётся равным 1.".to_string(),
        }
    );
    let mut table = Table::new(&["n", "ln ρ_b = n·δ", "ρ_b", "в полосе 1 ± ε"]);
    let lengths: std::collections::BTreeSet<usize> =
        [1, 10, 100, length, SEQUENCE_MAX_LENGTH].into();
    for m in lengths {
        let (l, r) = (m as f64 * delta, math::exp(m as f64 * delta));
        table = table.row([
            m.to_string(),
            num(l, 3),
            ratio_text(r),
            yes_no((1.0 - clip_epsilon..=1.0 + clip_epsilon).contains(&r)).to_string(),
        ]);
    }
    Ok(Figure {
        numbers,
        data,
        description: Description { text, table },
    })
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

    #[test]
    fn a_product_of_ratios_near_one_leaves_the_band() {
        let f = sequence_ratio_figure(1000, 0.01, 0.2).unwrap();
        assert!((f.numbers.log_ratio - 10.0).abs() < 1e-12);
        assert!((f.numbers.ratio - 22026.465794806718).abs() < 1e-6);
        assert_eq!(f.numbers.ratio_text, "22\u{202F}026");
        // ln 1.2 / 0.01 = 18.23…: the 19th token takes the answer out of the band.
        assert_eq!(f.numbers.leaves_at, Some(19));
        assert_eq!(
            sequence_ratio_figure(10, -0.05, 0.2)
                .unwrap()
                .numbers
                .leaves_at,
            Some(5)
        );
        assert_eq!(
            sequence_ratio_figure(10, 0.0, 0.2)
                .unwrap()
                .numbers
                .leaves_at,
            None
        );
        assert_eq!(ratio_text(math::exp(0.1 * 2000.0)), "7,2·10⁸⁶");
        crate::text::check_shape(&f.description);
        assert!(sequence_ratio_figure(0, 0.01, 0.2).is_err());
        assert!(sequence_ratio_figure(10, 0.5, 0.2)
            .unwrap_err()
            .to_string()
            .contains("delta"));
        assert!(sequence_ratio_figure(10, f64::NAN, 0.2).is_err());
        let svg = crate::plots::to_svg(760, 360, |a| {
            crate::plots::sequence_ratio::draw(a, &f.data, &crate::plots::Theme::default())
        })
        .unwrap();
        assert!(svg.contains("n = 1000") && svg.contains("полоса 1 ± ε"));
    }

    #[test]
    fn the_band_takes_at_least_a_fifth_of_the_axis_whatever_the_length() {
        for (length, delta, eps) in [
            (1000, 0.01, 0.2),
            (10, 0.001, 0.2),
            (2000, -0.05, 0.1),
            (5, 0.0, 0.3),
        ] {
            let f = sequence_ratio_figure(length, delta, eps).unwrap();
            let d = &f.data;
            let reach = crate::plots::sequence_ratio::y_reach(d);
            let share = (d.band.1 - d.band.0) / (2.0 * reach);
            assert!(
                share >= 0.2,
                "n = {length}, δ = {delta}: the band is {share:.3} of the axis"
            );
        }
    }
}
