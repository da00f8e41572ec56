//! The course's arrays as ndarray types, and the conversions at the JSON boundary: JSON (the
//! fixtures, the page's data) keeps nested arrays, the functions of `rl` take `ArrayView1` /
//! `ArrayView2` and return `Array1` / `Array2`.
//!
//! Reductions run over `.iter()` in row-major order, never through ndarray's `sum`/`mean`
//! (they reassociate the sum, which would change the bits; `clippy.toml` forbids them).

use crate::error::{Error, Result};
use ndarray::{Array2, ArrayView, ArrayView2, Dimension};

/// A `[B, T]` array as nested rows: its JSON form.
#[cfg_attr(target_arch = "wasm32", tsify::declare)]
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

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::rl;
    use ndarray::{aview1, aview2};

    #[test]
    fn mismatched_shapes_are_errors_not_panics() {
        let e = rl::masked_token_ppo_terms(
            aview2(&[[0.0, 0.0]]),
            aview2(&[[0.0, 0.0, 0.0]]),
            aview1(&[1.0]),
            aview2(&[[1.0, 1.0]]),
            0.2,
        )
        .unwrap_err();
        let expected = ErrorKind::Shape {
            arg: "old_log_probs".into(),
            expected: vec![1, 2],
            got: vec![1, 3],
        };
        assert_eq!(e.into_kind(), expected);
        let e = rl::sequence_log_probability(aview2(&[[0.0, 0.0]]), Some(aview2(&[[1.0], [1.0]])));
        assert!(matches!(e.unwrap_err().kind(), ErrorKind::Shape { arg, .. } if arg == "mask"));
        let e = rl::broadcast_sequence_advantages(aview1(&[1.0, 2.0]), aview2(&[[1.0, 0.0]]));
        assert!(matches!(e.unwrap_err().kind(), ErrorKind::Shape { .. }));
        let e = rl::response_token_mask(aview2(&[[1, 2]]), aview1(&[1, 1]), 0, 2, true);
        assert!(matches!(e.unwrap_err().kind(), ErrorKind::Shape { .. }));
        let e = rl::group_gradient_estimates(aview1(&[0.0]), aview1(&[0, 0]), aview1(&[1.0]));
        assert!(matches!(e.unwrap_err().kind(), ErrorKind::Shape { .. }));
    }

    #[test]
    fn nested_rows_round_trip_and_ragged_rows_are_named() {
        let rows = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
        assert_eq!(super::rows(super::array2("x", &rows).unwrap().view()), rows);
        let e = super::array2("x", &[vec![1.0], vec![]]).unwrap_err();
        let expected = ErrorKind::Shape {
            arg: "x[1]".into(),
            expected: vec![1],
            got: vec![0],
        };
        assert_eq!(e.into_kind(), expected);
        assert_eq!(super::array2::<f64>("x", &[]).unwrap().dim(), (0, 0));
    }
}
