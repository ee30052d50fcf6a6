//! Where a word stands alone in a text: not preceded or followed by a byte of its class
//! (`CI_JOB_JWT`, not the `CI_JOB_JWT` of `CI_JOB_JWT_VALIDATOR`).
//!
//! A substring search stops at every look-alike and leaves the boundaries to be checked one
//! hit at a time; where a word's look-alike is written on every line (a variable's longer
//! sibling), those stops are most of the search. For identifier words (letters, digits, `_`)
//! the boundaries are checked in the vector search itself, with AVX2 where the processor has
//! it: 32 places per step are kept when their first and last bytes are the word's and the bytes
//! around them are no identifier's, and only those are compared with the whole word.

/// Is `c` a byte of an identifier (ASCII letter, digit or `_`)?
pub fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The bytes that make a word longer: a word stands alone where none is before or after it.
#[derive(Clone, Copy, Debug)]
pub enum WordBytes {
    /// Those of identifiers ([`is_ident_byte`]).
    Ident,
    /// Those the function accepts.
    Other(fn(u8) -> bool),
}

impl WordBytes {
    fn test(self) -> fn(u8) -> bool {
        match self {
            WordBytes::Ident => is_ident_byte,
            WordBytes::Other(f) => f,
        }
    }
}

/// The offsets at or after `start` where `word` stands alone in `b` (no byte of `bytes` before
/// or after it), in order.
pub fn standalone<'t, 'w>(
    b: &'t [u8],
    start: usize,
    word: &'w [u8],
    bytes: WordBytes,
) -> impl Iterator<Item = usize> + use<'t, 'w> {
    let start = start.min(b.len());
    let is_word = bytes.test();
    // Only a word of identifier bytes: two of its occurrences that overlap cannot both stand
    // alone, so looking at every place finds what the substring search's hits (which do not
    // overlap) filtered find.
    let vector = matches!(bytes, WordBytes::Ident)
        && !word.is_empty()
        && word.iter().all(|&c| is_ident_byte(c))
        && vector_instructions();
    let mut hits = (!vector).then(|| memchr::memmem::find_iter(&b[start..], word));
    let mut at = start;
    // A word that starts or ends with a byte of no word (`after_script=["`) is bounded there
    // by itself.
    let open_start = word.first().is_some_and(|&c| !is_word(c));
    let open_end = word.last().is_some_and(|&c| !is_word(c));
    std::iter::from_fn(move || {
        if let Some(hits) = &mut hits {
            return hits.by_ref().map(|k| start + k).find(|&k| {
                let before = open_start || k == 0 || !is_word(b[k - 1]);
                let after = open_end || b.get(k + word.len()).is_none_or(|&c| !is_word(c));
                before && after
            });
        }
        let found = next_ident_word(b, at, word)?;
        at = found + 1;
        Some(found)
    })
}

/// Can this processor check 32 places at once ([`next_ident_word_avx2`])?
fn vector_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Does the identifier word `word` stand alone at `k` of `b`?
fn ident_word_at(b: &[u8], k: usize, word: &[u8]) -> bool {
    b.get(k..k + word.len()) == Some(word)
        && (k == 0 || !is_ident_byte(b[k - 1]))
        && b.get(k + word.len()).is_none_or(|&c| !is_ident_byte(c))
}

/// The first place at or after `from` where the identifier word `word` (not empty) stands
/// alone in `b`.
fn next_ident_word(b: &[u8], from: usize, word: &[u8]) -> Option<usize> {
    let n = word.len();
    let mut k = from;
    // The place 0 has no byte before it: checked on its own, so that the vector steps can read
    // the byte before each place.
    if k == 0 {
        if ident_word_at(b, 0, word) {
            return Some(0);
        }
        k = 1;
    }
    #[cfg(target_arch = "x86_64")]
    if vector_instructions() {
        // SAFETY: the processor has AVX2 (`vector_instructions`, a cached answer).
        match unsafe { next_ident_word_avx2(b, k, word) } {
            Ok(found) => return Some(found),
            Err(stop) => k = stop,
        }
    }
    (k..=b.len().saturating_sub(n)).find(|&p| ident_word_at(b, p, word))
}

/// [`next_ident_word`] 32 places at a time from `k` (`1 <= k`), while a step's bytes are in `b`:
/// the place found, or where the steps stopped. A step keeps the places where `word`'s first
/// and last bytes are (the substring search's usual first test, which most steps fail), then
/// those with no identifier byte before the place or after the word, and compares only those
/// with the whole word.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn next_ident_word_avx2(b: &[u8], mut k: usize, word: &[u8]) -> Result<usize, usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_sub_epi8,
    };
    let n = word.len();
    // The loads read from k − 1 (below) and k + n − 1.
    assert!(k >= 1 && n >= 1);
    let first = _mm256_set1_epi8(word[0] as i8);
    let last = _mm256_set1_epi8(word[n - 1] as i8);
    let bit5 = _mm256_set1_epi8(0x20);
    let underscore = _mm256_set1_epi8(b'_' as i8);
    // Which bytes are outside `lo..=hi`, as bits? (Shifted so that `lo` is the least signed
    // byte, then one signed compare; exact for every byte.)
    let outside = |v: __m256i, lo: u8, hi: u8| {
        let shifted = _mm256_sub_epi8(v, _mm256_set1_epi8(lo.wrapping_sub(0x80) as i8));
        let bound = _mm256_set1_epi8((hi - lo).wrapping_add(0x80) as i8);
        _mm256_movemask_epi8(_mm256_cmpgt_epi8(shifted, bound)) as u32
    };
    // The bytes that are no identifier's, as bits: no letter (either case), no digit, no `_`.
    let not_ident = |v: __m256i| {
        let neither = outside(_mm256_or_si256(v, bit5), b'a', b'z') & outside(v, b'0', b'9');
        neither & !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, underscore)) as u32)
    };
    // A step reads from k − 1 to k + n + 32 (the byte after the last place's word).
    while k + n + 32 <= b.len() {
        // SAFETY: each load reads 32 bytes from k − 1, k, k + n − 1 or k + n: within `b`.
        let load = |at: usize| unsafe { _mm256_loadu_si256(b.as_ptr().add(at).cast::<__m256i>()) };
        let ends = _mm256_and_si256(
            _mm256_cmpeq_epi8(load(k), first),
            _mm256_cmpeq_epi8(load(k + n - 1), last),
        );
        let mut places = _mm256_movemask_epi8(ends) as u32;
        if places != 0 {
            places &= not_ident(load(k - 1)) & not_ident(load(k + n));
            while places != 0 {
                let p = k + places.trailing_zeros() as usize;
                if b[p..p + n] == *word {
                    return Ok(p);
                }
                places &= places - 1;
            }
        }
        k += 32;
    }
    Err(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each place checked one by one.
    fn reference(b: &[u8], start: usize, word: &[u8], is_word: fn(u8) -> bool) -> Vec<usize> {
        (start..=b.len().saturating_sub(word.len()))
            .filter(|&k| {
                b[k..].starts_with(word)
                    && (k == 0 || !is_word(b[k - 1]))
                    && b.get(k + word.len()).is_none_or(|&c| !is_word(c))
            })
            .collect()
    }

    #[test]
    fn a_look_alike_is_not_the_word() {
        let text = b"CI_JOB_JWT_VALIDATOR=1\nexport CI_JOB_JWT; x=$CI_JOB_JWT\n".repeat(9);
        let found: Vec<usize> = standalone(&text, 0, b"CI_JOB_JWT", WordBytes::Ident).collect();
        assert_eq!(found, reference(&text, 0, b"CI_JOB_JWT", is_ident_byte));
        assert_eq!(found.len(), 18);
        assert_eq!(&text[found[0] - 7..found[0]], b"export ");
    }

    #[test]
    fn other_classes_keep_their_own_bytes() {
        fn with_colon(c: u8) -> bool {
            is_ident_byte(c) || c == b':'
        }
        let text = b"gitlab:metric metric metric_total".repeat(3);
        let found: Vec<usize> =
            standalone(&text, 0, b"metric", WordBytes::Other(with_colon)).collect();
        assert_eq!(found, reference(&text, 0, b"metric", with_colon));
        assert_eq!(found.len(), 3);
    }

    fn texts() -> impl Strategy<Value = (Vec<u8>, Vec<u8>, usize)> {
        // Words, their look-alikes and separators of every class, so that places and
        // boundaries are dense; bytes above 0x7F and every ASCII byte near the ranges' edges.
        let piece = prop_oneof![
            Just(b"ab".to_vec()),
            Just(b"a".to_vec()),
            Just(b"ab_c".to_vec()),
            Just(b"_".to_vec()),
            Just(b"9".to_vec()),
            Just(b"Ab".to_vec()),
            prop::sample::select(b" \n\t-.:$@[`{/0Zz\x7f\x80\xc3\xff".to_vec())
                .prop_map(|c| vec![c]),
        ];
        let word = prop_oneof![
            Just(b"ab".to_vec()),
            Just(b"a".to_vec()),
            Just(b"ab_c".to_vec()),
            Just(b"Ab".to_vec()),
        ];
        (prop::collection::vec(piece, 0..160), word, 0usize..40).prop_map(|(p, w, s)| {
            let text = p.concat();
            let s = s.min(text.len());
            (text, w, s)
        })
    }

    proptest! {
        /// The vector search finds the places a byte-by-byte check finds, from any start.
        #[test]
        fn standalone_words_as_byte_by_byte((text, word, start) in texts()) {
            let found: Vec<usize> = standalone(&text, start, &word, WordBytes::Ident).collect();
            prop_assert_eq!(found, reference(&text, start, &word, is_ident_byte));
        }
    }
}
