//! Token and learned position embeddings: the row read at position `t` is
//! `E_tok[token] + E_pos[t]`, the start of the residual stream.

use crate::nn::Scalar;

/// Two tables of `dim`-wide rows: one per token of the vocabulary, one per position of the
/// context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Embedding {
    /// Input tokens.
    pub vocab: usize,
    /// Positions (the longest row the network reads).
    pub context: usize,
    /// Width of a row.
    pub dim: usize,
}

impl Embedding {
    /// The token table `[vocab, dim]`, then the position table `[context, dim]`.
    pub fn num_params(&self) -> usize {
        (self.vocab + self.context) * self.dim
    }

    /// One row: `x = E_tok[token] + E_pos[position]`.
    pub fn row<S: Scalar>(&self, params: &[S], token: usize, position: usize, x: &mut [S]) {
        let d = self.dim;
        let tok = &params[token * d..(token + 1) * d];
        let pos_at = (self.vocab + position) * d;
        let pos = &params[pos_at..pos_at + d];
        for ((o, &a), &b) in x.iter_mut().zip(tok).zip(pos) {
            *o = a + b;
        }
    }

    /// Every row of `rows` sequences of `steps` tokens (`tokens[b·steps + t]`, already
    /// checked against the vocabulary and the context).
    pub fn forward<S: Scalar>(&self, params: &[S], tokens: &[usize], steps: usize, x: &mut [S]) {
        for (r, (&token, xr)) in tokens.iter().zip(x.chunks_exact_mut(self.dim)).enumerate() {
            self.row(params, token, r % steps, xr);
        }
    }

    /// Adds each row's gradient `dx` to the token's and the position's rows of `grad`.
    pub fn backward<S: Scalar>(&self, tokens: &[usize], steps: usize, dx: &[S], grad: &mut [S]) {
        let d = self.dim;
        for (r, (&token, dr)) in tokens.iter().zip(dx.chunks_exact(d)).enumerate() {
            let tok = &mut grad[token * d..(token + 1) * d];
            tok.iter_mut().zip(dr).for_each(|(g, &v)| *g += v);
            let pos_at = (self.vocab + r % steps) * d;
            let pos = &mut grad[pos_at..pos_at + d];
            pos.iter_mut().zip(dr).for_each(|(g, &v)| *g += v);
        }
    }
}
