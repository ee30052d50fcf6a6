//! YAML structure with positions: every mapping key with its path, its value and its siblings.
//!
//! Built from parser events with an explicit stack (no recursion, so deep nesting cannot
//! overflow), aliases are never expanded (an alias bomb costs nothing), and Go templates
//! (`{{ … }}`) are masked first so that Helm templates parse with every position unchanged.
//! When a document still does not parse, a line- and indentation-based scanner recovers the keys.

use serde_saphyr::granit_parser::{Event, Parser};

/// A step of a key path: a mapping key, or an item of a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Item,
}

#[derive(Clone, Debug)]
struct Node {
    seg: Segment,
    parent: Option<u32>,
}

/// A scalar with its byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Scalar(Scalar),
    /// A sequence; its scalar items.
    Sequence(Vec<Scalar>),
    /// A mapping, an alias, or nothing.
    Other,
}

/// One mapping key.
#[derive(Clone, Debug)]
pub struct Key {
    pub name: String,
    pub start: usize,
    pub end: usize,
    pub value: Value,
    /// The mapping that holds the key (for sibling checks).
    pub mapping: u32,
    node: u32,
}

/// The keys of a YAML file (all its documents).
#[derive(Debug, Default)]
pub struct Doc {
    nodes: Vec<Node>,
    pub keys: Vec<Key>,
    /// Why the parser gave up, with the byte offset; the keys then come from the fallback.
    pub error: Option<(usize, String)>,
}

impl Doc {
    /// The path of a key from the document root, outermost first.
    pub fn path(&self, key: &Key) -> Vec<&Segment> {
        let mut out = Vec::new();
        let mut n = Some(key.node);
        while let Some(i) = n {
            let node = &self.nodes[i as usize];
            out.push(&node.seg);
            n = node.parent;
        }
        out.reverse();
        out
    }

    /// The value of the key `name` in a mapping.
    pub fn sibling(&self, mapping: u32, name: &str) -> Option<&Key> {
        self.keys
            .iter()
            .find(|k| k.mapping == mapping && k.name == name)
    }
}

/// Does a key path match a pattern (`*` one key, `**` any number of keys or items)?
/// Sequence items are crossed only by `**`. The pattern is anchored at the root.
/// The YAML keys whose value is a message for a person, not something run: Ansible's
/// `debug: msg:`, `fail: msg:`, `assert`'s `fail_msg` and `success_msg`.
const MESSAGE_KEYS: [&[u8]; 3] = [b"msg", b"fail_msg", b"success_msg"];

/// How far back on its own line a place's key is looked for.
const MESSAGE_LINE_REACH: usize = 256;

/// How many lines above a place the key of the block scalar that holds it is looked for.
const MESSAGE_LOOK_BACK: usize = 60;

/// Is `at` inside the value of a message key ([`MESSAGE_KEYS`]): on the key's line
/// (`msg: "Run gitlab-runner register …"`) or in its block scalar (`msg: |` and the lines
/// indented below it)? An example command printed for the user is not run.
pub fn in_message(b: &[u8], at: usize) -> bool {
    let line_start = |i: usize| memchr::memrchr(b'\n', &b[..i]).map_or(0, |k| k + 1);
    let indent = |s: usize| b[s..].iter().take_while(|&&c| c == b' ').count();
    let key_of = |s: usize| -> Option<(&[u8], &[u8])> {
        let line = &b[s..memchr::memchr(b'\n', &b[s..]).map_or(b.len(), |k| s + k)];
        let t = line.trim_ascii_start();
        let t = t.strip_prefix(b"- ").unwrap_or(t).trim_ascii_start();
        let colon = t.iter().position(|&c| c == b':')?;
        Some((&t[..colon], t[colon + 1..].trim_ascii()))
    };
    // The place's own line a bounded way back (a line of thousands of hits is not read back to
    // its start for each); the lines above whole.
    let mut s = super::line_start_within(b, at, MESSAGE_LINE_REACH);
    if let Some((key, _)) = key_of(s)
        && MESSAGE_KEYS.contains(&key)
    {
        return true;
    }
    let own = indent(s);
    for _ in 0..MESSAGE_LOOK_BACK {
        if s == 0 {
            return false;
        }
        s = line_start(s - 1);
        let line_end = memchr::memchr(b'\n', &b[s..]).map_or(b.len(), |k| s + k);
        if b[s..line_end].trim_ascii().is_empty() {
            continue;
        }
        if indent(s) < own {
            return key_of(s).is_some_and(|(key, value)| {
                MESSAGE_KEYS.contains(&key) && matches!(value.first(), Some(b'|' | b'>'))
            });
        }
    }
    false
}

pub fn path_matches(pattern: &[String], path: &[&Segment]) -> bool {
    fn go(p: &[String], s: &[&Segment]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some(seg) if seg == "**" => (0..=s.len()).any(|i| go(&p[1..], &s[i..])),
            Some(seg) => match s.first() {
                Some(Segment::Key(k)) if seg == "*" || seg == k => go(&p[1..], &s[1..]),
                _ => false,
            },
        }
    }
    go(pattern, path)
}

/// The delimiters of template syntax: Go templates (`{{ }}`, also `{{- -}}`), Jinja statements
/// and comments (`{% %}`, `{# #}`), ERB (`<% %>`, `<%= %>`, `<%- -%>`), Terraform template
/// directives (`%{ if x ~}`).
const TEMPLATE_DELIMITERS: [(&[u8], &[u8]); 5] = [
    (b"{{", b"}}"),
    (b"{%", b"%}"),
    (b"{#", b"#}"),
    (b"<%", b"%>"),
    (b"%{", b"}"),
];

/// The byte ranges of the template tags of `b` (an unclosed tag runs to the end).
fn template_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        let found = TEMPLATE_DELIMITERS
            .iter()
            .filter_map(|&(open, close)| {
                memchr::memmem::find(&b[i..], open).map(|j| (i + j, open.len(), close))
            })
            .min_by_key(|&(at, _, _)| at);
        let Some((start, open_len, close)) = found else {
            break;
        };
        let end = memchr::memmem::find(&b[start + open_len..], close)
            .map_or(b.len(), |k| start + open_len + k + close.len());
        spans.push((start, end));
        i = end;
    }
    spans
}

/// Does this template tag write text where it stands? A Go or Jinja expression (`{{ x }}`) and
/// an ERB output tag (`<%= x %>`) do; statements (`{{- if x }}`, `{{ end }}`, `{% if %}`,
/// `<% if %>`, `<%- end -%>`), comments (`{# #}`, `{{/* */}}`, `<%# %>`) and Terraform
/// directives (`%{ if }`) do not.
fn writes_text(tag: &[u8]) -> bool {
    if let Some(inner) = tag.strip_prefix(b"{{") {
        let inner = inner.strip_prefix(b"-").unwrap_or(inner).trim_ascii_start();
        const STATEMENTS: [&[u8]; 8] = [
            b"if", b"else", b"end", b"range", b"with", b"define", b"block", b"/*",
        ];
        return !STATEMENTS.iter().any(|k| {
            inner.starts_with(k)
                && (k == b"/*"
                    || inner
                        .get(k.len())
                        .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_'))
        });
    }
    tag.starts_with(b"<%=")
}

/// Replace each template tag (`{{ … }}`, `{% … %}`, `{# … #}`, `<% … %>`, `%{ … }`) with `_`
/// where it writes text and with blanks where it does not (`writes_text`), so that templated
/// YAML parses and every other byte keeps its offset. A line that holds only
/// tags, blanks and a trailing comment (`{{- if .Values.x }}  # note`) becomes blank. Line
/// breaks are kept.
pub fn mask_templates(text: &str) -> String {
    let b = text.as_bytes();
    if !TEMPLATE_DELIMITERS
        .iter()
        .any(|(open, _)| memchr::memmem::find(b, open).is_some())
    {
        let mut out = b.to_vec();
        mask_placeholder_keys(&mut out);
        // Only ASCII braces were replaced with ASCII: still UTF-8.
        return String::from_utf8(out).unwrap_or_else(|_| text.to_string());
    }
    let mut out = b.to_vec();
    mask_placeholder_keys(&mut out);
    let spans = template_spans(b);
    for &(s, e) in &spans {
        // What a tag writes stands for one word (`review-<%= app %>:` stays one key); a tag
        // that writes nothing leaves blanks (`"<%= url %>"<% end %>` ends with the quote).
        let fill = if writes_text(&b[s..e]) { b'_' } else { b' ' };
        for byte in &mut out[s..e] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = fill;
            }
        }
    }
    // A line that held only templates, blanks and a comment becomes blank.
    let mut line_start = 0;
    let mut next = 0; // the first span that may touch the line
    for line_end in memchr::memchr_iter(b'\n', b).chain(std::iter::once(b.len())) {
        while next < spans.len() && spans[next].1 <= line_start {
            next += 1;
        }
        let touching = spans[next..]
            .iter()
            .take_while(|&&(s, _)| s < line_end)
            .count();
        if touching > 0 {
            let in_span = |pos: usize| {
                spans[next..next + touching]
                    .iter()
                    .any(|&(s, e)| pos >= s && pos < e)
            };
            let mut only = true;
            for pos in line_start..line_end {
                if in_span(pos) || b[pos].is_ascii_whitespace() {
                    continue;
                }
                // A comment after the tags: `#` after a blank (or at the line start).
                only = b[pos] == b'#' && (pos == line_start || b[pos - 1].is_ascii_whitespace());
                break;
            }
            if only {
                for byte in &mut out[line_start..line_end] {
                    if *byte != b'\r' {
                        *byte = b' ';
                    }
                }
            }
        }
        line_start = line_end + 1;
    }
    // Only ASCII bytes replaced ASCII-or-multibyte runs inside the tags; a multibyte character
    // there was overwritten byte by byte with ASCII, so the result is valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The longest placeholder masked at a key's start.
const PLACEHOLDER_REACH: usize = 64;

/// A key that starts with a program's format placeholder (`{0:}-run:`, `{name}-test:`,
/// `${lang}_build:` of a job name that code fills in) would open a flow mapping: the
/// placeholder's braces are written `_` (a key that goes on after the closing brace is no valid
/// flow mapping, so no YAML is changed).
fn mask_placeholder_keys(out: &mut [u8]) {
    let mut line = 0;
    while line < out.len() {
        let end = memchr::memchr(b'\n', &out[line..]).map_or(out.len(), |k| line + k);
        let mut i = line;
        while i < end && matches!(out[i], b' ' | b'\t') {
            i += 1;
        }
        let open = if out.get(i) == Some(&b'$') { i + 1 } else { i };
        if out.get(open) == Some(&b'{')
            && let Some(k) = out[open..end.min(open + PLACEHOLDER_REACH)]
                .iter()
                .position(|&c| c == b'}')
        {
            let close = open + k;
            let inner = &out[open + 1..close];
            let rest = &out[close + 1..end];
            let key = rest
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
                .count();
            let placeholder = !inner.is_empty() && !inner.iter().any(|c| c.is_ascii_whitespace());
            if placeholder
                && key > 0
                && rest.get(key) == Some(&b':')
                && matches!(rest.get(key + 1), None | Some(b' ' | b'\r'))
            {
                out[i..=close].fill(b'_');
            }
        }
        line = end + 1;
    }
}

enum Frame {
    Mapping {
        id: u32,
        node: Option<u32>,
        /// The key whose value comes next, if a key was read.
        pending: Option<usize>,
    },
    Sequence {
        node: Option<u32>,
        /// The key whose value this sequence is.
        owner: Option<usize>,
    },
}

/// Could `key` be a key of this YAML text: is it written somewhere followed by a colon (after
/// an optional closing quote and blanks: `key:`, `"key" :`)? A cheap test before a parse; it
/// does not look at what comes before, so it may say yes for a key that ends in `key`.
pub fn may_have_key(text: &str, key: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, key.as_bytes()).any(|at| {
        let mut rest = &b[at + key.len()..];
        if let Some((b'"' | b'\'', r)) = rest.split_first() {
            rest = r;
        }
        let blanks = rest
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        rest.get(blanks) == Some(&b':')
    })
}

/// Parse YAML (all documents) into keys. Falls back to the indentation scanner on a parse error.
pub fn parse(text: &str) -> Doc {
    let mut doc = Doc::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut next_mapping = 0u32;
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, span) = match parser.next_event() {
            None => break,
            Some(Ok(e)) => e,
            Some(Err(e)) => {
                let m = e.marker();
                let offset = m.byte_offset().unwrap_or(0);
                let message = e.info().to_string();
                let mut fallback = fallback(text);
                fallback.error = Some((offset, message));
                return fallback;
            }
        };
        let start = span.start.byte_offset().unwrap_or(0);
        let end = span.end.byte_offset().unwrap_or(start);
        match event {
            Event::MappingStart(..) => {
                let node = container_node(&mut doc, &mut stack);
                stack.push(Frame::Mapping {
                    id: next_mapping,
                    node,
                    pending: None,
                });
                next_mapping += 1;
            }
            Event::SequenceStart(..) => {
                let owner = match stack.last() {
                    Some(Frame::Mapping {
                        pending: Some(k), ..
                    }) => Some(*k),
                    _ => None,
                };
                let parent = container_node(&mut doc, &mut stack);
                if let Some(k) = owner {
                    doc.keys[k].value = Value::Sequence(Vec::new());
                }
                let node = push_node(&mut doc, Segment::Item, parent);
                stack.push(Frame::Sequence {
                    node: Some(node),
                    owner,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                value_done(&mut stack);
            }
            Event::Scalar(value, ..) => {
                let scalar = Scalar {
                    text: value.into_owned(),
                    start,
                    end,
                };
                match stack.last_mut() {
                    Some(Frame::Mapping { id, node, pending }) => match pending.take() {
                        None => {
                            let n = push_node(&mut doc, Segment::Key(scalar.text.clone()), *node);
                            doc.keys.push(Key {
                                name: scalar.text,
                                start,
                                end,
                                value: Value::Other,
                                mapping: *id,
                                node: n,
                            });
                            *pending = Some(doc.keys.len() - 1);
                        }
                        Some(k) => doc.keys[k].value = Value::Scalar(scalar),
                    },
                    Some(Frame::Sequence { owner, .. }) => {
                        if let Some(k) = owner
                            && let Value::Sequence(items) = &mut doc.keys[*k].value
                        {
                            items.push(scalar);
                        }
                    }
                    None => {}
                }
            }
            Event::Alias(_) | Event::UnresolvedAlias(_) => {
                // The value is a reference; it is not expanded.
                value_done(&mut stack);
            }
            _ => {}
        }
    }
    doc
}

fn push_node(doc: &mut Doc, seg: Segment, parent: Option<u32>) -> u32 {
    doc.nodes.push(Node { seg, parent });
    (doc.nodes.len() - 1) as u32
}

/// The path node a new collection hangs from: the pending key's node, or a sequence's item node.
fn container_node(doc: &mut Doc, stack: &mut [Frame]) -> Option<u32> {
    match stack.last_mut() {
        Some(Frame::Mapping { pending, node, .. }) => match pending {
            Some(k) => Some(doc.keys[*k].node),
            // A collection used as a mapping key: no path of its own.
            None => *node,
        },
        Some(Frame::Sequence { node, .. }) => *node,
        None => None,
    }
}

/// A value (collection or alias) ended: the mapping above expects a key again.
fn value_done(stack: &mut [Frame]) {
    if let Some(Frame::Mapping { pending, .. }) = stack.last_mut() {
        *pending = None;
    }
}

/// Recover keys from text that does not parse as YAML: `key:` at an indentation, nested under
/// the nearest less-indented key; `- ` opens a sequence item.
pub fn fallback(text: &str) -> Doc {
    let mut doc = Doc::default();
    // (indent, node, mapping id of the keys under it)
    let mut stack: Vec<(usize, Option<u32>, u32)> = vec![];
    let mut next_mapping = 1u32;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_off = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
            continue;
        }
        let mut indent = content.len() - trimmed.len();
        let mut rest = trimmed;
        let mut item = false;
        while let Some(r) = rest.strip_prefix("- ") {
            item = true;
            indent += 2 + (r.len() - r.trim_start().len());
            rest = r.trim_start();
        }
        let Some(colon) = key_colon(rest) else {
            continue;
        };
        while stack.last().is_some_and(|&(i, _, _)| i >= indent) {
            stack.pop();
        }
        let (mut parent, mut mapping) = stack.last().map_or((None, 0), |&(_, n, m)| (n, m));
        if item {
            parent = Some(push_node(&mut doc, Segment::Item, parent));
            mapping = next_mapping;
            next_mapping += 1;
        }
        let raw_key = &rest[..colon];
        let name = raw_key.trim_matches(['"', '\'']).to_string();
        let key_start = line_off
            + (content.len() - rest.len())
            + (raw_key.len() - raw_key.trim_start_matches(['"', '\'']).len());
        let after = rest[colon + 1..].trim();
        let after = after.split(" #").next().unwrap_or("").trim();
        let value = if after.is_empty() {
            Value::Other
        } else {
            let vstart = line_off + content.len()
                - content[content.len() - rest.len() + colon + 1..]
                    .trim_start()
                    .len();
            let text = after.trim_matches(['"', '\'']).to_string();
            Value::Scalar(Scalar {
                start: vstart,
                end: vstart + after.len(),
                text,
            })
        };
        let node = push_node(&mut doc, Segment::Key(name.clone()), parent);
        doc.keys.push(Key {
            name,
            start: key_start,
            end: key_start + raw_key.trim_matches(['"', '\'']).len(),
            value,
            mapping,
            node,
        });
        stack.push((indent, Some(node), next_mapping));
        next_mapping += 1;
        if item {
            // Keys that follow at the same indentation belong to the same item.
            let m = mapping;
            stack.push((indent.saturating_sub(1), parent, m));
            let last = stack.len() - 1;
            stack.swap(last - 1, last);
        }
    }
    doc
}

/// Where the `:` of a `key: value` line is, if the line is one.
fn key_colon(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let (mut i, quote) = match b.first() {
        Some(&q @ (b'"' | b'\'')) => (memchr::memchr(q, &b[1..])? + 2, true),
        _ => (0, false),
    };
    while i < b.len() {
        match b[i] {
            b':' if b.get(i + 1).is_none_or(|c| *c == b' ' || *c == b'\t') => {
                return (i > 0).then_some(i);
            }
            // A plain key has no blank before its colon: `key: v`, not `a b: v`.
            b' ' | b'\t' if !quote && !b[i..].starts_with(b" :") => return None,
            b'{' | b'[' | b'"' | b'\'' | b'#' if i == 0 => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_looked_for_before_a_parse() {
        for text in [
            "trigger:\n  strategy: depend\n",
            "a: {strategy: depend}",
            "\"strategy\": \"depend\"",
            "'strategy' :\tdepend",
            "strategy:",
        ] {
            assert!(may_have_key(text, "strategy"), "{text:?}");
        }
        for text in [
            "script: echo strategy\n",
            "DEPLOY_STRATEGY: x\n",
            "strategy",
            "strategy_x: 1",
        ] {
            assert!(!may_have_key(text, "strategy"), "{text:?}");
        }
    }

    fn keys(doc: &Doc) -> Vec<String> {
        doc.keys
            .iter()
            .map(|k| {
                doc.path(k)
                    .iter()
                    .map(|s| match s {
                        Segment::Key(k) => k.as_str(),
                        Segment::Item => "[]",
                    })
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .collect()
    }

    const CI: &str = "deploy:\n  trigger:\n    project: a/b\n    strategy: depend\n  tags: [x, y]\nlist:\n  - name: a\n    value: b\n";

    #[test]
    fn paths_values_and_positions() {
        let d = parse(CI);
        assert!(d.error.is_none());
        assert_eq!(
            keys(&d),
            [
                "deploy",
                "deploy.trigger",
                "deploy.trigger.project",
                "deploy.trigger.strategy",
                "deploy.tags",
                "list",
                "list.[].name",
                "list.[].value"
            ]
        );
        let strategy = &d.keys[3];
        assert_eq!(&CI[strategy.start..strategy.end], "strategy");
        match &strategy.value {
            Value::Scalar(s) => assert_eq!(&CI[s.start..s.end], "depend"),
            v => panic!("{v:?}"),
        }
        match &d.keys[4].value {
            Value::Sequence(items) => assert_eq!(items.len(), 2),
            v => panic!("{v:?}"),
        }
        assert_eq!(
            d.sibling(d.keys[3].mapping, "project").unwrap().name,
            "project"
        );
    }

    #[test]
    fn fallback_recovers_the_same_paths() {
        let d = fallback(CI);
        assert_eq!(keys(&d), keys(&parse(CI)));
        let strategy = &d.keys[3];
        assert_eq!(&CI[strategy.start..strategy.end], "strategy");
        assert_eq!(d.keys[6].mapping, d.keys[7].mapping);
    }

    #[test]
    fn matching_paths() {
        let d = parse(CI);
        let p = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert!(path_matches(&p("*.trigger.strategy"), &d.path(&d.keys[3])));
        assert!(!path_matches(&p("trigger.strategy"), &d.path(&d.keys[3])));
        assert!(path_matches(&p("**.strategy"), &d.path(&d.keys[3])));
        assert!(path_matches(&p("**.value"), &d.path(&d.keys[7])));
        assert!(!path_matches(&p("*.value"), &d.path(&d.keys[7])));
    }

    #[test]
    fn masking_keeps_positions() {
        let t = "a: {{ .Values.x }}\n{{- if .Values.y }}\nb:\n  c: \"{{ .x }}\"\n{{- end }}\n";
        let m = mask_templates(t);
        assert_eq!(m.len(), t.len());
        assert_eq!(m.lines().count(), t.lines().count());
        let d = parse(&m);
        assert!(d.error.is_none(), "{:?}", d.error);
        assert_eq!(keys(&d), ["a", "b", "b.c"]);
        assert_eq!(&t[d.keys[2].start..d.keys[2].end], "c");
    }

    #[test]
    fn masking_a_tag_line_with_a_comment_and_other_template_languages() {
        let t = "a: 1\n{{- if .Values.x }}  # note\nb:\n  c: 2\n{{- end }}\n{% if x %}\nd: {{ y }}\ne: <%= @e %>\n{# c #}\n";
        let m = mask_templates(t);
        assert_eq!(m.len(), t.len());
        let d = parse(&m);
        assert!(d.error.is_none(), "{:?}", d.error);
        assert_eq!(keys(&d), ["a", "b", "b.c", "d", "e"]);
        assert_eq!(&t[d.keys[2].start..d.keys[2].end], "c");
        assert_eq!(&t[d.keys[4].start..d.keys[4].end], "e");
    }

    #[test]
    fn tags_that_write_text_stand_for_a_word_and_the_others_for_blanks() {
        for tag in [
            "{{ .Values.x }}",
            "{{- include \"x\" . }}",
            "{{ end_date }}",
            "<%= @x %>",
        ] {
            assert!(writes_text(tag.as_bytes()), "{tag}");
        }
        for tag in [
            "{{- if .Values.x }}",
            "{{ end }}",
            "{{- else -}}",
            "{{ range .x }}",
            "{{/* note */}}",
            "{{- /* note */ -}}",
            "{% if x %}",
            "{# note #}",
            "<% if x %>",
            "<%- end -%>",
            "<%# note %>",
            "%{ if x ~}",
        ] {
            assert!(!writes_text(tag.as_bytes()), "{tag}");
        }
    }

    #[test]
    fn an_erb_job_keeps_its_name_as_one_key() {
        // A job named by an output tag, a control tag before a key and after a quoted value.
        let t = "<% apps.each do |app| %>\nreview-<%= app.name %>:\n  variables:\n    <%- if app.public %>URL: \"https://<%= app.host %>\"<% end %>\n  trigger:\n    strategy: depend\n<% end %>\n";
        let m = mask_templates(t);
        assert_eq!(m.len(), t.len());
        let d = parse(&m);
        let strategy = d.keys.iter().find(|k| k.name == "strategy").unwrap();
        let p = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert!(path_matches(&p("*.trigger.strategy"), &d.path(strategy)));
        assert_eq!(&t[strategy.start..strategy.end], "strategy");
        let job = format!("review-{}:", "_".repeat("<%= app.name %>".len()));
        assert!(m.contains(&job), "{m}");
    }

    #[test]
    fn alias_bombs_are_not_expanded() {
        let mut t = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..30 {
            t.push_str(&format!(
                "b{i}: &b{i} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n",
                p = if i == 1 {
                    "a".to_string()
                } else {
                    format!("b{}", i - 1)
                }
            ));
        }
        let d = parse(&t);
        assert_eq!(d.keys.len(), 30);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 10_000;
        let mut t = String::new();
        for _ in 0..depth {
            t.push('[');
        }
        for _ in 0..depth {
            t.push(']');
        }
        let _ = parse(&t);
        let mut t = String::new();
        for i in 0..depth {
            t.push_str(&" ".repeat(i % 200));
            t.push_str("k:\n");
        }
        let _ = parse(&t);
    }
}
