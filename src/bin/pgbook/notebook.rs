//! `pgbook notebook [--teacher] [--out FILE]`: the notebook of the book's coding exercises —
//! the one the book offers for download (stubs), or the teacher's copy with our solutions,
//! which the book does not link.

use crate::args::Args;
use pgbook::lessons::code;
use pgbook::{Error, Result};

pub fn notebook(args: Args) -> Result<()> {
    let teacher = args.flag("teacher");
    let out = args.text("out");
    args.finish()?;
    let text = code::notebook(teacher)?;
    match out {
        Some(path) => std::fs::write(&path, text).map_err(|e| Error::io(&path, e)),
        None => {
            outln!("{text}");
            Ok(())
        }
    }
}
