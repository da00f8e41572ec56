//! Standard output that ends quietly when the reader goes away (`pgbook … --json | head -1`):
//! a closed pipe is the reader's choice, not an error, so the process exits 0 at once.

use std::io::{ErrorKind, Write};

/// Prints one line; a closed pipe ends the process quietly.
pub fn line(text: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if let Err(e) = writeln!(lock, "{text}").and_then(|()| lock.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("pgbook: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// `println!` through [`line`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(&format!($($arg)*))
    };
}
