//! Finite-difference checks of the GRU's hand-written backpropagation through time: every
//! parameter, random padded sequences, masked losses.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::nn::categorical::log_softmax_backward;
use pgbook::nn::gru::{Gru, GruBlock, GruShape};
use pgbook::rng;

const SHAPE: GruShape = GruShape {
    vocab: 7,
    embed: 3,
    hidden: 4,
    outputs: 5,
};
/// Central differences in f64: truncation error ~h², rounding ~ε/h; 1e-5 balances both.
const H: f64 = 1e-5;
/// Relative error allowed per parameter (gradients below 1e-2 are compared absolutely at
/// that scale, where relative error means nothing).
const TOL: f64 = 1e-6;

/// Random sequences of length `steps` with a random valid length each; after it the row is
/// PAD (token 0) and the mask is 0. Inside the valid part some mask entries are 0 as well.
struct Problem {
    inputs: Vec<Vec<usize>>,
    mask: Vec<Vec<f64>>,
    /// Per (b, t, k) coefficients of the log-probabilities in the loss.
    coef: Vec<f64>,
}

fn problem(seed: u64, batch: usize, steps: usize) -> Problem {
    let mut r = rng::seeded(seed);
    let mut inputs = vec![vec![0; steps]; batch];
    let mut mask = vec![vec![0.0; steps]; batch];
    for b in 0..batch {
        let len = 1 + rng::below(&mut r, steps);
        for t in 0..len {
            inputs[b][t] = 1 + rng::below(&mut r, SHAPE.vocab - 1);
            mask[b][t] = if rng::uniform(&mut r) < 0.8 { 1.0 } else { 0.0 };
        }
    }
    let coef = (0..batch * steps * SHAPE.outputs)
        .map(|_| rng::normal(&mut r))
        .collect();
    Problem { inputs, mask, coef }
}

/// L = Σ_{b,t} mask[b][t] · Σ_k coef[b,t,k] · log p[b,t,k]: a smooth loss that touches every
/// output of every unmasked step.
fn loss(net: &Gru, p: &Problem) -> f64 {
    let tape = net.forward(&p.inputs).unwrap();
    let a = SHAPE.outputs;
    let mut total = 0.0;
    for b in 0..tape.batch() {
        for t in 0..tape.steps() {
            let lp = tape.log_probs(b, t);
            let c = &p.coef[(b * tape.steps() + t) * a..(b * tape.steps() + t + 1) * a];
            total += p.mask[b][t] * lp.iter().zip(c).map(|(l, c)| l * c).sum::<f64>();
        }
    }
    total
}

fn analytic(net: &Gru, p: &Problem) -> Vec<f64> {
    let tape = net.forward(&p.inputs).unwrap();
    let a = SHAPE.outputs;
    let mut d_logits = vec![0.0; tape.batch() * tape.steps() * a];
    for b in 0..tape.batch() {
        for t in 0..tape.steps() {
            let i = (b * tape.steps() + t) * a;
            let g: Vec<f64> = p.coef[i..i + a].iter().map(|c| c * p.mask[b][t]).collect();
            log_softmax_backward(tape.log_probs(b, t), &g, &mut d_logits[i..i + a]);
        }
    }
    net.backward(&tape, &d_logits).unwrap()
}

/// Largest relative error over every parameter, with the block it occurred in.
fn max_relative_error(seed: u64) -> (f64, GruBlock) {
    let mut r = rng::seeded(seed);
    // head_scale 1: a non-uniform policy, so every block has sizeable gradients.
    let mut net = Gru::new(SHAPE, 1.0, &mut r).unwrap();
    let p = problem(seed + 100, 4, 6);
    let grad = analytic(&net, &p);
    let mut worst = (0.0, GruBlock::Embedding);
    for block in GruBlock::ALL {
        for i in SHAPE.block_range(block) {
            let orig = net.params[i];
            net.params[i] = orig + H;
            let up = loss(&net, &p);
            net.params[i] = orig - H;
            let down = loss(&net, &p);
            net.params[i] = orig;
            let numeric = (up - down) / (2.0 * H);
            let err = (numeric - grad[i]).abs() / numeric.abs().max(grad[i].abs()).max(1e-2);
            if err > worst.0 {
                worst = (err, block);
            }
        }
    }
    worst
}

#[test]
fn every_parameter_matches_finite_differences() {
    for seed in [1, 2, 3] {
        let (err, block) = max_relative_error(seed);
        println!("seed {seed}: max relative error {err:.2e} (in {block:?})");
        assert!(err < TOL, "seed {seed}: {block:?} relative error {err:e}");
    }
}

#[test]
fn padding_after_the_last_masked_step_gets_no_gradient() {
    // Token 6 is read only after every row's last masked step: its embedding row must get
    // exactly zero gradient, and so must everything when the whole mask is zero.
    let mut r = rng::seeded(9);
    let net = Gru::new(SHAPE, 1.0, &mut r).unwrap();
    let mut p = problem(10, 3, 5);
    for b in 0..3 {
        p.inputs[b] = vec![1, 2, 3, 6, 6];
        p.mask[b] = vec![1.0, 1.0, 1.0, 0.0, 0.0];
    }
    let grad = analytic(&net, &p);
    let e = SHAPE.embed;
    let emb = SHAPE.block_range(GruBlock::Embedding);
    assert!(grad[emb.start + 6 * e..emb.start + 7 * e]
        .iter()
        .all(|&g| g == 0.0));
    assert!(grad[emb.start + e..emb.start + 2 * e]
        .iter()
        .any(|&g| g != 0.0));
    p.mask.iter_mut().for_each(|row| row.fill(0.0));
    assert!(analytic(&net, &p).iter().all(|&g| g == 0.0));
}

#[test]
fn incremental_steps_reproduce_the_forward_pass_bit_for_bit() {
    // Sampling uses `step`, training uses `forward`: PPO's first ratio must be exactly 1.
    let mut r = rng::seeded(4);
    let net = Gru::new(SHAPE, 0.1, &mut r).unwrap();
    let p = problem(5, 2, 6);
    let tape = net.forward(&p.inputs).unwrap();
    for (b, row) in p.inputs.iter().enumerate() {
        let mut state = net.initial_state();
        let mut lp = vec![0.0; SHAPE.outputs];
        for (t, &token) in row.iter().enumerate() {
            net.step(token, &mut state, &mut lp).unwrap();
            assert_eq!(lp.as_slice(), tape.log_probs(b, t));
        }
    }
}

#[test]
fn bad_shapes_and_tokens_are_errors() {
    let mut r = rng::seeded(1);
    let net = Gru::new(SHAPE, 1.0, &mut r).unwrap();
    assert!(net.forward(&[vec![1, 2], vec![1]]).is_err());
    assert!(net.forward(&[vec![1, 7]]).is_err());
    let tape = net.forward(&[vec![1, 2]]).unwrap();
    assert!(net.backward(&tape, &[0.0; 3]).is_err());
    assert!(Gru::from_params(SHAPE, vec![0.0; 3]).is_err());
    let zero = GruShape { hidden: 0, ..SHAPE };
    assert!(Gru::new(zero, 1.0, &mut r).is_err());
}
