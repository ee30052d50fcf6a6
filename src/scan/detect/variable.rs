//! Environment and CI/CD variables: `$NAME`, `${NAME}`, `%NAME%`, `$env:NAME`, definitions
//! (`NAME: value`, `NAME=value`, `- name: NAME`) and names in code (`os.getenv("NAME")`).
//! A longer name is another variable: `CI_JOB_JWT` is not found inside `CI_JOB_JWT_V2`.

use super::{FileCtx, Hit, is_ident_byte, word_offsets};

pub fn detect(name: &str, ctx: &FileCtx) -> Vec<Hit> {
    word_offsets(ctx.src.text, name, is_ident_byte)
        .filter(|&at| !ctx.src.in_comment(at))
        .map(|at| Hit::new(at, at + name.len(), name))
        .collect()
}
