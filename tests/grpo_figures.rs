//! Lesson 9's figures: the numbers come from `rl::` (the exact Bernoulli group gradient, the
//! reductions' token weights, the KL estimators), and each figure draws to SVG natively.

use pgbook::lessons::grpo;
use pgbook::plots::{difficulty, kl_estimators, length_weights, to_svg, Theme};
use pgbook::rl::{self, AdvantageEstimator, KlEstimator, Reduction};

#[test]
fn the_difficulty_figure_is_the_exact_group_gradient() {
    let f = grpo::difficulty_figure(6).unwrap();
    for (k, e) in AdvantageEstimator::ALL.iter().enumerate() {
        for (i, &p) in grpo::QUOTED_P.iter().enumerate() {
            let g = rl::bernoulli_group_gradient(p, 6, *e, 1e-8).unwrap();
            assert_eq!(f.numbers.estimators[k].ratios[i], g.ratio.unwrap());
        }
    }
    // GRPO's std is symmetric in p ↔ 1 − p and lowest in the middle.
    let grpo_line = &f.data.lines[3].1;
    let (first, last) = (grpo_line[0].1, grpo_line[grpo_line.len() - 1].1);
    assert!((first - last).abs() < 1e-9 && first > grpo_line[grpo_line.len() / 2].1);
    let svg = to_svg(640, 360, |a| {
        difficulty::draw(a, &f.data, &Theme::default())
    })
    .unwrap();
    assert!(svg.contains("G = 6") && svg.contains("RLOO"));
}

#[test]
fn the_length_figure_weights_agree_with_the_reductions_objective() {
    let f = grpo::length_figure(3, 7, 10).unwrap();
    // Each token weight is the derivative of aggregate_token_terms: perturb one token's term.
    let mask = ndarray::Array2::from_shape_fn((2, 10), |(b, t)| f64::from(u8::from(t < [3, 7][b])));
    let zeros = ndarray::Array2::<f64>::zeros((2, 10));
    for (k, r) in Reduction::EVERY.iter().enumerate() {
        for (b, want) in [
            (0, f.numbers.reductions[k].short_token),
            (1, f.numbers.reductions[k].long_token),
        ] {
            let mut terms = zeros.clone();
            terms[(b, 0)] = 1.0;
            let got = rl::aggregate_token_terms(terms.view(), mask.view(), *r, Some(10)).unwrap();
            assert!((got - want).abs() < 1e-12, "{r}: {got} vs {want}");
        }
    }
    let svg = to_svg(640, 360, |a| {
        length_weights::draw(a, &f.data, &Theme::default())
    })
    .unwrap();
    assert!(svg.contains("constant_length"));
    assert!(grpo::length_figure(3, 11, 10).is_err());
}

#[test]
fn the_kl_figure_matches_kl_estimators_on_every_token() {
    let f = grpo::kl_figure(2.0).unwrap();
    let n = &f.numbers;
    // The exact mean of each estimator is Σ π(y)·k(d_y) with kl_estimators' per-token values.
    let log_p: Vec<f64> = n.log_ratios.clone();
    let zeros = vec![0.0; log_p.len()];
    let row = |v: &[f64]| ndarray::Array2::from_shape_vec((1, v.len()), v.to_vec()).unwrap();
    let ones = row(&vec![1.0; log_p.len()]);
    let est = rl::kl_estimators(row(&log_p).view(), row(&zeros).view(), ones.view()).unwrap();
    let mean =
        |k: &ndarray::Array2<f64>| -> f64 { k.iter().zip(&n.probs).map(|(k, p)| k * p).sum() };
    assert!((mean(&est.k1) - n.k1.mean).abs() < 1e-12);
    assert!((mean(&est.k2) - n.k2.mean).abs() < 1e-12);
    assert!((mean(&est.k3) - n.k3.mean).abs() < 1e-12);
    assert!((n.k1.mean - n.kl).abs() < 1e-12 && (n.k3.mean - n.kl).abs() < 1e-12);
    assert_eq!(KlEstimator::K2.value(2.0), 2.0);
    let svg = to_svg(800, 360, |a| {
        kl_estimators::draw(a, &f.data, &Theme::default())
    })
    .unwrap();
    assert!(svg.contains("k3") && svg.contains("KL"));
}
