//! The lessons' data: each module holds one lesson's inputs (the numbers its text states), its
//! worked examples and the analyses behind its figure. The page shows these numbers; none is
//! typed into the text.
//!
//! | module        | lesson                                   | figure              |
//! |---------------|------------------------------------------|---------------------|
//! | [`score`]     | 1, the log-derivative trick              | `plots::score`      |
//! | [`returns`]   | 2, reward-to-go and discounting          | —                   |
//! | [`baselines`] | 3, baselines from a constant to RLOO     | `plots::baselines`, `plots::bstar` |
//! | [`gae`]       | 4, GAE and the two masks                 | `plots::gae`        |
//! | [`clipping`]  | 5, the PPO ratio and clipping            | `plots::clipping`, `plots::drift` |
//! | [`tokens`]    | 7, shift, mask and reduction of tokens   | `plots::tokens`     |
//! | [`verifier`]  | 8, the sequence task's verifier          | —                   |
//! | [`attention`] | 8, the transformer policy's attention    | `plots::attention`  |
//! | [`grpo`]      | 9, GRPO and its corrections              | `plots::difficulty`, `plots::length_weights`, `plots::kl_estimators` |
//! | [`r1zero`]    | 10, R1-Zero in a tab: pass@k estimated | `plots::pass_at_k` |
//! | [`exercises`] | 11, the checkable exercises              | —                   |
//! | [`trainers`]  | 6 and 8, the profiles' settings quoted   | —                   |
//! | [`figures`]   | every live figure's parameters and its draw | all the above     |
//!
//! A lesson with a figure has `figure(…) -> Result<Figure<Numbers, plots::NAME::Data>>`: the
//! numbers the page shows beside the figure and everything the plot draws, computed here
//! (`plots` draws and computes nothing, and imports nothing from `lessons`), and the figure
//! described in words for readers who do not see it. Lessons 6 and 8
//! draw their trainers' reports (`train`), lesson 11's exercises reuse the worked examples.

pub mod attention;
pub mod baselines;
pub mod clipping;
pub mod code;
pub mod exercises;
pub mod figures;
pub mod gae;
pub mod grpo;
pub mod prepared;
pub mod r1zero;
pub mod returns;
pub mod score;
pub mod tokens;
pub mod trainers;
pub mod verifier;

use crate::Result;
use serde::Serialize;

/// One figure at one setting of its sliders.
#[derive(Debug, Clone)]
pub struct Figure<N, D> {
    /// What the page shows beside the figure (returned to JavaScript as is).
    pub numbers: N,
    /// What the plot draws.
    pub data: D,
    /// The figure in words: its text alternative and its table of key numbers.
    pub description: crate::text::Description,
}

/// All worked examples, keyed as the lessons' `data-worked` paths.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(hashmap_as_object))]
pub struct WorkedExamples {
    pub score: score::Score,
    pub returns: returns::Returns,
    pub bstar: baselines::BStar,
    pub rloo: baselines::Rloo,
    pub simulation: baselines::Simulation,
    pub simulation_exact: baselines::SimulationExact,
    pub gae: gae::Gae,
    pub ppo: clipping::Ppo,
    pub tokens: tokens::Tokens,
    pub verifier: verifier::Verifier,
    /// Lesson 9's figures at their starting positions.
    pub grpo: grpo::Worked,
    /// The trainers' profile settings lessons 6 and 8 quote.
    pub trainers: trainers::Trainers,
    /// The prepared comparisons' trainers, configurations, seeds and predictions, by block.
    pub prepared: std::collections::BTreeMap<&'static str, prepared::Prepared>,
    /// Lesson 10's checkable exercises by number (tolerances, options, given inputs); string
    /// keys, since a JS object's keys are strings.
    pub exercises: std::collections::BTreeMap<String, exercises::Exercise>,
    /// Constants of the core the lessons name (the time limit, token ids, the bandit).
    pub constants: Constants,
    /// Every live figure's parameters (the site build writes the pages' controls from it).
    pub figures: &'static [figures::FigureSpec],
}

/// Constants of the core that the lessons' text names.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Constants {
    /// CartPole-v1's time limit in steps (truncation).
    pub cartpole_max_steps: u32,
    /// The token example's padding and end-of-sequence ids.
    pub token_pad: i64,
    pub token_eos: i64,
    /// The token example's largest |new − old| log-probability difference (off the mask, where
    /// the example puts junk that must never reach `exp`).
    pub token_junk_log_ratio: f64,
    /// Lesson 3's bandit: logits θ and success probabilities q of its three actions.
    pub bandit_logits: [f64; 3],
    pub bandit_success: [f64; 3],
    /// The drift figure's Adam learning rate (lesson 5).
    pub drift_learning_rate: f64,
    /// Lesson 4's figure buffer: its records' flags and the steps the caption names.
    pub gae_buffer: GaeBuffer,
    /// How many prompts lesson 8's task has.
    pub sequence_prompts: usize,
}

/// The GAE figure's buffer as the page shows it before the reader changes a flag.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GaeBuffer {
    pub records: usize,
    pub terminated: Vec<bool>,
    pub trace_cuts: Vec<bool>,
    /// The true terminal, the time-limit truncation and the buffer's last record.
    pub terminal_step: usize,
    pub truncation_step: usize,
    pub last_step: usize,
}

fn token_junk_log_ratio() -> f64 {
    let ex = tokens::token_example();
    let rows = ex.new_log_probs.iter().zip(&ex.old_log_probs);
    rows.flat_map(|(new, old)| new.iter().zip(old).map(|(n, o)| (n - o).abs()))
        .fold(0.0, f64::max)
}

fn gae_buffer() -> GaeBuffer {
    let tr = gae::trajectory();
    let last_step = gae::RECORDS - 1;
    let terminal_step = tr.terminated.iter().position(|&t| t).unwrap_or(last_step);
    let truncation_step = (0..last_step)
        .find(|&t| tr.trace_cuts[t] && !tr.terminated[t])
        .unwrap_or(last_step);
    GaeBuffer {
        records: gae::RECORDS,
        terminated: tr.terminated,
        trace_cuts: tr.trace_cuts,
        terminal_step,
        truncation_step,
        last_step,
    }
}

/// Computes every worked example.
pub fn worked_examples() -> Result<WorkedExamples> {
    Ok(WorkedExamples {
        score: score::score()?,
        returns: returns::returns()?,
        bstar: baselines::bstar()?,
        rloo: baselines::rloo()?,
        simulation: baselines::simulation(8, 80_000, 2026)?,
        simulation_exact: baselines::simulation_exact(8),
        gae: gae::worked()?,
        ppo: clipping::ppo()?,
        tokens: tokens::tokens(0.2)?,
        verifier: verifier::verifier(),
        grpo: grpo::worked()?,
        trainers: trainers::trainers()?,
        prepared: prepared::prepared(),
        exercises: exercises::exercises()?
            .into_iter()
            .map(|(n, e)| (n.to_string(), e))
            .collect(),
        constants: Constants {
            cartpole_max_steps: crate::envs::cartpole::MAX_EPISODE_STEPS,
            sequence_prompts: crate::train::sequence::task::NUM_PROMPTS,
            token_pad: tokens::TOKEN_PAD,
            token_eos: tokens::TOKEN_EOS,
            token_junk_log_ratio: token_junk_log_ratio(),
            bandit_logits: crate::rl::BANDIT_LOGITS,
            bandit_success: crate::rl::BANDIT_SUCCESS,
            drift_learning_rate: clipping::DRIFT_LR,
            gae_buffer: gae_buffer(),
        },
        figures: figures::FIGURES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * (1.0 + b.abs())
    }

    #[test]
    fn the_lessons_numbers() {
        let w = worked_examples().unwrap();
        assert_eq!(w.gae.analysis.advantages, vec![8.0, 100.0]);
        assert!(close(w.gae.analysis.value_targets[0], 10.0));
        assert!(
            close(w.gae.analysis.single_done_advantages[0], -1.0),
            "{:?}",
            w.gae.analysis.single_done_advantages
        );
        assert!(close(w.rloo.ratio, 4.0 / 3.0));
        assert!(close(w.rloo.same_group_scale, 0.75));
        assert!(close(w.ppo.approx_kl, 0.14384103622589045));
        assert_eq!(
            (w.ppo.ratio_outside_fraction, w.ppo.active_clip_fraction),
            (1.0, 0.5)
        );
        // b*: (0.8·0.08·1 + 0.2·1.28·3) / (0.8·0.08 + 0.2·1.28) = 2.6 against V = 1.4.
        assert!(close(w.bstar.b_star, 2.6), "{}", w.bstar.b_star);
        assert!(close(w.bstar.value, 1.4));
        assert!(close(w.bstar.grad_norm_sq[0], 0.08) && close(w.bstar.grad_norm_sq[1], 1.28));
        assert_eq!(w.returns.reward_to_go, vec![1.5, 1.0, 2.0]);
        assert_eq!(w.returns.weights, vec![1.5, 0.5, 0.5]);
        assert!(w.score.grad_sum.abs() < 1e-15);
        assert!(close(w.tokens.token_mean, 0.530272250309676));
        assert!(close(w.tokens.sequence_mean, 0.3071333580473853));
        assert!(close(w.tokens.sequence_sum_mean, 1.32568062577419));
        assert_eq!(w.tokens.tokens_per_row, vec![3.0, 2.0]);
        assert!(w.simulation.z_same_vs_exact < -30.0);
        let json = serde_json::to_value(&w).unwrap();
        assert!(
            json["simulation"]["rloo_mean"].is_number(),
            "flattened paths stay as the lessons use them"
        );
        assert!(w.simulation.z_rloo.abs() < 4.0 && w.simulation.z_same.abs() < 4.0);
        let rewards: Vec<f64> = w.verifier.examples.iter().map(|e| e.reward).collect();
        assert_eq!(rewards, vec![1.0, 0.7, 0.4, 0.3, 0.5, 0.4, 0.0]);
        assert_eq!(w.verifier.examples[0].answer, "A C <eos>");
        assert!(w.verifier.examples[0].correct && !w.verifier.examples[1].correct);
    }

    #[test]
    fn every_figure_is_described_in_words_and_a_table() {
        use crate::text::check_shape;
        let descriptions = [
            score::figure([1.0, 0.0, -1.0], 2, 0.0, 10)
                .unwrap()
                .description,
            returns::figure([1.0, 0.0, 2.0], 0.5, 1)
                .unwrap()
                .description,
            baselines::bstar_figure(0.8, [1.0, 3.0])
                .unwrap()
                .description,
            baselines::figure(8, true).unwrap().description,
            gae::figure(0.9, 0.95, gae::Flags::default())
                .unwrap()
                .description,
            clipping::figure(0.2).unwrap().description,
            clipping::drift(0.2, 12).unwrap().description,
            tokens::figure(0.2, tokens::TokenOptions::default())
                .unwrap()
                .description,
            tokens::sequence_ratio_figure(1000, 0.01, 0.2)
                .unwrap()
                .description,
            grpo::difficulty_figure(8).unwrap().description,
            grpo::length_figure(2, 8, 8).unwrap().description,
            grpo::kl_figure(1.0).unwrap().description,
            r1zero::pass_at_k_figure(16, 0.05).unwrap().description,
        ];
        for d in &descriptions {
            check_shape(d);
            assert!(d.text.contains(','), "decimal commas: {}", d.text);
            let chars: Vec<char> = d.text.chars().collect();
            let point = chars
                .windows(3)
                .any(|w| w[0].is_ascii_digit() && w[1] == '.' && w[2].is_ascii_digit());
            assert!(!point, "no decimal points: {}", d.text);
        }
        // The text follows the settings: another ε, another sentence.
        assert_ne!(
            clipping::figure(0.1).unwrap().description.text,
            descriptions[5].text
        );
        assert!(descriptions[3].text.contains("z-нормировкой"));
    }
}
