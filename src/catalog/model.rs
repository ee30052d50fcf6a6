//! The validated data model: entries of the removal schedule and their detection patterns.
//!
//! These types carry no source positions; the loader (`load.rs`) checks the YAML and builds them.

use serde::Serialize;

use crate::version::{Milestone, ServiceVersion};

/// Where a change is visible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    Rest,
    Graphql,
    Ci,
    Runner,
    Helm,
    Omnibus,
    Registry,
    Metrics,
    Packages,
    Security,
    Instance,
    Database,
    Integrations,
}

impl Surface {
    pub const ALL: [Surface; 13] = [
        Surface::Rest,
        Surface::Graphql,
        Surface::Ci,
        Surface::Runner,
        Surface::Helm,
        Surface::Omnibus,
        Surface::Registry,
        Surface::Metrics,
        Surface::Packages,
        Surface::Security,
        Surface::Instance,
        Surface::Database,
        Surface::Integrations,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Rest => "rest",
            Surface::Graphql => "graphql",
            Surface::Ci => "ci",
            Surface::Runner => "runner",
            Surface::Helm => "helm",
            Surface::Omnibus => "omnibus",
            Surface::Registry => "registry",
            Surface::Metrics => "metrics",
            Surface::Packages => "packages",
            Surface::Security => "security",
            Surface::Instance => "instance",
            Surface::Database => "database",
            Surface::Integrations => "integrations",
        }
    }

    pub fn parse(s: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// What kind of change an entry describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The item is gone.
    Removed,
    /// The item is gone under its old name; the same thing exists under a new name.
    Renamed,
    /// The item stays but behaves differently.
    BehaviourChange,
    /// Input the service accepted is now refused (410, 400, rejected).
    RejectedInput,
    /// The role or permission needed for an action changes.
    PermissionChange,
    /// The item appeared in this version (the availability table).
    Introduced,
}

impl Change {
    pub const ALL: [Change; 6] = [
        Change::Removed,
        Change::Renamed,
        Change::BehaviourChange,
        Change::RejectedInput,
        Change::PermissionChange,
        Change::Introduced,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Change::Removed => "removed",
            Change::Renamed => "renamed",
            Change::BehaviourChange => "behaviour-change",
            Change::RejectedInput => "rejected-input",
            Change::PermissionChange => "permission-change",
            Change::Introduced => "introduced",
        }
    }

    pub fn parse(s: &str) -> Option<Change> {
        Change::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// The kinds of file a pattern can be looked for in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// GitLab CI configuration: `.gitlab-ci.yml`, `*.gitlab-ci.yml`, YAML under `.gitlab/`.
    Ci,
    /// Helm chart values (`values*.yaml`) and chart templates.
    Helm,
    /// Kubernetes manifests and other YAML.
    Yaml,
    /// Shell scripts, Dockerfiles, Makefiles, systemd units and other command lines.
    Shell,
    /// Omnibus `gitlab.rb`.
    Omnibus,
    /// Runner `config.toml`.
    RunnerConfig,
    /// Rails `database.yml`.
    DatabaseConfig,
    /// Security policy YAML under `.gitlab/security-policies/`.
    SecurityPolicy,
    /// Prometheus rules and alerts, Grafana dashboards.
    Monitoring,
    /// Source code in a programming language.
    Code,
    /// GraphQL documents.
    Graphql,
}

impl FileKind {
    pub const ALL: [FileKind; 11] = [
        FileKind::Ci,
        FileKind::Helm,
        FileKind::Yaml,
        FileKind::Shell,
        FileKind::Omnibus,
        FileKind::RunnerConfig,
        FileKind::DatabaseConfig,
        FileKind::SecurityPolicy,
        FileKind::Monitoring,
        FileKind::Code,
        FileKind::Graphql,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Ci => "ci",
            FileKind::Helm => "helm",
            FileKind::Yaml => "yaml",
            FileKind::Shell => "shell",
            FileKind::Omnibus => "omnibus",
            FileKind::RunnerConfig => "runner-config",
            FileKind::DatabaseConfig => "database-config",
            FileKind::SecurityPolicy => "security-policy",
            FileKind::Monitoring => "monitoring",
            FileKind::Code => "code",
            FileKind::Graphql => "graphql",
        }
    }

    pub fn parse(s: &str) -> Option<FileKind> {
        FileKind::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// Which REST surface a path belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestApi {
    /// `{base_url}/api/v4` + path (the prefix is optional where the path is written).
    V4,
    /// The container registry's own API (`/v2/...`).
    Registry,
    /// A path of the instance's web server (`/-/jwks`, `/admin/...`).
    Instance,
}

/// HTTP methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
    Head,
}

impl Method {
    pub const ALL: [Method; 6] = [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
        Method::Head,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Head => "HEAD",
        }
    }

    pub fn parse(s: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(s))
    }
}

/// What a GraphQL pattern names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphqlElement {
    Field,
    Type,
    EnumValue,
    Argument,
    Query,
}

impl GraphqlElement {
    pub fn as_str(self) -> &'static str {
        match self {
            GraphqlElement::Field => "field",
            GraphqlElement::Type => "type",
            GraphqlElement::EnumValue => "enum_value",
            GraphqlElement::Argument => "argument",
            GraphqlElement::Query => "query",
        }
    }
}

/// A structured detection pattern: what a user's file shows when it uses the item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pattern {
    /// An environment or CI/CD variable, referenced (`$X`, `${X}`, `%X%`, `$env:X`) or defined.
    Variable {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A key path in YAML (`*` is any one key, `**` any number of keys), optionally with a value.
    YamlKey {
        path: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
        files: Vec<FileKind>,
        /// The match counts only when the mapping holding the last key lacks this sibling key.
        #[serde(skip_serializing_if = "Option::is_none")]
        unless_sibling: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A Helm chart value path, in values files and in `--set path=value` arguments.
    HelmValue {
        path: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A flag of a command line (`gitlab-runner register --locked`), with its short spelling and
    /// the environment variable the program reads for it.
    CliFlag {
        command: String,
        flag: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        short: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        env: Option<String>,
    },
    /// A command line itself (`gitlab-runner exec`).
    CliCommand { command: String },
    /// An Omnibus `gitlab.rb` setting such as `postgres_exporter['per_table_stats']`.
    OmnibusSetting {
        key: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A key in a TOML table (runner `config.toml`).
    TomlKey {
        table: String,
        key: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
    },
    /// A Prometheus metric name.
    Metric {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A REST endpoint: method and path template (`:id` segments are parameters).
    RestEndpoint {
        #[serde(skip_serializing_if = "Option::is_none")]
        method: Option<Method>,
        path: String,
        api: RestApi,
        /// The path is a prefix: every endpoint below it matches too.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        prefix: bool,
        /// The call matches only when it sends all of these parameters.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        with_params: Vec<String>,
    },
    /// A request or response field of REST endpoints.
    RestField {
        name: String,
        endpoints: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        values: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A GraphQL field, type, enum value, argument or query; `parents` are the selections
    /// (field paths such as `runners.nodes`, or type names) it counts under.
    Graphql {
        element: GraphqlElement,
        name: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        parents: Vec<String>,
        /// The match counts only when the field is selected without this argument.
        #[serde(skip_serializing_if = "Option::is_none")]
        unless_argument: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace_with: Option<String>,
    },
    /// A distinctive literal (a feature flag name, a task name) in the given kinds of file.
    Literal { text: String, files: Vec<FileKind> },
}

impl Pattern {
    pub fn kind(&self) -> &'static str {
        match self {
            Pattern::Variable { .. } => "variable",
            Pattern::YamlKey { .. } => "yaml_key",
            Pattern::HelmValue { .. } => "helm_value",
            Pattern::CliFlag { .. } => "cli_flag",
            Pattern::CliCommand { .. } => "cli_command",
            Pattern::OmnibusSetting { .. } => "omnibus_setting",
            Pattern::TomlKey { .. } => "toml_key",
            Pattern::Metric { .. } => "metric",
            Pattern::RestEndpoint { .. } => "rest_endpoint",
            Pattern::RestField { .. } => "rest_field",
            Pattern::Graphql { .. } => "graphql",
            Pattern::Literal { .. } => "literal",
        }
    }

    /// The one literal a file must contain for the pattern to match anywhere in it (its rarest
    /// fixed part): what the scanner's prefilter looks for, and `uplint query --literals` lists.
    pub fn anchor(&self) -> String {
        match self {
            Pattern::Variable { name, .. } | Pattern::Metric { name, .. } => name.clone(),
            Pattern::RestField { name, .. } | Pattern::Graphql { name, .. } => name.clone(),
            Pattern::YamlKey { path, .. } | Pattern::HelmValue { path, .. } => path
                .iter()
                .rev()
                .find(|s| !s.starts_with('*'))
                .cloned()
                .unwrap_or_default(),
            Pattern::CliFlag { command, .. } | Pattern::CliCommand { command } => {
                command.split(' ').next().unwrap_or(command).to_string()
            }
            Pattern::OmnibusSetting { key, .. } => key.last().cloned().unwrap_or_default(),
            Pattern::TomlKey { key, .. } => key.clone(),
            Pattern::Literal { text, .. } => text.clone(),
            Pattern::RestEndpoint { path, .. } => path
                .split('/')
                .filter(|s| !s.is_empty() && !s.starts_with([':', '*']))
                .max_by_key(|s| s.len())
                .unwrap_or(path)
                .to_string(),
        }
    }

    /// Literals of which a file must also contain one for the pattern to match (empty: none
    /// needed): a REST field needs one of its endpoints, a GraphQL name a GraphQL document.
    pub fn context_anchors(&self) -> Vec<String> {
        match self {
            Pattern::RestField { endpoints, .. } => {
                let mut v: Vec<String> = endpoints
                    .iter()
                    .filter_map(|e| {
                        e.split('/')
                            .filter(|s| !s.is_empty() && !s.starts_with([':', '*']))
                            .max_by_key(|s| s.len())
                            .map(str::to_string)
                    })
                    .collect();
                v.sort();
                v.dedup();
                v
            }
            Pattern::Graphql { .. } => [
                "query",
                "mutation",
                "subscription",
                "fragment",
                "gql",
                "graphql",
                "GraphQL",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            _ => Vec::new(),
        }
    }

    /// The literals a user's file shows when it uses the item: what `explain TOKEN` and the
    /// scanner's prefilter look for.
    pub fn literals(&self) -> Vec<String> {
        match self {
            Pattern::Variable { name, .. } => vec![name.clone()],
            Pattern::YamlKey { path, values, .. } | Pattern::HelmValue { path, values, .. } => {
                let mut v = vec![path.join(".")];
                v.extend(path.iter().rev().find(|s| !s.starts_with('*')).cloned());
                v.extend(values.iter().cloned());
                v
            }
            Pattern::CliFlag {
                command,
                flag,
                short,
                env,
            } => {
                let mut v = vec![format!("{command} {flag}"), flag.clone()];
                v.extend(short.iter().cloned());
                v.extend(env.iter().cloned());
                v
            }
            Pattern::CliCommand { command } => vec![command.clone()],
            Pattern::OmnibusSetting { key, .. } => {
                let mut v = vec![omnibus_key_text(key)];
                v.extend(key.last().cloned());
                v
            }
            Pattern::TomlKey { key, .. } => vec![key.clone()],
            Pattern::Metric { name, .. } => vec![name.clone()],
            Pattern::RestEndpoint { path, .. } => vec![path.clone()],
            Pattern::RestField { name, .. } => vec![name.clone()],
            Pattern::Graphql { name, .. } => vec![name.clone()],
            Pattern::Literal { text, .. } => vec![text.clone()],
        }
    }

    /// A machine-applicable rename: the literal and what replaces it.
    pub fn rename(&self) -> Option<(String, &str)> {
        match self {
            Pattern::Variable { name, replace_with }
            | Pattern::Metric { name, replace_with }
            | Pattern::RestField {
                name, replace_with, ..
            }
            | Pattern::Graphql {
                name, replace_with, ..
            } => replace_with.as_deref().map(|r| (name.clone(), r)),
            Pattern::YamlKey {
                path, replace_with, ..
            }
            | Pattern::HelmValue {
                path, replace_with, ..
            } => replace_with.as_deref().map(|r| (path.join("."), r)),
            Pattern::OmnibusSetting {
                key, replace_with, ..
            } => replace_with.as_deref().map(|r| (omnibus_key_text(key), r)),
            _ => None,
        }
    }

    /// A one-line human description, for `explain` and tables.
    pub fn describe(&self) -> String {
        fn with_values(s: String, values: &[String]) -> String {
            if values.is_empty() {
                s
            } else {
                format!("{s} = {}", values.join(" | "))
            }
        }
        match self {
            Pattern::Variable { name, .. } => format!("variable ${name}"),
            Pattern::YamlKey {
                path,
                values,
                files,
                unless_sibling,
                ..
            } => {
                let kinds: Vec<&str> = files.iter().map(|f| f.as_str()).collect();
                let mut s = with_values(
                    format!("YAML key {} in {}", path.join("."), kinds.join(", ")),
                    values,
                );
                if let Some(sib) = unless_sibling {
                    s.push_str(&format!(" (without a sibling `{sib}`)"));
                }
                s
            }
            Pattern::HelmValue { path, values, .. } => {
                with_values(format!("Helm value {}", path.join(".")), values)
            }
            Pattern::CliFlag {
                command,
                flag,
                short,
                env,
            } => {
                let mut s = format!("`{command} {flag}`");
                if let Some(short) = short {
                    s.push_str(&format!(" (or {short})"));
                }
                if let Some(env) = env {
                    s.push_str(&format!(", environment variable {env}"));
                }
                s
            }
            Pattern::CliCommand { command } => format!("command `{command}`"),
            Pattern::OmnibusSetting { key, values, .. } => {
                with_values(format!("gitlab.rb {}", omnibus_key_text(key)), values)
            }
            Pattern::TomlKey {
                table, key, values, ..
            } => with_values(format!("config.toml [{table}] {key}"), values),
            Pattern::Metric { name, .. } => format!("metric {name}"),
            Pattern::RestEndpoint {
                method,
                path,
                api,
                prefix,
                with_params,
            } => {
                let m = method.map(|m| m.as_str()).unwrap_or("ANY");
                let base = match api {
                    RestApi::V4 => "/api/v4",
                    RestApi::Registry | RestApi::Instance => "",
                };
                let mut s = format!("{m} {base}{path}{}", if *prefix { "/…" } else { "" });
                if !with_params.is_empty() {
                    s.push_str(&format!(" with {}", with_params.join(" and ")));
                }
                s
            }
            Pattern::RestField {
                name,
                endpoints,
                values,
                ..
            } => with_values(
                format!("REST field {name} of {}", endpoints.join(", ")),
                values,
            ),
            Pattern::Graphql {
                element,
                name,
                parents,
                unless_argument,
                ..
            } => {
                let mut s = format!("GraphQL {} {name}", element.as_str().replace('_', " "));
                if !parents.is_empty() {
                    s.push_str(&format!(" under {}", parents.join(" | ")));
                }
                if let Some(arg) = unless_argument {
                    s.push_str(&format!(" without argument `{arg}`"));
                }
                s
            }
            Pattern::Literal { text, files } => {
                let kinds: Vec<&str> = files.iter().map(|f| f.as_str()).collect();
                format!("`{text}` in {}", kinds.join(", "))
            }
        }
    }
}

/// `postgres_exporter['per_table_stats']` from `[postgres_exporter, per_table_stats]`.
pub fn omnibus_key_text(key: &[String]) -> String {
    let mut s = key[0].clone();
    for k in &key[1..] {
        s.push_str(&format!("['{k}']"));
    }
    s
}

/// A parameter of an endpoint (from the spec's endpoint tables).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    pub name: String,
    #[serde(rename = "in")]
    pub location: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub required: bool,
    /// The only values the parameter accepts, where the spec restricts them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// An endpoint the spec documents, with its parameters and the role it requires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Endpoint {
    pub method: Method,
    pub path: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// The request carries no body fields.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_body: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// One entry of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub title: String,
    pub surface: Surface,
    pub change: Change,
    pub removed_in: Option<Milestone>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_in: Option<ServiceVersion>,
    pub introduced_in: Option<ServiceVersion>,
    pub breaking: Option<bool>,
    pub replacement: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement_available_in: Option<ServiceVersion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    pub detectable: bool,
    pub patterns: Vec<Pattern>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Endpoint>,
    /// The spec rows the entry comes from (`SECTION: FIRST CELL`).
    pub spec: Vec<String>,
    /// The data file the entry was loaded from.
    pub source: String,
}

impl Entry {
    pub fn is_breaking(&self) -> bool {
        self.breaking == Some(true)
    }

    /// The replacement with its availability, e.g. `totalIssueWeight (since 16.2)`.
    pub fn replacement_text(&self) -> Option<String> {
        let r = self.replacement.as_deref()?;
        Some(match self.replacement_available_in {
            Some(v) => format!("{r} (since {v})"),
            None => r.to_string(),
        })
    }

    /// Every literal of every pattern, without repeats, in pattern order.
    pub fn literals(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.patterns {
            for l in p.literals() {
                if !out.contains(&l) {
                    out.push(l);
                }
            }
        }
        out
    }
}

impl serde::Serialize for Milestone {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl serde::Serialize for ServiceVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
