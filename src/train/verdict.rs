//! A comparison's results in words, computed from the reader's numbers: each configuration
//! against A ([`describe`]: the panels and the lessons' prepared comparisons), and whether a
//! lesson's prediction held on them ([`Prediction::check`]).
//!
//! "Beyond the spread" is one rule everywhere: the interquartile ranges over the seeds do not
//! overlap, or, for the goal, at least two seeds more or fewer reached it. A configuration's
//! seeds that never reached the goal count as reaching it after every seed that did.

use super::compare::{ConfigResult, Quartiles};
use super::registry::{CartPole, Sequence};
use crate::error::Result;
use crate::text::count;
use crate::text::num;
use serde::Serialize;

/// What a trainer's results table calls its final score and its goal, and how many decimals
/// the score is written with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ScoreNames {
    /// «итоговая оценка», «итоговая доля верных ответов».
    pub score: String,
    /// «стабильно ≥ 475 с шага», «решено с итерации».
    pub goal: String,
    /// Decimals of the score.
    pub digits: usize,
}

impl ScoreNames {
    /// The names of trainer `trainer`'s table (CartPole's or the sequence lab's).
    pub fn of(trainer: &str) -> Result<Self> {
        crate::by_trainer!(trainer, <T, F, D> => Ok(F::score_names()),
            other => Err(super::registry::unknown(other)))
    }
}

impl CartPole {
    /// The results table's names: the last greedy evaluation and "stable ≥ 475".
    pub fn score_names() -> ScoreNames {
        ScoreNames {
            score: "итоговая оценка".into(),
            goal: format!(
                "стабильно ≥ {} с шага",
                short(super::cartpole::SOLVED_THRESHOLD, 0)
            ),
            digits: 1,
        }
    }
}

impl Sequence {
    /// The results table's names: the fully correct share and the solved iteration.
    pub fn score_names() -> ScoreNames {
        ScoreNames {
            score: "итоговая доля верных ответов".into(),
            goal: "решено с итерации".into(),
            digits: 3,
        }
    }
}

/// A number as the results table writes it: at most `digits` decimals, trailing zeros dropped.
pub fn short(x: f64, digits: usize) -> String {
    let text = num(x, digits);
    match text.contains(',') {
        true => text.trim_end_matches('0').trim_end_matches(',').to_string(),
        false => text,
    }
}

/// «1 начальное значение», «5 начальных значений».
fn seeds_text(n: usize) -> String {
    count(
        n as f64,
        0,
        [
            "начальное значение",
            "начальных значения",
            "начальных значений",
        ],
    )
}

fn letter(config: usize) -> &'static str {
    ["A", "B", "C", "D"].get(config).copied().unwrap_or("?")
}

fn overlap(x: Option<Quartiles>, y: Option<Quartiles>) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => x.q25 <= y.q75 && y.q25 <= x.q75,
        _ => true,
    }
}

/// What a finished comparison shows, in words: each configuration against A (its goal and
/// score, the trainer's own columns), and whether the difference stands out of the spread over
/// seeds. While a run goes on, says so.
pub fn describe(results: &[ConfigResult], names: &ScoreNames) -> String {
    let Some(a) = results.first() else {
        return String::new();
    };
    if results.iter().any(|r| r.finished < r.seeds) {
        return "Сравнение ещё идёт: итог появится, когда закончатся все запуски.".into();
    }
    let median = |q: Option<Quartiles>, digits: usize| match q {
        Some(q) => short(q.median, digits),
        None => "—".into(),
    };
    let parts: Vec<String> = results[1..]
        .iter()
        .map(|r| {
            let goal = match (r.reached == a.reached, r.reached_at, a.reached_at) {
                (true, Some(x), Some(y)) => format!(
                    "{} — медиана {} против {} у A",
                    names.goal,
                    short(x.median, 0),
                    short(y.median, 0)
                ),
                _ => format!(
                    "цели достигли {} из {} начальных значений против {} из {} у A",
                    r.reached, r.finished, a.reached, a.finished
                ),
            };
            let score = format!(
                "{} — медиана {} против {} у A",
                names.score,
                median(r.score, names.digits),
                median(a.score, names.digits)
            );
            let close = r.reached.abs_diff(a.reached) <= 1
                && overlap(r.reached_at, a.reached_at)
                && overlap(r.score, a.score);
            let verdict = if a.seeds == 1 {
                "по одному начальному значению нельзя отличить разницу от случайности"
            } else if close {
                "разница мала по сравнению с разбросом между начальными значениями (межквартильные диапазоны перекрываются) и может поменять знак на других начальных значениях"
            } else {
                "на этих начальных значениях разница больше разброса между ними"
            };
            // By name: a configuration with pass@k has columns one without lacks.
            let own: String = r
                .extra
                .iter()
                .filter_map(|x| Some((x, a.extra.iter().find(|ax| ax.name == x.name)?)))
                .filter_map(|(x, ax)| match (x.value, ax.value) {
                    (Some(v), Some(av)) => Some(format!(
                        "; {} — медиана {} против {} у A",
                        x.name,
                        short(v.median, x.digits),
                        short(av.median, x.digits)
                    )),
                    _ => None,
                })
                .collect();
            format!(
                "{}: {goal}; {score}{own}; {verdict}.",
                letter(r.config)
            )
        })
        .collect();
    let tail = format!(
        "Всего {} на конфигурацию — это немного: выводы стоит проверить на других.",
        seeds_text(a.seeds)
    );
    match parts.is_empty() {
        true => tail,
        false => format!("{} {tail}", parts.join(" ")),
    }
}

/// Which number of the results table a prediction is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The final score.
    Score,
    /// Where the goal was reached (never: after every seed that did).
    Goal,
    /// One of the trainer's own columns, by its name.
    Column(&'static str),
    /// Column `.0` of the configuration against column `.1` of the other — or of the same one:
    /// a stage of one run against an earlier stage («pass@1 в конце» against «pass@1 после SFT»).
    Columns(&'static str, &'static str),
}

/// Which way a prediction expects configuration `config` to differ from `against`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// A larger number (for the goal: reached later, or by fewer seeds).
    Higher,
    /// A smaller number (for the goal: reached sooner).
    Lower,
    /// No difference beyond the spread over seeds.
    Close,
}

/// One checkable claim of a lesson about its prepared comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Prediction {
    /// The configuration the claim is about (0 = A).
    pub config: usize,
    /// The one it is compared with.
    pub against: usize,
    pub measure: Measure,
    pub expect: Expect,
}

/// How a prediction fared on the reader's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The predicted difference, beyond the spread (or, for [`Expect::Close`], none beyond it).
    Held,
    /// The predicted direction, but within the spread (or from a single seed).
    Weak,
    /// No difference, or the other way, or (for [`Expect::Close`]) one beyond the spread.
    Failed,
    /// The results lack the numbers (a run not finished, a column missing).
    Unknown,
}

/// A prediction checked: its outcome and the sentence that says so with the numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Checked {
    pub outcome: Outcome,
    pub text: String,
}

impl Prediction {
    fn name(&self, names: &ScoreNames) -> String {
        match self.measure {
            Measure::Score => names.score.clone(),
            Measure::Goal => names.goal.clone(),
            Measure::Column(name) | Measure::Columns(name, _) => name.to_string(),
        }
    }

    /// The claim in words: «C достигает цели («стабильно ≥ 475 с шага») позже A или реже».
    pub fn text(&self, names: &ScoreNames) -> String {
        let (b, a, name) = (letter(self.config), letter(self.against), self.name(names));
        if let Measure::Columns(to, from) = self.measure {
            let whose = if self.config == self.against {
                String::new()
            } else {
                format!(" у {a}")
            };
            return match self.expect {
                Expect::Higher => format!("у {b} «{to}» выше, чем «{from}»{whose}"),
                Expect::Lower => format!("у {b} «{to}» ниже, чем «{from}»{whose}"),
                Expect::Close => format!(
                    "у {b} «{to}» почти не отличается от «{from}»{whose}, в пределах разброса между начальными значениями"
                ),
            };
        }
        match (self.measure, self.expect) {
            (Measure::Goal, Expect::Higher) => format!("{b} достигает цели («{name}») позже {a} или реже"),
            (Measure::Goal, Expect::Lower) => format!("{b} достигает цели («{name}») раньше {a}"),
            (Measure::Goal, Expect::Close) => format!(
                "{b} достигает цели («{name}») тогда же, когда {a}, в пределах разброса между начальными значениями"
            ),
            (_, Expect::Higher) => format!("у {b} «{name}» выше, чем у {a}"),
            (_, Expect::Lower) => format!("у {b} «{name}» ниже, чем у {a}"),
            (_, Expect::Close) => format!(
                "у {b} «{name}» почти не отличается от {a}, в пределах разброса между начальными значениями"
            ),
        }
    }

    /// Whether the prediction held on `results` (one row per configuration, in order).
    pub fn check(&self, results: &[ConfigResult], names: &ScoreNames) -> Checked {
        let claim = self.text(names);
        let unknown = |why: &str| Checked {
            outcome: Outcome::Unknown,
            text: format!("Прогноз «{claim}» проверить нельзя: {why}."),
        };
        let (Some(b), Some(a)) = (results.get(self.config), results.get(self.against)) else {
            return unknown("в таблице нет этих конфигураций");
        };
        if a.finished < a.seeds || b.finished < b.seeds {
            return unknown("ещё не закончились все запуски");
        }
        let column = |r: &ConfigResult, name: &str| {
            r.extra
                .iter()
                .find(|x| x.name == name)
                .map(|x| (x.value, x.digits))
        };
        // (direction of b against a: +1 higher, −1 lower, 0 equal; beyond the spread; the numbers)
        let (direction, beyond, numbers) = match self.measure {
            Measure::Score | Measure::Column(_) | Measure::Columns(..) => {
                let (to, from) = match self.measure {
                    Measure::Column(name) => (name, name),
                    Measure::Columns(to, from) => (to, from),
                    _ => ("", ""),
                };
                let (qb, qa, digits) = match self.measure {
                    Measure::Score | Measure::Goal => (b.score, a.score, names.digits),
                    _ => match (column(b, to), column(a, from)) {
                        (Some((qb, d)), Some((qa, _))) => (qb, qa, d),
                        (None, _) => return unknown(&format!("в таблице нет столбца «{to}»")),
                        (_, None) => return unknown(&format!("в таблице нет столбца «{from}»")),
                    },
                };
                let (Some(xb), Some(xa)) = (qb, qa) else {
                    return unknown("у одной из конфигураций нет этого числа");
                };
                let direction = sign(xb.median - xa.median);
                // Two columns: name them beside the letters.
                let (wb, wa) = match self.measure {
                    Measure::Columns(..) => (
                        format!("{} («{to}»)", letter(self.config)),
                        format!("{} («{from}»)", letter(self.against)),
                    ),
                    _ => (
                        letter(self.config).to_string(),
                        letter(self.against).to_string(),
                    ),
                };
                let numbers = format!(
                    "медиана {} [{}; {}] у {wb} против {} [{}; {}] у {wa}",
                    short(xb.median, digits),
                    short(xb.q25, digits),
                    short(xb.q75, digits),
                    short(xa.median, digits),
                    short(xa.q25, digits),
                    short(xa.q75, digits),
                );
                (direction, !overlap(qb, qa), numbers)
            }
            Measure::Goal => {
                // Fewer seeds reaching the goal is "later"; among equal counts, the medians.
                let fewer = a.reached as i64 - b.reached as i64;
                let medians = match (b.reached_at, a.reached_at) {
                    (Some(xb), Some(xa)) => sign(xb.median - xa.median),
                    _ => 0,
                };
                let direction = match fewer.abs() {
                    0 => medians,
                    1 if medians != 0 => medians,
                    _ => fewer.signum() as i32,
                };
                let beyond =
                    fewer.abs() >= 2 || (fewer.abs() <= 1 && !overlap(b.reached_at, a.reached_at));
                let part = |r: &ConfigResult| match r.reached_at {
                    Some(q) => format!(
                        "{} из {}, медиана {} [{}; {}]",
                        r.reached,
                        r.finished,
                        short(q.median, 0),
                        short(q.q25, 0),
                        short(q.q75, 0)
                    ),
                    None => format!("{} из {}", r.reached, r.finished),
                };
                let numbers = format!(
                    "цели достигли {} у {} против {} у {}",
                    part(b),
                    letter(self.config),
                    part(a),
                    letter(self.against)
                );
                (direction, beyond, numbers)
            }
        };
        let single = a.seeds <= 1;
        let want = match self.expect {
            Expect::Higher => 1,
            Expect::Lower => -1,
            Expect::Close => 0,
        };
        let (outcome, verdict) = match self.expect {
            Expect::Close if !beyond || single => (
                Outcome::Held,
                "подтвердился: разница не выходит за разброс между начальными значениями",
            ),
            Expect::Close => (
                Outcome::Failed,
                "не подтвердился: разница вышла за разброс между начальными значениями",
            ),
            _ if direction == want && beyond && !single => (
                Outcome::Held,
                "подтвердился: разница в предсказанную сторону и больше разброса между начальными значениями",
            ),
            _ if direction == want => (
                Outcome::Weak,
                "подтвердился лишь отчасти: разница в предсказанную сторону, но не больше разброса между начальными значениями",
            ),
            _ if direction == 0 => (Outcome::Failed, "не подтвердился: разницы нет"),
            _ => (
                Outcome::Failed,
                "не подтвердился: разница в другую сторону",
            ),
        };
        Checked {
            outcome,
            text: format!("Прогноз «{claim}» {verdict} ({numbers})."),
        }
    }
}

fn sign(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::compare::Extra;

    fn q(median: f64, q25: f64, q75: f64) -> Option<Quartiles> {
        Some(Quartiles { median, q25, q75 })
    }

    fn row(config: usize, score: f64, reached: usize, at: Option<Quartiles>) -> ConfigResult {
        ConfigResult {
            config,
            label: letter(config).into(),
            seeds: 5,
            finished: 5,
            score: q(score, score - 1.0, score + 1.0),
            reached,
            reached_at: at,
            extra: vec![Extra {
                name: "прогноз критика".into(),
                digits: 1,
                value: q(
                    90.0 + config as f64 * 5.0,
                    89.0 + config as f64 * 5.0,
                    91.0 + config as f64 * 5.0,
                ),
            }],
        }
    }

    fn names() -> ScoreNames {
        ScoreNames::of("ppo").unwrap()
    }

    fn check(p: Prediction, results: &[ConfigResult]) -> Checked {
        p.check(results, &names())
    }

    #[test]
    fn the_names_are_each_trainers_tables() {
        assert_eq!(names().goal, "стабильно ≥ 475 с шага");
        assert_eq!(
            ScoreNames::of("sequence").unwrap().goal,
            "решено с итерации"
        );
        assert!(ScoreNames::of("nope").is_err());
        assert_eq!(short(20480.0, 0), "20480");
        assert_eq!(short(0.5, 3), "0,5");
        assert_eq!(short(-1.25, 1), "−1,2");
    }

    #[test]
    fn a_later_goal_beyond_the_spread_holds_and_the_other_way_fails() {
        let a = row(0, 500.0, 5, q(12800.0, 10240.0, 15360.0));
        let later = row(1, 500.0, 5, q(20480.0, 17920.0, 23040.0));
        let p = Prediction {
            config: 1,
            against: 0,
            measure: Measure::Goal,
            expect: Expect::Higher,
        };
        let c = check(p, &[a.clone(), later.clone()]);
        assert_eq!(c.outcome, Outcome::Held, "{}", c.text);
        assert!(c.text.contains("20480 [17920; 23040] у B"), "{}", c.text);
        assert!(c.text.starts_with("Прогноз «B достигает цели («стабильно ≥ 475 с шага») позже A или реже» подтвердился"), "{}", c.text);
        // Swapped: the other way.
        let c = check(p, &[later.clone(), a.clone()]);
        assert_eq!(c.outcome, Outcome::Failed);
        assert!(c.text.contains("в другую сторону"), "{}", c.text);
        // Overlapping quartiles: the direction only.
        let near = row(1, 500.0, 5, q(14080.0, 12800.0, 17920.0));
        assert_eq!(check(p, &[a.clone(), near]).outcome, Outcome::Weak);
        // Two seeds fewer reaching the goal is later, whatever their medians.
        let fewer = row(1, 400.0, 3, q(10240.0, 9000.0, 11000.0));
        assert_eq!(check(p, &[a.clone(), fewer.clone()]).outcome, Outcome::Held);
        // None reached: later still.
        let none = row(1, 100.0, 0, None);
        let c = check(p, &[a.clone(), none]);
        assert_eq!(c.outcome, Outcome::Held, "{}", c.text);
        assert!(c.text.contains("цели достигли 0 из 5 у B"), "{}", c.text);
        // Close: overlapping is what it predicts.
        let close = Prediction {
            expect: Expect::Close,
            ..p
        };
        let near = row(1, 500.0, 5, q(14080.0, 12800.0, 17920.0));
        assert_eq!(check(close, &[a.clone(), near]).outcome, Outcome::Held);
        assert_eq!(check(close, &[a.clone(), later]).outcome, Outcome::Failed);
        assert_eq!(check(close, &[a, fewer]).outcome, Outcome::Failed);
    }

    #[test]
    fn scores_and_columns_compare_their_medians_and_quartiles() {
        let a = row(0, 450.0, 5, None);
        let b = row(1, 20.0, 5, None);
        let lower = Prediction {
            config: 1,
            against: 0,
            measure: Measure::Score,
            expect: Expect::Lower,
        };
        let c = check(lower, &[a.clone(), b.clone()]);
        assert_eq!(c.outcome, Outcome::Held, "{}", c.text);
        assert!(c.text.contains("итоговая оценка"), "{}", c.text);
        let higher = Prediction {
            measure: Measure::Column("прогноз критика"),
            expect: Expect::Higher,
            ..lower
        };
        let c = check(higher, &[a.clone(), b.clone()]);
        assert_eq!(c.outcome, Outcome::Held, "{}", c.text);
        assert!(
            c.text.contains("95 [94; 96] у B против 90 [89; 91] у A"),
            "{}",
            c.text
        );
        let missing = Prediction {
            measure: Measure::Column("нет такого"),
            ..lower
        };
        assert_eq!(
            check(missing, &[a.clone(), b.clone()]).outcome,
            Outcome::Unknown
        );
        // Unfinished or absent configurations: not checkable yet.
        let mut running = b.clone();
        running.finished = 3;
        assert_eq!(
            check(lower, &[a.clone(), running]).outcome,
            Outcome::Unknown
        );
        let far = Prediction { config: 3, ..lower };
        assert_eq!(
            check(far, &[a.clone(), b.clone()]).outcome,
            Outcome::Unknown
        );
        // One seed: never more than the direction.
        let (mut a1, mut b1) = (a, b);
        for r in [&mut a1, &mut b1] {
            r.seeds = 1;
            r.finished = 1;
        }
        assert_eq!(check(lower, &[a1, b1]).outcome, Outcome::Weak);
    }

    #[test]
    fn the_comparison_in_words_names_each_configuration_against_a() {
        let a = row(0, 500.0, 5, q(12800.0, 10240.0, 15360.0));
        let b = row(1, 500.0, 5, q(20480.0, 17920.0, 23040.0));
        let c = row(2, 500.0, 4, q(12800.0, 10240.0, 15360.0));
        let text = describe(&[a.clone(), b, c], &names());
        assert!(
            text.starts_with("B: стабильно ≥ 475 с шага — медиана 20480 против 12800 у A; итоговая оценка — медиана 500 против 500 у A; прогноз критика — медиана 95 против 90 у A; на этих начальных значениях разница больше разброса между ними."),
            "{text}"
        );
        assert!(
            text.contains("C: цели достигли 4 из 5 начальных значений против 5 из 5 у A"),
            "{text}"
        );
        assert!(text.ends_with("Всего 5 начальных значений на конфигурацию — это немного: выводы стоит проверить на других."), "{text}");
        let mut running = a.clone();
        running.finished = 2;
        assert!(describe(&[running], &names()).starts_with("Сравнение ещё идёт"));
        assert_eq!(describe(&[], &names()), "");
    }
}
