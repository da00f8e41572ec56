//! `pgbook prepared ID`: a lesson's prepared comparison on the command line — its
//! configurations on its seeds (or `--seeds`, to choose a lesson's setting on seeds the lesson
//! does not show), the results table the page shows, the page's words about it, and whether
//! the lesson's prediction held. `--json`: `{ results, verdict }`.

use crate::args::Args;
use crate::out;
use crate::train::{run_seeds, Output, TextOutput};
use pgbook::lessons::prepared;
use pgbook::train::compare::{config_result, ConfigResult};
use pgbook::train::settings::{seeds, Request};
use pgbook::train::verdict::{self, ScoreNames};
use pgbook::train::{Score, Trainer};
use pgbook::{by_trainer, Error, Result};

/// Runs `prepared ID`.
pub fn prepared(id: &str, args: Args) -> Result<()> {
    let block = prepared::block(id)?;
    let seeds = match args.text("seeds") {
        Some(list) => seeds::parse_seeds(&list)?,
        None => block.seeds.to_vec(),
    };
    let threads: usize = args.get("threads")?.unwrap_or(1);
    if !(1..=64).contains(&threads) {
        let rule = pgbook::error::Rule::WholeNumber { min: 1, max: 64 };
        return Err(Error::range("threads", rule, threads));
    }
    let json = args.flag("json");
    args.finish()?;
    let mut results = Vec::new();
    for (k, (trainer, request)) in block.configs.iter().enumerate() {
        if !json {
            out::line(&format!("{} {trainer}: {}", letter(k), text_of(request)));
        }
        let output = if json { Output::Quiet } else { Output::Text };
        let row = by_trainer!(trainer, <T, F, D> => row::<T, F>(k, request, &seeds, threads, output),
            other => Err(pgbook::train::registry::unknown(other)))?;
        results.push(row);
    }
    let verdict = prepared::verdict(id, &results)?;
    if json {
        let value = serde_json::json!({ "results": results, "verdict": verdict });
        out::line(&value.to_string());
        return Ok(());
    }
    let names = ScoreNames::of(block.configs[0].0)?;
    for r in &results {
        out::line(&row_text(r, &names));
    }
    out::line(&verdict::describe(&results, &names));
    out::line(&verdict.summary);
    for c in &verdict.checked {
        out::line(&format!("  {}", c.text));
    }
    Ok(())
}

fn letter(k: usize) -> char {
    (b'A' + k as u8) as char
}

fn text_of(request: &Request) -> String {
    let set: Vec<String> = request
        .set
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    match set.is_empty() {
        true => request.profile.clone(),
        false => format!("{} ({})", request.profile, set.join(", ")),
    }
}

/// Configuration `k`'s row of the results table.
fn row<T, F>(
    k: usize,
    request: &Request,
    seeds: &[u64],
    threads: usize,
    output: Output,
) -> Result<ConfigResult>
where
    T: Trainer + Send,
    T::Config: Sync,
    T::Report: Send,
    F: TextOutput<T>,
{
    let (_, config) = request.resolve::<T::Config>()?;
    let runs = run_seeds::<T, F>(&config, seeds, threads, output)?;
    let finished: Vec<_> = runs
        .iter()
        .map(|r| (r.trainer.summary().score(), &r.reports[..]))
        .collect();
    Ok(config_result(
        k,
        &text_of(request),
        seeds.len(),
        &finished,
        F::final_extras,
    ))
}

/// One row as text: median [q25; q75] of each number.
fn row_text(r: &ConfigResult, names: &ScoreNames) -> String {
    let q = |x: Option<pgbook::train::compare::Quartiles>, d: usize| match x {
        Some(q) => format!(
            "{} [{}; {}]",
            verdict::short(q.median, d),
            verdict::short(q.q25, d),
            verdict::short(q.q75, d)
        ),
        None => "—".into(),
    };
    let mut s = format!(
        "{} | {}: {} | {}: {} из {}, {}",
        letter(r.config),
        names.score,
        q(r.score, names.digits),
        names.goal,
        r.reached,
        r.finished,
        q(r.reached_at, 0)
    );
    for x in &r.extra {
        s.push_str(&format!(" | {}: {}", x.name, q(x.value, x.digits)));
    }
    s
}
