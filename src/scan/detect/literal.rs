//! Distinctive words (metric names, feature flag names) standing alone, outside comments.

use super::{FileCtx, Hit, word_offsets};

pub fn detect_word(word: &str, ctx: &FileCtx, is_word: fn(u8) -> bool) -> Vec<Hit> {
    word_offsets(ctx.src.text, word, is_word)
        .filter(|&at| !ctx.src.in_comment(at))
        .map(|at| Hit::new(at, at + word.len(), word))
        .collect()
}
