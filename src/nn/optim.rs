//! Adam and global gradient-norm clipping over flat parameter vectors of f32 or f64. The
//! hyperparameters and bias corrections are f64 scalars, rounded once per step to `S`.

use super::scalar::Scalar;

/// Adam (Kingma & Ba) with bias correction; `eps` 1e-5 as in CleanRL's PPO.
#[derive(Debug, Clone)]
pub struct Adam<S: Scalar = f64> {
    /// First-moment decay.
    pub beta1: f64,
    /// Second-moment decay.
    pub beta2: f64,
    /// Added to the root of the second moment.
    pub eps: f64,
    m: Vec<S>,
    v: Vec<S>,
    t: u32,
}

impl<S: Scalar> Adam<S> {
    /// Adam state for `n` parameters with β = (0.9, 0.999) and ε = 1e-5.
    pub fn new(n: usize) -> Self {
        Adam {
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-5,
            m: vec![S::ZERO; n],
            v: vec![S::ZERO; n],
            t: 0,
        }
    }

    /// Number of steps taken.
    pub fn steps(&self) -> u32 {
        self.t
    }

    /// One update of `params` against `grads` (a loss gradient: params move downhill).
    pub fn step(&mut self, params: &mut [S], grads: &[S], lr: f64) {
        debug_assert_eq!(params.len(), self.m.len());
        debug_assert_eq!(grads.len(), self.m.len());
        self.t += 1;
        let t = f64::from(self.t);
        let bc1 = 1.0 - crate::math::pow(self.beta1, t);
        let bc2 = 1.0 - crate::math::pow(self.beta2, t);
        // PyTorch's form: p -= lr/bc1 · m / (sqrt(v)/sqrt(bc2) + eps).
        let step = S::from_f64(lr / bc1);
        let bc2_sqrt = S::from_f64(bc2.sqrt());
        let (beta1, beta2, eps) = (
            S::from_f64(self.beta1),
            S::from_f64(self.beta2),
            S::from_f64(self.eps),
        );
        let (one_minus_beta1, one_minus_beta2) =
            (S::from_f64(1.0 - self.beta1), S::from_f64(1.0 - self.beta2));
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grads)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = beta1 * *m + one_minus_beta1 * g;
            *v = beta2 * *v + one_minus_beta2 * g * g;
            *p -= step * *m / (v.sqrt() / bc2_sqrt + eps);
        }
    }
}

/// Scales all gradients together so that their global L2 norm is at most `max_norm`; returns
/// the norm before clipping (a diagnostic worth plotting). The sum of squares runs in `S`, in
/// index order.
pub fn clip_grad_norm<S: Scalar>(grads: &mut [&mut [S]], max_norm: f64) -> f64 {
    let norm = grads
        .iter()
        .flat_map(|g| g.iter())
        .map(|&g| g * g)
        .sum::<S>()
        .sqrt()
        .to_f64();
    if norm > max_norm && norm.is_finite() {
        let scale = S::from_f64(max_norm / (norm + 1e-6));
        grads
            .iter_mut()
            .for_each(|g| g.iter_mut().for_each(|x| *x *= scale));
    }
    norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_first_step_moves_each_parameter_by_lr() {
        // With bias correction, the first step is lr · g/|g| (up to eps).
        let mut adam = Adam::new(2);
        let mut p = vec![1.0f64, -1.0];
        adam.step(&mut p, &[0.5, -3.0], 0.1);
        assert!((p[0] - 0.9).abs() < 1e-4, "{p:?}");
        assert!((p[1] + 0.9).abs() < 1e-4, "{p:?}");
    }

    #[test]
    fn adam_minimises_a_quadratic() {
        let mut adam = Adam::new(1);
        let mut p = vec![5.0f64];
        for _ in 0..2000 {
            let g = [2.0 * (p[0] - 2.0)];
            adam.step(&mut p, &g, 0.05);
        }
        assert!((p[0] - 2.0).abs() < 1e-3, "{p:?}");
    }

    #[test]
    fn clipping_scales_to_max_norm_and_reports_the_old_norm() {
        let (mut a, mut b) = (vec![3.0f64], vec![4.0]);
        let norm = clip_grad_norm(&mut [&mut a, &mut b], 1.0);
        assert_eq!(norm, 5.0);
        let new_norm = (a[0] * a[0] + b[0] * b[0]).sqrt();
        assert!((new_norm - 1.0).abs() < 1e-6);
        let (mut c, mut d) = (vec![0.3f64], vec![0.4]);
        clip_grad_norm(&mut [&mut c, &mut d], 1.0);
        assert_eq!((c[0], d[0]), (0.3, 0.4));
    }
}
