//! The data loader: any text as a data file is loaded or refused with diagnostics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = uplint::catalog::Catalog::from_texts(&[("fuzz.yml", &text)]) {
        // Rendering the diagnostics must not panic either.
        let _ = uplint::catalog::error::render_plain(&e.0);
    }
});
