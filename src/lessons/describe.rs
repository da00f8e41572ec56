//! Figures in words: what a figure shows at its current settings, as a sentence (the canvas's
//! text alternative) and a table of its key numbers (the page's «Числа рисунка»). Each lesson
//! writes its own figure's description from the same numbers it returns to the page.

use serde::Serialize;

/// A figure at one setting, for a reader who does not see the canvas.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Description {
    /// One or two Russian sentences with the figure's key numbers.
    pub text: String,
    /// Those numbers and a few more, as rows under column headers (cells formatted).
    pub table: Table,
}

/// A small table of formatted cells.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these column headers.
    pub fn new(columns: &[&str]) -> Self {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (as many cells as columns; the tests check it).
    pub fn row<S: Into<String>>(mut self, cells: impl IntoIterator<Item = S>) -> Self {
        self.rows.push(cells.into_iter().map(Into::into).collect());
        self
    }
}

/// A number as the lessons write it: decimal comma, true minus sign, `digits` decimals.
pub fn num(x: f64, digits: usize) -> String {
    if x.is_finite() {
        crate::plots::theme::decimal(x, digits)
    } else {
        "—".to_string()
    }
}

/// A list of numbers as the lessons write it: semicolons between decimals.
pub fn list(xs: &[f64], digits: usize) -> String {
    let items: Vec<String> = xs.iter().map(|&x| num(x, digits)).collect();
    format!("({})", items.join("; "))
}

/// «да» / «нет».
pub fn yes_no(b: bool) -> &'static str {
    if b {
        "да"
    } else {
        "нет"
    }
}

#[cfg(test)]
pub(crate) fn check_shape(d: &Description) {
    assert!(!d.text.is_empty() && !d.table.columns.is_empty() && !d.table.rows.is_empty());
    for row in &d.table.rows {
        assert_eq!(
            row.len(),
            d.table.columns.len(),
            "{row:?} under {:?}",
            d.table.columns
        );
    }
    assert!(
        !d.text.contains("NaN") && !d.text.contains("inf"),
        "{}",
        d.text
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_in_the_lessons() {
        assert_eq!(num(-0.5, 2), "−0,50");
        assert_eq!(num(f64::NAN, 2), "—");
        assert_eq!(list(&[1.0, 0.5], 1), "(1,0; 0,5)");
        let t = Table::new(&["a", "b"]).row(["1", "2"]);
        assert_eq!(t.rows, vec![vec!["1".to_string(), "2".to_string()]]);
    }
}
