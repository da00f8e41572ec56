//! Lesson «R1-Zero во вкладке»: why pass@k is estimated from n samples the unbiased way. For
//! one prompt solved with probability p, the count c of right answers among n samples is
//! binomial; the figure takes the exact expectation over c of the naive plug-in estimate
//! 1 − (1 − c/n)^k and of [`rl::pass_at_k`] (Chen et al.), against the true 1 − (1 − p)^k.

use super::Figure;
use crate::error::{self as checks, Error, Rule};
use crate::rl;
use crate::text::{num, Description, Table};
use crate::Result;
use serde::Serialize;

/// The most samples per prompt the figure takes.
pub const MAX_SAMPLES: usize = 64;
/// The success probabilities the slider offers: 0.01 … `MAX_P`.
pub const MAX_P: f64 = 0.9;

/// The pass@k figure's numbers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PassAtKFigure {
    pub samples: usize,
    pub p: f64,
    /// k = 1 … n.
    pub ks: Vec<usize>,
    /// 1 − (1 − p)^k.
    pub truth: Vec<f64>,
    /// E[1 − (1 − c/n)^k] over c ~ Binomial(n, p).
    pub naive: Vec<f64>,
    /// E[pass_at_k(n, c, k)] over the same c.
    pub unbiased: Vec<f64>,
    /// The k where the naive estimate falls furthest below the truth, and by how much.
    pub worst_k: usize,
    pub worst_gap: f64,
    /// The largest |E[unbiased] − truth| over k: rounding only.
    pub unbiased_error: f64,
    /// P(c = 0): the share of prompts whose n samples hold no right answer.
    pub none_right: f64,
}

/// The binomial probabilities of c = 0 … n right answers, by the recurrence (no factorials).
fn binomial(n: usize, p: f64) -> Vec<f64> {
    let mut pmf = vec![0.0; n + 1];
    let mut first = 1.0;
    for _ in 0..n {
        first *= 1.0 - p;
    }
    pmf[0] = first;
    for c in 0..n {
        pmf[c + 1] = pmf[c] * (n - c) as f64 / (c + 1) as f64 * p / (1.0 - p);
    }
    pmf
}

fn power(base: f64, k: usize) -> f64 {
    let mut x = 1.0;
    for _ in 0..k {
        x *= base;
    }
    x
}

/// The figure at `samples` = n per prompt and success probability `p`.
pub fn pass_at_k_figure(
    samples: usize,
    p: f64,
) -> Result<Figure<PassAtKFigure, crate::plots::pass_at_k::Data>> {
    if !(2..=MAX_SAMPLES).contains(&samples) {
        let rule = Rule::WholeNumber {
            min: 2,
            max: MAX_SAMPLES as u64,
        };
        return Err(Error::range("samples", rule, samples));
    }
    checks::check_finite_scalar("p", p)?;
    checks::check_rule("p", p, Rule::between(0.01, MAX_P))?;
    let pmf = binomial(samples, p);
    let ks: Vec<usize> = (1..=samples).collect();
    let (mut truth, mut naive, mut unbiased) = (Vec::new(), Vec::new(), Vec::new());
    for &k in &ks {
        truth.push(1.0 - power(1.0 - p, k));
        let (mut plug, mut fair) = (0.0, 0.0);
        for (c, &w) in pmf.iter().enumerate() {
            plug += w * (1.0 - power(1.0 - c as f64 / samples as f64, k));
            fair += w * rl::pass_at_k(samples, c, k)?;
        }
        naive.push(plug);
        unbiased.push(fair);
    }
    let gaps: Vec<f64> = truth.iter().zip(&naive).map(|(t, n)| t - n).collect();
    let worst = (0..gaps.len()).fold(0, |w, i| if gaps[i] > gaps[w] { i } else { w });
    let unbiased_error = truth
        .iter()
        .zip(&unbiased)
        .map(|(t, u)| (t - u).abs())
        .fold(0.0, f64::max);
    let numbers = PassAtKFigure {
        samples,
        p,
        worst_k: ks[worst],
        worst_gap: gaps[worst],
        unbiased_error,
        none_right: pmf[0],
        ks: ks.clone(),
        truth,
        naive,
        unbiased,
    };
    let n = &numbers;
    let text = format!(
        "pass@k одного запроса с вероятностью успеха {} по {} ответам: истинное значение, \
         ожидание несмещённой оценки (совпадает с ним) и ожидание наивной оценки 1 − (1 − c/n)^k, \
         которая занижает его сильнее всего при k = {}: {} против {}.",
        num(p, 2),
        samples,
        n.worst_k,
        num(n.naive[worst], 3),
        num(n.truth[worst], 3),
    );
    let mut table = Table::new(&[
        "k",
        "истинное",
        "несмещённая (ожидание)",
        "наивная (ожидание)",
    ]);
    let mut quoted = vec![1, n.worst_k, samples];
    quoted.dedup();
    for k in quoted {
        let i = k - 1;
        table = table.row([
            k.to_string(),
            num(n.truth[i], 3),
            num(n.unbiased[i], 3),
            num(n.naive[i], 3),
        ]);
    }
    let line = |values: &[f64]| {
        ks.iter()
            .map(|&k| k as f64)
            .zip(values.iter().copied())
            .collect()
    };
    let data = crate::plots::pass_at_k::Data {
        samples,
        lines: vec![
            ("истинное 1 − (1 − p)^k".to_string(), line(&n.truth)),
            (
                "несмещённая оценка, ожидание".to_string(),
                line(&n.unbiased),
            ),
            (
                "наивная 1 − (1 − c/n)^k, ожидание".to_string(),
                line(&n.naive),
            ),
        ],
    };
    Ok(Figure {
        numbers,
        data,
        description: Description { text, table },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unbiased estimator's expectation is the truth; the naive one's lies below it
    /// (Jensen: (1 − ĉ)^k is convex), equal at k = 1 (both are c/n there).
    #[test]
    fn the_unbiased_estimate_is_unbiased_and_the_naive_one_low() {
        let f = pass_at_k_figure(16, 0.05).unwrap();
        let n = &f.numbers;
        assert!(n.unbiased_error < 1e-12, "{}", n.unbiased_error);
        assert!((n.naive[0] - n.truth[0]).abs() < 1e-12);
        for k in 1..16 {
            assert!(n.naive[k] < n.truth[k], "k = {}", k + 1);
        }
        assert!(n.worst_gap > 0.05, "{}", n.worst_gap);
        assert!((n.none_right - power(0.95, 16)).abs() < 1e-12);
        let sum: f64 = binomial(16, 0.05).iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
        for (n, p) in [(1, 0.5), (65, 0.5), (8, 0.0), (8, 0.95), (8, f64::NAN)] {
            assert!(pass_at_k_figure(n, p).is_err(), "{n} {p}");
        }
        crate::text::check_shape(&f.description);
    }
}
