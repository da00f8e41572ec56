//! The contract of every network behind the sequence trainer's seam
//! ([`SequencePolicy`]), checked the same way for each: the hand-written backward pass
//! against central differences on every parameter (random padded rows, a masked loss that
//! touches every output), tokens after a row's last masked step changing no gradient,
//! incremental steps reproducing the batched forward bit for bit (PPO's first ratio is then
//! exactly 1), and bad shapes and tokens as errors. A network joins with one line at the end.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::nn::categorical::log_softmax_backward;
use pgbook::nn::{PolicyTape, Scalar, SequencePolicy};
use pgbook::rng;

/// Random rows of length `steps` over `vocab` tokens, each with a random valid length; after
/// it the row repeats token `vocab − 1` and the mask is 0, and inside it some mask entries
/// are 0 too.
pub struct Problem {
    pub inputs: Vec<Vec<usize>>,
    pub mask: Vec<Vec<f64>>,
    /// Per (b, t, k) coefficients of the log-probabilities in the loss.
    pub coef: Vec<f64>,
}

pub fn problem(seed: u64, vocab: usize, outputs: usize, batch: usize, steps: usize) -> Problem {
    let mut r = rng::seeded(seed);
    let mut inputs = vec![vec![vocab - 1; steps]; batch];
    let mut mask = vec![vec![0.0; steps]; batch];
    for b in 0..batch {
        let len = 1 + rng::below(&mut r, steps);
        for t in 0..len {
            inputs[b][t] = rng::below(&mut r, vocab - 1);
            mask[b][t] = if rng::uniform(&mut r) < 0.8 { 1.0 } else { 0.0 };
        }
    }
    let coef = (0..batch * steps * outputs)
        .map(|_| rng::normal(&mut r))
        .collect();
    Problem { inputs, mask, coef }
}

/// L = Σ_{b,t} mask[b][t] · Σ_k coef[b,t,k] · log p[b,t,k]: smooth, and it touches every
/// output of every unmasked step.
pub fn loss<P: SequencePolicy>(net: &P, p: &Problem) -> f64 {
    let tape = net.forward(&p.inputs).unwrap();
    let a = net.outputs();
    let mut total = 0.0;
    for b in 0..tape.batch() {
        for t in 0..tape.steps() {
            let lp = tape.log_probs(b, t);
            let i = (b * tape.steps() + t) * a;
            let c = &p.coef[i..i + a];
            total += p.mask[b][t] * lp.iter().zip(c).map(|(l, c)| l * c).sum::<f64>();
        }
    }
    total
}

/// The analytic gradient of [`loss`], widened to f64.
pub fn analytic<P: SequencePolicy>(net: &P, p: &Problem) -> Vec<f64> {
    let tape = net.forward(&p.inputs).unwrap();
    let a = net.outputs();
    let mut d_logits = vec![0.0; tape.batch() * tape.steps() * a];
    for b in 0..tape.batch() {
        for t in 0..tape.steps() {
            let i = (b * tape.steps() + t) * a;
            let g: Vec<f64> = p.coef[i..i + a].iter().map(|c| c * p.mask[b][t]).collect();
            log_softmax_backward(tape.log_probs(b, t), &g, &mut d_logits[i..i + a]);
        }
    }
    let grad = net.backward(&tape, &d_logits).unwrap();
    grad.iter().map(|g| g.to_f64()).collect()
}

/// Central differences: step and tolerance per scalar. f64: truncation ~h², rounding ~ε/h,
/// 1e-5 balances both. f32 (ε ≈ 6e-8): a step of 1e-2 keeps rounding near 1e-5 of a unit
/// gradient, and the comparison is looser accordingly.
fn step_and_tolerance<S: Scalar>() -> (f64, f64) {
    if S::NAME == "f64" {
        (1e-5, 1e-6)
    } else {
        (1e-2, 5e-3)
    }
}

/// Largest relative error over every parameter and where it occurred (gradients below the
/// floor are compared absolutely at that scale, where relative error means nothing).
pub fn max_relative_error<P: SequencePolicy>(net: &mut P, p: &Problem) -> (f64, usize) {
    let (h, _) = step_and_tolerance::<P::Scalar>();
    let floor = if P::Scalar::NAME == "f64" { 1e-2 } else { 1e-1 };
    let grad = analytic(net, p);
    let mut worst = (0.0, 0);
    for i in 0..grad.len() {
        let orig = net.params()[i];
        net.params_mut()[i] = P::Scalar::from_f64(orig.to_f64() + h);
        let up_step = net.params()[i].to_f64() - orig.to_f64();
        let up = loss(net, p);
        net.params_mut()[i] = P::Scalar::from_f64(orig.to_f64() - h);
        let down_step = orig.to_f64() - net.params()[i].to_f64();
        let down = loss(net, p);
        net.params_mut()[i] = orig;
        // The steps actually taken (f32 rounds x ± h).
        let numeric = (up - down) / (up_step + down_step);
        let err = (numeric - grad[i]).abs() / numeric.abs().max(grad[i].abs()).max(floor);
        if err > worst.0 {
            worst = (err, i);
        }
    }
    worst
}

/// Every parameter of a network of `shape` (head scale 1: a policy far from uniform, so every
/// parameter has a sizeable gradient) against central differences, on three seeds.
pub fn every_parameter_matches_finite_differences<P: SequencePolicy>(
    shape: P::Shape,
    vocab: usize,
    steps: usize,
) {
    let (_, tol) = step_and_tolerance::<P::Scalar>();
    for seed in [1, 2, 3] {
        let mut net = P::init(shape, 1.0, &mut rng::seeded(seed)).unwrap();
        let p = problem(seed + 100, vocab, net.outputs(), 3, steps);
        let (err, at) = max_relative_error(&mut net, &p);
        println!("{shape:?} seed {seed}: max relative error {err:.2e} (parameter {at})");
        assert!(err < tol, "{shape:?} seed {seed}: parameter {at}: {err:e}");
    }
}

/// Tokens after a row's last masked step cannot change any gradient (they come later), and
/// a loss with an all-zero mask has exactly zero gradient.
pub fn tokens_after_the_last_masked_step_change_nothing<P: SequencePolicy>(
    shape: P::Shape,
    vocab: usize,
    steps: usize,
) {
    let net = P::init(shape, 1.0, &mut rng::seeded(9)).unwrap();
    let mut p = problem(10, vocab, net.outputs(), 3, steps);
    for b in 0..3 {
        p.mask[b] = (0..steps).map(|t| f64::from(t < 3)).collect();
    }
    let grad = analytic(&net, &p);
    assert!(grad.iter().any(|&g| g != 0.0));
    for b in 0..3 {
        for t in 3..steps {
            p.inputs[b][t] = (p.inputs[b][t] + 1 + b) % vocab;
        }
    }
    assert_eq!(analytic(&net, &p), grad, "{shape:?}");
    p.mask.iter_mut().for_each(|row| row.fill(0.0));
    assert!(analytic(&net, &p).iter().all(|&g| g == 0.0), "{shape:?}");
}

/// Sampling uses `step`, training `forward`: their log-probs must agree to the bit.
pub fn incremental_steps_reproduce_the_forward_pass_bit_for_bit<P: SequencePolicy>(
    shape: P::Shape,
    vocab: usize,
    steps: usize,
) {
    let net = P::init(shape, 0.1, &mut rng::seeded(4)).unwrap();
    let p = problem(5, vocab, net.outputs(), 3, steps);
    let tape = net.forward(&p.inputs).unwrap();
    for (b, row) in p.inputs.iter().enumerate() {
        let mut state = net.initial_state();
        let mut lp = vec![0.0; net.outputs()];
        for (t, &token) in row.iter().enumerate() {
            net.step(token, &mut state, &mut lp).unwrap();
            let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&lp),
                bits(tape.log_probs(b, t)),
                "{shape:?} row {b} step {t}"
            );
        }
    }
}

/// Rows of unequal length, a token outside the vocabulary and a gradient of the wrong size
/// are errors, not panics.
pub fn bad_shapes_and_tokens_are_errors<P: SequencePolicy>(shape: P::Shape, vocab: usize) {
    let net = P::init(shape, 1.0, &mut rng::seeded(1)).unwrap();
    assert!(net.forward(&[vec![1, 2], vec![1]]).is_err());
    assert!(net.forward(&[vec![1, vocab]]).is_err());
    let mut state = net.initial_state();
    let mut lp = vec![0.0; net.outputs()];
    assert!(net.step(vocab, &mut state, &mut lp).is_err());
    let tape = net.forward(&[vec![1, 2]]).unwrap();
    assert!(net.backward(&tape, &[0.0; 3]).is_err());
}

/// The whole contract for one network: `contract!(module, Type, shape, vocab, steps)`.
macro_rules! contract {
    ($name:ident, $policy:ty, $shape:expr, $vocab:expr, $steps:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn every_parameter_matches_finite_differences() {
                super::every_parameter_matches_finite_differences::<$policy>(
                    $shape, $vocab, $steps,
                );
            }
            #[test]
            fn tokens_after_the_last_masked_step_change_nothing() {
                super::tokens_after_the_last_masked_step_change_nothing::<$policy>(
                    $shape, $vocab, $steps,
                );
            }
            #[test]
            fn incremental_steps_reproduce_the_forward_pass_bit_for_bit() {
                super::incremental_steps_reproduce_the_forward_pass_bit_for_bit::<$policy>(
                    $shape, $vocab, $steps,
                );
            }
            #[test]
            fn bad_shapes_and_tokens_are_errors() {
                super::bad_shapes_and_tokens_are_errors::<$policy>($shape, $vocab);
            }
        }
    };
}

use pgbook::nn::{Gru, GruShape};

const GRU: GruShape = GruShape {
    vocab: 7,
    embed: 3,
    hidden: 4,
    outputs: 5,
};

contract!(gru, Gru, GRU, 7, 6);

use pgbook::nn::{Transformer, TransformerShape};

/// Two blocks of two heads: every kind of parameter twice, positions past the rows' length.
const TRANSFORMER: TransformerShape = TransformerShape {
    vocab: 7,
    outputs: 5,
    model: 8,
    heads: 2,
    layers: 2,
    mlp: 12,
    context: 8,
};

contract!(transformer_f64, Transformer<f64>, TRANSFORMER, 7, 6);
contract!(transformer_f32, Transformer<f32>, TRANSFORMER, 7, 6);
