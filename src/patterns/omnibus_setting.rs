//! Omnibus `gitlab.rb` settings: `postgres_exporter['per_table_stats'] = true`, with either
//! quote style or symbols, outside comments; optionally only with given values.

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::{Hit, PatternKind, with_values};
use crate::syntax::{FileCtx, FileKind, is_ident_byte, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OmnibusSetting {
    pub key: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
}

impl PatternKind for OmnibusSetting {
    const NAME: &'static str = "omnibus_setting";
    const REQUIRED: &'static [&'static str] = &["key"];
    const OPTIONAL: &'static [&'static str] = &["values", "replace_with"];
    const MATCHES: &'static str = "a `gitlab.rb` setting written `name['key']['sub']`: in gitlab.rb, or assigned in any file that names the platform";

    fn parse(f: &mut Fields) -> Option<Self> {
        let values = f.values();
        let replace_with = f.opt_non_empty("replace_with");
        let key = f.text("key")?;
        let parsed = parse_key(key.value.trim());
        if parsed.is_none() {
            f.check.err_at(
                &key,
                format!("invalid gitlab.rb setting `{}`", key.value),
                Some("write it as in gitlab.rb, e.g. `postgres_exporter['per_table_stats']`".into()),
            );
        }
        Some(OmnibusSetting {
            key: parsed?,
            values: values?,
            replace_with: replace_with?,
        })
    }

    fn anchor(&self) -> String {
        self.key.last().cloned().unwrap_or_default()
    }

    fn literals(&self) -> Vec<String> {
        let mut v = vec![key_text(&self.key)];
        v.extend(self.key.last().cloned());
        v
    }

    fn renamed(&self) -> String {
        key_text(&self.key)
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn describe(&self) -> String {
        with_values(format!("gitlab.rb {}", key_text(&self.key)), &self.values)
    }

    /// `gitlab.rb`, and any other file that writes its statements (a YAML value or an
    /// Ansible variable of many lines, a heredoc, a Nix string, an `echo … >> gitlab.rb`,
    /// Terraform's user data): see [`detect`].
    fn applies(&self, _kind: FileKind) -> bool {
        true
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        detect(&self.key, &self.values, ctx)
    }
}

/// `postgres_exporter['per_table_stats']` from `[postgres_exporter, per_table_stats]`.
pub fn key_text(key: &[String]) -> String {
    let mut s = key[0].clone();
    for k in &key[1..] {
        s.push_str(&format!("['{k}']"));
    }
    s
}

/// `postgres_exporter['per_table_stats']` → `[postgres_exporter, per_table_stats]`.
fn parse_key(s: &str) -> Option<Vec<String>> {
    let open = s.find('[')?;
    let head = &s[..open];
    if !is_ident(head, &[]) {
        return None;
    }
    let mut out = vec![head.to_string()];
    let mut rest = &s[open..];
    while !rest.is_empty() {
        let inner = rest.strip_prefix("['")?;
        let end = inner.find("']")?;
        let key = &inner[..end];
        if key.is_empty() || key.contains(['\'', '[', ']']) {
            return None;
        }
        out.push(key.to_string());
        rest = &inner[end + 2..];
    }
    Some(out)
}

/// Parse `['a']["b"][:c]` at `i`; the keys and where the subscripts end.
fn subscripts(text: &str, mut i: usize) -> (Vec<String>, usize) {
    let b = text.as_bytes();
    let mut keys = Vec::new();
    while b.get(i) == Some(&b'[') {
        let mut j = i + 1;
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        let key = match b.get(j) {
            Some(&q @ (b'\'' | b'"')) => match memchr::memchr(q, &b[j + 1..]) {
                Some(k) => {
                    let key = &text[j + 1..j + 1 + k];
                    j += k + 2;
                    key
                }
                None => break,
            },
            Some(b':') => {
                let s = j + 1;
                let mut e = s;
                while b.get(e).is_some_and(|&c| is_ident_byte(c)) {
                    e += 1;
                }
                j = e;
                &text[s..e]
            }
            _ => break,
        };
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        if b.get(j) != Some(&b']') {
            break;
        }
        keys.push(key.to_string());
        i = j + 1;
    }
    (keys, i)
}

/// The assigned value: to the end of the line, or of a `{ … }` hash across lines.
fn assigned_value(text: &str, i: usize) -> Option<&str> {
    let rest = text[i..].trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix('=')?;
    if rest.starts_with('=') {
        return None;
    }
    let rest = rest.trim_start();
    if rest.starts_with('{') {
        let mut depth = 0;
        for (k, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&rest[..=k]);
                    }
                }
                _ => {}
            }
        }
        return Some(rest);
    }
    // To the end of the line or of the statement (`a['x'] = 1; b['y'] = 2` on one line).
    Some(rest.split(['\n', ';']).next().unwrap_or(""))
}

fn value_matches(value: &str, wanted: &str) -> bool {
    [
        format!("'{wanted}'"),
        format!("\"{wanted}\""),
        format!(":{wanted}"),
    ]
    .iter()
    .any(|form| {
        value.match_indices(form.as_str()).any(|(at, _)| {
            form.starts_with('\'')
                || form.starts_with('"')
                || value
                    .as_bytes()
                    .get(at + form.len())
                    .is_none_or(|&c| !is_ident_byte(c))
        })
    })
}

/// Is the setting at `at..end` (outside `gitlab.rb`) assigned in a statement of a `gitlab.rb`
/// text: one that opens its line, with a value and no sentence after it (a text of many lines
/// held in a YAML value, a heredoc or a Nix string), or one that its line writes into a file
/// named `gitlab.rb` (`echo "…" >> /etc/gitlab/gitlab.rb`)? A statement inside another value
/// (`OTHER=…`, `NOTE: "…"`), printed (`echo "…"`) or told in prose is none.
fn written_elsewhere(text: &str, at: usize, end: usize) -> bool {
    let Some(value) = assigned_value(text, end) else {
        return false;
    };
    let b = text.as_bytes();
    let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |k| k + 1);
    let line_end = memchr::memchr(b'\n', &b[end..]).map_or(b.len(), |k| end + k);
    let opens_line = b[line_start..at].iter().all(|c| matches!(c, b' ' | b'\t'));
    // A sentence goes on after the value: three words of letters that are not the value's.
    let value = value.split(" #").next().unwrap_or(value);
    let sentence = value
        .split_ascii_whitespace()
        .skip(1)
        .filter(|w| w.bytes().all(|c| c.is_ascii_alphabetic()))
        .count()
        >= 3;
    (opens_line && !sentence)
        || memchr::memmem::find(&b[end..line_end], b"gitlab.rb").is_some()
}

/// The setting in `gitlab.rb`; in any other file, the statement as `gitlab.rb` writes it
/// ([`written_elsewhere`]) in a file that names the platform: a gitlab.rb text kept elsewhere
/// (an Ansible variable `gitlab_extra_config: |`, `cat >> /etc/gitlab/gitlab.rb <<EOF`,
/// NixOS's `extraGitlabRb`, `echo "…" >> /etc/gitlab/gitlab.rb`). A setting read or compared
/// there is no such statement.
fn detect(key: &[String], values: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let text = ctx.src.text;
    let shown = key_text(key);
    let omnibus = ctx.src.class.kind == FileKind::Omnibus;
    let names_platform = std::cell::LazyCell::new(|| {
        crate::syntax::graphql_types::names_gitlab(ctx.src.path, text)
    });
    let mut out = Vec::new();
    for at in ctx.word_offsets(&key[0], WordBytes::Ident) {
        if ctx.src.in_comment(at) {
            continue;
        }
        let (keys, end) = subscripts(text, at + key[0].len());
        if keys != key[1..] || text.as_bytes().get(end) == Some(&b'[') {
            continue;
        }
        if !(omnibus || (written_elsewhere(text, at, end) && *names_platform)) {
            continue;
        }
        if !values.is_empty() {
            let Some(value) = assigned_value(text, end) else {
                continue;
            };
            // In a template, what the template fills in is unknown (`"{{ x | default('v') }}"`).
            let value = if ctx.src.class.templated {
                crate::syntax::yaml::mask_templates(value)
            } else {
                value.to_string()
            };
            if !values.iter().any(|v| value_matches(&value, v)) {
                continue;
            }
        }
        out.push(Hit::new(at, end, shown.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts_in_all_spellings() {
        let t = "x['a'][\"b\"][:c] = 1";
        let (keys, end) = subscripts(t, 1);
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(&t[end..], " = 1");
    }

    #[test]
    fn keys_parse() {
        assert_eq!(
            parse_key("postgres_exporter['flags']['collector.stat_user_tables']").unwrap(),
            vec!["postgres_exporter", "flags", "collector.stat_user_tables"]
        );
        assert!(parse_key("postgres_exporter").is_none());
        assert!(parse_key("x['a'").is_none());
        assert!(parse_key("x['']").is_none());
    }

    #[test]
    fn values() {
        assert!(value_matches(" \"sidekiq\"", "sidekiq"));
        assert!(value_matches("{ 'swift' => { 'a' => 1 } }", "swift"));
        assert!(!value_matches("\"webhook\"", "sidekiq"));
        assert!(!value_matches(":sidekiqs", "sidekiq"));
        assert_eq!(assigned_value(" == 'x'", 0), None);
    }
}
