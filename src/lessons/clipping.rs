//! Lesson 5: the PPO ratio and clipping. Four worked rows (r ∈ {1.5, 0.5}, A = ±1) and the
//! per-sample objective min(r·A, clip(r, 1−ε, 1+ε)·A) against r for the figure.

use super::Figure;
use crate::plots::clipping::{Data, Marker, Panel};
use crate::rl::{self, ClippedTerms, PpoDiagnostics};
use crate::text::{list, num, yes_no, Description, Table};
use crate::{math, Result};
use serde::Serialize;

/// Ratios of the four worked rows (A = +1, +1, −1, −1).
pub const FOUR_ROWS_RATIO: [f64; 4] = [1.5, 0.5, 1.5, 0.5];
/// Advantages of the four worked rows: clipping is active in rows 1 and 4 only.
pub const FOUR_ROWS_ADVANTAGE: [f64; 4] = [1.0, 1.0, -1.0, -1.0];

/// The four rows at a given ε: their terms and the batch diagnostics.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FourRows {
    /// The clip range used.
    pub clip_epsilon: f64,
    /// Ratios of the rows.
    pub ratio: [f64; 4],
    /// Advantages of the rows.
    pub advantage: [f64; 4],
    /// r·A, clip(r)·A and their minimum.
    pub terms: ClippedTerms,
    /// Whether clipping changed the minimum (the row's gradient is zero).
    pub active: [bool; 4],
    /// Mean of the pessimistic terms: the batch objective.
    pub mean_objective: f64,
    /// ratio_outside_fraction, active_clip_fraction, approx KL, mean log-ratio.
    pub diagnostics: PpoDiagnostics,
}

/// Computes the four worked rows at `clip_epsilon`.
pub fn four_rows(clip_epsilon: f64) -> Result<FourRows> {
    let terms = rl::ppo_clipped_terms(&FOUR_ROWS_RATIO, &FOUR_ROWS_ADVANTAGE, clip_epsilon)?;
    let new_log_prob = FOUR_ROWS_RATIO.map(math::ln);
    let diagnostics =
        rl::ppo_diagnostics(&new_log_prob, &[0.0; 4], &FOUR_ROWS_ADVANTAGE, clip_epsilon)?;
    let active = [0, 1, 2, 3].map(|i| terms.pessimistic[i] < terms.unclipped[i] - 1e-15);
    let mean_objective = terms.pessimistic.iter().sum::<f64>() / 4.0;
    Ok(FourRows {
        clip_epsilon,
        ratio: FOUR_ROWS_RATIO,
        advantage: FOUR_ROWS_ADVANTAGE,
        terms,
        active,
        mean_objective,
        diagnostics,
    })
}

/// The figure's ratio axis: 0 … R_MAX.
const R_MAX: f64 = 2.0;
/// Points per curve.
const SAMPLES: usize = 201;

/// The figure at ε: the four rows for the table and both panels (A = +1, A = −1).
pub fn figure(clip_epsilon: f64) -> Result<Figure<FourRows, Data>> {
    let rows = four_rows(clip_epsilon)?;
    let panel = |advantage: f64| {
        let rs: Vec<f64> = (0..SAMPLES)
            .map(|i| R_MAX * i as f64 / (SAMPLES - 1) as f64)
            .collect();
        Panel {
            advantage,
            unclipped: rs.iter().map(|&r| (r, r * advantage)).collect(),
            pessimistic: rs
                .iter()
                .map(|&r| (r, rl::clipped_objective(r, advantage, clip_epsilon)))
                .collect(),
            markers: (0..4)
                .filter(|&i| rows.advantage[i] == advantage)
                .map(|i| Marker {
                    label: format!("{}", i + 1),
                    ratio: rows.ratio[i],
                    objective: rows.terms.pessimistic[i],
                    active: rows.active[i],
                })
                .collect(),
        }
    };
    let data = Data {
        clip_epsilon,
        r_max: R_MAX,
        panels: vec![panel(1.0), panel(-1.0)],
    };
    let description = describe_rows(&rows);
    Ok(Figure {
        numbers: rows,
        data,
        description,
    })
}

/// The clipping figure in words: each row's terms and whether clipping zeroed its gradient.
fn describe_rows(f: &FourRows) -> Description {
    let flat: Vec<String> = (0..4)
        .filter(|&i| f.active[i])
        .map(|i| (i + 1).to_string())
        .collect();
    let text = format!(
        "При ε = {}: отношения {}, преимущества {}; цель пакета {}. {}. \
         Доля отношений вне [1 − ε; 1 + ε] {}, доля строк с активным клиппированием {}.",
        num(f.clip_epsilon, 2),
        list(&f.ratio, 2),
        list(&f.advantage, 0),
        num(f.mean_objective, 3),
        if flat.is_empty() {
            "Клиппирование не обнуляет градиент ни одной строки".to_string()
        } else {
            format!("Градиент равен нулю в строках {}", flat.join(", "))
        },
        num(f.diagnostics.ratio_outside_fraction, 2),
        num(f.diagnostics.active_clip_fraction, 2),
    );
    let mut table = Table::new(&[
        "строка",
        "r",
        "A",
        "r·A",
        "clip(r)·A",
        "min",
        "градиент обнулён",
    ]);
    for i in 0..4 {
        table = table.row([
            (i + 1).to_string(),
            num(f.ratio[i], 2),
            num(f.advantage[i], 0),
            num(f.terms.unclipped[i], 3),
            num(f.terms.clipped[i], 3),
            num(f.terms.pessimistic[i], 3),
            yes_no(f.active[i]).to_string(),
        ]);
    }
    Description { text, table }
}

/// The worked example: the four rows at ε = 0.2 with their KL terms (r − 1) − ln r.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Ppo {
    pub clip_epsilon: f64,
    /// [1 − ε, 1 + ε].
    pub clip_interval: [f64; 2],
    pub ratio: Vec<f64>,
    pub advantage: Vec<f64>,
    pub unclipped: Vec<f64>,
    pub clipped: Vec<f64>,
    pub pessimistic: Vec<f64>,
    pub mean_objective: f64,
    pub ratio_outside_fraction: f64,
    pub active_clip_fraction: f64,
    pub approx_kl: f64,
    pub mean_log_ratio: f64,
    /// mean(r − 1): zero for these rows, which makes the naive −mean(ln r) and the non-negative
    /// estimate the same number here.
    pub mean_ratio_minus_one: f64,
    pub kl_terms: Vec<f64>,
}

/// The lesson's worked example.
pub fn ppo() -> Result<Ppo> {
    let rows = four_rows(0.2)?;
    let kl_terms = rows
        .ratio
        .iter()
        .map(|r| (r - 1.0) - math::ln(*r))
        .collect();
    Ok(Ppo {
        clip_epsilon: rows.clip_epsilon,
        clip_interval: [1.0 - rows.clip_epsilon, 1.0 + rows.clip_epsilon],
        ratio: rows.ratio.to_vec(),
        advantage: rows.advantage.to_vec(),
        mean_objective: rows.mean_objective,
        ratio_outside_fraction: rows.diagnostics.ratio_outside_fraction,
        active_clip_fraction: rows.diagnostics.active_clip_fraction,
        approx_kl: rows.diagnostics.approx_kl_nonnegative,
        mean_log_ratio: rows.diagnostics.mean_log_ratio,
        mean_ratio_minus_one: rows.ratio.iter().map(|r| r - 1.0).sum::<f64>() / 4.0,
        kl_terms,
        unclipped: rows.terms.unclipped,
        clipped: rows.terms.clipped,
        pessimistic: rows.terms.pessimistic,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn four_rows_at_the_lesson_epsilon() {
        let rows = four_rows(0.2).unwrap();
        assert_eq!(rows.active, [true, false, false, true]);
        assert_eq!(rows.diagnostics.ratio_outside_fraction, 1.0);
        assert_eq!(rows.diagnostics.active_clip_fraction, 0.5);
        assert!((rows.diagnostics.approx_kl_nonnegative - 0.14384103622589045).abs() < 1e-12);
        assert!((rows.mean_objective + 0.15).abs() < 1e-12);
        // With ε = 0.6 both ratios lie inside [0.4, 1.6]: nothing is clipped.
        let wide = four_rows(0.6).unwrap();
        assert_eq!(wide.diagnostics.ratio_outside_fraction, 0.0);
        assert_eq!(wide.active, [false; 4]);
    }

    #[test]
    fn the_svg_changes_with_epsilon_and_rejects_bad_epsilon() {
        let svg = |eps| {
            let f = figure(eps)?;
            plots::to_svg(720, 320, |a| {
                plots::clipping::draw(a, &f.data, &Theme::default())
            })
        };
        let (a, b) = (svg(0.2).unwrap(), svg(0.3).unwrap());
        assert!(a.contains("отношение вероятностей r"), "axis label missing");
        assert!(
            a.contains("A &gt; 0") || a.contains("A > 0"),
            "caption missing"
        );
        assert!(a.len() > 5_000, "suspiciously small SVG");
        assert_ne!(a, b);
        assert!(svg(1.5).unwrap_err().to_string().contains("clip_epsilon"));
        assert!(svg(f64::NAN).is_err());
    }
}

/// The drift example: one state, three actions (logits start at 0), a batch of four samples.
pub const DRIFT_ACTIONS: [usize; 4] = [0, 0, 1, 2];
pub const DRIFT_ADVANTAGES: [f64; 4] = [1.0, 1.0, -1.0, -0.5];
/// Adam's step and moments of the drift example (PPO's usual optimiser).
pub const DRIFT_LR: f64 = 0.1;
const DRIFT_BETAS: (f64, f64) = (0.9, 0.999);
/// Most optimiser steps the figure takes.
pub const DRIFT_MAX_STEPS: usize = 60;

/// The drift example at ε over `steps` full-batch Adam steps on the clipped objective.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Drift {
    pub clip_epsilon: f64,
    pub steps: usize,
    /// Each action's ratio π(a)/π_old(a) after each step (index 0: before any step).
    pub ratios: Vec<[f64; 3]>,
    /// The clipped batch objective after each step.
    pub clipped_objective: Vec<f64>,
    /// The unclipped surrogate mean r·A after each step.
    pub surrogate: Vec<f64>,
    /// The first step after which every sample's clipped term is flat (gradient zero).
    pub flat_from: Option<usize>,
    /// The largest |r − 1| reached, against ε.
    pub max_deviation: f64,
    /// What the page says about `flat_from` (Russian).
    pub flat_note: String,
    /// The batch: each sample's action and advantage.
    pub actions: Vec<usize>,
    pub advantages: Vec<f64>,
}

/// Full-batch Adam on min(r·A, clip(r)·A): once every term is clipped the gradient is zero, but
/// Adam's momentum keeps moving the logits — the ratios drift past 1 ± ε while the clipped
/// objective stays flat. Clipping removes the incentive, not the step.
pub fn drift(clip_epsilon: f64, steps: usize) -> Result<Figure<Drift, crate::plots::drift::Data>> {
    crate::error::check_clip_epsilon(clip_epsilon)?;
    if !(1..=DRIFT_MAX_STEPS).contains(&steps) {
        let rule = crate::error::Rule::between(1.0, DRIFT_MAX_STEPS as f64);
        return Err(crate::Error::range("steps", rule, steps));
    }
    let old = rl::stable_softmax(&[0.0; 3])?;
    let mut z = [0.0f64; 3];
    let (mut m, mut v) = ([0.0f64; 3], [0.0f64; 3]);
    let n = DRIFT_ACTIONS.len() as f64;
    let (mut ratios, mut clipped, mut surrogate) = (Vec::new(), Vec::new(), Vec::new());
    let mut flat_from = None;
    for step in 0..=steps {
        let pi = rl::stable_softmax(&z)?;
        let r: [f64; 3] = [0, 1, 2].map(|a| pi[a] / old[a]);
        ratios.push(r);
        let (mut obj, mut sur, mut grad, mut active) = (0.0, 0.0, [0.0f64; 3], 0);
        for (&a, &adv) in DRIFT_ACTIONS.iter().zip(&DRIFT_ADVANTAGES) {
            let term = rl::clipped_objective(r[a], adv, clip_epsilon);
            obj += term / n;
            sur += r[a] * adv / n;
            // The term is flat (zero gradient) past the band on the favourable side.
            let flat = (adv > 0.0 && r[a] > 1.0 + clip_epsilon)
                || (adv < 0.0 && r[a] < 1.0 - clip_epsilon);
            if flat {
                active += 1;
                continue;
            }
            // d r_a / d z_j = r_a (1[j = a] − π_j).
            for j in 0..3 {
                grad[j] += adv * r[a] * (f64::from(u8::from(j == a)) - pi[j]) / n;
            }
        }
        clipped.push(obj);
        surrogate.push(sur);
        if active == DRIFT_ACTIONS.len() && flat_from.is_none() {
            flat_from = Some(step);
        }
        if step == steps {
            break;
        }
        // Adam ascent step (bias-corrected).
        let t = (step + 1) as f64;
        let (b1, b2) = DRIFT_BETAS;
        let (c1, c2) = (1.0 - math::pow(b1, t), 1.0 - math::pow(b2, t));
        for j in 0..3 {
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            z[j] += DRIFT_LR * (m[j] / c1) / ((v[j] / c2).sqrt() + 1e-8);
        }
    }
    let max_deviation = ratios
        .iter()
        .flat_map(|r| r.iter().map(|x| (x - 1.0).abs()))
        .fold(0.0, f64::max);
    let data = crate::plots::drift::Data {
        clip_epsilon,
        ratios: ratios.clone(),
        clipped_objective: clipped.clone(),
        surrogate: surrogate.clone(),
        flat_from,
    };
    let numbers = Drift {
        clip_epsilon,
        steps,
        ratios,
        clipped_objective: clipped,
        surrogate,
        flat_from,
        max_deviation,
        flat_note: match flat_from {
            Some(t) => {
                format!("Все члены цели плоские (их градиент равен нулю) начиная с шага {t}")
            }
            None => "За эти шаги градиент обнулился не у всех членов цели".to_string(),
        },
        actions: DRIFT_ACTIONS.to_vec(),
        advantages: DRIFT_ADVANTAGES.to_vec(),
    };
    let description = describe_drift(&numbers);
    Ok(Figure {
        numbers,
        data,
        description,
    })
}

/// The drift figure in words: the last step's ratios against the band, and every step's numbers.
fn describe_drift(f: &Drift) -> Description {
    let last = f.ratios.last().copied().unwrap_or([1.0; 3]);
    let text = format!(
        "{} Adam на клиппированной цели при ε = {}: отношения действий в конце {}, \
         наибольшее отклонение |r − 1| = {} против ε. {}; клиппированная цель {}, неклиппированная {}.",
        crate::text::count(f.steps as f64, 0, ["шаг", "шага", "шагов"]),
        num(f.clip_epsilon, 2),
        list(&last, 3),
        num(f.max_deviation, 3),
        f.flat_note,
        num(f.clipped_objective.last().copied().unwrap_or(0.0), 3),
        num(f.surrogate.last().copied().unwrap_or(0.0), 3),
    );
    let mut table = Table::new(&["шаг", "r(0)", "r(1)", "r(2)", "клиппированная цель", "r·A"]);
    for (step, r) in f.ratios.iter().enumerate() {
        table = table.row([
            step.to_string(),
            num(r[0], 3),
            num(r[1], 3),
            num(r[2], 3),
            num(f.clipped_objective[step], 3),
            num(f.surrogate[step], 3),
        ]);
    }
    Description { text, table }
}

#[cfg(test)]
mod drift_tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn the_ratios_drift_past_the_band_while_the_clipped_objective_is_flat() {
        let d = drift(0.2, 40).unwrap().numbers;
        let flat = d.flat_from.expect("every term becomes flat");
        let after = &d.clipped_objective[flat..];
        // Flat from there on (the objective no longer moves by more than rounding) ...
        let span = after.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b))
            - after.iter().fold(f64::INFINITY, |a, &b| a.min(b));
        // ... while the ratios keep moving past 1 ± ε on momentum.
        let r0 = (d.ratios[flat][0], d.ratios.last().unwrap()[0]);
        assert!(r0.1 > r0.0 && r0.1 > 1.2, "{r0:?}, flat from {flat}");
        assert!(span < 0.05, "objective moved by {span}");
        assert!(d.max_deviation > 0.2);
        assert!(drift(0.2, 0).is_err() && drift(1.5, 10).is_err());
        let f = drift(0.2, 40).unwrap();
        let svg = plots::to_svg(760, 420, |a| {
            plots::drift::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("клиппированная цель"));
    }
}
