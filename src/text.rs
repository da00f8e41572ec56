//! Text on the ground floor: numbers in Russian typography (decimal comma, true minus), lists,
//! «да»/«нет», Russian numerals agreeing with their nouns («1 шаг», «2 шага», «5 шагов»), and a
//! figure's words (its [`Description`] and [`Table`]). Everything that writes a computed
//! number as text (figures, lessons, messages, errors, the site build) comes here; this module
//! imports nothing of the crate, so no floor above it is climbed to format a number.
//!
//! A figure in words: what it shows at its current settings, as a sentence (the canvas's text
//! alternative) and a table of its key numbers (the page's «Числа рисунка»). Each lesson writes
//! its own figure's description from the same numbers it returns to the page.

use serde::Serialize;

/// A figure at one setting, for a reader who does not see the canvas.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Description {
    /// One or two Russian sentences with the figure's key numbers.
    pub text: String,
    /// Those numbers and a few more, as rows under column headers (cells formatted).
    pub table: Table,
}

/// A small table of formatted cells.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
        decimal(x, digits)
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

/// `x` with `digits` decimals in the text's typography: a decimal comma and a real minus
/// (axis ticks and labels on the canvas read like the lesson around them).
pub fn decimal(x: f64, digits: usize) -> String {
    let text = format!("{x:.digits$}");
    let text = if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_string()
    } else {
        text
    };
    text.replace('.', ",").replace('-', "−")
}

// Russian numerals: the one rule for every phrase the book builds from a computed number.

/// A noun's three forms after a number: for 1 («шаг»), for 2 («шага»), for 5 («шагов»).
pub type Forms<'a> = [&'a str; 3];

/// The form of the noun that agrees with `n`: 1, 21, 101 → the first; 2–4, 22–24 → the second
/// (and any fraction: «0,5 шага»); 0, 5–20, 25–30, 111 → the third.
pub fn agree<'a>(n: f64, forms: Forms<'a>) -> &'a str {
    let a = n.abs();
    if a.fract() != 0.0 {
        return forms[1];
    }
    // A whole number: only its last two digits decide.
    let last_two = (a % 100.0) as u32;
    match (last_two % 10, last_two) {
        (_, 11..=14) => forms[2],
        (1, _) => forms[0],
        (2..=4, _) => forms[1],
        _ => forms[2],
    }
}

/// The number in Russian typography (decimal comma, at most `digits` decimals) and its noun:
/// `count(32.0, 0, ["шаг", "шага", "шагов"])` is «32 шага».
pub fn count(n: f64, digits: usize, forms: Forms) -> String {
    let text = num(n, digits);
    let text = match text.contains(',') {
        true => text.trim_end_matches('0').trim_end_matches(',').to_string(),
        false => text,
    };
    format!("{text} {}", agree(n, forms))
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

    const STEP: Forms<'static> = ["шаг", "шага", "шагов"];

    #[test]
    fn agrees_on_the_cases_that_differ() {
        let cases = [
            (1.0, "1 шаг"),
            (2.0, "2 шага"),
            (5.0, "5 шагов"),
            (11.0, "11 шагов"),
            (12.0, "12 шагов"),
            (21.0, "21 шаг"),
            (22.0, "22 шага"),
            (25.0, "25 шагов"),
            (101.0, "101 шаг"),
            (111.0, "111 шагов"),
            (0.5, "0,5 шага"),
            (0.0, "0 шагов"),
            (32.0, "32 шага"),
        ];
        for (n, want) in cases {
            assert_eq!(count(n, 2, STEP), want, "{n}");
        }
        assert_eq!(count(4.0, 0, ["эпоха", "эпохи", "эпох"]), "4 эпохи");
        assert_eq!(count(4.0, 0, ["токен", "токена", "токенов"]), "4 токена");
    }
}
