//! The toy task of lesson 8: a vocabulary, three prompts with one correct answer each, the
//! batch layout and the verifier.
//!
//! Vocabulary (token id → text):
//!
//! | id | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |
//! |----|---|---|---|---|---|---|---|---|---|---|
//! | text | `<pad>` | `<bos>` | `<eos>` | `q0` | `q1` | `q2` | `A` | `B` | `C` | `D` |
//!
//! Prompt class `c` is the two tokens `<bos> q<c>`; its correct response is a pair of symbols
//! followed by `<eos>`: `q0 → A C`, `q1 → B D`, `q2 → D A`. The policy emits only response
//! tokens — the four symbols and `<eos>` — so its action `i` is token [`Symbols::action_token`]`(i)`.

/// Padding: fills a row after the response.
pub const PAD: i64 = 0;
/// Beginning of sequence: the first token of every row.
pub const BOS: i64 = 1;
/// End of sequence: the policy emits it to stop.
pub const EOS: i64 = 2;
/// The three prompt tokens `q0, q1, q2`.
pub const PROMPT_TOKENS: [i64; 3] = [3, 4, 5];
/// The first symbol token (`A`); the symbols are `A..D` = ids 6..9.
pub const FIRST_SYMBOL: i64 = 6;
/// Number of symbols.
pub const NUM_SYMBOLS: usize = 4;
/// Size of the input vocabulary.
pub const VOCAB_SIZE: usize = 10;
/// Number of prompt classes.
pub const NUM_PROMPTS: usize = 3;
/// Number of actions the policy chooses from: the symbols and `<eos>`.
pub const NUM_ACTIONS: usize = NUM_SYMBOLS + 1;
/// Tokens of a prompt: `<bos> q<c>`.
pub const PROMPT_LENGTH: usize = 2;
/// Length of a correct response: two symbols and `<eos>`.
pub const ANSWER_LENGTH: usize = 3;
/// The correct symbol pair for each prompt class, as symbol indices (0 = `A`).
pub const ANSWERS: [[usize; 2]; NUM_PROMPTS] = [[0, 2], [1, 3], [3, 0]];

const TOKEN_TEXT: [&str; VOCAB_SIZE] = [
    "<pad>", "<bos>", "<eos>", "q0", "q1", "q2", "A", "B", "C", "D",
];

/// A vocabulary of special tokens, then `count` symbols from `first`, whose policy emits the
/// symbols and `<eos>` (the copy task's and this one's).
#[derive(Debug, Clone, Copy)]
pub struct Symbols {
    /// The first symbol's token.
    pub first: i64,
    /// How many symbols.
    pub count: usize,
    /// Every token's text, by id.
    pub text: &'static [&'static str],
}

impl Symbols {
    /// The token the policy's action `action` stands for: symbols first, `<eos>` last.
    pub fn action_token(&self, action: usize) -> i64 {
        if action < self.count {
            self.first + action as i64
        } else {
            EOS
        }
    }

    /// The action that emits `token`, or `None` for a token the policy cannot emit.
    pub fn token_action(&self, token: i64) -> Option<usize> {
        if token == EOS {
            Some(self.count)
        } else if (self.first..self.first + self.count as i64).contains(&token) {
            Some((token - self.first) as usize)
        } else {
            None
        }
    }

    /// Text of one token; ids outside the vocabulary print as `<?id>`.
    pub fn token_text(&self, token: i64) -> String {
        usize::try_from(token)
            .ok()
            .and_then(|i| self.text.get(i))
            .map_or_else(|| format!("<?{token}>"), |s| (*s).to_string())
    }
}

/// This task's symbols `A..D`.
pub const SYMBOLS: Symbols = Symbols {
    first: FIRST_SYMBOL,
    count: NUM_SYMBOLS,
    text: &TOKEN_TEXT,
};

/// A row of token ids as readable text, PAD left out: e.g. `<bos> q0 A C <eos>`.
pub fn decode(tokens: &[i64]) -> String {
    tokens
        .iter()
        .filter(|&&t| t != PAD)
        .map(|&t| SYMBOLS.token_text(t))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The correct response of prompt class `class` (two symbols and `<eos>`), as token ids.
pub fn correct_response(class: usize) -> [i64; ANSWER_LENGTH] {
    let [a, b] = ANSWERS[class % NUM_PROMPTS];
    [FIRST_SYMBOL + a as i64, FIRST_SYMBOL + b as i64, EOS]
}

/// One row of the batch layout: `<bos> q<c>`, the response, then PAD up to `total_len`.
pub fn layout_row(class: usize, response: &[i64], total_len: usize) -> Vec<i64> {
    let mut row = Vec::with_capacity(total_len);
    row.push(BOS);
    row.push(PROMPT_TOKENS[class % NUM_PROMPTS]);
    row.extend_from_slice(response);
    row.resize(total_len.max(row.len()), PAD);
    row
}

/// The verifier's judgement of one response.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// The reward, between −0.1·(max length − 2) and 1.
    pub reward: f64,
    /// Fully correct: exactly the right two symbols, then `<eos>`.
    pub correct: bool,
}

impl Verdict {
    /// A 0/1 verifier's verdict: reward 1 when correct, else 0 (the copy and addition tasks).
    pub fn binary(correct: bool) -> Self {
        Verdict {
            reward: if correct { 1.0 } else { 0.0 },
            correct,
        }
    }
}

/// Partial credits and penalty of [`verify`], in tenths (exact integer arithmetic; the reward
/// is `tenths / 10`). Credit for the correct first symbol:
pub const FIRST_SYMBOL_TENTHS: i32 = 3;
/// Credit for the correct second symbol, in tenths.
pub const SECOND_SYMBOL_TENTHS: i32 = 3;
/// Credit for `<eos>` right after two symbols, in tenths.
pub const STOP_TENTHS: i32 = 4;
/// Penalty per symbol beyond the second, in tenths.
pub const OVERLONG_TENTHS: i32 = 1;

/// The verifier: a dense reward that is not differentiable (it reads sampled tokens).
///
/// `response` is what the policy generated after the prompt: symbols, possibly ending with
/// `<eos>` (a response cut at the maximum length has no `<eos>`). With `(a, b)` the correct
/// pair of prompt class `class`:
///
/// - **+0.3** if the first response token is `a`;
/// - **+0.3** if the second response token is `b`;
/// - **+0.4** for stopping on time: `<eos>` is the third token, right after two symbols;
/// - **−0.1** for every symbol beyond the second (an overlong answer), stopped or not.
///
/// So `a b <eos>` earns exactly 1 and is the only fully correct answer; `a b` cut off
/// without `<eos>` earns 0.6, `a b c <eos>` 0.5, and `<eos>` alone 0. Tokens after the first
/// `<eos>` are ignored.
///
/// ```
/// use pgbook::train::sequence::task::{verify, EOS};
/// // q0 → A C: symbol ids A = 6, C = 8.
/// assert_eq!(verify(0, &[6, 8, EOS]).reward, 1.0);
/// assert_eq!(verify(0, &[6, 7, EOS]).reward, 0.7);
/// assert!(!verify(0, &[6, 8, 8, EOS]).correct);
/// ```
pub fn verify(class: usize, response: &[i64]) -> Verdict {
    let [a, b] = ANSWERS[class % NUM_PROMPTS];
    let (a, b) = (FIRST_SYMBOL + a as i64, FIRST_SYMBOL + b as i64);
    let end = response
        .iter()
        .position(|&t| t == EOS)
        .unwrap_or(response.len());
    let symbols = &response[..end];
    let stopped = end < response.len();
    let mut tenths = 0;
    if symbols.first() == Some(&a) {
        tenths += FIRST_SYMBOL_TENTHS;
    }
    if symbols.get(1) == Some(&b) {
        tenths += SECOND_SYMBOL_TENTHS;
    }
    if stopped && symbols.len() == 2 {
        tenths += STOP_TENTHS;
    }
    tenths -= OVERLONG_TENTHS * symbols.len().saturating_sub(2) as i32;
    Verdict {
        reward: f64::from(tenths) / 10.0,
        correct: stopped && symbols == [a, b],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_and_tokens_round_trip() {
        for a in 0..NUM_ACTIONS {
            assert_eq!(SYMBOLS.token_action(SYMBOLS.action_token(a)), Some(a));
        }
        assert_eq!(SYMBOLS.token_action(PAD), None);
        assert_eq!(SYMBOLS.token_action(PROMPT_TOKENS[0]), None);
    }

    #[test]
    fn layout_and_decoding() {
        let row = layout_row(2, &[9, 6, EOS], 7);
        assert_eq!(row, vec![BOS, 5, 9, 6, EOS, PAD, PAD]);
        assert_eq!(decode(&row), "<bos> q2 D A <eos>");
        assert_eq!(SYMBOLS.token_text(42), "<?42>");
    }
}
