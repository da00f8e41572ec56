//! The one list of trainers. The CLI's `train NAME` and `settings NAME`, the page's list of
//! panels and every wasm entry point that takes a trainer's name (schema, check, worker run,
//! run board, empty figures) dispatch through [`by_trainer!`](crate::by_trainer); a new
//! trainer is one line here. Each line names the trainer's type, two markers its users
//! implement their part for — the kind of panel and text it gets ([`CartPole`]: learning
//! curves from greedy evaluations, the animation, policy files; or [`Sequence`]), and
//! whether its panel draws per-update diagnostics ([`PpoDiagnostics`]) or not
//! ([`NoDiagnostics`]) — and the lesson page that hosts its panel ([`page`]).

use super::settings::{label_ru, seeds};
use super::Trainer;
use crate::error::Result;

/// Where a trainer's panel lives in the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Page {
    /// The lesson page's file.
    pub file: &'static str,
    /// The query parameter that carries the seeds (`seeds=11,37`, or `seed=5`).
    pub seeds_param: &'static str,
    /// Most seeds the panel trains side by side.
    pub max_seeds: usize,
}

/// Panel and text of a CartPole trainer ([`super::cartpole::CartPoleTrainer`]).
#[derive(Debug, Clone, Copy)]
pub struct CartPole;
/// Panel and text of the sequence trainer.
#[derive(Debug, Clone, Copy)]
pub struct Sequence;

impl CartPole {
    /// The run link's parameter for the seeds (`seeds=11,37`).
    pub const SEEDS_PARAM: &'static str = "seeds";
    /// Most seeds the panel trains side by side.
    pub const MAX_SEEDS: usize = seeds::MAX_SEEDS;
}

impl Sequence {
    /// The run link's parameter for the seeds: the name it always had (`seed=5`,
    /// `seed=1,2,3,4,5`).
    pub const SEEDS_PARAM: &'static str = "seed";
    /// Most seeds the panel trains side by side, as CartPole's.
    pub const MAX_SEEDS: usize = seeds::MAX_SEEDS;
}
/// The PPO diagnostics figure (ratios, clipping, KL) beside the learning curve.
#[derive(Debug, Clone, Copy)]
pub struct PpoDiagnostics;
/// No diagnostics figure.
#[derive(Debug, Clone, Copy)]
pub struct NoDiagnostics;

/// `$body` with `$T` (and optionally `$F`, `$D`: its panel kind and diagnostics marker) bound
/// to the trainer named `$name`; `$fallback` with `$other` bound to the name when no trainer
/// has it.
///
/// ```
/// use pgbook::train::Trainer;
/// let step = pgbook::by_trainer!("a2c", T => T::STEP.name(), other => other);
/// assert_eq!(step, "update");
/// ```
#[macro_export]
macro_rules! by_trainer {
    // The list: module::Type, panel kind, diagnostics, the page of its panel — in the book's
    // order.
    (@list $mode:ident $args:tt) => {
        $crate::by_trainer!(@$mode $args
            [reinforce::ReinforceTrainer, CartPole, NoDiagnostics, "baselines.html"]
            [a2c::A2cTrainer, CartPole, NoDiagnostics, "gae.html"]
            [ppo::PpoTrainer, CartPole, PpoDiagnostics, "ppo.html"]
            [sequence::SequenceTrainer, Sequence, NoDiagnostics, "sequences.html"]
        )
    };
    (@names () $([$m:ident :: $t:ident, $f:ident, $d:ident, $page:literal])*) => {
        [$(<$crate::train::$m::$t as $crate::train::Trainer>::NAME),*]
    };
    (@pages () $([$m:ident :: $t:ident, $f:ident, $d:ident, $page:literal])*) => {
        [$((
            <$crate::train::$m::$t as $crate::train::Trainer>::NAME,
            $crate::train::registry::Page {
                file: $page,
                seeds_param: $crate::train::registry::$f::SEEDS_PARAM,
                max_seeds: $crate::train::registry::$f::MAX_SEEDS,
            },
        )),*]
    };
    (@dispatch ($name:expr, $T:ident, $F:ident, $D:ident, $body:expr, $other:ident, $fallback:expr)
        $([$m:ident :: $t:ident, $f:ident, $d:ident, $page:literal])*) => {{
        let name: &str = $name;
        $(if name == <$crate::train::$m::$t as $crate::train::Trainer>::NAME {
            #[allow(dead_code)]
            type $T = $crate::train::$m::$t;
            #[allow(dead_code)]
            type $F = $crate::train::registry::$f;
            #[allow(dead_code)]
            type $D = $crate::train::registry::$d;
            $body
        } else)* {
            let $other = name;
            $fallback
        }
    }};
    ($name:expr, <$T:ident, $F:ident, $D:ident> => $body:expr, $other:ident => $fallback:expr) => {
        $crate::by_trainer!(@list dispatch ($name, $T, $F, $D, $body, $other, $fallback))
    };
    ($name:expr, $T:ident => $body:expr, $other:ident => $fallback:expr) => {
        $crate::by_trainer!(@list dispatch
            ($name, $T, __Panel, __Diagnostics, $body, $other, $fallback))
    };
}

/// Every trainer's name, in the book's order.
pub const NAMES: &[&str] = &crate::by_trainer!(@list names ());

/// Where each trainer's panel is in the book, by name.
const PAGES: &[(&str, Page)] = &crate::by_trainer!(@list pages ());

/// Where trainer `name`'s panel is in the book.
pub fn page(name: &str) -> Result<Page> {
    PAGES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, page)| page)
        .ok_or_else(|| unknown(name))
}

/// The error for a name no trainer has.
pub fn unknown(name: &str) -> crate::Error {
    crate::Error::unknown(crate::error::Name::Trainer, name, NAMES)
}

/// The Russian name of trainer `trainer`'s setting or argument `name` for messages (its own
/// label: two trainers may label the same name differently); without a known trainer, only
/// the arguments that are not settings.
pub fn label(trainer: &str, name: &str) -> Option<String> {
    fn of<T: Trainer>(name: &str) -> Option<String> {
        label_ru::<T::Config>(name)
    }
    by_trainer!(trainer, T => of::<T>(name), _other => {
        super::settings::argument_label_ru(name).map(|l| format!("«{l}» ({name})"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trainer_is_listed_once_and_found_by_its_name() {
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), NAMES.len());
        for &name in NAMES {
            let found = by_trainer!(name, T => T::NAME, other => other);
            assert_eq!(found, name);
        }
        assert!(by_trainer!("nope", T => Some(T::NAME), _o => None).is_none());
        assert!(unknown("nope").to_string().contains("a2c"));
        for &name in NAMES {
            assert!(page(name).unwrap().file.ends_with(".html"), "{name}");
        }
        assert_eq!(page("sequence").unwrap().seeds_param, "seed");
        assert!(page("nope").is_err());
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads the sources
    fn each_trainers_page_hosts_its_panel() {
        for &name in NAMES {
            let file = page(name).unwrap().file;
            let path = format!("{}/www/pages/{file}", env!("CARGO_MANIFEST_DIR"));
            let html = std::fs::read_to_string(&path).unwrap();
            assert!(
                html.contains(&format!("id=\"trainer-{name}\"")),
                "{file} has no #trainer-{name}"
            );
        }
    }

    #[test]
    fn a_setting_is_labelled_by_its_own_trainer() {
        // PPO and REINFORCE both have `learning_rate`, labelled differently.
        let ppo = label("ppo", "learning_rate").unwrap();
        let reinforce = label("reinforce", "learning_rate").unwrap();
        assert!(ppo.contains("скорость обучения Adam"), "{ppo}");
        assert!(
            reinforce.contains("скорость обучения политики"),
            "{reinforce}"
        );
        let e = crate::Error::range("learning_rate", crate::error::Rule::between(0.0, 1.0), 2.0);
        let message = e.russian(&|n| label("reinforce", n));
        assert!(message.contains("скорость обучения политики"), "{message}");
        assert!(!message.contains("Adam"), "{message}");
        // Arguments that are not settings, with or without a trainer.
        assert!(label("ppo", "seeds").unwrap().contains("начальных"));
        assert!(label("", "seed").unwrap().contains("начальное"));
        assert_eq!(label("", "learning_rate"), None);
    }
}
