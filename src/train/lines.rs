//! The JSON lines of a run — one per step (`{"kind": "update", "seed": 11, …}`) and one summary
//! per seed (`{"kind": "summary", …}`) — written once for the CLI and the page's download.

use super::Trainer;
use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Serialize)]
struct Line<'a, R: Serialize> {
    kind: &'static str,
    seed: u64,
    #[serde(flatten)]
    body: &'a R,
}

#[derive(Serialize)]
struct SummaryLine<'a, S: Serialize> {
    kind: &'static str,
    #[serde(flatten)]
    summary: &'a S,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

fn to_line<V: Serialize>(value: &V) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::parse("a report", "", e))
}

/// The line of one step of the run with `seed`.
pub fn report_line<T: Trainer>(seed: u64, report: &T::Report) -> Result<String> {
    to_line(&Line {
        kind: T::STEP.name(),
        seed,
        body: report,
    })
}

/// The summary line of one seed; `extra` adds fields the caller measured (the CLI's wall
/// time).
pub fn summary_line<T: Trainer>(
    summary: &T::Summary,
    extra: &Map<String, Value>,
) -> Result<String> {
    to_line(&SummaryLine {
        kind: "summary",
        summary,
        extra,
    })
}

/// The lines of whole runs of `config`, seed after seed, then the seeds' summaries (without
/// the CLI's timings): what `pgbook train … --json --threads 1` prints and the page's download
/// holds. For the tests that hold runs to recorded lines, natively and in wasm.
pub fn run_lines<T: Trainer>(config: &T::Config, seeds: &[u64]) -> Result<Vec<String>> {
    let (mut lines, mut summaries) = (Vec::new(), Vec::new());
    for &seed in seeds {
        let mut trainer = T::new(config.clone(), seed)?;
        while !trainer.is_finished() {
            lines.push(report_line::<T>(seed, &trainer.step()?)?);
        }
        summaries.push(summary_line::<T>(&trainer.summary(), &Map::new())?);
    }
    lines.extend(summaries);
    Ok(lines)
}

/// What a line is: a step's report, a seed's summary.
#[derive(Debug, Clone)]
pub enum Parsed<T: Trainer> {
    /// A step of the run with `seed`.
    Report {
        /// The run's seed.
        seed: u64,
        /// The report.
        report: T::Report,
    },
    /// A seed's summary.
    Summary(T::Summary),
}

/// Reads back a line written by [`report_line`] or [`summary_line`].
pub fn parse_line<T: Trainer>(line: &str) -> Result<Parsed<T>> {
    let bad = |e: serde_json::Error| Error::parse("a JSON line", line, e);
    let mut value: Map<String, Value> = serde_json::from_str(line).map_err(bad)?;
    let kind = value.remove("kind");
    match kind.as_ref().and_then(Value::as_str) {
        Some(k) if k == T::STEP.name() => {
            let seed = value
                .remove("seed")
                .and_then(|s| s.as_u64())
                .ok_or_else(|| Error::parse("a JSON line", line, "no seed"))?;
            let report = serde_json::from_value(Value::Object(value)).map_err(bad)?;
            Ok(Parsed::Report { seed, report })
        }
        Some("summary") => Ok(Parsed::Summary(
            serde_json::from_value(Value::Object(value)).map_err(bad)?,
        )),
        _ => Err(Error::unknown(
            crate::error::Name::LineKind,
            kind.map_or_else(String::new, |k| k.to_string()),
            &[T::STEP.name(), "summary"],
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ppo::{PpoConfig, PpoTrainer};

    #[test]
    fn lines_read_back_to_the_same_report_and_summary() {
        let config = PpoConfig {
            num_updates: 2,
            ..PpoConfig::smoke()
        };
        let mut t = PpoTrainer::new(config, 3).unwrap();
        let r = t.step().unwrap();
        let line = report_line::<PpoTrainer>(3, &r).unwrap();
        assert!(
            line.starts_with(r#"{"kind":"update","seed":3,"update":1,"#),
            "{line}"
        );
        assert!(matches!(
            parse_line::<PpoTrainer>(&line).unwrap(),
            Parsed::Report { seed: 3, report } if report == r
        ));
        let mut extra = Map::new();
        extra.insert("wall_s".into(), 1.5.into());
        let line = summary_line::<PpoTrainer>(&t.summary(), &extra).unwrap();
        assert!(line.contains(r#""wall_s":1.5"#));
        assert!(
            matches!(parse_line::<PpoTrainer>(&line), Ok(Parsed::Summary(s)) if s == t.summary())
        );
        assert!(parse_line::<PpoTrainer>(r#"{"kind":"iteration"}"#).is_err());
    }
}
