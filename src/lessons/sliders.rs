//! Every figure slider's range, step and starting value, declared once. The site build writes
//! them into the pages' `<input type="range">` attributes (`{{sliders.NAME.min|raw}}`, …), so a
//! page cannot offer a position the figure rejects, and the starting values are the worked
//! examples' inputs where a figure starts from one.

use super::{attention, baselines, clipping, grpo, r1zero, score, tokens};
use serde::Serialize;
use std::collections::BTreeMap;

/// One slider: the page's `min`, `max`, `step` and starting `value`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub value: f64,
}

const fn slider(min: f64, max: f64, step: f64, value: f64) -> Slider {
    Slider {
        min,
        max,
        step,
        value,
    }
}

/// The sliders by name (`score_c`: lesson 1's figure, its offset c). Where a figure starts
/// from a worked example, its starting values are that example's inputs (checked below).
pub fn sliders() -> BTreeMap<&'static str, Slider> {
    BTreeMap::from([
        ("score_z0", slider(-3.0, 3.0, 0.1, 1.0)),
        (
            "attention_level",
            slider(
                1.0,
                crate::train::sequence::copy_task::MAX_LEVEL as f64,
                1.0,
                3.0,
            ),
        ),
        (
            "attention_sample",
            slider(1.0, attention::SAMPLES as f64, 1.0, 1.0),
        ),
        ("score_z1", slider(-3.0, 3.0, 0.1, 0.0)),
        ("score_z2", slider(-3.0, 3.0, 0.1, -1.0)),
        ("score_a", slider(0.0, 2.0, 1.0, 2.0)),
        ("score_c", slider(-100.0, 100.0, 1.0, 0.0)),
        (
            "score_n",
            slider(1.0, score::FIGURE_MAX_N as f64, 1.0, 10.0),
        ),
        ("returns_r0", slider(-3.0, 3.0, 0.5, 1.0)),
        ("returns_r1", slider(-3.0, 3.0, 0.5, 0.0)),
        ("returns_r2", slider(-3.0, 3.0, 0.5, 2.0)),
        ("returns_gamma", slider(0.0, 1.0, 0.01, 0.5)),
        ("returns_t", slider(0.0, 2.0, 1.0, 2.0)),
        ("bstar_p", slider(0.05, 0.95, 0.01, 0.8)),
        ("bstar_q0", slider(-3.0, 5.0, 0.1, 1.0)),
        ("bstar_q1", slider(-3.0, 5.0, 0.1, 3.0)),
        (
            "baselines_g",
            slider(2.0, baselines::MAX_GROUP as f64, 1.0, 8.0),
        ),
        ("gae_gamma", slider(0.0, 1.0, 0.01, 0.9)),
        (
            "difficulty_g",
            slider(2.0, grpo::MAX_GROUP as f64, 1.0, 8.0),
        ),
        (
            "length_short",
            slider(1.0, grpo::LENGTH_SLIDER_MAX as f64, 1.0, 2.0),
        ),
        (
            "length_long",
            slider(1.0, grpo::LENGTH_SLIDER_MAX as f64, 1.0, 6.0),
        ),
        (
            "length_max",
            slider(
                grpo::LENGTH_SLIDER_MAX as f64,
                grpo::MAX_LENGTH as f64,
                1.0,
                16.0,
            ),
        ),
        (
            "passk_n",
            slider(2.0, r1zero::MAX_SAMPLES as f64, 1.0, 16.0),
        ),
        ("passk_p", slider(0.01, r1zero::MAX_P, 0.01, 0.05)),
        ("kl_shift", slider(0.0, grpo::KL_MAX_SHIFT, 0.05, 1.0)),
        ("gae_lambda", slider(0.0, 1.0, 0.01, 0.95)),
        ("clip_eps", slider(0.05, 0.7, 0.01, 0.2)),
        ("drift_eps", slider(0.05, 0.5, 0.01, 0.2)),
        (
            "drift_steps",
            slider(1.0, clipping::DRIFT_MAX_STEPS as f64, 1.0, 40.0),
        ),
        (
            "seqratio_n",
            slider(1.0, tokens::SEQUENCE_MAX_LENGTH as f64, 1.0, 1000.0),
        ),
        ("seqratio_delta", slider(-0.05, 0.05, 0.001, 0.01)),
        ("seqratio_eps", slider(0.05, 0.5, 0.01, 0.2)),
        ("tokens_eps", slider(0.05, 0.5, 0.01, 0.2)),
        ("tokens_prompt", slider(1.0, 6.0, 1.0, 3.0)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures start from the worked examples the text computes.
    #[test]
    fn starting_values_are_the_worked_examples_inputs() {
        let s = sliders();
        let w = super::super::worked_examples().unwrap();
        let value = |name: &str| s[name].value;
        assert_eq!(
            [value("score_z0"), value("score_z1"), value("score_z2")].to_vec(),
            w.score.logits
        );
        assert_eq!(value("score_a") as usize, w.score.action);
        let r = [
            value("returns_r0"),
            value("returns_r1"),
            value("returns_r2"),
        ];
        assert_eq!(r.to_vec(), w.returns.rewards);
        assert_eq!(value("returns_gamma"), w.returns.gamma);
        assert!((value("bstar_p") - w.bstar.probs[0]).abs() < 1e-12);
        assert_eq!([value("bstar_q0"), value("bstar_q1")].to_vec(), w.bstar.q);
        assert_eq!(value("baselines_g") as usize, w.simulation.group_size);
        assert_eq!(value("gae_gamma"), w.gae.analysis.gamma);
        for name in ["clip_eps", "drift_eps", "seqratio_eps", "tokens_eps"] {
            assert_eq!(value(name), w.ppo.clip_epsilon, "{name}");
        }
        assert_eq!(value("tokens_prompt") as usize, w.tokens.prompt_lengths[0]);
        let g = &w.grpo;
        assert_eq!(value("difficulty_g") as usize, g.difficulty.group_size);
        let l = &g.lengths;
        let lengths = [
            value("length_short"),
            value("length_long"),
            value("length_max"),
        ];
        assert_eq!(
            lengths.map(|x| x as usize),
            [l.short_length, l.long_length, l.max_length]
        );
        assert_eq!(value("kl_shift"), g.kl.shift);
    }

    /// Every slider's range is a whole number of steps and holds its starting value, and the
    /// figures accept both ends of every range.
    #[test]
    fn every_slider_position_is_accepted_by_its_figure() {
        let s = sliders();
        for (name, sl) in &s {
            let steps = (sl.max - sl.min) / sl.step;
            assert!((steps - steps.round()).abs() < 1e-9, "{name}: {sl:?}");
            assert!(sl.min <= sl.value && sl.value <= sl.max, "{name}: {sl:?}");
        }
        for end in [|sl: &Slider| sl.min, |sl: &Slider| sl.max] {
            let z = [
                end(&s["score_z0"]),
                end(&s["score_z1"]),
                end(&s["score_z2"]),
            ];
            let n = end(&s["score_n"]) as usize;
            score::figure(z, end(&s["score_a"]) as usize, end(&s["score_c"]), n).unwrap();
            let r = [
                end(&s["returns_r0"]),
                end(&s["returns_r1"]),
                end(&s["returns_r2"]),
            ];
            let t = end(&s["returns_t"]) as usize;
            super::super::returns::figure(r, end(&s["returns_gamma"]), t).unwrap();
            baselines::bstar_figure(
                end(&s["bstar_p"]),
                [end(&s["bstar_q0"]), end(&s["bstar_q1"])],
            )
            .unwrap();
            baselines::figure(end(&s["baselines_g"]) as usize, true).unwrap();
            let flags = super::super::gae::Flags::default();
            super::super::gae::figure(end(&s["gae_gamma"]), end(&s["gae_lambda"]), flags).unwrap();
            clipping::figure(end(&s["clip_eps"])).unwrap();
            clipping::drift(end(&s["drift_eps"]), end(&s["drift_steps"]) as usize).unwrap();
            let n = end(&s["seqratio_n"]) as usize;
            tokens::sequence_ratio_figure(n, end(&s["seqratio_delta"]), end(&s["seqratio_eps"]))
                .unwrap();
            let opts = tokens::TokenOptions {
                first_prompt_length: end(&s["tokens_prompt"]) as usize,
                ..tokens::TokenOptions::default()
            };
            tokens::figure(end(&s["tokens_eps"]), opts).unwrap();
            grpo::difficulty_figure(end(&s["difficulty_g"]) as usize).unwrap();
            grpo::kl_figure(end(&s["kl_shift"])).unwrap();
            r1zero::pass_at_k_figure(end(&s["passk_n"]) as usize, end(&s["passk_p"])).unwrap();
            let n = end(&s["length_short"]) as usize;
            grpo::length_figure(
                n,
                end(&s["length_long"]) as usize,
                end(&s["length_max"]) as usize,
            )
            .unwrap();
        }
    }
}
