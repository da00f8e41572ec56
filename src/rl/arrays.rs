//! The course's arrays as ndarray types, and the conversions at the JSON boundary: JSON (the
//! fixtures, the page's data) keeps nested arrays, the functions of `rl` take `ArrayView1` /
//! `ArrayView2` and return `Array1` / `Array2`.
//!
//! Reductions run over `.iter()` in row-major order, never through ndarray's `sum`/`mean`
//! (they reassociate the sum, which would change the bits; `clippy.toml` forbids them).

use crate::error::{Error, Result};
use ndarray::{Array2, ArrayView, ArrayView2, Dimension};

/// A `[B, T]` array as nested rows: its JSON form.
pub type Grid = Vec<Vec<f64>>;

/// Rows of equal length as a `[B, T]` array. A row of another length is a shape error naming
/// the row (`arg[b]`), so ragged JSON is refused before any computation.
///
/// ```
/// let a = pgbook::rl::array2("mask", &[vec![1.0, 0.0], vec![0.0, 1.0]]).unwrap();
/// assert_eq!(a.dim(), (2, 2));
/// assert!(pgbook::rl::array2("mask", &[vec![1.0, 0.0], vec![0.0]]).is_err());
/// ```
pub fn array2<T: Clone>(arg: &str, rows: &[Vec<T>]) -> Result<Array2<T>> {
    let t = rows.first().map_or(0, Vec::len);
    if let Some(b) = rows.iter().position(|row| row.len() != t) {
        let got = vec![rows[b].len()];
        return Err(Error::shape(format!("{arg}[{b}]"), vec![t], got));
    }
    let flat: Vec<T> = rows.iter().flatten().cloned().collect();
    let len = flat.len();
    Array2::from_shape_vec((rows.len(), t), flat)
        .map_err(|_| Error::shape(arg, vec![rows.len(), t], vec![len]))
}

/// A 2-D array as nested rows (its JSON form).
pub fn rows<T: Clone>(a: ArrayView2<'_, T>) -> Vec<Vec<T>> {
    a.rows().into_iter().map(|row| row.to_vec()).collect()
}

/// Every element must be finite; the error names the first offender by its row-major index
/// (`b·T + k` in a `[B, T]` array).
pub(crate) fn check_finite<D: Dimension>(arg: &str, x: &ArrayView<'_, f64, D>) -> Result<()> {
    match x.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(Error::non_finite(arg, index)),
        None => Ok(()),
    }
}

/// `x` must have the shape `expected` (checked before any `Zip`, which would panic).
pub(crate) fn check_shape2(
    arg: &str,
    x: ArrayView2<'_, f64>,
    expected: (usize, usize),
) -> Result<()> {
    if x.dim() == expected {
        Ok(())
    } else {
        let (b, t) = x.dim();
        Err(Error::shape(arg, vec![expected.0, expected.1], vec![b, t]))
    }
}
