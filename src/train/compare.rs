//! A comparison: up to [`MAX_CONFIGS`] configurations of one trainer, each run on the same
//! seeds, and the table that sets their results side by side. One panel run is a comparison of
//! one configuration.

use super::board::{Board, StartInfo};
use super::curves::quantile;
use super::{Score, Trainer};
use crate::error::{Error, Result, Rule};
use serde::{Deserialize, Serialize};

/// How many configurations one comparison holds at most (the figure keeps four colours apart).
pub const MAX_CONFIGS: usize = 4;

/// Median and interquartile range of some seeds' numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Quartiles {
    /// The median.
    pub median: f64,
    /// The 25th percentile (linear interpolation, as NumPy's default).
    pub q25: f64,
    /// The 75th percentile.
    pub q75: f64,
}

impl Quartiles {
    /// The quartiles of `xs` (`None` when empty).
    pub fn of(xs: &[f64]) -> Option<Self> {
        if xs.is_empty() {
            return None;
        }
        let mut xs = xs.to_vec();
        xs.sort_by(f64::total_cmp);
        Some(Quartiles {
            median: quantile(&xs, 0.5),
            q25: quantile(&xs, 0.25),
            q75: quantile(&xs, 0.75),
        })
    }
}

/// A trainer's own column of the results table (sequence: the lengths of incorrect answers,
/// the KL and the entropy at the end of training), over the configuration's finished seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Extra {
    /// The column's name, in Russian.
    pub name: String,
    /// Decimals it is written with.
    pub digits: usize,
    /// Median and IQR over the finished seeds that have a value.
    pub value: Option<Quartiles>,
}

/// One row of the results table: a configuration over its finished seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ConfigResult {
    /// The configuration's index and name.
    pub config: usize,
    /// Its label (what differs from the profile).
    pub label: String,
    /// Seeds run.
    pub seeds: usize,
    /// Seeds finished.
    pub finished: usize,
    /// The final scores of the finished seeds.
    pub score: Option<Quartiles>,
    /// How many finished seeds reached the goal for good.
    pub reached: usize,
    /// Where they reached it (over those seeds only).
    pub reached_at: Option<Quartiles>,
    /// The trainer's own columns ([`Comparison::results_with`]; a saved run of an older
    /// build may have none).
    #[serde(default)]
    pub extra: Vec<Extra>,
}

/// The runs of several configurations on the same seeds. Jobs are numbered configuration
/// after configuration: job `c · seeds + i` is configuration `c` on the `i`-th seed.
#[derive(Debug, Clone)]
pub struct Comparison<T: Trainer> {
    labels: Vec<String>,
    boards: Vec<Board<T>>,
    seeds: usize,
}

impl<T: Trainer> Comparison<T> {
    /// An empty comparison of the configurations named by `labels`, each on `seeds`.
    pub fn new(labels: Vec<String>, seeds: &[u64]) -> Result<Self> {
        if labels.is_empty() || labels.len() > MAX_CONFIGS {
            let rule = Rule::Count {
                min: 1,
                max: MAX_CONFIGS,
            };
            return Err(Error::range("configurations", rule, labels.len()));
        }
        let boards = labels
            .iter()
            .map(|_| Board::new(seeds))
            .collect::<Result<_>>()?;
        Ok(Comparison {
            labels,
            boards,
            seeds: seeds.len(),
        })
    }

    /// The configuration and seed index of `job`.
    pub fn locate(&self, job: usize) -> Result<(usize, usize)> {
        let jobs = self.boards.len() * self.seeds;
        if job >= jobs {
            return Err(Error::range("run", Rule::IndexBelow(jobs), job));
        }
        Ok((job / self.seeds, job % self.seeds))
    }

    /// Records `job`'s start message.
    pub fn start(&mut self, job: usize, info: StartInfo<T::Evaluation>) -> Result<()> {
        let (c, i) = self.locate(job)?;
        self.boards[c].start(i, info)
    }

    /// Adds one JSON line of `job`.
    pub fn push_line(&mut self, job: usize, line: &str) -> Result<()> {
        let (c, i) = self.locate(job)?;
        self.boards[c].push_line(i, line)
    }

    /// Every configuration's runs.
    pub fn boards(&self) -> &[Board<T>] {
        &self.boards
    }

    /// The configurations' labels.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Whether every run of every configuration has its summary.
    pub fn is_finished(&self) -> bool {
        self.boards.iter().all(Board::is_finished)
    }

    /// Configuration `config`'s lines as the CLI prints them with `--json --threads 1`.
    pub fn json_lines(&self, config: usize) -> Result<String> {
        let n = self.boards.len();
        self.boards
            .get(config)
            .map(Board::json_lines)
            .ok_or_else(|| Error::range("configuration", Rule::IndexBelow(n), config))
    }

    /// The results table: one row per configuration.
    pub fn results(&self) -> Vec<ConfigResult> {
        self.results_with(|_| Vec::new())
    }

    /// [`Self::results`] with the trainer's own columns: `extra` of each configuration's
    /// finished seeds' reports.
    pub fn results_with(&self, extra: impl Fn(&[&[T::Report]]) -> Vec<Extra>) -> Vec<ConfigResult> {
        self.boards
            .iter()
            .zip(&self.labels)
            .enumerate()
            .map(|(config, (board, label))| {
                let finished: Vec<Finished<'_, T::Report>> = board
                    .runs()
                    .iter()
                    .filter_map(|r| r.summary.as_ref().map(|s| (s.score(), &r.reports[..])))
                    .collect();
                config_result(config, label, self.seeds, &finished, &extra)
            })
            .collect()
    }
}

/// A finished seed's score ([`Score::score`]: the final number and where the goal was
/// reached) and its reports.
pub type Finished<'a, R> = ((f64, Option<u64>), &'a [R]);

/// One row of the results table: configuration `config` run on `seeds` seeds, of which
/// `finished` ended, each with its score ([`Score::score`]) and reports; `extra` the
/// trainer's own columns (the panels' and the CLI's `prepared` alike).
pub fn config_result<R>(
    config: usize,
    label: &str,
    seeds: usize,
    finished: &[Finished<'_, R>],
    extra: impl Fn(&[&[R]]) -> Vec<Extra>,
) -> ConfigResult {
    let finals: Vec<f64> = finished.iter().map(|(s, _)| s.0).collect();
    let reached: Vec<f64> = finished
        .iter()
        .filter_map(|(s, _)| s.1)
        .map(|x| x as f64)
        .collect();
    let reports: Vec<&[R]> = finished.iter().map(|(_, r)| *r).collect();
    ConfigResult {
        config,
        label: label.to_string(),
        seeds,
        finished: finished.len(),
        score: Quartiles::of(&finals),
        reached: reached.len(),
        reached_at: Quartiles::of(&reached),
        extra: extra(&reports),
    }
}

/// The CSVs of several configurations as one table, a first column naming each row's
/// configuration (quoted: labels hold commas); the header is the first CSV's.
pub fn joined_csv(labels: &[String], csvs: &[String]) -> String {
    let mut out = String::new();
    for (k, (label, csv)) in labels.iter().zip(csvs).enumerate() {
        let mut lines = csv.lines();
        let header = lines.next().unwrap_or_default();
        if k == 0 {
            out += &format!("configuration,{header}\n");
        }
        let quoted = format!("\"{}\"", label.replace('"', "\"\""));
        for line in lines {
            out += &format!("{quoted},{line}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::cartpole::CartPoleTrainer;
    use crate::train::lines;
    use crate::train::ppo::{PpoConfig, PpoTrainer};
    use serde_json::Map;

    #[test]
    fn jobs_go_to_their_configuration_and_the_table_sums_them_up() {
        let short = |clip| PpoConfig {
            num_updates: 2,
            evaluation_every: 1,
            clip_coef: clip,
            ..PpoConfig::smoke()
        };
        let configs = [short(Some(0.2)), short(None)];
        let seeds = [11u64, 37];
        let labels = vec!["A".to_string(), "B: без клиппирования".to_string()];
        let mut cmp = Comparison::<PpoTrainer>::new(labels, &seeds).unwrap();
        let mut summaries = vec![];
        for (c, config) in configs.iter().enumerate() {
            let mut expected = String::new();
            let mut tail = String::new();
            for (i, &seed) in seeds.iter().enumerate() {
                let job = c * seeds.len() + i;
                assert_eq!(cmp.locate(job).unwrap(), (c, i));
                let mut t = PpoTrainer::new(config.clone(), seed).unwrap();
                cmp.start(job, StartInfo::of(&t, t.evaluations().to_vec()))
                    .unwrap();
                while !t.is_finished() {
                    let line = lines::report_line::<PpoTrainer>(seed, &t.step().unwrap()).unwrap();
                    cmp.push_line(job, &line).unwrap();
                    expected += &(line + "\n");
                }
                let line = lines::summary_line::<PpoTrainer>(&t.summary(), &Map::new()).unwrap();
                cmp.push_line(job, &line).unwrap();
                tail += &(line + "\n");
                summaries.push(t.summary());
            }
            assert_eq!(cmp.json_lines(c).unwrap(), expected + &tail);
        }
        assert!(cmp.is_finished());
        let results = cmp.results();
        assert_eq!(results.len(), 2);
        for (c, row) in results.iter().enumerate() {
            let finals: Vec<f64> = summaries[2 * c..2 * c + 2]
                .iter()
                .map(|s| s.final_evaluation_mean)
                .collect();
            assert_eq!(row.finished, 2);
            assert_eq!(row.score, Quartiles::of(&finals));
            let lo = finals[0].min(finals[1]);
            let hi = finals[0].max(finals[1]);
            let q = row.score.unwrap();
            assert_eq!(q.median, (lo + hi) / 2.0);
            assert_eq!(
                (q.q25, q.q75),
                (lo + 0.25 * (hi - lo), lo + 0.75 * (hi - lo))
            );
        }
        assert!(cmp.curves().iter().all(Option::is_some));
        // Outside the jobs, the configurations or the limits: errors.
        assert!(cmp.push_line(4, "{}").is_err());
        assert!(cmp.json_lines(2).is_err());
        assert!(Comparison::<PpoTrainer>::new(vec![], &seeds).is_err());
        let five = (0..5).map(|k| k.to_string()).collect();
        assert!(Comparison::<PpoTrainer>::new(five, &seeds).is_err());
    }

    #[test]
    fn joined_csv_names_each_rows_configuration() {
        let labels = ["A".to_string(), "B: γ 0,98 → 0,99, ε \"off\"".to_string()];
        let csvs = ["x,y\n1,2\n".to_string(), "x,y\n3,4\n5,6\n".to_string()];
        assert_eq!(
            joined_csv(&labels, &csvs),
            "configuration,x,y\n\"A\",1,2\n\"B: γ 0,98 → 0,99, ε \"\"off\"\"\",3,4\n\"B: γ 0,98 → 0,99, ε \"\"off\"\"\",5,6\n"
        );
    }

    #[test]
    fn quartiles_follow_numpy_linear_interpolation() {
        let q = Quartiles::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((q.q25, q.median, q.q75), (1.75, 2.5, 3.25));
        assert_eq!(Quartiles::of(&[]), None);
    }
}
