//! Reading Rust source as the import map needs it: code without comments and strings, its
//! tokens, `use` trees, and test-only items set aside.

/// Comments, strings and char literals blanked out, so only code is read.
pub(super) fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if b[i] == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && !ident_byte(b, i) {
            // Raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\''
            && (b.get(i + 2) == Some(&b'\'')
                || (b.get(i + 1) == Some(&b'\\')
                    && b[i + 2..].iter().take(10).any(|&c| c == b'\'')))
        {
            // A char literal (a lifetime has no closing quote two bytes on).
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            // Keep multi-byte characters whole.
            let len = utf8_len(b[i]);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

pub(super) fn utf8_len(first: u8) -> usize {
    match first {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// Whether the byte before `i` continues an identifier (so `i` is not a token's start).
pub(super) fn ident_byte(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Sep, // ::
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other,
}

pub(super) fn tokens(code: &str) -> Vec<Tok> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(code[start..i].to_string()));
            continue;
        }
        if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push(Tok::Sep);
            i += 2;
            continue;
        }
        match c {
            b'{' => out.push(Tok::Open),
            b'}' => out.push(Tok::Close),
            b',' => out.push(Tok::Comma),
            b';' => out.push(Tok::Semi),
            b'*' => out.push(Tok::Star),
            c if c.is_ascii_whitespace() => {}
            _ => out.push(Tok::Other),
        }
        i += 1;
    }
    out
}

/// The paths of a use tree starting at `toks[*at]` (after a `::` or at its start), appended
/// to `prefix`; stops after the tree.
pub(super) fn use_tree(
    toks: &[Tok],
    at: &mut usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*at) {
            Some(Tok::Ident(name)) => {
                path.push(name.clone());
                *at += 1;
                if toks.get(*at) == Some(&Tok::Sep) {
                    *at += 1;
                    continue;
                }
                // `as alias` ends the path.
                if matches!(toks.get(*at), Some(Tok::Ident(w)) if w == "as") {
                    *at += 2;
                }
                out.push(path);
                return;
            }
            Some(Tok::Open) => {
                *at += 1;
                loop {
                    match toks.get(*at) {
                        Some(Tok::Close) => {
                            *at += 1;
                            break;
                        }
                        Some(Tok::Comma) => *at += 1,
                        None => return,
                        _ => use_tree(toks, at, &path, out),
                    }
                }
                out.push(path);
                return;
            }
            Some(Tok::Star) => {
                *at += 1;
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// Whether test code counts (`PGBOOK_IMPORT_MAP_TESTS=1`): by default the map is the
/// program's, and a generic module's tests that build a concrete trainer are no floor of it.
pub(super) fn tests_too() -> bool {
    std::env::var("PGBOOK_IMPORT_MAP_TESTS").is_ok_and(|v| v == "1")
}

/// `code` without its `#[cfg(test)]` items (a `mod tests { … }`, a helper `fn`, a `use`).
pub(super) fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        // The item ends at its first `;` before any `{`, or at the `}` closing its first `{`.
        let (semi, open) = (rest.find(';'), rest.find('{'));
        let end = match (semi, open) {
            (Some(s), Some(o)) if s < o => s + 1,
            (Some(s), None) => s + 1,
            (_, Some(o)) => {
                let mut depth = 0;
                let mut end = rest.len();
                for (i, c) in rest[o..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, None) => rest.len(),
        };
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
