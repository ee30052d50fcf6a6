//! One file's scan, kept from taking the whole scan down: a panic in a detector (a bug of
//! uplint's, met on some file nobody foresaw) becomes that file's error, its partial findings are
//! dropped, and the walk goes on with the other files. Without it a panicking walking thread
//! would leave the others waiting for it forever: a CI job hung until its timeout instead of a
//! report naming the file.

use super::FileResult;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Run `scan` on `result`; if it panics, `result` is as it was before and the error says why.
pub(super) fn scan_guarded(
    result: &mut FileResult,
    scan: impl FnOnce(&mut FileResult),
) -> Result<(), String> {
    let (findings, errors) = (result.findings.len(), result.errors.len());
    let (suppressed, before_current) = (result.suppressed, result.before_current);
    // Unwind safety: on a panic every field of `result` is put back as it was, and the caller
    // starts the next file with fresh scratch space.
    let outcome = catch_unwind(AssertUnwindSafe(|| scan(result)));
    outcome.map_err(|payload| {
        result.findings.truncate(findings);
        result.errors.truncate(errors);
        result.suppressed = suppressed;
        result.before_current = before_current;
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        format!(
            "internal error: uplint panicked while scanning this file ({what}), so its findings \
             are not reported; this is a bug in uplint, please report it with the file"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::FileError;

    #[test]
    fn a_panicking_scan_leaves_the_result_as_it_was_and_says_why() {
        let mut result = FileResult {
            suppressed: 3,
            ..FileResult::default()
        };
        result.errors.push(FileError {
            path: "a.yml".into(),
            message: "earlier".into(),
        });
        let err = scan_guarded(&mut result, |r| {
            r.suppressed += 2;
            r.before_current += 1;
            r.errors.push(FileError {
                path: "b.yml".into(),
                message: "partial".into(),
            });
            let at: usize = "0".parse().expect("a number");
            let _ = [1, 2][at.wrapping_sub(1)];
        });
        let err = err.expect_err("the panic is caught");
        assert!(err.starts_with("internal error: uplint panicked"), "{err}");
        assert!(err.contains("index out of bounds"), "{err}");
        assert_eq!((result.suppressed, result.before_current), (3, 0));
        assert_eq!(result.errors.len(), 1);

        assert_eq!(scan_guarded(&mut result, |r| r.suppressed += 1), Ok(()));
        assert_eq!(result.suppressed, 4);
    }
}
