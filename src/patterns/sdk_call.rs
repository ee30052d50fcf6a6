//! A manager, service, method or option type of a REST API client library (`gl.geonodes`,
//! `git.Runners.RegisterNewRunner`, `api.MergeRequests.showChanges`, `Gitlab.merge_request_changes`,
//! `gitlab.RegisterNewRunnerOptions{…}`), in a file that imports the library; with `args`, the
//! arguments of the call or composite literal that are the item (`"token"`, `TagList:`).

use serde::Serialize;

use crate::catalog::evidence::Shows;
use super::check::Fields;
use super::{Hit, PatternKind};
use crate::syntax::sdk::{self, Resource, Sdk};
use crate::syntax::sdk_declarations::path_segments;
use crate::syntax::{FileCtx, FileKind, word_offsets, WordBytes};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SdkCall {
    pub sdk: Sdk,
    /// The member as written after a `.`: `geonodes`, `runners.create`, `GeoNodes`.
    pub call: String,
    /// Report these arguments of the call (keys of its dict or options), not the call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Objects the member does not count on (`user` in `gl.user.runners.create`; a compound
    /// name whose last word it is too: `current_user`, `currentUser`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unless_receiver: Vec<String>,
    /// The member counts only on an object known to be this resource (`mr.changes()`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on: Option<Resource>,
    /// With `args`: only where the argument's value is one of these (`scope: "paused"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// Code that imports an SDK.
pub fn sdk_code(kind: FileKind) -> bool {
    kind == FileKind::Code
}

/// The SDK's import literals, as context anchors.
pub fn import_anchors(sdk: Sdk) -> Vec<String> {
    sdk.import_literals().iter().map(|s| s.to_string()).collect()
}

impl PatternKind for SdkCall {
    const NAME: &'static str = "sdk_call";
    const REQUIRED: &'static [&'static str] = &["sdk", "call"];
    const OPTIONAL: &'static [&'static str] = &["args", "unless_receiver", "on", "values"];
    const MATCHES: &'static str =
        "a client library's manager, service, method or option type (or its arguments) in a file that imports the library; not on an object named in `unless_receiver` (`user`, or a compound name whose last word it is: `current_user`, `currentUser`); python-gitlab's `_create_attrs`/`_update_attrs` of the manager declare the arguments of its create/update too";

    fn parse(f: &mut Fields) -> Option<Self> {
        let args = f.list("args");
        let unless = f.list("unless_receiver");
        let on = f.opt_text("on");
        let values = f.values();
        let sdk = f.text("sdk")?;
        let sdk = f.check.one_of(&sdk, "sdk", Sdk::parse, Sdk::NAMES)?;
        let call = f.text("call")?;
        let call = f.check.ident(
            &call,
            "call",
            &['.'],
            "a member is letters, digits, `_` and `.` (`runners.create`)",
        )?;
        let args = args?;
        let unless = unless?;
        let on = match on? {
            None => None,
            Some(r) => Some(
                f.check
                    .one_of(&r, "resource", Resource::parse, Resource::NAMES)?,
            ),
        };
        Some(SdkCall {
            sdk,
            call,
            args: f.check.strings(&args, "argument")?,
            unless_receiver: f.check.strings(&unless, "receiver")?,
            on,
            values: values?,
        })
    }

    fn anchor(&self) -> String {
        if self.sdk == Sdk::PhpGitlab {
            return php_chain(&self.call);
        }
        self.call.clone()
    }

    fn anchors(&self) -> Vec<String> {
        let mut v = vec![self.anchor()];
        v.extend(self.declared_attributes().map(String::from));
        v
    }

    fn context_anchors(&self) -> Vec<String> {
        import_anchors(self.sdk)
    }

    /// A call counted by its receiver, or an option type counted by its name, needs a file that
    /// names the platform instead.
    fn context_evidence(&self) -> &'static [Shows] {
        if self.named_receiver_counts() || self.type_counts_by_name() {
            &[Shows::Platform]
        } else {
            &[]
        }
    }

    fn literals(&self) -> Vec<String> {
        let mut v = vec![self.anchor()];
        v.extend(self.args.iter().cloned());
        v
    }

    fn describe(&self) -> String {
        let mut s = format!("{} .{}", self.sdk.as_str(), self.call);
        if !self.args.is_empty() {
            s.push_str(&format!(" with {}", self.args.join(" or ")));
        }
        super::with_values(s, &self.values)
    }

    fn applies(&self, kind: FileKind) -> bool {
        sdk_code(kind)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        let file = ctx.sdk();
        // A module that does not import the library (its client comes from elsewhere) shows it
        // by the call's receiver instead: see [`Self::named_receiver`].
        let imported = file.imports(self.sdk);
        // go-gitlab's option type where the file does not import the library (its import is
        // elsewhere, or the type is a copy of the library's, converted to it): by its name.
        let by_name = !imported && self.type_counts_by_name() && self.names_platform(ctx);
        if !imported && !by_name && !self.receiver_evidence(ctx) {
            return Vec::new();
        }
        if self.sdk == Sdk::PhpGitlab {
            return self.detect_php(ctx);
        }
        let text = ctx.src.text;
        let b = text.as_bytes();
        let mut out = Vec::new();
        for at in ctx.word_offsets(&self.call, WordBytes::Ident) {
            if at == 0 || ctx.src.in_comment(at) {
                continue;
            }
            // An option type imported by its name (gitbeaker's `CreateRunnerOptions`), where
            // it is declared or annotates a value: its object's keys, and the fields the
            // variable it annotates is given.
            if b[at - 1] != b'.' {
                if self.sdk != Sdk::GoGitlab && self.is_type() && !self.args.is_empty() {
                    self.named_type(ctx, at, &mut out);
                }
                continue;
            }
            // A quote before the dot: the method's name in a string (RSpec's
            // `describe '.register_runner' do`), or a call on a string, never the library's.
            if at >= 2 && matches!(b[at - 2], b'\'' | b'"' | b'`') {
                continue;
            }
            let receiver = sdk::receiver(text, at - 1);
            if sdk::chain_receiver(text, at - 1)
                .is_some_and(|r| self.unless_receiver.iter().any(|u| sdk::receiver_names(r, u)))
            {
                continue;
            }
            if !imported {
                if !by_name && !self.named_receiver(text, at - 1) {
                    continue;
                }
            } else if let Some(on) = self.on
                && file.resource_before(text, at - 1) != Some(on)
                // A receiver that the file does not bind but whose name says it (a function's
                // parameter `mr`: `def list_changed_files(mr): … mr.changes()`).
                && !receiver.is_some_and(|r| file.resource_of(r).is_none() && on.names_variable(r))
            {
                continue;
            }
            let end = at + self.call.len();
            let after = text[end..].trim_start_matches([' ', '\t']);
            let open = end + (text.len() - end - after.len());
            // A Go composite literal names a type of the imported package itself.
            if after.starts_with('{')
                && self.sdk == Sdk::GoGitlab
                && !by_name
                && !receiver.is_some_and(|r| file.go_packages.iter().any(|p| p == r))
            {
                continue;
            }
            if self.args.is_empty() {
                out.push(Hit::new(at, end, self.call.clone()));
                continue;
            }
            // A go-gitlab option type held in a variable (`opts := &gitlab.T{}`, `var o
            // gitlab.T`): the fields it is given later (`opts.TagList = &tags`).
            if self.is_type() {
                let receiver_at = at - 1 - receiver.map_or(0, str::len);
                self.assigned_fields(ctx, receiver_at, end, &mut out);
            }
            let Some(close) = sdk::matching(text, open) else {
                continue;
            };
            self.argument_keys(ctx, open, close, &mut out);
            self.named_argument_dicts(ctx, at, open, close, &mut out);
        }
        if let Some(attributes) = self.declared_attributes() {
            self.declarations(ctx, attributes, &mut out);
        }
        out.sort_by_key(|h| h.start);
        out
    }
}

/// How far before a call a dict handed to it by name is looked for (about 20 lines).
const NAMED_DICT_REACH: usize = 2000;

impl SdkCall {
    /// Does a call count without the library's import, by its receiver: the gitlab gem's
    /// methods (on an object named for the platform) and python-gitlab's methods of a resource
    /// (on an object named for the resource)?
    fn named_receiver_counts(&self) -> bool {
        self.args.is_empty()
            && (self.sdk == Sdk::RubyGitlab || (self.sdk == Sdk::PythonGitlab && self.on.is_some()))
    }

    /// Does the option type count by its name in a Go file that does not import the library:
    /// go-gitlab's option types name the platform's requests (`RegisterNewRunnerOptions`), and
    /// with `args` their fields are the item?
    fn type_counts_by_name(&self) -> bool {
        self.sdk == Sdk::GoGitlab && self.is_type() && !self.args.is_empty()
    }

    /// A Go file that names the platform (the evidence of [`Self::type_counts_by_name`]).
    fn names_platform(&self, ctx: &FileCtx) -> bool {
        ctx.src.path.ends_with(".go") && ctx.evidence().platform().iter().any(|w| ctx.contains(w))
    }

    /// Can a call in this file, which does not import the library, count by its receiver: a
    /// Ruby file for the gem (the receiver names the platform itself), a Python file that names
    /// the platform (or whose path does) for a resource's method.
    fn receiver_evidence(&self, ctx: &FileCtx) -> bool {
        if !self.named_receiver_counts() {
            return false;
        }
        let path = ctx.src.path;
        match self.sdk {
            Sdk::RubyGitlab => ruby_path(path),
            _ => {
                path.ends_with(".py")
                    && (ctx.evidence().platform().iter().any(|w| ctx.contains(w))
                        || crate::syntax::graphql_types::names_gitlab(path, ""))
            }
        }
    }

    /// The receiver of the call whose `.` is at `dot` names what the library's call needs
    /// without an import: the platform for the gem (`gitlab.`, `Gitlab.`, `@gitlab_client.`),
    /// the resource for a resource's method (`mr.`, `self.mr.`, `merge_request.`).
    fn named_receiver(&self, text: &str, dot: usize) -> bool {
        let Some(r) = sdk::receiver(text, dot) else {
            return false;
        };
        match self.on {
            Some(resource) => resource.names_variable(r),
            None => sdk::ident_words(r).iter().any(|w| w == "gitlab"),
        }
    }

    /// php-gitlab-api's chain of managers called on a client or a facade
    /// (`$client->mergeRequests()->changes(`, `GitLab::users()->all([`): the call, or with
    /// `args` the keys of its argument array (`'page' => $page`).
    fn detect_php(&self, ctx: &FileCtx) -> Vec<Hit> {
        let text = ctx.src.text;
        let b = text.as_bytes();
        let chain = php_chain(&self.call);
        let mut out = Vec::new();
        for (at, _) in text.match_indices(chain.as_str()) {
            let end = at + chain.len();
            let member = text[..at].ends_with("->") || text[..at].ends_with("::");
            if !member
                || b.get(end).is_some_and(|&c| crate::syntax::is_ident_byte(c))
                || ctx.src.in_comment(at)
            {
                continue;
            }
            let open = end + (text.len() - end - text[end..].trim_start().len());
            if b.get(open) != Some(&b'(') {
                continue;
            }
            if self.args.is_empty() {
                out.push(Hit::new(at, end, self.call.clone()));
            } else if let Some(close) = sdk::matching(text, open) {
                self.argument_keys(ctx, open, close, &mut out);
            }
        }
        out
    }

    /// Is the member a type (`RegisterNewRunnerOptions`, `CreateRunnerOptions`): one name,
    /// capitalised?
    fn is_type(&self) -> bool {
        !self.call.contains('.') && self.call.starts_with(|c: char| c.is_ascii_uppercase())
    }

    /// The type written at `at` without a package: declared (`type T = {`, `interface T {`)
    /// or annotating a value (`const opts: T = {`, `(opts: T)`); the keys of its object, and
    /// the fields the annotated variable is given.
    fn named_type(&self, ctx: &FileCtx, at: usize, out: &mut Vec<Hit>) {
        let text = ctx.src.text;
        let end = at + self.call.len();
        let lead = text[crate::syntax::line_start_within(text.as_bytes(), at, 256)..at].trim_end();
        let declared = lead.ends_with("type") || lead.ends_with("interface");
        if !(declared || lead.ends_with(':')) {
            return;
        }
        let after = text[end..].trim_start_matches([' ', '\t']);
        let after = after
            .strip_prefix('=')
            .map_or(after, |a| a.trim_start_matches([' ', '\t']));
        let open = text.len() - after.len();
        if after.starts_with('{')
            && let Some(close) = sdk::matching(text, open)
        {
            self.argument_keys(ctx, open, close, out);
        }
        if !declared {
            self.assigned_fields(ctx, at, end, out);
        }
    }

    /// The variable that the option type written at `type_at..end` makes or annotates
    /// (`opts := &gitlab.T{`, `var o gitlab.T`, `const o: T = {`), and the `args` it is given
    /// in the rest of its block (`opts.TagList = &tags`, `o.tagList = tags`; not `==`).
    fn assigned_fields(&self, ctx: &FileCtx, type_at: usize, end: usize, out: &mut Vec<Hit>) {
        let text = ctx.src.text;
        let b = text.as_bytes();
        let line = crate::syntax::line_start_within(b, type_at, 256);
        let Some((name, parameter)) = bound_variable(&text[line..type_at]) else {
            return;
        };
        let block = &text[end..block_end(b, end, parameter)];
        for arg in &self.args {
            let mut from = 0;
            while let Some(k) = block[from..].find(name) {
                let a = end + from + k;
                from += k + name.len();
                let e = a + name.len();
                if (a > 0 && (crate::syntax::is_ident_byte(b[a - 1]) || b[a - 1] == b'.'))
                    || !text[e..].starts_with('.')
                    || !text[e + 1..].starts_with(arg.as_str())
                {
                    continue;
                }
                let (fa, fe) = (e + 1, e + 1 + arg.len());
                if b.get(fe).is_some_and(|&c| crate::syntax::is_ident_byte(c)) {
                    continue;
                }
                let rest = text[fe..].trim_start_matches([' ', '\t']);
                // With `values`, only a removed value assigned (`opts.Status =
                // gitlab.Ptr("paused")`), not one the code passes on (`= config.Status`).
                let valued = self.values.is_empty()
                    || argument_value(text, fe).is_some_and(|v| self.values.contains(&v));
                if rest.starts_with('=')
                    && !rest.starts_with("==")
                    && valued
                    && !ctx.src.in_comment(a)
                {
                    out.push(Hit::new(fa, fe, format!("{} {arg}", self.call)));
                }
            }
        }
    }

    /// The arguments (`args`) that are keys of the call's dict or options between `open` and
    /// `close`.
    fn argument_keys(&self, ctx: &FileCtx, open: usize, close: usize, out: &mut Vec<Hit>) {
        let text = ctx.src.text;
        for arg in &self.args {
            for k in word_offsets(&text[open..close], arg, WordBytes::Ident) {
                let a = open + k;
                let e = a + arg.len();
                if !is_argument_key(text, a, e) || ctx.src.in_comment(a) {
                    continue;
                }
                if !self.values.is_empty()
                    && !argument_value(text, e).is_some_and(|v| self.values.contains(&v))
                {
                    continue;
                }
                out.push(Hit::new(a, e, format!("{} {arg}", self.call)));
            }
        }
    }

    /// A dict or object literal bound to a name in the lines before the call at `at` and handed
    /// to it by that name (`value = {'active': False}` … `gl.runners.update(id, value)`): its
    /// keys are the call's arguments.
    fn named_argument_dicts(
        &self,
        ctx: &FileCtx,
        at: usize,
        open: usize,
        close: usize,
        out: &mut Vec<Hit>,
    ) {
        let text = ctx.src.text;
        let b = text.as_bytes();
        let line = crate::syntax::line_start_within(b, at, 512);
        let mut from = line.saturating_sub(NAMED_DICT_REACH);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let before = &text[from..line];
        let before = before
            .char_indices()
            .find(|&(_, c)| c == '\n')
            .map_or(before, |(i, _)| &before[i + 1..]);
        let base = line - before.len();
        for name in text[open + 1..close].split(',').map(str::trim) {
            let ident = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.bytes().all(crate::syntax::is_ident_byte);
            if !ident {
                continue;
            }
            // The last binding of the name before the call: `name = {` on a line of its own.
            let Some(brace) = before.lines().rev().find_map(|l| {
                let rest = l.trim_start().strip_prefix(name)?;
                let rest = rest.trim_start().strip_prefix('=')?;
                let rest = rest.trim_start();
                rest.starts_with('{').then(|| {
                    let line_at = l.as_ptr() as usize - before.as_ptr() as usize;
                    base + line_at + (l.len() - rest.len())
                })
            }) else {
                continue;
            };
            if let Some(end) = sdk::matching(text, brace) {
                self.argument_keys(ctx, brace, end, out);
            }
        }
    }

    /// python-gitlab declares what a manager's `create` and `update` send
    /// (`_create_attrs = RequiredOptional(required=("token",), optional=("active", …))` under
    /// `_path = "/runners"`; before 2.x a tuple of the required and the optional ones): the
    /// class attribute that declares this call's arguments, for a python-gitlab
    /// `MANAGER.create` or `MANAGER.update` with `args` and no `values`.
    fn declared_attributes(&self) -> Option<&'static str> {
        if self.sdk != Sdk::PythonGitlab || self.args.is_empty() || !self.values.is_empty() {
            return None;
        }
        match self.call.split_once('.')?.1 {
            "create" => Some("_create_attrs"),
            "update" => Some("_update_attrs"),
            _ => None,
        }
    }

    /// The `args` written as strings in the `attributes` declaration of a manager class whose
    /// `_path` is this call's manager (`/runners` for `runners.create`; a nested path such as
    /// `/projects/{project_id}/runners` counts unless its parent is named in `unless_receiver`).
    fn declarations(&self, ctx: &FileCtx, attributes: &str, out: &mut Vec<Hit>) {
        let Some((manager, _)) = self.call.split_once('.') else {
            return;
        };
        for d in ctx.manager_declarations() {
            if d.attributes != attributes || !self.manages(d.path, manager) {
                continue;
            }
            for arg in &self.args {
                for at in d.quoted(ctx, arg) {
                    out.push(Hit::new(at, at + arg.len(), format!("{} {arg}", self.call)));
                }
            }
        }
    }

    /// Is `path` (a python-gitlab manager's `_path`) the path of `manager`? Placeholders
    /// (`{project_id}`, `%(project_id)s`) are passed over: the parent is the literal segment
    /// before the manager's.
    fn manages(&self, path: &str, manager: &str) -> bool {
        let segments: Vec<&str> = path_segments(path)
            .into_iter()
            .filter(|s| *s != ":id")
            .collect();
        match segments.as_slice() {
            [last] => *last == manager,
            [.., parent, last] => {
                *last == manager
                    && !self.unless_receiver.iter().any(|u| {
                        u == parent || parent.strip_suffix('s').is_some_and(|p| p == u)
                    })
            }
            [] => false,
        }
    }
}

/// The variable a line up to a type makes or annotates: `opts := &` (Go), `var o ` (Go),
/// `const opts: ` and `let o: ` (TypeScript), `opts = `; or the parameter it declares (`func
/// f(o *`, `function f(opts: `), said by the second value.
fn bound_variable(lead: &str) -> Option<(&str, bool)> {
    let lead = lead.trim_end().trim_end_matches(['&', '*']).trim_end();
    let name_before = |s: &str| -> Option<usize> {
        let s = s.trim_end();
        let n = s.bytes().rev().take_while(|&c| crate::syntax::is_ident_byte(c)).count();
        (n > 0).then_some(s.len() - n)
    };
    let head = if let Some(l) = lead.strip_suffix(":=") {
        l
    } else if let Some(l) = lead.strip_suffix('=').filter(|l| !l.ends_with(['=', '!', '<', '>'])) {
        l
    } else if let Some(l) = lead.strip_suffix(':') {
        l
    } else if let Some(v) = lead.trim_start().strip_prefix("var ") {
        // `var o gitlab.T`: the name after `var`.
        let v = v.trim();
        let ok = !v.is_empty() && v.bytes().all(crate::syntax::is_ident_byte);
        return ok.then_some((v, false));
    } else {
        // A Go parameter: `func f(o *gitlab.T`, `(ctx context.Context, o gitlab.T`.
        lead
    };
    let head = head.trim_end();
    let at = name_before(head)?;
    let name = &head[at..];
    let parameter = head[..at].trim_end().ends_with(['(', ',']);
    if std::ptr::eq(head, lead) && !parameter {
        return None;
    }
    (!name.starts_with(|c: char| c.is_ascii_digit())).then_some((name, parameter))
}

/// Where the block that holds `at` ends: the `}` that closes it, or a bounded way on. For a
/// parameter (`parameter`), the end of the body that opens after it.
fn block_end(b: &[u8], at: usize, parameter: bool) -> usize {
    let limit = (at + 20_000).min(b.len());
    let mut depth = 0usize;
    for (i, &c) in b[at..limit].iter().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' if depth == 0 => return at + i,
            b'}' => {
                depth -= 1;
                if depth == 0 && parameter {
                    return at + i;
                }
            }
            _ => {}
        }
    }
    limit
}

/// The string value of an argument whose key ends at `end`, lowercased: `: "paused"`,
/// `='paused'`, `=> 'paused'`, and go-gitlab's pointer helpers `: gitlab.String("paused")`,
/// `: gitlab.Ptr("paused")`.
fn argument_value(text: &str, end: usize) -> Option<String> {
    let rest = text[end..].trim_start_matches(['"', '\'']).trim_start();
    let rest = rest
        .strip_prefix("=>")
        .or_else(|| rest.strip_prefix(':'))
        .or_else(|| rest.strip_prefix('='))?
        .trim_start();
    // A helper call around the value: `gitlab.String(`, `gl.Ptr(`.
    let call_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(0);
    let rest = if rest[call_end..].starts_with('(') && call_end > 0 {
        &rest[call_end + 1..]
    } else {
        rest
    };
    // A Ruby symbol: `scope: :paused`.
    if let Some(sym) = rest.strip_prefix(':') {
        let v: String = sym
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        return (!v.is_empty()).then(|| v.to_ascii_lowercase());
    }
    let q = rest.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let body = &rest[1..];
    let v = &body[..body.find(q)?];
    Some(v.to_ascii_lowercase())
}

/// Is the word at `at..end` a key of a dict, hash or options literal (`"token":`, `'token' =>`,
/// `token:`, `Token:`, `token=`)?
/// A php-gitlab-api call of the data (`mergeRequests.changes`) as PHP writes it:
/// `mergeRequests()->changes`.
fn php_chain(call: &str) -> String {
    call.replace('.', "()->")
}

fn is_argument_key(text: &str, at: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let before = b[at - 1];
    let after = b.get(end).copied().unwrap_or(b' ');
    let (after_key, quoted) = if matches!(before, b'"' | b'\'') && after == before {
        (end + 1, true)
    } else {
        (end, false)
    };
    let rest = text[after_key..].trim_start_matches([' ', '\t']);
    // A TypeScript optional member: `tagList?: string[]`.
    let rest = if rest.starts_with("?:") { &rest[1..] } else { rest };
    let keyed = rest.starts_with("=>")
        || (rest.starts_with(':') && !rest.starts_with("::"))
        || (!quoted && rest.starts_with('=') && !rest.starts_with("=="));
    // First on its line (a comment may end the line before), or after `(`, `{`, `[` (a PHP
    // array: `all(['page' => 1])`) or `,`.
    let starts_item = {
        let key_start = if quoted { at - 1 } else { at };
        let line_start = crate::syntax::line_start_within(text.as_bytes(), key_start, 256);
        let lead = text[line_start..key_start].trim_end();
        lead.is_empty() || lead.ends_with(['(', '{', '[', ','])
    };
    keyed && starts_item
}

/// Is the file Ruby (`.rb`, `.rake`, `Rakefile`, `Dangerfile`)?
fn ruby_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".rb") || name.ends_with(".rake") || name == "Rakefile" || name == "Dangerfile"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_keys() {
        for (t, w) in [
            ("f({\"token\": t})", "token"),
            ("f(x, {'token' => t})", "token"),
            ("Opts{\n\tToken: t,", "Token"),
            ("f(a, tag_list: [1])", "tag_list"),
            ("f(a, run_untagged=True)", "run_untagged"),
        ] {
            let at = t.find(w).unwrap();
            assert!(is_argument_key(t, at, at + w.len()), "{t}");
        }
        for (t, w) in [("f(x.token)", "token"), ("f(a == token)", "token")] {
            let at = t.find(w).unwrap();
            assert!(!is_argument_key(t, at, at + w.len()), "{t}");
        }
        assert_eq!(sdk::matching("f(a(b), c)", 1), Some(9));
        for (t, v) in [
            ("scope='paused')", "paused"),
            ("Status: gitlab.String(\"active\"),", "active"),
            ("status: 'Paused' }", "paused"),
            (":scope => \"active\"", "active"),
        ] {
            let end = t.find(['=', ':']).map(|i| if t.starts_with(':') { 6 } else { i }).unwrap();
            assert_eq!(argument_value(t, end).as_deref(), Some(v), "{t}");
        }
        assert_eq!(argument_value("scope=scope)", 5), None);
    }

    #[test]
    fn variables_bound_to_an_option_type() {
        for (lead, name) in [
            ("\topts := &", Some(("opts", false))),
            ("\tvar o ", Some(("o", false))),
            ("  const options: ", Some(("options", false))),
            ("  let o = ", Some(("o", false))),
            ("  return &", None),
            ("func f(o *", Some(("o", true))),
            ("func f(ctx context.Context, o ", Some(("o", true))),
            ("function f(opts: ", Some(("opts", true))),
            ("\tOptions ", None),
            ("  if a == ", None),
        ] {
            assert_eq!(bound_variable(lead), name, "{lead:?}");
        }
        assert_eq!(block_end(b"a { b } c } d", 0, false), 10);
        assert_eq!(block_end(b") { b { } } c } d", 0, true), 10);
    }
}
