//! The sequence lab: what the panel draws, tabulates and says in words of one configuration or
//! a comparison, each on several seeds — per iteration the median and interquartile range over
//! the seeds of the success rate, the lengths of correct and incorrect responses, the KL to the
//! reference and the entropy ([`curves::aggregate_steps`]), and their values at the end of
//! training (the results table's extra columns).

use super::IterationReport;
use crate::text::count;
use crate::text::{num, Description, Table};
use crate::train::compare::{Extra, Quartiles};
use crate::train::curves::{aggregate_steps, Curve};

/// One per-iteration number of a report that the lab follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// The evaluation's fully correct fraction after the update.
    Success,
    /// Mean length of the rollout's correct responses (none: no correct one).
    LengthCorrect,
    /// Mean length of the rollout's incorrect responses (none: no incorrect one).
    LengthIncorrect,
    /// KL(π_old ‖ π_ref), k3 over the rollout's response tokens.
    Kl,
    /// Mean entropy of the policy over the rollout's response tokens.
    Entropy,
    /// Share of the iteration's groups whose rewards were all alike (runs with pass@k or
    /// dynamic sampling).
    DeadGroups,
    /// pass@1 on the held-out prompts (the iterations with a pass@k evaluation).
    PassAt1,
}

impl Series {
    /// The series' value in `r`.
    pub fn of(self, r: &IterationReport) -> Option<f64> {
        match self {
            Series::Success => Some(r.eval_success_rate),
            Series::LengthCorrect => r.mean_length_correct,
            Series::LengthIncorrect => r.mean_length_incorrect,
            Series::Kl => Some(r.kl_to_reference),
            Series::Entropy => Some(r.entropy),
            Series::DeadGroups => r.group_stats.map(|g| g.zero_variance_share),
            Series::PassAt1 => r.pass_at_k.as_ref().and_then(|p| p.curve.first().copied()),
        }
    }

    /// Its name in the figures, tables and descriptions.
    pub fn name(self) -> &'static str {
        match self {
            Series::Success => "доля верных ответов",
            Series::LengthCorrect => "длина верных ответов",
            Series::LengthIncorrect => "длина неверных ответов",
            Series::Kl => "KL к опорной политике",
            Series::Entropy => "энтропия",
            Series::DeadGroups => "доля групп без разброса наград",
            Series::PassAt1 => "pass@1 на отложенных запросах",
        }
    }

    /// Decimals it is written with.
    pub fn digits(self) -> usize {
        match self {
            Series::Success | Series::DeadGroups | Series::PassAt1 => 2,
            Series::LengthCorrect | Series::LengthIncorrect => 1,
            Series::Kl | Series::Entropy => 3,
        }
    }

    /// Its column's name in the results table: its value at the end of training.
    pub const fn final_name(self) -> &'static str {
        match self {
            Series::Success => "доля верных ответов в конце",
            Series::LengthCorrect => "длина верных ответов в конце",
            Series::LengthIncorrect => "длина неверных ответов в конце",
            Series::Kl => "KL к опорной политике в конце",
            Series::Entropy => "энтропия в конце",
            Series::DeadGroups => "доля групп без разброса в конце",
            Series::PassAt1 => "pass@1 в конце",
        }
    }

    /// The series the results table adds to the final success rate.
    pub const FINAL: [Series; 3] = [Series::LengthIncorrect, Series::Kl, Series::Entropy];
}

/// One configuration's lab curves over its seeds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigLab {
    /// Seeds with at least one report.
    pub seeds: usize,
    /// The success rate: median and IQR per iteration.
    pub success: Curve,
    /// Each seed's success rate per iteration (thin lines).
    pub success_runs: Vec<Vec<f64>>,
    /// Length of the correct responses.
    pub length_correct: Curve,
    /// Length of the incorrect responses.
    pub length_incorrect: Curve,
    /// KL to the reference.
    pub kl: Curve,
    /// Entropy.
    pub entropy: Curve,
    /// Share of groups that teach nothing (empty for runs that do not report groups).
    pub dead_groups: Curve,
    /// pass@1 on the held-out prompts, where evaluated.
    pub pass_at_1: Curve,
}

fn series_of(runs: &[&[IterationReport]], s: Series) -> Curve {
    let values: Vec<Vec<Option<f64>>> = runs
        .iter()
        .map(|r| r.iter().map(|x| s.of(x)).collect())
        .collect();
    aggregate_steps(&values)
}

impl ConfigLab {
    /// The curves of one configuration's seeds (`runs`: each seed's reports so far).
    pub fn of(runs: &[&[IterationReport]]) -> Self {
        ConfigLab {
            seeds: runs.iter().filter(|r| !r.is_empty()).count(),
            success: series_of(runs, Series::Success),
            success_runs: runs
                .iter()
                .map(|r| r.iter().map(|x| x.eval_success_rate).collect())
                .collect(),
            length_correct: series_of(runs, Series::LengthCorrect),
            length_incorrect: series_of(runs, Series::LengthIncorrect),
            kl: series_of(runs, Series::Kl),
            entropy: series_of(runs, Series::Entropy),
            dead_groups: series_of(runs, Series::DeadGroups),
            pass_at_1: series_of(runs, Series::PassAt1),
        }
    }

    /// The curve of `s`.
    pub fn curve(&self, s: Series) -> &Curve {
        match s {
            Series::Success => &self.success,
            Series::LengthCorrect => &self.length_correct,
            Series::LengthIncorrect => &self.length_incorrect,
            Series::Kl => &self.kl,
            Series::Entropy => &self.entropy,
            Series::DeadGroups => &self.dead_groups,
            Series::PassAt1 => &self.pass_at_1,
        }
    }
}

/// A seed's value of `s` at the end of training: the mean over the last tenth of its
/// iterations (at least one) of the values it has there (`None`: none, e.g. no incorrect
/// answer left to measure). One iteration's rollout is small; the tenth smooths it.
pub fn final_value(reports: &[IterationReport], s: Series) -> Option<f64> {
    let window = (reports.len() / 10).max(1).min(reports.len());
    let values: Vec<f64> = reports[reports.len() - window..]
        .iter()
        .filter_map(|r| s.of(r))
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The results table's extra columns of one configuration: [`Series::FINAL`] at the end of
/// training ([`final_value`]), then, for runs with pass@k, [`pass_k_extras`]; median and IQR
/// over `finished` (each finished seed's reports).
pub fn final_extras(finished: &[&[IterationReport]]) -> Vec<Extra> {
    let mut extras: Vec<Extra> = Series::FINAL
        .iter()
        .map(|&s| {
            let values: Vec<f64> = finished.iter().filter_map(|r| final_value(r, s)).collect();
            Extra {
                name: s.final_name().to_string(),
                digits: s.digits(),
                value: Quartiles::of(&values),
            }
        })
        .collect();
    extras.extend(pass_k_extras(finished));
    extras
}

/// The pass@k columns' names: «pass@1 после SFT», «pass@16 в конце».
pub fn pass_at_column(k: usize, after_sft: bool) -> String {
    let when = if after_sft {
        "после SFT"
    } else {
        "в конце"
    };
    format!("pass@{k} {when}")
}

/// The per-level success column's name (levels from 1).
pub fn level_column(level: usize) -> String {
    format!("верных на уровне {level} в конце")
}

/// The dead-groups column's name.
pub const DEAD_TRAINED_COLUMN: &str = "доля обученных групп без разброса";

/// The share of the groups iteration `r` trained on whose rewards were all alike: the groups
/// drawn less those dynamic sampling dropped (all of them dead). `None`: not reported.
pub fn dead_trained_share(r: &IterationReport) -> Option<f64> {
    let (g, drawn) = (r.group_stats?, r.groups_drawn? as f64);
    let dropped = r.groups_dropped.unwrap_or(0) as f64;
    let trained = drawn - dropped;
    let dead = (g.zero_variance_share * drawn).round() - dropped;
    (trained > 0.0).then(|| dead.max(0.0) / trained)
}

/// The columns a run with pass@k adds (the R1-Zero pipeline's): pass@1 and pass@n after SFT
/// and at the end (the run's last pass@k), the share of dead groups trained on (mean over the
/// run's iterations) and the success per difficulty level at the end ([`final_value`]'s last
/// tenth). None when no finished seed evaluated pass@k, so lessons 8 and 9 keep their tables.
pub fn pass_k_extras(finished: &[&[IterationReport]]) -> Vec<Extra> {
    let last = |r: &[IterationReport]| r.iter().rev().find_map(|x| x.pass_at_k.clone());
    let sft = |r: &[IterationReport]| {
        r.first()
            .and_then(|x| x.sft.as_ref())
            .and_then(|s| s.pass_at_k_sft.clone())
    };
    let Some(n) = finished.iter().find_map(|r| last(r)).map(|p| p.n) else {
        return Vec::new();
    };
    let column = |name: String, digits: usize, values: Vec<f64>| Extra {
        name,
        digits,
        value: Quartiles::of(&values),
    };
    let mut columns = Vec::new();
    for k in [1, n] {
        for after_sft in [true, false] {
            let values = finished
                .iter()
                .filter_map(|r| if after_sft { sft(r) } else { last(r) })
                .filter_map(|p| p.curve.get(k - 1).copied())
                .collect();
            columns.push(column(pass_at_column(k, after_sft), 3, values));
        }
    }
    let dead = finished
        .iter()
        .filter_map(|r| {
            let shares: Vec<f64> = r.iter().filter_map(dead_trained_share).collect();
            (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
        })
        .collect();
    columns.push(column(DEAD_TRAINED_COLUMN.to_string(), 2, dead));
    let levels = finished
        .iter()
        .filter_map(|r| r.last().map(|x| x.success_by_level.len()))
        .max()
        .unwrap_or(0);
    for level in 0..levels {
        let values = finished
            .iter()
            .filter_map(|r| {
                let window = (r.len() / 10).max(1).min(r.len());
                let xs: Vec<f64> = r[r.len() - window..]
                    .iter()
                    .filter_map(|x| x.success_by_level.get(level).copied())
                    .collect();
                (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
            })
            .collect();
        columns.push(column(level_column(level + 1), 2, values));
    }
    columns
}

/// «0,94 [0,91; 0,97]».
fn quartiles_text(median: f64, q25: f64, q75: f64, digits: usize) -> String {
    format!(
        "{} [{}; {}]",
        num(median, digits),
        num(q25, digits),
        num(q75, digits)
    )
}

/// The last point of `curve` as «median [q25; q75] после итерации N», or «—».
fn last_point(curve: &Curve, digits: usize) -> (String, Option<u64>) {
    match curve.env_steps.last() {
        Some(&step) => {
            let i = curve.env_steps.len() - 1;
            let text = quartiles_text(curve.median[i], curve.q25[i], curve.q75[i], digits);
            (text, Some(step))
        }
        None => ("—".to_string(), None),
    }
}

/// The configurations' names in words: «A», «B», … when there are several, none for one.
fn who(labels: &[String], k: usize) -> String {
    if labels.len() > 1 {
        let letter = ["A", "B", "C", "D"].get(k).copied().unwrap_or("?");
        format!("{letter}: ")
    } else {
        String::new()
    }
}

const SEEDS_DATIVE: [&str; 3] = [
    "начальному значению",
    "начальным значениям",
    "начальным значениям",
];

/// The success figure in words: each configuration's median and IQR at its last iteration.
pub fn describe_success(labels: &[String], labs: &[ConfigLab]) -> Description {
    let mut table = Table::new(&[
        "конфигурация",
        "итерация",
        "начальных значений",
        "доля верных ответов: медиана [IQR]",
    ]);
    let mut parts = Vec::new();
    for (k, lab) in labs.iter().enumerate() {
        let (text, step) = last_point(&lab.success, 2);
        let Some(step) = step else { continue };
        // Mid-run the last iteration's quartiles are over the seeds that have reached it.
        let seeds = lab
            .success_runs
            .iter()
            .filter(|r| r.len() as u64 >= step)
            .count();
        parts.push(format!(
            "{}после итерации {step} — {text} по {}",
            who(labels, k),
            count(seeds as f64, 0, SEEDS_DATIVE)
        ));
        let name = labels.get(k).map_or("", String::as_str);
        let name = if name.is_empty() { "A" } else { name };
        table = table.row([name.to_string(), step.to_string(), seeds.to_string(), text]);
    }
    let text = if parts.is_empty() {
        "Доля полностью верных ответов на проверке по итерациям: обучение ещё не закончило ни одной итерации.".to_string()
    } else {
        format!(
            "Доля полностью верных ответов на проверке по итерациям, медиана по начальным значениям и межквартильный диапазон: {}.",
            parts.join("; ")
        )
    };
    Description { text, table }
}

/// The details figure in words: lengths, KL and entropy at each configuration's last
/// iteration.
pub fn describe_details(labels: &[String], labs: &[ConfigLab]) -> Description {
    let series = [
        Series::LengthCorrect,
        Series::LengthIncorrect,
        Series::Kl,
        Series::Entropy,
    ];
    let mut columns = vec!["конфигурация".to_string()];
    columns.extend(
        series
            .iter()
            .map(|s| format!("{}: медиана [IQR]", s.name())),
    );
    let mut table = Table {
        columns,
        rows: Vec::new(),
    };
    let mut parts = Vec::new();
    for (k, lab) in labs.iter().enumerate() {
        if lab.success.env_steps.is_empty() {
            continue;
        }
        let cells: Vec<(Series, String, Option<u64>)> = series
            .iter()
            .map(|&s| {
                let (text, step) = last_point(lab.curve(s), s.digits());
                (s, text, step)
            })
            .collect();
        let said: Vec<String> = cells
            .iter()
            .map(|(s, text, step)| match step {
                Some(step) => format!("{} {text} (итерация {step})", s.name()),
                None => format!("{} — не было таких ответов", s.name()),
            })
            .collect();
        parts.push(format!("{}{}", who(labels, k), said.join(", ")));
        let name = labels.get(k).map_or("", String::as_str);
        let name = if name.is_empty() { "A" } else { name };
        let mut row = vec![name.to_string()];
        row.extend(cells.into_iter().map(|(_, text, _)| text));
        table.rows.push(row);
    }
    let text = if parts.is_empty() {
        "Длины верных и неверных ответов, KL к опорной политике и энтропия по итерациям: обучение ещё не закончило ни одной итерации.".to_string()
    } else {
        format!(
            "Длины верных и неверных ответов (в токенах, вместе с <eos>), KL к опорной политике и энтропия по итерациям, медианы по начальным значениям на последней итерации: {}.",
            parts.join("; ")
        )
    };
    Description { text, table }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::check_shape;
    use crate::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer};
    use crate::train::settings::Settings;

    fn run(seed: u64, iterations: usize) -> Vec<IterationReport> {
        let config = SequenceConfig {
            iterations,
            group_size: 4,
            prompts_per_iteration: 3,
            hidden_dim: 8,
            embed_dim: 6,
            eval_samples_per_prompt: 8,
            ..SequenceConfig::for_profile(SequenceProfile::Grpo)
        };
        let mut t = SequenceTrainer::new(config, seed).unwrap();
        (0..iterations).map(|_| t.step().unwrap()).collect()
    }

    #[test]
    fn the_lab_aggregates_every_series_over_the_seeds() {
        let runs = [run(1, 12), run(2, 12), run(3, 7)];
        let views: Vec<&[IterationReport]> = runs.iter().map(Vec::as_slice).collect();
        let lab = ConfigLab::of(&views);
        assert_eq!(lab.seeds, 3);
        assert_eq!(lab.success.env_steps, (1..=12).collect::<Vec<u64>>());
        // Iteration 3: all three seeds; iteration 10: the two that got there.
        let at = |i: usize, k: usize| runs[k][i].eval_success_rate;
        let mut three = [at(2, 0), at(2, 1), at(2, 2)];
        three.sort_by(f64::total_cmp);
        assert_eq!(lab.success.median[2], three[1]);
        assert_eq!(lab.success.median[9], (at(9, 0) + at(9, 1)) / 2.0);
        assert_eq!(lab.success_runs[2].len(), 7);
        let kl = lab.curve(Series::Kl);
        assert_eq!(kl.env_steps.len(), 12);
        assert!(kl.q25.iter().zip(&kl.q75).all(|(a, b)| a <= b));
        // Lengths leave out the iterations without such answers.
        for (curve, s) in [
            (&lab.length_incorrect, Series::LengthIncorrect),
            (&lab.length_correct, Series::LengthCorrect),
        ] {
            for &step in &curve.env_steps {
                let i = step as usize - 1;
                assert!(runs
                    .iter()
                    .any(|r| r.get(i).and_then(|x| s.of(x)).is_some()));
            }
        }
        let extras = final_extras(&views);
        assert_eq!(extras.len(), Series::FINAL.len());
        let entropy: Vec<f64> = runs
            .iter()
            .map(|r| final_value(r, Series::Entropy).unwrap())
            .collect();
        assert_eq!(extras[2].value, Quartiles::of(&entropy));
        // The tenth: one iteration of 7, one of 12.
        assert_eq!(
            final_value(&runs[2], Series::Kl),
            Some(runs[2][6].kl_to_reference)
        );
        assert_eq!(final_value(&[], Series::Kl), None);
    }

    #[test]
    fn runs_with_pass_at_k_add_their_columns() {
        let r1 = |seed: u64, dynamic: bool| {
            let config = SequenceConfig {
                dynamic_sampling: dynamic,
                ..SequenceConfig::for_profile(SequenceProfile::R1Smoke)
            };
            let mut t = SequenceTrainer::new(config.clone(), seed).unwrap();
            (0..config.iterations)
                .map(|_| t.step().unwrap())
                .collect::<Vec<_>>()
        };
        let runs = [r1(5, true), r1(6, true)];
        let views: Vec<&[IterationReport]> = runs.iter().map(Vec::as_slice).collect();
        let extras = final_extras(&views);
        let n = runs[0].last().unwrap().pass_at_k.as_ref().unwrap().n;
        let levels = runs[0][0].success_by_level.len();
        let names: Vec<&str> = extras.iter().map(|x| x.name.as_str()).collect();
        let mut expected: Vec<String> = Series::FINAL
            .iter()
            .map(|s| s.final_name().to_string())
            .collect();
        expected.extend([
            pass_at_column(1, true),
            pass_at_column(1, false),
            pass_at_column(n, true),
            pass_at_column(n, false),
            DEAD_TRAINED_COLUMN.to_string(),
        ]);
        expected.extend((1..=levels).map(level_column));
        assert_eq!(names, expected);
        assert_eq!(pass_at_column(16, false), "pass@16 в конце");
        let column = |name: String| extras.iter().find(|x| x.name == name).unwrap().value;
        let end: Vec<f64> = runs
            .iter()
            .map(|r| r.last().unwrap().pass_at_k.as_ref().unwrap().curve[0])
            .collect();
        assert_eq!(column(pass_at_column(1, false)), Quartiles::of(&end));
        let sft: Vec<f64> = runs
            .iter()
            .map(|r| {
                let p = r[0].sft.as_ref().unwrap().pass_at_k_sft.as_ref().unwrap();
                p.curve[n - 1]
            })
            .collect();
        assert_eq!(column(pass_at_column(n, true)), Quartiles::of(&sft));
        // Dynamic sampling trains on no more dead groups than it drew; without it, on all.
        for r in &runs {
            for x in r {
                let drawn = x.group_stats.unwrap().zero_variance_share;
                assert!(dead_trained_share(x).unwrap() <= drawn + 1e-12);
            }
        }
        let plain = r1(5, false);
        for x in &plain {
            let drawn = x.group_stats.unwrap().zero_variance_share;
            assert!((dead_trained_share(x).unwrap() - drawn).abs() < 1e-12);
        }
        // Lessons 8 and 9's runs have no pass@k: their table is unchanged.
        let copy = [run(1, 3)];
        let copy: Vec<&[IterationReport]> = copy.iter().map(Vec::as_slice).collect();
        assert!(pass_k_extras(&copy).is_empty());
    }

    #[test]
    fn the_figures_say_what_they_show() {
        let runs = [run(1, 5), run(2, 5)];
        let views: Vec<&[IterationReport]> = runs.iter().map(Vec::as_slice).collect();
        let uneven = [&runs[0][..], &runs[1][..3]];
        let labs = [ConfigLab::of(&views), ConfigLab::of(&uneven)];
        let labels = vec!["A: grpo".to_string(), "B: grpo; β 0,01 → 0".to_string()];
        let success = describe_success(&labels, &labs);
        check_shape(&success);
        assert!(
            success.text.contains("A: после итерации 5"),
            "{}",
            success.text
        );
        assert!(
            success.text.contains("по 2 начальным значениям"),
            "{}",
            success.text
        );
        assert!(
            success.text.contains("по 1 начальному значению"),
            "{}",
            success.text
        );
        assert_eq!(success.table.rows.len(), 2);
        let details = describe_details(&labels, &labs);
        check_shape(&details);
        assert!(details.text.contains("энтропия"), "{}", details.text);
        let empty = describe_success(&[String::new()], &[ConfigLab::default()]);
        assert!(empty.text.contains("ни одной итерации"));
        assert!(empty.table.rows.is_empty());
    }
}
