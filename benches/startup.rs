//! Where the time of a one-file scan (the pre-commit case) goes.
//!
//! Run with `cargo bench --bench startup [FILE]` (default: `tests/fixtures/scan/ci/.gitlab-ci.yml`).
//! Prints the median and the 90th percentile of each phase in process (loading and validating
//! the embedded data, building the scanner, scanning the file through the walk), then of the
//! whole `uplint scan --no-config --format concise FILE` process beside spawning `/bin/true`.

use std::path::PathBuf;
use std::process::{Command, Stdio};

mod support;
use support::measure;
use uplint::catalog::Catalog;
use uplint::scan::{Options, Scanner};

fn main() {
    // `cargo bench` passes `--bench`; the first other argument is the file.
    let file = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan/ci/.gitlab-ci.yml")
        });
    assert!(file.is_file(), "{} is not a file", file.display());
    let root = std::env::current_dir().unwrap();
    measure("load + validate embedded data", 300, || {
        std::hint::black_box(Catalog::embedded().unwrap());
    });
    let cat = Catalog::embedded().unwrap();
    let target = cat.newest_removal().unwrap();
    let options = || Options::new(target);
    measure("build the scanner", 300, || {
        std::hint::black_box(Scanner::new(&cat, options()).unwrap());
    });
    let scanner = Scanner::new(&cat, options()).unwrap();
    let paths = [file.clone()];
    measure("scan the file (walk, read, match)", 300, || {
        std::hint::black_box(scanner.scan_paths(&paths, &root));
    });
    let exe = env!("CARGO_BIN_EXE_uplint");
    measure("spawn /bin/true", 100, || {
        Command::new("/bin/true").status().unwrap();
    });
    measure("uplint scan --no-config --format concise FILE", 100, || {
        let status = Command::new(exe)
            .args(["scan", "--no-config", "--format", "concise"])
            .arg(&file)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.code().is_some_and(|c| c <= 1), "{status}");
    });
}
