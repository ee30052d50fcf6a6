//! How fast `uplint query` answers on the embedded data.
//!
//! Run with `cargo bench --bench query`. Prints the median and the 90th percentile of:
//! loading and validating the embedded data, a window query on a loaded catalog, and the whole
//! `uplint query --from 16.5 --to 17.0 --format json` process (start, load, query, print).

use std::process::{Command, Stdio};

mod support;
use support::measure;
use uplint::catalog::Catalog;
use uplint::catalog::query::Filter;

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    measure("load + validate embedded data", 200, || {
        std::hint::black_box(Catalog::embedded().unwrap());
    });
    let cat = Catalog::embedded().unwrap();
    let filter = Filter {
        from: Some("16.5".parse().unwrap()),
        to: Some("17.0".parse().unwrap()),
        ..Filter::default()
    };
    measure("query --from 16.5 --to 17.0 (in process)", 2000, || {
        std::hint::black_box(filter.apply(cat.entries()));
    });
    let exe = env!("CARGO_BIN_EXE_uplint");
    measure(
        "uplint query --from 16.5 --to 17.0 --format json",
        100,
        || {
            let status = Command::new(exe)
                .args([
                    "query", "--from", "16.5", "--to", "17.0", "--format", "json",
                ])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        },
    );
}
