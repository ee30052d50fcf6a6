//! An argument of a named block of infrastructure code: the arguments of an Ansible module
//! task (`community.general.gitlab_runner:` and the keys under it), of a Terraform resource or
//! object (`resource "gitlab_runner" "x" { registration_token = … }`), or, with no block, an
//! argument anywhere in a file of a tool (`'registration-token' => …` where `gitlab_ci_runner`
//! is written). Optionally only when another argument is in the same block (`tag_list` counts
//! only where `registration_token` is set: without it the module creates the runner another
//! way).
//!
//! An argument is a key as each of these languages writes it: `name:` (YAML, Ruby symbols),
//! `name =` (HCL, Nix), `name =>` (Puppet, Ruby hashes), quoted or not, at the start of a line or
//! after `{` or `,`. A block is a line naming it that opens either a brace block (`… {`) or an
//! indented YAML mapping (`name:` that is a key of a list item: an Ansible task). The argument
//! must be a direct child of the block.

use serde::Serialize;

use super::check::Fields;
use super::{Hit, PatternKind};
use crate::syntax::{FileCtx, FileKind};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IacArgument {
    pub argument: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// The keys the argument counts under (`gitlab_runner:` above `registration_token:` in a
    /// Salt pillar or Ansible vars, `default['gitlab-runner']['registration-token']` in Chef
    /// attributes, `"gitlab_runner": {` in JSON); with `context`, only in a file naming one of
    /// its literals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// With `parents`: words of other systems' keys (`github`, `actions`): the argument under a
    /// key holding one is theirs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_under: Vec<String>,
    /// With `when` in a file of no `blocks`: a key written under another key counts only under
    /// this one (the runner chart's `runners:`; `tags:` of a CI job printed by the same script is
    /// not the chart's). A key at the top level counts as well.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

const KEY: &str = "an argument is letters, digits, `_` and `-`, e.g. `registration_token`";

impl PatternKind for IacArgument {
    const NAME: &'static str = "iac_argument";
    const REQUIRED: &'static [&'static str] = &["argument"];
    const OPTIONAL: &'static [&'static str] =
        &["blocks", "context", "when", "parents", "not_under", "within"];
    const MATCHES: &'static str = "an argument (`name:`, `name =`, `name =>`) of a named block (an Ansible module task, a Terraform resource), or of a file naming a `context`, optionally only `when` another argument is in the same block; with `parents`, a key under one of those keys (`gitlab_runner:` above it, `['gitlab_runner']['name']`, `gitlab_runner.name`), in a file naming a `context` if given, and under no key naming one of `not_under`; with `within`, a key written under another key only under that one";

    fn parse(f: &mut Fields) -> Option<Self> {
        let argument = f.text("argument")?;
        let argument = f.check.ident(&argument, "argument", &['-'], KEY);
        let blocks = f.list("blocks")?;
        let blocks = f.check.strings(&blocks, "block");
        let context = f.list("context")?;
        let context = f.check.strings(&context, "context literal");
        let when = match f.opt_text("when")? {
            None => None,
            Some(w) => Some(f.check.ident(&w, "argument", &['-'], KEY)?),
        };
        let parents = f.list("parents")?;
        let parents = f.check.strings(&parents, "parent key");
        let not_under = f.list("not_under")?;
        let not_under = f.check.strings(&not_under, "key word")?;
        let within = match f.opt_text("within")? {
            None => None,
            Some(w) => Some(f.check.ident(&w, "key", &['-'], KEY)?),
        };
        let (blocks, context, parents) = (blocks?, context?, parents?);
        // Parent keys alone place the argument; else blocks or a context, one of the two.
        let by_parents = !parents.is_empty() && blocks.is_empty();
        if !by_parents && blocks.is_empty() == context.is_empty() {
            let kind = f.kind().clone();
            f.check.err_at(
                &kind,
                "an `iac_argument` pattern needs either `blocks` or `context`",
                Some(
                    "give `blocks` (the blocks the argument belongs to) or `context` (literals a file of the tool contains)"
                        .into(),
                ),
            );
            return None;
        }
        Some(IacArgument {
            argument: argument?,
            blocks,
            context,
            when,
            parents,
            not_under,
            within,
        })
    }

    fn anchor(&self) -> String {
        self.argument.clone()
    }

    /// The blocks (or the tool's context literals): rarer than an argument such as `locked`.
    fn anchors(&self) -> Vec<String> {
        if !self.parents.is_empty() {
            self.parents.clone()
        } else if self.blocks.is_empty() {
            self.context.clone()
        } else {
            self.blocks.clone()
        }
    }

    fn context_anchors(&self) -> Vec<String> {
        vec![self.argument.clone()]
    }

    /// With `parents`, the context literals the file must name.
    fn searched(&self) -> Vec<String> {
        if self.parents.is_empty() {
            Vec::new()
        } else {
            self.context.clone()
        }
    }

    fn literals(&self) -> Vec<String> {
        let mut v = vec![self.argument.clone()];
        v.extend(self.blocks.iter().cloned());
        v
    }

    fn describe(&self) -> String {
        let mut s = format!("argument `{}`", self.argument);
        if !self.parents.is_empty() {
            s.push_str(&format!(" under {}", self.parents.join(" or ")));
            if !self.context.is_empty() {
                s.push_str(&format!(" in a file naming {}", self.context.join(" or ")));
            }
        } else if self.blocks.is_empty() {
            s.push_str(&format!(" in a file naming {}", self.context.join(" or ")));
            if let Some(w) = &self.when {
                s.push_str(&format!(", with `{w}` in the same file"));
            }
        } else {
            s.push_str(&format!(" of {}", self.blocks.join(" or ")));
            if let Some(w) = &self.when {
                s.push_str(&format!(", with `{w}` in the same block"));
            }
        }
        s
    }

    /// With `parents`, JSON too (classified with monitoring files: a Chef role's attributes).
    fn applies(&self, kind: FileKind) -> bool {
        use FileKind::*;
        matches!(kind, Yaml | Helm | Shell | Code | Ci)
            || (!self.parents.is_empty() && kind == Monitoring)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        if !self.parents.is_empty() {
            return self.under_parents(ctx);
        }
        let text = ctx.src.text;
        let keep = |at: &usize| !ctx.src.in_comment(*at);
        // With `within`, a key under another key only under that one (top-level keys stay).
        let placed = |at: &usize| {
            self.within.as_deref().is_none_or(|w| {
                ancestors(text, *at, 1)
                    .first()
                    .is_none_or(|(k, _)| k.trim_matches(['"', '\'']) == w)
            })
        };
        let hits: Vec<usize> = key_offsets(text, &self.argument)
            .filter(keep)
            .filter(placed)
            .filter(|&at| !assigned_a_command_output(text.as_bytes(), at + self.argument.len()))
            .collect();
        let whens: Vec<usize> = match &self.when {
            Some(w) => key_offsets(text, w).filter(keep).collect(),
            None => Vec::new(),
        };
        let found: Vec<usize> = if self.blocks.is_empty() {
            // A value's path set one by one (`set { name = "runners.tags" }`) counts where the
            // `when` value is set (either way); a plain key only where the `when` key is
            // (`tags = [...]` of a cloud instance beside a Helm release's set blocks is not).
            let set_hits: Vec<usize> = set_path_offsets(text, &self.argument)
                .into_iter()
                .filter(keep)
                .collect();
            let set_whens = match &self.when {
                Some(w) if !set_hits.is_empty() => {
                    set_path_offsets(text, w).into_iter().filter(keep).count()
                }
                _ => 0,
            };
            let unconditional = self.when.is_none();
            let mut found = Vec::new();
            if unconditional || !whens.is_empty() {
                found.extend(hits);
            }
            if unconditional || !whens.is_empty() || set_whens > 0 {
                found.extend(set_hits);
            }
            found.sort_unstable();
            found
        } else {
            if hits.is_empty() {
                return Vec::new();
            }
            let blocks: Vec<Block> = self
                .blocks
                .iter()
                .flat_map(|name| blocks(text, name))
                .filter(|b| keep(&b.start))
                .collect();
            hits.into_iter()
                .filter(|&at| {
                    blocks.iter().any(|b| {
                        b.child(text, at)
                            && (self.when.is_none() || whens.iter().any(|&w| b.child(text, w)))
                    })
                })
                .collect()
        };
        found
            .into_iter()
            .map(|at| Hit::new(at, at + self.argument.len(), self.argument.as_str()))
            .collect()
    }
}

impl IacArgument {
    /// The argument under one of its `parents` (any of the four keys above it, as a word of
    /// the key: `gitlab_runner`, `ss-runners`; none of them naming one of `not_under`), or a
    /// path that names one just before it (`['gitlab_runner']['arg']`, `runner.arg`,
    /// `gitlab-runner:arg`); with `when`, only where that key has the same parent.
    fn under_parents(&self, ctx: &FileCtx) -> Vec<Hit> {
        let text = ctx.src.text;
        if !self.context.is_empty() && !self.context.iter().any(|c| ctx.contains(c)) {
            return Vec::new();
        }
        let named = |key: &str, words: &[String]| words.iter().any(|w| key_has_word(key, w));
        // A map given its own name and handed to the template by it (`vars = { … }` then
        // `templatefile("svc.sh", local.vars)`) is the template's variables too.
        let handed = match self.parents.iter().any(|p| TEMPLATE_FUNCTION.starts_with(p.as_str())) {
            true => maps_handed_to_template(text),
            false => Vec::new(),
        };
        let parent = |key: &str| named(key, &self.parents) || handed.contains(&key);
        let parented = |key: &str| -> Vec<(usize, usize)> {
            let keys = key_offsets(text, key).filter_map(|at| {
                let chain = ancestors(text, at, 4);
                let (_, parent_at) = *chain.first()?;
                let under = chain.iter().any(|(k, _)| parent(k));
                let other = chain.iter().any(|(k, _)| named(k, &self.not_under));
                (under && !other).then_some((at, parent_at))
            });
            let paths = path_offsets(text, key, &self.parents)
                .filter(|&(_, parent)| !named(parent, &self.not_under))
                .map(|(at, _)| (at, at));
            keys.chain(paths)
                .filter(|&(at, _)| !ctx.src.in_comment(at))
                .collect()
        };
        let mut found = parented(&self.argument);
        if let Some(w) = &self.when {
            // The same parent, and the same item of a YAML sequence under it (`runners:` with
            // one `- name:` a runner): another item's key is another runner's.
            let whens: Vec<(usize, Option<usize>)> = parented(w)
                .into_iter()
                .map(|(at, p)| (p, sequence_item(text, at)))
                .collect();
            found.retain(|&(at, parent)| {
                let item = sequence_item(text, at);
                whens.iter().any(|&(p, i)| p == parent && i == item)
            });
        }
        found
            .into_iter()
            .map(|(at, _)| Hit::new(at, at + self.argument.len(), self.argument.as_str()))
            .collect()
    }
}

/// Is `word` a word of `key` (`runner` of `gitlab_runner`, `ss-runners`' `runners`,
/// `gitlabRunner`'s `runner`; `gitlab_runner` of `gitlab-runner`), compared without case and
/// with `-` and `_` alike?
fn key_has_word(key: &str, word: &str) -> bool {
    let norm = |c: u8| if c == b'-' { b'_' } else { c.to_ascii_lowercase() };
    let (k, w) = (key.as_bytes(), word.as_bytes());
    if w.is_empty() || k.len() < w.len() {
        return false;
    }
    (0..=k.len() - w.len()).any(|i| {
        let starts = i == 0
            || matches!(k[i - 1], b'-' | b'_' | b'.')
            || (k[i - 1].is_ascii_lowercase() && k[i].is_ascii_uppercase());
        let e = i + w.len();
        let ends = e == k.len()
            || matches!(k[e], b'-' | b'_' | b'.')
            || (k[e - 1].is_ascii_lowercase() && k[e].is_ascii_uppercase());
        starts && ends && k[i..e].iter().zip(w).all(|(&a, &b)| norm(a) == norm(b))
    })
}

/// The keys above a key at `at`, nearest first (at most `max`), each with where it is written:
/// the key before a `{` that opens an inline mapping around it on its line
/// (`gitlab_runner: { registration_token: x }`), then the keys of the lines above it that are
/// less indented, each less than the one before (YAML; JSON, Ruby, HCL, Nix, Python written one
/// key a line). Blank, comment and template lines are passed over; at most 400 lines are read.
fn ancestors(text: &str, at: usize, max: usize) -> Vec<(&str, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let line_start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let mut depth = 0i32;
    for i in (line_start..at).rev() {
        match b[i] {
            b'}' => depth += 1,
            b'{' if depth == 0 => {
                out.extend(opening_key(text, line_start, i));
                break;
            }
            b'{' => depth -= 1,
            _ => {}
        }
    }
    let indent_of = |line: &str| line.bytes().take_while(|&c| matches!(c, b' ' | b'\t' | b'-')).count();
    let mut indent = indent_of(&text[line_start..at]);
    let mut end = line_start;
    for _ in 0..400 {
        if end == 0 || indent == 0 || out.len() >= max {
            break;
        }
        let s = b[..end - 1].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let line = &text[s..end - 1];
        end = s;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with("{%") {
            continue;
        }
        let ind = indent_of(line);
        if ind < indent {
            indent = ind;
            out.extend(opening_key(text, s, s + line.trim_end().len()));
        }
    }
    out.truncate(max);
    out
}

/// Where the YAML sequence item that holds the key at `at` starts: the line of its `- ` at the
/// key's indent (the key's own line when it opens the item), found by reading up over the
/// item's other keys; `None` outside a sequence item (a mapping's key, HCL, JSON, Ruby).
/// At most 400 lines are read.
fn sequence_item(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let line_start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let head = &text[line_start..at];
    if head.trim_start().starts_with('-') {
        return Some(line_start);
    }
    let indent_of = |line: &str| line.bytes().take_while(|&c| matches!(c, b' ' | b'\t' | b'-')).count();
    let indent = indent_of(head);
    let mut end = line_start;
    for _ in 0..400 {
        if end == 0 {
            return None;
        }
        let s = b[..end - 1].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let line = &text[s..end - 1];
        end = s;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ind = indent_of(line);
        if ind < indent {
            return None;
        }
        if ind == indent && line.trim_start().starts_with('-') {
            return Some(s);
        }
    }
    None
}

/// The function of Terraform that renders a template with a map of variables.
const TEMPLATE_FUNCTION: &str = "templatefile(";

/// The names of the local maps handed whole to a template (`templatefile("svc.sh",
/// local.svc_vars)`: `svc_vars`), each read within the call's first 300 bytes.
fn maps_handed_to_template(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, TEMPLATE_FUNCTION.as_bytes()) {
        let args = at + TEMPLATE_FUNCTION.len();
        let end = (args + 300).min(b.len());
        let close = memchr::memchr(b')', &b[args..end]).map_or(end, |i| args + i);
        let call = &text[args..close];
        for (i, _) in call.match_indices("local.") {
            let name = &call[i + "local.".len()..];
            let n = name.bytes().take_while(|&c| is_name_byte(c)).count();
            let whole = i == 0 || !is_name_byte(call.as_bytes()[i - 1]);
            if n > 0 && whole && !name[n..].starts_with(['.', '[']) {
                out.push(&name[..n]);
            }
        }
    }
    out
}

/// The key written before `open` on the line that starts at `line_start` (`name:`, `'name' =>`,
/// `"name": {`, `name = {`), when nothing but an opening `{` or `[`... follows it up to `open`
/// (`open` is the `{` or the line's end); with where it starts.
fn opening_key(text: &str, line_start: usize, open: usize) -> Option<(&str, usize)> {
    let head = text[line_start..open].trim_end();
    let mut head = head.strip_suffix('{').map_or(head, str::trim_end);
    // The variables of a Terraform template (`templatefile("user_data.sh", {` and its keys
    // below): the map is named by the function that renders it.
    let name = &TEMPLATE_FUNCTION[..TEMPLATE_FUNCTION.len() - 1];
    if let Some(f) = head.strip_suffix(',').and_then(|h| h.rfind(TEMPLATE_FUNCTION)) {
        return Some((name, line_start + f));
    }
    // A Terraform data source's block (`data "template_file" "runner" {`, which renders a
    // template with its `vars = { … }`): named by its type.
    let lead = head.trim_start();
    if let Some(rest) = lead.strip_prefix("data ") {
        let label = rest.trim_start();
        let kind = label.strip_prefix('"').and_then(|l| l.split_once('"'));
        if let Some((kind, _)) = kind.filter(|(k, _)| !k.is_empty() && k.bytes().all(is_name_byte)) {
            return Some((kind, line_start + (head.len() - label.len()) + 1));
        }
    }
    for sep in ["=>", ":", "="] {
        if let Some(h) = head.strip_suffix(sep) {
            head = h.trim_end();
            let (head, quoted) = match head.strip_suffix(['"', '\'']) {
                Some(h) => (h, true),
                None => (head, false),
            };
            let n = head.bytes().rev().take_while(|&c| is_name_byte(c) || c == b'.').count();
            let key_at = head.len() - n;
            if n == 0 || (quoted && !head[..key_at].ends_with(['"', '\''])) {
                return None;
            }
            return Some((&head[key_at..], line_start + key_at));
        }
    }
    // An HCL block named by one word (`locals {`, `runners {`): its keys are under that word
    // (a module's `tags = var.tags` in `locals { }` is no chart value's).
    let word = head.trim_start();
    (!word.is_empty() && word.bytes().all(is_name_byte))
        .then(|| (word, line_start + (head.len() - word.len())))
}

/// Offsets of `key` written as a path under one of `parents`: `['parent']['key']`,
/// `["parent"]["key"]`, `parent["key"]`, `parent.key`, `parent:key` (a Salt pillar path),
/// `parent[:key]`.
fn path_offsets<'t>(
    text: &'t str,
    key: &'t str,
    parents: &'t [String],
) -> impl Iterator<Item = (usize, &'t str)> + 't {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, key.as_bytes()).filter_map(move |at| {
        path_parent(b, at, key.len(), parents).map(|p| (at, &text[p.0..p.1]))
    })
}

/// The parent written just before the key at `at` (`len` bytes) as a path, as its range, when
/// it is a key word of one of `parents`.
fn path_parent(b: &[u8], at: usize, len: usize, parents: &[String]) -> Option<(usize, usize)> {
    let end = at + len;
        if b.get(end).is_some_and(|&c| is_name_byte(c)) {
            return None;
        }
        // Back over the key's opening: a quote, `[`, `[:`, `.` or `:`.
        let mut s = at;
        if s > 0 && matches!(b[s - 1], b'"' | b'\'') {
            s -= 1;
        }
        if s > 0 && b[s - 1] == b':' && s > 1 && b[s - 2] == b'[' {
            s -= 1;
        }
        let sep = s.checked_sub(1).map(|i| b[i])?;
        if !matches!(sep, b'[' | b'.' | b':') {
            return None;
        }
        let mut p = s - 1;
        // `[` follows the parent's own subscript (`['parent']['key']`) or its bare name
        // (`var.parent["key"]`, `cfg[:key]`).
        if sep == b'[' {
            match p.checked_sub(1).map(|i| b[i]) {
                Some(b']') => p -= 1,
                Some(c) if is_name_byte(c) => {}
                _ => return None,
            }
        }
        let close_quote = p > 0 && matches!(b[p - 1], b'"' | b'\'');
        let name_end = if close_quote { p - 1 } else { p };
        let n = b[..name_end].iter().rev().take_while(|&&c| is_name_byte(c)).count();
        let name = std::str::from_utf8(&b[name_end - n..name_end]).ok()?;
        parents
            .iter()
            .any(|parent| key_has_word(name, parent))
        .then_some((name_end - n, name_end))
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-')
}

/// Offsets of `key` written as a key: `key:`, `key =`, `key =>`, optionally quoted, at the
/// start of a line (after indentation or `- `) or after `{`, `(` or `,`.
/// Is the name that ends at `end` a script's variable given the output of a command
/// (`runner_registration_token=$(curl … | jq -r .token)`)? A value a script computes as it runs,
/// not a setting a deployment gives: the use is where the variable is handed on.
fn assigned_a_command_output(b: &[u8], end: usize) -> bool {
    let rest = &b[end.min(b.len())..];
    let Some(after) = rest.strip_prefix(b"=") else {
        return false;
    };
    let after = after.strip_prefix(b"\"").unwrap_or(after);
    after.starts_with(b"$(") || after.starts_with(b"`")
}

fn key_offsets<'t>(text: &'t str, key: &'t str) -> impl Iterator<Item = usize> + 't {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, key.as_bytes()).filter(move |&at| {
        let mut s = at;
        let mut quote = None;
        if s > 0 && matches!(b[s - 1], b'"' | b'\'') {
            quote = Some(b[s - 1]);
            s -= 1;
        }
        if s > 0 && (is_name_byte(b[s - 1]) || b[s - 1] == b'.') {
            return false;
        }
        let line_start = b[..s].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let before = b[line_start..s].trim_ascii();
        let before_ok = before.is_empty()
            || before == b"-"
            || before.ends_with(b"{")
            || before.ends_with(b"(")
            || before.ends_with(b",");
        if !before_ok {
            return false;
        }
        let mut e = at + key.len();
        if let Some(q) = quote {
            if b.get(e) != Some(&q) {
                return false;
            }
            e += 1;
        } else if b.get(e).is_some_and(|&c| is_name_byte(c) || c == b'.') {
            return false;
        }
        while matches!(b.get(e), Some(b' ' | b'\t')) {
            e += 1;
        }
        match b.get(e) {
            Some(b':') => b.get(e + 1).is_none_or(|c| c.is_ascii_whitespace()),
            Some(b'=') => !matches!(b.get(e + 1), Some(b'=' | b'~')),
            _ => false,
        }
    })
}

/// Offsets of `key` as the last part of a value's path set one by one (the whole path, or
/// under `runners.`), as Helm's users write it: Terraform's `set { name = "runners.tags" … }` (and `set_sensitive`), helmfile's and
/// Argo CD's `- name: runners.tags`, the CLI's `--set runners.tags=…` and `--set-string`.
fn set_path_offsets(text: &str, key: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let path_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    memchr::memmem::find_iter(b, key.as_bytes())
        .filter(|&at| {
            let end = at + key.len();
            // The path ends with the key: a quote, `=` (the CLI), or the line's end follows.
            if !matches!(b.get(end), None | Some(b'"' | b'\'' | b'=' | b'\n' | b'\r' | b' ')) {
                return false;
            }
            let start = at - b[..at].iter().rev().take_while(|&&c| path_byte(c)).count();
            // The chart's registration values are the runners' (`runners.tags`, a parent
            // chart's `gitlab-runner.runners.tags`) or top-level (`runnerRegistrationToken`):
            // another object's `image.tags` is not one of them.
            if at > start && !text[start..at].ends_with("runners.") {
                return false;
            }
            let line_start = memchr::memrchr(b'\n', &b[..start]).map_or(0, |i| i + 1);
            let before = text[line_start..start].trim_end_matches(['"', '\'']).trim_end();
            let words: Vec<&str> = before.split_whitespace().collect();
            let words = words.strip_prefix(&["-"]).unwrap_or(&words);
            let named = matches!(words, ["name", "="] | ["name:"] | ["name", ":"]);
            let cli = before.ends_with("--set") || before.ends_with("--set-string");
            (named && !matches!(b.get(end), Some(b'='))) || (cli && b.get(end) == Some(&b'='))
        })
        .collect()
}

/// A block: where its name is written, and what it holds.
struct Block {
    start: usize,
    kind: BlockKind,
}

enum BlockKind {
    /// `{` at `open` and its matching `}` at `close`.
    Brace { open: usize, close: usize },
    /// The lines after the key, from `body` to `end`, whose keys sit at `indent`.
    Yaml {
        body: usize,
        end: usize,
        indent: usize,
    },
}

impl Block {
    /// Is `at` a key directly in this block (not in a nested one)?
    fn child(&self, text: &str, at: usize) -> bool {
        let b = text.as_bytes();
        match self.kind {
            BlockKind::Brace { open, close } => {
                if at <= open || at >= close {
                    return false;
                }
                let mut depth = 0i32;
                for &c in &b[open + 1..at] {
                    match c {
                        b'{' | b'[' | b'(' => depth += 1,
                        b'}' | b']' | b')' => depth -= 1,
                        _ => {}
                    }
                }
                depth == 0
            }
            BlockKind::Yaml { body, end, indent } => {
                if at < body || at >= end {
                    return false;
                }
                let line_start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                let col = at - line_start;
                col == indent || col == indent + 1 && matches!(b[at - 1], b'"' | b'\'')
            }
        }
    }
}

fn indent_of(line: &[u8]) -> usize {
    line.iter().take_while(|&&c| c == b' ').count()
}

/// The blocks named `name`: a line holding the name (as a word) that ends with `{`, or a YAML
/// key `name:` with nothing after it that is a key of a list item.
fn blocks(text: &str, name: &str) -> Vec<Block> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, name.as_bytes()) {
        let after = at + name.len();
        if at > 0 && is_name_byte(b[at - 1]) || b.get(after).is_some_and(|&c| is_name_byte(c)) {
            continue;
        }
        let line_end = memchr::memchr(b'\n', &b[after..]).map_or(b.len(), |i| after + i);
        let rest = b[after..line_end].trim_ascii_end();
        if rest.ends_with(b"{") {
            let open = after + rest.len() - 1;
            if let Some(close) = matching_brace(b, open) {
                out.push(Block {
                    start: at,
                    kind: BlockKind::Brace { open, close },
                });
            }
            continue;
        }
        let rest = rest.strip_prefix(b"\"").unwrap_or(rest);
        if rest != b":" {
            continue;
        }
        let line_start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let key_indent = at - line_start;
        let lead = &b[line_start..at];
        let lead = lead.strip_suffix(b"\"").unwrap_or(lead);
        if !lead.iter().all(|&c| c == b' ' || c == b'-') || !in_list_item(b, line_start, lead) {
            continue;
        }
        // The block's lines: more indented than the key.
        let body = (line_end + 1).min(b.len());
        let mut indent = None;
        let mut end = body;
        let mut i = body;
        while i < b.len() {
            let e = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            let line = &b[i..e];
            if !line.trim_ascii().is_empty() {
                let ind = indent_of(line);
                if ind <= key_indent {
                    break;
                }
                indent.get_or_insert(ind);
            }
            end = e;
            i = e + 1;
        }
        if let Some(indent) = indent {
            out.push(Block {
                start: at,
                kind: BlockKind::Yaml { body, end, indent },
            });
        }
    }
    out
}

/// Is the YAML key whose line starts at `line_start` (with `lead` before it) a key of a list
/// item: `- key:` itself, or a sibling of a `- other:` line above it?
fn in_list_item(b: &[u8], line_start: usize, lead: &[u8]) -> bool {
    if lead.trim_ascii() == b"-" {
        return true;
    }
    let indent = lead.len();
    let mut end = line_start;
    while end > 0 {
        let s = b[..end - 1].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let line = &b[s..end - 1];
        end = s;
        let t = line.trim_ascii();
        if t.is_empty() || t.starts_with(b"#") {
            continue;
        }
        let ind = indent_of(line);
        if ind == indent {
            continue;
        }
        return ind + 2 == indent && t.starts_with(b"- ");
    }
    false
}

/// The `}` that closes the `{` at `open`.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(t: &str, k: &str) -> Vec<usize> {
        key_offsets(t, k).collect()
    }

    #[test]
    fn keys_in_every_language() {
        assert_eq!(keys("  tag_list: [a]\n", "tag_list"), [2]);
        assert_eq!(keys("  tag_list = [\"a\"]\n", "tag_list"), [2]);
        assert_eq!(keys("  'tag-list' => 'a',\n", "tag-list"), [3]);
        assert_eq!(keys("{ \"tag_list\": 1, tag_list: 2 }", "tag_list"), [3, 17]);
        for t in [
            "x.tag_list = 1",
            "if tag_list == 1",
            "echo tag_list: a",
            "my_tag_list: 1",
            "tag_list_x: 1",
            "tag_list:x",
        ] {
            assert!(keys(t, "tag_list").is_empty(), "{t}");
        }
    }

    #[test]
    fn keys_above_a_key_and_paths() {
        assert!(key_has_word("gitlab_runner", "runner"));
        assert!(key_has_word("ss-runners", "runners"));
        assert!(key_has_word("gitlabRunner", "runner"));
        assert!(key_has_word("GitHub_Runner", "github"));
        assert!(!key_has_word("runnerless", "runner"));
        assert!(!key_has_word("prerunner", "runner"));
        let t = "a:\n  b-runners:\n    # note\n    c:\n      - x: 1\n        token: t\n";
        let at = t.find("token").unwrap();
        let keys: Vec<&str> = ancestors(t, at, 4).into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["c", "b-runners", "a"]);
        let j = "{\n  \"gitlab-runner\": {\n    \"token\": 1\n  }\n}";
        let keys: Vec<&str> = ancestors(j, j.find("token").unwrap() - 1, 4).into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["gitlab-runner"]);
        let inline = "runner: { url: u, token: t }";
        assert_eq!(ancestors(inline, inline.find("token").unwrap(), 4)[0].0, "runner");
        let parents = ["runner".to_string()];
        for (t, found) in [
            ("x['gitlab_runner']['token'] = 1", true),
            ("{{ pillar.runner.token }}", true),
            ("pillar.get('gitlab-runner:token')", true),
            ("node[:runner][:token]", true),
            ("var.gitlab_runner[\"token\"]", true),
            ("x['consul']['token']", false),
            ("var.settings[\"token\"]", false),
            ("[\"token\"]", false),
            ("my.token", false),
        ] {
            let at = t.find("token").unwrap();
            assert_eq!(path_parent(t.as_bytes(), at, 5, &parents).is_some(), found, "{t}");
        }
    }

    #[test]
    fn yaml_blocks_are_keys_of_list_items() {
        let t = "- name: a\n  community.general.gitlab_runner:\n    locked: false\n    x:\n      locked: true\n";
        let bs = blocks(t, "community.general.gitlab_runner");
        assert_eq!(bs.len(), 1);
        let first = t.find("locked").unwrap();
        let nested = t.rfind("locked").unwrap();
        assert!(bs[0].child(t, first));
        assert!(!bs[0].child(t, nested));
        // A variable named like the module is not a task.
        assert!(blocks("gitlab_runner:\n  locked: false\n", "gitlab_runner").is_empty());
        assert!(blocks("vars:\n  gitlab_runner:\n    locked: false\n", "gitlab_runner").is_empty());
        assert_eq!(blocks("- gitlab_runner:\n    locked: false\n", "gitlab_runner").len(), 1);
    }

    #[test]
    fn brace_blocks_hold_their_direct_arguments() {
        let t = "resource \"gitlab_runner\" \"r\" {\n  locked = true\n  x = {\n    locked = 1\n  }\n}\nlocked = 2\n";
        let bs = blocks(t, "resource \"gitlab_runner\"");
        assert_eq!(bs.len(), 1);
        let offs: Vec<usize> = key_offsets(t, "locked").collect();
        assert_eq!(offs.len(), 3);
        assert!(bs[0].child(t, offs[0]));
        assert!(!bs[0].child(t, offs[1]));
        assert!(!bs[0].child(t, offs[2]));
        // Another resource type with the same prefix is not the block.
        assert!(blocks("resource \"gitlab_runner_x\" \"r\" {\n}\n", "resource \"gitlab_runner\"").is_empty());
    }
}
