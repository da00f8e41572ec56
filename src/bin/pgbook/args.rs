//! A small command-line parser: `--name value`, `--name=value` and bare `--flag`s, with every
//! unknown or malformed option reported instead of ignored.

use pgbook::{Error, Result};
use std::collections::BTreeMap;
use std::str::FromStr;

pub struct Args {
    options: BTreeMap<String, Option<String>>,
    used: std::cell::RefCell<Vec<String>>,
}

impl Args {
    /// Parses options; `flags` names the options that take no value.
    pub fn parse(raw: &[String], flags: &[&str]) -> Result<Self> {
        let mut options = BTreeMap::new();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(Error::unknown("argument", arg, &[]));
            };
            let (name, value) = match name.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None if flags.contains(&name) => (name.to_string(), None),
                None => {
                    let v = it.next().ok_or_else(|| {
                        Error::parse(format!("--{name}"), "", "the option needs a value")
                    })?;
                    (name.to_string(), Some(v.clone()))
                }
            };
            if options.insert(name.clone(), value).is_some() {
                return Err(Error::parse(
                    format!("--{name}"),
                    arg,
                    "the option is given twice",
                ));
            }
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

    /// The option's value parsed as `T`, or `None` when absent.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        self.used.borrow_mut().push(name.to_string());
        match self.options.get(name) {
            None => Ok(None),
            Some(None) => Err(Error::parse(
                format!("--{name}"),
                "",
                "the option needs a value",
            )),
            Some(Some(v)) => v
                .parse()
                .map(Some)
                .map_err(|e| Error::parse(format!("--{name}"), v, e)),
        }
    }

    /// A comma-separated list, e.g. `--seeds 11,37`.
    pub fn list<T: FromStr>(&self, name: &str) -> Result<Option<Vec<T>>>
    where
        T::Err: std::fmt::Display,
    {
        let Some(raw) = self.get::<String>(name)? else {
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
            Some(k) => Err(Error::unknown("option", format!("--{k}"), &[])),
            None => Ok(()),
        }
    }
}
