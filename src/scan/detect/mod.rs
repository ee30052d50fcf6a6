//! Detectors: one per pattern kind. Each finds the uses of one pattern in one file, with exact
//! byte ranges, on the structure of the file where it has one.

mod cli;
pub mod error_tracking;
pub mod graphql;
mod helm_value;
mod literal;
mod omnibus;
pub mod rest;
mod rest_field;
mod toml_key;
mod variable;
mod yaml_key;

use std::cell::OnceCell;

use super::cmdline;
use super::source::Source;
use super::yaml::{self, Doc};
use crate::catalog::{FileKind, Pattern};

/// One use of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    /// What is shown as matched (`CI_JOB_JWT_V2`, `trigger.strategy: depend`).
    pub matched: String,
    /// The match lacks context that would confirm it (e.g. the HTTP method is not visible).
    pub weak: bool,
}

impl Hit {
    fn new(start: usize, end: usize, matched: impl Into<String>) -> Self {
        Self {
            start,
            end,
            matched: matched.into(),
            weak: false,
        }
    }
}

/// A file under scan, with its structure parsed on first use.
pub struct FileCtx<'s, 'a> {
    pub src: &'s Source<'a>,
    yaml: OnceCell<Doc>,
    graphql: OnceCell<Vec<graphql::Doc>>,
    /// Parsed command lines, by (program, subcommand).
    commands: CommandCache,
}

/// Command lines parsed per (program, subcommand), shared by the detectors of a file.
type CommandCache = std::cell::RefCell<Vec<((String, String), std::rc::Rc<Vec<cmdline::Command>>)>>;

impl<'s, 'a> FileCtx<'s, 'a> {
    pub fn new(src: &'s Source<'a>) -> Self {
        Self {
            src,
            yaml: OnceCell::new(),
            graphql: OnceCell::new(),
            commands: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The file's YAML keys (templates masked). Parsed once.
    pub fn yaml(&self) -> &Doc {
        self.yaml.get_or_init(|| {
            if self.src.class.templated {
                yaml::parse(&yaml::mask_templates(self.src.text))
            } else {
                yaml::parse(self.src.text)
            }
        })
    }

    /// The `program subcommand` command lines of the file outside comments, parsed once.
    pub fn commands(&self, program: &str, subcommand: &str) -> std::rc::Rc<Vec<cmdline::Command>> {
        let key = (program.to_string(), subcommand.to_string());
        if let Some((_, c)) = self.commands.borrow().iter().find(|(k, _)| *k == key) {
            return c.clone();
        }
        let mut found = cmdline::find(self.src.text, program, subcommand, self.is_yaml());
        found.retain(|c| !self.src.in_comment(c.program.start));
        let parsed = std::rc::Rc::new(found);
        self.commands.borrow_mut().push((key, parsed.clone()));
        parsed
    }

    /// The GraphQL documents of the file (the file itself, or documents embedded in code).
    pub fn graphql(&self) -> &[graphql::Doc] {
        self.graphql.get_or_init(|| graphql::documents(self))
    }

    /// Parse errors of the GraphQL documents that were looked at.
    pub fn graphql_errors(&self) -> Vec<(usize, String)> {
        self.graphql
            .get()
            .map(|docs| docs.iter().filter_map(|d| d.error.clone()).collect())
            .unwrap_or_default()
    }

    /// The YAML parse error, if the file is YAML and did not parse.
    pub fn yaml_error(&self) -> Option<&(usize, String)> {
        self.yaml.get().and_then(|d| d.error.as_ref())
    }

    pub fn is_yaml(&self) -> bool {
        is_yaml_kind(self.src.class.kind)
    }
}

pub fn is_yaml_kind(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::Ci
            | FileKind::Helm
            | FileKind::Yaml
            | FileKind::DatabaseConfig
            | FileKind::SecurityPolicy
    ) || kind == FileKind::Monitoring
}

/// Does a pattern apply to a kind of file at all?
pub fn applies(pattern: &Pattern, kind: FileKind) -> bool {
    use FileKind::*;
    match pattern {
        Pattern::Variable { .. } => matches!(kind, Ci | Shell | Yaml | Helm | RunnerConfig | Code),
        Pattern::YamlKey { files, .. } => files.contains(&kind),
        Pattern::HelmValue { .. } => matches!(kind, Helm | Shell | Ci),
        Pattern::CliFlag { .. } | Pattern::CliCommand { .. } => {
            matches!(kind, Shell | Ci | Yaml | Helm | Code)
        }
        Pattern::OmnibusSetting { .. } => kind == Omnibus,
        Pattern::TomlKey { .. } => kind == RunnerConfig,
        Pattern::Metric { .. } => matches!(kind, Monitoring | Yaml | Helm),
        Pattern::Literal { files, .. } => files.contains(&kind),
        Pattern::RestEndpoint { .. } | Pattern::RestField { .. } => {
            matches!(kind, Shell | Ci | Code | Yaml | Helm)
        }
        Pattern::Graphql { .. } => matches!(kind, Graphql | Code | Shell),
    }
}

/// Every use of `pattern` in the file.
pub fn detect(pattern: &Pattern, ctx: &FileCtx) -> Vec<Hit> {
    match pattern {
        Pattern::Variable { name, .. } => variable::detect(name, ctx),
        Pattern::YamlKey {
            path,
            values,
            unless_sibling,
            ..
        } => yaml_key::detect(path, values, unless_sibling.as_deref(), ctx),
        Pattern::HelmValue { path, values, .. } => helm_value::detect(path, values, ctx),
        Pattern::CliFlag {
            command,
            flag,
            short,
            env,
        } => cli::detect_flag(command, flag, short.as_deref(), env.as_deref(), ctx),
        Pattern::CliCommand { command } => cli::detect_command(command, ctx),
        Pattern::OmnibusSetting { key, values, .. } => omnibus::detect(key, values, ctx),
        Pattern::TomlKey { table, key, values } => toml_key::detect(table, key, values, ctx),
        Pattern::Metric { name, .. } => literal::detect_word(name, ctx, is_metric_byte),
        Pattern::Literal { text, .. } => literal::detect_word(text, ctx, is_ident_byte),
        Pattern::RestEndpoint {
            method,
            path,
            api,
            prefix,
            with_params,
        } => rest::detect_endpoint(*method, path, *api, *prefix, with_params, ctx),
        Pattern::RestField {
            name,
            endpoints,
            values,
            ..
        } => rest_field::detect(name, endpoints, values, ctx),
        Pattern::Graphql {
            element,
            name,
            parents,
            unless_argument,
            ..
        } => graphql::detect(*element, name, parents, unless_argument.as_deref(), ctx),
    }
}

pub fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_metric_byte(c: u8) -> bool {
    is_ident_byte(c) || c == b':'
}

/// Offsets of `word` in `text` where it stands alone: not preceded or followed by a byte that
/// `is_word` accepts.
pub fn word_offsets<'t>(
    text: &'t str,
    word: &'t str,
    is_word: fn(u8) -> bool,
) -> impl Iterator<Item = usize> + 't {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, word.as_bytes()).filter(move |&at| {
        let before = at == 0 || !is_word(b[at - 1]);
        let after = b.get(at + word.len()).is_none_or(|&c| !is_word(c));
        before && after
    })
}
