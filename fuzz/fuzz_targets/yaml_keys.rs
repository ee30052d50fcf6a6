//! The YAML key walker with template masking: keys, paths and positions stay in the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use uplint::scan::yaml;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let masked = yaml::mask_templates(&text);
    assert_eq!(masked.len(), text.len(), "masking keeps every offset");
    for doc in [yaml::parse(&masked), yaml::fallback(&text)] {
        for key in &doc.keys {
            assert!(key.start <= key.end && key.end <= text.len());
            let _ = doc.path(key);
        }
    }
});
