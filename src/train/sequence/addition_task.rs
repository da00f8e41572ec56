//! The addition task (lesson «R1-Zero во вкладке»): the prompt is a sum of two numbers of
//! 1 to 4 digits, the response may hold any working digits, then the answer marker `#` and
//! the sum, then `<eos>`. Only what follows the marker is judged (a 0/1 verifier), so the
//! length of a response can change under RL while its reward depends on its answer alone.
//!
//! Vocabulary (token id → text):
//!
//! | id | 0 | 1 | 2 | 3 | 4 | 5 | 6 … 15 |
//! |----|---|---|---|---|---|---|--------|
//! | text | `<pad>` | `<bos>` | `<eos>` | `+` | `=` | `#` | `0` … `9` |
//!
//! A prompt of level L is `<bos> a + b =` with both operands of L digits (level 1: 0–9). The
//! demonstrations SFT learns from are `# s <eos>` or, with working, the digits of the sum
//! from the lowest up (the order a carry travels), then `# s <eos>`. One prompt in five —
//! chosen by a hash of the operands, the same for every seed — is held out: training and SFT
//! never draw it, the evaluations draw only those.

use super::task::{Verdict, BOS, EOS};
use crate::rng::{self, Rng};

/// `+` between the operands.
pub const PLUS: i64 = 3;
/// `=` ends the prompt.
pub const EQUALS: i64 = 4;
/// The answer marker: the verifier reads the sum after it.
pub const MARKER: i64 = 5;
/// The digit `0`; `0`…`9` are ids 6…15.
pub const FIRST_DIGIT: i64 = 6;
/// Size of the input vocabulary.
pub const VOCAB_SIZE: usize = 16;
/// Actions: the ten digits, the marker and `<eos>`.
pub const NUM_ACTIONS: usize = 12;
/// Levels 1..=MAX_LEVEL: the digits of each operand.
pub const MAX_LEVEL: usize = 4;
/// Longest prompt: `<bos>`, two operands, `+`, `=`.
pub const MAX_PROMPT_LENGTH: usize = 2 * MAX_LEVEL + 3;
/// Longest direct answer: `#`, the sum's MAX_LEVEL + 1 digits, `<eos>`.
pub const MAX_ANSWER_LENGTH: usize = MAX_LEVEL + 3;
/// Longest demonstration with working: the sum's digits lowest first, then the answer.
pub const MAX_WORKED_LENGTH: usize = MAX_LEVEL + 1 + MAX_ANSWER_LENGTH;
/// One prompt in HELD_OUT_EVERY is held out for evaluation.
pub const HELD_OUT_EVERY: u64 = 5;
/// The evaluations' fixed prompts are drawn from this seed (the same for every run).
const HELD_OUT_SEED: u64 = 0x5EED_AD01;

const TOKEN_TEXT: [&str; 6] = ["<pad>", "<bos>", "<eos>", "+", "=", "#"];

/// The token of action `action`: the digits, then `#`, then `<eos>`.
pub fn action_token(action: usize) -> i64 {
    match action {
        0..=9 => FIRST_DIGIT + action as i64,
        10 => MARKER,
        _ => EOS,
    }
}

/// The action that emits `token`, if the policy can emit it.
pub fn token_action(token: i64) -> Option<usize> {
    match token {
        t if (FIRST_DIGIT..FIRST_DIGIT + 10).contains(&t) => Some((t - FIRST_DIGIT) as usize),
        MARKER => Some(10),
        EOS => Some(11),
        _ => None,
    }
}

/// Text of one token; ids outside the vocabulary print as `<?id>`.
pub fn token_text(token: i64) -> String {
    match usize::try_from(token) {
        Ok(i) if i < TOKEN_TEXT.len() => TOKEN_TEXT[i].to_string(),
        Ok(i) if i < VOCAB_SIZE => (i - FIRST_DIGIT as usize).to_string(),
        _ => format!("<?{token}>"),
    }
}

/// Smallest and one past the largest operand of `level` digits (level 1 includes 0).
pub fn operand_range(level: usize) -> (u64, u64) {
    let top = 10u64.pow(level as u32);
    (if level == 1 { 0 } else { top / 10 }, top)
}

/// Whether the prompt `a + b` is held out for evaluation: a fixed hash of the operands.
pub fn is_held_out(a: u64, b: u64) -> bool {
    // SplitMix64's finaliser: every bit of the pair moves the result.
    let mut z = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % HELD_OUT_EVERY == 0
}

fn digits(x: u64) -> Vec<i64> {
    x.to_string()
        .bytes()
        .map(|d| FIRST_DIGIT + i64::from(d - b'0'))
        .collect()
}

/// The prompt `<bos> a + b =`.
pub fn prompt_tokens(a: u64, b: u64) -> Vec<i64> {
    let mut tokens = vec![BOS];
    tokens.extend(digits(a));
    tokens.push(PLUS);
    tokens.extend(digits(b));
    tokens.push(EQUALS);
    tokens
}

/// The operands of a prompt, if it is one of this task's.
pub fn operands(prompt: &[i64]) -> Option<(u64, u64)> {
    let body = prompt.strip_prefix(&[BOS])?.strip_suffix(&[EQUALS])?;
    let plus = body.iter().position(|&t| t == PLUS)?;
    Some((number(&body[..plus])?, number(&body[plus + 1..])?))
}

/// The number a run of digit tokens spells (no leading zero unless it is `0`).
fn number(tokens: &[i64]) -> Option<u64> {
    if tokens.is_empty() || tokens.len() > 6 || (tokens.len() > 1 && tokens[0] == FIRST_DIGIT) {
        return None;
    }
    tokens.iter().try_fold(0u64, |acc, &t| {
        let d = t - FIRST_DIGIT;
        (0..10).contains(&d).then(|| acc * 10 + d as u64)
    })
}

/// Index of a prompt among all prompts: lower levels first, then `a`, then `b`.
pub fn prompt_index(level: usize, a: u64, b: u64) -> usize {
    let before: u64 = (1..level)
        .map(|l| {
            let (lo, hi) = operand_range(l);
            (hi - lo) * (hi - lo)
        })
        .sum();
    let (lo, hi) = operand_range(level);
    (before + (a - lo) * (hi - lo) + (b - lo)) as usize
}

fn draw_operands(rng: &mut Rng, level: usize) -> (u64, u64) {
    let (lo, hi) = operand_range(level);
    let span = (hi - lo) as usize;
    let a = lo + rng::below(rng, span) as u64;
    let b = lo + rng::below(rng, span) as u64;
    (a, b)
}

/// A training prompt of `level` (0-based): uniform operands, drawn again while held out.
pub fn draw_training(rng: &mut Rng, level: usize) -> (u64, u64) {
    loop {
        let (a, b) = draw_operands(rng, level + 1);
        if !is_held_out(a, b) {
            return (a, b);
        }
    }
}

/// A held-out prompt of `level` (0-based), uniform among them.
pub fn draw_held_out(rng: &mut Rng, level: usize) -> (u64, u64) {
    loop {
        let (a, b) = draw_operands(rng, level + 1);
        if is_held_out(a, b) {
            return (a, b);
        }
    }
}

/// The evaluations' fixed held-out prompts of `level` (0-based): up to `count` distinct ones,
/// the same for every run (level 1 has only 15).
pub fn held_out_prompts(level: usize, count: usize) -> Vec<(u64, u64)> {
    let (lo, hi) = operand_range(level + 1);
    let mut rng = rng::seeded(HELD_OUT_SEED + level as u64);
    let mut out = Vec::with_capacity(count);
    if (hi - lo) * (hi - lo) <= 10_000 {
        // Small levels: every held-out prompt in a seeded order, the first `count`.
        let mut all: Vec<(u64, u64)> = (lo..hi)
            .flat_map(|a| (lo..hi).map(move |b| (a, b)))
            .filter(|&(a, b)| is_held_out(a, b))
            .collect();
        rng::shuffle(&mut rng, &mut all);
        all.truncate(count);
        return all;
    }
    while out.len() < count {
        let pair = draw_held_out(&mut rng, level);
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    out
}

/// A demonstration: the response SFT learns from. With `worked`, the sum's digits from the
/// lowest up come first (a carry travels that way), then the answer.
pub fn demonstration(a: u64, b: u64, worked: bool) -> Vec<i64> {
    let sum = digits(a + b);
    let mut response = Vec::with_capacity(2 * sum.len() + 2);
    if worked {
        response.extend(sum.iter().rev());
    }
    response.push(MARKER);
    response.extend(&sum);
    response.push(EOS);
    response
}

/// Whether a response has the answer's form: an `<eos>`, before it one `#`, after the `#` a
/// number.
pub fn well_formed(response: &[i64]) -> bool {
    answer(response).is_some()
}

fn answer(response: &[i64]) -> Option<u64> {
    let end = response.iter().position(|&t| t == EOS)?;
    let body = &response[..end];
    let marker = body.iter().position(|&t| t == MARKER)?;
    number(&body[marker + 1..])
}

/// The verifier: reward 1 when the number after the first `#` (and before `<eos>`) is the
/// sum, else 0. Working tokens before the `#` are not judged; no `<eos>` is wrong.
///
/// ```
/// use pgbook::train::sequence::addition_task::{demonstration, prompt_tokens, verify};
/// let prompt = prompt_tokens(47, 38);
/// assert!(verify(&prompt, &demonstration(47, 38, false)).correct);
/// assert!(verify(&prompt, &demonstration(47, 38, true)).correct);
/// assert_eq!(verify(&prompt, &demonstration(47, 39, false)).reward, 0.0);
/// ```
pub fn verify(prompt: &[i64], response: &[i64]) -> Verdict {
    let right = operands(prompt).map(|(a, b)| a + b);
    Verdict::binary(right.is_some() && answer(response) == right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_one_prompt_in_five_is_held_out_and_training_never_draws_one() {
        for level in 1..=MAX_LEVEL {
            let (lo, hi) = operand_range(level);
            let step = ((hi - lo) / 90).max(1);
            let (mut held, mut all) = (0, 0);
            for a in (lo..hi).step_by(step as usize) {
                for b in (lo..hi).step_by(step as usize) {
                    held += usize::from(is_held_out(a, b));
                    all += 1;
                }
            }
            let share = held as f64 / all as f64;
            assert!((0.15..0.25).contains(&share), "level {level}: {share}");
        }
        let mut rng = rng::seeded(1);
        for level in 0..MAX_LEVEL {
            for _ in 0..200 {
                let (a, b) = draw_training(&mut rng, level);
                assert!(!is_held_out(a, b));
                assert_eq!(a.to_string().len(), level + 1);
            }
            let fixed = held_out_prompts(level, 16);
            assert_eq!(fixed, held_out_prompts(level, 16));
            assert!(fixed.iter().all(|&(a, b)| is_held_out(a, b)));
            // Level 1 has 100 prompts, 15 of them held out.
            assert_eq!(fixed.len(), if level == 0 { 15 } else { 16 });
        }
    }

    #[test]
    fn the_verifier_reads_the_number_after_the_marker() {
        let p = prompt_tokens(995, 7);
        assert_eq!(p.len(), 7);
        assert_eq!(operands(&p), Some((995, 7)));
        let d = |s: &str| -> Vec<i64> {
            s.bytes()
                .map(|c| match c {
                    b'#' => MARKER,
                    b'$' => EOS,
                    _ => FIRST_DIGIT + i64::from(c - b'0'),
                })
                .collect()
        };
        assert!(verify(&p, &d("#1002$")).correct);
        assert!(verify(&p, &d("2001#1002$")).correct);
        assert!(verify(&p, &d("99#1002$55")).correct);
        assert!(!verify(&p, &d("#1002")).correct, "no <eos>");
        assert!(!verify(&p, &d("#01002$")).correct, "a leading zero");
        assert!(!verify(&p, &d("#1002#$")).correct);
        assert!(!verify(&p, &d("1002$")).correct, "no marker");
        assert!(well_formed(&d("7#12$")) && !well_formed(&d("#$")));
        assert_eq!(demonstration(995, 7, true), d("2001#1002$"));
        assert_eq!(token_text(15), "9");
        assert_eq!(token_text(5), "#");
        for action in 0..NUM_ACTIONS {
            assert_eq!(token_action(action_token(action)), Some(action));
        }
        assert_eq!(prompt_index(1, 0, 0), 0);
        assert_eq!(prompt_index(2, 10, 10), 100);
    }
}
