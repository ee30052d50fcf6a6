//! A field in a definition or a recorded response of an API resource: a key of a Go struct
//! (`json:"merged_by"`) or a TypeScript interface or type (`ip_address: string;`) whose name says
//! it is the resource (`MergeRequest`, `RegisterNewRunnerOptions`; not `RunnerManager`, nor
//! webhook payloads), in a file that mentions the platform; or a key of a JSON object whose own
//! keys say it is the resource (a runner has `runner_type` or `is_shared`, a merge request `iid`,
//! `source_branch` and `target_branch`), also written as an object literal in code (a mock).

use serde::Serialize;

use super::check::Fields;
use crate::catalog::evidence::{Evidence, Shows};
use super::sdk_field::resource_and_name;
use super::{Hit, PatternKind};
use crate::syntax::sdk::{self, Resource, names_event};
use crate::syntax::{FileCtx, FileKind, WordBytes, line_start_within};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceField {
    pub name: String,
    pub resource: Resource,
}

impl PatternKind for ResourceField {
    const NAME: &'static str = "resource_field";
    const REQUIRED: &'static [&'static str] = &["name", "resource"];
    const OPTIONAL: &'static [&'static str] = &[];
    const MATCHES: &'static str =
        "a field of the resource's type definition (Go struct tag, TypeScript interface) or of a recorded JSON response";

    fn parse(f: &mut Fields) -> Option<Self> {
        let (resource, name) = resource_and_name(f)?;
        Some(ResourceField { name, resource })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    /// The name as written, and a name of several words as code in other cases writes it:
    /// `MergeStatus` (a Go or C# member, gitlab4j's `getMergeStatus()`), `mergeStatus` and
    /// `Merge_Status` (a C# client's entity that keeps the API's names, capitalized).
    fn anchors(&self) -> Vec<String> {
        let mut v = vec![self.name.clone()];
        v.extend(cased_forms(&self.name).into_iter().flatten());
        v.extend(title_snake(&self.name));
        v
    }

    /// The resource's type name or a characteristic key must be in the file too, or the
    /// platform's name (a variable named for the resource is read in a file that names it).
    fn context_anchors(&self) -> Vec<String> {
        let mut v: Vec<String> = match self.resource {
            Resource::Runner => vec!["Runner".into(), "runner_type".into(), "is_shared".into()],
            Resource::MergeRequest => vec![
                "MergeRequest".into(),
                "source_branch".into(),
                "merge_when_pipeline_succeeds".into(),
                "diff_refs".into(),
                "approvals_".into(),
                "detailed_merge_status".into(),
            ],
            Resource::MergeRequestApprovals => vec!["Approval".into(), "approvals_".into()],
        };
        v.extend(self.resource.path_segment().map(str::to_string));
        v.extend(self.resource.own_member().map(str::to_string));
        v
    }

    fn context_evidence(&self) -> &'static [Shows] {
        &[Shows::Platform]
    }

    fn describe(&self) -> String {
        format!(
            "field {} in a {} definition or recorded response",
            self.name,
            self.resource.as_str()
        )
    }

    fn applies(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Code | FileKind::Monitoring)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let text = ctx.src.text;
        let b = text.as_bytes();
        let json = ctx.src.path.ends_with(".json");
        // A webhook payload (`"object_kind": "build"`) is no REST response: its `runner` and
        // `merge_request` objects are the events' own.
        if json && ctx.contains("\"object_kind\"") {
            return Vec::new();
        }
        // Objects named by GraphQL global ids (`gid://gitlab/Ci::Runner/1`), in a file that shows
        // no REST API, are the GraphQL API's: their fields (a `CiRunner`'s `active`) are not the
        // REST resource's.
        if ctx.contains("gid://gitlab/") && !ctx.shows_rest_api_base() {
            return Vec::new();
        }
        // The types generated for a whole GraphQL schema declare every field of it, used or not.
        if ctx.src.class.kind == FileKind::Code && ctx.contains(crate::syntax::graphql_types::WHOLE_SCHEMA) {
            return Vec::new();
        }
        // A type definition counts in a file that mentions the platform; a recorded response's
        // own keys say enough.
        let ev = ctx.evidence();
        let platform =
            !json && (mentions_platform(ev, text) || path_names_platform(ctx.src.path));
        let mut out = Vec::new();
        // Each type's answer once: a type of many fields is not searched for once per field.
        let mut payload_types = super::Answers::default();
        // Asked once, and only where a field is named by an annotation.
        let annotated_resource = std::cell::LazyCell::new(|| {
            !crate::syntax::graphql_docs::contains_ignore_case(ctx.src.path.as_bytes(), b"webhook")
                && annotated_keys_say(text, self.resource)
        });
        for at in ctx.word_offsets(&self.name, WordBytes::Ident) {
            let end = at + self.name.len();
            if at == 0 || ctx.src.in_comment(at) {
                continue;
            }
            let ok = if json {
                b[at - 1] == b'"'
                    && b.get(end) == Some(&b'"')
                    && text[end + 1..].trim_start().starts_with(':')
                    && self.json_object_is_resource(ctx, at)
            } else {
                // Inside a type definition, its name says which resource it is, nested objects
                // included (a webhook payload's `runner: { active: boolean; … }` is no runner's
                // REST field).
                let declared = ctx.enclosing_type(at);
                let in_type = declared.filter(|&t| {
                    !names_event(t) && !payload_types.is(t, || payload_type(ctx, t))
                });
                // A type named for the resource in a file that names the platform, or a type
                // whose own members are the resource's (`iid`, `source_branch`,
                // `target_branch`: a type generated from a response, `RequestType`, in a file
                // that names nothing).
                ((go_tag(text, at, end) || ts_member(text, at, end))
                    && in_type.is_some_and(|t| {
                        (self.resource.names_type(t) && platform)
                            || self.json_object_is_resource(ctx, at)
                    }))
                    // A recorded response written as an object literal in code (a mock), or as
                    // JSON in a string of a class that is no event (a Java text block in a test
                    // class).
                    || ((declared.is_none() || in_type.is_some())
                        && literal_key(text, at, end)
                        && self.json_object_is_resource(ctx, at)
                        && !built_for_other_platform(ev, text, at))
                    // A Kotlin data class's property whose fellow properties are the
                    // resource's keys (`data class MergeRequestsDTOItem(val iid: Int, …,
                    // val source_branch: String, …, val merge_status: String,`).
                    || (kotlin_property(text, at, end)
                        && self.constructor_is_resource(ctx, at, &mut payload_types))
                    // A field named by a serialization annotation in a file whose annotated keys
                    // are the resource's (`@JsonProperty("iid")`, `"source_branch"`,
                    // `"target_branch"` …) and none of an event's: a model of the response
                    // whatever its class is called (`ForgePullRequest`), in a file that may never
                    // name the platform (an Android client's `MrListItem`).
                    || (serialized_name(text, at, end)
                        && declared.is_none_or(|t| !names_event(t))
                        && *annotated_resource)
            };
            if ok {
                out.push(Hit::new(at, end, self.name.clone()));
            }
        }
        if !json {
            self.detect_with_evidence(ctx, &mut out);
        }
        out
    }
}

/// What `name` (a variable, PHP's `$` aside) is last assigned before `at`: the rest of the
/// assignment's line after `=`. Only a bounded stretch before the read is looked at.
fn binding<'t>(text: &'t str, name: &str, at: usize) -> Option<&'t str> {
    let b = text.as_bytes();
    let from = at.saturating_sub(BINDING_REACH);
    // The name's last places before the read, at most a few dozen (a line of thousands of reads
    // of one variable is not read back over for each).
    for rel in memchr::memmem::rfind_iter(&b[from..at], name.as_bytes()).take(BINDING_PLACES) {
        let s = from + rel;
        let e = s + name.len();
        let bounded = (s == 0 || !crate::syntax::is_ident_byte(b[s - 1]))
            && b.get(e).is_some_and(|c| !crate::syntax::is_ident_byte(*c));
        let rest = text[e..].trim_start_matches([' ', '\t']);
        if !bounded || !rest.starts_with('=') || rest.starts_with("==") {
            continue;
        }
        let rest = &rest[1..];
        // The assignment's line, within a bound.
        let mut end = rest.find('\n').unwrap_or(rest.len()).min(BINDING_LINE);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        return Some(&rest[..end]);
    }
    None
}

/// Is `name` last assigned before `at` from a webhook payload's `object_attributes`?
fn bound_from_webhook(text: &str, name: &str, at: usize) -> bool {
    binding(text, name, at).is_some_and(|rhs| rhs.contains("object_attributes"))
}

/// Is the member read whose name ends at `end` the target of an assignment (`detail["ip_address"]
/// = …`: the program fills in its own copy)?
fn written_to(text: &str, end: usize) -> bool {
    let rest = text[end..].trim_start_matches(['"', '\'', ']', ' ', '\t']);
    rest.starts_with('=') && !rest.starts_with("==")
}

/// Is `name` last assigned before `at` the result of a call named for the resource: the
/// called function's name ends with the resource's words, after a verb (`detail =
/// api.get_runner(runner["id"])`, `const mr = await client.fetchMergeRequest(iid)`), or with
/// them and `details`, `info` or `data`? A call named for another object of it
/// (`get_runner_managers`) is not.
fn bound_from_resource_call(text: &str, name: &str, at: usize, resource: Resource) -> bool {
    let Some(rhs) = binding(text, name, at) else {
        return false;
    };
    let Some(open) = rhs.find('(') else {
        return false;
    };
    let callee_start = rhs[..open]
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let mut words = crate::syntax::sdk::ident_words(&rhs[callee_start..open]);
    while words
        .last()
        .is_some_and(|w| matches!(w.as_str(), "details" | "detail" | "info" | "data"))
    {
        words.pop();
    }
    // The resource's words end the name: the last one, or the last two (`merge_request`).
    let tail = |k: usize| words[words.len().saturating_sub(k)..].join("_");
    let last_is_request = words
        .last()
        .is_some_and(|w| matches!(w.as_str(), "request" | "requests"));
    words.len() > 1
        && (resource.names_variable(&tail(1))
            || (last_is_request && resource.names_variable(&tail(2))))
}

/// How much of a binding's line is read.
const BINDING_LINE: usize = 512;

/// How many of a variable's places before a read are looked at for its binding.
const BINDING_PLACES: usize = 64;

/// How far before a read its variable's binding is looked for.
const BINDING_REACH: usize = 4096;

/// Is the type `t` a webhook payload's part: the type of an `object_attributes` member
/// (`object_attributes: MergeRequestAttributes;`, Go's `Object ObjectAttr
/// `json:"object_attributes"``) or of a member of an event type (`NoteHook`'s
/// `merge_request?: GitLabMergeRequest`)? Asked only for a type that holds a field.
fn payload_type(ctx: &FileCtx, t: &str) -> bool {
    let text = ctx.src.text;
    let b = text.as_bytes();
    text.match_indices(t).any(|(i, _)| {
        let whole = (i == 0 || !crate::syntax::is_ident_byte(b[i - 1]))
            && !b.get(i + t.len()).is_some_and(|&c| crate::syntax::is_ident_byte(c));
        // A Go field of the type (`Object ObjectAttr `json:"object_attributes"``, `Runner
        // *Runner `json:"runner"`` in a `BuildEvent` struct).
        let tag = text[i + t.len()..].trim_start_matches([' ', '\t']);
        if whole && tag.starts_with("`json:\"") && text[..i].ends_with([' ', '\t', '*', ']']) {
            return tag.starts_with("`json:\"object_attributes\"")
                || ctx.enclosing_type(i).is_some_and(names_event);
        }
        let before = text[..i].trim_end_matches([' ', '\t']);
        let Some(member) = before.strip_suffix(':') else {
            return false;
        };
        let member = member.strip_suffix('?').unwrap_or(member);
        let name_at = member
            .bytes()
            .rposition(|c| !crate::syntax::is_ident_byte(c))
            .map_or(0, |p| p + 1);
        whole
            && (&member[name_at..] == "object_attributes"
                || ctx.enclosing_type(i).is_some_and(names_event))
    })
}

/// Is the key at `at` inside a webhook payload written as an object literal or a JSON object:
/// an enclosing object has the payload's own keys (`object_kind`, `object_attributes`)? A merge
/// request's attributes and a build's runner there are the event's, not the REST API's.
pub(super) fn in_event_payload(text: &str, objects: &[(usize, usize)], at: usize) -> bool {
    let before = objects.partition_point(|&(open, _)| open < at);
    objects[..before]
        .iter()
        .filter(|&&(_, close)| close > at)
        .any(|&(open, close)| {
            sdk::own_keys(text, open, close)
                .iter()
                .any(|k| matches!(*k, "object_kind" | "object_attributes"))
        })
}

/// How far back a variable's declaration is looked for (a function's parameters).
const DECLARATION_REACH: usize = 4096;

/// Is the variable `name`, read at `at`, declared with an event type in the code before it
/// (`func handle(p MergeEventPayload)`, `var p *gitlab.MergeEvent`, `(p: MergeHookPayload)`)?
fn declared_as_event(text: &str, name: &str, at: usize) -> bool {
    let from = floor(text, at.saturating_sub(DECLARATION_REACH));
    let region = &text[from..at];
    region.match_indices(name).any(|(i, _)| {
        let rb = region.as_bytes();
        if i > 0 && crate::syntax::is_ident_byte(rb[i - 1]) {
            return false;
        }
        let rest = &region[i + name.len()..];
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        if !rest.starts_with([' ', '\t']) {
            return false;
        }
        let ty = rest.trim_start().trim_start_matches(['*', '&']);
        let n = ty
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(ty.len());
        let ty = &ty[..n];
        let last = ty.rsplit('.').next().unwrap_or(ty);
        !last.is_empty() && names_event(last)
    })
}

/// How far before a lambda its functional interface is looked for.
const LAMBDA_REACH: usize = 200;

/// Java's functional interfaces whose first type argument is a lambda's parameter's type.
const FUNCTIONAL: [&str; 5] = ["Consumer<", "Predicate<", "Function<", "BiConsumer<", "UnaryOperator<"];

/// The type the variable `name`, read at `at`, is declared with in the code before it: a
/// parameter or a local written `name: T` (Kotlin, Scala, TypeScript), `name T` / `name *pkg.T`
/// (Go, a method's receiver `(m *glMR)` included) or `T name` (Java, C#; followed by `,`, `)`,
/// `=` or `;`). The type's last segment (`MergeRequest` of
/// `org.gitlab4j.api.models.MergeRequest`, `MergeRequestModel`, Go's unexported `gitlabMR`).
fn declared_type<'t>(text: &'t str, name: &str, at: usize) -> Option<&'t str> {
    let from = floor(text, at.saturating_sub(DECLARATION_REACH));
    let region = &text[from..at];
    let rb = region.as_bytes();
    let ident = |c: u8| crate::syntax::is_ident_byte(c);
    let last_segment = |ty: &'t str| {
        let n = ty
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(ty.len());
        let ty = &ty[..n];
        let last = ty.rsplit('.').next().unwrap_or(ty);
        // A type starts with a capital, or is Go's unexported type: a camel-cased word that
        // starts lower-case (`glMR`, `gitlabMR`; not `string`, `int`, `dict`).
        let typed = last.starts_with(|c: char| c.is_ascii_uppercase())
            || (last.starts_with(|c: char| c.is_ascii_lowercase())
                && last.bytes().any(|c| c.is_ascii_uppercase()));
        (!last.is_empty() && typed).then_some(last)
    };
    region.rmatch_indices(name).find_map(|(i, _)| {
        let end = i + name.len();
        if (i > 0 && ident(rb[i - 1])) || rb.get(end).is_some_and(|&c| ident(c)) {
            return None;
        }
        // After the name: `name: T`, `name T`.
        let rest = &region[end..];
        let after = rest.strip_prefix(':').unwrap_or(rest);
        if after.starts_with([' ', '\t']) && !rest.starts_with("::") {
            let ty = after.trim_start().trim_start_matches(['*', '&']);
            if let Some(t) = last_segment(ty) {
                return Some(t);
            }
        }
        // Before the name: `T name,` `T name)` `T name =` `T name;`.
        let next = rest.trim_start_matches([' ', '\t']);
        // A Java lambda's parameter (`pr -> …`) typed by the functional interface just before
        // it (`Consumer<MergeRequest> action() { return pr -> …`).
        if next.starts_with("->") {
            let near = &region[floor(region, i.saturating_sub(LAMBDA_REACH))..i];
            return FUNCTIONAL
                .iter()
                .filter_map(|f| near.rfind(f).map(|k| k + f.len()))
                .max()
                .and_then(|k| last_segment(&near[k..]));
        }
        // Or a loop's element: Java's `for (Runner r : runners)`, C#'s `foreach (Runner r in …)`.
        let element = (next.starts_with(':') && !next.starts_with("::")) || next.starts_with("in ");
        if !(next.starts_with([',', ')', '=', ';']) || element) || next.starts_with("==") {
            return None;
        }
        let lead = region[..i].trim_end_matches([' ', '\t']);
        if lead.len() == region[..i].len() {
            return None;
        }
        let start = lead
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |(k, c)| k + c.len_utf8());
        if element {
            let open = lead[..start].trim_end();
            let head = open.strip_suffix('(')?.trim_end();
            if !(head.ends_with("for") || head.ends_with("foreach")) {
                return None;
            }
        }
        last_segment(&lead[start..])
    })
}

/// The collection whose elements the variable `name`, read at `at`, is the parameter of: a Java
/// lambda passed to the first operation on the collection or on its stream
/// (`selectedMergeRequests.stream().anyMatch(o -> … o.getMergeStatus()`,
/// `mrs.forEach(mr -> …`), declared in the code before the read.
fn stream_element<'t>(text: &'t str, name: &str, at: usize) -> Option<&'t str> {
    let from = floor(text, at.saturating_sub(DECLARATION_REACH));
    let region = &text[from..at];
    let rb = region.as_bytes();
    let ident = |c: u8| crate::syntax::is_ident_byte(c);
    region.rmatch_indices(name).find_map(|(i, _)| {
        let end = i + name.len();
        if (i > 0 && ident(rb[i - 1])) || rb.get(end).is_some_and(|&c| ident(c)) {
            return None;
        }
        if !region[end..].trim_start().starts_with("->") {
            return None;
        }
        // `(o ->`: the call's argument.
        let call = region[..i].trim_end().strip_suffix('(')?;
        // The operation's name, then the stream (`.stream()`) if any, then the collection.
        let op = call.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let op = op.strip_suffix('.')?.trim_end();
        let coll = op
            .strip_suffix("stream()")
            .and_then(|s| s.strip_suffix('.'))
            .map_or(op, str::trim_end);
        let dot = from + coll.len();
        (text.as_bytes().get(dot) == Some(&b'.'))
            .then(|| receiver_name(text, dot))
            .flatten()
    })
}

/// Is the receiver `r` (a slice of `text`) itself a member of an event or webhook payload
/// (`event.MergeRequest.MergeStatus`, `expectedEvent.Runner.Active`, `hook["merge_request"]`)?
fn member_of_event(text: &str, r: &str) -> bool {
    let start = r.as_ptr() as usize - text.as_ptr() as usize;
    let b = text.as_bytes();
    let Some(outer_end) = start.checked_sub(1).filter(|&i| b[i] == b'.') else {
        return false;
    };
    receiver_name(text, outer_end).is_some_and(|o| {
        let lower = o.to_ascii_lowercase();
        lower.ends_with("event")
            || lower.ends_with("hook")
            || lower.ends_with("payload")
            || declared_as_event(text, o, start)
    })
}

/// Does the text name another platform as an object of its own, not only as the host of a
/// repository's address: `https://github.com/owner/repo/pull/265` in a docstring, a Go
/// module path (`"github.com/xanzy/go-gitlab"`) and a reverse-domain package
/// (`package com.github.someone.bot`) say where code lives, not whose API it reads;
/// `api.github.com`, `github.NewClient`, `GitHub` still name it.
fn names_other_platform(ev: &Evidence, t: &str) -> bool {
    ev.other_platform().iter().any(|w| {
        t.match_indices(w).any(|(i, _)| {
            let after = &t[i + w.len()..];
            // A Java or Scala package named the reverse-domain way after an account there
            // (`com.github.someone.gitlabbot`, `io.github.someone`) says where the code lives too.
            let package = after.starts_with('.')
                && (t[..i].ends_with("com.") || t[..i].ends_with("io."));
            let address = after.starts_with(".com/") || after.starts_with(".org/") || package;
            !address || t[..i].ends_with("api.")
        })
    })
}

/// Whose object does the innermost block around `at` named for one platform say it is: the
/// nearest of the lines that open the blocks holding `at` ([`outer_lines`]: a function, a class,
/// a branch) that names this platform and not another (`true`: `def get_pr_detail_gitlab(pr):`,
/// `func (c *gitlabClient) MR(…) {`, `elif forge == "gitlab":`) or another and not this one
/// (`false`). `None`: no block around it names one platform.
fn block_named_for(ev: &Evidence, text: &str, at: usize) -> Option<bool> {
    outer_lines(text, at).find_map(|line| {
        let (mine, other) = (mentions_platform(ev, line), names_other_platform(ev, line));
        (mine != other).then_some(mine)
    })
}

/// Is the object literal at `at` built from another platform's data: the code around it
/// ([`REGION`]) names another platform and not this one (a dashboard mapping GitHub's pull
/// requests into the merge request's shape: `merged_by: null`)?
fn built_for_other_platform(ev: &Evidence, text: &str, at: usize) -> bool {
    let (a, b) = (at.saturating_sub(REGION), (at + REGION).min(text.len()));
    let near = &text[floor(text, a)..floor(text, b)];
    names_other_platform(ev, near) && !mentions_platform(ev, near)
}

/// Does the file's path name the platform (`gitlabMergeRequest.go`, `services/gitlab/mr.go`)?
fn path_names_platform(path: &str) -> bool {
    crate::syntax::graphql_types::names_gitlab(path, "")
}

/// How far around a field its evidence is looked for, in a file that names another platform.
const REGION: usize = 1500;

impl ResourceField {
    /// The field in any role, where the file shows the platform's resource: a key of a
    /// declaration named for it (`type gitlabMR struct`, `const GitLabMergeRequest =
    /// z.object({`, `class MergeRequest(BaseModel)`), or a read of a variable named for it
    /// (`mr.get("merge_status")`, `mr["merged_by"]`, `mr.merge_status`, `mr.getMergeStatus()`,
    /// `mr.MergeStatus`); in a file that names the platform or writes the resource's API path
    /// (`/merge_requests`). In a file that names another platform too, that evidence must be
    /// near the field and the other platform not.
    fn detect_with_evidence(&self, ctx: &FileCtx, out: &mut Vec<Hit>) {
        let text = ctx.src.text;
        let path = self.resource.path_segment();
        let ev = ctx.evidence();
        let shows = |t: &str| {
            mentions_platform(ev, t)
                || path.is_some_and(|p| {
                    t.match_indices(p).any(|(i, _)| {
                        t[..i].ends_with('/') || t[i + p.len()..].starts_with('/')
                    })
                })
        };
        let names_other = |t: &str| names_other_platform(ev, t);
        // What the prefilter's pass knows first: the platform's names are its literals.
        // A field already found in the resource's own definition or recorded response (a
        // struct or document whose keys are the resource's) shows it too.
        // So does a read of the platform's own numbering of the resource (`mr.iid`): a module
        // handed the library's objects by its caller imports nothing and may name nothing.
        let file_shows = !out.is_empty()
            || ev.platform().iter().any(|w| ctx.contains(w))
            || self.resource.own_member().is_some_and(|m| reads_member_by_name(ctx, m))
            || path.is_some_and(|p| ctx.contains(p) && shows(text))
            || path_names_platform(ctx.src.path);
        if !file_shows {
            return;
        }
        // Asked only where a field is in its role (most files have none). A file whose path
        // names the platform and no other (`gitlab_api/gitlab_input_models.py`) is the
        // platform's, whatever its prose compares it with ("the GitLab counterpart to GitHub
        // Dependabot").
        let own_path = path_names_platform(ctx.src.path) && !names_other(ctx.src.path);
        let other = std::cell::LazyCell::new(|| !own_path && names_other(text));
        // Declarations in a file whose path names webhooks (`gitlabwebhooks/domain/`,
        // `webhook/dto/`) describe what the platform sends to a webhook, not a response.
        let webhook_path =
            crate::syntax::graphql_docs::contains_ignore_case(ctx.src.path.as_bytes(), b"webhook");
        let [pascal, camel] = cased_forms(&self.name);
        let getter = pascal.as_ref().map(|p| format!("get{p}"));
        // A script reads the REST response's own keys (`mr.merged_by`); its camel-cased name
        // (`mr.mergedBy`) is the platform's only where gitbeaker camelizes the responses, else
        // it is a member of the app's own model (one built from a GraphQL `mergeUser`).
        let camel = camel.filter(|_| !script_path(ctx.src.path) || camelized(ctx));
        let forms = [Some(self.name.clone()), pascal, camel, getter, title_snake(&self.name)];
        // The places already found (a line may hold thousands: not searched each time).
        let mut found: std::collections::HashSet<usize> = out.iter().map(|h| h.start).collect();
        for form in forms.iter().flatten() {
            for at in ctx.word_offsets(form, WordBytes::Ident) {
                let end = at + form.len();
                if at == 0
                    || found.contains(&at)
                    || !self.in_role(text, (at, end), form == &self.name, webhook_path, &|| {
                        block_named_for(ev, text, at) == Some(true)
                    })
                    || ctx.src.in_comment(at)
                    || ctx
                        .enclosing_type(at)
                        .is_some_and(|t| names_event(t) || payload_type(ctx, t))
                {
                    continue;
                }
                if *other {
                    // The block the field is in, named for one platform, says whose object it
                    // is (`def get_pr_detail_gitlab(pr):`, `class GitHubProvider:`, `if forge
                    // == "gitlab":`); else the code around it must show this one and not the
                    // other.
                    let mine = match block_named_for(ev, text, at) {
                        Some(platform) => platform,
                        None => {
                            let (a, b) = (at.saturating_sub(REGION), (end + REGION).min(text.len()));
                            let (a, b) = (floor(text, a), floor(text, b));
                            let near = &text[a..b];
                            shows(near) && !names_other(near)
                        }
                    };
                    if !mine {
                        continue;
                    }
                }
                found.insert(at);
                out.push(Hit::new(at, end, self.name.clone()));
            }
        }
        out.sort_by_key(|h| h.start);
    }

    /// Is the word at `at..end` this resource's field: a key of a declaration named for the
    /// resource (`snake`: the name as the API writes it), or read from a variable named for it?
    /// With `webhook_path`, declarations are not (see [`Self::detect_with_evidence`]).
    /// `in_platform_block`: is `at` in a block named for the platform ([`block_named_for`])?
    /// There a multi-forge tool's name for the object (`pull_request`, `pr`) is the platform's.
    fn in_role(
        &self,
        text: &str,
        (at, end): (usize, usize),
        snake: bool,
        webhook_path: bool,
        in_platform_block: &dyn Fn() -> bool,
    ) -> bool {
        let b = text.as_bytes();
        if snake
            && (go_tag(text, at, end)
                || ts_member(text, at, end)
                || literal_key(text, at, end)
                || serialized_name(text, at, end))
            || (java_member(text, at, end) && !named_by_annotation_above(text, at))
            || (kotlin_property(text, at, end) && !named_by_annotation_above(text, at))
        {
            if webhook_path {
                return false;
            }
            return owner_name(text, at).is_some_and(|o| self.resource.names_type(o))
                || spread_of_resource(text, at).is_some_and(|v| self.resource.names_variable(v))
                || (snake
                    && inline_type_of(text, at).is_some_and(|v| self.resource.names_variable(v)));
        }
        // The receiver's end: `mr.x`, `mr["x"]`, `mr[:x]`, `mr.get("x")`, `mr.getX()`,
        // `$mr->x`.
        let quoted = matches!(b[at - 1], b'"' | b'\'') && b.get(end) == Some(&b[at - 1]);
        // A method reference of the resource's type (`MergeRequest::getMergeStatus` in
        // `mrs.stream().map(…)`): the type's getter.
        if !snake && text[..at].ends_with("::") && !text[end..].starts_with('(') {
            return receiver_name(text, at - 2).is_some_and(|t| self.resource.names_type(t));
        }
        let dot = if b[at - 1] == b'.' {
            // A getter is called (`mr.getMergeStatus()`); a member is read.
            let call = text[end..].starts_with("()");
            (call == text[at..end].starts_with("get")).then_some(at.saturating_sub(1))
        } else if snake && text[..at].ends_with("->") && !text[end..].starts_with('(') {
            // A PHP member read of a decoded response: `$mr->merge_status`.
            Some(at - 2)
        } else if snake && quoted {
            let lead = &text[..at - 1];
            let after = &text[end + 1..];
            by_name_accessor(lead)
                .filter(|_| after.starts_with([')', ',']))
                .or_else(|| (lead.ends_with('[') && after.starts_with(']')).then(|| at - 2))
                .or_else(|| attribute_by_name(text, at - 1))
        } else if snake && b[at - 1] == b':' && text[..at - 1].ends_with('[') {
            Some(at - 2)
        } else {
            None
        };
        let Some((d, r)) = dot.and_then(|d| Some((d, receiver_name(text, d)?))) else {
            return false;
        };
        // A variable last bound from a webhook payload (`$mr = $request['object_attributes'];`)
        // holds the event's copy of the fields, not a REST response.
        if member_of_event(text, r) || bound_from_webhook(text, r, d) {
            return false;
        }
        // A dict of the API read inside the resource's own model
        // (`class MergeRequestInfo:` … `def from_dict(cls, data):` … `data.get("merge_status")`).
        self.resource.names_variable(r)
            || (self.resource.names_variable_across_forges(r) && in_platform_block())
            || declared_type(text, r, at).is_some_and(|t| self.resource.names_type(t))
            || stream_element(text, r, at).is_some_and(|c| self.resource.names_variable(c))
            || (bound_from_resource_call(text, r, d, self.resource) && !written_to(text, end))
            || (snake && reads_own_member_near(text, r, at, self.resource))
            || (snake
                && quoted
                && !event_words(r)
                && enclosing_class(text, at).is_some_and(|c| self.resource.names_type(c)))
    }
}

/// Does the file read the member only the platform's object of a kind has (`.iid`), as a member
/// or by name (`c["iid"]`, `c.get('iid')`, `c[:iid]`)?
fn reads_member_by_name(ctx: &FileCtx, member: &str) -> bool {
    let name = member.trim_start_matches('.');
    ctx.contains(member)
        || ["[\"", "['", "(\"", "('"]
            .iter()
            .any(|open| {
                let close = if open.ends_with('"') { '"' } else { '\'' };
                ctx.contains(&format!("{open}{name}{close}"))
            })
        || ctx.contains(&format!("[:{name}]"))
}

/// Is the variable `r` also read, near `at`, for the member only the platform's object of this
/// kind has (`c["iid"]`, `c.get('iid')`, `c.iid`: the platform numbers merge requests within
/// their project)? Then it holds one, whatever its name (`for c in merges:`).
fn reads_own_member_near(text: &str, r: &str, at: usize, resource: Resource) -> bool {
    let Some(member) = resource.own_member() else {
        return false;
    };
    let name = member.trim_start_matches('.');
    let near = &text[same_block_around(text, at, 12)];
    let forms = [
        format!("{r}[\"{name}\"]"),
        format!("{r}['{name}']"),
        format!("{r}.get(\"{name}\""),
        format!("{r}.get('{name}'"),
        format!("{r}[:{name}]"),
        format!("{r}.{name}"),
    ];
    forms.iter().any(|f| {
        near.match_indices(f.as_str()).any(|(i, _)| {
            let before = near[..i].bytes().next_back();
            let after = near.as_bytes().get(i + f.len());
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        })
    })
}

/// The lines around `at`, at most `reach` each way, that do not cross the start of another
/// function or class (`def `, `class `, `func `, `function `, `fn `).
fn same_block_around(text: &str, at: usize, reach: usize) -> std::ops::Range<usize> {
    let b = text.as_bytes();
    let starts_block = |line: &[u8]| {
        let t = line.trim_ascii_start();
        let t = t.strip_prefix(b"async ").unwrap_or(t);
        let t = t.strip_prefix(b"export ").unwrap_or(t);
        [&b"def "[..], b"class ", b"func ", b"function ", b"fn "]
            .iter()
            .any(|k| t.starts_with(k))
    };
    let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
    let mut start = line_start;
    for _ in 0..reach {
        if start == 0 || starts_block(&b[start..memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i)]) {
            break;
        }
        let prev = memchr::memrchr(b'\n', &b[..start - 1]).map_or(0, |i| i + 1);
        start = prev;
    }
    let mut end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
    for _ in 0..reach {
        if end >= b.len() {
            break;
        }
        let next_end = memchr::memchr(b'\n', &b[end + 1..]).map_or(b.len(), |i| end + 1 + i);
        if starts_block(&b[end + 1..next_end]) {
            break;
        }
        end = next_end;
    }
    start..end
}

/// Does a variable's name say it holds an event's or webhook's object (`event`, `hook`,
/// `payload`, `object_attributes`, `attrs`)?
fn event_words(r: &str) -> bool {
    let r = r.to_ascii_lowercase();
    ["event", "hook", "payload", "attr"].iter().any(|w| r.contains(w))
}

/// The class whose body holds `at` (Python, Ruby, PHP, Java: a less-indented line that starts
/// with `class`), climbing through the methods between them.
fn enclosing_class(text: &str, at: usize) -> Option<&str> {
    outer_lines(text, at)
        .map(|line| {
            let t = line.trim_start();
            t.strip_prefix("export ").unwrap_or(t)
        })
        .find(|t| t.starts_with("class "))
        .and_then(declared_name)
}

/// The lines that hold the one of `at`, innermost first: each the nearest non-blank line above
/// the last that is indented less (above a `{` alone on its line, the line it opens the body
/// of), within [`OWNER_LINES`] lines. Lines are looked for within a
/// bound ([`OWNER_LOOK_BACK`]): a line of thousands of fields (one generated line) is not read
/// back to its start for each, and a line above longer than the bound ends the walk (no owner
/// is read from a part of it). What starts its line has no outer lines.
fn outer_lines(text: &str, at: usize) -> impl Iterator<Item = &str> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let b = text.as_bytes();
    let from = at.saturating_sub(OWNER_LOOK_BACK);
    let mut end = memchr::memrchr(b'\n', &b[from..at]).map(|i| from + i);
    let mut own = end.map_or(0, |e| indent(&text[e + 1..at]));
    let mut lines = 0;
    std::iter::from_fn(move || {
        while own > 0 && lines < OWNER_LINES {
            let e = end?;
            lines += 1;
            let start = line_start_within(b, e, OWNER_LOOK_BACK);
            if start > 0 && b[start - 1] != b'\n' {
                return None;
            }
            end = start.checked_sub(1);
            let line = &text[start..e];
            if !line.trim().is_empty() && indent(line) < own {
                own = indent(line);
                // A brace on a line of its own (C#'s and Java's Allman style) opens the body of
                // the declaration on the non-blank line above it: that line is the outer one.
                if line.trim() == "{" {
                    own += 1;
                    continue;
                }
                return Some(line);
            }
        }
        None
    })
}

/// Python's attribute read by name, `getattr(mr, "merge_status", None)`,
/// `hasattr(approval, 'approvers')`: the end of the receiver's name, for a quote at `quote`.
pub(super) fn attribute_by_name(text: &str, quote: usize) -> Option<usize> {
    let lead = text[..quote].trim_end();
    let comma = lead.strip_suffix(',')?;
    let recv_end = comma.trim_end().len();
    let name = receiver_name(text, recv_end)?;
    let before = text[..recv_end - name.len()].trim_end();
    (before.ends_with("getattr(") || before.ends_with("hasattr(")).then_some(recv_end)
}

/// Is the file JavaScript or TypeScript (also a Vue or Svelte component)?
fn script_path(path: &str) -> bool {
    matches!(
        crate::syntax::structure::Lang::of_path(path),
        Some(crate::syntax::structure::Lang::Script)
    ) || path.ends_with(".vue")
        || path.ends_with(".svelte")
}

/// Does the script hand out camel-cased responses: gitbeaker (`@gitbeaker/…`, its `camelize`
/// option)?
fn camelized(ctx: &FileCtx) -> bool {
    ctx.contains("@gitbeaker") || ctx.contains("camelize")
}

/// `merge_status` as other code writes it: `MergeStatus`, `mergeStatus`; a word of its own as a
/// Go or C# member (`Approvers`; its camel case is the name itself).
fn cased_forms(name: &str) -> [Option<String>; 2] {
    if !name.contains('_') {
        let mut c = name.chars();
        let pascal = c
            .next()
            .filter(char::is_ascii_lowercase)
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str());
        return [pascal, None];
    }
    let pascal: String = name
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    let mut camel = pascal.clone();
    camel[..1].make_ascii_lowercase();
    [Some(pascal), Some(camel)]
}

/// A name of several words with each word capitalized and the underscores kept
/// (`Merge_Status`, `Merged_By`): how a C# client's entity classes name the API's members
/// (GitLabSharp). None for a name of one word (its capitalized form is [`cased_forms`]' own).
fn title_snake(name: &str) -> Option<String> {
    name.contains('_').then(|| {
        name.split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("_")
    })
}

fn floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The variable an access at `dot` reads (`mr` of `mr.x`, `mrs[0].x`, `this.mr.x`, `mr["a"]`
/// chained: `mr["merged_by"]["username"]`'s first access).
fn receiver_name(text: &str, dot: usize) -> Option<&str> {
    let b = text.as_bytes();
    let mut end = dot;
    // An element of a list: `mrs[0]`.
    if end > 0 && b[end - 1] == b']' {
        // Looked for among the last bytes only: an index is short (`mrs[0]`).
        let from = end.saturating_sub(13);
        let open = from + memchr::memrchr(b'[', &b[from..end - 1])?;
        end = open;
    }
    // After the last byte that is no part of a name (ASCII: a character of its own, so that
    // the byte after it starts one).
    let start = b[..end]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'@')))
        .map_or(0, |i| i + 1);
    if !text.is_char_boundary(start) {
        return None;
    }
    let name = text[start..end].trim_start_matches(['$', '@']);
    (!name.is_empty()).then_some(name)
}

/// How far back on its line the text before a key is read (its indentation, `{`, `,`).
const LEAD_REACH: usize = 256;

/// How far back on its line a field's owner is looked for (and on each line above).
const OWNER_LOOK_BACK: usize = 512;

/// How many lines above a field its owner is looked for: a pydantic model whose fields take
/// several lines each (`x: T | None = Field(`, its default, its description, `)`) holds its
/// later fields far below its `class` line (`MergeRequest` of Knuckles-Team/gitlab-api has
/// `merged_by` 143 lines down).
const OWNER_LINES: usize = 400;

/// The parameter or property whose inline object type holds the member at `at`, when the
/// type opens at the end of the line above (`function present(mr: {` … `merge_status?:
/// string;`): `mr`.
fn inline_type_of(text: &str, at: usize) -> Option<&str> {
    let line = outer_lines(text, at).next()?.trim_end();
    let head = line.strip_suffix('{')?.trim_end().strip_suffix(':')?.trim_end();
    let head = head.strip_suffix('?').unwrap_or(head);
    let n = head
        .bytes()
        .rev()
        .take_while(|&c| c.is_ascii_alphanumeric() || c == b'_')
        .count();
    let name = &head[head.len() - n..];
    // A parameter (after `(` or `,`) or a property written alone on its line.
    let before = head[..head.len() - n].trim_end();
    (n > 0 && (before.ends_with(['(', ',']) || before.is_empty())).then_some(name)
}

/// The name of the declaration whose body holds `at`, read from indentation: the nearest line
/// above that is indented less (`type gitlabMR struct {`, `export const GitLabMergeRequest =
/// z.object({`, `class MergeRequest(BaseModel):`, `interface MR {`).
fn owner_name(text: &str, at: usize) -> Option<&str> {
    outer_lines(text, at).next().and_then(|l| declared_name(l.trim()))
}

/// The variable an object literal around `at` copies before its keys (`{ ...baseMergeRequest,
/// merged_by: … }`, Python's `{**mr, "merge_status": …}`): the literal is a copy of that value.
fn spread_of_resource(text: &str, at: usize) -> Option<&str> {
    let b = text.as_bytes();
    let from = at.saturating_sub(OWNER_LOOK_BACK);
    let mut depth = 0usize;
    let open = (from..at).rev().find(|&i| match b[i] {
        b'}' | b')' | b']' => {
            depth += 1;
            false
        }
        b'(' | b'[' => {
            depth = depth.saturating_sub(1);
            false
        }
        b'{' if depth == 0 => true,
        b'{' => {
            depth -= 1;
            false
        }
        _ => false,
    })?;
    let inside = &text[open + 1..at];
    ["...", "**"].iter().find_map(|mark| {
        inside.match_indices(mark).find_map(|(i, _)| {
            let rest = &inside[i + mark.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (end > 0 && rest[end..].trim_start().starts_with(',')).then(|| &rest[..end])
        })
    })
}

/// The name a declaration line gives: after `type`, `interface`, `class`, `struct`, or before
/// its `=`.
fn declared_name(line: &str) -> Option<&str> {
    fn ident(t: &str) -> Option<&str> {
        // A PHP variable's `$` is no part of its name (`$mergeRequestApproval = [`).
        let t = t.trim_start().trim_start_matches('$');
        let e = t
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(t.len());
        (e > 0).then(|| &t[..e])
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    // A Go slice or pointer of the type (`[]struct`, `*struct`, `[]*struct`).
    fn bare(w: &str) -> &str {
        w.trim_start_matches(['[', ']', '*'])
    }
    if let Some(i) = words.iter().position(|w| {
        matches!(
            bare(w),
            "type" | "interface" | "class" | "struct" | "record" | "trait"
        )
    }) {
        // A Go struct nested in another is named by its field (`Runner struct {`,
        // `Runners []struct {`, `Runner *struct {`, a literal's `Runner: struct {`).
        if words[i].ends_with("struct") && words.get(i + 1) == Some(&"{") && i > 0 {
            return ident(bare(words[i - 1]));
        }
        return words.get(i + 1).and_then(|w| ident(w));
    }
    let (lhs, rhs) = line.split_once('=')?;
    // A function assigned (`Schema.statics.open = function() {`, `const f = async (x) => {`):
    // the keys in its body are its own objects' (a database query), not a declaration's.
    let rhs = rhs.trim_start();
    if rhs.starts_with("function") || rhs.starts_with("async") || rhs.contains("=>") {
        return None;
    }
    lhs.split_whitespace().last().and_then(ident)
}

impl ResourceField {
    /// Is the property at `at` one of a class's constructor whose properties are the
    /// resource's own keys (and the class no webhook payload's part)?
    fn constructor_is_resource<'t>(
        &self,
        ctx: &FileCtx<'_, 't>,
        at: usize,
        payload_types: &mut super::Answers<&'t str>,
    ) -> bool {
        let text = ctx.src.text;
        let Some(owner) = outer_lines(text, at).next() else {
            return false;
        };
        let line_at = owner.as_ptr() as usize - text.as_ptr() as usize;
        let Some(name) = declared_name(owner.trim()) else {
            return false;
        };
        let Some(open) = owner
            .find(name)
            .and_then(|n| owner[n..].find('(').map(|p| line_at + n + p))
        else {
            return false;
        };
        sdk::matching(text, open).is_some_and(|close| {
            close > at
                && !names_event(name)
                && self.resource.keys_say(&sdk::own_keys(text, open, close))
                && !payload_types.is(name, || payload_type(ctx, name))
        })
    }

    fn json_object_is_resource(&self, ctx: &FileCtx, at: usize) -> bool {
        let objects = ctx.json_objects();
        sdk::innermost_object(objects, at).is_some_and(|(open, close)| {
            self.resource
                .keys_say(&sdk::own_keys(ctx.src.text, open, close))
                && !in_event_payload(ctx.src.text, objects, at)
        })
    }
}

/// Does the text mention the platform at all (`gitlab`, `GitLab`, `Gitlab`: the evidence that
/// shows it)?
fn mentions_platform(ev: &Evidence, text: &str) -> bool {
    ev.platform()
        .iter()
        .any(|w| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some())
}

/// `json:"name"` or `json:"name,omitempty"` in a Go struct tag, also written as an interpreted
/// string (`"json:\"name\""`).
fn go_tag(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    (text[..at].ends_with("json:\"") && matches!(b.get(end), Some(b'"' | b',')))
        || (text[..at].ends_with("json:\\\"") && matches!(b.get(end), Some(b'\\' | b',')))
}

/// A key of an object literal: `name: v` or `"name": v` after `{`, `,` or at the start of a line;
/// or a quoted key of a PHP array or a Ruby hash, `'name' => v` (also after `[` or `(`).
fn literal_key(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let quoted = matches!(b[at - 1], b'"' | b'\'') && b.get(end) == Some(&b[at - 1]);
    let (key_start, key_end) = if quoted { (at - 1, end + 1) } else { (at, end) };
    let line_start = line_start_within(b, key_start, LEAD_REACH);
    let lead = text[line_start..key_start].trim_end();
    let rest = &text[key_end..];
    let rocket = quoted && rest.trim_start_matches([' ', '\t']).starts_with("=>");
    (lead.is_empty() || lead.ends_with(['{', ',']) || (rocket && lead.ends_with(['[', '('])))
        && ((rest.starts_with(':') && !rest.starts_with("::")) || rocket)
}

/// A field of a Java or C# class: `private Boolean active;`, `public String mergeStatus =
/// null;`, `protected List<User> approvers;` (a modifier, a type, the name, then `;` or `=`),
/// or a C# property (`public GitLabUser MergedBy { get; set; }`).
fn java_member(text: &str, at: usize, end: usize) -> bool {
    let line_start = line_start_within(text.as_bytes(), at, LEAD_REACH);
    let mut words = text[line_start..at].split_whitespace();
    let modifier = words
        .next()
        .is_some_and(|w| matches!(w, "private" | "public" | "protected" | "internal"));
    // The type (with its generics, `List<Map<String, User>>` as one or more words) and maybe
    // `final`/`static`/`readonly` before it.
    let typed = words.all(|w| {
        w.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'<' | b'>' | b',' | b'[' | b']' | b'?' | b'.'))
    });
    let rest = text[end..].trim_start();
    // A C# property: `public string MergeStatus { get; set; }`.
    let property = rest
        .strip_prefix('{')
        .is_some_and(|r| r.trim_start().starts_with("get"));
    modifier
        && typed
        && (rest.starts_with(';') || (rest.starts_with('=') && !rest.starts_with("==")) || property)
}

/// A property of a Kotlin, Scala or Swift type: `val mergeStatus: String,` in a data class's
/// constructor, `var merged_by: User? = null` in its body, Swift's `let merge_status: String`,
/// after annotations or modifiers (`@SerialName("x") val x: T`, `override val x: T`): `val`,
/// `var` or `let` before the name, `:` after.
fn kotlin_property(text: &str, at: usize, end: usize) -> bool {
    let lead = text[line_start_within(text.as_bytes(), at, LEAD_REACH)..at].trim_end();
    // An annotation on the line that names the member (`@SerialName("merge_status") val
    // mergeStatus`) is where the API's name is written: the finding is there, if anywhere.
    if SERIALIZATION_ANNOTATIONS.iter().any(|a| lead.contains(a)) {
        return false;
    }
    let keyword = ["val", "var", "let"].iter().any(|k| {
        lead.strip_suffix(k)
            .is_some_and(|before| before.is_empty() || before.ends_with([' ', '\t', ')', '(']))
    });
    let rest = &text[end..];
    keyword && rest.starts_with(':') && !rest.starts_with("::")
}

/// The API's name of a field in a serialization annotation of Java, Kotlin or C#:
/// `@JsonProperty("merge_status")`, `@SerializedName("merged_by")`, `@Json(name = "x")`,
/// `[JsonPropertyName("x")]`, `[JsonProperty("x")]`, `@field:JsonProperty("x")`.
fn serialized_name(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    if !(matches!(b[at - 1], b'"') && b.get(end) == Some(&b'"')) {
        return false;
    }
    let lead = text[line_start_within(b, at, LEAD_REACH)..at - 1].trim_end();
    let lead = lead.strip_suffix("name =").unwrap_or(lead).trim_end();
    SERIALIZATION_ANNOTATIONS.iter().any(|a| lead.ends_with(a))
        && lead.trim_start().starts_with(['@', '['])
}

/// Do the keys that the file's serialization annotations name (`@JsonProperty("iid")`,
/// `@SerializedName(name = "source_branch")`) say the resource, and none of them an event's own
/// (a webhook's `object_attributes` has the merge request's keys and `action`, `url`,
/// `last_commit`)?
fn annotated_keys_say(text: &str, resource: Resource) -> bool {
    let mut keys: Vec<&str> = Vec::new();
    for a in SERIALIZATION_ANNOTATIONS {
        for (i, _) in text.match_indices(a) {
            let rest = text[i + a.len()..].trim_start();
            let rest = rest.strip_prefix("name =").map_or(rest, str::trim_start);
            let Some(quoted) = rest.strip_prefix('"') else {
                continue;
            };
            if let Some(end) = quoted.find('"') {
                keys.push(&quoted[..end]);
            }
        }
    }
    const EVENT_KEYS: [&str; 4] = ["object_kind", "object_attributes", "action", "last_commit"];
    // An event's object links its page as `url`; a REST response as `web_url` (and may keep
    // both).
    let event_url = keys.contains(&"url") && !keys.contains(&"web_url");
    resource.keys_say(&keys) && !event_url && !keys.iter().any(|k| EVENT_KEYS.contains(k))
}

/// The annotations that give a member its API name ([`serialized_name`]).
const SERIALIZATION_ANNOTATIONS: [&str; 8] = [
    "JsonProperty(",
    "SerializedName(",
    "Json(",
    "JsonPropertyName(",
    "JsonAlias(",
    // kotlinx.serialization, zio-json, circe's generic extras.
    "SerialName(",
    "jsonField(",
    "JsonKey(",
];

/// Is the member at `at` given its API name by an annotation on the line above
/// (`[JsonPropertyName("merge_status")]` over `public string MergeStatus { get; set; }`)? The
/// annotation is where the API's name is written: it is the finding (or, naming another field
/// such as `detailed_merge_status`, no finding at all).
fn named_by_annotation_above(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let Some(own) = memchr::memrchr(b'\n', &b[..at]) else {
        return false;
    };
    let above_start = line_start_within(b, own, LEAD_REACH);
    let above = text[above_start..own].trim();
    above.starts_with(['@', '['])
        && SERIALIZATION_ANNOTATIONS
            .iter()
            .any(|a| above.contains(a) && above.contains('"'))
}

/// `name: T;`, `name?: T`, `readonly name: T` as a member line of a TypeScript interface, and
/// `pub name: T,` of a Rust struct. (Kotlin's and Swift's properties: [`kotlin_property`].)
fn ts_member(text: &str, at: usize, end: usize) -> bool {
    let line_start = line_start_within(text.as_bytes(), at, LEAD_REACH);
    let lead = text[line_start..at].trim();
    let rest = &text[end..];
    // A class property may follow its decorators on its line (`@IsNumber() iid!: number;`)
    // and be definitely assigned (`!:`).
    let decorated = lead.starts_with('@') && lead.ends_with(')');
    (matches!(
        lead,
        "" | "readonly" | "pub" | "pub(crate)" | "public" | "declare" | "public readonly"
    ) || decorated)
        && (rest.starts_with(':') || rest.starts_with("?:") || rest.starts_with("!:"))
        && !rest.starts_with("::")
}

/// Where the dot is of a call that `lead` ends with and that reads a decoded response's member
/// by its name: `mr.get(`, `mr.fetch(`, `mr.dig(`, Jackson's `node.path(`, circe's
/// `c.downField(`, and the typed reads of JSON libraries, `get` or `opt` and a type
/// (`json.getString(`, `json.optString(`, `json.optJSONObject(`, `map.getOrDefault(`).
fn by_name_accessor(lead: &str) -> Option<usize> {
    let open = lead.strip_suffix('(')?;
    let name_len = open
        .bytes()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    let (before, name) = open.split_at(open.len() - name_len);
    let dot = before.len().checked_sub(1).filter(|_| before.ends_with('.'))?;
    let typed = |verb: &str| {
        name.strip_prefix(verb)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    (matches!(name, "fetch" | "dig" | "path" | "downField") || typed("get") || typed("opt"))
        .then_some(dot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_declared_with_an_event_type() {
        // A function assigned to a member declares no object of the resource.
        assert_eq!(declared_name("MergeRequestSchema.statics.open = function() {"), None);
        assert_eq!(declared_name("const onMr = async (mr) => {"), None);
        assert_eq!(declared_name("const mergeRequest = {"), Some("mergeRequest"));
        // A Go field of a pointer to an anonymous struct is named by the field.
        assert_eq!(declared_name("Runner *struct {"), Some("Runner"));
        assert_eq!(declared_name("Runners []*struct {"), Some("Runners"));
        assert!(names_event("MergeEventPayload"));
        assert!(!names_event("MergeRequest"));
        // The event's word anywhere in the name: a pipeline event's struct named `…Load`.
        assert!(names_event("PipelineEventsLoad"));
        assert!(!Resource::MergeRequest.names_type("MergeRequestWebHookData"));
        assert!(names_event("MergeRequestWebhook"));
        // The payload's attributes in lower camel case (an unexported Go struct).
        assert!(names_event("objectAttributes"));
        for (t, event) in [
            ("func f(p MergeEventPayload) {\n\treturn p.", true),
            ("var p *gitlab.MergeEvent\nx := p.", true),
            ("function f(p: MergeHookPayload) {\n  return p.", true),
            ("func f(p gitlabMR) {\n\treturn p.", false),
            ("func f(pp MergeEventPayload, p MR) {\n\treturn p.", false),
        ] {
            assert_eq!(declared_as_event(t, "p", t.len() - 2), event, "{t}");
        }
    }

    #[test]
    fn owners_and_receivers_say_the_resource() {
        let zod = "export const GitLabMergeRequestSchema = z.object({\n  iid: z.number(),\n  merge_status: z.string(),\n});\n";
        let at = zod.find("merge_status").unwrap();
        assert_eq!(owner_name(zod, at), Some("GitLabMergeRequestSchema"));
        let go = "type gitlabMR struct {\n\tMergedBy *User `json:\"merged_by\"`\n}\n";
        let at = go.find("merged_by").unwrap();
        assert!(Resource::MergeRequest.names_type(owner_name(go, at).unwrap()));
        let t = "x = mrs[0][\"merged_by\"]";
        let at = t.find('[').unwrap();
        assert_eq!(receiver_name(t, at + 3), Some("mrs"));
        for v in ["mr", "merge_request", "mergeRequest", "current_mr", "mrList"] {
            assert!(Resource::MergeRequest.names_variable(v), "{v}");
        }
        for v in ["pr", "mergeResult", "summary", "merger"] {
            assert!(!Resource::MergeRequest.names_variable(v), "{v}");
        }
        assert_eq!(
            cased_forms("merge_status"),
            [Some("MergeStatus".into()), Some("mergeStatus".into())]
        );
    }
}
