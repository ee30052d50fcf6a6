//! Which kind of file a path is, decided from its name alone (one place, one table).

use serde::Serialize;

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
    /// A text file of no other kind (an unknown extension, a name without one): only the
    /// distinctive names of the data are looked for in it.
    Other,
}

/// A set of file kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindSet(u16);

impl KindSet {
    pub fn of(kinds: impl IntoIterator<Item = FileKind>) -> KindSet {
        KindSet(kinds.into_iter().fold(0, |set, k| set | 1 << k as u16))
    }

    pub fn all() -> KindSet {
        KindSet::of(FileKind::ALL)
    }

    pub fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    pub fn intersects(self, other: KindSet) -> bool {
        self.0 & other.0 != 0
    }

    pub fn contains(self, kind: FileKind) -> bool {
        self.0 & 1 << kind as u16 != 0
    }
}

impl FileKind {
    pub const ALL: [FileKind; 12] = [
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
        FileKind::Other,
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
            FileKind::Other => "other",
        }
    }

    pub fn parse(s: &str) -> Option<FileKind> {
        FileKind::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// How comments are written in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentStyle {
    /// `# …` (YAML, shell, Ruby, TOML, Python, Makefile, Dockerfile, GraphQL).
    Hash,
    /// `// …` and `/* … */` (C family, Go, JavaScript, Java, Kotlin, C#, Rust).
    Slash,
    /// Both (PHP, Terraform/HCL).
    HashAndSlash,
    /// `; …` and `# …` (INI-style systemd units).
    Semicolon,
    /// No comments (JSON).
    None,
}

/// The kind of a file and how its comments look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    pub kind: FileKind,
    pub comments: CommentStyle,
    /// YAML that may hold Go templates (Helm chart templates).
    pub templated: bool,
    /// YAML in a `templates/` folder: a chart template unless [`sniff`] finds CI jobs in it.
    pub chart_template: bool,
}

fn class(kind: FileKind, comments: CommentStyle) -> Option<Class> {
    Some(Class {
        kind,
        comments,
        templated: false,
        chart_template: false,
    })
}

/// The class of GitLab CI configuration.
pub fn ci() -> Class {
    Class {
        kind: FileKind::Ci,
        comments: CommentStyle::Hash,
        templated: false,
        chart_template: false,
    }
}

/// Classify a path (relative, `/`-separated). `None`: not a file uplint reads.
pub fn classify(path: &str) -> Option<Class> {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    // Most names are lower case already: copied only when they are not.
    let lower: std::borrow::Cow<str> = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        name.to_ascii_lowercase().into()
    } else {
        name.into()
    };
    let dirs = Dirs::of(dirs);
    if dirs.vendored {
        return None;
    }
    if let Some(rendered) = template_of(&lower)
        && let Some(c) = classify_name(rendered, dirs)
    {
        return Some(Class {
            templated: true,
            ..c
        });
    }
    classify_name(&lower, dirs)
}

/// The directories of a path that say what a file in them is (the path is read once).
#[derive(Clone, Copy, Default)]
struct Dirs {
    /// `.gitlab`: CI configuration.
    gitlab: bool,
    /// `security-policies`: security policies (under `.gitlab`).
    security_policies: bool,
    /// `templates`: Helm chart templates.
    templates: bool,
    /// `prometheus`, `alerts`, `rules`, `grafana`, `dashboards` or `monitoring`.
    monitoring: bool,
    /// Third-party code a package manager copied into the tree: `node_modules/`,
    /// `bower_components/`, Go's `vendor/<module path>/` (`vendor/github.com/…`: a module path
    /// starts with a host name, which has a dot) and Bundler's `vendor/bundle/`. Its uses are
    /// the dependency's, changed by updating it, not by editing the tree: not read.
    vendored: bool,
}

impl Dirs {
    /// Of the directory part of a path (`a/b`, without the file's name).
    fn of(dirs: &str) -> Dirs {
        let mut out = Dirs::default();
        let mut after_vendor = false;
        for d in dirs.split('/') {
            if after_vendor && (d.contains('.') || d == "bundle") {
                out.vendored = true;
            }
            after_vendor = d == "vendor";
            match d {
                "node_modules" | "bower_components" => out.vendored = true,
                ".gitlab" => out.gitlab = true,
                "security-policies" => out.security_policies = true,
                "templates" => out.templates = true,
                "prometheus" | "alerts" | "rules" | "grafana" | "dashboards" | "monitoring" => {
                    out.monitoring = true
                }
                _ => {}
            }
        }
        out
    }
}

/// The extensions of template files: the name without one is what the template renders
/// (`values.yaml.tpl`, `.gitlab-ci.yml.j2`, `gitlab.rb.erb`, `config.toml.tmpl`).
const TEMPLATE_EXTENSIONS: [&str; 9] = [
    ".tpl",
    ".tmpl",
    ".gotmpl",
    ".j2",
    ".jinja2",
    ".jinja",
    ".erb",
    ".template",
    ".tftpl",
];

/// The rendered file's name of a template's (lowercase) name, if it has a template extension.
fn template_of(lower: &str) -> Option<&str> {
    TEMPLATE_EXTENSIONS
        .iter()
        .find_map(|ext| lower.strip_suffix(ext))
        .filter(|rest| rest.contains('.') || matches!(*rest, "dockerfile" | "makefile"))
}

fn classify_name(lower: &str, dirs: Dirs) -> Option<Class> {
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    if is_report(lower, ext) {
        return None;
    }
    config_class(lower, dirs, ext)
        .or_else(|| command_class(lower, ext))
        .or_else(|| code_class(lower, ext))
        .or_else(|| other_class(lower, ext))
}

/// The extensions of files that hold nothing uplint looks for: prose (documentation describes
/// an item, it does not use it), pictures, fonts, archives, compiled or minified output, lock
/// files and checksums, logs. (Binary files are also told by their bytes.) Tables (`csv`,
/// `tsv`) are read, for distinctive names alone: a monitoring integration maps the platform's
/// metric names to its own in one (`gitlab.geo_repositories_synced,gauge,…`).
const NOT_READ: [&str; 50] = [
    "md", "markdown", "mdx", "rst", "adoc", "asciidoc", "txt", "html", "htm", "css", "scss",
    "less", "svg", "png", "jpg", "jpeg", "gif", "ico", "webp", "bmp", "pdf", "woff", "woff2",
    "ttf", "otf", "eot", "zip", "gz", "tgz", "bz2", "xz", "zst", "tar", "jar", "war", "so", "dll",
    "exe", "bin", "o", "a", "pyc", "class", "map", "lock", "sum", "log", "snap", "patch", "diff",
];

/// A report of a tool (uplint's own among them): GitLab's report artifacts
/// (`gl-code-quality-report.json`, `gl-sast-report.json`), SARIF, JUnit XML. They quote the
/// items they report and are written by scans, not by people.
fn is_report(lower: &str, ext: &str) -> bool {
    (lower.starts_with("gl-") && lower.ends_with("-report.json"))
        || ext == "sarif"
        || (ext == "xml" && lower.contains("junit"))
}

/// A `gitlab.rb` that defines a module, a class or a method is a Ruby library's source (a
/// client named for the platform: `lib/danger/request_sources/gitlab.rb`), not Omnibus
/// settings, which only assign. So is a Chef recipe named for what it installs
/// (`cookbooks/demo/recipes/gitlab.rb`): its resources are blocks (`execute 'Register' do`),
/// and it includes recipes. Cheap: only line starts and ends are looked at.
fn omnibus_or_code(class: Class, text: &str) -> Class {
    let code = text.lines().any(|line| {
        let t = line.trim();
        line.starts_with("module ")
            || line.starts_with("class ")
            || t.starts_with("def ")
            || t.starts_with("include_recipe ")
            || (t.ends_with(" do") && !t.starts_with('#'))
    });
    if code {
        Class {
            kind: FileKind::Code,
            ..class
        }
    } else {
        class
    }
}

/// A text file of no other kind ([`FileKind::Other`]), unless its name says it holds nothing
/// to look for ([`NOT_READ`], `*.min.js`-style minified files, `*-lock.*` lock files).
fn other_class(lower: &str, ext: &str) -> Option<Class> {
    let stem = lower.strip_suffix(ext).unwrap_or(lower);
    if NOT_READ.contains(&ext)
        || stem.ends_with(".min.")
        || stem.ends_with("-lock.")
        || stem.ends_with(".lock.")
        || matches!(
            lower,
            "license" | "copying" | "notice" | "authors" | "changelog"
        )
    {
        return None;
    }
    class(FileKind::Other, CommentStyle::None)
}

/// What a script whose name says nothing (`entrypoint`, `bin/register-runner`, `test`) is, by
/// the interpreter of its `#!` line: a shell script, or the code of a language.
fn by_shebang(text: &str) -> Option<Class> {
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_ascii_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match program {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "busybox" => {
            class(FileKind::Shell, CommentStyle::Hash)
        }
        "python" | "ruby" | "perl" => class(FileKind::Code, CommentStyle::Hash),
        "node" | "deno" | "bun" | "ts-node" | "tsx" => class(FileKind::Code, CommentStyle::Slash),
        _ => None,
    }
}

/// The kinds a file of kind `kind` can be after [`sniff`] read its text.
pub fn sniffed_kinds(kind: FileKind) -> KindSet {
    match kind {
        FileKind::Yaml => KindSet::of([FileKind::Yaml, FileKind::Helm, FileKind::Ci]),
        FileKind::Omnibus => KindSet::of([FileKind::Omnibus, FileKind::Code]),
        FileKind::Other => KindSet::of([FileKind::Other, FileKind::Shell, FileKind::Code]),
        kind => KindSet::of([kind]),
    }
}

/// What a YAML file whose name says nothing particular (`FileKind::Yaml`) is, by its content:
/// gitlab-runner or GitLab chart values (a top-level `gitlabUrl:`, `runnerRegistrationToken:`,
/// `runnerToken:` or `gitlab-runner:` key, or `global:` holding `appConfig:`), or a helm-unittest
/// suite (`suite:` with `templates:`/`tests:`). Cheap: only line starts are looked at. A
/// `gitlab.rb` may be Ruby code ([`omnibus_or_code`]).
pub fn sniff(class: Class, text: &str) -> Class {
    if class.kind == FileKind::Omnibus {
        return omnibus_or_code(class, text);
    }
    if class.kind == FileKind::Other {
        return by_shebang(text).unwrap_or(class);
    }
    if class.kind != FileKind::Yaml {
        return class;
    }
    let helm = Class {
        kind: FileKind::Helm,
        comments: class.comments,
        templated: true,
        chart_template: false,
    };
    let mut global = false;
    let mut suite = false;
    let mut ci = CiShape::default();
    for line in text.lines() {
        ci.line(line);
        let top = |k: &str| {
            line.strip_prefix(k)
                .and_then(|r| r.strip_prefix(':'))
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r']))
        };
        if top("gitlabUrl")
            || top("runnerRegistrationToken")
            || top("runnerToken")
            || top("gitlab-runner")
        {
            return helm;
        }
        if top("suite") {
            suite = true;
        }
        if suite && (top("tests") || top("templates")) {
            return helm;
        }
        if top("global") {
            global = true;
        } else if global && line.trim_start() == "appConfig:" && line.starts_with(' ') {
            return helm;
        } else if !line.starts_with([' ', '#']) && !line.is_empty() {
            global = false;
        }
    }
    // A chart template (`templates/*.yaml`, read as templated YAML) has a chart's Go template
    // actions, which CI configuration has not: its shape alone does not make it CI.
    if ci.seen() && !(class.chart_template && has_chart_action(text)) {
        return Class {
            kind: FileKind::Ci,
            chart_template: false,
            ..class
        };
    }
    if class.chart_template { helm } else { class }
}

/// Does the text hold a Go template action of a Helm chart (`{{ .Values.x }}`, `{{- if … }}`,
/// `{{ include … }}`)? A CI job's script may hold another tool's Go template (`docker inspect
/// --format '{{.Digest}}'`), which reads no chart object and is no chart's control.
fn has_chart_action(text: &str) -> bool {
    const ACTIONS: [&str; 16] = [
        ".Values",
        ".Release",
        ".Chart",
        ".Capabilities",
        ".Files",
        ".Template",
        "include ",
        "template ",
        "define ",
        "if ",
        "else",
        "end",
        "range ",
        "with ",
        "toYaml ",
        "$",
    ];
    memchr::memmem::find_iter(text.as_bytes(), b"{{").any(|at| {
        let rest = text[at + 2..].trim_start_matches('-').trim_start();
        ACTIONS.iter().any(|a| rest.starts_with(a))
    })
}

/// Whether a YAML file is GitLab CI configuration by its shape, whatever its name (a CI
/// templates repository's `docker.yml` or `python/test.yml`, included by other projects): a
/// top-level job whose own keys are `script`, `extends` or `trigger` together with another job
/// keyword, or `extends` with `stage`, `script` or a script hook; the top-level `default:` with
/// a script hook; a hidden job (`.name:`, a template other jobs extend) with a script hook and
/// another job keyword (`before_script` with `after_script`); a top-level `include:` of `local`,
/// `project`, `template`, `remote` or `component` items. Travis CI (`script:` at the top level), Compose (`extends` with `image`)
/// and Ansible task lists (`- name:` items) have none of these. Fed line by line in the pass
/// [`sniff`] already makes.
#[derive(Default)]
struct CiShape {
    /// The keys seen directly under the current top-level key (bits of [`CI_JOB_KEYS`]).
    keys: u16,
    /// The current top-level key is `default` / `include` / a hidden job (`.name`).
    default: bool,
    hidden: bool,
    include: bool,
    /// The current top-level line is a list item or no key: nothing under it counts.
    list: bool,
    /// The indentation of the current top-level key's own keys, once seen.
    child_indent: Option<usize>,
    found: bool,
}

/// Keys of a GitLab CI job; the first three make a job, the others go with them.
const CI_JOB_KEYS: [&str; 16] = [
    "script",
    "extends",
    "trigger",
    "stage",
    "before_script",
    "after_script",
    "image",
    "rules",
    "only",
    "except",
    "needs",
    "artifacts",
    "tags",
    "when",
    "services",
    "variables",
];
const CI_SCRIPT: u16 = 1;
const CI_EXTENDS: u16 = 1 << 1;
const CI_TRIGGER: u16 = 1 << 2;
const CI_STAGE: u16 = 1 << 3;
const CI_HOOKS: u16 = (1 << 4) | (1 << 5);

impl CiShape {
    fn line(&mut self, line: &str) {
        if self.found || line.is_empty() || line.starts_with('#') {
            return;
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent == 0 {
            self.close();
            // A list item (`- name:` of an Ansible task list) is no job.
            let key = line
                .split_once(':')
                .map(|(k, _)| k)
                .filter(|k| !k.starts_with('-'));
            self.list = key.is_none();
            self.default = key == Some("default");
            self.hidden = key.is_some_and(|k| k.len() > 1 && k.starts_with('.'));
            self.include = key == Some("include");
            self.keys = 0;
            self.child_indent = None;
            return;
        }
        if self.list || *self.child_indent.get_or_insert(indent) != indent {
            return;
        }
        let rest = &line[indent..];
        if self.include {
            let item = rest.strip_prefix("- ").unwrap_or(rest);
            self.found |= ["local:", "project:", "template:", "remote:", "component:"]
                .iter()
                .any(|k| item.starts_with(k));
            return;
        }
        if let Some((key, _)) = rest.split_once(':')
            && let Some(i) = CI_JOB_KEYS.iter().position(|k| *k == key)
        {
            self.keys |= 1 << i;
        }
    }

    /// Judges the top-level key that ends.
    fn close(&mut self) {
        let k = self.keys;
        let job = k & (CI_SCRIPT | CI_EXTENDS | CI_TRIGGER) != 0;
        let others = k & !(CI_SCRIPT | CI_EXTENDS | CI_TRIGGER) != 0;
        self.found |=
            (job && others && (k & CI_EXTENDS == 0 || k & (CI_STAGE | CI_SCRIPT | CI_HOOKS) != 0))
                || (self.default && k & CI_HOOKS != 0)
                || (self.hidden && k & CI_HOOKS != 0 && k.count_ones() >= 2);
    }

    fn seen(&mut self) -> bool {
        self.close();
        self.found
    }
}

/// CI configuration, Helm charts, YAML, monitoring, `gitlab.rb`, `config.toml`, GraphQL.
fn config_class(lower: &str, dirs: Dirs, ext: &str) -> Option<Class> {
    let is_yaml = matches!(ext, "yml" | "yaml");
    use CommentStyle::Hash;
    // GitLab CI configuration.
    // A file named for the pipeline it belongs to (`.gitlab-ci-java-template.yml`,
    // `.gitlab-ci.release.yml`) is CI configuration wherever it is kept.
    if lower == ".gitlab-ci.yml"
        || lower.ends_with(".gitlab-ci.yml")
        || lower.ends_with(".gitlab-ci.yaml")
        || (is_yaml && lower.starts_with(".gitlab-ci"))
    {
        return class(FileKind::Ci, Hash);
    }
    if is_yaml && dirs.gitlab {
        if dirs.security_policies {
            return class(FileKind::SecurityPolicy, Hash);
        }
        return class(FileKind::Ci, Hash);
    }
    // Helm charts: templates and values. YAML under `templates/` is a chart template unless
    // its content has the shape of CI jobs (a CI templates repository keeps its shared jobs in
    // such a folder too): [`sniff`] decides.
    if dirs.templates && is_yaml {
        return Some(Class {
            kind: FileKind::Yaml,
            comments: Hash,
            templated: true,
            chart_template: true,
        });
    }
    if dirs.templates && ext == "tpl" {
        return Some(Class {
            kind: FileKind::Helm,
            comments: Hash,
            templated: true,
            chart_template: false,
        });
    }
    if is_yaml
        && (lower.starts_with("values")
            || lower.ends_with("-values.yaml")
            || lower.ends_with("-values.yml")
            || lower.ends_with(".values.yaml"))
    {
        return Some(Class {
            kind: FileKind::Helm,
            comments: Hash,
            templated: true,
            chart_template: false,
        });
    }
    if lower == "database.yml" || lower == "database.yml.erb" || lower == "database.yaml" {
        return class(FileKind::DatabaseConfig, Hash);
    }
    if is_yaml {
        if dirs.monitoring || lower.contains("rules") || lower.contains("alert") {
            return class(FileKind::Monitoring, Hash);
        }
        return class(FileKind::Yaml, Hash);
    }
    if ext == "json" {
        return class(FileKind::Monitoring, CommentStyle::None);
    }
    if ext == "rules" {
        return class(FileKind::Monitoring, Hash);
    }
    // Omnibus.
    if lower == "gitlab.rb" || lower.starts_with("gitlab.rb.") || lower.ends_with(".gitlab.rb") {
        return class(FileKind::Omnibus, Hash);
    }
    // Runner configuration.
    if ext == "toml" {
        return class(FileKind::RunnerConfig, Hash);
    }
    // GraphQL documents.
    if matches!(ext, "graphql" | "gql") {
        return class(FileKind::Graphql, Hash);
    }
    None
}

/// A shell's startup file (`.bashrc`, `.bash_aliases`, `.zshrc`, `.profile`, …), also without
/// its dot as dotfiles repositories keep them (`bashrc`, `zshrc`): aliases and functions that
/// run commands, with neither an extension nor a `#!` line to tell them by.
fn is_shell_startup(lower: &str) -> bool {
    matches!(
        lower.strip_prefix('.').unwrap_or(lower),
        "bashrc"
            | "bash_profile"
            | "bash_login"
            | "bash_logout"
            | "bash_aliases"
            | "bash_functions"
            | "profile"
            | "zshrc"
            | "zprofile"
            | "zshenv"
            | "zlogin"
            | "kshrc"
            | "shrc"
            | "aliases"
    )
}

/// Shell scripts, Dockerfiles, Makefiles, systemd units, Terraform and other command lines.
fn command_class(lower: &str, ext: &str) -> Option<Class> {
    use CommentStyle::{Hash, HashAndSlash, Semicolon};
    // Command lines.
    if matches!(
        ext,
        "sh" | "bash" | "zsh" | "ksh" | "ps1" | "psm1" | "env" | "mk"
    ) || matches!(
        lower,
        "dockerfile"
            | "containerfile"
            | "makefile"
            | "gnumakefile"
            | "justfile"
            | ".env"
            | "procfile"
    ) || lower.starts_with("dockerfile.")
        || lower.ends_with(".dockerfile")
        || lower.starts_with(".env.")
        || lower.contains(".env.")
        // An env file named for what it configures (`env.gitlab.runner`, sourced by an
        // image's init scripts); not a program (`env.py`, `env.ts`).
        || (lower.starts_with("env.") && code_class(lower, ext).is_none())
        || is_shell_startup(lower)
    {
        return class(FileKind::Shell, Hash);
    }
    if matches!(ext, "service" | "timer" | "socket" | "conf" | "ini" | "cfg") {
        return class(FileKind::Shell, Semicolon);
    }
    if matches!(ext, "bat" | "cmd") {
        return class(FileKind::Shell, CommentStyle::None);
    }
    if matches!(ext, "tf" | "hcl" | "tfvars" | "nomad") {
        return class(FileKind::Shell, HashAndSlash);
    }
    // cloud-init user data without an extension (`user-data`, `cloud-config`): a shell script
    // or `#cloud-config` YAML, both command lines.
    if matches!(
        lower,
        "user-data" | "user_data" | "userdata" | "cloud-config" | "cloud-init"
    ) {
        return class(FileKind::Shell, Hash);
    }
    if matches!(ext, "nix" | "pp" | "j2" | "erb") {
        return class(FileKind::Shell, Hash);
    }
    // Salt states and Terraform templates (user data, `templatefile("runner.tpl", …)`):
    // commands with templates. A chart's `templates/*.tpl` is a chart template (above).
    if matches!(ext, "sls" | "tftpl" | "tpl") {
        return class(FileKind::Shell, Hash);
    }
    None
}

/// Source code in a programming language.
fn code_class(lower: &str, ext: &str) -> Option<Class> {
    use CommentStyle::{Hash, HashAndSlash, Slash};
    // Source code.
    match ext {
        "py" | "rb" | "rake" | "pl" | "pm" | "r" | "ex" | "exs" | "cr" => {
            class(FileKind::Code, Hash)
        }
        "php" => class(FileKind::Code, HashAndSlash),
        // Jsonnet: `//`, `/* */` and `#` comments.
        "jsonnet" | "libsonnet" => class(FileKind::Code, HashAndSlash),
        "go" | "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "java" | "kt"
        | "kts" | "groovy" | "gradle" | "scala" | "cs" | "fs" | "swift" | "rs" | "c" | "h"
        | "cc" | "cpp" | "hpp" | "dart" | "vue" | "svelte" | "zig" => class(FileKind::Code, Slash),
        "nim" | "jl" => class(FileKind::Code, Hash),
        // Languages whose comments (`(* *)`, `--`, `;`) no lexer here reads: their strings
        // are read all the same (an API path in a string is one in any language).
        "ml" | "mli" | "hs" | "lua" | "clj" | "cljs" | "cljc" | "erl" | "elm" => {
            class(FileKind::Code, CommentStyle::None)
        }
        _ => {
            // Ruby files by name (a Vagrantfile's provisioners hold shell scripts).
            if matches!(
                lower,
                "gemfile" | "rakefile" | "vagrantfile" | "jenkinsfile"
            ) {
                class(
                    FileKind::Code,
                    if lower == "jenkinsfile" { Slash } else { Hash },
                )
            } else {
                None
            }
        }
    }
}

/// Directories whose files are tests, test data or mocks, in every ecosystem: `tests/`, Java's
/// and Kotlin's `src/test/`, RSpec's `spec/`, Jest's `__tests__/` and `__mocks__/`, Go's
/// `testdata/`, `fixtures/`, VCR's `cassettes/`, end-to-end suites, Ansible's Molecule scenarios.
/// Compared without case.
const TEST_DIRS: [&str; 26] = [
    "test",
    "tests",
    // Test helpers shipped beside the code: Python's `pkg/testing/` (numpy.testing), Go's
    // `internal/testing/` fakes, a library's fake API server.
    "testing",
    "spec",
    "specs",
    "__tests__",
    "__mocks__",
    "__fixtures__",
    "__snapshots__",
    "testdata",
    "test-data",
    "test_data",
    "testutil",
    "testutils",
    "testhelpers",
    "fixtures",
    "fixture",
    "mocks",
    "mock",
    "e2e",
    "cassettes",
    "vcr_cassettes",
    "integration_tests",
    "integration-tests",
    "androidtest",
    "molecule",
];

/// The suffixes of test files' names, as written (case matters: `FooTest.java`, not
/// `latest.java`): Go's `_test.go`, Python's `_test.py`, RSpec's `_spec.rb`, JUnit's
/// `Test.java`, xUnit's `Tests.cs`, Go's generated mocks.
const TEST_SUFFIXES: [&str; 22] = [
    "_test.go",
    "_mock.go",
    "_mocks.go",
    "_test.py",
    "_tests.py",
    "_spec.rb",
    "_test.rb",
    "_test.exs",
    "_spec.lua",
    "_test.dart",
    "_test.rs",
    "Test.java",
    "Tests.java",
    "IT.java",
    "Test.kt",
    "Tests.kt",
    "Spec.kt",
    "Spec.groovy",
    "Test.groovy",
    "Test.cs",
    "Tests.cs",
    "Test.php",
];

/// A shell test's name: a script named `test` (with or without `.sh`), shunit2's `*_test.sh`,
/// `test_*.sh`, bats' `*.bats`.
fn is_shell_test(name: &str) -> bool {
    matches!(
        name,
        "test" | "tests" | "test.sh" | "tests.sh" | "test.bash"
    ) || name.ends_with(".bats")
        || (name.ends_with(".sh")
            && (name.ends_with("_test.sh")
                || name.ends_with("-test.sh")
                || name.starts_with("test_")
                || name.starts_with("test-")))
}

/// The extensions of JavaScript-family files named `*.test.EXT`, `*.spec.EXT`, `*.cy.EXT`.
const JS_EXTENSIONS: [&str; 8] = ["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"];

/// Is `path` (relative, `/`-separated) a test's file by the conventions of its ecosystem: a
/// test directory anywhere in it, or a test file's name? Decided from the path alone, once
/// per file.
pub fn is_test_path(path: &str) -> bool {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    if dirs
        .split('/')
        .any(|d| TEST_DIRS.iter().any(|t| d.eq_ignore_ascii_case(t)))
    {
        return true;
    }
    if TEST_SUFFIXES.iter().any(|s| name.ends_with(s))
        || matches!(name, "conftest.py" | "tests.py" | "test.py")
        || is_shell_test(name)
        || (name.starts_with("test_") && name.ends_with(".py"))
        || (name.starts_with("mock_") && name.ends_with(".go"))
    {
        return true;
    }
    // A module of fixtures or mocks beside the code its tests test (`fixtures.js`, `mocks.py`):
    // named as the test directories are.
    let stem = name.split('.').next().unwrap_or(name);
    if name.contains('.')
        && ["fixtures", "fixture", "mocks", "mock"]
            .iter()
            .any(|t| stem.eq_ignore_ascii_case(t))
    {
        return true;
    }
    // `client.test.ts`, `api.spec.js`, `runner.cy.ts`, `runner.fixture.ts`, `api.mock.js`.
    let mut parts = name.rsplit('.');
    let (Some(ext), Some(kind)) = (parts.next(), parts.next()) else {
        return false;
    };
    parts.next().is_some()
        && JS_EXTENSIONS.contains(&ext)
        && matches!(
            kind,
            "test" | "spec" | "cy" | "e2e" | "fixture" | "fixtures" | "mock" | "mocks"
        )
}

/// Is a JavaScript file the minified output of a bundler (`dist/assets/index-3f9a1c.js`,
/// whatever its name): most of its bytes in lines of code thousands of characters long? Such a
/// file holds the client libraries it was built from (every endpoint of an SDK), not uses a
/// person wrote, and is not read, like a `*.min.js`. A line of that length that is not code
/// (a base64 picture inlined in a hand-written file) does not count: code packs brackets and
/// semicolons, at least one in [`CODE_DENSITY`] bytes.
pub fn is_bundled(path: &str, text: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    if !matches!(ext, "js" | "mjs" | "cjs") || text.len() < BUNDLED_LINE {
        return false;
    }
    let b = text.as_bytes();
    let mut minified = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', b).chain(std::iter::once(b.len())) {
        let line = &b[start..end];
        if line.len() >= BUNDLED_LINE {
            let marks = line
                .iter()
                .filter(|&&c| matches!(c, b'{' | b'}' | b';' | b'('))
                .count();
            if marks * CODE_DENSITY >= line.len() {
                minified += line.len();
            }
        }
        start = end + 1;
    }
    minified * 2 >= b.len()
}

/// The length from which a line of a JavaScript file is a bundler's ([`is_bundled`]).
const BUNDLED_LINE: usize = 2000;

/// Code packs a bracket or semicolon in at least one of this many bytes ([`is_bundled`]).
const CODE_DENSITY: usize = 50;

#[cfg(test)]
mod tests {
    #[test]
    fn bundles_are_told_by_their_long_lines_of_code() {
        let code = "function f(a){return a.get(`geo_nodes/${a}`,{x:1});}".repeat(100);
        let bundle = format!("(function(){{{code}}})();\n");
        assert!(is_bundled("docs/assets/index-Dx1.js", &bundle));
        assert!(is_bundled(
            "static/app.mjs",
            &format!("// banner\n{bundle}")
        ));
        // The same text in a file of another language, or split into lines, is someone's code.
        assert!(!is_bundled("src/app.ts", &bundle));
        let lines = code.replace(";}", ";}\n");
        assert!(!is_bundled("src/app.js", &lines));
        // A picture inlined in a hand-written file is a long line, not of code.
        let logo = format!(
            "const logo = \"data:image/png;base64,{}\";\n",
            "iVBORw0KGgo".repeat(400)
        );
        let hand =
            format!("{logo}export async function mr(api) {{\n  return api.get('/changes');\n}}\n");
        assert!(!is_bundled("src/logo.js", &hand));
    }

    use super::*;

    /// Sniffing turns a kind only into one of [`sniffed_kinds`] (the prefilter looks for the
    /// literals of those kinds before the text is sniffed).
    #[test]
    fn sniffing_stays_within_the_sniffed_kinds() {
        let helm_values = "gitlabUrl: https://gitlab.example.com/\nrunners:\n  config: |\n";
        for (path, text) in [
            ("values.yaml", helm_values),
            ("deploy/runner.yaml", helm_values),
            ("deploy/app.yaml", "global:\n  appConfig:\n    x: 1\n"),
            ("tests/suite.yaml", "suite: s\ntemplates:\n  - a.yaml\n"),
            ("k8s.yaml", "kind: Deployment\n"),
            (".gitlab-ci.yml", "gitlabUrl: x\n"),
            ("run.sh", "gitlabUrl: x\n"),
        ] {
            let class = classify(path).unwrap();
            let sniffed = sniff(class, text);
            assert!(
                sniffed_kinds(class.kind).intersects(KindSet::of([sniffed.kind])),
                "{path}: {:?} became {:?}",
                class.kind,
                sniffed.kind
            );
        }
        assert!(sniffed_kinds(FileKind::Yaml).intersects(KindSet::of([FileKind::Helm])));
        assert!(!sniffed_kinds(FileKind::Code).intersects(KindSet::of([FileKind::Helm])));
    }

    fn kind(p: &str) -> Option<FileKind> {
        classify(p).map(|c| c.kind)
    }

    #[test]
    fn table() {
        assert_eq!(kind(".gitlab-ci.yml"), Some(FileKind::Ci));
        assert_eq!(kind("ci/deploy.gitlab-ci.yml"), Some(FileKind::Ci));
        assert_eq!(kind(".gitlab/ci/build.yml"), Some(FileKind::Ci));
        assert_eq!(
            kind(".gitlab/security-policies/policy.yml"),
            Some(FileKind::SecurityPolicy)
        );
        assert_eq!(kind("chart/values.yaml"), Some(FileKind::Helm));
        assert_eq!(kind("chart/values-prod.yaml"), Some(FileKind::Helm));
        // A chart template is read as templated YAML and is a chart template once sniffed
        // (unless its text has CI jobs' shape: a CI templates repository's `templates/`).
        let template = classify("chart/templates/deployment.yaml").unwrap();
        assert!(template.chart_template && template.templated);
        assert_eq!(
            sniff(template, "apiVersion: v1\nkind: Service\n").kind,
            FileKind::Helm
        );
        assert_eq!(
            sniff(template, ".build:\n  image: x\n  script:\n    - make\n").kind,
            FileKind::Ci
        );
        assert_eq!(kind("k8s/deployment.yaml"), Some(FileKind::Yaml));
        assert_eq!(kind("config/database.yml"), Some(FileKind::DatabaseConfig));
        assert_eq!(kind("monitoring/geo.rules.yml"), Some(FileKind::Monitoring));
        assert_eq!(kind("dashboards/geo.json"), Some(FileKind::Monitoring));
        assert_eq!(kind("omnibus/gitlab.rb"), Some(FileKind::Omnibus));
        assert_eq!(kind("runner/config.toml"), Some(FileKind::RunnerConfig));
        assert_eq!(kind("scripts/register.sh"), Some(FileKind::Shell));
        assert_eq!(kind("Dockerfile"), Some(FileKind::Shell));
        assert_eq!(kind("Makefile"), Some(FileKind::Shell));
        assert_eq!(kind("infra/runner.tf"), Some(FileKind::Shell));
        assert_eq!(kind("jobs/gitlab-runner.nomad"), Some(FileKind::Shell));
        assert_eq!(kind("ci/Vagrantfile"), Some(FileKind::Code));
        assert_eq!(kind("salt/gitlab/runner.sls"), Some(FileKind::Shell));
        assert_eq!(kind("template/user-data.tftpl"), Some(FileKind::Shell));
        assert_eq!(kind("systemd/runner.service"), Some(FileKind::Shell));
        assert_eq!(kind("app/client.py"), Some(FileKind::Code));
        assert_eq!(kind("queries/runner.graphql"), Some(FileKind::Graphql));
        assert_eq!(kind("README.md"), None);
        assert_eq!(kind("deploy/runner.jsonnet"), Some(FileKind::Code));
        assert_eq!(kind("lib/runner.libsonnet"), Some(FileKind::Code));
        assert_eq!(kind("cloud/user-data"), Some(FileKind::Shell));
        assert_eq!(kind("runner.env.example"), Some(FileKind::Shell));
        assert_eq!(kind("env.gitlab.runner"), Some(FileKind::Shell));
        assert_eq!(kind("env.py"), Some(FileKind::Code));
        // Text of no other kind: read for the distinctive names alone.
        for other in [
            "docker-compose.yml.example",
            "runner/register.properties",
            "bin/register-runner",
            "pom.xml",
        ] {
            assert_eq!(kind(other), Some(FileKind::Other), "{other}");
        }
        // Files that hold nothing to look for are not read.
        for skipped in [
            "docs/upgrade.txt",
            "CHANGELOG",
            "web/app.min.js.map",
            "vendor/app.min.css",
            "assets/logo.svg",
            "yarn.lock",
            "go.sum",
            "dist/app.min.mjs.gz",
            "gl-code-quality-report.json",
            "out/uplint.sarif",
            "junit.xml",
        ] {
            assert_eq!(kind(skipped), None, "{skipped}");
        }
    }

    #[test]
    fn test_paths_of_every_ecosystem() {
        for test in [
            "client_test.go",
            "gitlab/runners_test.go",
            "pkg/testdata/runners.json",
            "tests/test_runners.py",
            "gitlab/v4/objects/test_runners.py",
            "gitlab/runners_test.py",
            "conftest.py",
            "spec/lib/runner_spec.rb",
            "lib/runner_spec.rb",
            "src/api.spec.ts",
            "src/api.test.js",
            "src/__tests__/api.js",
            "src/__mocks__/gitlab.js",
            "test/fixtures/runner.json",
            "mocks/gitlab.go",
            "e2e/runner.ts",
            "fixtures/vcr_cassettes/runner.yml",
            "spec/cassettes/runners.yml",
            "src/test/java/com/x/RunnerClient.java",
            "src/main/java/com/x/RunnerClientTest.java",
            "RunnerTests.cs",
            "Tests/Runner.cs",
            "cypress/e2e/runner.cy.ts",
            "internal/mock_client.go",
            "src/gitlab_runner_api/testing/server.py",
            "internal/testing/fake_gitlab.go",
        ] {
            assert!(is_test_path(test), "{test}");
        }
        for production in [
            "gitlab/runners.go",
            "src/api.ts",
            "lib/latest.java",
            "contest.py",
            "testing.md",
            "attest.py",
            "src/main/java/com/x/RunnerClient.java",
            "src/spec.ts",
            "protest/run.py",
            "latest_test_results.go.txt",
            "spec.yaml",
            "runner.test",
        ] {
            assert!(!is_test_path(production), "{production}");
        }
    }

    #[test]
    fn templates_are_classified_by_the_name_they_render() {
        for (path, k) in [
            ("values.yaml.tpl", FileKind::Helm),
            ("deploy/runner-values.yaml.j2", FileKind::Helm),
            ("helmfile.d/values.yaml.gotmpl", FileKind::Helm),
            ("roles/ci/templates/.gitlab-ci.yml.j2", FileKind::Ci),
            ("templates/gitlab.rb.erb", FileKind::Omnibus),
            ("templates/gitlab.rb.j2", FileKind::Omnibus),
            ("runner/config.toml.tmpl", FileKind::RunnerConfig),
            ("config/database.yml.erb", FileKind::DatabaseConfig),
        ] {
            let c = classify(path).unwrap();
            assert_eq!((path, c.kind), (path, k));
            assert!(c.templated, "{path}");
        }
        // A chart's helper template stays a chart template.
        assert_eq!(kind("chart/templates/_helpers.tpl"), Some(FileKind::Helm));
        // A template of something uplint does not read keeps the old reading.
        assert_eq!(kind("roles/x/templates/motd.j2"), Some(FileKind::Shell));
    }

    #[test]
    fn sniffing_yaml_content() {
        let yaml = classify("deploy/runner.yaml").unwrap();
        let k = |t: &str| sniff(yaml, t).kind;
        assert_eq!(
            k("gitlabUrl: https://gitlab.example.com/\nrunners:\n  privileged: true\n"),
            FileKind::Helm
        );
        assert_eq!(k("gitlab-runner:\n  install: true\n"), FileKind::Helm);
        assert_eq!(
            k("global:\n  hosts:\n    domain: x\n  appConfig:\n    a: 1\n"),
            FileKind::Helm
        );
        assert_eq!(
            k("suite: runner secrets\ntemplates:\n  - secrets.yaml\n"),
            FileKind::Helm
        );
        // Look-alikes: a key of that name below the top level, another global.
        assert_eq!(k("spec:\n  gitlabUrl: x\n"), FileKind::Yaml);
        assert_eq!(
            k("global:\n  image: x\nother:\n  appConfig: 1\n"),
            FileKind::Yaml
        );
        assert_eq!(k("apiVersion: v1\nkind: ConfigMap\n"), FileKind::Yaml);
        let ci = classify(".gitlab-ci.yml").unwrap();
        assert_eq!(sniff(ci, "gitlabUrl: x\n").kind, FileKind::Ci);
        // GitLab CI by its shape, whatever the name (a CI templates repository's files).
        assert_eq!(k(".b:\n  image: x\n  script:\n    - make\n"), FileKind::Ci);
        assert_eq!(
            k("j:\n  extends: .b\n  after_script:\n    - x\n"),
            FileKind::Ci
        );
        assert_eq!(k("default:\n  after_script: echo x\n"), FileKind::Ci);
        assert_eq!(k("include:\n  - local: /a.yml\n"), FileKind::Ci);
        assert_eq!(
            k("up:\n  trigger:\n    include: a.yml\n  needs: []\n"),
            FileKind::Ci
        );
        // Look-alikes: Travis CI, Compose v1, an Ansible task list, Bitbucket Pipelines,
        // GitHub Actions, a job-less key with `script` alone.
        assert_eq!(
            k("language: c\nscript:\n  - make\nafter_script: x\n"),
            FileKind::Yaml
        );
        assert_eq!(
            k("web:\n  image: nginx\n  extends:\n    service: b\n"),
            FileKind::Yaml
        );
        assert_eq!(
            k("- name: run\n  script: a.sh\n  when: x\n  tags: [a]\n"),
            FileKind::Yaml
        );
        assert_eq!(
            k(
                "pipelines:\n  default:\n    - step:\n        image: x\n        script:\n          - make\n"
            ),
            FileKind::Yaml
        );
        assert_eq!(
            k("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: make\n"),
            FileKind::Yaml
        );
        assert_eq!(k("task:\n  script: make\n"), FileKind::Yaml);
        assert_eq!(kind("logo.png"), None);
    }
}
