//! Links into the book: where each trainer's panel is, and the URL that starts a given run
//! there (`pgbook train … --url`; the page reads the same parameters back). The served book
//! takes them in a page's query (`…/ppo.html?run=ppo…#trainer-ppo`); the book in one
//! file (`pgbook.html`, opened from disk too) in its fragment
//! (`…/pgbook.html#ppo/trainer-ppo?run=ppo…`, www/js/links.js).

use super::Trainer;
use crate::error::{Error, Result, Rule};

/// The book's address when it is served as the README says.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8000/";

/// The link that opens `T`'s panel at `base` and starts `profile` with `set` (overrides as
/// text, as `--set` takes them) on `seeds`. A `base` that names an `.html` file is the book in
/// one file (`file:///…/pgbook.html`, or served); any other is the served book's folder, over
/// http(s): the folder's pages do not run from disk.
pub fn run_link<T: Trainer>(
    base: &str,
    profile: &str,
    set: &[(String, String)],
    seeds: &[u64],
) -> Result<String> {
    let page = super::registry::page(T::NAME)?;
    if seeds.len() > page.max_seeds {
        let rule = Rule::Count {
            min: 1,
            max: page.max_seeds,
        };
        return Err(Error::range("seeds", rule, seeds.len()));
    }
    let web = base.starts_with("http://") || base.starts_with("https://");
    let one_file = base.ends_with(".html") && !base.contains(['?', '#']);
    if !(web || (base.starts_with("file:///") && one_file)) {
        return Err(Error::parse(
            "url-base",
            base,
            "expected an http:// or https:// address, or the one-file book's file:///…/pgbook.html",
        ));
    }
    let mut query = vec![
        ("run", T::NAME.to_string()),
        ("profile", profile.to_string()),
    ];
    query.extend(set.iter().map(|(k, v)| (k.as_str(), v.clone())));
    let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
    query.push((page.seeds_param, seeds.join(",")));
    let query: Vec<String> = query
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    let (query, anchor) = (query.join("&"), format!("trainer-{}", T::NAME));
    if one_file {
        let page = page.file.trim_end_matches(".html");
        return Ok(format!("{base}#{page}/{anchor}?{query}"));
    }
    let slash = if base.ends_with('/') { "" } else { "/" };
    Ok(format!("{base}{slash}{}?{query}#{anchor}", page.file))
}

/// Percent-encoding of a query part: letters, digits and `-._~,` stay as they are.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~,".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ppo::PpoTrainer;
    use crate::train::sequence::SequenceTrainer;

    #[test]
    fn a_run_link_names_the_trainer_profile_overrides_and_seeds() {
        let set = [
            ("gamma".to_string(), "0.98".to_string()),
            ("clip_coef".into(), "off".into()),
        ];
        let link = run_link::<PpoTrainer>(DEFAULT_BASE, "full", &set, &[11, 37]).unwrap();
        assert_eq!(
            link,
            "http://127.0.0.1:8000/ppo.html?run=ppo&profile=full&gamma=0.98&clip_coef=off&seeds=11,37#trainer-ppo"
        );
        let link =
            run_link::<SequenceTrainer>("https://book.example/pg", "smoke", &[], &[5]).unwrap();
        assert_eq!(
            link,
            "https://book.example/pg/sequences.html?run=sequence&profile=smoke&seed=5#trainer-sequence"
        );
        assert_eq!(encode("a b&c=d"), "a%20b%26c%3Dd");
        // The sequence panel trains several seeds too; a base must be a web address.
        let link = run_link::<SequenceTrainer>(DEFAULT_BASE, "grpo", &[], &[1, 2, 3]).unwrap();
        assert!(
            link.ends_with("profile=grpo&seed=1,2,3#trainer-sequence"),
            "{link}"
        );
        assert!(run_link::<PpoTrainer>("127.0.0.1:8000", "smoke", &[], &[5]).is_err());
    }

    #[test]
    fn a_run_link_into_the_one_file_book_carries_the_run_in_its_fragment() {
        let set = [("gamma".to_string(), "0.98".to_string())];
        let base = "file:///media/usb/pgbook.html";
        let link = run_link::<PpoTrainer>(base, "smoke", &set, &[11]).unwrap();
        assert_eq!(
            link,
            "file:///media/usb/pgbook.html#ppo/trainer-ppo?run=ppo&profile=smoke&gamma=0.98&seeds=11"
        );
        let served = "https://book.example/pg/pgbook.html";
        let link = run_link::<SequenceTrainer>(served, "smoke", &[], &[5]).unwrap();
        assert!(
            link.ends_with(
                "pgbook.html#sequences/trainer-sequence?run=sequence&profile=smoke&seed=5"
            ),
            "{link}"
        );
        // The served book's folder does not run from disk; a base with its own fragment is
        // not a base.
        for bad in ["file:///media/usb/", "file:///media/usb/pgbook.html#x"] {
            let e = run_link::<PpoTrainer>(bad, "smoke", &[], &[11]).unwrap_err();
            assert!(e.to_string().contains("pgbook.html"), "{e}");
        }
    }
}
