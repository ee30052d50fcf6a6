//! Reads each (original, edited) pair of `mutate.py` with tree-sitter and with uplint's
//! structural reader, and prints how many edits of each kind each finds worse, their speed, and
//! how many unedited files each finds problems in. `ARGS: PAIRS [LANG KIND]` (with LANG and
//! KIND: the pairs where the two disagree).
#[path = "../../../src/syntax/structure.rs"]
#[allow(dead_code)]
mod structure;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn ts_errors(p: &mut tree_sitter::Parser, text: &[u8]) -> usize {
    let tree = p.parse(text, None).unwrap();
    let mut n = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() { n += 1; }
        if node.has_error() { for i in 0..node.child_count() { stack.push(node.child(i).unwrap()); } }
    }
    n
}

fn main() {
    let pairs = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    if let Some(l) = std::env::args().nth(2) { debug(&pairs, &l, &std::env::args().nth(3).unwrap()); return; }
    let mut parsers: BTreeMap<&str, tree_sitter::Parser> = BTreeMap::new();
    for (k, l) in [("go", tree_sitter::Language::new(tree_sitter_go::LANGUAGE)),
                   ("py", tree_sitter::Language::new(tree_sitter_python::LANGUAGE)),
                   ("ts", tree_sitter::Language::new(tree_sitter_typescript::LANGUAGE_TYPESCRIPT)),
                   ("rb", tree_sitter::Language::new(tree_sitter_ruby::LANGUAGE))] {
        let mut p = tree_sitter::Parser::new(); p.set_language(&l).unwrap(); parsers.insert(k, p);
    }
    // (lang, kind) -> (n, ts detected, structure detected)
    let mut res: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    // lang -> (files, bytes, ts time, st time, ts dirty originals, st dirty originals)
    let mut base: BTreeMap<String, (usize, usize, Duration, Duration, usize, usize)> = BTreeMap::new();
    for line in pairs.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (lang, kind, orig, mutated) = (f[0], f[1], f[2], f[3]);
        let o = std::fs::read(orig).unwrap();
        let m = std::fs::read(mutated).unwrap();
        let sl = match lang { "go" => structure::Lang::Go, "py" => structure::Lang::Python, "ts" => structure::Lang::Script, _ => structure::Lang::Ruby };
        let p = parsers.get_mut(lang).unwrap();
        let t0 = Instant::now();
        let tb = ts_errors(p, &o);
        let t1 = Instant::now();
        let sr = structure::read(sl, std::str::from_utf8(&o).unwrap());
        let t2 = Instant::now();
        if seen.insert(orig.to_string()) {
            let b = base.entry(lang.to_string()).or_default();
            b.0 += 1; b.1 += o.len(); b.2 += t1 - t0; b.3 += t2 - t1;
            b.4 += usize::from(tb > 0); b.5 += usize::from(!sr.problems.is_empty());
        }
        let ta = ts_errors(p, &m);
        let sa = structure::read(sl, std::str::from_utf8(&m).unwrap()).worse_than(&sr, std::str::from_utf8(&m).unwrap()).is_some();
        let r = res.entry((lang.to_string(), kind.to_string())).or_default();
        r.0 += 1; r.1 += usize::from(ta > tb); r.2 += usize::from(sa);
    }
    println!("lang\tfiles\tbytes\tts MB/s\tst MB/s\tts dirty\tst dirty");
    for (l, b) in &base {
        println!("{l}\t{}\t{}\t{:.1}\t{:.1}\t{}\t{}", b.0, b.1, b.1 as f64 / b.2.as_secs_f64() / 1e6, b.1 as f64 / b.3.as_secs_f64() / 1e6, b.4, b.5);
    }
    println!("lang\tkind\tn\ttree-sitter\tstructure");
    for ((l, k), r) in &res { println!("{l}\t{k}\t{}\t{}\t{}", r.0, r.1, r.2); }
}
#[allow(dead_code)]
pub fn debug(pairs: &str, lang: &str, kind: &str) {
    for line in pairs.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] != lang || f[1] != kind { continue; }
        let o = std::fs::read_to_string(f[2]).unwrap();
        let m = std::fs::read_to_string(f[3]).unwrap();
        let sl = match lang { "go" => structure::Lang::Go, "py" => structure::Lang::Python, "ts" => structure::Lang::Script, _ => structure::Lang::Ruby };
        let a = structure::read(sl, &o); let b = structure::read(sl, &m);
        let mut p = tree_sitter::Parser::new();
        let l = match lang { "go" => tree_sitter::Language::new(tree_sitter_go::LANGUAGE), "py" => tree_sitter::Language::new(tree_sitter_python::LANGUAGE), "ts" => tree_sitter::Language::new(tree_sitter_typescript::LANGUAGE_TYPESCRIPT), _ => tree_sitter::Language::new(tree_sitter_ruby::LANGUAGE) };
        p.set_language(&l).unwrap();
        let t = ts_errors(&mut p, m.as_bytes()) > ts_errors(&mut p, o.as_bytes());
        let w = b.worse_than(&a, &m);
        if t != w.is_some() { println!("{}: ts {t} st {w:?} {:?}", f[3], b.problems); }
    }
}
