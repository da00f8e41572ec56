//! The argument checks the core's functions share; each returns the typed error it names.

use super::{Bound, Error, Result, Rule};

/// Every element of `xs` must be finite.
pub(crate) fn check_finite(arg: &str, xs: &[f64]) -> Result<()> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(Error::non_finite(arg, index)),
        None => Ok(()),
    }
}

/// A scalar that must be finite.
pub(crate) fn check_finite_scalar(arg: &str, x: f64) -> Result<()> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(Error::non_finite(arg, 0))
    }
}

/// `x` must satisfy the interval `rule`.
pub(crate) fn check_rule(arg: &str, x: f64, rule: Rule) -> Result<()> {
    if rule.admits(x) {
        Ok(())
    } else {
        Err(Error::range(arg, rule, x))
    }
}

/// A probability-like parameter in the closed interval [0, 1] (γ, λ).
pub(crate) fn check_unit_interval(arg: &str, x: f64) -> Result<()> {
    check_rule(arg, x, Rule::between(0.0, 1.0))
}

/// The PPO clip range ε: 0 ≤ ε < 1 (ε = 0 is the degenerate "no movement" case the
/// reference cases include; ε ≥ 1 would let the lower clip bound reach zero).
pub(crate) fn check_clip_epsilon(x: f64) -> Result<()> {
    let rule = Rule::Interval {
        min: Some(Bound::closed(0.0)),
        max: Some(Bound::open(1.0)),
    };
    check_rule("clip_epsilon", x, rule)
}

/// `len` must equal `expected`.
pub(crate) fn check_len(arg: &str, len: usize, expected: usize) -> Result<()> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::shape(arg, vec![expected], vec![len]))
    }
}

/// A non-empty vector.
pub(crate) fn check_non_empty(arg: &str, len: usize) -> Result<()> {
    if len == 0 {
        Err(Error::range(arg, Rule::NonEmpty, 0usize))
    } else {
        Ok(())
    }
}
