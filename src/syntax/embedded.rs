//! Embedded regions: text of one kind of file inside a file of another kind, scanned as what it
//! is. The TOML of the gitlab-runner chart's `runners.config: |`, `GITLAB_OMNIBUS_CONFIG: |`
//! (Ruby `gitlab.rb` settings) in compose files and Kubernetes manifests, Argo CD
//! `spec.source.helm.values: |` and `valuesObject:`, helmfile `releases[].values[]` maps, a shell
//! heredoc that writes `.gitlab-ci.yml` or `values.yaml`, values YAML handed to `YAML.safe_load`
//! in Ruby, `gitlab.rb` in a Nix `'' … ''` string, and Helm values of a Terraform `helm_release`
//! (`values = [<<EOT … EOT]`, `yamlencode({ … })`, `set { name = "…" }`).
//!
//! A region is a byte range and the class of its text. It is scanned on a copy of the file where
//! every byte outside the region is a space (line breaks kept), so every offset, line and column
//! is the outer file's without any mapping; a block scalar keeps a uniform indentation, so YAML
//! and TOML still parse. HCL object syntax is rewritten in place as YAML keys (`key = v` becomes
//! `key:  v`, braces become blanks), which keeps every key at its offset too.

use super::classify::{self, Class, CommentStyle, FileKind};
use super::file::is_yaml_kind;

/// How a region's text is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// As it stands.
    Verbatim,
    /// An HCL object (`key = value`, nested `{ }`), read as YAML keys.
    HclObject,
    /// A Terraform `set { name = "a.b" value = … }` block: its name is the values key.
    HclSet,
    /// A Jsonnet program's objects (`key: {`, `key: 'v',`), read as YAML keys.
    JsonnetObject,
    /// A document a program writes one line per string literal (`Fprintf(buf, "  trigger:\n")`,
    /// `s += "    strategy: depend\n";`, a list of `"  after_script:",`): each line's
    /// literal, moved to the line's start.
    LineStrings,
}

/// Text of another kind inside a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub start: usize,
    pub end: usize,
    pub class: Class,
    pub form: Form,
}

impl Region {
    /// The name of a file of the region's kind, that detectors see as its path (a region of
    /// values inside a chart template is values, not a template).
    pub fn file_name(&self) -> &'static str {
        match self.class.kind {
            FileKind::Helm => "values.yaml",
            FileKind::RunnerConfig => "config.toml",
            FileKind::Omnibus => "gitlab.rb",
            FileKind::Ci => ".gitlab-ci.yml",
            FileKind::DatabaseConfig => "database.yml",
            _ => "embedded.yaml",
        }
    }
}

fn class_of(kind: FileKind) -> Class {
    Class {
        kind,
        comments: CommentStyle::Hash,
        templated: matches!(kind, FileKind::Helm | FileKind::Ci | FileKind::Yaml),
        chart_template: false,
    }
}

/// The markers one of which a file must hold to have regions (a file without is done at once).
/// Some start regions only in some files (see [`markers_in_use`]).
pub const MARKERS: [&str; 13] = [
    "<<",
    "''",
    "YAML.",
    ": |",
    ": >",
    "config:",
    "GITLAB_OMNIBUS_CONFIG",
    "values",
    "yamlencode",
    "set",
    "valuesObject",
    "script:",
    "trigger:",
];

/// The forms of region that a file of this path and class can hold beyond those every file can
/// (one place for the conditions, read by [`markers_in_use`] and [`regions_with_markers`]).
struct Forms {
    /// Block scalars and mappings whose key says what they hold: in YAML files.
    yaml: bool,
    /// Heredocs: everywhere but in source code other than Ruby (where `a<<b` is a shift).
    heredocs: bool,
    /// Nix indented strings: in Nix files.
    nix_strings: bool,
    /// Ruby `%(…)` strings handed to `YAML.load`: in source code.
    ruby_percent_strings: bool,
    /// Terraform/HCL values.
    hcl: bool,
    /// Multi-line string literals of code (JavaScript and Go backquotes, Python triple quotes)
    /// that hold a CI configuration a script writes (a generated child pipeline): in source code
    /// and shell scripts.
    code_strings: bool,
    /// The text a PHP file outputs (outside `<?php … ?>`), which can be a CI configuration
    /// it writes: in PHP files.
    php_output: bool,
    /// Double-quoted strings over many lines (shell's `echo "`, Ruby, PHP), read like the
    /// multi-line literals of [`Self::code_strings`].
    double_quoted: bool,
    /// A program named for the CI configuration it renders (`.gitlab-ci.jsonnet`, a
    /// `*gitlab-ci*.libsonnet`, node-gitlab-ci's `.gitlab-ci.ts`): its objects are the
    /// configuration's keys.
    jsonnet_ci: bool,
}

fn forms(path: &str, class: Class) -> Forms {
    let ends = |suffix: &str| {
        path.len() >= suffix.len()
            && path.as_bytes()[path.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    let code = class.kind == FileKind::Code;
    if class.kind == FileKind::Other {
        // Text of no known kind is looked at for distinctive names alone.
        return Forms {
            yaml: false,
            heredocs: false,
            nix_strings: false,
            ruby_percent_strings: false,
            hcl: false,
            code_strings: false,
            php_output: false,
            double_quoted: false,
            jsonnet_ci: false,
        };
    }
    Forms {
        yaml: is_yaml_kind(class.kind),
        heredocs: !code || ends(".rb") || ends(".rake") || ends(".php"),
        nix_strings: ends(".nix"),
        ruby_percent_strings: code,
        hcl: ends(".tf") || ends(".hcl"),
        code_strings: code || class.kind == FileKind::Shell,
        php_output: code && ends(".php"),
        double_quoted: class.kind == FileKind::Shell || ends(".rb") || ends(".php"),
        jsonnet_ci: code && ci_program(path, ends),
    }
}

/// Is this code file named for the CI configuration it renders? A Jsonnet program with
/// `gitlab-ci` in its path, or a JavaScript or TypeScript module named `.gitlab-ci.*` (as
/// node-gitlab-ci names the configuration it writes, jobs made by `config.job(name, { … })`,
/// whose object literals read as Jsonnet's do).
fn ci_program(path: &str, ends: impl Fn(&str) -> bool) -> bool {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let script = [".ts", ".js", ".mjs", ".cjs", ".mts", ".cts"];
    ((ends(".jsonnet") || ends(".libsonnet")) && path.to_ascii_lowercase().contains("gitlab-ci"))
        || (base.len() > 11
            && base.as_bytes()[..11].eq_ignore_ascii_case(b".gitlab-ci.")
            && script.iter().any(|e| ends(e)))
}

/// Which of the [`MARKERS`] can start a region in a file of this path and class: the marker of
/// a form the file cannot hold is not looked for (a marker under four bytes costs a search of the whole
/// file).
pub fn markers_in_use(path: &str, class: Class) -> [bool; MARKERS.len()] {
    if class.kind == FileKind::Other {
        return [false; MARKERS.len()];
    }
    let forms = forms(path, class);
    MARKERS.map(|m| match m {
        "<<" => forms.heredocs,
        "''" => forms.nix_strings,
        "YAML." => forms.ruby_percent_strings,
        ": |" | ": >" | "config:" | "valuesObject" => forms.yaml,
        "values" => forms.yaml || forms.hcl,
        "set" | "yamlencode" => forms.hcl,
        "script:" | "trigger:" => {
            forms.code_strings || forms.php_output || forms.jsonnet_ci || forms.double_quoted
        }
        _ => true,
    })
}

/// The embedded regions of a file, in order of their start.
pub fn regions(path: &str, class: Class, text: &str) -> Vec<Region> {
    let b = text.as_bytes();
    let in_use = markers_in_use(path, class);
    if !MARKERS
        .iter()
        .zip(in_use)
        .any(|(m, used)| used && memchr::memmem::find(b, m.as_bytes()).is_some())
    {
        return Vec::new();
    }
    regions_with_markers(path, class, text)
}

/// [`regions`] of a text known to hold one of the [`MARKERS`] in use for it.
pub fn regions_with_markers(path: &str, class: Class, text: &str) -> Vec<Region> {
    let mut out = Vec::new();
    let forms = forms(path, class);
    if forms.yaml {
        yaml_regions(text, &mut out);
    }
    if forms.heredocs {
        heredocs(text, forms.hcl, &mut out);
    }
    if forms.nix_strings {
        nix_strings(text, &mut out);
    }
    if forms.ruby_percent_strings {
        ruby_percent_strings(text, &mut out);
    }
    if forms.hcl {
        hcl_values(text, &mut out);
    }
    if forms.code_strings {
        code_string_literals(text, &mut out);
    }
    if forms.php_output {
        php_output(text, &mut out);
    }
    if forms.double_quoted {
        double_quoted_documents(text, &mut out);
    }
    if forms.code_strings {
        line_string_documents(text, &mut out);
    }
    if forms.jsonnet_ci {
        out.push(Region {
            start: 0,
            end: text.len(),
            class: class_of(FileKind::Ci),
            form: Form::JsonnetObject,
        });
    }
    omnibus_config_strings(text, &mut out);
    // Text of the file's own kind is scanned with the file, unless the file is YAML, where it
    // is a scalar (a CI job that writes a child pipeline).
    out.retain(|r| {
        r.start < r.end
            && (r.class.kind != class.kind || r.form != Form::Verbatim || is_yaml_kind(class.kind))
    });
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup_by(|a, b| a.start == b.start && a.end == b.end);
    out
}

/// The file's text with every byte outside the region blank (line breaks kept), and the
/// region's HCL rewritten as YAML keys.
pub fn isolate(text: &str, r: &Region) -> String {
    let mut out: Vec<u8> = text
        .bytes()
        .enumerate()
        .map(|(i, c)| {
            if (i >= r.start && i < r.end) || c == b'\n' || c == b'\r' {
                c
            } else {
                b' '
            }
        })
        .collect();
    match r.form {
        Form::Verbatim => {}
        Form::HclObject => hcl_object_as_yaml(&mut out, r),
        Form::HclSet => hcl_set_as_yaml(&mut out, r),
        Form::JsonnetObject => jsonnet_object_as_yaml(&mut out, r),
        Form::LineStrings => line_strings_as_yaml(&mut out[r.start..r.end]),
    }
    // Bytes outside the region became ASCII, inside nothing but ASCII was rewritten.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// One line: its start, end (before the line break), indentation and text.
struct Line<'t> {
    start: usize,
    end: usize,
    indent: usize,
    text: &'t str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for raw in text.split_inclusive('\n') {
        let body = raw.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        out.push(Line {
            start,
            end: start + body.len(),
            indent: body.len() - trimmed.len(),
            text: body,
        });
        start += raw.len();
    }
    out
}

fn blank(l: &Line) -> bool {
    let t = l.text.trim();
    t.is_empty()
}

/// The end (byte offset) of the block of lines after `i` that are more indented than `indent`
/// (blank lines inside included), and the index of the line after it.
fn block_end(ls: &[Line], i: usize, indent: usize) -> (usize, usize) {
    let mut end = ls[i].end;
    let mut j = i + 1;
    while j < ls.len() && (blank(&ls[j]) || ls[j].indent > indent) {
        if !blank(&ls[j]) {
            end = ls[j].end;
        }
        j += 1;
    }
    (end, j)
}

/// `key: value` of a YAML line (after `- ` items): the key, its column, and the value text.
fn yaml_key<'t>(l: &Line<'t>) -> Option<(&'t str, usize, &'t str, usize)> {
    let mut rest = &l.text[l.indent..];
    let mut col = l.indent;
    while let Some(r) = rest.strip_prefix("- ") {
        let r2 = r.trim_start();
        col += 2 + (r.len() - r2.len());
        rest = r2;
    }
    if rest.starts_with('#') {
        return None;
    }
    let colon = rest.find(':')?;
    let key = rest[..colon].trim_matches(['"', '\'']);
    if key.is_empty() || key.contains([' ', '{', '[']) {
        return None;
    }
    let after = &rest[colon + 1..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let value = after.trim();
    let value_at = l.start + col + colon + 1 + (after.len() - after.trim_start().len());
    Some((key, col, value, value_at))
}

/// The kinds of file that a block scalar keyed by a file name is scanned as.
const FILE_KINDS: [FileKind; 5] = [
    FileKind::RunnerConfig,
    FileKind::Omnibus,
    FileKind::Ci,
    FileKind::Helm,
    FileKind::DatabaseConfig,
];

fn is_block_indicator(v: &str) -> bool {
    let v = v.split(" #").next().unwrap_or("").trim();
    let mut c = v.chars();
    matches!(c.next(), Some('|' | '>')) && c.all(|c| matches!(c, '-' | '+' | '0'..='9'))
}

/// Regions of a YAML file: block scalars and mappings whose key says what they hold.
fn yaml_regions(text: &str, out: &mut Vec<Region>) {
    let ls = lines(text);
    let helm_release = text.contains("kind: HelmRelease");
    // (column, key) of the keys that enclose the current line.
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    while i < ls.len() {
        let l = &ls[i];
        let Some((key, col, value, value_at)) = yaml_key(l) else {
            i += 1;
            continue;
        };
        // The enclosing keys are those less indented; a `- key:` item line may stand at its
        // list's key's indentation.
        let item = l.indent < col;
        while stack
            .last()
            .is_some_and(|&(c, _)| c > l.indent || (c == l.indent && !item))
        {
            stack.pop();
        }
        let parent = stack.last().map(|&(_, k)| k);
        let block = is_block_indicator(value);
        let previous_name = i > 0
            && ls[i - 1].text.trim_start().trim_start_matches("- ").trim()
                == "name: GITLAB_OMNIBUS_CONFIG";
        let kind = match key {
            "GITLAB_OMNIBUS_CONFIG" => Some(FileKind::Omnibus),
            "value" if previous_name => Some(FileKind::Omnibus),
            "config" if block && parent == Some("runners") => Some(FileKind::RunnerConfig),
            // A file held in a ConfigMap or Secret: `config.toml: |`, `gitlab.rb: |`.
            name if block && name.contains('.') => classify::classify(name)
                .map(|c| c.kind)
                .filter(|k| FILE_KINDS.contains(k)),
            "values" | "valuesObject" if parent == Some("helm") => Some(FileKind::Helm),
            // Kustomize `helmCharts: - name: … valuesInline:`.
            "valuesInline" if parent == Some("helmCharts") => Some(FileKind::Helm),
            "values" if !block && value.is_empty() && parent == Some("spec") && helm_release => {
                Some(FileKind::Helm)
            }
            _ => None,
        };
        let (end, next) = block_end(&ls, i, col);
        if let Some(kind) = kind {
            let region = if block || value.is_empty() {
                ls.get(i + 1).map(|n| (n.start, end))
            } else {
                let v = value.split(" #").next().unwrap_or("").trim_end();
                let quoted = v.len() >= 2
                    && ((v.starts_with('"') && v.ends_with('"'))
                        || (v.starts_with('\'') && v.ends_with('\'')));
                let q = usize::from(quoted);
                Some((value_at + q, value_at + v.len() - q))
            };
            if let Some((start, end)) = region.filter(|(s, e)| s < e) {
                out.push(Region {
                    start,
                    end,
                    class: class_of(kind),
                    form: Form::Verbatim,
                });
            }
        } else if key == "values" && value.is_empty() && parent == Some("releases") {
            // The list may stand at the key's own indentation.
            let mut j = i + 1;
            while j < ls.len()
                && (blank(&ls[j])
                    || ls[j].indent > col
                    || (ls[j].indent == col && ls[j].text[col..].starts_with("- ")))
            {
                j += 1;
            }
            helmfile_items(&ls[i + 1..j], col, out);
        }
        if block {
            i = next;
            continue;
        }
        stack.push((col, key));
        i += 1;
    }
}

/// The mapping items of a helmfile release's `values:` list, each a region of Helm values
/// starting after its `- `.
fn helmfile_items(ls: &[Line], col: usize, out: &mut Vec<Region>) {
    let mut k = 0;
    while k < ls.len() {
        let l = &ls[k];
        let t = &l.text[l.indent..];
        if !blank(l) && l.indent >= col && t.starts_with("- ") && yaml_key(l).is_some() {
            let (end, next) = block_end(ls, k, l.indent);
            out.push(Region {
                start: l.start + l.indent + 2,
                end,
                class: class_of(FileKind::Helm),
                form: Form::Verbatim,
            });
            k = next;
        } else {
            k += 1;
        }
    }
}

/// What a piece of text is, by its content: runner TOML, `gitlab.rb` settings, chart values or
/// CI configuration (keys at its least indentation).
fn sniff(body: &str) -> Option<FileKind> {
    let ls = lines(body);
    let min = ls.iter().filter(|l| !blank(l)).map(|l| l.indent).min()?;
    let mut ci = false;
    for l in ls.iter().filter(|l| !blank(l)) {
        let t = l.text.trim();
        if t == "[[runners]]" || t.starts_with("[runners.") {
            return Some(FileKind::RunnerConfig);
        }
        // `gitlab.rb` settings: nearly every snippet sets the URL or a Rails setting.
        if t.starts_with("gitlab_rails[") || t.starts_with("external_url ") {
            return Some(FileKind::Omnibus);
        }
        if l.indent == min {
            let key = t.split(':').next().unwrap_or("");
            if t.len() > key.len() {
                match key {
                    "global"
                    | "gitlab"
                    | "gitlab-runner"
                    | "gitlabUrl"
                    | "runnerRegistrationToken"
                    | "runnerToken"
                    | "runners" => return Some(FileKind::Helm),
                    "stages" | "include" | "workflow" | "default" => ci = true,
                    // Travis CI's own top-level keys: its configuration has `script:` and
                    // `after_script:` too.
                    "language" | "before_install" | "sudo" | "dist" | "addons" => return None,
                    _ => {}
                }
            }
        }
        if t.starts_with("script:") {
            ci = true;
        }
    }
    ci |= trigger_job(&ls);
    ci.then_some(FileKind::Ci)
}

/// Does a job of the text trigger a pipeline (`trigger:` with `include:` or `project:` on the
/// line below, more indented)?
fn trigger_job(ls: &[Line]) -> bool {
    let mut it = ls.iter().filter(|l| !blank(l)).peekable();
    while let Some(l) = it.next() {
        // `trigger: { include: …, strategy: depend }`: the same in flow style.
        let t = l.text.trim();
        if t.starts_with("trigger: {") && (t.contains("include:") || t.contains("project:")) {
            return true;
        }
        if t == "trigger:"
            && let Some(next) = it.peek()
        {
            let t = next.text.trim_start();
            if next.indent > l.indent && (t.starts_with("include:") || t.starts_with("project:")) {
                return true;
            }
        }
    }
    false
}

/// The most bytes a string literal of code is read as embedded text.
const CODE_STRING_REACH: usize = 64 * 1024;

/// Multi-line string literals of code that hold a CI configuration (a child pipeline a script
/// writes: `` jobs.push(`\ntrigger:${name}:\n  trigger:\n    include: …`) ``, Python
/// `"""\nstages:\n…"""`): backquoted (JavaScript template literals, Go raw strings, whose
/// `${…}` stay as they are) and triple-quoted. Only a literal whose text starts a document
/// ([`starts_a_document`]) is read, and only as CI configuration.
fn code_string_literals(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    for quote in [&b"`"[..], b"\"\"\"", b"'''"] {
        let mut from = 0;
        // The region of the last literal read as CI, while the next may continue it.
        let mut last: Option<usize> = None;
        while let Some(j) = memchr::memmem::find(&b[from..], quote) {
            let open = from + j;
            let mut body_start = open + quote.len();
            let Some(k) = unescaped(&b[body_start..], quote) else {
                break;
            };
            // A backslash right after the quote escapes the line break (Python's `"""\`): the
            // text starts on the next line.
            if b.get(body_start) == Some(&b'\\')
                && matches!(b.get(body_start + 1), Some(b'\n' | b'\r'))
            {
                body_start += 1;
            }
            let close = open + quote.len() + k;
            let after_previous = from;
            from = close + quote.len();
            // A configuration spliced with values (`` `…token ` + token + `\n…` ``): the next
            // literal goes on with the same text, the splice read as part of its line.
            if let Some(r) = last.take()
                && spliced(&b[after_previous..open])
                && close - out[r].start <= CODE_STRING_REACH
            {
                out[r].end = close;
                last = Some(r);
                continue;
            }
            let body = &text[body_start..close];
            if close - body_start > CODE_STRING_REACH || !starts_a_document(body) {
                continue;
            }
            if sniff(body) == Some(FileKind::Ci) {
                last = Some(out.len());
                out.push(Region {
                    start: body_start,
                    end: close,
                    class: class_of(FileKind::Ci),
                    form: Form::Verbatim,
                });
            }
        }
    }
}

/// Double-quoted strings whose text starts on the line after the quote (`echo "` at a line's
/// end, then a job on each line) and that sniff as CI configuration: a child pipeline a shell
/// script writes. The string ends at the next quote that no backslash escapes.
fn double_quoted_documents(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(j) = memchr::memmem::find(&b[from..], b"\"\n") {
        let open = from + j;
        let line_start = memchr::memrchr(b'\n', &b[..open]).map_or(0, |k| k + 1);
        let opens = !in_double_quotes(&b[line_start.max(from)..open]);
        from = open + 2;
        if !opens {
            continue;
        }
        let body_start = open + 1;
        let mut k = body_start;
        let close = loop {
            match memchr::memchr2(b'"', b'\\', &b[k..]) {
                Some(n) if b[k + n] == b'\\' => k += n + 2,
                Some(n) => break Some(k + n),
                None => break None,
            }
            if k >= b.len() || k - body_start > CODE_STRING_REACH {
                break None;
            }
        };
        let Some(close) = close.filter(|c| c - body_start <= CODE_STRING_REACH) else {
            continue;
        };
        from = close + 1;
        if sniff(&text[body_start..close]) == Some(FileKind::Ci) {
            out.push(Region {
                start: body_start,
                end: close,
                class: class_of(FileKind::Ci),
                form: Form::Verbatim,
            });
        }
    }
}

/// Where the first string literal of a line is (quoted with `"`, `'` or `` ` ``, ending on the
/// line, as [`super::rest::string_literal_bytes`] reads them): the range of its text.
fn first_literal(line: &[u8]) -> Option<(usize, usize)> {
    super::rest::string_literal_bytes(line)
        .next()
        .map(|(open, close)| (open + 1, close))
}

/// What a line of a document written one line per literal holds ([`line_string_documents`]).
#[derive(Clone, Copy, PartialEq)]
enum LineString {
    /// A YAML line (`  trigger:`, `    - make`, `agent-%d:`): its literal's text.
    Yaml(usize, usize),
    /// A key whose name is computed (`s += t.name + ":\n"`): a key of its own.
    ComputedKey,
    None,
}

/// [`LineString`] of one line of code.
fn line_string(line: &[u8]) -> LineString {
    let Some((s, mut e)) = first_literal(line) else {
        return LineString::None;
    };
    if logged(&line[..s - 1]) {
        return LineString::None;
    }
    // The line break the literal ends with (`\n`), written escaped.
    if line[s..e].ends_with(b"\\n") {
        e -= 2;
    }
    let t = &line[s..e];
    if t == b":" && line[..s - 1].contains(&b'+') {
        return LineString::ComputedKey;
    }
    let body = t.trim_ascii_start();
    let key = body
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || b"_-.$%{}/".contains(&c))
        .count();
    // A key alone on its line may hold blanks (a job's name, `Build {{ app }}:`).
    let alone = body.len() > 1
        && body.ends_with(b":")
        && !body[..body.len() - 1].contains(&b':')
        && !body.contains(&b'"');
    let yaml = body.starts_with(b"- ")
        || alone
        || (key > 0
            && body.get(key) == Some(&b':')
            && matches!(body.get(key + 1), None | Some(b' ')));
    if yaml {
        LineString::Yaml(s, e)
    } else {
        LineString::None
    }
}

/// Is the literal after `lead` a message handed to a logging call (`print_msg("  trigger:",
/// log=log)`, `logger.info(`, `console.log(`, `log.Printf(`): instructions shown to a person, not
/// a file written?
fn logged(lead: &[u8]) -> bool {
    let Some(call) = lead.trim_ascii_end().strip_suffix(b"(") else {
        return false;
    };
    let n = call
        .iter()
        .rev()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        .count();
    let name = call[call.len() - n..].to_ascii_lowercase();
    const LOGGING: [&[u8]; 8] = [
        b"log", b"msg", b"info", b"warn", b"warning", b"debug", b"error", b"message",
    ];
    // The call's own name (`print_msg`, `console.log`), or a logger it is called on
    // (`logger.info`, `log.Printf`).
    let mut parts = name.rsplit(|&c| c == b'.');
    let last = parts.next().unwrap_or(&name);
    LOGGING.iter().any(|w| last.ends_with(w)) || parts.any(|p| p == b"logger" || p == b"log")
}

/// Runs of lines of code whose string literals are the lines of a CI configuration a program
/// writes (at least three such lines, at most three other lines between them: an `if` over a
/// job and a blank line written before it), that sniff as CI
/// once each literal is moved to its line's start ([`Form::LineStrings`]).
fn line_string_documents(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let mut run: Option<(usize, usize, usize)> = None; // (start, end, lines)
    let mut gap = 0;
    let mut pos = 0;
    // Runs that do not sniff as CI on their own but write a job's script keyword (a job's
    // `after_script:` written under an `if`, far from its `script:`), with whether the key has
    // its list below (else its lines come from elsewhere: `job.push_str("  after_script:\n")`
    // then a function's lines): CI where the file writes CI elsewhere or, for a listed key,
    // names the platform's CI file.
    let mut parts: Vec<(usize, usize, bool)> = Vec::new();
    let mut flush = |run: Option<(usize, usize, usize)>, out: &mut Vec<Region>| {
        let Some((start, end, n)) = run else { return };
        if end - start > CODE_STRING_REACH {
            return;
        }
        let mut doc = b[start..end].to_vec();
        line_strings_as_yaml(&mut doc);
        let doc = String::from_utf8_lossy(&doc);
        if n >= 3 && sniff(&doc) == Some(FileKind::Ci) {
            out.push(Region {
                start,
                end,
                class: class_of(FileKind::Ci),
                form: Form::LineStrings,
            });
        } else if let Some(listed) = writes_job_script_key(&doc) {
            parts.push((start, end, listed));
        }
    };
    while pos < b.len() {
        let end = memchr::memchr(b'\n', &b[pos..]).map_or(b.len(), |k| pos + k);
        if line_string(&b[pos..end]) == LineString::None {
            gap += 1;
            if gap > 3 {
                flush(run.take(), out);
            }
        } else {
            gap = 0;
            // A run starts a line early: where its jobs' keys are indented under a name the
            // program computes far above, that line is their job ([`line_strings_as_yaml`]).
            let early = if pos >= 2 {
                memchr::memrchr(b'\n', &b[..pos - 1]).map_or(0, |k| k + 1)
            } else {
                pos
            };
            run = Some(match run {
                Some((s, _, n)) => (s, end, n + 1),
                None => (early, end, 1),
            });
        }
        pos = end + 1;
    }
    flush(run, out);
    if parts.is_empty() {
        return;
    }
    let writes_ci = out.iter().any(|r| r.class.kind == FileKind::Ci);
    let names_ci = writes_ci
        || super::graphql_docs::contains_ignore_case(b, b"gitlab-ci")
        || super::graphql_docs::contains_ignore_case(b, b"gitlabci");
    out.extend(
        (parts.into_iter())
            .filter(|&(_, _, listed)| if listed { names_ci } else { writes_ci })
            .map(|(start, end, _)| Region {
                start,
                end,
                class: class_of(FileKind::Ci),
                form: Form::LineStrings,
            }),
    );
}

/// Does a written document hold a job's script keyword (`after_script:`, `before_script:`)
/// indented as a job's key? `Some(true)` with a list item below it, `Some(false)` alone.
fn writes_job_script_key(doc: &str) -> Option<bool> {
    let mut ls = doc.lines().filter(|l| !l.trim().is_empty()).peekable();
    let mut alone = false;
    while let Some(l) = ls.next() {
        let t = l.trim_start();
        let indent = l.len() - t.len();
        if indent > 0 && matches!(t.trim_end(), "after_script:" | "before_script:") {
            match ls.peek() {
                Some(n) if n.trim_start().starts_with("- ") => return Some(true),
                None => alone = true,
                Some(_) => {}
            }
        }
    }
    alone.then_some(false)
}

/// [`Form::LineStrings`]: each line's literal moved to the line's start, unescaped (`\"` is
/// `"`), the rest of the line blank; a computed key is `_:`, and so is the first line when it
/// holds no literal and the written lines are all indented (keys of a job named above).
fn line_strings_as_yaml(text: &mut [u8]) {
    let indents = text
        .split(|&c| c == b'\n')
        .filter_map(|l| match line_string(l) {
            LineString::Yaml(s, e) => Some(l[s..e].iter().take_while(|&&c| c == b' ').count()),
            _ => None,
        });
    let first_end = memchr::memchr(b'\n', text).unwrap_or(text.len());
    let job_above = indents.min().is_some_and(|m| m > 0)
        && line_string(&text[..first_end]) == LineString::None
        && first_end >= 2;
    let mut pos = 0;
    while pos < text.len() {
        let end = memchr::memchr(b'\n', &text[pos..]).map_or(text.len(), |k| pos + k);
        let line = &mut text[pos..end];
        let kind = line_string(line);
        let mut w = 0;
        match kind {
            LineString::Yaml(s, e) => {
                // A key that starts with a template's `{` or `%` (`f"{name}:"`) would start a
                // flow mapping or a directive: its first byte is a name's.
                let first = line[s..e].iter().position(|c| *c != b' ').map(|i| s + i);
                if let Some(f) = first.filter(|&f| matches!(line[f], b'{' | b'%' | b'[')) {
                    line[f] = b'_';
                }
                let mut k = s;
                while k < e {
                    let c = if line[k] == b'\\' && k + 1 < e {
                        k += 1;
                        line[k]
                    } else {
                        line[k]
                    };
                    line[w] = c;
                    w += 1;
                    k += 1;
                }
            }
            LineString::ComputedKey => {
                line[..2].copy_from_slice(b"_:");
                w = 2;
            }
            LineString::None => {}
        }
        line[w..]
            .iter_mut()
            .filter(|c| **c != b'\r')
            .for_each(|c| *c = b' ');
        if matches!(kind, LineString::Yaml(..)) {
            blank_unsafe_value(&mut line[..w]);
        }
        if pos == 0 && job_above {
            line[..2].copy_from_slice(b"_:");
        }
        pos = end + 1;
    }
}

/// A value of a written line that the program completes (`job: \"` + name + `\"`) or that YAML
/// reads otherwise than the program meant (`- **/*`, an alias): blank, the key kept, so that
/// one such line does not make the whole document unreadable.
fn blank_unsafe_value(line: &mut [u8]) {
    let body = line.iter().position(|c| *c != b' ').unwrap_or(line.len());
    let value = if line[body..].starts_with(b"- ") {
        body + 2
    } else {
        match memchr::memmem::find(&line[body..], b": ") {
            Some(k) => body + k + 2,
            None => return,
        }
    };
    let v = line[value..].trim_ascii();
    let odd = |q: u8| v.iter().filter(|&&c| c == q).count() % 2 == 1;
    let unsafe_start = v.first().is_some_and(|c| b"*&!|>@%`".contains(c));
    if odd(b'"') || odd(b'\'') || unsafe_start {
        line[value..].iter_mut().for_each(|c| *c = b' ');
    }
}

/// Does the text of a shell line before a `"` leave it inside double quotes (so that the `"`
/// closes a string rather than opens one)? Single-quoted text and escapes are skipped.
fn in_double_quotes(before: &[u8]) -> bool {
    let (mut double, mut single) = (false, false);
    let mut k = 0;
    while k < before.len() {
        match before[k] {
            b'\\' if !single => k += 1,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            _ => {}
        }
        k += 1;
    }
    double
}

/// The text a PHP file outputs, between a `?>` and the next `<?php` (its `<?= … ?>` echoes
/// read as part of their lines), that sniffs as CI configuration: a pipeline the file renders
/// (`generate-pipeline.php` whose output is a child pipeline's configuration).
fn php_output(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(j) = memchr::memmem::find(&b[from..], b"?>") {
        let start = from + j + 2;
        // The output ends at the next code block; an echo tag (`<?= $x ?>`) is part of it.
        let end = memchr::memmem::find_iter(&b[start..], b"<?")
            .map(|k| start + k)
            .find(|&k| b.get(k + 2) != Some(&b'='))
            .unwrap_or(b.len());
        from = end.max(start);
        let body = &text[start..end];
        if end - start <= CODE_STRING_REACH && sniff(body) == Some(FileKind::Ci) {
            out.push(Region {
                start,
                end,
                class: class_of(FileKind::Ci),
                form: Form::Verbatim,
            });
        }
        if end == b.len() {
            break;
        }
    }
}

/// Does a string literal's text start a YAML document: on the line after its opening quote, or
/// with a key alone on the quote's line (`` return `spec:\n  inputs:… `` of a CI component a
/// program writes, `` `child fails:\n  script: …` ``), or a key and its value there
/// (`"""stages: [test, child]` of a `.gitlab-ci.yml` a test commits), or a YAML comment?
fn starts_a_document(body: &str) -> bool {
    if body.starts_with(['\n', '\r']) {
        return true;
    }
    let Some(nl) = body.find('\n') else {
        return false;
    };
    let first = body[..nl].trim_end();
    // A comment line first (`# Written by \`tool init\`.`), then the document.
    if first.starts_with("# ") {
        return true;
    }
    let key_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    // A key and its value on the quote's line (`"""stages: [test, child]`).
    let keyed = first.split_once(": ").is_some_and(|(key, value)| {
        !key.is_empty() && key.bytes().all(key_byte) && !value.trim().is_empty()
    });
    first.len() >= 2
        && first.as_bytes()[0].is_ascii_alphabetic()
        && (keyed
            || (first.ends_with(':')
                && first[..first.len() - 1]
                    .bytes()
                    .all(|c| key_byte(c) || c == b' ')))
}

/// Where `quote` is next written in `b` with no backslash escaping it (`` \` `` inside a
/// template literal is no end of it).
fn unescaped(b: &[u8], quote: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = memchr::memmem::find(&b[from..], quote) {
        let at = from + k;
        let slashes = b[..at].iter().rev().take_while(|&&c| c == b'\\').count();
        if slashes % 2 == 0 {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Is the code between two string literals a splice on their line (`` ` + token + ` ``, `""" +
/// name + """`): one value joined between them with `+`?
fn spliced(between: &[u8]) -> bool {
    let t = between.trim_ascii();
    between.len() <= 200
        && t.len() >= 3
        && t.starts_with(b"+")
        && t.ends_with(b"+")
        && !between.contains(&b'\n')
}

/// Shell and Ruby heredocs (`<<EOF`, `<<-EOF`, `<<~EOS`, `<<'EOF'`), Terraform heredocs
/// (`values = [<<EOT`). The class comes from the file the heredoc writes (`cat > X <<EOF`,
/// `cat <<EOF > X`, `tee X`), from a Terraform `values` argument, or from the text itself.
fn heredocs(text: &str, hcl: bool, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let mut from = 0;
    let mut failed: Vec<&str> = Vec::new();
    while let Some(j) = memchr::memmem::find(&b[from..], b"<<") {
        let at = from + j;
        from = at + 2;
        if at > 0 && b[at - 1] == b'<' {
            continue;
        }
        let mut i = at + 2;
        // PHP's heredoc and nowdoc: `<<<ID`, `<<<"ID"`, `<<<'ID'`.
        let php = b.get(i) == Some(&b'<');
        if php || matches!(b.get(i), Some(b'-' | b'~')) {
            i += 1;
        }
        // `cat << EOF`: the word may follow a blank.
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let quote = match b.get(i) {
            Some(&q @ (b'\'' | b'"')) => {
                i += 1;
                Some(q)
            }
            _ => None,
        };
        let id_start = i;
        while b
            .get(i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
        {
            i += 1;
        }
        // Heredoc words are upper case (`EOF`, `EOT`, `YAML`): `x<<y` is no heredoc.
        let ident = &text[id_start..i];
        if ident.is_empty()
            || !ident.as_bytes()[0].is_ascii_uppercase()
            || ident.bytes().any(|c| c.is_ascii_lowercase())
            || failed.contains(&ident)
        {
            continue;
        }
        if quote.is_some() {
            if b.get(i) != quote.as_ref() {
                continue;
            }
            i += 1;
        }
        let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |k| k + 1);
        let Some(nl) = memchr::memchr(b'\n', &b[i..]).map(|k| i + k) else {
            continue;
        };
        let head = format!("{} {}", &text[line_start..at], &text[i..nl]);
        let body_start = nl + 1;
        // The terminator: a line holding the identifier (indented for `<<-`, `<<~`, HCL).
        let mut end = None;
        let mut pos = body_start;
        for raw in text[body_start..].split_inclusive('\n') {
            let t = raw.trim();
            // (PHP's closing word may go on with the expression: `ID . "\n";`, `ID;`.)
            if t == ident
                || (t.starts_with(ident) && t[ident.len()..].starts_with([')', '.']))
                || (php && t.starts_with(ident) && t[ident.len()..].starts_with([';', ',', ' ']))
            {
                end = Some(pos);
                break;
            }
            pos += raw.len();
        }
        let Some(end) = end else {
            // Not terminated: the same word is not looked for again (no quadratic search).
            failed.push(ident);
            continue;
        };
        from = end;
        let body = &text[body_start..end];
        let kind = target_kind(&head)
            .map(|k| match k {
                // A `.yml` of no telling name (`>> e2e.yml`): what its text is.
                FileKind::Yaml => sniff(body)
                    .filter(|k| matches!(k, FileKind::Helm | FileKind::Ci))
                    .unwrap_or(k),
                k => k,
            })
            .or_else(|| (hcl && head.contains("values")).then_some(FileKind::Helm))
            .or_else(|| sniff(body));
        if let Some(kind) = kind.filter(|k| !matches!(k, FileKind::Shell | FileKind::Code)) {
            out.push(Region {
                start: body_start,
                end: end.saturating_sub(1).max(body_start),
                class: class_of(kind),
                form: Form::Verbatim,
            });
        }
    }
}

/// The kind of the file a heredoc's command line writes: `> FILE`, `>> FILE`, `tee FILE`.
fn target_kind(head: &str) -> Option<FileKind> {
    let words: Vec<&str> = head.split_whitespace().collect();
    let mut target = None;
    for (k, w) in words.iter().enumerate() {
        let w = w.trim_start_matches('1');
        if let Some(rest) = w.strip_prefix(">>").or_else(|| w.strip_prefix('>')) {
            if rest.starts_with('&') {
                continue;
            }
            target = if rest.is_empty() {
                words.get(k + 1).copied()
            } else {
                Some(rest)
            };
        } else if w == "tee" {
            target = words[k + 1..].iter().find(|x| !x.starts_with('-')).copied();
        }
    }
    let t = target?.trim_matches(['"', '\'', ';']);
    // A file named by a variable (`>> "$OUTPUT_FILE"`) is told by the text written to it.
    if t.starts_with("/dev/") || t.starts_with('$') {
        return None;
    }
    let t = t.trim_start_matches("./");
    classify::classify(t).map(|c| c.kind)
}

/// `GITLAB_OMNIBUS_CONFIG="…"` (or `'…'`, or unquoted to the end of the line) in a command line,
/// Dockerfile, environment file or a compose `environment:` list: the `gitlab.rb` settings.
fn omnibus_config_strings(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    for at in memchr::memmem::find_iter(b, b"GITLAB_OMNIBUS_CONFIG") {
        let mut i = at + "GITLAB_OMNIBUS_CONFIG".len();
        if !matches!(b.get(i), Some(b'=')) {
            continue;
        }
        i += 1;
        // Quoted, or unquoted to the end of the line (`- GITLAB_OMNIBUS_CONFIG=external_url …`).
        let (start, q) = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => (i + 1, q),
            _ => (i, b'\n'),
        };
        let mut k = start;
        // A quoted value may span lines.
        while k < b.len() && b[k] != q && (q != b'\n' || b[k] != b'\r') {
            k += if b[k] == b'\\' { 2 } else { 1 };
        }
        out.push(Region {
            start,
            end: k.min(b.len()),
            class: class_of(FileKind::Omnibus),
            form: Form::Verbatim,
        });
    }
}

/// Nix indented strings (`'' … ''`) holding `gitlab.rb` settings, runner TOML or chart values.
fn nix_strings(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(j) = memchr::memmem::find(&b[from..], b"''") {
        let open = from + j;
        // `'''` is an escaped quote inside a string; an opening `''` ends its line.
        let rest_of_line = text[open + 2..].split('\n').next().unwrap_or("");
        if !rest_of_line.trim().is_empty() || b.get(open + 2) == Some(&b'\'') {
            from = open + 2;
            continue;
        }
        let body_start = open + 2;
        let mut k = body_start;
        let close = loop {
            match memchr::memmem::find(&b[k..], b"''") {
                Some(c) if matches!(b.get(k + c + 2), Some(b'\'' | b'$' | b'\\')) => k += c + 3,
                Some(c) => break Some(k + c),
                None => break None,
            }
        };
        let Some(close) = close else {
            break;
        };
        from = close + 2;
        if let Some(kind) = sniff(&text[body_start..close]) {
            out.push(Region {
                start: body_start,
                end: close,
                class: class_of(kind),
                form: Form::Verbatim,
            });
        }
    }
}

/// Ruby `%( … )` strings handed to a YAML loader (`YAML.safe_load(%(`, `YAML.load(%(`).
fn ruby_percent_strings(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    for at in memchr::memmem::find_iter(b, b"%(") {
        let before = text[..at].trim_end();
        if !(before.ends_with("YAML.safe_load(") || before.ends_with("YAML.load(")) {
            continue;
        }
        let start = at + 2;
        let mut depth = 1;
        let mut end = None;
        for (k, &c) in b[start..].iter().enumerate() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        if let Some(kind) = sniff(&text[start..end]) {
            out.push(Region {
                start,
                end,
                class: class_of(kind),
                form: Form::Verbatim,
            });
        }
    }
}

/// The end of the `{ … }` that opens at `open` (the offset of its `}`), braces in strings
/// skipped.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut in_string = false;
    let mut k = open;
    while k < b.len() {
        match b[k] {
            b'\\' if in_string => k += 1,
            b'"' => in_string = !in_string,
            b'{' if !in_string => depth += 1,
            b'}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// Helm values in Terraform: `yamlencode({ … })` passed to `values`, `set { name = "…" }`
/// blocks of a `helm_release`, and `set`/`set_sensitive = { "a.b" = … }` maps of a module.
fn hcl_values(text: &str, out: &mut Vec<Region>) {
    let b = text.as_bytes();
    let helm = class_of(FileKind::Helm);
    for at in memchr::memmem::find_iter(b, b"yamlencode(") {
        let window = &b[at.saturating_sub(60)..at];
        let rest = text[at + 11..].trim_start();
        if memchr::memmem::find(window, b"values").is_none() || !rest.starts_with('{') {
            continue;
        }
        let open = text.len() - rest.len();
        if let Some(close) = matching_brace(b, open) {
            out.push(Region {
                start: open + 1,
                end: close,
                class: helm,
                form: Form::HclObject,
            });
        }
    }
    if !text.contains("helm_release") && !text.contains("set_sensitive") {
        return;
    }
    for l in lines(text) {
        let t = l.text.trim();
        let Some(rest) = ["set_sensitive", "set_string", "set"]
            .iter()
            .find_map(|w| t.strip_prefix(w))
        else {
            continue;
        };
        let rest = rest.trim_start();
        let (rest, form) = match rest.strip_prefix('=') {
            Some(r) => (r.trim_start(), Form::HclObject),
            None => (rest, Form::HclSet),
        };
        if rest != "{" {
            continue;
        }
        let open = l.end - 1;
        if let Some(close) = matching_brace(b, open) {
            out.push(Region {
                start: open + 1,
                end: close,
                class: helm,
                form,
            });
        }
    }
}

/// HCL object lines as YAML keys, in place: `key = v` → `key:  v`, `"a.b" = v,` → `"a.b":  v`,
/// `k = {` → `k:`, lines of closing braces blank.
fn hcl_object_as_yaml(out: &mut [u8], r: &Region) {
    let mut pos = r.start;
    while pos < r.end {
        let line_end = memchr::memchr(b'\n', &out[pos..r.end]).map_or(r.end, |k| pos + k);
        rewrite_hcl_line(&mut out[pos..line_end]);
        pos = line_end + 1;
    }
}

fn rewrite_hcl_line(line: &mut [u8]) {
    let Some(first) = line.iter().position(|c| !c.is_ascii_whitespace()) else {
        return;
    };
    // Where the key ends: after its closing quote, or after its identifier.
    let key_end = if line[first] == b'"' {
        match memchr::memchr(b'"', &line[first + 1..]) {
            Some(k) => first + 1 + k + 1,
            None => return,
        }
    } else {
        let mut k = first;
        while k < line.len() && (line[k].is_ascii_alphanumeric() || matches!(line[k], b'_' | b'-'))
        {
            k += 1;
        }
        k
    };
    let mut eq = key_end;
    while eq < line.len() && line[eq] == b' ' {
        eq += 1;
    }
    if key_end == first || line.get(eq) != Some(&b'=') || line.get(eq + 1) == Some(&b'=') {
        // Not a `key = …` line: closing braces and brackets go.
        if line[first..]
            .iter()
            .all(|c| matches!(c, b'}' | b')' | b']' | b',' | b' ' | b'\t' | b'\r'))
        {
            line[first..].iter_mut().for_each(|c| *c = b' ');
        }
        return;
    }
    line[key_end] = b':';
    for c in &mut line[key_end + 1..=eq] {
        *c = b' ';
    }
    // `k = {` opens a nested object; a trailing `,` separates entries.
    let last = line
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .unwrap_or(eq);
    if matches!(line[last], b'{' | b',') {
        line[last] = b' ';
    }
}

/// Jsonnet object lines as YAML keys, in place: `key: {` → `key:`, `'key': 'v',` → `'key': 'v'`,
/// `key+: [` → `key:`; every other line (braces, `local` bindings, computed keys, expressions)
/// blank, so the keys keep their nesting by indentation.
fn jsonnet_object_as_yaml(out: &mut [u8], r: &Region) {
    let mut pos = r.start;
    // Does the last line that is not blank end where a call's argument starts?
    let mut argument = false;
    while pos < r.end {
        let line_end = memchr::memchr(b'\n', &out[pos..r.end]).map_or(r.end, |k| pos + k);
        // Whether a `local` binds a job is read from the lines after it, for those lines only.
        let local = out[pos..line_end].trim_ascii_start().starts_with(b"local ");
        let job = local && binds_a_job(&out[line_end.min(r.end)..r.end]);
        let line = &mut out[pos..line_end];
        let opens = unkeyed_object(line, argument);
        if !line.trim_ascii().is_empty() {
            argument = ends_an_argument(line);
        }
        rewrite_jsonnet_line(line, job);
        // An object that is no key's value, inside another (a call's argument: a job made by
        // `config.job(name, { … })`), is a key of its own, so that its keys nest under it and
        // not under the last key above it.
        match opens.filter(|_| line.iter().all(u8::is_ascii_whitespace)) {
            Some(Unkeyed::Document) if line.len() >= 3 => line[..3].copy_from_slice(b"---"),
            Some(Unkeyed::Job) if line.len() >= 2 => line[..2].copy_from_slice(b"_:"),
            _ => {}
        }
        pos = line_end + 1;
    }
}

/// What a line that opens an object with no key before it is.
enum Unkeyed {
    /// At the start of a line (`type Args = {`, `const f = (config) => {`): a new document
    /// starts, so that keys above it do not hold what follows.
    Document,
    /// A call's argument (`config.job("name", {`, or `{` after a line that ends in `(` or is
    /// one string and a comma): a job a function makes, a key of its own at the line's start,
    /// so that its keys nest under it and not under the last key above it.
    Job,
}

/// Whether this line opens an object with no key before it, and what it is ([`Unkeyed`]);
/// `argument`: the line before it ends where a call's argument starts.
fn unkeyed_object(line: &[u8], argument: bool) -> Option<Unkeyed> {
    let first = line.iter().position(|c| !c.is_ascii_whitespace())?;
    if line.trim_ascii_end().last() != Some(&b'{') {
        return None;
    }
    if first == 0 {
        Some(Unkeyed::Document)
    } else if argument || memchr::memchr(b'(', line).is_some() {
        Some(Unkeyed::Job)
    } else {
        None
    }
}

/// Does this line end where a call's next argument starts: in `(`, or as one string and a
/// comma (`"report coverage",`)?
fn ends_an_argument(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    t.last() == Some(&b'(')
        || (t.len() >= 3
            && matches!(t[0], b'"' | b'\'')
            && t.ends_with(&[t[0], b','])
            && memchr::memchr(t[0], &t[1..t.len() - 2]).is_none())
}

/// The keywords a CI job's keys start with: an object bound to a name whose first key is one
/// of them is a job.
const JOB_KEYS: [&[u8]; 9] = [
    b"stage",
    b"script",
    b"trigger",
    b"needs",
    b"extends",
    b"image",
    b"rules",
    b"variables",
    b"when",
];

/// Is the first key in `rest` (the lines after a `local x =`, braces and comments aside) one of
/// a job's ([`JOB_KEYS`])?
fn binds_a_job(rest: &[u8]) -> bool {
    rest.split(|&c| c == b'\n')
        .take(8)
        .map(<[u8]>::trim_ascii)
        .find(|l| !(l.is_empty() || l.starts_with(b"//") || l.iter().all(|c| b"{[(".contains(c))))
        .is_some_and(|l| {
            JOB_KEYS
                .iter()
                .any(|k| l.starts_with(k) && matches!(l.get(k.len()), Some(b':' | b'+')))
        })
}

/// A `local` binding's line ([`rewrite_jsonnet_line`]): `local job(name) = {` over a job's
/// keys (`job`) is a key of that name, written where `local` was, so the keys nest under it (an
/// object bound to a name: a job a function makes).
fn rewrite_jsonnet_local(line: &mut [u8], first: usize, job: bool) {
    let blank = |l: &mut [u8]| {
        l.iter_mut()
            .filter(|c| **c != b'\r')
            .for_each(|c| *c = b' ')
    };
    // Another binding ends the keys above it: a new document starts (an object of jobs
    // under computed names, `local tests(name) = { ['test_' + name]: { … } }`, is read
    // as the jobs it holds).
    if !job {
        blank(line);
        if first == 0 && line.len() >= 3 {
            line[..3].copy_from_slice(b"---");
        }
        return;
    }
    let id = first + 6;
    let mut k = id;
    while k < line.len() && (line[k].is_ascii_alphanumeric() || line[k] == b'_') {
        k += 1;
    }
    let eq = memchr::memchr(b'=', &line[k..]).map(|e| k + e);
    if k == id || eq.is_none_or(|e| line.get(e + 1) == Some(&b'=')) {
        blank(line);
        return;
    }
    let name = line[id..k].to_vec();
    blank(line);
    line[first..first + name.len()].copy_from_slice(&name);
    line[first + name.len()] = b':';
}

/// One line of a Jsonnet object as YAML ([`jsonnet_object_as_yaml`]).
fn rewrite_jsonnet_line(line: &mut [u8], job: bool) {
    let blank = |l: &mut [u8]| {
        l.iter_mut()
            .filter(|c| **c != b'\r')
            .for_each(|c| *c = b' ')
    };
    let Some(first) = line.iter().position(|c| !c.is_ascii_whitespace()) else {
        return;
    };
    if line[first..].starts_with(b"local ") {
        return rewrite_jsonnet_local(line, first, job);
    }
    let key_end = match line[first] {
        q @ (b'"' | b'\'') => match memchr::memchr(q, &line[first + 1..]) {
            Some(k) => first + 1 + k + 1,
            None => return blank(line),
        },
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let mut k = first;
            while k < line.len() && (line[k].is_ascii_alphanumeric() || line[k] == b'_') {
                k += 1;
            }
            k
        }
        // A computed key (`['test_' + name]: {`, a job named at run time): a key all the same.
        b'[' => match memchr::memmem::find(&line[first..], b"]:") {
            Some(k) => {
                line[first..=first + k].iter_mut().for_each(|c| *c = b'k');
                first + k + 1
            }
            None => return blank(line),
        },
        _ => return blank(line),
    };
    // `key:`, `key::` (hidden), `key+:` (merged).
    let mut colon = key_end;
    if line.get(colon) == Some(&b'+') {
        line[colon] = b' ';
        colon += 1;
    }
    if line.get(colon) != Some(&b':') || line[first..key_end] == *b"local" {
        return blank(line);
    }
    if line.get(colon + 1) == Some(&b':') {
        line[colon + 1] = b' ';
    }
    // Move the colon next to the key.
    if colon != key_end {
        line[key_end] = b':';
        line[colon] = b' ';
    }
    let last = line
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .unwrap_or(colon);
    if line[last] == b',' {
        line[last] = b' ';
    }
    let last = line
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .unwrap_or(colon);
    if last > colon && matches!(line[last], b'{' | b'[') {
        line[last] = b' ';
    }
    // A value that is an expression (`'.' + lang + '.yml'`, `std.join(…)`), not one literal,
    // is left out: the key stays.
    let value = &line[colon + 1..];
    let Some(v0) = value.iter().position(|c| !c.is_ascii_whitespace()) else {
        return;
    };
    let v = &value[v0..];
    let end = v
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .unwrap_or(0);
    let literal = match v[0] {
        q @ (b'"' | b'\'') => memchr::memchr(q, &v[1..]) == Some(end - 1),
        _ => v[..=end]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')),
    };
    if !literal {
        line[colon + 1..]
            .iter_mut()
            .filter(|c| **c != b'\r')
            .for_each(|c| *c = b' ');
    }
}

/// A `set { name = "a.b" value = … }` block as the YAML key `a.b` at the name's offset.
fn hcl_set_as_yaml(out: &mut [u8], r: &Region) {
    let mut pos = r.start;
    while pos < r.end {
        let line_end = memchr::memchr(b'\n', &out[pos..r.end]).map_or(r.end, |k| pos + k);
        let line = &mut out[pos..line_end];
        let t = String::from_utf8_lossy(line).trim().to_string();
        let is_name = t
            .strip_prefix("name")
            .is_some_and(|r| r.trim_start().starts_with('='));
        if is_name
            && let Some(q1) = memchr::memchr(b'"', line)
            && let Some(q2) = memchr::memchr(b'"', &line[q1 + 1..]).map(|k| q1 + 1 + k)
        {
            for c in &mut line[..=q1] {
                *c = b' ';
            }
            line[q2] = b':';
            for c in &mut line[q2 + 1..] {
                *c = b' ';
            }
        } else {
            line.iter_mut()
                .filter(|c| **c != b'\r')
                .for_each(|c| *c = b' ');
        }
        pos = line_end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every region of every fixture file starts where one of the markers in use for the file
    /// occurs: a file that holds none has no region, whatever its kind (before or after
    /// sniffing: YAML sniffed as Helm values looks for the same markers).
    #[test]
    fn a_file_with_regions_holds_a_marker_in_use() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else {
                    out.push(p);
                }
            }
        }
        let mut files = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
            &mut files,
        );
        let mut with_regions = 0;
        for f in files {
            let path = f.to_string_lossy();
            let (Some(class), Ok(text)) = (classify::classify(&path), std::fs::read_to_string(&f))
            else {
                continue;
            };
            // A script without an extension is sniffed by its `#!` line; the scan looks for
            // regions with the markers of its unsniffed kind (none): it has no regions.
            if class.kind == FileKind::Other {
                continue;
            }
            let sniffed = classify::sniff(class, &text);
            assert_eq!(
                markers_in_use(&path, class),
                markers_in_use(&path, sniffed),
                "{path}"
            );
            if regions_with_markers(&path, sniffed, &text).is_empty() {
                continue;
            }
            with_regions += 1;
            let marked = MARKERS
                .iter()
                .zip(markers_in_use(&path, class))
                .any(|(m, used)| used && text.contains(m));
            assert!(marked, "{path} has regions but none of the markers in use");
        }
        assert!(
            with_regions >= 15,
            "{with_regions} fixture files with regions"
        );
    }

    fn found(path: &str, text: &str) -> Vec<(FileKind, String)> {
        let class = classify::classify(path).unwrap();
        regions(path, class, text)
            .iter()
            .map(|r| (r.class.kind, isolate(text, r).trim().to_string()))
            .collect()
    }

    #[test]
    fn runner_chart_config_is_toml() {
        let t = "terminationGracePeriodSeconds: 60\nrunners:\n  config: |\n    [[runners]]\n      [runners.kubernetes]\n        terminationGracePeriodSeconds = 30\n  tags: x\n";
        let r = found("values.yaml", t);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0, FileKind::RunnerConfig);
        assert!(r[0].1.starts_with("[[runners]]"));
        assert!(r[0].1.ends_with("= 30"));
        let class = classify::classify("values.yaml").unwrap();
        let reg = regions("values.yaml", class, t)[0];
        let inner = isolate(t, &reg);
        assert_eq!(inner.len(), t.len());
        assert_eq!(
            inner.find("terminationGracePeriodSeconds = 30"),
            t.find("terminationGracePeriodSeconds = 30")
        );
    }

    #[test]
    fn omnibus_config_in_compose_and_kubernetes() {
        let t = "services:\n  gitlab:\n    environment:\n      GITLAB_OMNIBUS_CONFIG: |\n        external_url 'https://x'\n        gitlab_rails['a'] = 1\n    ports: [80]\n";
        let r = found("docker-compose.yml", t);
        assert_eq!(
            r,
            [(
                FileKind::Omnibus,
                "external_url 'https://x'\n        gitlab_rails['a'] = 1".to_string()
            )]
        );
        let k = "env:\n  - name: GITLAB_OMNIBUS_CONFIG\n    value: \"gitlab_rails['a'] = 1\"\n";
        assert_eq!(
            found("k8s/gitlab.yaml", k),
            [(FileKind::Omnibus, "gitlab_rails['a'] = 1".to_string())]
        );
    }

    #[test]
    fn files_in_config_maps_and_omnibus_config_in_commands() {
        let t = "data:\n  config.toml: |\n    [[runners]]\n    shell = \"cmd\"\n  entrypoint: |\n    echo\n";
        assert_eq!(
            found("k8s/runner-cm.yaml", t),
            [(
                FileKind::RunnerConfig,
                "[[runners]]\n    shell = \"cmd\"".to_string()
            )]
        );
        let d = "docker run -e GITLAB_OMNIBUS_CONFIG=\"external_url 'x'; gitlab_rails['a'] = 1\" gitlab/gitlab-ce\n";
        assert_eq!(
            found("run.sh", d),
            [(
                FileKind::Omnibus,
                "external_url 'x'; gitlab_rails['a'] = 1".to_string()
            )]
        );
    }

    #[test]
    fn a_ci_job_that_writes_a_child_pipeline() {
        let t = "gen:\n  script:\n    - |\n      cat > child.gitlab-ci.yml <<EOF\n      job:\n        script: x\n      EOF\n";
        assert_eq!(found(".gitlab-ci.yml", t)[0].0, FileKind::Ci);
    }

    #[test]
    fn heredocs_by_target_and_by_content() {
        let t = "#!/bin/sh\ncat > .gitlab-ci.yml <<EOF\njob:\n  script: x\nEOF\ncat <<'EOF' > values.yaml\nrunnerRegistrationToken: x\nEOF\ncat <<EOF\nhello\nEOF\n";
        let r = found("setup.sh", t);
        assert_eq!(
            r.iter().map(|x| x.0).collect::<Vec<_>>(),
            [FileKind::Ci, FileKind::Helm]
        );
        assert_eq!(r[1].1, "runnerRegistrationToken: x");
    }

    #[test]
    fn terraform_helm_release_values() {
        let t = "resource \"helm_release\" \"r\" {\n  values = [yamlencode({\n    runners = {\n      locked = true,\n    }\n    runnerRegistrationToken = var.t\n  })]\n  set {\n    name  = \"rbac.create\"\n    value = true\n  }\n}\n";
        let class = classify::classify("main.tf").unwrap();
        let rs = regions("main.tf", class, t);
        assert_eq!(rs.len(), 2);
        let y = isolate(t, &rs[0]);
        let doc = super::super::yaml::parse(&y);
        let names: Vec<&str> = doc.keys.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["runners", "locked", "runnerRegistrationToken"]);
        assert_eq!(
            &t[doc.keys[2].start..doc.keys[2].end],
            "runnerRegistrationToken"
        );
        let s = isolate(t, &rs[1]);
        let doc = super::super::yaml::parse(&s);
        assert_eq!(doc.keys[0].name, "rbac.create");
        assert_eq!(&t[doc.keys[0].start..doc.keys[0].end], "rbac.create");
    }

    #[test]
    fn text_that_is_not_ascii_is_no_problem() {
        let t = "# Ünïcödé ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓\nresource \"helm_release\" \"r\" {\n  values = [yamlencode({ a = \"é\" })]\n  set {\n    name = \"é.ü\" # ✓\n  }\n}\n";
        let class = classify::classify("main.tf").unwrap();
        for r in regions("main.tf", class, t) {
            assert_eq!(isolate(t, &r).len(), t.len());
        }
        let y = "ü: ✓\nrunners:\n  config: |\n    ✓ [[runners]] ✓\nGITLAB_OMNIBUS_CONFIG=\"✓\\✓\n";
        let class = classify::classify("values.yaml").unwrap();
        for r in regions("values.yaml", class, y) {
            assert_eq!(isolate(y, &r).len(), y.len());
        }
    }

    #[test]
    fn nix_and_ruby_strings() {
        let n = "{\n  x = ''\n    gitlab_rails['a'] = 1\n  '';\n  y = ''\n    echo hi\n  '';\n}\n";
        assert_eq!(found("gitlab.nix", n).len(), 1);
        let rb = "let(:v) do\n  YAML.safe_load(%(\n    global:\n      a: 1\n  ))\nend\n";
        assert_eq!(found("spec/x_spec.rb", rb)[0].0, FileKind::Helm);
    }

    #[test]
    fn argo_and_helmfile_values() {
        let a =
            "spec:\n  source:\n    helm:\n      values: |\n        runnerRegistrationToken: x\n";
        assert_eq!(
            found("apps/runner.yaml", a)[0],
            (FileKind::Helm, "runnerRegistrationToken: x".to_string())
        );
        let h = "releases:\n  - name: runner\n    values:\n      - values/runner.yaml\n      - runnerRegistrationToken: x\n        gitlabUrl: y\n";
        let r = found("helmfile.yaml", h);
        assert_eq!(r.len(), 1);
        assert!(r[0].1.starts_with("runnerRegistrationToken: x"));
    }
}
