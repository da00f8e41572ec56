//! Lesson 3: baselines from a constant to RLOO — the variance-optimal baseline b*, a group of
//! four under the three baselines, the notebook's baseline-bias experiment (G = 8, 80 000
//! groups, seed 2026) and the figure's Monte Carlo at a chosen group size.

use super::Figure;
use crate::plots::baselines::Data;
use crate::rl::{self, BaselineBias};
use crate::text::{list, num, Description, Table};
use crate::{math, Error, Result};
use ndarray::aview1;
use serde::Serialize;

/// b* against the value V for a two-action softmax policy.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct BStar {
    pub probs: Vec<f64>,
    pub q: Vec<f64>,
    pub grad_norm_sq: Vec<f64>,
    pub value: f64,
    pub b_star: f64,
}

/// A group of four under the three baselines.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Rloo {
    pub rewards: Vec<f64>,
    pub group_mean: f64,
    pub centered: Vec<f64>,
    pub loo_baselines: Vec<f64>,
    pub rloo: Vec<f64>,
    pub ratio: f64,
    pub same_group_scale: f64,
}

/// The notebook's baseline-bias experiment and its z-scores.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Simulation {
    pub group_size: usize,
    pub groups: usize,
    pub seed: u64,
    /// The eight quantities (flattened: `simulation.exact`, `simulation.rloo_mean`, …).
    #[serde(flatten)]
    pub result: BaselineBias,
    pub z_plain: f64,
    pub z_same: f64,
    pub z_rloo: f64,
    pub z_same_vs_exact: f64,
}

/// Exact stds of the three estimators at the experiment's group size.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SimulationExact {
    pub plain_std: f64,
    pub same_group_std: f64,
    pub rloo_std: f64,
}

/// b* = Σ_a p_a ‖∇log π(a)‖² q_a / Σ_a p_a ‖∇log π(a)‖² for a softmax policy over logits.
pub fn optimal_baseline(logits: &[f64], q: &[f64]) -> Result<(Vec<f64>, f64, f64)> {
    let probs = rl::stable_softmax(logits)?;
    let norms: Vec<f64> = (0..probs.len())
        .map(|a| rl::grad_log_softmax(logits, a).map(|g| g.iter().map(|x| x * x).sum()))
        .collect::<Result<_>>()?;
    let value = probs.iter().zip(q).map(|(p, q)| p * q).sum();
    let num: f64 = (0..probs.len()).map(|a| probs[a] * norms[a] * q[a]).sum();
    let den: f64 = (0..probs.len()).map(|a| probs[a] * norms[a]).sum();
    Ok((norms, value, num / den))
}

/// The worked b*: logits (ln 4, 0) give probabilities (0.8, 0.2), action 1 is the rare one.
pub fn bstar() -> Result<BStar> {
    let logits = [math::ln(4.0), 0.0];
    let q = vec![1.0, 3.0];
    let (grad_norm_sq, value, b_star) = optimal_baseline(&logits, &q)?;
    Ok(BStar {
        probs: rl::stable_softmax(&logits)?,
        q,
        grad_norm_sq,
        value,
        b_star,
    })
}

/// The worked group of four: rewards (1, 0, 0.5, 0).
pub fn rloo() -> Result<Rloo> {
    let rewards = vec![1.0, 0.0, 0.5, 0.0];
    let centered = rl::group_mean_advantages(aview1(&rewards))?;
    let rloo = rl::rloo_advantages(aview1(&rewards))?;
    let g = rewards.len() as f64;
    Ok(Rloo {
        group_mean: rewards.iter().sum::<f64>() / g,
        loo_baselines: rl::leave_one_out_baselines(aview1(&rewards))?.to_vec(),
        ratio: rloo[0] / centered[0],
        same_group_scale: (g - 1.0) / g,
        centered: centered.to_vec(),
        rloo: rloo.to_vec(),
        rewards,
    })
}

/// The notebook's experiment (the lesson runs G = 8, 80 000 groups, seed 2026), with the
/// z-scores of its means against the exact values.
pub fn simulation(group_size: usize, groups: usize, seed: u64) -> Result<Simulation> {
    let r = rl::simulate_group_baseline_bias(group_size, groups, seed)?;
    let m = (groups as f64).sqrt();
    let z = |mean: f64, expected: f64, std: f64| {
        if std > 0.0 {
            (mean - expected) / (std / m)
        } else {
            0.0
        }
    };
    Ok(Simulation {
        group_size,
        groups,
        seed,
        z_plain: z(r.plain_mean, r.exact, r.plain_std),
        z_same: z(r.same_group_mean, r.predicted_same_group, r.same_group_std),
        z_rloo: z(r.rloo_mean, r.exact, r.rloo_std),
        z_same_vs_exact: z(r.same_group_mean, r.exact, r.same_group_std),
        result: r,
    })
}

/// The exact stds at `group_size`.
pub fn simulation_exact(group_size: usize) -> SimulationExact {
    let (plain_std, same_group_std, rloo_std) = rl::bandit_exact_stds(group_size);
    SimulationExact {
        plain_std,
        same_group_std,
        rloo_std,
    }
}

/// Samples (groups × G) drawn per redraw of the figure: the same work at every G, so the
/// slider stays within a frame at G = 64 as at G = 2 (4000 groups at the default G = 8).
pub const FIGURE_SAMPLES: usize = 32_000;

/// Groups of the figure's Monte Carlo at `group_size`: [`FIGURE_SAMPLES`] / G.
pub fn figure_groups(group_size: usize) -> usize {
    FIGURE_SAMPLES / group_size.max(1)
}
/// Largest group size the figure offers.
pub const MAX_GROUP: usize = 64;
/// Seed of the figure's Monte Carlo (the same G always shows the same sample).
pub const FIGURE_SEED: u64 = 2026;

/// What the figure shows at one group size (returned to the page).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct BaselineFigure {
    pub group_size: usize,
    pub groups: usize,
    pub monte_carlo: BaselineBias,
    /// Exact stds (plain, same-group, RLOO) at this G.
    pub exact_std: (f64, f64, f64),
    /// The z-scored advantages on the same groups, when the figure shows them.
    pub zscore: Option<ZScore>,
}

/// Mean and std over groups of the z-scored estimate.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ZScore {
    pub mean: f64,
    pub std: f64,
}

/// Runs the Monte Carlo and the exact formulas at `group_size` (2 … [`MAX_GROUP`]).
pub fn compute(group_size: usize, groups: usize) -> Result<BaselineFigure> {
    if !(2..=MAX_GROUP).contains(&group_size) {
        return Err(Error::range(
            "group_size",
            crate::error::Rule::between(2.0, MAX_GROUP as f64),
            group_size,
        ));
    }
    let monte_carlo = rl::simulate_group_baseline_bias(group_size, groups, FIGURE_SEED)?;
    Ok(BaselineFigure {
        group_size,
        groups,
        monte_carlo,
        exact_std: rl::bandit_exact_stds(group_size),
        zscore: None,
    })
}

/// The figure at `group_size`: the Monte Carlo of [`figure_groups`] groups, the exact std
/// curves over G = 2 … [`MAX_GROUP`] and the means with ±2 standard errors of that many groups;
/// `zscore` adds the z-scored advantages on the same groups.
pub fn figure(group_size: usize, zscore: bool) -> Result<Figure<BaselineFigure, Data>> {
    let mut fig = compute(group_size, figure_groups(group_size))?;
    if zscore {
        let (mean, std) =
            rl::simulate_group_zscore(group_size, fig.groups, FIGURE_SEED, ZSCORE_EPS)?;
        fig.zscore = Some(ZScore { mean, std });
    }
    let mc = &fig.monte_carlo;
    let se = |std: f64| 2.0 * std / (fig.groups as f64).sqrt();
    let data = Data {
        group_size,
        exact_std_curve: (2..=MAX_GROUP)
            .map(|k| {
                let (plain, same, rloo) = rl::bandit_exact_stds(k);
                (k as f64, [plain, same, rloo])
            })
            .collect(),
        monte_carlo_std: [mc.plain_std, mc.same_group_std, mc.rloo_std],
        means: [mc.plain_mean, mc.same_group_mean, mc.rloo_mean],
        errors: [se(mc.plain_std), se(mc.same_group_std), se(mc.rloo_std)],
        exact: mc.exact,
        predicted_same_group: mc.predicted_same_group,
        zscore: fig.zscore.map(|z| (z.mean, z.std, se(z.std))),
    };
    let description = describe_groups(&fig);
    Ok(Figure {
        numbers: fig,
        data,
        description,
    })
}

/// σ below which a group's z-scored advantages are zeros (all rewards equal).
pub const ZSCORE_EPS: f64 = 1e-8;

/// The group figure in words: each estimator's mean and spread at G against the exact values.
fn describe_groups(f: &BaselineFigure) -> Description {
    let mc = &f.monte_carlo;
    let mut text = format!(
        "При G = {} ({}): точный градиент {}; среднее оценки без опорного уровня {}, \
         со средним той же группы {} (сжатие (G−1)/G даёт {}), RLOO {}. \
         Разброс: {}, {} и {}.",
        f.group_size,
        crate::text::count(f.groups as f64, 0, ["группа", "группы", "групп"]),
        num(mc.exact, 4),
        num(mc.plain_mean, 4),
        num(mc.same_group_mean, 4),
        num(mc.predicted_same_group, 4),
        num(mc.rloo_mean, 4),
        num(mc.plain_std, 4),
        num(mc.same_group_std, 4),
        num(mc.rloo_std, 4),
    );
    let mut table = Table::new(&[
        "оценка",
        "среднее",
        "ожидается",
        "ст. откл. (Монте-Карло)",
        "ст. откл. (точно)",
    ]);
    let estimators = [
        (
            "без опорного уровня",
            mc.plain_mean,
            mc.exact,
            mc.plain_std,
            f.exact_std.0,
        ),
        (
            "среднее той же группы",
            mc.same_group_mean,
            mc.predicted_same_group,
            mc.same_group_std,
            f.exact_std.1,
        ),
        ("RLOO", mc.rloo_mean, mc.exact, mc.rloo_std, f.exact_std.2),
    ];
    for (name, mean, expected, std, exact_std) in estimators {
        table = table.row([
            name.to_string(),
            num(mean, 4),
            num(expected, 4),
            num(std, 4),
            num(exact_std, 4),
        ]);
    }
    if let Some(z) = f.zscore {
        text += &format!(
            " С z-нормировкой среднее {} и разброс {}: это уже не оценка градиента, σ меняет масштаб каждой группы.",
            num(z.mean, 4),
            num(z.std, 4)
        );
        table = table.row([
            "z-оценка".to_string(),
            num(z.mean, 4),
            "—".to_string(),
            num(z.std, 4),
            "—".to_string(),
        ]);
    }
    Description { text, table }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn monte_carlo_sits_near_the_exact_values_and_range_is_checked() {
        for g in [2, 8, 64] {
            let f = compute(g, figure_groups(g)).unwrap();
            let m = (figure_groups(g) as f64).sqrt();
            let mc = &f.monte_carlo;
            assert!(
                ((mc.rloo_mean - mc.exact) / (f.exact_std.2 / m)).abs() < 4.0,
                "G = {g}"
            );
            assert!(
                ((mc.same_group_mean - mc.predicted_same_group) / (f.exact_std.1 / m)).abs() < 4.0
            );
            assert!((mc.plain_std / f.exact_std.0 - 1.0).abs() < 0.1);
        }
        assert!(compute(1, 10).is_err());
        let e = compute(65, 10).unwrap_err();
        assert!(matches!(
            e.kind(),
            crate::error::ErrorKind::Range { rule, .. } if *rule == crate::error::Rule::between(2.0, 64.0)
        ));
        let f = figure(8, false).unwrap();
        crate::text::check_shape(&f.description);
        let svg = plots::to_svg(800, 420, |a| {
            plots::baselines::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("RLOO") && svg.contains("G = 8"));
    }
}

/// Points of the figure's variance parabola.
const PARABOLA_POINTS: usize = 121;

/// What the optimal-baseline figure shows (returned to the page).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct BStarFigure {
    pub probs: Vec<f64>,
    pub q: Vec<f64>,
    pub grad_norm_sq: Vec<f64>,
    pub value: f64,
    pub b_star: f64,
    /// Total variance of one sample's estimate (q_A − b)·s_A at b = 0, V and b*.
    pub variance_at_zero: f64,
    pub variance_at_value: f64,
    pub variance_at_b_star: f64,
    /// Each action's weight in V (p_a) and in b* (p_a‖s_a‖² / Σ).
    pub weights_value: Vec<f64>,
    pub weights_b_star: Vec<f64>,
}

/// The optimal-baseline figure for two actions with probability `p0` of action 0 (0 < p0 < 1)
/// and action values `q`: the variance Σ_a p_a (q_a − b)² ‖s_a‖² − ‖g‖² as a function of b.
pub fn bstar_figure(
    p0: f64,
    q: [f64; 2],
) -> Result<Figure<BStarFigure, crate::plots::bstar::Data>> {
    use crate::error::{self as checks, Bound, Rule};
    checks::check_finite_scalar("p0", p0)?;
    let open = Rule::Interval {
        min: Some(Bound::open(0.0)),
        max: Some(Bound::open(1.0)),
    };
    checks::check_rule("p0", p0, open)?;
    checks::check_finite("q", &q)?;
    for &x in &q {
        checks::check_rule("q", x, Rule::between(-100.0, 100.0))?;
    }
    let logits = [math::ln(p0 / (1.0 - p0)), 0.0];
    let (grad_norm_sq, value, b_star) = optimal_baseline(&logits, &q)?;
    let probs = rl::stable_softmax(&logits)?;
    let scores: Vec<Vec<f64>> = (0..2)
        .map(|a| rl::grad_log_softmax(&logits, a))
        .collect::<Result<_>>()?;
    // g = Σ_a p_a q_a s_a: the exact gradient, which no baseline changes.
    let g: Vec<f64> = (0..2)
        .map(|j| (0..2).map(|a| probs[a] * q[a] * scores[a][j]).sum())
        .collect();
    let g_sq: f64 = g.iter().map(|x| x * x).sum();
    let variance = |b: f64| -> f64 {
        (0..2)
            .map(|a| probs[a] * (q[a] - b) * (q[a] - b) * grad_norm_sq[a])
            .sum::<f64>()
            - g_sq
    };
    let (lo, hi) = (q[0].min(q[1]) - 1.5, q[0].max(q[1]) + 1.5);
    let curve = (0..PARABOLA_POINTS)
        .map(|i| {
            let b = lo + (hi - lo) * i as f64 / (PARABOLA_POINTS - 1) as f64;
            (b, variance(b))
        })
        .collect();
    let den: f64 = (0..2).map(|a| probs[a] * grad_norm_sq[a]).sum();
    let weights_b_star: Vec<f64> = (0..2).map(|a| probs[a] * grad_norm_sq[a] / den).collect();
    let data = crate::plots::bstar::Data {
        curve,
        value,
        b_star,
        variance_at_value: variance(value),
        variance_at_b_star: variance(b_star),
        weights_value: probs.clone(),
        weights_b_star: weights_b_star.clone(),
    };
    let numbers = BStarFigure {
        variance_at_zero: variance(0.0),
        variance_at_value: variance(value),
        variance_at_b_star: variance(b_star),
        weights_value: probs.clone(),
        weights_b_star,
        probs,
        q: q.to_vec(),
        grad_norm_sq,
        value,
        b_star,
    };
    let description = describe_bstar(&numbers);
    Ok(Figure {
        numbers,
        data,
        description,
    })
}

/// The optimal-baseline figure in words: V and b*, the variances and the actions' weights.
fn describe_bstar(f: &BStarFigure) -> Description {
    let text = format!(
        "Два действия с вероятностями {} и ценностями q = {}: V = {}, b* = {}. \
         Дисперсия одновыборочной оценки при b = 0 равна {}, при b = V — {}, при b = b* — {}. \
         Вес действий в V {}, в b* {}: b* сильнее весит действие с большим ‖s_a‖².",
        list(&f.probs, 3),
        list(&f.q, 2),
        num(f.value, 3),
        num(f.b_star, 3),
        num(f.variance_at_zero, 3),
        num(f.variance_at_value, 3),
        num(f.variance_at_b_star, 3),
        list(&f.weights_value, 3),
        list(&f.weights_b_star, 3),
    );
    let mut table = Table::new(&["действие", "π(a)", "q(a)", "‖s_a‖²", "вес в V", "вес в b*"]);
    for a in 0..f.probs.len() {
        table = table.row([
            a.to_string(),
            num(f.probs[a], 3),
            num(f.q[a], 2),
            num(f.grad_norm_sq[a], 3),
            num(f.weights_value[a], 3),
            num(f.weights_b_star[a], 3),
        ]);
    }
    Description { text, table }
}

#[cfg(test)]
mod bstar_figure_tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn b_star_minimises_the_parabola_and_weights_the_rare_action_more() {
        let f = bstar_figure(0.8, [1.0, 3.0]).unwrap().numbers;
        let w = bstar().unwrap();
        assert!((f.b_star - w.b_star).abs() < 1e-12 && (f.value - w.value).abs() < 1e-12);
        assert!(f.variance_at_b_star < f.variance_at_value);
        assert!(f.variance_at_value < f.variance_at_zero);
        assert!(f.weights_b_star[1] > f.weights_value[1]);
        let data = bstar_figure(0.8, [1.0, 3.0]).unwrap().data;
        let min = data.curve.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        assert!(min >= f.variance_at_b_star - 1e-12 && f.variance_at_b_star >= -1e-12);
    }

    #[test]
    fn bad_settings_are_errors_and_the_figure_draws() {
        for p in [0.0, 1.0, f64::NAN] {
            assert!(bstar_figure(p, [1.0, 3.0]).is_err(), "{p}");
        }
        assert!(bstar_figure(0.5, [f64::INFINITY, 0.0]).is_err());
        let f = bstar_figure(0.8, [1.0, 3.0]).unwrap();
        let svg = plots::to_svg(760, 320, |a| {
            plots::bstar::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("b*") && svg.contains("опорный уровень b"));
    }
}
