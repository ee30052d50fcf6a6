//! `uplint scan --fix`, `--unsafe-fixes` and `--diff`: which files to fix, the writes, what is
//! said about them on standard error.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::print;
use uplint::catalog::Catalog;
use uplint::config::Settings;
use uplint::fix::apply::{self, FileText, FixSettings};
use uplint::fix::confined::Confinement;
use uplint::fix::{Applicability, diff as udiff, range_start};
use uplint::render::plural;
use uplint::scan::{Options, Report, Scanner};

/// The fix settings of a run.
pub fn settings(s: &Settings, o: &Options) -> FixSettings {
    FixSettings {
        unsafe_fixes: s.unsafe_fixes == Some(true),
        range_start: range_start(o.min_version, o.current),
    }
}

/// The files with a fix this run applies, in the order of their shown paths: each as the walk
/// found it (a file is never reached by its shown path) and as it is shown.
fn files_to_fix(report: &Report, fixes: FixSettings) -> BTreeSet<(&str, &Path)> {
    report
        .findings
        .iter()
        .filter(|f| f.fix.as_ref().is_some_and(|x| fixes.allows(x)))
        .filter_map(|f| Some((f.path.as_str(), &**f.file.as_ref()?)))
        .collect()
}

/// How many fixes are held back as unsafe.
fn unsafe_left(report: &Report, fixes: FixSettings) -> usize {
    report
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .filter(|x| x.applicability == Applicability::Unsafe && !fixes.unsafe_fixes)
        .count()
}

fn note(s: &str) {
    eprintln!("{s}");
}

/// Say which fixes of a file were left out, and why (the finding stays: the exit status is
/// that of a finding without a fix).
fn note_dropped(path: &str, fixed: &apply::Fixed) {
    for d in &fixed.dropped {
        note(&format!(
            "uplint: {path}:{}:{}: fix not applied ({}): {}",
            d.line, d.column, d.description, d.why
        ));
    }
}

/// `--diff`: print the diff of every file the fixes change; exit 1 when there is one.
pub fn diff(
    scanner: &Scanner,
    cat: &Catalog,
    report: &Report,
    reach: &Confinement,
    fixes: FixSettings,
) -> super::Outcome {
    let mut out = String::new();
    let (mut files, mut applied) = (0, 0);
    for (path, walked) in files_to_fix(report, fixes) {
        let Some(file) = FileText::read(walked, path, reach) else {
            continue;
        };
        let fixed = apply::fix_text(scanner, cat, &file, fixes);
        note_dropped(path, &fixed);
        let bom = if file.bom { "\u{FEFF}" } else { "" };
        let d = udiff::unified(
            path,
            &format!("{bom}{}", file.text),
            &format!("{bom}{}", fixed.text),
        );
        if !d.is_empty() {
            files += 1;
            applied += fixed.applied;
            out.push_str(&d);
        }
    }
    print(&out)?;
    let held = unsafe_left(report, fixes);
    if files > 0 {
        note(&format!(
            "uplint: {} in {} would be applied",
            plural(applied, "fix", "fixes"),
            plural(files, "file", "files")
        ));
    }
    if held > 0 {
        note(&format!(
            "uplint: {} not shown (use --unsafe-fixes)",
            plural(held, "unsafe fix", "unsafe fixes")
        ));
    }
    Ok(ExitCode::from(u8::from(files > 0)))
}

/// `--fix`: fix and write each file, then scan again for what remains. Returns the new report
/// (with the files that could not be written among its errors) and whether there were such.
pub fn fix(
    scanner: &Scanner,
    cat: &Catalog,
    report: Report,
    paths: &[PathBuf],
    root: &Path,
    reach: &Confinement,
    fixes: FixSettings,
) -> (Report, bool) {
    let mut refusals = Vec::new();
    let (mut files, mut applied) = (0, 0);
    for (path, walked) in files_to_fix(&report, fixes) {
        let Some(file) = FileText::read(walked, path, reach) else {
            continue;
        };
        let fixed = apply::fix_text(scanner, cat, &file, fixes);
        note_dropped(path, &fixed);
        if fixed.applied == 0 || fixed.text == file.text {
            continue;
        }
        match apply::write_fixed(&file.path, &file.bytes, &file.bytes_of(&fixed.text), reach) {
            Ok(()) => {
                files += 1;
                applied += fixed.applied;
            }
            Err(why) => refusals.push(apply::refused(path, &why)),
        }
    }
    let mut after = scanner.scan_paths(paths, root);
    apply::attach_report(&mut after, cat, reach, fixes.range_start);
    note(&format!(
        "uplint: fixed {} in {}",
        plural(applied, "finding", "findings"),
        plural(files, "file", "files")
    ));
    let held = unsafe_left(&after, fixes);
    if held > 0 {
        note(&format!(
            "uplint: {} not applied (use --unsafe-fixes)",
            plural(held, "unsafe fix", "unsafe fixes")
        ));
    }
    let refused = !refusals.is_empty();
    after.summary.errors += refusals.len();
    after.errors.extend(refusals);
    after.errors.sort();
    (after, refused)
}
