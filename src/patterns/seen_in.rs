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

const FORMAT: &str = "`OWNER/REPO[@COMMIT]:PATH[:LINE]`, e.g. `gitlab-org/gitlab-runner@v16.11.0:common/config.go:594`";

/// A public file where a spelling appears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenIn {
    pub repo: String,
    pub commit: Option<String>,
    pub path: String,
    pub line: Option<u32>,
}

impl fmt::Display for SeenIn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.repo)?;
        if let Some(c) = &self.commit {
            write!(f, "@{c}")?;
        }
        write!(f, ":{}", self.path)?;
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

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
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
            || !(owner.chars().chain(name.chars())).all(is_name_char)
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
        Ok(SeenIn {
            repo: repo.to_string(),
            commit: commit.map(str::to_string),
            path: path.to_string(),
            line,
        })
    }
}

/// Read the `seen_in` field of a raw pattern, if present.
pub fn parse(raw: &RawPattern, check: &mut Check) -> Vec<SeenIn> {
    let Some((_, value)) = raw.fields.iter().find(|(n, _)| n == FIELD) else {
        return Vec::new();
    };
    let single;
    let items: &[Spanned<String>] = match &value.value {
        RawValue::Text(t) => {
            single = [Spanned::new(t.clone(), value.referenced, value.defined)];
            &single
        }
        RawValue::List(l) => l,
        RawValue::Bool(_) => {
            check.err_loc(
                value.referenced,
                format!("`{FIELD}` takes a source or a list of sources"),
                &format!("write each source as {FORMAT}"),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item.value.parse::<SeenIn>() {
            Ok(s) => out.push(s),
            Err(why) => check.err_at(
                item,
                format!("`{FIELD}` source `{}`: {why}", item.value),
                Some(format!("write it as {FORMAT}")),
            ),
        }
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
        assert_eq!(s.repo, "gitlab-org/gitlab-runner");
        assert_eq!(s.commit.as_deref(), Some("v16.11.0"));
        assert_eq!(s.path, "common/config.go");
        assert_eq!(s.line, Some(594));
        assert_eq!(
            s.to_string(),
            "gitlab-org/gitlab-runner@v16.11.0:common/config.go:594"
        );
        let s: SeenIn = "python-gitlab/python-gitlab:gitlab/v4/objects/geo_nodes.py"
            .parse()
            .unwrap();
        assert_eq!((s.commit, s.line), (None, None));
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
