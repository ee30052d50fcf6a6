//! CI job semantics: the keywords a job gets from `extends` (chains and lists), from `default:`
//! and from hidden jobs of locally included files, resolved the way the platform does before a
//! job is judged (`secrets:` without `id_tokens:` authenticates with the old job JWT, unless the
//! job inherits `id_tokens:` from a template or the defaults).

use std::collections::{BTreeMap, BTreeSet};

use super::yaml::{Doc, Segment, Value};

/// Top-level keys of a CI configuration that are not jobs.
const GLOBAL_KEYWORDS: [&str; 11] = [
    "default",
    "include",
    "stages",
    "variables",
    "workflow",
    "image",
    "services",
    "cache",
    "before_script",
    "after_script",
    "spec",
];

/// Top-level keywords that act as defaults for every job (the older spelling of `default:`).
const GLOBAL_DEFAULTS: [&str; 5] = [
    "image",
    "services",
    "cache",
    "before_script",
    "after_script",
];

/// The platform stops following `extends` after this many levels.
const MAX_EXTENDS_DEPTH: usize = 11;

/// Which defaults a job inherits (`inherit: default:`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum InheritDefault {
    All,
    Nothing,
    Only(Vec<String>),
}

/// One job as written: its own keywords and what it extends.
#[derive(Clone, Debug)]
struct Job {
    keys: BTreeSet<String>,
    extends: Vec<String>,
    inherit: Option<InheritDefault>,
}

/// The jobs of the CI project a file is part of, as a scan gives them to the file.
#[derive(Clone, Copy, Debug)]
pub enum ProjectJobs<'a> {
    /// The jobs of every file of the project, the file's own as read with the project.
    Whole(&'a Jobs),
    /// The jobs of the files before and after this one, in the order the project merges
    /// them: the file's own are those of the text scanned (an editor's unsaved text), merged
    /// between them, which gives [`ProjectJobs::Whole`] when the text is the one read.
    Around(&'a Jobs, &'a Jobs),
}

/// The jobs of one CI configuration (a file, or a project's file with its local includes).
#[derive(Clone, Debug, Default)]
pub struct Jobs {
    jobs: BTreeMap<String, Job>,
    defaults: BTreeSet<String>,
}

impl Jobs {
    /// The jobs a parsed CI file defines.
    pub fn from_doc(doc: &Doc) -> Jobs {
        let mut jobs = Jobs::default();
        for key in &doc.keys {
            let path = doc.path(key);
            let names: Vec<&str> = path
                .iter()
                .map_while(|s| match s {
                    Segment::Key(k) => Some(k.as_str()),
                    Segment::Item => None,
                })
                .collect();
            if names.len() != path.len() {
                // Under a sequence: `inherit: default: [..]` items are read below.
                continue;
            }
            match names.as_slice() {
                [top] if GLOBAL_DEFAULTS.contains(top) => {
                    jobs.defaults.insert((*top).to_string());
                }
                [top] if !GLOBAL_KEYWORDS.contains(top) => {
                    jobs.job(top);
                }
                ["default", keyword] => {
                    jobs.defaults.insert((*keyword).to_string());
                }
                [job, keyword] if !GLOBAL_KEYWORDS.contains(job) => {
                    let extends = (*keyword == "extends").then(|| scalars(&key.value));
                    let entry = jobs.job(job);
                    entry.keys.insert((*keyword).to_string());
                    if let Some(e) = extends {
                        entry.extends = e;
                    }
                }
                [job, "inherit", "default"] if !GLOBAL_KEYWORDS.contains(job) => {
                    let inherit = match &key.value {
                        Value::Scalar(s) if s.text == "false" => InheritDefault::Nothing,
                        Value::Scalar(s) if s.text == "true" => InheritDefault::All,
                        Value::Sequence(items) => {
                            InheritDefault::Only(items.iter().map(|s| s.text.clone()).collect())
                        }
                        _ => InheritDefault::All,
                    };
                    jobs.job(job).inherit = Some(inherit);
                }
                _ => {}
            }
        }
        jobs
    }

    fn job(&mut self, name: &str) -> &mut Job {
        self.jobs.entry(name.to_string()).or_insert_with(|| Job {
            keys: BTreeSet::new(),
            extends: Vec::new(),
            inherit: None,
        })
    }

    /// Add the jobs of a file that `self` includes: what `self` defines wins, as the platform
    /// merges a file's own definitions over its includes.
    pub fn include(&mut self, included: Jobs) {
        for (name, job) in included.jobs {
            match self.jobs.get_mut(&name) {
                Some(own) => {
                    own.keys.extend(job.keys);
                    if own.extends.is_empty() {
                        own.extends = job.extends;
                    }
                    if own.inherit.is_none() {
                        own.inherit = job.inherit;
                    }
                }
                None => {
                    self.jobs.insert(name, job);
                }
            }
        }
        self.defaults.extend(included.defaults);
    }

    /// Is `name` a job (or hidden template) of this configuration?
    pub fn contains(&self, name: &str) -> bool {
        self.jobs.contains_key(name)
    }

    /// Does the job, once `extends` and the defaults are resolved, have `keyword`?
    pub fn has(&self, name: &str, keyword: &str) -> bool {
        let chain = self.chain(name);
        if chain.iter().any(|(_, j)| j.keys.contains(keyword)) {
            return true;
        }
        if !self.defaults.contains(keyword) {
            return false;
        }
        // The job's `inherit: default:`, its own or the nearest one up its `extends` chain.
        match chain.iter().find_map(|(_, j)| j.inherit.as_ref()) {
            None | Some(InheritDefault::All) => true,
            Some(InheritDefault::Nothing) => false,
            Some(InheritDefault::Only(list)) => list.iter().any(|k| k == keyword),
        }
    }

    /// The job and every job it extends, nearest first, each once (a cycle ends the chain),
    /// as deep as the platform follows `extends`.
    fn chain<'j>(&'j self, name: &'j str) -> Vec<(&'j str, &'j Job)> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut level = vec![name];
        for _ in 0..=MAX_EXTENDS_DEPTH {
            let mut next = Vec::new();
            for n in level {
                if let Some(job) = self.jobs.get(n)
                    && seen.insert(n)
                {
                    out.push((n, job));
                    next.extend(job.extends.iter().map(String::as_str));
                }
            }
            level = next;
        }
        out
    }

    /// The jobs that extend `name`, directly or through a chain.
    pub fn extended_by(&self, name: &str) -> Vec<&str> {
        self.jobs
            .keys()
            .map(String::as_str)
            .filter(|j| *j != name && self.chain(j).iter().skip(1).any(|(a, _)| *a == name))
            .collect()
    }

    /// Does a `keyword` written in job `name` lack `required` where it takes effect? For a job
    /// that runs, when the resolved job lacks `required`. For a hidden job (a template,
    /// `.name`), when it lacks it itself and some job that extends it lacks it too, or no job
    /// of this configuration extends it (a template for other projects).
    pub fn lacks(&self, name: &str, required: &str) -> bool {
        if self.has(name, required) {
            return false;
        }
        if !name.starts_with('.') {
            return true;
        }
        let users = self.extended_by(name);
        users.is_empty() || users.iter().any(|u| !self.has(u, required))
    }
}

/// The scalar items of a value (`extends: .a` or `extends: [.a, .b]`).
fn scalars(value: &Value) -> Vec<String> {
    match value {
        Value::Scalar(s) => vec![s.text.clone()],
        Value::Sequence(items) => items.iter().map(|s| s.text.clone()).collect(),
        Value::Other => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::yaml;

    fn jobs(text: &str) -> Jobs {
        Jobs::from_doc(&yaml::parse(text))
    }

    #[test]
    fn own_keyword_and_absent_keyword() {
        let j = jobs(
            "build:\n  id_tokens:\n    VAULT_ID_TOKEN:\n      aud: https://vault\n  secrets: {}\ntest:\n  secrets: {}\n",
        );
        assert!(j.has("build", "id_tokens"));
        assert!(!j.has("test", "id_tokens"));
        assert!(!j.lacks("build", "id_tokens"));
        assert!(j.lacks("test", "id_tokens"));
    }

    #[test]
    fn extends_chains_and_lists() {
        let j = jobs(
            ".vault:\n  id_tokens:\n    T:\n      aud: https://v\n.base:\n  extends: .vault\n.other:\n  image: x\ndeploy:\n  extends: [.other, .base]\n  secrets: {}\nloop-a:\n  extends: loop-b\nloop-b:\n  extends: loop-a\n",
        );
        assert!(j.has("deploy", "id_tokens"));
        assert!(!j.has("loop-a", "id_tokens"), "a cycle ends");
    }

    #[test]
    fn defaults_and_inherit() {
        let text = "default:\n  id_tokens:\n    T:\n      aud: https://v\na:\n  secrets: {}\nb:\n  inherit:\n    default: false\n  secrets: {}\nc:\n  inherit:\n    default: [image]\n  secrets: {}\nd:\n  inherit:\n    default: [id_tokens]\n  secrets: {}\n";
        let j = jobs(text);
        assert!(j.has("a", "id_tokens"));
        assert!(!j.has("b", "id_tokens"));
        assert!(!j.has("c", "id_tokens"));
        assert!(j.has("d", "id_tokens"));
        assert!(!j.contains("default"));
    }

    #[test]
    fn included_templates_count() {
        let mut own = jobs("deploy:\n  extends: .vault-auth\n  secrets: {}\n");
        assert!(own.lacks("deploy", "id_tokens"));
        own.include(jobs(
            ".vault-auth:\n  id_tokens:\n    T:\n      aud: https://v\n",
        ));
        assert!(!own.lacks("deploy", "id_tokens"));
    }

    #[test]
    fn hidden_templates_are_judged_by_their_users() {
        let text = ".secrets:\n  secrets:\n    DB:\n      vault: db/password@ops\nwith:\n  extends: .secrets\n  id_tokens:\n    T:\n      aud: https://v\n";
        assert!(!jobs(text).lacks(".secrets", "id_tokens"));
        let text = format!("{text}without:\n  extends: .secrets\n");
        assert!(jobs(&text).lacks(".secrets", "id_tokens"));
        // A template no job here uses is for other projects: judged by itself.
        assert!(jobs(".tpl:\n  secrets: {}\n").lacks(".tpl", "id_tokens"));
    }
}
