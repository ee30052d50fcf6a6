//! A YAML key move in a block-style values file: the key (with its value, nested lines and
//! comments) is removed, parents left empty are removed too, and it is inserted under the new
//! path, creating the parents that are missing. Indentation follows the file, the moved lines
//! keep their comments and quoting, and the file's line endings are used for new lines.
//! Anything else (flow style, dotted keys, the new key already there) gives no edit.

use super::Edit;
use crate::syntax::source::Source;

/// One line of the file.
struct Line<'a> {
    start: usize,
    /// End including the line break.
    end: usize,
    text: &'a str,
    indent: usize,
    /// The key of a `key:` line (unquoted), with its byte range in the line.
    key: Option<(&'a str, usize, usize)>,
}

impl Line<'_> {
    fn blank(&self) -> bool {
        let t = self.text.trim();
        t.is_empty() || t.starts_with('#')
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i + 1);
        let t = text[start..end].trim_end_matches(['\n', '\r']);
        let indent = t.len() - t.trim_start_matches(' ').len();
        out.push(Line {
            start,
            end,
            text: t,
            indent,
            key: key_of(t, indent),
        });
        start = end;
    }
    out
}

/// `key:` at `indent`, plain or quoted, followed by a space, a comment or the end.
fn key_of(t: &str, indent: usize) -> Option<(&str, usize, usize)> {
    let rest = &t[indent..];
    let (key, len) = match rest.chars().next()? {
        q @ ('"' | '\'') => {
            let close = rest[1..].find(q)? + 1;
            (&rest[1..close], close + 1)
        }
        _ => {
            let colon = rest.find(':')?;
            (&rest[..colon], colon)
        }
    };
    let after = &rest[len..];
    let ok = after.starts_with(':') && (after.len() == 1 || after[1..].starts_with([' ', '\t']));
    (ok && !key.is_empty() && !key.contains([' ', '{', '[', '#'])).then_some((
        key,
        indent,
        indent + len,
    ))
}

/// The lines of the block of line `i`: `i+1 ..` while blank or deeper (or a sequence item at
/// the same indentation), without trailing blank lines.
fn block_end(ls: &[Line], i: usize) -> usize {
    let ind = ls[i].indent;
    let mut j = i + 1;
    let mut last = i + 1;
    while j < ls.len() {
        let l = &ls[j];
        let t = l.text.trim_start();
        if t.is_empty() || (t.starts_with('#') && l.indent > ind) {
            j += 1;
            continue;
        }
        if l.indent > ind || (l.indent == ind && (t == "-" || t.starts_with("- "))) {
            j += 1;
            last = j;
            continue;
        }
        break;
    }
    last
}

/// The nearest key line above `i` that is less indented than `indent`.
fn parent(ls: &[Line], i: usize, indent: usize) -> Option<usize> {
    (0..i)
        .rev()
        .find(|&j| !ls[j].blank() && ls[j].indent < indent)
        .filter(|&j| ls[j].key.is_some())
}

/// The key's ancestors named by `old` (without its last segment), from the key up to the root:
/// `[k, parent, grandparent, …]`.
fn ancestors(ls: &[Line], k: usize, old: &[&str]) -> Option<Vec<usize>> {
    let mut chain = vec![k];
    for seg in old[..old.len() - 1].iter().rev() {
        let last = *chain.last()?;
        let p = parent(ls, last, ls[last].indent)?;
        if ls[p].key?.0 != *seg {
            return None;
        }
        chain.push(p);
    }
    Some(chain)
}

/// The lines removed by the move (`first..last`): the key's own lines from `first` (its
/// comments), then each parent that would be left with nothing else.
fn removal(ls: &[Line], first: usize, k: usize, chain: &[usize]) -> (usize, usize) {
    let (mut rm_first, mut rm_last) = (first, block_end(ls, k));
    for &p in &chain[1..] {
        let end = block_end(ls, p);
        let others =
            (p + 1..end).any(|j| (j < rm_first || j >= rm_last) && !ls[j].text.trim().is_empty());
        if others {
            break;
        }
        (rm_first, rm_last) = (p, end.max(rm_last));
    }
    (rm_first, rm_last)
}

/// The deepest line of the new path that exists outside what is removed, and how many of its
/// segments exist.
fn deepest_existing(
    ls: &[Line],
    new: &[&str],
    removed: &dyn Fn(usize) -> bool,
) -> (Option<usize>, usize) {
    let mut node: Option<usize> = None;
    let mut matched = 0;
    for seg in new {
        let (from, to, want) = match node {
            None => (0, ls.len(), None),
            Some(n) => (n + 1, block_end(ls, n), Some(ls[n].indent)),
        };
        let child_indent = (from..to)
            .find(|&j| !removed(j) && !ls[j].blank())
            .map(|j| ls[j].indent);
        let found = (from..to).find(|&j| {
            !removed(j)
                && Some(ls[j].indent) == child_indent
                && want.is_none_or(|w| ls[j].indent > w)
                && (node.is_some() || ls[j].indent == 0)
                && ls[j].key.is_some_and(|(kk, _, _)| kk == *seg)
        });
        match found {
            Some(j) => {
                node = Some(j);
                matched += 1;
            }
            None => break,
        }
    }
    (node, matched)
}

/// Where the moved text goes: the indentation of its first line, the file's indentation step
/// and line ending.
#[derive(Clone, Copy)]
struct Place<'e> {
    base: usize,
    step: usize,
    eol: &'e str,
}

/// The text inserted at the new place: the missing parents, the key's comments, the key under
/// its new name (quoted as it was) and its nested lines, re-indented.
fn moved_text(
    ls: &[Line],
    first: usize,
    k: usize,
    quoted: bool,
    missing: &[&str],
    place: Place,
) -> Option<String> {
    let Place { base, step, eol } = place;
    let mut insert = String::new();
    let mut indent = base;
    for seg in &missing[..missing.len() - 1] {
        insert.push_str(&format!("{}{seg}:{eol}", " ".repeat(indent)));
        indent += step;
    }
    for c in &ls[first..k] {
        insert.push_str(&format!(
            "{}{}{eol}",
            " ".repeat(indent),
            &c.text[c.indent..]
        ));
    }
    let new_key = missing.last()?;
    let l = &ls[k];
    let (_, kstart, kend) = l.key?;
    let key_text = if quoted {
        let q = &l.text[kstart..kstart + 1];
        format!("{q}{new_key}{q}")
    } else {
        new_key.to_string()
    };
    insert.push_str(&format!(
        "{}{key_text}{}{eol}",
        " ".repeat(indent),
        &l.text[kend..]
    ));
    for m in &ls[k + 1..block_end(ls, k)] {
        if m.text.trim().is_empty() {
            insert.push_str(eol);
            continue;
        }
        let depth = (m.indent + indent).checked_sub(l.indent)?;
        insert.push_str(&format!(
            "{}{}{eol}",
            " ".repeat(depth),
            &m.text[m.indent..]
        ));
    }
    Some(insert)
}

/// Move the key at byte `at` (the last key of `old`) to `new`.
pub fn move_key(src: &Source, at: usize, old: &[&str], new: &[&str]) -> Option<Vec<Edit>> {
    let text = src.text;
    let ls = lines(text);
    let k = ls.iter().position(|l| l.start <= at && at < l.end)?;
    let (key, ks, _) = ls[k].key?;
    let quoted = ks != at - ls[k].start;
    if key != *old.last()? {
        return None;
    }
    // The ancestors, from the key's parent up to the root.
    let chain = ancestors(&ls, k, old)?;
    if ls[*chain.last()?].indent != 0 {
        return None;
    }
    let step = match chain.get(1) {
        Some(&p) => ls[k].indent - ls[p].indent,
        None => 2,
    };
    // The comment lines right above the key go with it.
    let mut first = k;
    while first > 0
        && ls[first - 1].indent == ls[k].indent
        && ls[first - 1].text.trim_start().starts_with('#')
    {
        first -= 1;
    }
    // What is removed: the key's lines, then each parent left with nothing else.
    let (rm_first, rm_last) = removal(&ls, first, k, &chain);
    let removed = |j: usize| j >= rm_first && j < rm_last;

    // Where the new path goes: under the deepest part of it that exists.
    let (node, matched) = deepest_existing(&ls, new, &removed);
    if matched == new.len() {
        return None; // the new key is already there
    }
    let (after, base) = match node {
        None => (
            (0..ls.len()).rev().find(|&j| !removed(j) && !ls[j].blank()),
            0,
        ),
        Some(n) => {
            let end = block_end(&ls, n);
            let last = (n..end).rev().find(|&j| !removed(j) && !ls[j].blank());
            let child = (n + 1..end)
                .find(|&j| !removed(j) && !ls[j].blank())
                .map_or(ls[n].indent + step, |j| ls[j].indent);
            (last, child)
        }
    };
    let eol = if ls[k].end > ls[k].start && text[ls[k].start..ls[k].end].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let place = Place { base, step, eol };
    let mut insert = moved_text(&ls, first, k, quoted, &new[matched..], place)?;
    let at = match after {
        Some(j) => ls[j].end,
        None => 0,
    };
    if at == text.len() && !text.is_empty() && !text.ends_with('\n') {
        // After a last line without a line break: break it, and leave the file without one.
        insert = format!("{eol}{}", insert.strip_suffix(eol).unwrap_or(&insert));
    }
    let (rs, re) = (ls[rm_first].start, ls[rm_last - 1].end);
    let mut edits = Vec::new();
    if at == rs || at == re {
        edits.push(Edit::new(src, rs, re, insert));
    } else {
        edits.push(Edit::new(src, rs, re, ""));
        edits.push(Edit::new(src, at, at, insert));
        edits.sort_by_key(|e| e.start);
    }
    Some(edits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::classify::classify;

    fn moved(text: &str, key: &str, old: &str, new: &str) -> Option<String> {
        let src = Source::new("values.yaml", text, classify("values.yaml").unwrap());
        let at = text.find(key).unwrap();
        let old: Vec<&str> = old.split('.').collect();
        let new: Vec<&str> = new.split('.').collect();
        let edits = move_key(&src, at, &old, &new)?;
        let mut out = text.to_string();
        for e in edits.iter().rev() {
            out.replace_range(e.start..e.end, &e.replacement);
        }
        Some(out)
    }

    #[test]
    fn moves_a_key_creating_parents_and_removing_empty_ones() {
        let before = "gitlab:\n  kas:\n    privateApi:\n      tls:\n        enabled: true  # on\n    replicas: 2\nglobal:\n  hosts:\n    domain: example.com\n";
        let after = moved(
            before,
            "enabled",
            "gitlab.kas.privateApi.tls.enabled",
            "global.kas.tls.enabled",
        )
        .unwrap();
        assert_eq!(
            after,
            "gitlab:\n  kas:\n    replicas: 2\nglobal:\n  hosts:\n    domain: example.com\n  kas:\n    tls:\n      enabled: true  # on\n"
        );
    }

    #[test]
    fn keeps_crlf_quoting_and_nested_lines() {
        let before = "gitlab:\r\n    kas:\r\n        privateApi:\r\n            tls:\r\n                \"secretName\": 'kas-tls'\r\n";
        let after = moved(
            before,
            "secretName",
            "gitlab.kas.privateApi.tls.secretName",
            "global.kas.tls.secretName",
        )
        .unwrap();
        assert_eq!(
            after,
            "global:\r\n    kas:\r\n        tls:\r\n            \"secretName\": 'kas-tls'\r\n"
        );
    }

    #[test]
    fn an_existing_target_key_or_flow_style_gives_no_move() {
        let both = "gitlab:\n  kas:\n    privateApi:\n      tls:\n        enabled: true\nglobal:\n  kas:\n    tls:\n      enabled: false\n";
        assert_eq!(
            moved(
                both,
                "enabled",
                "gitlab.kas.privateApi.tls.enabled",
                "global.kas.tls.enabled"
            ),
            None
        );
        let flow = "gitlab: {kas: {privateApi: {tls: {enabled: true}}}}\n";
        assert_eq!(
            moved(
                flow,
                "enabled",
                "gitlab.kas.privateApi.tls.enabled",
                "global.kas.tls.enabled"
            ),
            None
        );
    }
}
