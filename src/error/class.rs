//! Why a class result code (`crate::class`) is refused, in both languages.

/// What is wrong with a class result code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodeProblem {
    /// A character outside the code's alphabet.
    Character(char),
    /// The checksum does not match: a mistyped, truncated or extended code.
    Checksum,
    /// A version of the code this build does not read.
    Version(u8),
    /// The seed was already handed in by another code.
    Duplicate(u64),
    /// The code is of another configuration than the class's.
    OtherConfig,
    /// Recomputing the seed gives other parameters: a forged fingerprint.
    Fingerprint(u64),
    /// Recomputing the seed gives the same parameters but other numbers.
    Numbers(u64),
    /// No code at all.
    Empty,
}

impl CodeProblem {
    /// The English text (the CLI).
    pub fn english(&self) -> String {
        match self {
            CodeProblem::Character(c) => {
                format!("the character '{c}' is not in the code's alphabet")
            }
            CodeProblem::Checksum => {
                "the checksum does not match: a character is mistyped, missing or extra".into()
            }
            CodeProblem::Version(v) => format!("version {v} of the code is unknown to this build"),
            CodeProblem::Duplicate(s) => format!("seed {s} was already handed in"),
            CodeProblem::OtherConfig => {
                "the code is of another configuration than the class's".into()
            }
            CodeProblem::Fingerprint(s) => format!(
                "seed {s} recomputed gives other final parameters: the fingerprint is forged"
            ),
            CodeProblem::Numbers(s) => {
                format!("seed {s} recomputed gives other numbers than the code's")
            }
            CodeProblem::Empty => "no code given".into(),
        }
    }

    /// The Russian text (the page).
    pub fn russian(&self) -> String {
        match self {
            CodeProblem::Character(c) => format!("символа «{c}» нет в алфавите кода"),
            CodeProblem::Checksum => "контрольная сумма не сходится: символ набран неверно, пропущен или лишний (код обрезан?)".into(),
            CodeProblem::Version(v) => format!("версия кода {v} этой сборке книги неизвестна"),
            CodeProblem::Duplicate(s) => format!("начальное число {s} уже сдано другим кодом"),
            CodeProblem::OtherConfig => "код другой конфигурации, не той, что у класса".into(),
            CodeProblem::Fingerprint(s) => format!("пересчёт начального числа {s} даёт другие итоговые параметры: отпечаток подделан"),
            CodeProblem::Numbers(s) => format!("пересчёт начального числа {s} даёт другие числа, чем в коде"),
            CodeProblem::Empty => "нет ни одного кода".into(),
        }
    }
}
