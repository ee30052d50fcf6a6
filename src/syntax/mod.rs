//! Reading a file: which kind of file a path is, its text with lines and comments, and the
//! structures the detectors match on (YAML keys, command lines, GraphQL documents, HTTP calls).
//! It knows no catalog entry and no finding: the pattern kinds ([`crate::patterns`]) match on
//! what it gives, and the scan engine drives it.

pub mod ci_jobs;
pub mod classify;
pub mod cmdline;
pub mod embedded;
mod file;
pub mod graphql;
pub mod graphql_docs;
pub mod graphql_tags;
pub mod graphql_types;
mod path_variable;
pub mod request_helper;
pub mod rest;
pub mod roles;
pub mod sdk;
pub mod sdk_declarations;
pub mod source;
pub mod structure;
pub mod test_names;
mod words;
pub mod yaml;

pub use classify::{Class, FileKind};
pub use file::{
    ABSENT, FileCtx, FirstOffsets, LiteralIndex, NOT_LOOKED_FOR, is_yaml_kind, line_start,
    line_start_within, run_around, word_offsets,
};
pub use rest::{Method, RestApi};
pub use words::{WordBytes, is_ident_byte};
