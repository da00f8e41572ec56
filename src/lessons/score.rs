//! Lesson 1: the score of a softmax policy, ∇ log π(a) = onehot(a) − softmax(z).

use super::Figure;
use crate::text::{list, num, Description, Table};
use crate::{plots, rl, Result};
use serde::Serialize;

/// The score of action 2 under logits (1, 0, −1).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Score {
    pub logits: Vec<f64>,
    pub action: usize,
    pub probs: Vec<f64>,
    pub grad: Vec<f64>,
    /// Σ of the score's components: zero, since the probabilities sum to one.
    pub grad_sum: f64,
}

/// The lesson's worked example.
pub fn score() -> Result<Score> {
    let logits = vec![1.0, 0.0, -1.0];
    let action = 2;
    let grad = rl::grad_log_softmax(&logits, action)?;
    Ok(Score {
        probs: rl::stable_softmax(&logits)?,
        grad_sum: grad.iter().sum(),
        grad,
        logits,
        action,
    })
}

/// Rewards of the three actions before the offset c (the figure's f(a) = q_a + c): rewards
/// between c and c + 1, the lesson's "100 and 101" at c = 100.
pub const FIGURE_REWARDS: [f64; 3] = [1.0, 0.0, 0.5];
/// Resamples of N outcomes the figure draws (the spread of the estimate).
pub const FIGURE_RESAMPLES: usize = 200;
/// Largest sample size N the figure takes (keeps a redraw within a frame).
pub const FIGURE_MAX_N: usize = 200;
/// Largest |c| and |z_j| the figure takes.
pub const FIGURE_MAX_OFFSET: f64 = 200.0;
pub const FIGURE_MAX_LOGIT: f64 = 10.0;
/// Seed of the resamples: the same settings always show the same sample.
pub const FIGURE_SEED: u64 = 2026;
/// Points of the exact std-against-c curve.
const CURVE_POINTS: usize = 101;

/// What the score figure shows at one setting (returned to the page).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ScoreFigure {
    pub logits: Vec<f64>,
    pub action: usize,
    pub offset: f64,
    pub sample_size: usize,
    pub probs: Vec<f64>,
    /// e_a − π: the score of the chosen action.
    pub score: Vec<f64>,
    /// f(a) = q_a + c.
    pub rewards: Vec<f64>,
    /// The exact gradient of J = Σ π_x f(x) with respect to the logits: π_j (f_j − J).
    pub exact_gradient: Vec<f64>,
    /// Its component a, the one whose estimates the figure spreads.
    pub exact_component: f64,
    /// Mean of the resampled estimates of component a.
    pub resample_mean: f64,
    /// Their standard deviation over the resamples.
    pub resample_std: f64,
    /// The exact standard deviation of the N-sample estimate of component a.
    pub exact_std: f64,
    /// The offset c at which that standard deviation is smallest (the cross term's doing: not
    /// zero in general), and the smallest standard deviation.
    pub best_offset: f64,
    pub best_std: f64,
    pub resamples: usize,
}

/// The offset minimising the std of component `j`: the estimate's variance is
/// Σ_x π_x (q_x + c)² s_j(x)² − g_j² (its mean g_j does not depend on c, since E[s_j] = 0),
/// a parabola in c with its vertex at c* = −Σ π s² q / Σ π s².
fn best_offset(probs: &[f64], q: &[f64], j: usize) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (x, (&p, &qx)) in probs.iter().zip(q).enumerate() {
        let s = f64::from(u8::from(x == j)) - probs[j];
        num += p * s * s * qx;
        den += p * s * s;
    }
    if den > 0.0 {
        -num / den
    } else {
        0.0
    }
}

/// The exact std of the N-sample REINFORCE estimate of component `j` at offset `c`:
/// sqrt((Σ_x π_x f_x² s_j(x)² − g_j²) / N), with f_x = q_x + c and s_j(x) = 1[x = j] − π_j.
fn exact_std(probs: &[f64], q: &[f64], c: f64, j: usize, n: usize) -> f64 {
    let (mut second, mut mean) = (0.0, 0.0);
    for (x, (&p, &qx)) in probs.iter().zip(q).enumerate() {
        let s = f64::from(u8::from(x == j)) - probs[j];
        let fs = (qx + c) * s;
        second += p * fs * fs;
        mean += p * fs;
    }
    ((second - mean * mean).max(0.0) / n as f64).sqrt()
}

/// The figure at logits `logits`, chosen action `action`, reward offset `offset` and sample
/// size `sample_size`.
pub fn figure(
    logits: [f64; 3],
    action: usize,
    offset: f64,
    sample_size: usize,
) -> Result<Figure<ScoreFigure, plots::score::Data>> {
    use crate::error::{self as checks, Rule};
    checks::check_finite("logits", &logits)?;
    for &z in &logits {
        checks::check_rule(
            "logits",
            z,
            Rule::between(-FIGURE_MAX_LOGIT, FIGURE_MAX_LOGIT),
        )?;
    }
    checks::check_finite_scalar("offset", offset)?;
    checks::check_rule(
        "offset",
        offset,
        Rule::between(-FIGURE_MAX_OFFSET, FIGURE_MAX_OFFSET),
    )?;
    if !(1..=FIGURE_MAX_N).contains(&sample_size) {
        let rule = Rule::between(1.0, FIGURE_MAX_N as f64);
        return Err(crate::Error::range("sample_size", rule, sample_size));
    }
    let score = rl::grad_log_softmax(&logits, action)?;
    let probs = rl::stable_softmax(&logits)?;
    let rewards: Vec<f64> = FIGURE_REWARDS.iter().map(|q| q + offset).collect();
    let value: f64 = probs.iter().zip(&rewards).map(|(p, f)| p * f).sum();
    let exact_gradient: Vec<f64> = probs
        .iter()
        .zip(&rewards)
        .map(|(p, f)| p * (f - value))
        .collect();
    let mut rng = crate::rng::seeded(FIGURE_SEED);
    let estimates: Vec<f64> = (0..FIGURE_RESAMPLES)
        .map(|_| {
            let mut sum = 0.0;
            for _ in 0..sample_size {
                let x = crate::rng::categorical(&mut rng, &probs);
                let s = f64::from(u8::from(x == action)) - probs[action];
                sum += rewards[x] * s;
            }
            sum / sample_size as f64
        })
        .collect();
    let m = estimates.len() as f64;
    let resample_mean = estimates.iter().sum::<f64>() / m;
    let resample_std = (estimates
        .iter()
        .map(|e| (e - resample_mean) * (e - resample_mean))
        .sum::<f64>()
        / m)
        .sqrt();
    let exact_sd = exact_std(&probs, &FIGURE_REWARDS, offset, action, sample_size);
    let best = best_offset(&probs, &FIGURE_REWARDS, action);
    let best_std = exact_std(&probs, &FIGURE_REWARDS, best, action, sample_size);
    let curve = (0..CURVE_POINTS)
        .map(|i| {
            let c =
                -FIGURE_MAX_OFFSET / 2.0 + FIGURE_MAX_OFFSET * i as f64 / (CURVE_POINTS - 1) as f64;
            (
                c,
                exact_std(&probs, &FIGURE_REWARDS, c, action, sample_size),
            )
        })
        .collect();
    let data = plots::score::Data {
        probs: probs.clone(),
        score: score.clone(),
        action,
        offset,
        estimates,
        exact: exact_gradient[action],
        exact_std: exact_sd,
        std_curve: curve,
        resample_std,
    };
    let numbers = ScoreFigure {
        logits: logits.to_vec(),
        action,
        offset,
        sample_size,
        exact_component: exact_gradient[action],
        probs,
        score,
        rewards,
        exact_gradient,
        resample_mean,
        resample_std,
        exact_std: exact_sd,
        best_offset: best,
        best_std,
        resamples: FIGURE_RESAMPLES,
    };
    let description = describe(&numbers);
    Ok(Figure {
        numbers,
        data,
        description,
    })
}

/// The figure in words: the policy, the chosen action's score, and the estimate against the
/// exact gradient.
fn describe(f: &ScoreFigure) -> Description {
    let text = format!(
        "Политика π = {} при логитах {}; для действия {} вектор e_a − π = {}. \
         Оценка REINFORCE компоненты {} по N = {} выборкам при сдвиге награды c = {}: \
         среднее по {} повторениям {} против точного градиента {}, разброс {} (точно {}); \
         наименьший разброс, {}, — при сдвиге c = {}.",
        list(&f.probs, 3),
        list(&f.logits, 2),
        f.action,
        list(&f.score, 3),
        f.action,
        f.sample_size,
        num(f.offset, 1),
        f.resamples,
        num(f.resample_mean, 3),
        num(f.exact_component, 3),
        num(f.resample_std, 3),
        num(f.exact_std, 3),
        num(f.best_std, 3),
        num(f.best_offset, 2),
    );
    let mut table = Table::new(&[
        "действие",
        "логит",
        "π",
        "e_a − π",
        "f = q + c",
        "точный градиент",
    ]);
    for x in 0..f.probs.len() {
        table = table.row([
            x.to_string(),
            num(f.logits[x], 2),
            num(f.probs[x], 3),
            num(f.score[x], 3),
            num(f.rewards[x], 2),
            num(f.exact_gradient[x], 3),
        ]);
    }
    Description { text, table }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn the_offset_leaves_the_gradient_and_widens_the_estimate() {
        let at = |c| figure([1.0, 0.0, -1.0], 2, c, 10).unwrap().numbers;
        let (a, b) = (at(0.0), at(100.0));
        assert!((a.exact_component - b.exact_component).abs() < 1e-12);
        assert!(
            b.exact_std > 50.0 * a.exact_std,
            "{} vs {}",
            b.exact_std,
            a.exact_std
        );
        // Unbiased: the resample mean within 4 standard errors of the exact component.
        let se = b.exact_std / (b.resamples as f64).sqrt();
        assert!((b.resample_mean - b.exact_component).abs() < 4.0 * se);
        assert!((b.resample_std / b.exact_std - 1.0).abs() < 0.25);
        // The score is e_a − π and sums to zero.
        assert!(a.score.iter().sum::<f64>().abs() < 1e-15);
        assert!((a.score[2] - (1.0 - a.probs[2])).abs() < 1e-15);
        // The smallest spread is at the vertex, not at c = 0 (the cross term), and it is the
        // curve's minimum: no offset nearby does better.
        assert!(a.best_offset.abs() > 0.1, "{}", a.best_offset);
        assert!(a.best_std < a.exact_std);
        for dc in [-0.01, 0.01] {
            let near = at(a.best_offset + dc);
            assert!(near.exact_std > a.best_std, "{dc}");
        }
    }

    #[test]
    fn bad_settings_are_errors_and_the_figure_draws() {
        assert!(figure([f64::NAN, 0.0, 0.0], 0, 0.0, 10).is_err());
        assert!(figure([0.0; 3], 3, 0.0, 10).is_err());
        assert!(figure([0.0; 3], 0, 1e6, 10).is_err());
        assert!(figure([0.0; 3], 0, 0.0, 0).is_err());
        assert!(figure([0.0; 3], 0, 0.0, FIGURE_MAX_N + 1).is_err());
        let f = figure([1.0, 0.0, -1.0], 2, 100.0, 10).unwrap();
        let svg = plots::to_svg(760, 420, |a| {
            plots::score::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("точный градиент") && svg.contains("сдвиг награды c"));
    }
}
