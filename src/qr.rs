//! QR codes for what a reader carries from the screen to a phone or onto paper: a state's
//! link on a worksheet, a student's result code in a class experiment. The symbol comes from
//! `qrcodegen` (Project Nayuki's reference implementation of ISO/IEC 18004, no dependencies);
//! this module only draws its modules, as SVG for the page and print, or as text for a terminal.
//!
//! Error correction is level M (about 15 % of the symbol may be lost): a code photographed from
//! a projector or a creased sheet still reads, and a 120-character code fits a 33×33 symbol.

use crate::error::{Error, Result, Rule};
use qrcodegen::{QrCode, QrCodeEcc};

/// Empty modules around the symbol, as the standard asks (a reader needs the quiet zone).
const QUIET_ZONE: i32 = 4;

/// The largest text (in UTF-8 bytes) a level-M symbol holds: version 40, byte mode.
pub const MAX_BYTES: usize = 2331;

/// The symbol for `text`: the smallest version that holds it at level M, boosted to a higher
/// correction level when that costs no size.
///
/// ```
/// let grid = pgbook::qr::modules("https://example.org/ppo.html").unwrap();
/// // A square of 17 + 4·version modules and the quiet zone of 4 on each side: 28 bytes are
/// // more than version 2 holds at level M (26), so version 3.
/// assert_eq!(grid.len(), 17 + 4 * 3 + 2 * 4);
/// assert!(grid.iter().all(|row| row.len() == grid.len()));
/// ```
pub fn modules(text: &str) -> Result<Vec<Vec<bool>>> {
    let code = encode(text)?;
    let n = code.size();
    Ok((-QUIET_ZONE..n + QUIET_ZONE)
        .map(|y| {
            (-QUIET_ZONE..n + QUIET_ZONE)
                .map(|x| code.get_module(x, y))
                .collect()
        })
        .collect())
}

/// The symbol as an SVG document: black modules on a white square (a QR code must stay dark on
/// light in every theme, so it is not drawn in `currentColor`), one path, crisp edges, scaled by
/// its container. The page gives it its accessible name.
pub fn svg(text: &str) -> Result<String> {
    let grid = modules(text)?;
    let n = grid.len();
    let mut path = String::new();
    for (y, row) in grid.iter().enumerate() {
        // One rectangle per run of dark modules: a quarter of the path of one per module.
        let mut x = 0;
        while x < n {
            if row[x] {
                let start = x;
                while x < n && row[x] {
                    x += 1;
                }
                path.push_str(&format!("M{start},{y}h{}v1h-{}z", x - start, x - start));
            } else {
                x += 1;
            }
        }
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {n} {n}\" \
         shape-rendering=\"crispEdges\"><rect width=\"{n}\" height=\"{n}\" fill=\"#fff\"/>\
         <path d=\"{path}\" fill=\"#000\"/></svg>"
    ))
}

/// The symbol as text for a terminal: two rows of modules per line in half blocks, dark
/// modules as spaces on a light cell so that it reads on a dark terminal too.
pub fn terminal(text: &str) -> Result<String> {
    let grid = modules(text)?;
    let mut out = String::new();
    for pair in grid.chunks(2) {
        for x in 0..grid.len() {
            let top = pair[0][x];
            let bottom = pair.get(1).is_some_and(|row| row[x]);
            out.push(match (top, bottom) {
                (true, true) => ' ',
                (true, false) => '▄',
                (false, true) => '▀',
                (false, false) => '█',
            });
        }
        out.push('\n');
    }
    Ok(out)
}

fn encode(text: &str) -> Result<QrCode> {
    if text.is_empty() {
        return Err(Error::range("qr_text", Rule::NonEmpty, 0usize));
    }
    let too_long = || {
        Error::range(
            "qr_text",
            Rule::WholeNumber {
                min: 1,
                max: MAX_BYTES as u64,
            },
            text.len(),
        )
    };
    if text.len() > MAX_BYTES {
        return Err(too_long());
    }
    QrCode::encode_text(text, QrCodeEcc::Medium).map_err(|_| too_long())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_link_is_a_small_symbol_with_its_finder_patterns_and_quiet_zone() {
        let grid = modules("https://example.org/gae.html?lambda=0.95").unwrap();
        let n = grid.len();
        let symbol = n - 2 * QUIET_ZONE as usize;
        assert_eq!(
            (symbol - 17) % 4,
            0,
            "a QR symbol is 17 + 4·version modules wide"
        );
        let q = QUIET_ZONE as usize;
        // The quiet zone is light; each finder pattern's outer ring is dark.
        assert!(grid[0].iter().all(|&m| !m) && grid[n - 1].iter().all(|&m| !m));
        for (y, x) in [(q, q), (q, n - q - 7), (n - q - 7, q)] {
            assert!((0..7).all(|i| grid[y][x + i] && grid[y + 6][x + i]));
            assert!((0..7).all(|i| grid[y + i][x] && grid[y + i][x + 6]));
            assert!(!grid[y + 1][x + 1] && grid[y + 3][x + 3]);
        }
    }

    #[test]
    fn the_same_text_gives_the_same_symbol_and_another_text_another() {
        let a = svg("PGB1-0123-4567").unwrap();
        assert_eq!(a, svg("PGB1-0123-4567").unwrap());
        assert_ne!(a, svg("PGB1-0123-4568").unwrap());
        assert!(a.starts_with("<svg") && a.contains("viewBox=\"0 0 ") && a.ends_with("</svg>"));
    }

    #[test]
    fn the_terminal_drawing_has_one_line_per_two_rows() {
        let grid = modules("pgbook").unwrap();
        let text = terminal("pgbook").unwrap();
        assert_eq!(text.lines().count(), grid.len().div_ceil(2));
        assert!(text.lines().all(|l| l.chars().count() == grid.len()));
    }

    #[test]
    fn an_empty_or_too_long_text_is_refused() {
        assert!(svg("").is_err());
        let long = "я".repeat(MAX_BYTES);
        let err = svg(&long).unwrap_err();
        assert!(err.to_string().contains("qr_text"), "{err}");
        assert!(modules(&"a".repeat(MAX_BYTES)).is_ok());
    }
}
