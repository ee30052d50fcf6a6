//! Reporters: turn catalog query results (and scan findings) into output formats.
//! One file per format.

pub mod catalog;

/// `1 finding`, `2 findings`: a count with the noun that agrees with it.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub mod scan;
pub mod text;
