//! A small command-line parser: `--name value`, `--name=value` and bare `--flag`s, with every
//! unknown, repeated or malformed option reported before any work starts.

use pgbook::error::Name;
use pgbook::{Error, Result};
use std::collections::BTreeMap;
use std::str::FromStr;

pub struct Args {
    options: BTreeMap<String, Vec<Option<String>>>,
    used: std::cell::RefCell<Vec<String>>,
}

impl Args {
    /// Parses options; `flags` names the options that take no value, `repeatable` those that
    /// may be given more than once.
    pub fn parse(raw: &[String], flags: &[&str], repeatable: &[&str]) -> Result<Self> {
        let mut options: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(Error::unknown(Name::Argument, arg, &[]));
            };
            let (name, value) = match name.split_once('=') {
                // A flag takes no value: `--json=false` is refused, never read as true.
                Some((n, _)) if flags.contains(&n) => {
                    return Err(Error::parse(
                        format!("--{n}"),
                        arg,
                        "the flag takes no value",
                    ));
                }
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None if flags.contains(&name) => (name.to_string(), None),
                None => {
                    let v = it.next().ok_or_else(|| {
                        Error::parse(format!("--{name}"), "", "the option needs a value")
                    })?;
                    (name.to_string(), Some(v.clone()))
                }
            };
            let values = options.entry(name.clone()).or_default();
            if !values.is_empty() && !repeatable.contains(&name.as_str()) {
                return Err(Error::parse(
                    format!("--{name}"),
                    arg,
                    "the option is given twice",
                ));
            }
            values.push(value);
        }
        Ok(Args {
            options,
            used: Default::default(),
        })
    }

    /// Whether a value-less flag is present.
    pub fn flag(&self, name: &str) -> bool {
        self.used.borrow_mut().push(name.to_string());
        self.options.contains_key(name)
    }

    /// Every value of a repeatable option, in the order given.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.used.borrow_mut().push(name.to_string());
        self.options
            .get(name)
            .map(|vs| vs.iter().flatten().cloned().collect())
            .unwrap_or_default()
    }

    /// The option's value as text, or `None` when absent.
    pub fn text(&self, name: &str) -> Option<String> {
        self.used.borrow_mut().push(name.to_string());
        self.options
            .get(name)
            .and_then(|vs| vs.first().cloned().flatten())
    }

    /// The option's value parsed as `T`, or `None` when absent.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        match self.text(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|e| Error::parse(format!("--{name}"), v.as_str(), e)),
        }
    }

    /// A comma-separated list, e.g. `--group-size 2,4,8`.
    pub fn list<T: FromStr>(&self, name: &str) -> Result<Option<Vec<T>>>
    where
        T::Err: std::fmt::Display,
    {
        let Some(raw) = self.text(name) else {
            return Ok(None);
        };
        raw.split(',')
            .map(|s| {
                s.trim()
                    .parse()
                    .map_err(|e| Error::parse(format!("--{name}"), s, e))
            })
            .collect::<Result<Vec<T>>>()
            .map(Some)
    }

    /// Fails on any option that no `get`/`flag` call asked for.
    pub fn finish(self) -> Result<()> {
        let used = self.used.into_inner();
        match self.options.keys().find(|k| !used.contains(k)) {
            Some(k) => Err(Error::unknown(Name::Option, format!("--{k}"), &[])),
            None => Ok(()),
        }
    }
}
