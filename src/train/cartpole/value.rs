//! The critic's loss term, one sample at a time, as PPO and A2C both take it.

use crate::rl;

/// One sample's value-loss term and its derivative in V: ½(V − R)² and V − R, or with
/// `clip = Some((V_old, ε_V))` PPO's clipped ½·max((V − R)², (V_clip − R)²)
/// ([`rl::clipped_value_term`]).
///
/// ```
/// use pgbook::train::cartpole::value::value_term;
/// assert_eq!(value_term(1.5, 2.0, None), (0.125, -0.5));
/// assert_eq!(value_term(1.5, 2.0, Some((1.0, 0.2))).1, 0.0);
/// ```
pub fn value_term(value: f64, target: f64, clip: Option<(f64, f64)>) -> (f64, f64) {
    match clip {
        Some((old_value, eps)) => {
            let (_, term, d_value) = rl::clipped_value_term(value, old_value, target, eps);
            (term, d_value)
        }
        None => {
            let err = value - target;
            (0.5 * err * err, err)
        }
    }
}
