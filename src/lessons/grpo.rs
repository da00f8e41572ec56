//! Lesson 9, GRPO and its corrections: the std's difficulty bias (the exact Bernoulli group
//! gradient per estimator), the implicit weight of a token under each reduction, and the three
//! KL estimators' mean and spread against how far the policy is from its reference.

use super::Figure;
use crate::error::{self as checks, Error, Rule};
use crate::rl::{self, AdvantageEstimator, KlEstimator, Reduction};
use crate::text::{num, Description, Table};
use crate::Result;
use serde::Serialize;

/// The largest group the difficulty figure takes: its cost grows as G² (at 64 the redraw p95
/// was 18 ms in Chromium here, over the 16 ms budget).
pub const MAX_GROUP: usize = 32;
/// The std's zero-variance guard, as the trainer's.
const STD_EPS: f64 = 1e-8;
/// Success probabilities on the difficulty figure's axis: 0.01 … 0.99.
const DIFFICULTY_POINTS: usize = 99;
/// The success probabilities the page's table quotes: a hard, a middling and an easy prompt.
pub const QUOTED_P: [f64; 3] = [0.05, 0.5, 0.95];

/// One estimator's ratio (expected gradient / true gradient) at the quoted probabilities.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct EstimatorRatios {
    pub estimator: &'static str,
    pub ratios: Vec<f64>,
}

/// The difficulty figure's numbers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Difficulty {
    pub group_size: usize,
    pub quoted_p: Vec<f64>,
    pub estimators: Vec<EstimatorRatios>,
    /// GRPO's (population std) ratio at p = 0.05 over its ratio at p = 0.5.
    pub grpo_hard_over_middle: f64,
}

/// The Russian name of an estimator as the lesson writes it.
pub fn estimator_label(e: AdvantageEstimator) -> &'static str {
    match e {
        AdvantageEstimator::None => "без опорного уровня",
        AdvantageEstimator::Mean => "среднее группы (Dr. GRPO)",
        AdvantageEstimator::Rloo => "RLOO",
        AdvantageEstimator::MeanStdPopulation => "GRPO, σ с делением на G",
        AdvantageEstimator::MeanStdSample => "GRPO, σ с делением на G − 1",
    }
}

fn check_group(group_size: usize) -> Result<()> {
    if !(2..=MAX_GROUP).contains(&group_size) {
        let rule = Rule::WholeNumber {
            min: 2,
            max: MAX_GROUP as u64,
        };
        return Err(Error::range("group_size", rule, group_size));
    }
    Ok(())
}

fn ratio(p: f64, group_size: usize, e: AdvantageEstimator) -> Result<f64> {
    let g = rl::bernoulli_group_gradient(p, group_size, e, STD_EPS)?;
    Ok(g.ratio.unwrap_or(f64::NAN))
}

/// The difficulty bias at group size G: each estimator's expected gradient over the true one,
/// against the success probability p.
pub fn difficulty_figure(
    group_size: usize,
) -> Result<Figure<Difficulty, crate::plots::difficulty::Data>> {
    check_group(group_size)?;
    let ps: Vec<f64> = (1..=DIFFICULTY_POINTS)
        .map(|i| i as f64 / (DIFFICULTY_POINTS + 1) as f64)
        .collect();
    let mut lines = Vec::new();
    let mut estimators = Vec::new();
    for e in AdvantageEstimator::ALL {
        let curve = ps
            .iter()
            .map(|&p| Ok((p, ratio(p, group_size, e)?)))
            .collect::<Result<Vec<_>>>()?;
        lines.push((estimator_label(e).to_string(), curve));
        let ratios = QUOTED_P
            .iter()
            .map(|&p| ratio(p, group_size, e))
            .collect::<Result<Vec<_>>>()?;
        estimators.push(EstimatorRatios {
            estimator: e.name(),
            ratios,
        });
    }
    let grpo = estimators[3].ratios.clone();
    let numbers = Difficulty {
        group_size,
        quoted_p: QUOTED_P.to_vec(),
        grpo_hard_over_middle: grpo[0] / grpo[1],
        estimators,
    };
    let mut table = Table::new(&["оцениватель", "p = 0,05", "p = 0,5", "p = 0,95"]);
    for (e, r) in AdvantageEstimator::ALL.iter().zip(&numbers.estimators) {
        let mut row = vec![estimator_label(*e).to_string()];
        row.extend(r.ratios.iter().map(|&x| num(x, 3)));
        table = table.row(row);
    }
    let text = format!(
        "Отношение ожидаемого градиента группы к истинному при G = {}: без опорного уровня и у \
         RLOO оно равно 1 при любом p, у среднего группы — {}, а у GRPO (деление на ст. откл., \
         посчитанное с делением на G) {} при p = 0,05 против {} при p = 0,5: трудный запрос весит в {} раза больше среднего.",
        group_size,
        num(numbers.estimators[1].ratios[1], 3),
        num(grpo[0], 2),
        num(grpo[1], 2),
        num(numbers.grpo_hard_over_middle, 2),
    );
    let data = crate::plots::difficulty::Data { group_size, lines };
    Ok(Figure {
        numbers,
        data,
        description: Description { text, table },
    })
}

/// The length figure's numbers: the weight of one token of each response under each reduction
/// (a batch of two responses), and the whole response's weight (the token's times its length).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LengthWeights {
    pub short_length: usize,
    pub long_length: usize,
    pub max_length: usize,
    pub reductions: Vec<ReductionWeights>,
}

/// One reduction's weights.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReductionWeights {
    pub reduction: &'static str,
    pub short_token: f64,
    pub long_token: f64,
    pub short_response: f64,
    pub long_response: f64,
}

/// The largest maximum length the length figure takes.
pub const MAX_LENGTH: usize = 64;
/// The length sliders end where the L slider starts: every position of the three is valid.
pub const LENGTH_SLIDER_MAX: usize = 16;

/// A batch of two responses of `short_length` and `long_length` tokens (each ≤ `max_length`,
/// Dr. GRPO's constant L): the implicit weight of each token under every reduction.
pub fn length_figure(
    short_length: usize,
    long_length: usize,
    max_length: usize,
) -> Result<Figure<LengthWeights, crate::plots::length_weights::Data>> {
    let within = |arg: &str, n: usize, hi: usize| -> Result<()> {
        if (1..=hi).contains(&n) {
            Ok(())
        } else {
            let rule = Rule::WholeNumber {
                min: 1,
                max: hi as u64,
            };
            Err(Error::range(arg, rule, n))
        }
    };
    within("max_length", max_length, MAX_LENGTH)?;
    within("short_length", short_length, max_length)?;
    within("long_length", long_length, max_length)?;
    let counts = [short_length as f64, long_length as f64];
    let total = counts[0] + counts[1];
    let reductions: Vec<ReductionWeights> = Reduction::EVERY
        .iter()
        .map(|&r| {
            let w = |n: f64| r.token_weight(n, total, 2, max_length);
            let (s, l) = (w(counts[0]), w(counts[1]));
            ReductionWeights {
                reduction: r.name(),
                short_token: s,
                long_token: l,
                short_response: s * counts[0],
                long_response: l * counts[1],
            }
        })
        .collect();
    let mut table = Table::new(&[
        "редукция",
        "вес токена (ответ 1)",
        "вес токена (ответ 2)",
        "вес ответа 1",
        "вес ответа 2",
    ]);
    for r in &reductions {
        table = table.row([
            r.reduction.to_string(),
            num(r.short_token, 4),
            num(r.long_token, 4),
            num(r.short_response, 3),
            num(r.long_response, 3),
        ]);
    }
    let seq = &reductions[1];
    let text = format!(
        "Ответы из {} и {} токенов, L = {}. При sequence_mean токен ответа 1 весит {}, ответа \
         2 — {}: у каждого ответа общий вес {}, а веса их токенов относятся как {} — обратно \
         длинам. При constant_length каждый токен весит {} при любой длине.",
        short_length,
        long_length,
        max_length,
        num(seq.short_token, 4),
        num(seq.long_token, 4),
        num(seq.short_response, 2),
        num(seq.short_token / seq.long_token, 2),
        num(reductions[3].short_token, 4),
    );
    let data = crate::plots::length_weights::Data {
        labels: Reduction::EVERY
            .iter()
            .map(|r| r.name().to_string())
            .collect(),
        short_length,
        long_length,
        weights: reductions
            .iter()
            .map(|r| (r.short_token, r.long_token))
            .collect(),
    };
    Ok(Figure {
        numbers: LengthWeights {
            short_length,
            long_length,
            max_length,
            reductions,
        },
        data,
        description: Description { text, table },
    })
}

/// The reference policy of the KL figure: a categorical over five tokens.
pub const KL_REFERENCE_LOGITS: [f64; 5] = [1.0, 0.5, 0.0, -0.5, -1.0];
/// The direction the current policy's logits move in: mass from the first token to the last.
pub const KL_DIRECTION: [f64; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];
/// The largest shift on the KL figure's axis.
pub const KL_MAX_SHIFT: f64 = 3.0;
const KL_POINTS: usize = 61;

/// One estimator at one shift: exact mean over tokens drawn from π_θ, its bias and spread.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct KlMoments {
    pub mean: f64,
    pub bias: f64,
    pub std: f64,
}

/// The KL figure's numbers at the chosen shift.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct KlFigure {
    pub shift: f64,
    /// KL(π_θ ‖ π_ref), exactly.
    pub kl: f64,
    pub k1: KlMoments,
    pub k2: KlMoments,
    pub k3: KlMoments,
    /// Each token's d = log π_θ − log π_ref and the three estimates of it.
    pub log_ratios: Vec<f64>,
    pub probs: Vec<f64>,
}

/// The KL and the three estimators at one shift, exactly.
#[derive(Debug, Clone)]
pub struct KlExact {
    pub kl: f64,
    /// k1, k2, k3.
    pub moments: [KlMoments; 3],
    /// Each token's d = log π_θ − log π_ref, and π_θ.
    pub log_ratios: Vec<f64>,
    pub probs: Vec<f64>,
}

/// KL(π_θ ‖ π_ref) and the three estimators' moments when π_θ's logits are the reference's
/// plus `shift` · [`KL_DIRECTION`]; exact sums over the five tokens, no sampling.
pub fn kl_moments(shift: f64) -> Result<KlExact> {
    let logits: Vec<f64> = KL_REFERENCE_LOGITS
        .iter()
        .zip(KL_DIRECTION)
        .map(|(z, d)| z + shift * d)
        .collect();
    let log_p = rl::log_softmax(&logits)?;
    let log_ref = rl::log_softmax(&KL_REFERENCE_LOGITS)?;
    let probs: Vec<f64> = log_p.iter().map(|&l| crate::math::exp(l)).collect();
    let d: Vec<f64> = log_p.iter().zip(&log_ref).map(|(a, b)| a - b).collect();
    let kl: f64 = probs.iter().zip(&d).map(|(p, d)| p * d).sum();
    let moments = KlEstimator::ALL.map(|e| {
        let mean: f64 = probs.iter().zip(&d).map(|(p, &d)| p * e.value(d)).sum();
        let var: f64 = probs
            .iter()
            .zip(&d)
            .map(|(p, &d)| p * (e.value(d) - mean) * (e.value(d) - mean))
            .sum();
        KlMoments {
            mean,
            bias: mean - kl,
            std: var.max(0.0).sqrt(),
        }
    });
    Ok(KlExact {
        kl,
        moments,
        log_ratios: d,
        probs,
    })
}

/// The KL figure at `shift`: the mean (left) and the spread (right) of k1, k2, k3 against the
/// shift, with the true KL and the chosen shift marked.
pub fn kl_figure(shift: f64) -> Result<Figure<KlFigure, crate::plots::kl_estimators::Data>> {
    checks::check_finite_scalar("shift", shift)?;
    checks::check_rule("shift", shift, Rule::between(0.0, KL_MAX_SHIFT))?;
    let mut kl_curve = Vec::with_capacity(KL_POINTS);
    let mut means = vec![Vec::new(); 3];
    let mut stds = vec![Vec::new(); 3];
    for i in 0..KL_POINTS {
        let s = KL_MAX_SHIFT * i as f64 / (KL_POINTS - 1) as f64;
        let KlExact { kl, moments: m, .. } = kl_moments(s)?;
        kl_curve.push((s, kl));
        for k in 0..3 {
            means[k].push((s, m[k].mean));
            stds[k].push((s, m[k].std));
        }
    }
    let KlExact {
        kl,
        moments: [k1, k2, k3],
        log_ratios,
        probs,
    } = kl_moments(shift)?;
    let mut table = Table::new(&["оценка", "среднее", "смещение", "ст. откл."]);
    for (name, m) in [("k1", k1), ("k2", k2), ("k3", k3)] {
        table = table.row([
            name.to_string(),
            num(m.mean, 4),
            num(m.bias, 4),
            num(m.std, 4),
        ]);
    }
    let text = format!(
        "Сдвиг логитов {}: KL = {}. Среднее k1 и k3 равно KL (смещение 0), k2 смещена на {}; \
         разброс по одному токену: k1 {}, k2 {}, k3 {}.",
        num(shift, 2),
        num(kl, 4),
        num(k2.bias, 4),
        num(k1.std, 4),
        num(k2.std, 4),
        num(k3.std, 4),
    );
    let data = crate::plots::kl_estimators::Data {
        shift,
        kl_curve,
        means,
        stds,
    };
    Ok(Figure {
        numbers: KlFigure {
            shift,
            kl,
            k1,
            k2,
            k3,
            log_ratios,
            probs,
        },
        data,
        description: Description { text, table },
    })
}

/// The lesson's numbers: each figure at its starting position, and the constants it names.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Worked {
    pub difficulty: Difficulty,
    pub lengths: LengthWeights,
    pub kl: KlFigure,
    pub kl_reference_logits: [f64; 5],
    pub kl_direction: [f64; 5],
}

/// The figures at the sliders' starting values (G = 8; lengths 2 and 6 of L = 16; shift 1).
pub fn worked() -> Result<Worked> {
    Ok(Worked {
        difficulty: difficulty_figure(8)?.numbers,
        lengths: length_figure(2, 6, 16)?.numbers,
        kl: kl_figure(1.0)?.numbers,
        kl_reference_logits: KL_REFERENCE_LOGITS,
        kl_direction: KL_DIRECTION,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rloo_and_no_baseline_are_unbiased_and_grpo_favours_hard_prompts() {
        let f = difficulty_figure(8).unwrap();
        for (_, curve) in &f.data.lines[..1] {
            assert!(curve.iter().all(|&(_, r)| (r - 1.0).abs() < 1e-9));
        }
        assert!(f.data.lines[2]
            .1
            .iter()
            .all(|&(_, r)| (r - 1.0).abs() < 1e-9));
        assert!(f.data.lines[1]
            .1
            .iter()
            .all(|&(_, r)| (r - 7.0 / 8.0).abs() < 1e-9));
        assert!(f.numbers.grpo_hard_over_middle > 1.3);
        let wider = difficulty_figure(16).unwrap().numbers.grpo_hard_over_middle;
        assert!(
            wider > f.numbers.grpo_hard_over_middle,
            "the bias grows with G"
        );
        assert!(difficulty_figure(1).is_err() && difficulty_figure(MAX_GROUP + 1).is_err());
    }

    #[test]
    fn sequence_mean_favours_short_tokens_and_constant_length_does_not() {
        let f = length_figure(2, 8, 8).unwrap();
        let r = &f.numbers.reductions;
        assert!(
            (r[1].short_token - 0.25).abs() < 1e-12 && (r[1].long_token - 1.0 / 16.0).abs() < 1e-12
        );
        assert_eq!(r[0].short_token, r[0].long_token);
        assert_eq!(r[3].short_token, r[3].long_token);
        assert!((r[3].short_token - 1.0 / 16.0).abs() < 1e-12);
        assert!(length_figure(2, 9, 8).is_err() && length_figure(0, 2, 8).is_err());
    }

    #[test]
    fn k1_and_k3_are_unbiased_k2_is_not() {
        let at_zero = kl_moments(0.0).unwrap();
        assert!(at_zero.kl.abs() < 1e-15 && at_zero.moments.iter().all(|m| m.std < 1e-15));
        let f = kl_figure(1.0).unwrap();
        let n = &f.numbers;
        assert!(n.kl > 0.0 && n.k1.bias.abs() < 1e-12 && n.k3.bias.abs() < 1e-12);
        assert!(n.k2.bias.abs() > 1e-3);
        assert!(n.k3.std < n.k1.std, "k3 spreads less than k1 here");
        assert!(kl_figure(-0.1).is_err() && kl_figure(f64::NAN).is_err());
    }
}
