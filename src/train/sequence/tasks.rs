//! The tasks a sequence run can train on, behind one interface: lesson 8's three prompts
//! ([`task`]), the copy task ([`copy_task`]) and the addition task ([`addition_task`]), whose
//! prompts span difficulty levels.

use super::task::Verdict;
use super::{addition_task as add, copy_task, task};
use crate::rng::{self, Rng};

crate::choice! {
    /// Which task a run trains on.
    pub enum TaskKind, parse crate::error::Name::Task {
        /// Lesson 8: three prompts, one correct answer each, partial credit.
        ThreePrompts = "three_prompts",
        /// Repeat the prompt's symbols (1 to 4 of them), then `<eos>`; reward 1 or 0.
        Copy = "copy",
        /// Add two numbers of 1 to 4 digits: working tokens, `#`, the sum, `<eos>`; reward 1 or 0
        /// on the sum after `#`; one prompt in five held out for evaluation.
        Addition = "addition",
    }
}

/// One prompt of a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// Its tokens, `<bos>` first.
    pub tokens: Vec<i64>,
    /// Its difficulty level, 0-based (three prompts: the prompt class; copy: length − 1).
    pub level: usize,
    /// Its index among the task's prompts.
    pub class: usize,
}

impl TaskKind {
    /// Size of the input vocabulary.
    pub fn vocab_size(self) -> usize {
        match self {
            TaskKind::ThreePrompts => task::VOCAB_SIZE,
            TaskKind::Copy => copy_task::VOCAB_SIZE,
            TaskKind::Addition => add::VOCAB_SIZE,
        }
    }

    /// Number of actions (tokens the policy can emit).
    pub fn num_actions(self) -> usize {
        match self {
            TaskKind::ThreePrompts => task::NUM_ACTIONS,
            TaskKind::Copy => copy_task::NUM_ACTIONS,
            TaskKind::Addition => add::NUM_ACTIONS,
        }
    }

    /// The token of action `action`.
    pub fn action_token(self, action: usize) -> i64 {
        match self {
            TaskKind::ThreePrompts => task::SYMBOLS.action_token(action),
            TaskKind::Copy => copy_task::SYMBOLS.action_token(action),
            TaskKind::Addition => add::action_token(action),
        }
    }

    /// The action that emits `token`.
    pub fn token_action(self, token: i64) -> Option<usize> {
        match self {
            TaskKind::ThreePrompts => task::SYMBOLS.token_action(token),
            TaskKind::Copy => copy_task::SYMBOLS.token_action(token),
            TaskKind::Addition => add::token_action(token),
        }
    }

    /// A row of tokens as text, PAD left out.
    pub fn decode(self, tokens: &[i64]) -> String {
        tokens
            .iter()
            .filter(|&&t| t != task::PAD)
            .map(|&t| match self {
                TaskKind::ThreePrompts => task::SYMBOLS.token_text(t),
                TaskKind::Copy => copy_task::SYMBOLS.token_text(t),
                TaskKind::Addition => add::token_text(t),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Longest prompt, `<bos>` included.
    pub fn max_prompt_len(self) -> usize {
        match self {
            TaskKind::ThreePrompts => task::PROMPT_LENGTH,
            TaskKind::Copy => copy_task::MAX_PROMPT_LENGTH,
            TaskKind::Addition => add::MAX_PROMPT_LENGTH,
        }
    }

    /// Longest correct response, `<eos>` included: the least `max_response_len`.
    pub fn max_answer_len(self) -> usize {
        match self {
            TaskKind::ThreePrompts => task::ANSWER_LENGTH,
            TaskKind::Copy => copy_task::MAX_ANSWER_LENGTH,
            TaskKind::Addition => add::MAX_ANSWER_LENGTH,
        }
    }

    /// Number of difficulty levels (three prompts: one per prompt).
    pub fn levels(self) -> usize {
        match self {
            TaskKind::ThreePrompts => task::NUM_PROMPTS,
            TaskKind::Copy => copy_task::MAX_LEVEL,
            TaskKind::Addition => add::MAX_LEVEL,
        }
    }

    /// Prompts per iteration: lesson 8 always answers its three; the copy task draws
    /// `count` (a uniform level, then uniform symbols) from `rng`.
    pub fn iteration_prompts(self, rng: &mut Rng, count: usize) -> Vec<Prompt> {
        match self {
            TaskKind::ThreePrompts => (0..task::NUM_PROMPTS).map(Self::lesson_prompt).collect(),
            TaskKind::Copy => (0..count)
                .map(|_| {
                    let level = rng::below(rng, copy_task::MAX_LEVEL);
                    Self::copy_prompt(&copy_task::draw_symbols(rng, level + 1))
                })
                .collect(),
            TaskKind::Addition => (0..count)
                .map(|_| {
                    let level = rng::below(rng, add::MAX_LEVEL);
                    Self::addition_prompt(level, add::draw_training(rng, level))
                })
                .collect(),
        }
    }

    /// A prompt of `level` for evaluation (the copy task draws its symbols from `rng`; the
    /// addition task one of its held-out prompts).
    pub fn eval_prompt(self, level: usize, rng: &mut Rng) -> Prompt {
        match self {
            TaskKind::ThreePrompts => Self::lesson_prompt(level),
            TaskKind::Copy => Self::copy_prompt(&copy_task::draw_symbols(rng, level + 1)),
            TaskKind::Addition => Self::addition_prompt(level, add::draw_held_out(rng, level)),
        }
    }

    /// The fixed prompts of `level` that pass@k is estimated on, the same for every run:
    /// `count` held-out prompts (the addition task; fewer where the level has fewer), `count`
    /// copy prompts drawn from a fixed seed, lesson 8's one prompt.
    pub fn evaluation_prompts(self, level: usize, count: usize) -> Vec<Prompt> {
        match self {
            TaskKind::ThreePrompts => vec![Self::lesson_prompt(level)],
            TaskKind::Copy => {
                let mut rng = rng::seeded(0xC0_9E + level as u64);
                (0..count)
                    .map(|_| Self::copy_prompt(&copy_task::draw_symbols(&mut rng, level + 1)))
                    .collect()
            }
            TaskKind::Addition => add::held_out_prompts(level, count)
                .into_iter()
                .map(|pair| Self::addition_prompt(level, pair))
                .collect(),
        }
    }

    /// One fixed prompt per level, whose greedy answers the run shows.
    pub fn showcase(self) -> Vec<Prompt> {
        (0..self.levels())
            .map(|level| match self {
                TaskKind::ThreePrompts => Self::lesson_prompt(level),
                TaskKind::Copy => Self::copy_prompt(&copy_task::showcase_symbols(level + 1)),
                TaskKind::Addition => {
                    let pair = add::held_out_prompts(level, 1)[0];
                    Self::addition_prompt(level, pair)
                }
            })
            .collect()
    }

    /// The verifier's judgement of `response` to `prompt`.
    pub fn verify(self, prompt: &Prompt, response: &[i64]) -> Verdict {
        match self {
            TaskKind::ThreePrompts => task::verify(prompt.class, response),
            TaskKind::Copy => copy_task::verify(&prompt.tokens, response),
            TaskKind::Addition => add::verify(&prompt.tokens, response),
        }
    }

    /// Whether `response` has the answer's form (the format reward's test): the addition
    /// task's `# number <eos>`; the other tasks' any response that ends with `<eos>`.
    pub fn well_formed(self, response: &[i64]) -> bool {
        match self {
            TaskKind::Addition => add::well_formed(response),
            _ => response.contains(&task::EOS),
        }
    }

    /// Longest demonstration SFT may show, `<eos>` included (with working, for addition).
    pub fn max_worked_len(self) -> usize {
        match self {
            TaskKind::Addition => add::MAX_WORKED_LENGTH,
            _ => self.max_answer_len(),
        }
    }

    /// A demonstration SFT learns from: the correct response to `prompt`; the addition task's
    /// with its working when `worked`.
    pub fn demonstration(self, prompt: &Prompt, worked: bool) -> Vec<i64> {
        match self {
            TaskKind::Addition => match add::operands(&prompt.tokens) {
                Some((a, b)) => add::demonstration(a, b, worked),
                None => vec![task::EOS],
            },
            _ => self.correct_row(prompt)[prompt.tokens.len()..].to_vec(),
        }
    }

    /// The prompt followed by its correct response, as token ids.
    pub fn correct_row(self, prompt: &Prompt) -> Vec<i64> {
        let mut row = prompt.tokens.clone();
        match self {
            TaskKind::ThreePrompts => row.extend(task::correct_response(prompt.class)),
            TaskKind::Copy => {
                row.extend(prompt.tokens[1..prompt.tokens.len() - 1].iter().copied());
                row.push(task::EOS);
            }
            TaskKind::Addition => row.extend(self.demonstration(prompt, false)),
        }
        row
    }

    fn lesson_prompt(class: usize) -> Prompt {
        Prompt {
            tokens: vec![task::BOS, task::PROMPT_TOKENS[class % task::NUM_PROMPTS]],
            level: class,
            class,
        }
    }

    fn addition_prompt(level: usize, (a, b): (u64, u64)) -> Prompt {
        Prompt {
            tokens: add::prompt_tokens(a, b),
            level,
            class: add::prompt_index(level + 1, a, b),
        }
    }

    fn copy_prompt(symbols: &[usize]) -> Prompt {
        Prompt {
            tokens: copy_task::prompt_tokens(symbols),
            level: symbols.len() - 1,
            class: copy_task::prompt_index(symbols),
        }
    }
}
