//! Client libraries (SDKs) of the platform's REST API in a file: which SDKs the file imports, and
//! which local names hold which kind of API object (a runner, a merge request), read from the
//! file alone by scanning its lines: assignments from the SDK's managers and services
//! (`runners = gl.runners.list()`, `mr, _, err := git.MergeRequests.GetMergeRequest(…)`), loops
//! over such lists (`for r in runners:`, `for _, r := range runners {`, `runners.each do |r|`),
//! and type annotations (`mr: gitlab.v4.objects.ProjectMergeRequest`, `r *gitlab.Runner`).
//!
//! Also the resource a type definition or a recorded response describes: the enclosing Go
//! struct or TypeScript interface (`type Runner struct`), or a JSON object's own keys (a merge
//! request has `iid`, `source_branch` and `target_branch`).

use super::is_ident_byte;

/// A client library of the REST API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Sdk {
    /// python-gitlab (`import gitlab`).
    #[serde(rename = "python-gitlab")]
    PythonGitlab,
    /// go-gitlab: `github.com/xanzy/go-gitlab`, `gitlab.com/gitlab-org/api/client-go[/v2]`.
    #[serde(rename = "go-gitlab")]
    GoGitlab,
    /// gitbeaker (`@gitbeaker/rest`, `core`, `node`, `browser`).
    #[serde(rename = "gitbeaker")]
    Gitbeaker,
    /// The Ruby `gitlab` gem.
    #[serde(rename = "ruby-gitlab")]
    RubyGitlab,
    /// gitlab4j, the Java client (`import org.gitlab4j.api.…`).
    #[serde(rename = "gitlab4j")]
    Gitlab4j,
    /// php-gitlab-api, the PHP client (`use Gitlab\Client;`), also through Laravel's
    /// GrahamCampbell/Laravel-GitLab. Its calls are chains of managers written
    /// `$client->mergeRequests()->changes(…)`: a `call` of `mergeRequests.changes` in the data.
    #[serde(rename = "php-gitlab-api")]
    PhpGitlab,
}

impl Sdk {
    pub const NAMES: &'static str =
        "python-gitlab, go-gitlab, gitbeaker, ruby-gitlab, gitlab4j, php-gitlab-api";

    pub fn parse(s: &str) -> Option<Sdk> {
        match s {
            "python-gitlab" => Some(Sdk::PythonGitlab),
            "go-gitlab" => Some(Sdk::GoGitlab),
            "gitbeaker" => Some(Sdk::Gitbeaker),
            "ruby-gitlab" => Some(Sdk::RubyGitlab),
            "gitlab4j" => Some(Sdk::Gitlab4j),
            "php-gitlab-api" => Some(Sdk::PhpGitlab),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Sdk::PythonGitlab => "python-gitlab",
            Sdk::GoGitlab => "go-gitlab",
            Sdk::Gitbeaker => "gitbeaker",
            Sdk::RubyGitlab => "ruby-gitlab",
            Sdk::Gitlab4j => "gitlab4j",
            Sdk::PhpGitlab => "php-gitlab-api",
        }
    }

    /// Literals of which a file that imports the SDK holds one (for the scan's prefilter).
    pub fn import_literals(self) -> &'static [&'static str] {
        match self {
            Sdk::PythonGitlab => &[
                "import gitlab",
                "from gitlab",
                "gitlab.exceptions.Gitlab",
                ".mergerequests.",
            ],
            Sdk::GoGitlab => &["xanzy/go-gitlab", "gitlab-org/api/client-go"],
            Sdk::Gitbeaker => &["@gitbeaker/", ".MergeRequests."],
            Sdk::RubyGitlab => &[
                "require 'gitlab'",
                "require \"gitlab\"",
                "Gitlab.client",
                "Gitlab::Client",
                "Gitlab.configure",
            ],
            Sdk::Gitlab4j => &["org.gitlab4j.api"],
            Sdk::PhpGitlab => &["Gitlab\\Client", "GrahamCampbell\\GitLab"],
        }
    }
}

/// A kind of API object whose generic fields (`active`, `status`) are items of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Runner,
    MergeRequest,
    /// The approval configuration of a merge request or project (`approvers`, `approver_groups`).
    MergeRequestApprovals,
}

/// Does a type's name say it is a webhook's event or payload (`MergeEvent`, `MergeEventPayload`,
/// `MergeRequestHook`, `WebHookData`, a payload's `MergeRequestObjectAttributes`)? Such a type
/// describes what the platform sends to a webhook, not an endpoint's response: its fields are
/// not the REST resource's.
pub fn names_event(name: &str) -> bool {
    [
        "Event",
        "Hook",
        "Webhook",
        "Payload",
        "ObjectAttributes",
        "objectAttributes",
        // A type named for the webhook's `object_attributes` of one event
        // (`MergeRequestAttributes`, `IGitlabMergeRequestAttributes`).
        "Attributes",
    ]
    .iter()
    .any(|w| name.contains(w))
}

/// Does `a` stand right before one of `b` among a name's words (`merge` `request`)?
fn word_pair(words: &[String], a: &str, b: &[&str]) -> bool {
    words
        .windows(2)
        .any(|p| p[0] == a && b.contains(&p[1].as_str()))
}

impl Resource {
    pub const NAMES: &'static str = "runner, merge_request, merge_request_approvals";

    pub fn parse(s: &str) -> Option<Resource> {
        match s {
            "runner" => Some(Resource::Runner),
            "merge_request" => Some(Resource::MergeRequest),
            "merge_request_approvals" => Some(Resource::MergeRequestApprovals),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Resource::Runner => "runner",
            Resource::MergeRequest => "merge_request",
            Resource::MergeRequestApprovals => "merge_request_approvals",
        }
    }

    /// Calls of the SDKs' managers and services that return objects of this kind.
    fn sources(self) -> &'static [&'static str] {
        match self {
            Resource::Runner => &[
                // python-gitlab
                ".runners.list(",
                ".runners.get(",
                ".runners.all(",
                ".runners_all.list(",
                // go-gitlab
                ".Runners.ListRunners(",
                ".Runners.ListAllRunners(",
                ".Runners.GetRunnerDetails(",
                ".Runners.ListProjectRunners(",
                ".Runners.ListGroupsRunners(",
                ".Runners.UpdateRunnerDetails(",
                // gitbeaker
                ".Runners.all(",
                ".Runners.show(",
                ".Runners.edit(",
                // Ruby gem
                ".runners(",
                ".all_runners(",
                ".runner(",
                ".project_runners(",
                ".group_runners(",
                ".update_runner(",
            ],
            Resource::MergeRequest => &[
                ".mergerequests.list(",
                ".mergerequests.get(",
                ".mergerequests.create(",
                ".MergeRequests.GetMergeRequest(",
                ".MergeRequests.ListMergeRequests(",
                ".MergeRequests.ListProjectMergeRequests(",
                ".MergeRequests.ListGroupMergeRequests(",
                ".MergeRequests.UpdateMergeRequest(",
                ".MergeRequests.AcceptMergeRequest(",
                ".MergeRequests.CreateMergeRequest(",
                ".MergeRequests.show(",
                ".MergeRequests.all(",
                ".MergeRequests.edit(",
                ".MergeRequests.create(",
                ".merge_request(",
                ".merge_requests(",
                ".user_merge_requests(",
                ".group_merge_requests(",
                ".update_merge_request(",
                ".create_merge_request(",
                ".accept_merge_request(",
            ],
            Resource::MergeRequestApprovals => &[
                ".approvals.get(",
                ".MergeRequestApprovals.GetConfiguration(",
                ".Projects.GetApprovalConfiguration(",
                ".merge_request_approvals(",
                ".project_merge_request_approvals(",
            ],
        }
    }

    /// Type names of the SDKs for objects of this kind (annotations, composite literals).
    fn type_names(self) -> &'static [&'static str] {
        match self {
            Resource::Runner => &[
                "Runner",
                "RunnerAll",
                "RunnerDetails",
                "ProjectRunner",
                "GroupRunner",
                "RunnerSchema",
            ],
            Resource::MergeRequest => &[
                "MergeRequest",
                "ProjectMergeRequest",
                "GroupMergeRequest",
                "BasicMergeRequest",
                "MergeRequestSchema",
                "ExpandedMergeRequestSchema",
            ],
            Resource::MergeRequestApprovals => &[
                "MergeRequestApprovals",
                "ProjectApprovals",
                "ProjectMergeRequestApproval",
            ],
        }
    }

    /// Does a type definition's name say it describes this resource? (`Runner`,
    /// `RegisterNewRunnerOptions`, `MergeRequestSchema`; not `RunnerManager`, which is another
    /// resource, nor webhook payloads and events.)
    pub fn names_type(self, name: &str) -> bool {
        let word = match self {
            Resource::Runner => "Runner",
            Resource::MergeRequest => "MergeRequest",
            Resource::MergeRequestApprovals => "Approval",
        };
        // The merge request's short name as a word of the type's (`gitlabMR`, `MrDetails`).
        let short = self == Resource::MergeRequest && ident_words(name).iter().any(|w| w == "mr");
        let other = [
            "Manager",
            "Job",
            "Controller",
            // GraphQL types generated into code (`RunnerUpdateInput`) are not the REST resource.
            "Input",
            "Connection",
            "Edge",
        ];
        (name.contains(word) || short)
            && !other.iter().any(|o| name.contains(o))
            && !names_event(name)
    }

    /// The path segment of the resource's REST endpoints, where no other platform writes it
    /// (`merge_requests`; GitHub has runners too): written in a file, it shows the resource's API.
    pub fn path_segment(self) -> Option<&'static str> {
        match self {
            Resource::Runner => None,
            Resource::MergeRequest | Resource::MergeRequestApprovals => Some("merge_requests"),
        }
    }

    /// Does a variable's name say it holds this resource (`mr`, `merge_request`, `mergeRequest`,
    /// `mrs`, `current_mr`, `runner`, `approvals`)? Its words, split at `_` and case changes.
    pub fn names_variable(self, name: &str) -> bool {
        let words = ident_words(name);
        let has = |w: &str| words.iter().any(|x| x == w);
        let pair = |a: &str, b: &[&str]| word_pair(&words, a, b);
        match self {
            Resource::Runner => has("runner") || has("runners"),
            Resource::MergeRequest => {
                has("mr") || has("mrs") || pair("merge", &["request", "requests"])
            }
            Resource::MergeRequestApprovals => has("approvals") || has("approval"),
        }
    }

    /// Does a variable's name say it holds this kind of object under the name other systems
    /// give it (a pull request: `pr`, `pull_request`)? Only where the code is known to handle the
    /// platform's objects (a multi-forge tool's function for the platform).
    pub fn names_variable_across_forges(self, name: &str) -> bool {
        let words = ident_words(name);
        let has = |w: &str| words.iter().any(|x| x == w);
        match self {
            Resource::MergeRequest => {
                has("pr") || has("prs") || word_pair(&words, "pull", &["request", "requests"])
            }
            Resource::Runner | Resource::MergeRequestApprovals => false,
        }
    }

    /// A member read that only the platform's object of this kind has (`.iid`: the platform
    /// numbers merge requests within their project; other systems' pull requests have a
    /// `number`), as evidence of the platform in a file that neither imports a library nor names
    /// the platform.
    pub fn own_member(self) -> Option<&'static str> {
        match self {
            Resource::MergeRequest => Some(".iid"),
            Resource::Runner | Resource::MergeRequestApprovals => None,
        }
    }

    /// Does a JSON object with these keys (its own, not nested ones) look like this resource?
    pub fn keys_say(self, keys: &[&str]) -> bool {
        let has = |k: &str| keys.contains(&k);
        match self {
            Resource::Runner => has("runner_type") || has("is_shared"),
            // Its branches, or keys no other object of the platform has with an `iid`: a
            // recorded update may leave the branches out (`merge_when_pipeline_succeeds`,
            // `diff_refs`), and the approvals (`GET …/merge_requests/:iid/approvals`) are written
            // as the merge request with its approval state.
            Resource::MergeRequest => {
                has("iid")
                    && ((has("source_branch") && has("target_branch"))
                        || has("merge_when_pipeline_succeeds")
                        || has("diff_refs")
                        || has("detailed_merge_status")
                        || Resource::MergeRequestApprovals.keys_say(keys))
            }
            Resource::MergeRequestApprovals => {
                has("approvals_left") || (has("approvals_required") && has("approved_by"))
            }
        }
    }

    pub const ALL: [Resource; 3] = [
        Resource::Runner,
        Resource::MergeRequest,
        Resource::MergeRequestApprovals,
    ];
}

/// The words of an identifier, lowercased: split at `_`, `-` and at case changes (`gitlabMR`:
/// `gitlab`, `mr`; `MRInfo`: `mr`, `info`; `merge_request`: `merge`, `request`).
pub fn ident_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let c: Vec<char> = name.chars().collect();
    let mut cur = String::new();
    for i in 0..c.len() {
        let ch = c[i];
        if !ch.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| c[j]);
        let next = c.get(i + 1);
        let boundary = ch.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// What a file shows of the SDKs: the ones it imports, Go package names, and the kinds of its
/// local names.
#[derive(Debug, Default)]
pub struct SdkFile {
    pub imports: Vec<Sdk>,
    /// The package names under which go-gitlab is imported (`gitlab`, or an alias).
    pub go_packages: Vec<String>,
    bindings: Vec<(String, Resource)>,
}

impl SdkFile {
    pub fn imports(&self, sdk: Sdk) -> bool {
        self.imports.contains(&sdk)
    }

    /// The kind of object the expression that ends at `dot` (before `.member`) gives: a bound
    /// name (`mr.`), an element of one (`mrs[0].`), or a call of a source
    /// (`project.mergerequests.get(1).`).
    pub fn resource_before(&self, text: &str, dot: usize) -> Option<Resource> {
        if let Some(r) = receiver(text, dot) {
            return self.resource_of(r);
        }
        // Walk back over the chain: names, dots and balanced parentheses.
        let b = text.as_bytes();
        let mut i = dot;
        while i > 0 && dot - i < 400 {
            match b[i - 1] {
                b')' => i = open_paren(b, i - 1)?,
                c if is_ident_byte(c) || c == b'.' => i -= 1,
                _ => break,
            }
        }
        let expr = &text[i..dot];
        (expr.ends_with(')') && !expr.starts_with('('))
            .then(|| expr_resource(expr, &self.bindings))
            .flatten()
    }

    /// The kind of object a local name holds, if the file shows it.
    pub fn resource_of(&self, name: &str) -> Option<Resource> {
        self.bindings
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| *r)
    }
}

/// Does the text call python-gitlab's merge request manager (`project.mergerequests.get(1)`,
/// `.mergerequests.list(state="opened")`, `.mergerequests.create({…})`)? Its lower-case
/// `mergerequests` attribute is the library's own (go-gitlab and gitbeaker write
/// `MergeRequests`, the gem `merge_requests`): a module that uses it calls the library, whichever
/// module imported it (a helper handed the client, a fragment of a larger file).
fn python_gitlab_chain(text: &str) -> bool {
    [
        ".mergerequests.get(",
        ".mergerequests.list(",
        ".mergerequests.create(",
    ]
    .iter()
    .any(|c| holds(text, c))
}

/// Does `text` call gitbeaker's merge request resource by its own method names
/// (`api.MergeRequests.showChanges(`, `.MergeRequests.allDiffs(`)? A client handed in from
/// another module (`import { GitlabAPI } from "../lib/gitlab"`) is still gitbeaker's: its
/// resources are PascalCase with lower-case methods, where go-gitlab's methods are PascalCase
/// (`git.MergeRequests.GetMergeRequestChanges(`).
fn gitbeaker_chain(text: &str) -> bool {
    holds(text, ".MergeRequests.")
        && [
            ".MergeRequests.showChanges(",
            ".MergeRequests.allDiffs(",
            ".MergeRequests.allCommits(",
            ".MergeRequests.show(",
        ]
        .iter()
        .any(|c| holds(text, c))
}

/// Read a file's SDK imports and object bindings.
pub fn analyse(text: &str) -> SdkFile {
    let mut f = SdkFile::default();
    // The library's own exceptions (`except gitlab.exceptions.GitlabCreateError`): a module that
    // catches them calls the library, whichever module imported it.
    if holds(text, "gitlab.exceptions.Gitlab") || python_gitlab_chain(text) {
        push(&mut f.imports, Sdk::PythonGitlab);
    }
    if gitbeaker_chain(text) {
        push(&mut f.imports, Sdk::Gitbeaker);
    }
    // Each SDK's lines are looked at only in a file that holds one of its import literals:
    // most files hold none, and one search of the whole file is cheaper than one per line.
    let [python, go, gitbeaker, ruby, gitlab4j, php] = [
        Sdk::PythonGitlab,
        Sdk::GoGitlab,
        Sdk::Gitbeaker,
        Sdk::RubyGitlab,
        Sdk::Gitlab4j,
        Sdk::PhpGitlab,
    ]
    .map(|sdk| sdk.import_literals().iter().any(|l| holds(text, l)));
    if !(python || go || gitbeaker || ruby || gitlab4j || php) {
        return f;
    }
    for line in text.lines() {
        let t = line.trim_start();
        if python
            && ((t.starts_with("import gitlab")
                && t[13..].starts_with(|c: char| c == '.' || c == ',' || c.is_whitespace())
                || t == "import gitlab")
                || t.starts_with("from gitlab.")
                || t.starts_with("from gitlab import"))
        {
            push(&mut f.imports, Sdk::PythonGitlab);
        }
        if go {
            for module in [
                "\"github.com/xanzy/go-gitlab\"",
                "\"gitlab.com/gitlab-org/api/client-go\"",
                "\"gitlab.com/gitlab-org/api/client-go/v2\"",
            ] {
                if let Some(at) = t.find(module) {
                    push(&mut f.imports, Sdk::GoGitlab);
                    let alias = t[..at].trim().trim_start_matches("import").trim();
                    let alias = if alias.is_empty() { "gitlab" } else { alias };
                    if !f.go_packages.iter().any(|a| a == alias) {
                        f.go_packages.push(alias.to_string());
                    }
                }
            }
        }
        if gitbeaker && (t.contains("'@gitbeaker/") || t.contains("\"@gitbeaker/")) {
            push(&mut f.imports, Sdk::Gitbeaker);
        }
        if ruby
            && Sdk::RubyGitlab
                .import_literals()
                .iter()
                .any(|l| t.contains(l))
        {
            push(&mut f.imports, Sdk::RubyGitlab);
        }
        // Java and Kotlin (`import org.gitlab4j.api.GitLabApi`, `import org.gitlab4j.api.models.*`).
        if gitlab4j && t.starts_with("import org.gitlab4j.api") {
            push(&mut f.imports, Sdk::Gitlab4j);
        }
        // PHP (`use Gitlab\Client;`, `new \Gitlab\Client()`, Laravel's
        // `use GrahamCampbell\GitLab\Facades\GitLab;`).
        if php
            && ((t.starts_with("use ")
                && Sdk::PhpGitlab
                    .import_literals()
                    .iter()
                    .any(|l| t.contains(l)))
                || t.contains("\\Gitlab\\Client"))
        {
            push(&mut f.imports, Sdk::PhpGitlab);
        }
    }
    if f.imports.is_empty() {
        return f;
    }
    // The terms the lines are searched for, less those the file does not hold (a term absent
    // from the file is absent from each of its lines: the same bindings, without the searches).
    let terms = LineTerms::of(text);
    // Two passes: a loop over a list bound in a later line of the file still counts.
    for _ in 0..2 {
        for line in text.lines() {
            bind_line(line, &mut f.bindings, &terms);
        }
    }
    f
}

/// Does `text` hold `term` anywhere?
fn holds(text: &str, term: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), term.as_bytes()).is_some()
}

/// Ruby's block methods that bind their block's variable, as [`bind_line`] reads them.
const BLOCK_METHODS: [&str; 5] = [
    ".each do |",
    ".each { |",
    ".auto_paginate do |",
    ".map do |",
    ".map { |",
];

/// List methods whose callback binds an element, as [`inline_bindings`] reads them.
const LIST_METHODS: [&str; 10] = [
    ".filter(",
    ".map(",
    ".forEach(",
    ".find(",
    ".some(",
    ".every(",
    ".select",
    ".reject",
    ".find ",
    ".each_with_index",
];

/// Of the terms the lines are searched for, those the file holds, in their order.
struct LineTerms {
    block_methods: Vec<&'static str>,
    list_methods: Vec<&'static str>,
    /// Each resource's type names.
    type_names: Vec<(Resource, &'static str)>,
}

impl LineTerms {
    fn of(text: &str) -> LineTerms {
        LineTerms {
            block_methods: BLOCK_METHODS
                .into_iter()
                .filter(|m| holds(text, m))
                .collect(),
            list_methods: LIST_METHODS
                .into_iter()
                .filter(|m| holds(text, m))
                .collect(),
            type_names: Resource::ALL
                .into_iter()
                .flat_map(|r| r.type_names().iter().map(move |&ty| (r, ty)))
                .filter(|(_, ty)| holds(text, ty))
                .collect(),
        }
    }
}

fn push<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The last identifier of a dotted name (`self.runner` → `runner`).
fn last_ident(s: &str) -> &str {
    let s = s.trim();
    s.rsplit('.').next().unwrap_or(s)
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte) && !s.as_bytes()[0].is_ascii_digit()
}

/// The resource an expression evaluates to (objects or lists of them), if it shows one.
fn expr_resource(expr: &str, bindings: &[(String, Resource)]) -> Option<Resource> {
    for r in Resource::ALL {
        if r.sources().iter().any(|s| calls_source(expr, s)) {
            return Some(r);
        }
    }
    // `runners[0]`, `runners`, `mrs.first`: the first name of the expression.
    let first: String = expr
        .trim()
        .trim_start_matches(['(', '*', '&'])
        .bytes()
        .take_while(|&c| is_ident_byte(c) || c == b'.')
        .map(char::from)
        .collect();
    let rest = &expr.trim()[first.len().min(expr.trim().len())..];
    if rest.trim_start().starts_with('(') {
        return None;
    }
    let name = first.split('.').next().unwrap_or("");
    bindings.iter().find(|(n, _)| n == name).map(|(_, r)| *r)
}

/// Does an expression call a source (`.runners.list(`), with or without parentheses (Ruby
/// `client.all_runners.each`)?
fn calls_source(expr: &str, source: &str) -> bool {
    let name = source.trim_end_matches('(').as_bytes();
    let b = expr.as_bytes();
    // The occurrences as `memmem::find_iter` gives them (leftmost first, not overlapping),
    // found by their first byte: the expressions are short, and making a searcher for each
    // cost more than the search.
    let Some((&first, _)) = name.split_first() else {
        return false;
    };
    let mut from = 0;
    while from + name.len() <= b.len() {
        let Some(k) = memchr::memchr(first, &b[from..=b.len() - name.len()]) else {
            return false;
        };
        let at = from + k;
        if &b[at..at + name.len()] != name {
            from = at + 1;
            continue;
        }
        if b.get(at + name.len()).is_none_or(|&c| !is_ident_byte(c)) {
            return true;
        }
        from = at + name.len();
    }
    false
}

fn bind(bindings: &mut Vec<(String, Resource)>, name: &str, r: Resource) {
    let name = last_ident(name);
    if is_ident(name) && name != "_" && !bindings.iter().any(|(n, _)| n == name) {
        bindings.push((name.to_string(), r));
    }
}

/// Bindings a line shows: loops, assignments, annotations.
fn bind_line(line: &str, bindings: &mut Vec<(String, Resource)>, terms: &LineTerms) {
    let t = line.trim();
    inline_bindings(t, bindings, &terms.list_methods);
    // Python `for x in EXPR:`, JS `for (const x of EXPR)`.
    if let Some(rest) = t.strip_prefix("for ") {
        let rest = rest.trim_start_matches('(').trim_start();
        let rest = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| rest.strip_prefix(k))
            .unwrap_or(rest);
        for sep in [" in ", " of "] {
            if let Some((var, expr)) = rest.split_once(sep)
                && let Some(r) = expr_resource(expr, bindings)
            {
                bind(bindings, var.trim(), r);
                return;
            }
        }
        // Go `for _, x := range EXPR {`
        if let Some((vars, expr)) = rest.split_once(":= range ")
            && let Some(r) = expr_resource(expr, bindings)
        {
            bind(bindings, vars.rsplit(',').next().unwrap_or(vars), r);
            return;
        }
    }
    // Ruby `EXPR.each do |x|`, `EXPR.each { |x|`.
    for &each in &terms.block_methods {
        if let Some(at) = t.find(each) {
            let var = t[at + each.len()..].split('|').next().unwrap_or("");
            if let Some(r) = expr_resource(&t[..at], bindings) {
                bind(bindings, var, r);
            }
            return;
        }
    }
    // Assignments: `x = EXPR`, `x, _, err := EXPR`, `const x = EXPR`, `@x ||= EXPR`.
    let s = ["const ", "let ", "var ", "val "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t);
    if let Some(eq) = s.find('=') {
        let (lhs, rhs) = s.split_at(eq);
        let lhs = lhs.trim_end_matches([':', '|']).trim();
        let rhs = &rhs[1..];
        if !rhs.starts_with('=') && !lhs.ends_with(['!', '<', '>']) {
            let first = lhs.split(',').next().unwrap_or(lhs).trim();
            let first = first.trim_start_matches('@');
            let first = first.split(':').next().unwrap_or(first).trim();
            if let Some(r) = expr_resource(rhs, bindings) {
                bind(bindings, first, r);
            }
        }
    }
    // Annotations: `mr: gitlab.v4.objects.ProjectMergeRequest`, `r *gitlab.Runner`,
    // `runners []*gitlab.Runner`, `runner: RunnerSchema`.
    for &(r, ty) in &terms.type_names {
        for at in super::word_offsets(t, ty, super::WordBytes::Ident) {
            let before = &t[..at];
            // The qualifier (`gitlab.v4.objects.`, `gitlab.`), then `*`, `[]`, `:`.
            let before = before
                .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if !before.ends_with(['.', ' ', ':', '*', ']', '(', ',']) && !before.is_empty() {
                continue;
            }
            let before = before.trim_end_matches(['*', '[', ']', '&']);
            let Some(b) = before
                .strip_suffix(':')
                .or_else(|| before.strip_suffix(' '))
            else {
                continue;
            };
            let b = b.trim_end_matches([' ', ':']);
            let var: String = b
                .bytes()
                .rev()
                .take_while(|&c| is_ident_byte(c))
                .map(char::from)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !var.is_empty()
                && !matches!(
                    var.as_str(),
                    "func" | "type" | "var" | "return" | "new" | "class" | "interface"
                )
            {
                bind(bindings, &var, r);
            }
        }
    }
}

/// Bindings inside an expression: Python comprehensions (`[r for r in runners if r.active]`)
/// and callbacks of list methods (`runners.filter((r) => r.active)`, `rs.select { |r| r.active }`).
fn inline_bindings(t: &str, bindings: &mut Vec<(String, Resource)>, methods: &[&str]) {
    let mut rest = t;
    while let Some(i) = rest.find(" for ") {
        let after = &rest[i + 5..];
        if let Some((var, tail)) = after.split_once(" in ") {
            let expr = tail
                .split([']', ')', '}'])
                .next()
                .unwrap_or(tail)
                .split(" if ")
                .next()
                .unwrap_or(tail);
            if let Some(r) = expr_resource(expr, bindings) {
                bind(bindings, var.trim(), r);
            }
        }
        rest = after;
    }
    for &method in methods {
        let mut from = 0;
        while let Some(k) = t[from..].find(method) {
            let at = from + k;
            from = at + method.len();
            let list = &t[..at];
            // After the last character that cannot be part of the list's expression (which may
            // be a multi-byte one).
            let list_start = list
                .char_indices()
                .rev()
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '@'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let Some(r) = expr_resource(&list[list_start..], bindings) else {
                continue;
            };
            let cb = t[from..].trim_start_matches([' ', '(', '{', '|']);
            let var: String = cb
                .bytes()
                .take_while(|&c| is_ident_byte(c))
                .map(char::from)
                .collect();
            let after_var = cb[var.len()..].trim_start_matches([')', ' ', '|', ':']);
            let arrow = after_var.starts_with("=>")
                || t[from..].trim_start().starts_with(['{', '|'])
                || after_var.starts_with(',');
            if arrow && !var.is_empty() {
                bind(bindings, &var, r);
            }
        }
    }
}

/// The identifier right before a `.` at `dot` (the object of `x.field`), if there is one.
pub fn receiver(text: &str, dot: usize) -> Option<&str> {
    let b = text.as_bytes();
    let mut s = dot;
    // `mr["x"]`, `mr?.x`, `mr!.x`, `runner().x` end with other bytes: no receiver.
    let mut end = if s > 0 && b[s - 1] == b'?' { s - 1 } else { s };
    // An element of a list: `runners[0].active`.
    if end > 0 && b[end - 1] == b']' {
        let open = text[..end].rfind('[')?;
        if text[open..end].contains(['(', '\n']) {
            return None;
        }
        end = open;
    }
    s = end;
    while s > 0 && is_ident_byte(b[s - 1]) {
        s -= 1;
    }
    (s < end).then(|| &text[s..end])
}

/// Does the receiver `receiver` name a `name` object: the name itself, or a compound name whose
/// last word it is (`current_user` and `currentUser` for `user`, `target_project` for
/// `project`), as code names the objects a client library hands out.
pub fn receiver_names(receiver: &str, name: &str) -> bool {
    // lowerCamelCase: the name capitalised, after a lower-case letter or digit (`currentUser`).
    let capitalised = name
        .get(..1)
        .map(|first| format!("{}{}", first.to_ascii_uppercase(), &name[1..]));
    receiver == name
        // snake_case: `current_user`.
        || receiver
            .strip_suffix(name)
            .is_some_and(|head| head.len() > 1 && head.ends_with('_'))
        || capitalised.is_some_and(|c| {
            receiver
                .strip_suffix(c.as_str())
                .and_then(|head| head.chars().last())
                .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The object of `x.field` where `x` may be a call of a method: for `gl.projects.get(1).runners`
/// the object of the method (`projects`), else the plain [`receiver`].
pub fn chain_receiver(text: &str, dot: usize) -> Option<&str> {
    if let Some(r) = receiver(text, dot) {
        return Some(r);
    }
    let b = text.as_bytes();
    if dot == 0 || b[dot - 1] != b')' {
        return None;
    }
    let i = open_paren(b, dot - 1)?;
    // `i` is the `(`; before it the method name and its `.`.
    let mut m = i;
    while m > 0 && is_ident_byte(b[m - 1]) {
        m -= 1;
    }
    (m > 0 && m < i && b[m - 1] == b'.')
        .then(|| receiver(text, m - 1))
        .flatten()
}

/// The `(` that the `)` at `close` closes (looking back at most 400 bytes).
fn open_paren(b: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    let lower = close.saturating_sub(400);
    for j in (lower..=close).rev() {
        match b[j] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// The lines that end the walk up of [`enclosing_type_in`], in order: those that start a type
/// declaration (`type X`, `interface X`, exported or declared) and those that start with `}`.
/// For each, where it starts and where its line break is (a last line without one is never
/// above an offset). Read once per file ([`super::FileCtx::enclosing_type`]), so that each
/// question is a binary search instead of a walk up the lines to the first boundary.
pub fn boundary_lines(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        let line = &text[start..end];
        if line.starts_with('}') || declared_type(line).is_some() {
            out.push((start, end));
        }
        start = end + 1;
    }
    out
}

/// The name of the Go struct or TypeScript interface/type whose body holds `at`, if any:
/// the nearest `type X struct {`, `interface X {`, `type X = {` line above, unless a line that
/// closes a top-level body (`}`) comes between. A declaration whose `{` comes a few lines
/// below (`interface X\n  extends Y<…> {`) counts too. `boundaries`: the file's
/// [`boundary_lines`].
pub fn enclosing_type_in<'t>(
    text: &'t str,
    boundaries: &[(usize, usize)],
    at: usize,
) -> Option<&'t str> {
    // The nearest boundary whose line ends before the line that holds `at`.
    let nearest = boundaries.partition_point(|&(_, end)| end < at);
    let (start, end) = *boundaries.get(nearest.checked_sub(1)?)?;
    let line = &text[start..end];
    if line.starts_with('}') {
        return None;
    }
    type_with_body(declared_type(line)?, &text[end..at])
}

/// The name a type declaration gives (`rest`: what follows `type ` or `interface `), if the
/// declaration opens a body, on its line or on the lines `below` it.
fn type_with_body<'t>(rest: &'t str, below: &str) -> Option<&'t str> {
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, tail) = rest.split_at(name_end);
    let body = tail.contains("struct {")
        || tail.trim_end().ends_with('{')
        || tail.contains("= {")
        || (!tail.contains([';', '{', '}']) && opens_below(below));
    (body && !name.is_empty()).then_some(name)
}

/// What follows `type `, `interface ` or Rust's `struct ` at the start of a line (after its
/// indentation and an `export `, `declare ` or `pub `), if the line declares a type.
fn declared_type(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("export ").unwrap_or(t);
    let t = t.strip_prefix("declare ").unwrap_or(t);
    // A Rust struct (`pub struct Runner {`, `pub(crate) struct Runner {`): its fields are the
    // resource's as a Go struct's or a TypeScript interface's are.
    let rust = t
        .strip_prefix("pub ")
        .or_else(|| t.strip_prefix("pub(crate) "))
        .unwrap_or(t);
    t.strip_prefix("type ")
        .or_else(|| t.strip_prefix("interface "))
        .or_else(|| rust.strip_prefix("struct "))
}

/// Does a declaration continued on the lines of `rest` (`  extends Y<…> {`) open its body
/// within a few lines, before any `;` or `}`?
fn opens_below(rest: &str) -> bool {
    let head: usize = rest.split_inclusive('\n').take(6).map(str::len).sum();
    let head = &rest[..head];
    match head.find(['{', ';', '}']) {
        Some(i) => head.as_bytes()[i] == b'{',
        None => false,
    }
}

/// The innermost of `objects` (as [`json_objects`] gives them: sorted by their `{`, nested
/// or apart) that holds `at`: a binary search, then a walk back over the objects before `at`
/// (its siblings) to the first that closes after it.
pub fn innermost_object(objects: &[(usize, usize)], at: usize) -> Option<(usize, usize)> {
    let before = objects.partition_point(|&(open, _)| open < at);
    objects[..before]
        .iter()
        .rev()
        .find(|&&(_, close)| close > at)
        .copied()
}

/// JSON objects of a file: for each, its `{` and `}` offsets (strings skipped).
pub fn json_objects(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut i = 0;
    // Inside a string that holds a document (Rust's `r#"{ … }"#`, Python's `"""{ … }"""`), its
    // braces and quoted keys are read as the document's: the string's own quotes are skipped.
    let mut raw = false;
    while i < b.len() {
        match b[i] {
            b'"' if b[i..].starts_with(b"\"\"\"") => i += 2,
            b'"' if raw && b.get(i + 1) == Some(&b'#') => raw = false,
            b'"' if !raw && i >= 2 && b[i - 1] == b'#' && b[..i - 1].ends_with(b"r") => raw = true,
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => stack.push(i),
            b'}' => {
                if let Some(open) = stack.pop() {
                    out.push((open, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.sort_unstable();
    out
}

/// The keys of a JSON object's own level (not of nested objects or arrays); of a Go struct,
/// the names its fields' `json:"…"` tags give.
pub fn own_keys(text: &str, open: usize, close: usize) -> Vec<&str> {
    let b = text.as_bytes();
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut i = open + 1;
    while i < close {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < close && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let end = i.min(close);
                if depth == 0 && text[end + 1..].trim_start().starts_with(':') {
                    keys.push(&text[start..end]);
                } else if depth == 0 && text[..start - 1].ends_with("json:") {
                    // A Go struct's field by its tag (`IID int `json:"iid"``): the API's name.
                    let tag = &text[start..end];
                    keys.push(tag.split(',').next().unwrap_or(tag));
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            // An unquoted key of a code object literal (`iid: 1,`).
            c if depth == 0 && is_ident_byte(c) && !is_ident_byte(b[i - 1]) => {
                let start = i;
                while i < close && is_ident_byte(b[i]) {
                    i += 1;
                }
                let rest = &text[i..close];
                // `iid: 1,`, or a shorthand property (`{ iid, title }`).
                if (rest.starts_with(':') && !rest.starts_with("::"))
                    || shorthand_property(text, open, start, rest)
                {
                    keys.push(&text[start..i]);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// Is the word at `start` (of an object literal opening at `open`, `rest` after the word) a
/// shorthand property (`{ iid, title: t }`): an entry of its own, after `{` or `,` and before
/// `,` or the object's end?
fn shorthand_property(text: &str, open: usize, start: usize, rest: &str) -> bool {
    let before = text[open..start].trim_end();
    let after = rest.trim_start();
    (before.ends_with(',') || before.len() == 1) && (after.is_empty() || after.starts_with(','))
}

/// The offset of the bracket that closes the one at `open` (`(` or `{`).
pub fn matching(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (o, c) = match b.get(open)? {
        b'(' => (b'(', b')'),
        b'{' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, &x) in b.iter().enumerate().skip(open).take(8000) {
        if x == o {
            depth += 1;
        } else if x == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`enclosing_type_in`] of a text, its boundary lines read for the one question.
    fn enclosing_type(text: &str, at: usize) -> Option<&str> {
        enclosing_type_in(text, &boundary_lines(text), at)
    }

    /// The walk up the lines that [`enclosing_type_in`] answers by a binary search over the
    /// boundary lines: the nearest type declaration or `}` line above `at`'s line decides.
    fn enclosing_type_by_walk(text: &str, at: usize) -> Option<&str> {
        let before = &text[..at];
        let mut end = before.rfind('\n')?;
        loop {
            let start = before[..end].rfind('\n').map_or(0, |i| i + 1);
            let line = &before[start..end];
            if line.starts_with('}') {
                return None;
            }
            if let Some(rest) = declared_type(line) {
                return type_with_body(rest, &before[end..]);
            }
            if start == 0 {
                return None;
            }
            end = start - 1;
        }
    }

    proptest! {
        /// A source is called where `memmem::find_iter`'s occurrences say it is (leftmost
        /// first, not overlapping, followed by no identifier byte).
        #[test]
        fn calls_source_as_find_iter_finds(
            expr in "[a.(_x]{0,16}",
            // A source's name is never empty (`.runners.list(`).
            source in "[a._x][a.(_x]{0,3}",
        ) {
            let name = source.trim_end_matches('(');
            let b = expr.as_bytes();
            let expected = memchr::memmem::find_iter(b, name.as_bytes())
                .any(|at| b.get(at + name.len()).is_none_or(|&c| !is_ident_byte(c)));
            prop_assert_eq!(calls_source(&expr, &source), expected);
        }
    }

    proptest! {
        /// The innermost object holding an offset is the last of those that open before it
        /// and close after it.
        #[test]
        fn innermost_object_is_the_last_that_holds(
            text in proptest::collection::vec(prop_oneof![Just('{'), Just('}'), Just('a'), Just('"')], 0..40)
                .prop_map(|v| v.into_iter().collect::<String>()),
        ) {
            let objects = json_objects(&text);
            for at in 0..=text.len() {
                let expected = objects
                    .iter()
                    .take_while(|(open, _)| *open < at)
                    .filter(|(_, close)| *close > at)
                    .last()
                    .copied();
                prop_assert_eq!(innermost_object(&objects, at), expected, "at {} of {:?}", at, text);
            }
        }
    }

    proptest! {
        /// Every offset of texts made of declaration, closing and member lines gets the
        /// walk's answer.
        #[test]
        fn enclosing_type_is_the_walks_answer(
            lines in proptest::collection::vec(
                prop_oneof![
                    Just("type Runner struct {"),
                    Just("export interface RunnerSchema {"),
                    Just("interface Job"),
                    Just("  extends Base {"),
                    Just("declare type T = {"),
                    Just("type Id = number;"),
                    Just("}"),
                    Just("  }"),
                    Just("  active: boolean;"),
                    Just("\tActive bool `json:\"active\"`"),
                    Just("const r = { active: true };"),
                    Just(""),
                ],
                0..24,
            ),
            newline_at_end in any::<bool>(),
        ) {
            let mut text = lines.join("\n");
            if newline_at_end {
                text.push('\n');
            }
            let boundaries = boundary_lines(&text);
            for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                prop_assert_eq!(
                    enclosing_type_in(&text, &boundaries, at),
                    enclosing_type_by_walk(&text, at),
                    "at {} of {:?}", at, text
                );
            }
        }
    }

    #[test]
    fn imports_and_aliases() {
        let f = analyse("import (\n\tgogitlab \"github.com/xanzy/go-gitlab\"\n)\n");
        assert!(f.imports(Sdk::GoGitlab));
        assert_eq!(f.go_packages, vec!["gogitlab"]);
        let f = analyse("import gitlab.v4.objects\n");
        assert!(f.imports(Sdk::PythonGitlab));
        assert!(analyse("import gitlabber\n").imports.is_empty());
        let f = analyse("try:\n    pass\nexcept gitlab.exceptions.GitlabGetError:\n    pass\n");
        assert!(f.imports(Sdk::PythonGitlab));
        assert!(analyse("import { Gitlab } from '@gitbeaker/rest';\n").imports(Sdk::Gitbeaker));
    }

    #[test]
    fn bindings() {
        let f = analyse(
            "import gitlab\nrunners = gl.runners.list(get_all=True)\nfor r in runners:\n    pass\n\
             def f(mr: gitlab.v4.objects.GroupMergeRequest):\n    pass\nflags = p.feature_flags.list()\n",
        );
        assert_eq!(f.resource_of("runners"), Some(Resource::Runner));
        assert_eq!(f.resource_of("r"), Some(Resource::Runner));
        assert_eq!(f.resource_of("mr"), Some(Resource::MergeRequest));
        assert_eq!(f.resource_of("flags"), None);
        let f = analyse(
            "import gitlab\nrs = gl.runners.list()\nips = [x.ip_address for x in rs if x.active]\n",
        );
        assert_eq!(f.resource_of("x"), Some(Resource::Runner));
        let f = analyse(
            "import { Gitlab } from '@gitbeaker/rest';\nconst rs = await api.Runners.all();\nrs.filter((r) => r.active).forEach(q => q);\nflags.filter((f) => f.active);\n",
        );
        assert_eq!(f.resource_of("r"), Some(Resource::Runner));
        assert_eq!(f.resource_of("f"), None);
        let f = analyse(
            "import \"github.com/xanzy/go-gitlab\"\nrs, _, err := git.Runners.ListRunners(opt)\nfor _, r := range rs {\n}\nfunc show(m *gitlab.MergeRequest) {}\n",
        );
        assert_eq!(f.resource_of("r"), Some(Resource::Runner));
        assert_eq!(f.resource_of("m"), Some(Resource::MergeRequest));
        assert_eq!(f.resource_of("err"), None);
    }

    #[test]
    fn receivers() {
        let t = "gl.projects.get(1, lazy=True).runners.create(x)";
        assert_eq!(
            chain_receiver(t, t.find(".runners").unwrap()),
            Some("projects")
        );
        let t = "runners[0].active";
        assert_eq!(receiver(t, t.find(".active").unwrap()), Some("runners"));
        let f = analyse("import gitlab\n");
        let t = "d = project.mergerequests.get(1, lazy=True).changes()";
        assert_eq!(
            f.resource_before(t, t.find(".changes").unwrap()),
            Some(Resource::MergeRequest)
        );
        let t = "gl.runners.create(x)";
        assert_eq!(chain_receiver(t, t.find(".runners").unwrap()), Some("gl"));
    }

    #[test]
    fn receivers_name_an_object_by_their_last_word() {
        for (r, name) in [
            ("user", "user"),
            ("current_user", "user"),
            ("currentUser", "user"),
            ("gl2User", "user"),
            ("target_project", "project"),
        ] {
            assert!(receiver_names(r, name), "{r}");
        }
        for r in [
            "users",
            "user_",
            "_user",
            "superuser",
            "gl",
            "CurrentUSER",
            "USER_user2",
        ] {
            assert!(!receiver_names(r, "user"), "{r}");
        }
        assert!(!receiver_names("project_runners", "project"));
    }

    #[test]
    fn types_and_json() {
        let t = "type Runner struct {\n\tActive bool `json:\"active\"`\n}\n";
        assert_eq!(enclosing_type(t, t.find("Active").unwrap()), Some("Runner"));
        let t = "export interface RunnerSchema extends Record<string, unknown> {\n  ip_address: string;\n}\n";
        assert_eq!(
            enclosing_type(t, t.find("ip_").unwrap()),
            Some("RunnerSchema")
        );
        // A declaration whose body opens lines below, and one that has no body.
        let t = "export interface WebhookJobEventSchema\n  extends Omit<Base, 'x'> {\n  runner: {\n    active: boolean;\n";
        assert_eq!(
            enclosing_type(t, t.find("active").unwrap()),
            Some("WebhookJobEventSchema")
        );
        let t = "type Id = number;\nconst runner = {\n  active: true,\n";
        assert_eq!(enclosing_type(t, t.find("active").unwrap()), None);
        let t = "interface Runner\n  extends Base;\nconst r = {\n  active: true,\n";
        assert_eq!(enclosing_type(t, t.find("active").unwrap()), None);
        assert_eq!(enclosing_type("  active: boolean;", 2), None);
        assert!(Resource::Runner.names_type("RegisterNewRunnerOptions"));
        assert!(!Resource::Runner.names_type("RunnerManager"));
        assert!(!Resource::Runner.names_type("RunnerUpdateInput"));
        let j = r#"{"id": 1, "runner": {"runner_type": "x", "active": true}, "iid": 2}"#;
        let objs = json_objects(j);
        assert_eq!(objs.len(), 2);
        assert_eq!(
            own_keys(j, objs[0].0, objs[0].1),
            vec!["id", "runner", "iid"]
        );
        assert_eq!(
            own_keys(j, objs[1].0, objs[1].1),
            vec!["runner_type", "active"]
        );
    }
}
