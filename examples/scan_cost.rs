//! Where a scan's time goes, by kind of file: every file of a tree is read into memory first,
//! then scanned in one thread with one scratch space, as a walking thread scans them (the
//! scanner's own work only: no walking, reading or output). Files uplint does not read (by
//! their names) are left out.
//!
//! cargo run --release --example scan_cost -- TREE [--rounds N] [--only SUFFIX] [--slowest K]
//!
//! Prints, for each file suffix (files over 1 MB apart, as `BIG suffix`), the seconds spent,
//! the bytes, the throughput and the findings, from the last of N rounds (default 2); with
//! `--slowest K`, also the K files that took the longest.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use uplint::catalog::Catalog;
use uplint::scan::{Options, Scanner, Scratch, classify};

fn read_tree(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_tree(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path.to_string_lossy().into_owned(), text));
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut tree, mut rounds, mut only, mut slowest) = (None, 2, None, 0);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(2),
            "--only" => only = args.next(),
            "--slowest" => slowest = args.next().and_then(|k| k.parse().ok()).unwrap_or(10),
            _ => tree = Some(a),
        }
    }
    let Some(tree) = tree else {
        eprintln!("usage: scan_cost TREE [--rounds N] [--only SUFFIX] [--slowest K]");
        std::process::exit(2);
    };
    let catalog = Catalog::embedded().expect("the embedded data loads");
    let target = catalog.newest_removal().expect("the data has removals");
    let scanner = Scanner::new(&catalog, Options::new(target)).expect("default options");
    let mut files = Vec::new();
    read_tree(Path::new(&tree), &mut files);
    if let Some(suffix) = &only {
        files.retain(|(p, _)| p.ends_with(suffix.as_str()));
    }
    // suffix → (seconds, bytes, findings)
    let mut by: BTreeMap<String, (f64, usize, usize)> = BTreeMap::new();
    let mut scratch = Scratch::default();
    // (seconds, path) of each file, from the last round.
    let mut per_file: Vec<(f64, &str)> = Vec::new();
    for _ in 0..rounds.max(1) {
        by.clear();
        per_file.clear();
        for (path, text) in &files {
            let suffix = path.rsplit('.').next().unwrap_or("").to_string();
            let key = if text.len() > 1_000_000 {
                format!("BIG {suffix}")
            } else {
                suffix
            };
            let Some(class) = classify::classify(path) else {
                continue;
            };
            let started = Instant::now();
            // As a walking thread does: one scratch space for all the files.
            let result = scanner.scan_class_with(&mut scratch, path, class, text);
            let secs = started.elapsed().as_secs_f64();
            per_file.push((secs, path));
            let e = by.entry(key).or_default();
            e.0 += secs;
            e.1 += text.len();
            e.2 += result.findings.len();
        }
    }
    per_file.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, path) in per_file.iter().take(slowest) {
        println!("{:9.3} ms  {path}", secs * 1000.0);
    }
    let total: f64 = by.values().map(|v| v.0).sum();
    println!("{} files, {total:.3} s in all", files.len());
    for (k, (secs, bytes, findings)) in &by {
        let mb = *bytes as f64 / 1e6;
        println!(
            "{k:12} {secs:7.3} s {mb:7.1} MB {:7.0} MB/s {findings:6} findings",
            mb / secs.max(1e-9)
        );
    }
}
