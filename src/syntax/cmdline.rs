//! Command lines with positions: `gitlab-runner register --locked=false \` … as a shell sees it,
//! wherever it is written (scripts, Dockerfiles, CI scripts, Ansible, Terraform strings, code).
//!
//! A command runs from its program word to the end of the logical line (a trailing `\`, `` ` ``
//! or `^` continues it), a shell operator (`;`, `&&`, `||`, `|`), or the end of the string that
//! holds it (`"gitlab-runner register --locked"` in code).

/// One word of a command line, unquoted, with its byte range in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// A command: the program word, the subcommand and the words after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub program: Word,
    pub subcommand: Word,
    pub args: Vec<Word>,
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

/// The quote (`"`, `'`) that is open at `pos` on its line, if any.
fn open_quote(text: &[u8], line_start: usize, pos: usize) -> Option<u8> {
    let mut quote = None;
    let mut i = line_start;
    while i < pos {
        let c = text[i];
        match quote {
            Some(q) if c == b'\\' && q == b'"' => i += 1,
            Some(q) if c == q => quote = None,
            None if c == b'"' || c == b'\'' => {
                let in_word = c == b'\'' && i > 0 && text[i - 1].is_ascii_alphanumeric();
                if !in_word {
                    quote = Some(c);
                }
            }
            _ => {}
        }
        i += 1;
    }
    quote
}

/// Every `program subcommand …` in `text`. `program` is matched as a word (also as the last
/// part of a path or image name: `/usr/bin/gitlab-runner`, `gitlab/gitlab-runner:alpine`).
/// Options between the program and the subcommand (`--debug`) are skipped.
pub fn find(text: &str, program: &str, subcommand: &str, yaml: bool) -> Vec<Command> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, program.as_bytes()) {
        if at > 0 && (is_word_byte(b[at - 1]) && b[at - 1] != b'.' || b[at - 1] == b'$') {
            continue;
        }
        let mut end = at + program.len();
        // An image tag or an executable suffix.
        if b.get(end) == Some(&b':') {
            while end + 1 < b.len() && (is_word_byte(b[end + 1])) {
                end += 1;
            }
            end += 1;
        } else if b[end..].starts_with(b".exe") {
            end += 4;
        }
        if b.get(end).is_some_and(|&c| is_word_byte(c)) {
            continue;
        }
        let line_start = b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        let enclosing = open_quote(b, line_start, at);
        let folded = if yaml {
            folded_indent(b, line_start, at)
        } else {
            None
        };
        let words = words(text, end, enclosing, folded);
        let mut it = words.into_iter();
        let mut sub = None;
        for w in it.by_ref() {
            if w.text.starts_with('-') {
                continue;
            }
            sub = Some(w);
            break;
        }
        let Some(sub) = sub else { continue };
        if sub.text != subcommand {
            continue;
        }
        out.push(Command {
            program: Word {
                text: text[at..at + program.len()].to_string(),
                start: at,
                end: at + program.len(),
            },
            subcommand: sub,
            args: it.collect(),
        });
    }
    out
}

/// If the command sits in a YAML folded block scalar (`key: >-` and indented lines below it),
/// the indentation of that block: its line breaks are spaces, so the command goes on over the
/// following lines that are indented at least as much.
fn folded_indent(b: &[u8], line_start: usize, at: usize) -> Option<usize> {
    let indent = |s: usize| b[s..].iter().take_while(|&&c| c == b' ').count();
    let own = indent(line_start);
    if own == 0 || at != line_start + own {
        return None; // the program does not start an indented line
    }
    let mut end = line_start.checked_sub(1)?;
    // The nearest less-indented, non-blank line above must open a folded scalar; a scalar's
    // lines are few, so the walk is bounded.
    for _ in 0..200 {
        let start = b[..end]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        let line = &b[start..end];
        let trimmed = line.trim_ascii_end();
        if !trimmed.is_empty() {
            let ind = indent(start);
            if ind < own {
                let opens =
                    trimmed.ends_with(b">") || trimmed.ends_with(b">-") || trimmed.ends_with(b">+");
                return opens.then_some(own);
            }
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
    None
}

/// The words from `pos` to the end of the command.
fn words(text: &str, mut i: usize, enclosing: Option<u8>, folded: Option<usize>) -> Vec<Word> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    loop {
        // Blanks and line continuations.
        loop {
            match b.get(i) {
                Some(b' ' | b'\t') => i += 1,
                Some(b'\n')
                    if folded.is_some_and(|ind| {
                        let next = &b[i + 1..];
                        let n = next.iter().take_while(|&&c| c == b' ').count();
                        n >= ind && next.get(n).is_some_and(|&c| c != b'\n' && c != b'#')
                    }) =>
                {
                    i += 1
                }
                Some(b'\\' | b'`' | b'^') if matches!(b.get(i + 1), Some(b'\n')) => i += 2,
                Some(b'\\' | b'`' | b'^')
                    if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') =>
                {
                    i += 3
                }
                _ => break,
            }
        }
        let Some(&c) = b.get(i) else { break };
        if matches!(c, b'\n' | b'\r' | b';' | b'|' | b'&' | b')' | b'#') || Some(c) == enclosing {
            break;
        }
        // One word, with quotes removed.
        let start = i;
        let mut word = String::new();
        let mut quote: Option<u8> = None;
        while let Some(&c) = b.get(i) {
            match quote {
                Some(q) if c == q => {
                    quote = None;
                    i += 1;
                }
                Some(b'"') if c == b'\\' && i + 1 < b.len() => {
                    // The escaped character, whole (it may be several bytes).
                    let ch = text[i + 1..].chars().next().unwrap_or('\u{fffd}');
                    word.push(ch);
                    i += 1 + ch.len_utf8();
                }
                Some(_) => {
                    let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                    if c == b'\n' {
                        break;
                    }
                    word.push(ch);
                    i += ch.len_utf8();
                }
                None => {
                    if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b';' | b'|' | b'&' | b')')
                        || Some(c) == enclosing
                    {
                        break;
                    }
                    if c == b'"' || c == b'\'' {
                        quote = Some(c);
                        i += 1;
                        continue;
                    }
                    if c == b'\\' && i + 1 < b.len() && b[i + 1] != b'\n' {
                        let ch = text[i + 1..].chars().next().unwrap_or('\u{fffd}');
                        word.push(ch);
                        i += 1 + ch.len_utf8();
                        continue;
                    }
                    let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                    word.push(ch);
                    i += ch.len_utf8();
                }
            }
        }
        if i == start {
            break;
        }
        out.push(Word {
            text: word,
            start,
            end: i,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(c: &Command) -> Vec<&str> {
        c.args.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn continuation_lines_and_quotes() {
        let t = "sudo gitlab-runner register \\\n  --non-interactive \\\n  --tag-list \"docker,aws\" \\\n  --locked=\"false\"\necho done --paused\n";
        let cmds = find(t, "gitlab-runner", "register", true);
        assert_eq!(cmds.len(), 1);
        assert_eq!(
            args(&cmds[0]),
            [
                "--non-interactive",
                "--tag-list",
                "docker,aws",
                "--locked=false"
            ]
        );
        let locked = &cmds[0].args[3];
        assert_eq!(&t[locked.start..locked.start + 8], "--locked");
    }

    #[test]
    fn image_names_paths_and_strings() {
        let t = "docker run --rm gitlab/gitlab-runner:alpine register -r $TOKEN --paused; x\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["-r", "$TOKEN", "--paused"]);
        let t = "cmd = \"/usr/bin/gitlab-runner register --locked\" + other\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(args(&c[0]), ["--locked"]);
        let t = "gitlab-runner --debug exec shell test\n";
        assert_eq!(find(t, "gitlab-runner", "exec", true).len(), 1);
        assert!(find(t, "gitlab-runner", "register", true).is_empty());
    }

    #[test]
    fn folded_yaml_scalars_continue_the_command() {
        let t = "- command: >-\n    gitlab-runner register --non-interactive\n    --registration-token {{ t }}\n- name: next\n";
        let c = find(t, "gitlab-runner", "register", true);
        assert_eq!(
            args(&c[0]),
            ["--non-interactive", "--registration-token", "{{", "t", "}}"]
        );
        let t = "script:\n  - gitlab-runner register\n  - --locked\n";
        assert!(args(&find(t, "gitlab-runner", "register", true)[0]).is_empty());
    }

    #[test]
    fn escaped_multibyte_characters() {
        // Found by fuzzing: a backslash before a multibyte character.
        let t = "gitlab-runner register \\é --locked \"a\\é\" --paused\n";
        let c = find(t, "gitlab-runner", "register", false);
        assert_eq!(args(&c[0]), ["é", "--locked", "aé", "--paused"]);
    }

    #[test]
    fn look_alikes_are_not_commands() {
        for t in [
            "my-gitlab-runner register --locked",
            "$gitlab-runner register",
            "gitlab-runners register",
            "gitlab-runner unregister --all",
        ] {
            assert!(find(t, "gitlab-runner", "register", true).is_empty(), "{t}");
        }
    }
}
