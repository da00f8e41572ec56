//! The seed rule, once for the CLI and the page: a whole number from 0 to 2^53 − 1 (the
//! largest integer a JavaScript number holds exactly, so a seed survives a URL and a
//! `postMessage` unchanged), and a list of distinct seeds.

use crate::error::{Error, Result, Rule};

/// The largest seed: 2^53 − 1.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Most seeds one run trains (one worker each on the page, threads in the CLI).
pub const MAX_SEEDS: usize = 8;

fn rule() -> Rule {
    Rule::WholeNumber {
        min: 0,
        max: MAX_SEED,
    }
}

/// A seed typed as text: decimal digits only.
pub fn parse_seed(text: &str) -> Result<u64> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::range("seed", rule(), t));
    }
    t.parse::<u64>()
        .ok()
        .filter(|&s| s <= MAX_SEED)
        .ok_or_else(|| Error::range("seed", rule(), t))
}

/// A seed given as a number (a JS number or a JSON value).
pub fn check_seed(seed: f64) -> Result<u64> {
    if seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= MAX_SEED as f64 {
        Ok(seed as u64)
    } else {
        Err(Error::range("seed", rule(), seed))
    }
}

/// A comma-separated list of 1 to [`MAX_SEEDS`] distinct seeds.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>> {
    let seeds: Vec<u64> = text.split(',').map(parse_seed).collect::<Result<_>>()?;
    check_seed_list(&seeds)?;
    Ok(seeds)
}

/// 1 to [`MAX_SEEDS`] seeds, none listed twice, each within the rule.
pub fn check_seed_list(seeds: &[u64]) -> Result<()> {
    if seeds.is_empty() || seeds.len() > MAX_SEEDS {
        let rule = Rule::Count {
            min: 1,
            max: MAX_SEEDS,
        };
        return Err(Error::range("seeds", rule, seeds.len()));
    }
    if let Some(&s) = seeds.iter().find(|&&s| s > MAX_SEED) {
        return Err(Error::range("seed", rule(), s));
    }
    if let Some(d) =
        (1..seeds.len()).find_map(|i| seeds[..i].contains(&seeds[i]).then_some(seeds[i]))
    {
        return Err(Error::range("seeds", Rule::Distinct, d));
    }
    Ok(())
}
