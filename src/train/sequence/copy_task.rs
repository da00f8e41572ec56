//! The copy task: the prompt is a string of symbols, the correct response is the same string
//! followed by `<eos>`. The answer depends on what the prompt says (there are 120 prompts, no
//! class to memorise), the prompt's length is its difficulty level (a random policy copies one
//! symbol 1 time in 16 and four symbols 1 time in 1024), and a response may run on past the
//! right length up to the maximum, so length biases of the loss can show.
//!
//! Vocabulary (token id → text):
//!
//! | id | 0 | 1 | 2 | 3 | 4 | 5 | 6 |
//! |----|---|---|---|---|---|---|---|
//! | text | `<pad>` | `<bos>` | `<eos>` | `=` | `a` | `b` | `c` |
//!
//! A prompt of level L is `<bos> s₁ … s_L =`; its correct response `s₁ … s_L <eos>`. The policy
//! emits the three symbols and `<eos>`.

use super::task::{Symbols, Verdict, BOS, EOS, PAD};
use crate::rng::{self, Rng};

/// Ends the prompt: "now repeat".
pub const SEP: i64 = 3;
/// The first symbol token (`a`).
pub const FIRST_SYMBOL: i64 = 4;
/// Number of symbols.
pub const NUM_SYMBOLS: usize = 3;
/// Size of the input vocabulary.
pub const VOCAB_SIZE: usize = 7;
/// Actions: the symbols and `<eos>`.
pub const NUM_ACTIONS: usize = NUM_SYMBOLS + 1;
/// Levels 1..=MAX_LEVEL: the number of symbols to copy.
pub const MAX_LEVEL: usize = 4;
/// Longest prompt: `<bos>`, MAX_LEVEL symbols, `=`.
pub const MAX_PROMPT_LENGTH: usize = MAX_LEVEL + 2;
/// Longest correct response: MAX_LEVEL symbols and `<eos>`.
pub const MAX_ANSWER_LENGTH: usize = MAX_LEVEL + 1;

const TOKEN_TEXT: [&str; VOCAB_SIZE] = ["<pad>", "<bos>", "<eos>", "=", "a", "b", "c"];

/// The task's symbols `a..c` (actions: symbols first, `<eos>` last).
pub const SYMBOLS: Symbols = Symbols {
    first: FIRST_SYMBOL,
    count: NUM_SYMBOLS,
    text: &TOKEN_TEXT,
};

/// The prompt `<bos> s₁ … s_L =` of the symbol indices `symbols`.
pub fn prompt_tokens(symbols: &[usize]) -> Vec<i64> {
    let mut tokens = Vec::with_capacity(symbols.len() + 2);
    tokens.push(BOS);
    tokens.extend(symbols.iter().map(|&s| FIRST_SYMBOL + s as i64));
    tokens.push(SEP);
    tokens
}

/// Index of a prompt among all prompts, shorter first, then by its symbols in base 3.
pub fn prompt_index(symbols: &[usize]) -> usize {
    let shorter: usize = (1..symbols.len()).map(|l| NUM_SYMBOLS.pow(l as u32)).sum();
    shorter + symbols.iter().fold(0, |acc, &s| acc * NUM_SYMBOLS + s)
}

/// Draws a prompt of `level` symbols, each uniform.
pub fn draw_symbols(rng: &mut Rng, level: usize) -> Vec<usize> {
    (0..level).map(|_| rng::below(rng, NUM_SYMBOLS)).collect()
}

/// The fixed prompt of each level that the greedy answers show: `a`, `b a`, `c b a`, `a c b a`.
pub fn showcase_symbols(level: usize) -> Vec<usize> {
    (0..level)
        .map(|i| (level + NUM_SYMBOLS - 1 - i % NUM_SYMBOLS) % NUM_SYMBOLS)
        .collect()
}

/// The verifier: reward 1 for exactly the prompt's symbols followed by `<eos>`, else 0.
/// Tokens after the first `<eos>` are ignored; a response cut at the maximum length without
/// `<eos>` is wrong.
///
/// ```
/// use pgbook::train::sequence::copy_task::{prompt_tokens, verify};
/// use pgbook::train::sequence::task::EOS;
/// let prompt = prompt_tokens(&[0, 2]); // <bos> a c =
/// assert!(verify(&prompt, &[4, 6, EOS]).correct);
/// assert_eq!(verify(&prompt, &[4, 6, 6, EOS]).reward, 0.0);
/// ```
pub fn verify(prompt: &[i64], response: &[i64]) -> Verdict {
    let symbols: Vec<i64> = prompt
        .iter()
        .copied()
        .filter(|&t| t != BOS && t != SEP && t != PAD)
        .collect();
    let end = response.iter().position(|&t| t == EOS);
    Verdict::binary(end.is_some_and(|end| response[..end] == symbols[..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_are_indexed_one_to_one() {
        let mut seen = std::collections::BTreeSet::new();
        for level in 1..=MAX_LEVEL {
            for code in 0..NUM_SYMBOLS.pow(level as u32) {
                let symbols: Vec<usize> = (0..level)
                    .map(|i| code / NUM_SYMBOLS.pow((level - 1 - i) as u32) % NUM_SYMBOLS)
                    .collect();
                assert!(seen.insert(prompt_index(&symbols)));
            }
        }
        assert_eq!(seen.len(), 120);
        assert_eq!(*seen.iter().next_back().unwrap(), 119);
        assert_eq!(showcase_symbols(4), vec![0, 2, 1, 0]);
    }
}
