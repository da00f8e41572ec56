//! `pgbook class merge FILE`: a class's codes, one a line, merged into its table and band (the
//! page's merge, the same core); `--trainer NAME` with the train options names the class's
//! configuration, and `--verify` recomputes every seed to confirm its fingerprint. Any
//! refused code ends with exit code 2 and its reason.

use crate::args::Args;
use crate::out;
use crate::train::{parse, Job};
use pgbook::class::merge::{self, Class};
use pgbook::class::{self as core, ClassKind};
use pgbook::train::registry::NAMES;
use pgbook::train::Trainer;
use pgbook::{by_trainer, Error, Result};

/// The class's expected (trainer index, hash), and with `--verify` every code recomputed.
fn check<T: Trainer, F: ClassKind<T>>(args: &Args, text: &str, verify: bool) -> Result<(u8, u64)> {
    let Job { config, .. } = parse::<T>(args)?;
    if verify {
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            merge::verify::<T, F>(&config, line).map_err(|e| merge::at_line(e, i + 1))?;
        }
    }
    let index = NAMES.iter().position(|&n| n == T::NAME).unwrap_or(0) as u8;
    Ok((index, core::config_hash::<T>(&config)))
}

/// Runs `class merge FILE`.
pub fn merge(path: &str, args: Args) -> Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let json = args.flag("json");
    let verify = args.flag("verify");
    let expected = match args.text("trainer") {
        Some(name) => Some(
            by_trainer!(&name, <T, F, D> => check::<T, F>(&args, &text, verify)?,
            other => return Err(pgbook::train::registry::unknown(other))),
        ),
        None if verify => {
            return Err(Error::parse(
                "--verify",
                "",
                "--verify needs --trainer NAME and its settings",
            ));
        }
        None => None,
    };
    args.finish()?;
    let class = merge::merge(&text, expected)?;
    if let Some(first) = class.refused.first() {
        for r in &class.refused[1..] {
            eprintln!("pgbook: {}", r.error);
        }
        return Err(first.error.clone());
    }
    if json {
        let value = serde_json::to_string(&class).map_err(|e| Error::parse("the class", "", e))?;
        out::line(&value);
    } else {
        out::line(&table(&class));
    }
    Ok(())
}

fn table(c: &Class) -> String {
    let mut s = format!(
        "class: {}, configuration {}, {} seeds\nseed  final score  reached at  fingerprint\n",
        c.trainer,
        c.config,
        c.rows.len()
    );
    for r in &c.rows {
        let reached = r.reached.map_or("—".to_string(), |x| x.to_string());
        s += &format!(
            "{:<5} {:>11} {:>11}  {}\n",
            r.seed, r.score, reached, r.fingerprint
        );
    }
    if let Some(q) = c.result.score {
        s += &format!(
            "final score: median {} [IQR {} – {}]\n",
            q.median, q.q25, q.q75
        );
    }
    s += &format!("reached the goal: {} of {}", c.result.reached, c.rows.len());
    if let Some(q) = c.result.reached_at {
        s += &format!(", at median {} [IQR {} – {}]", q.median, q.q25, q.q75);
    }
    s += "\nband: x  median  q25  q75\n";
    for i in 0..c.curve.env_steps.len() {
        s += &format!(
            "{} {} {} {}\n",
            c.curve.env_steps[i], c.curve.median[i], c.curve.q25[i], c.curve.q75[i]
        );
    }
    s.trim_end().to_string()
}
