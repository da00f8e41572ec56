//! A trainer panel's run history: every seed's JSON lines as they arrive from the workers,
//! read once into reports, with what the page draws and exports computed from them.

use super::lines::{self, Parsed};
use super::settings::seeds::check_seed_list;
use super::Trainer;
use crate::error::{Error, Result, Rule};
use serde::{Deserialize, Serialize};

/// What a worker says when its run starts: the progress bar's total and, for trainers that
/// evaluate before training (CartPole), the untrained policy's evaluations, of the trainer's
/// own evaluation type `E` ([`Trainer::Evaluation`]). The page carries it
/// back to the board as it came; a missing or unknown field is an error, not a silent default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(deny_unknown_fields)]
pub struct StartInfo<E> {
    /// The run's seed.
    pub seed: u64,
    /// Progress units of the whole run.
    pub total: u64,
    /// What they count.
    pub unit: super::ProgressUnit,
    /// The evaluations made before the first step (CartPole trainers; none else).
    #[serde(default = "Vec::new")]
    pub evaluations: Vec<E>,
}

impl<E> StartInfo<E> {
    /// The start of `trainer`'s run with `evaluations` before its first step.
    pub fn of<T: Trainer<Evaluation = E>>(trainer: &T, evaluations: Vec<E>) -> Self {
        let p = trainer.progress();
        StartInfo {
            seed: trainer.seed(),
            total: p.total,
            unit: p.unit,
            evaluations,
        }
    }
}

/// One seed's history.
#[derive(Debug, Clone, Serialize)]
pub struct SeedRun<T: Trainer> {
    /// The seed.
    pub seed: u64,
    /// What the worker said when it started (totals, the untrained policy's evaluation).
    pub info: Option<StartInfo<T::Evaluation>>,
    /// Every report so far.
    pub reports: Vec<T::Report>,
    /// The summary, once the run has finished.
    pub summary: Option<T::Summary>,
    /// The JSON lines as they came (reports, then the summary).
    #[serde(skip)]
    lines: Vec<String>,
}

/// The runs of one panel, one per seed, in the order of the seeds.
#[derive(Debug, Clone)]
pub struct Board<T: Trainer> {
    runs: Vec<SeedRun<T>>,
}

impl<T: Trainer> Board<T> {
    /// An empty history for `seeds` (checked by the seed rule).
    pub fn new(seeds: &[u64]) -> Result<Self> {
        check_seed_list(seeds)?;
        let runs = seeds
            .iter()
            .map(|&seed| SeedRun {
                seed,
                info: None,
                reports: Vec::new(),
                summary: None,
                lines: Vec::new(),
            })
            .collect();
        Ok(Board { runs })
    }

    fn run_mut(&mut self, index: usize) -> Result<&mut SeedRun<T>> {
        let n = self.runs.len();
        self.runs
            .get_mut(index)
            .ok_or_else(|| Error::range("run", Rule::IndexBelow(n), index))
    }

    /// Records the worker's start message of run `index`: the run starts from nothing (a job
    /// that failed and runs again drops what it had).
    pub fn start(&mut self, index: usize, info: StartInfo<T::Evaluation>) -> Result<()> {
        let run = self.run_mut(index)?;
        run.info = Some(info);
        run.reports.clear();
        run.summary = None;
        run.lines.clear();
        Ok(())
    }

    /// Adds one JSON line of run `index` (a report or the summary); the line must belong to
    /// that run's seed.
    pub fn push_line(&mut self, index: usize, line: &str) -> Result<()> {
        let parsed = lines::parse_line::<T>(line)?;
        let run = self.run_mut(index)?;
        match parsed {
            Parsed::Report { seed, report } => {
                if seed != run.seed {
                    let rule = Rule::one_of(&[&run.seed.to_string()]);
                    return Err(Error::range("seed", rule, seed));
                }
                run.reports.push(report);
            }
            Parsed::Summary(summary) => run.summary = Some(summary),
        }
        run.lines.push(line.to_string());
        Ok(())
    }

    /// The runs so far.
    pub fn runs(&self) -> &[SeedRun<T>] {
        &self.runs
    }

    /// Whether every run has its summary.
    pub fn is_finished(&self) -> bool {
        self.runs.iter().all(|r| r.summary.is_some())
    }

    /// Every line so far, seed after seed, the summaries last (as the CLI prints them).
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        let steps = self.runs.iter().flat_map(|r| {
            let n = r.lines.len() - usize::from(r.summary.is_some());
            r.lines[..n].iter()
        });
        let summaries = self
            .runs
            .iter()
            .filter(|r| r.summary.is_some())
            .filter_map(|r| r.lines.last());
        for line in steps.chain(summaries) {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// A panel's history as CSV, in the form its trainer's reports suit: each report type picks
/// one in its trainer's module (CartPole: the evaluation curves, [`Board::curves_csv`];
/// sequence: one row per iteration).
/// `E` is the trainer's evaluation type ([`Trainer::Evaluation`]).
pub trait CsvExport<E>: Sized {
    /// `board`'s history as CSV.
    fn board_csv<T: Trainer<Report = Self, Evaluation = E>>(board: &Board<T>) -> Result<String>;
}

impl<T: Trainer> Board<T>
where
    T::Report: CsvExport<T::Evaluation>,
{
    /// The history as CSV ([`CsvExport`]).
    pub fn csv(&self) -> Result<String> {
        T::Report::board_csv(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::cartpole::CartPoleTrainer;
    use crate::train::ppo::{PpoConfig, PpoTrainer};
    use serde_json::Map;

    #[test]
    fn lines_go_to_their_run_and_come_back_in_cli_order() {
        let config = PpoConfig {
            num_updates: 2,
            evaluation_every: 1,
            ..PpoConfig::smoke()
        };
        let mut board = Board::<PpoTrainer>::new(&[11, 37]).unwrap();
        let mut expected_steps = String::new();
        let mut expected_summaries = String::new();
        for (i, seed) in [11u64, 37].into_iter().enumerate() {
            let mut t = PpoTrainer::new(config.clone(), seed).unwrap();
            board
                .start(i, StartInfo::of(&t, t.evaluations().to_vec()))
                .unwrap();
            while !t.is_finished() {
                let line = lines::report_line::<PpoTrainer>(seed, &t.step().unwrap()).unwrap();
                board.push_line(i, &line).unwrap();
                expected_steps += &(line + "\n");
            }
            let line = lines::summary_line::<PpoTrainer>(&t.summary(), &Map::new()).unwrap();
            board.push_line(i, &line).unwrap();
            expected_summaries += &(line + "\n");
            assert_eq!(board.evaluations(i), t.evaluations());
        }
        assert!(board.is_finished());
        assert_eq!(board.json_lines(), expected_steps + &expected_summaries);
        assert_eq!(board.curve().unwrap().env_steps, vec![0, 256, 512]);
        assert!(board
            .csv()
            .unwrap()
            .starts_with("env_steps,median,q25,q75,seed_11,seed_37\n"));
        // A line of another seed, an unknown run, bad JSON: errors, nothing recorded.
        let other = board.runs()[1].lines[0].clone();
        assert!(board.push_line(0, &other).is_err());
        assert!(board.push_line(5, &other).is_err());
        assert!(board.push_line(0, "{").is_err());
        assert_eq!(board.runs()[0].reports.len(), 2);
        assert!(Board::<PpoTrainer>::new(&[3, 3]).is_err());
    }

    #[test]
    fn a_reinforce_panel_draws_and_exports_like_ppos() {
        use crate::train::reinforce::{ReinforceConfig, ReinforceTrainer};
        let config = ReinforceConfig {
            env_step_budget: 9_000,
            hidden_sizes: vec![8],
            evaluation_every: 1,
            ..ReinforceConfig::smoke()
        };
        let mut board = Board::<ReinforceTrainer>::new(&[5]).unwrap();
        let mut t = ReinforceTrainer::new(config, 5).unwrap();
        board
            .start(0, StartInfo::of(&t, t.evaluations().to_vec()))
            .unwrap();
        while !t.is_finished() {
            let line = lines::report_line::<ReinforceTrainer>(5, &t.step().unwrap()).unwrap();
            board.push_line(0, &line).unwrap();
        }
        let line = lines::summary_line::<ReinforceTrainer>(&t.summary(), &Map::new()).unwrap();
        board.push_line(0, &line).unwrap();
        assert!(board.is_finished());
        assert_eq!(board.evaluations(0), t.evaluations());
        let steps: Vec<u64> = t.evaluations().iter().map(|e| e.env_steps).collect();
        assert_eq!(board.curve().unwrap().env_steps, steps);
        assert!(board
            .csv()
            .unwrap()
            .starts_with("env_steps,median,q25,q75,seed_5\n"));
    }
}
