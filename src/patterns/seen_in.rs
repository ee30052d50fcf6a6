//! Where a pattern's spelling was seen in a public repository: `seen_in` on any pattern, as
//! `OWNER/REPO[@COMMIT]:PATH[:LINE]` (or a list of them). Detection knowledge is looked up,
//! never guessed; the source says where.

use std::fmt;

use serde::Serialize;
use serde_saphyr::Spanned;

use super::check::Check;
use super::raw::{RawPattern, RawValue};

/// The field's name, common to every pattern kind.
pub const FIELD: &str = "seen_in";

/// How a source is written, for help messages.
pub const FORMAT: &str = "`OWNER/REPO[@COMMIT]:PATH[:LINE]`, e.g. `gitlab-org/gitlab-runner@v16.11.0:common/config.go:594`";

/// A public file where a spelling appears: the source as written, checked, with where its
/// parts are (one allocation a source: the data names about 200 of them, each read at every
/// start of uplint).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenIn {
    text: String,
    /// The end of `OWNER/REPO`.
    repo_end: usize,
    /// Where the commit or tag is, when one is written after `@`.
    commit: Option<(usize, usize)>,
    /// Where the path is.
    path: (usize, usize),
    pub line: Option<u32>,
}

impl SeenIn {
    /// `OWNER/REPO`.
    pub fn repo(&self) -> &str {
        &self.text[..self.repo_end]
    }

    /// The commit or tag written after `@`.
    pub fn commit(&self) -> Option<&str> {
        self.commit.map(|(from, to)| &self.text[from..to])
    }

    /// The file's path in the repository.
    pub fn path(&self) -> &str {
        &self.text[self.path.0..self.path.1]
    }
}

impl fmt::Display for SeenIn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.repo())?;
        if let Some(c) = self.commit() {
            write!(f, "@{c}")?;
        }
        write!(f, ":{}", self.path())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        Ok(())
    }
}

impl Serialize for SeenIn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

impl std::str::FromStr for SeenIn {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (head, rest) = s.split_once(':').ok_or("no `:PATH` after the repository")?;
        let (repo, commit) = match head.split_once('@') {
            Some((r, c)) => (r, Some(c)),
            None => (head, None),
        };
        let (owner, name) = repo
            .split_once('/')
            .ok_or("the repository is not `OWNER/REPO`")?;
        if owner.is_empty()
            || name.is_empty()
            || !(owner.bytes().chain(name.bytes())).all(is_name_char)
        {
            return Err("the repository is not `OWNER/REPO`");
        }
        if let Some(c) = commit
            && (c.is_empty() || c.contains(char::is_whitespace))
        {
            return Err("the commit (or tag) after `@` is empty or has a space");
        }
        let (path, line) = match rest.rsplit_once(':') {
            Some((p, l)) if !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()) => (
                p,
                Some(l.parse().map_err(|_| "the line number is too large")?),
            ),
            _ => (rest, None),
        };
        if path.is_empty() || path.starts_with('/') || path.contains(char::is_whitespace) {
            return Err("the path is empty, absolute or has a space");
        }
        if line == Some(0) {
            return Err("lines count from 1");
        }
        // The parts are slices of `s`: their offsets in it.
        let at = |part: &str| part.as_ptr() as usize - s.as_ptr() as usize;
        Ok(SeenIn {
            text: s.to_string(),
            repo_end: repo.len(),
            commit: commit.map(|c| (at(c), at(c) + c.len())),
            path: (at(path), at(path) + path.len()),
            line,
        })
    }
}

/// Read the `seen_in` field of a raw pattern, if present.
pub fn parse(raw: &RawPattern, check: &mut Check) -> Vec<SeenIn> {
    let Some((_, value)) = raw.fields.iter().find(|(n, _)| n == FIELD) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut read = |text: &str, spanned: &dyn Fn() -> Spanned<String>| match text.parse::<SeenIn>()
    {
        Ok(s) => out.push(s),
        Err(why) => check.err_at(
            &spanned(),
            format!("`{FIELD}` source `{text}`: {why}"),
            Some(format!("write it as {FORMAT}")),
        ),
    };
    match &value.value {
        RawValue::Text(t) => read(t, &|| {
            Spanned::new(t.clone(), value.referenced, value.defined)
        }),
        RawValue::List(l) => {
            for item in l {
                read(&item.value, &|| item.clone());
            }
        }
        RawValue::Bool(_) => check.err_loc(
            value.referenced,
            format!("`{FIELD}` takes a source or a list of sources"),
            &format!("write each source as {FORMAT}"),
        ),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let s: SeenIn = "gitlab-org/gitlab-runner@v16.11.0:common/config.go:594"
            .parse()
            .unwrap();
        assert_eq!(s.repo(), "gitlab-org/gitlab-runner");
        assert_eq!(s.commit(), Some("v16.11.0"));
        assert_eq!(s.path(), "common/config.go");
        assert_eq!(s.line, Some(594));
        assert_eq!(
            s.to_string(),
            "gitlab-org/gitlab-runner@v16.11.0:common/config.go:594"
        );
        let s: SeenIn = "python-gitlab/python-gitlab:gitlab/v4/objects/geo_nodes.py"
            .parse()
            .unwrap();
        assert_eq!((s.commit(), s.line), (None, None));
        assert_eq!(s.path(), "gitlab/v4/objects/geo_nodes.py");
        for bad in [
            "nothing",
            "owner:path",
            "/x:path",
            "o/r:",
            "o/r:/abs",
            "o/r@:p",
            "o/r:p:0",
        ] {
            assert!(bad.parse::<SeenIn>().is_err(), "{bad}");
        }
    }
}
