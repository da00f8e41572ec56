//! Orthogonal initialisation, as PyTorch's `nn.init.orthogonal_` (the PPO implementation detail
//! that keeps early activations well scaled).

use crate::rng::{normal, Rng};

/// An `inputs × outputs` weight matrix (row-major by input, the layout of [`super::Mlp`]) whose
/// rows or columns (whichever are fewer) are orthonormal, scaled by `gain`.
///
/// Modified Gram–Schmidt on a standard normal matrix: the same distribution as QR with the
/// signs of R's diagonal made positive, which is what PyTorch does.
pub fn orthogonal(inputs: usize, outputs: usize, gain: f64, rng: &mut Rng) -> Vec<f64> {
    // Orthonormalise `short` vectors of length `long`.
    let (long, short) = (inputs.max(outputs), inputs.min(outputs));
    let mut q: Vec<Vec<f64>> = (0..short)
        .map(|_| (0..long).map(|_| normal(rng)).collect())
        .collect();
    for j in 0..short {
        let (done, rest) = q.split_at_mut(j);
        let v = &mut rest[0];
        for u in done.iter() {
            let d: f64 = u.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
            v.iter_mut().zip(u).for_each(|(x, a)| *x -= d * a);
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        v.iter_mut().for_each(|x| *x /= norm);
    }
    let mut w = vec![0.0; inputs * outputs];
    for (j, v) in q.iter().enumerate() {
        for (k, &x) in v.iter().enumerate() {
            // Vectors run along the longer side of the matrix.
            let (i, o) = if inputs >= outputs { (k, j) } else { (j, k) };
            w[i * outputs + o] = gain * x;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;

    fn gram(w: &[f64], inputs: usize, outputs: usize, by_rows: bool) -> Vec<f64> {
        let n = if by_rows { inputs } else { outputs };
        let mut g = vec![0.0; n * n];
        for a in 0..n {
            for b in 0..n {
                g[a * n + b] = if by_rows {
                    (0..outputs)
                        .map(|o| w[a * outputs + o] * w[b * outputs + o])
                        .sum()
                } else {
                    (0..inputs)
                        .map(|i| w[i * outputs + a] * w[i * outputs + b])
                        .sum()
                };
            }
        }
        g
    }

    #[test]
    fn the_shorter_side_is_orthonormal_times_gain() {
        let mut rng = seeded(5);
        for (inputs, outputs, gain) in [(4, 64, 2f64.sqrt()), (64, 64, 1.0), (64, 2, 0.01)] {
            let w = orthogonal(inputs, outputs, gain, &mut rng);
            let by_rows = inputs <= outputs;
            let g = gram(&w, inputs, outputs, by_rows);
            let n = inputs.min(outputs);
            for a in 0..n {
                for b in 0..n {
                    let want = if a == b { gain * gain } else { 0.0 };
                    assert!((g[a * n + b] - want).abs() < 1e-12, "{inputs}x{outputs}");
                }
            }
        }
    }
}
