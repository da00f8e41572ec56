//! Russian numerals: a number agrees with its noun («1 шаг», «2 шага», «5 шагов», «0,5 шага»).
//! The one rule for every phrase the book builds from a computed number: figure descriptions,
//! the lessons' text (filled at build time through the wasm export) and messages.

use crate::lessons::describe::num;

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
