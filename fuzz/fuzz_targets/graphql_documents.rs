//! The GraphQL document walker: occurrences lie in the text, errors point into it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use uplint::scan::graphql;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (occurrences, error) = graphql::parse(&text);
    for o in &occurrences {
        assert!(o.start < o.end && o.end <= text.len());
        assert_eq!(&text[o.start..o.end], &*o.name);
    }
    if let Some(e) = error {
        assert!(e.offset <= text.len());
    }
});
