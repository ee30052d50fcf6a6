//! The REST path matcher, URL joining and method detection on any text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use uplint::syntax::rest;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (template, path) = text.split_once('\n').unwrap_or((&text, ""));
    let _ = rest::path_matches(template, path, false);
    let _ = rest::path_matches(template, path, true);
    for line in text.lines() {
        for (start, end, _) in rest::joined_strings(line) {
            assert!(start <= end && end <= line.len());
        }
    }
    let _ = rest::method_in(&text);
});
