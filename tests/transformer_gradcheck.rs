//! The transformer's layers one by one — embeddings, RMSNorm, causal attention, the GELU
//! MLP, a whole pre-norm block — each backward against central differences of its forward,
//! for every parameter and every input, in f64 and f32; and the check failing when a backward
//! is wrong (the whole network's check is `tests/policy_contract.rs`'s).

#![cfg(not(target_arch = "wasm32"))]

use pgbook::nn::transformer::attention::Attention;
use pgbook::nn::transformer::block::Block;
use pgbook::nn::transformer::embedding::Embedding;
use pgbook::nn::transformer::mlp::FeedForward;
use pgbook::nn::transformer::norm::RmsNorm;
use pgbook::nn::Scalar;
use pgbook::rng;

const BATCH: usize = 2;
const STEPS: usize = 4;
const MODEL: usize = 6;
const HEADS: usize = 2;
const HIDDEN: usize = 10;

/// `n` values N(0, scale²), from `seed`.
fn random<S: Scalar>(seed: u64, n: usize, scale: f64) -> Vec<S> {
    let mut r = rng::seeded(seed);
    (0..n)
        .map(|_| S::from_f64(scale * rng::normal(&mut r)))
        .collect()
}

/// A layer's forward: (params, input) → output.
type Forward<S> = Box<dyn Fn(&[S], &[S]) -> Vec<S>>;
/// A layer's backward: (params, input, ∂L/∂output) → (∂L/∂params, ∂L/∂input).
type Backward<S> = Box<dyn Fn(&[S], &[S], &[S]) -> (Vec<S>, Vec<S>)>;

/// A layer under test at a point: its parameters and input, its forward and backward.
struct Layer<S> {
    params: Vec<S>,
    input: Vec<S>,
    forward: Forward<S>,
    backward: Backward<S>,
}

/// Central differences in f64: truncation ~h², rounding ~ε/h; 1e-5 balances both.
const H: f64 = 1e-5;
/// Relative error allowed per parameter in f64; in f32 the analytic gradient carries the
/// rounding of f32 arithmetic (≈ 1e-7 per operation, summed over a row's products).
const TOL_F64: f64 = 1e-6;
const TOL_F32: f64 = 1e-3;

/// The worst relative error of `analytic` (the gradients of L = Σ_i c_i · out_i with respect
/// to every parameter and every input) against central differences of `layer`'s forward in
/// f64 at the same point, and where it occurred. An f32 layer is checked against the f64
/// instance of the same generic code at its own (widened) parameters: differences taken in
/// f32 would be dominated by its rounding (a step small enough for the truncation error is
/// near f32's resolution).
fn worst_error(layer: &mut Layer<f64>, analytic: (Vec<f64>, Vec<f64>)) -> (f64, String) {
    let Layer {
        params,
        input,
        forward,
        ..
    } = layer;
    let coef = coefficients(forward(params, input).len());
    let loss = |p: &[f64], x: &[f64]| -> f64 {
        let out = forward(p, x);
        out.iter().zip(&coef).map(|(o, c)| o * c).sum()
    };
    let (dp, dx) = analytic;
    assert_eq!(dp.len(), params.len());
    assert_eq!(dx.len(), input.len());
    let mut worst = (0.0, String::new());
    for (which, grad) in [("parameter", &dp), ("input", &dx)] {
        for i in 0..grad.len() {
            let v = if which == "parameter" {
                &mut params[..]
            } else {
                &mut input[..]
            };
            let orig = v[i];
            v[i] = orig + H;
            let up = loss(params, input);
            let v = if which == "parameter" {
                &mut params[..]
            } else {
                &mut input[..]
            };
            v[i] = orig - H;
            let down = loss(params, input);
            let v = if which == "parameter" {
                &mut params[..]
            } else {
                &mut input[..]
            };
            v[i] = orig;
            let numeric = (up - down) / (2.0 * H);
            let a = grad[i];
            let err = (numeric - a).abs() / numeric.abs().max(a.abs()).max(1e-2);
            if err > worst.0 {
                worst = (
                    err,
                    format!("{which} {i}: analytic {a:e}, numeric {numeric:e}"),
                );
            }
        }
    }
    worst
}

/// The loss's fixed coefficients c (one per output).
fn coefficients(n: usize) -> Vec<f64> {
    random::<f64>(77, n, 1.0)
}

/// The analytic gradients of the loss from `layer`'s own backward, widened to f64.
fn analytic<S: Scalar>(layer: &Layer<S>) -> (Vec<f64>, Vec<f64>) {
    let n = (layer.forward)(&layer.params, &layer.input).len();
    let d_out: Vec<S> = coefficients(n).into_iter().map(S::from_f64).collect();
    let (dp, dx) = (layer.backward)(&layer.params, &layer.input, &d_out);
    let wide = |v: Vec<S>| v.into_iter().map(S::to_f64).collect();
    (wide(dp), wide(dx))
}

fn norm_layer<S: Scalar>() -> Layer<S> {
    let norm = RmsNorm { dim: MODEL };
    let rows = BATCH * STEPS;
    let mut params: Vec<S> = random(1, MODEL, 0.3);
    params.iter_mut().for_each(|g| *g += S::ONE);
    Layer {
        params,
        input: random(2, rows * MODEL, 1.0),
        forward: Box::new(move |g: &[S], x: &[S]| {
            let (mut y, mut inv) = (vec![S::ZERO; x.len()], vec![S::ZERO; rows]);
            norm.forward(g, x, &mut y, &mut inv);
            y
        }),
        backward: Box::new(move |g: &[S], x: &[S], dy: &[S]| {
            let (mut y, mut inv) = (vec![S::ZERO; x.len()], vec![S::ZERO; rows]);
            norm.forward(g, x, &mut y, &mut inv);
            let (mut dg, mut dx) = (vec![S::ZERO; g.len()], vec![S::ZERO; x.len()]);
            norm.backward(g, x, &inv, dy, &mut dg, &mut dx);
            (dg, dx)
        }),
    }
}

fn attention_layer<S: Scalar>() -> Layer<S> {
    let layer = Attention {
        model: MODEL,
        heads: HEADS,
    };
    Layer {
        // Large enough weights for attention far from uniform.
        params: random(3, layer.num_params(), 0.6),
        input: random(4, BATCH * STEPS * MODEL, 1.0),
        forward: Box::new(move |p: &[S], h: &[S]| {
            let mut out = Vec::new();
            layer.forward(p, h, BATCH, STEPS, &mut out);
            out
        }),
        backward: Box::new(move |p: &[S], h: &[S], d_out: &[S]| {
            let mut out = Vec::new();
            let tape = layer.forward(p, h, BATCH, STEPS, &mut out);
            let (mut grad, mut dh) = (vec![S::ZERO; p.len()], vec![S::ZERO; h.len()]);
            layer.backward(p, h, &tape, d_out, BATCH, STEPS, &mut grad, &mut dh);
            (grad, dh)
        }),
    }
}

fn mlp_layer<S: Scalar>() -> Layer<S> {
    let layer = FeedForward {
        model: MODEL,
        hidden: HIDDEN,
    };
    let rows = BATCH * STEPS;
    Layer {
        params: random(5, layer.num_params(), 0.5),
        input: random(6, rows * MODEL, 1.0),
        forward: Box::new(move |p: &[S], x: &[S]| {
            let mut out = Vec::new();
            layer.forward(p, x, rows, &mut out);
            out
        }),
        backward: Box::new(move |p: &[S], x: &[S], d_out: &[S]| {
            let mut out = Vec::new();
            let tape = layer.forward(p, x, rows, &mut out);
            let (mut grad, mut dx) = (vec![S::ZERO; p.len()], vec![S::ZERO; x.len()]);
            layer.backward(p, x, &tape, d_out, rows, &mut grad, &mut dx);
            (grad, dx)
        }),
    }
}

fn block_layer<S: Scalar>() -> Layer<S> {
    let block = Block::new(MODEL, HEADS, HIDDEN);
    let mut params: Vec<S> = random(7, block.num_params(), 0.5);
    // The norms' gains near 1, as trained networks have them.
    for r in [block.ranges()[0].clone(), block.ranges()[2].clone()] {
        params[r].iter_mut().for_each(|g| *g += S::ONE);
    }
    Layer {
        params,
        input: random(8, BATCH * STEPS * MODEL, 1.0),
        forward: Box::new(move |p: &[S], x: &[S]| {
            let mut x = x.to_vec();
            block.forward(p, &mut x, BATCH, STEPS);
            x
        }),
        backward: Box::new(move |p: &[S], x: &[S], d_out: &[S]| {
            let mut stream = x.to_vec();
            let tape = block.forward(p, &mut stream, BATCH, STEPS);
            let (mut grad, mut dx) = (vec![S::ZERO; p.len()], d_out.to_vec());
            block.backward(p, &tape, &mut dx, BATCH, STEPS, &mut grad);
            (grad, dx)
        }),
    }
}

/// The embeddings' input is tokens (no gradient): their parameters only, a row's token and
/// position tables both read.
fn embedding_layer<S: Scalar>() -> Layer<S> {
    let layer = Embedding {
        vocab: 5,
        context: STEPS + 2,
        dim: MODEL,
    };
    let tokens: Vec<usize> = (0..BATCH * STEPS).map(|i| (i * 3 + 1) % 5).collect();
    let tokens2 = tokens.clone();
    Layer {
        params: random(9, layer.num_params(), 1.0),
        input: Vec::new(),
        forward: Box::new(move |p: &[S], _: &[S]| {
            let mut x = vec![S::ZERO; tokens.len() * MODEL];
            layer.forward(p, &tokens, STEPS, &mut x);
            x
        }),
        backward: Box::new(move |p: &[S], _: &[S], dx: &[S]| {
            let mut grad = vec![S::ZERO; p.len()];
            layer.backward(&tokens2, STEPS, dx, &mut grad);
            (grad, Vec::new())
        }),
    }
}

/// The f64 layer `wide` against finite differences; and, built by the same constructor in
/// f32, the f32 layer's gradients at its own parameters and inputs (widened into `wide`).
fn check(name: &str, mut wide: Layer<f64>, narrow: Layer<f32>) {
    let grads = analytic(&wide);
    let (err, at) = worst_error(&mut wide, grads);
    println!("{name} (f64): max relative error {err:.2e} ({at})");
    assert!(err < TOL_F64, "{name} (f64): {err:e} at {at}");
    wide.params = narrow.params.iter().map(|&p| f64::from(p)).collect();
    wide.input = narrow.input.iter().map(|&p| f64::from(p)).collect();
    let (err, at) = worst_error(&mut wide, analytic(&narrow));
    println!("{name} (f32): max relative error {err:.2e} ({at})");
    assert!(err < TOL_F32, "{name} (f32): {err:e} at {at}");
}

#[test]
fn every_layer_matches_finite_differences_in_f64_and_f32() {
    check("embedding", embedding_layer(), embedding_layer());
    check("rms norm", norm_layer(), norm_layer());
    check("attention", attention_layer(), attention_layer());
    check("mlp", mlp_layer(), mlp_layer());
    check("block", block_layer(), block_layer());
}

/// The check is not blind: a backward with a typical mistake fails it. RMSNorm's backward
/// without the term through the row's rms (as if r were a constant), and any layer's
/// gradient off by 0.1 % in one entry.
#[test]
fn a_wrong_backward_fails_the_check() {
    let norm = RmsNorm { dim: MODEL };
    let rows = BATCH * STEPS;
    let correct = norm_layer::<f64>();
    let mut constant_rms = Layer {
        backward: Box::new(move |g: &[f64], x: &[f64], dy: &[f64]| {
            let (mut y, mut inv) = (vec![0.0; x.len()], vec![0.0; rows]);
            norm.forward(g, x, &mut y, &mut inv);
            let (mut dg, mut dx) = (vec![0.0; g.len()], vec![0.0; x.len()]);
            for r in 0..rows {
                for i in 0..MODEL {
                    let k = r * MODEL + i;
                    dg[i] += dy[k] * x[k] * inv[r];
                    dx[k] = inv[r] * g[i] * dy[k];
                }
            }
            (dg, dx)
        }),
        params: correct.params,
        input: correct.input,
        forward: correct.forward,
    };
    let grads = analytic(&constant_rms);
    let (err, at) = worst_error(&mut constant_rms, grads);
    assert!(
        err > 1e-2,
        "RMSNorm without the rms term passed: {err:e} at {at}"
    );

    let attention = attention_layer::<f64>();
    let backward = attention.backward;
    let mut off = Layer {
        backward: Box::new(move |p: &[f64], h: &[f64], d: &[f64]| {
            let (mut grad, dh) = backward(p, h, d);
            grad[5] *= 1.001;
            (grad, dh)
        }),
        params: attention.params,
        input: attention.input,
        forward: attention.forward,
    };
    let grads = analytic(&off);
    let (err, at) = worst_error(&mut off, grads);
    assert!(
        err > 1e-4,
        "an attention gradient 0.1 % off passed: {err:e} at {at}"
    );
    let mlp = mlp_layer::<f64>();
    let backward = mlp.backward;
    let mut off = Layer {
        backward: Box::new(move |p: &[f64], x: &[f64], d: &[f64]| {
            let (grad, mut dx) = backward(p, x, d);
            dx[3] *= 1.001;
            (grad, dx)
        }),
        params: mlp.params,
        input: mlp.input,
        forward: mlp.forward,
    };
    let grads = analytic(&off);
    let (err, at) = worst_error(&mut off, grads);
    assert!(
        err > 1e-4,
        "an MLP input gradient 0.1 % off passed: {err:e} at {at}"
    );
}
