//! GraphQL fields, types, enum values, arguments and queries, matched on parsed documents
//! (see [`crate::syntax::graphql_docs`]). A generic name (`version`, `confidence`) counts only
//! under one of its parents (a field path such as `runners.nodes`, or a type condition such as
//! `... on CiRunner`).

use serde::Serialize;

use super::check::{Fields, is_ident};
use super::{Hit, PatternKind};
use crate::catalog::evidence::Shows;
use crate::syntax::graphql::{Kind, Name};
use crate::syntax::{
    FileCtx, FileKind, WordBytes, graphql_docs, graphql_tags, graphql_types, word_offsets,
};

/// What a GraphQL pattern names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphqlElement {
    Field,
    Type,
    EnumValue,
    Argument,
    Query,
}

impl GraphqlElement {
    pub fn parse(s: &str) -> Option<GraphqlElement> {
        match s {
            "field" => Some(GraphqlElement::Field),
            "type" => Some(GraphqlElement::Type),
            "enum_value" => Some(GraphqlElement::EnumValue),
            "argument" => Some(GraphqlElement::Argument),
            "query" => Some(GraphqlElement::Query),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GraphqlElement::Field => "field",
            GraphqlElement::Type => "type",
            GraphqlElement::EnumValue => "enum_value",
            GraphqlElement::Argument => "argument",
            GraphqlElement::Query => "query",
        }
    }
}

/// A GraphQL element and its name; `parents` are the selections (field paths such as
/// `runners.nodes`, or type names) it counts under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Graphql {
    pub element: GraphqlElement,
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// The match counts only when the field is selected without this argument.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unless_argument: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_with: Option<String>,
    /// Other GraphQL APIs have an element of the same name (`totalWeight`): it counts only in a
    /// file that names the platform or selects its objects ([`Shows::GraphqlApi`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub generic: bool,
}

impl PatternKind for Graphql {
    const NAME: &'static str = "graphql";
    const REQUIRED: &'static [&'static str] = &["element", "name"];
    const OPTIONAL: &'static [&'static str] =
        &["parents", "unless_argument", "replace_with", "generic"];
    const MATCHES: &'static str = "the element in a GraphQL document, under one of `parents` (type names or field paths); `generic`: only in a file that names the platform or shows its GraphQL API (evidence `graphql-api`)";

    fn parse(f: &mut Fields) -> Option<Self> {
        let replace_with = f.opt_non_empty("replace_with");
        let element = f.text("element")?;
        let all = "field, type, enum_value, argument, query";
        let element = f.check.one_of(&element, "GraphQL element", GraphqlElement::parse, all)?;
        let mut parents = Vec::new();
        for p in &f.list("parents")? {
            let ok = !p.value.is_empty() && p.value.split('.').all(|s| is_ident(s, &[]));
            parents.push(f.check.checked(
                p,
                "GraphQL parent",
                ok,
                "a parent is a type name or a dotted field path, e.g. `CiRunner` or `runners.nodes`",
            )?);
        }
        let name = f.text("name")?;
        Some(Graphql {
            element,
            name: f.check.ident(
                &name,
                "GraphQL name",
                &[],
                "a GraphQL name is letters, digits and `_`",
            )?,
            parents,
            unless_argument: f.opt_non_empty("unless_argument")?,
            replace_with: replace_with?,
            generic: f.flag("generic")?,
        })
    }

    fn anchor(&self) -> String {
        self.name.clone()
    }

    /// A file must also look like it holds a GraphQL document.
    fn context_anchors(&self) -> Vec<String> {
        ["query", "mutation", "subscription", "fragment", "gql", "graphql", "GraphQL"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn replace_with(&self) -> Option<&str> {
        self.replace_with.as_deref()
    }

    fn searched_evidence(&self) -> &'static [Shows] {
        if self.generic {
            &[Shows::Platform, Shows::GraphqlApi]
        } else {
            &[]
        }
    }

    fn describe(&self) -> String {
        let element = self.element.as_str().replace('_', " ");
        let mut s = format!("GraphQL {element} {}", self.name);
        if !self.parents.is_empty() {
            s.push_str(&format!(" under {}", self.parents.join(" | ")));
        }
        if let Some(arg) = &self.unless_argument {
            s.push_str(&format!(" without argument `{arg}`"));
        }
        if self.generic {
            s.push_str(" in a file that shows the platform's GraphQL API");
        }
        s
    }

    fn applies(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Graphql | FileKind::Code | FileKind::Shell)
    }

    fn detect(&self, ctx: &FileCtx) -> Vec<Hit> {
        if self.generic && !shows_graphql_api(ctx) {
            return Vec::new();
        }
        detect(
            self.element,
            &self.name,
            &self.parents,
            self.unless_argument.as_deref(),
            ctx,
        )
    }
}

/// Does the file show that its GraphQL documents are the platform's: it names the platform
/// ([`FileCtx::names_platform`]) or holds a word of [`Shows::GraphqlApi`] for its kind?
fn shows_graphql_api(ctx: &FileCtx) -> bool {
    let kind = ctx.src.class.kind;
    ctx.names_platform()
        || (ctx.evidence().markers().iter())
            .filter(|m| m.shows == Shows::GraphqlApi && m.kinds.contains(kind))
            .any(|m| ctx.contains(&m.text))
}

fn parent_matches(parents: &[String], path: &[Name], type_condition: Option<&str>) -> bool {
    if parents.is_empty() {
        return true;
    }
    parents.iter().any(|p| {
        if p.contains('.') {
            // The path ends with the parent's segments, last to first.
            let mut names = path.iter().rev();
            p.rsplit('.')
                .all(|seg| names.next().is_some_and(|name| **name == *seg))
        } else {
            path.last().is_some_and(|l| **l == **p) || type_condition == Some(p.as_str())
        }
    })
}

/// Is there surely nothing to report of `name` in a file of code (first found at `start`)? Made
/// for another pattern already, the documents and type definitions tell at once: none holds
/// the name. Before the literals are lexed, the parts that may hold documents tell (a client's
/// own queries mostly hold none of the names looked for). Where there can be no document, the
/// type definitions are the only place left: made now, they spare lexing the lines of the
/// name's occurrences. A name written only in comments is in no document either.
fn nothing_to_read(
    name: &str,
    types_looked_at: bool,
    start: usize,
    finder: &memchr::memmem::Finder,
    ctx: &FileCtx,
) -> bool {
    let text = ctx.src.text.as_bytes();
    let in_no_document = match ctx.graphql_made() {
        Some(docs) => !docs
            .iter()
            .any(|d| d.end >= start && finder.find(&text[d.start..d.end]).is_some()),
        None => !ctx
            .graphql_regions()
            .iter()
            .any(|&(s, e)| e >= start && finder.find(&text[s..e]).is_some()),
    };
    let in_no_type = !types_looked_at
        || match ctx.graphql_types_made() {
            Some(fields) => fields.iter().all(|f| f.name != name),
            None => in_no_document && ctx.graphql_types().iter().all(|f| f.name != name),
        };
    (in_no_document && in_no_type)
        || finder
            .find_iter(&text[start..])
            .all(|at| ctx.src.in_comment(start + at))
}

fn detect(
    element: GraphqlElement,
    name: &str,
    parents: &[String],
    unless_argument: Option<&str>,
    ctx: &FileCtx,
) -> Vec<Hit> {
    let mut out = Vec::new();
    let text = ctx.src.text;
    // A document without the name holds no occurrence of it: it is not parsed for this pattern
    // (the parser only blanks characters, so a name it reads is in the text). Documents in code
    // are strings, never in comments: a name written only in comments is no reason to look for
    // them.
    let finder = memchr::memmem::Finder::new(name);
    let Some(start) = ctx.search_start(name) else {
        return out;
    };
    let holds_name = |doc: &graphql_docs::Doc| {
        doc.end >= start && finder.find(doc.text(text).as_bytes()).is_some()
    };
    let types_looked_at = matches!(element, GraphqlElement::Field | GraphqlElement::Argument);
    if element == GraphqlElement::Field {
        out.extend(struct_tag_hits(name, parents, ctx));
    }
    // A builder cannot tell the arguments its caller passes: an element that counts only
    // without one is the caller's business.
    if unless_argument.is_none() {
        out.extend(builder_hits(element, name, parents, ctx));
    }
    if ctx.src.class.kind != FileKind::Graphql
        && nothing_to_read(name, types_looked_at, start, &finder, ctx)
    {
        return out;
    }
    for doc in ctx.graphql() {
        if !holds_name(doc) {
            continue;
        }
        let parsed = doc.parsed(text);
        if parsed.error.is_some() {
            // The document does not parse: a distinctive name still counts as a word.
            if parents.is_empty() && element != GraphqlElement::Argument {
                for at in word_offsets(doc.text(text), name, WordBytes::Ident) {
                    out.push(Hit::new(doc.start + at, doc.start + at + name.len(), name));
                }
            }
            continue;
        }
        for o in &parsed.occurrences {
            if *o.name != *name {
                continue;
            }
            let ok = match (&o.kind, element) {
                (
                    Kind::Field {
                        type_condition,
                        arguments,
                        ..
                    },
                    GraphqlElement::Field,
                ) => {
                    parent_matches(parents, &o.path, type_condition.as_deref())
                        && unless_argument.is_none_or(|a| !arguments.iter().any(|x| **x == *a))
                }
                (Kind::Field { root_of, .. }, GraphqlElement::Query) => {
                    o.path.is_empty() && *root_of == Some("query")
                }
                (Kind::Type, GraphqlElement::Type) => true,
                (Kind::EnumValue, GraphqlElement::EnumValue) => true,
                (Kind::Argument, GraphqlElement::Argument) => {
                    parent_matches(parents, &o.path, None)
                }
                _ => false,
            };
            if ok {
                out.push(Hit::new(o.start, o.end, name));
            }
        }
    }
    // Fields of output types, and of input types (an argument's input object).
    if types_looked_at {
        out.extend(type_definition_hits(name, parents, ctx));
    }
    out
}

/// The field selected by a Go struct's `graphql:"…"` tag (a query written as structs), under
/// one of the parents (the structs around it, or its fragment's or declared type), in a file
/// that names the platform: other APIs' queries select fields of the same names.
/// A field selected by its name in a query builder's class generated from a GraphQL schema
/// (php-graphql-oqm's `<Type>QueryObject`: `$this->selectField("canDestroy")`, an object
/// selected as `new RunnerPlatformConnectionQueryObject("runnerPlatforms")`). The class's type
/// (its `OBJECT_NAME`, else its file's name) is the field's parent and `RootQueryObject` the
/// query root: a field counts under one of the pattern's parents, or, when the pattern names
/// none, in a file that names GitLab (other APIs' builders select fields of the same names).
fn builder_hits(element: GraphqlElement, name: &str, parents: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let path = ctx.src.path;
    let file = path.rsplit('/').next().unwrap_or(path);
    let Some(stem) = file.strip_suffix("QueryObject.php") else {
        return Vec::new();
    };
    let text = ctx.src.text;
    let declared = text.find("OBJECT_NAME = \"").and_then(|i| {
        let rest = &text[i + "OBJECT_NAME = \"".len()..];
        rest.find('"').map(|e| &rest[..e])
    });
    let root = stem == "Root";
    let counts = match element {
        GraphqlElement::Field if parents.is_empty() => {
            !root && graphql_types::names_gitlab(path, text)
        }
        GraphqlElement::Field => parent_matches(parents, &[], Some(declared.unwrap_or(stem))),
        GraphqlElement::Query => root,
        _ => false,
    };
    if !counts {
        return Vec::new();
    }
    let mut out = Vec::new();
    for call in ["selectField(\"", "QueryObject(\""] {
        let needle = format!("{call}{name}\")");
        for at in memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes()) {
            let start = at + call.len();
            if !ctx.src.in_comment(start) {
                out.push(Hit::new(start, start + name.len(), name));
            }
        }
    }
    out
}

fn struct_tag_hits(name: &str, parents: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let text = ctx.src.text;
    if !ctx.src.path.ends_with(".go") || !ctx.contains("graphql:\"") {
        return Vec::new();
    }
    let hits: Vec<Hit> = graphql_tags::fields(text, name)
        .into_iter()
        .filter(|f| !ctx.src.in_comment(f.start))
        .filter(|f| {
            let path: Vec<Name> = f.path.iter().map(|p| Name::from(p.as_str())).collect();
            parent_matches(parents, &path, f.type_condition)
        })
        .map(|f| Hit::new(f.start, f.start + name.len(), name))
        .collect();
    if hits.is_empty() || !graphql_types::names_gitlab(ctx.src.path, text) {
        return Vec::new();
    }
    hits
}

/// The field declared by the type definitions of a generated GraphQL client, in a type that is
/// one of the parents (a type name), or in any type when the pattern names no parent at all and
/// the file names GitLab ([`graphql_types::names_gitlab`]: the generated types of another API's
/// schema declare fields of the same names).
fn type_definition_hits(name: &str, parents: &[String], ctx: &FileCtx) -> Vec<Hit> {
    let types: Vec<&str> = parents
        .iter()
        .map(String::as_str)
        .filter(|p| p.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    if !parents.is_empty() && types.is_empty() {
        return Vec::new();
    }
    let hits: Vec<Hit> = ctx
        .graphql_types()
        .iter()
        .filter(|f| f.name == name && (types.is_empty() || types.contains(&f.type_name.as_str())))
        .map(|f| Hit::new(f.start, f.start + name.len(), format!("{}.{name}", f.type_name)))
        .collect();
    if parents.is_empty()
        && !hits.is_empty()
        && !graphql_types::names_gitlab(ctx.src.path, ctx.src.text)
    {
        return Vec::new();
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents() {
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let path = |v: &[&str]| v.iter().map(|&s| Name::from(s)).collect::<Vec<_>>();
        assert!(parent_matches(
            &p(&["runners.nodes"]),
            &path(&["project", "runners", "nodes"]),
            None
        ));
        assert!(!parent_matches(
            &p(&["runners.nodes"]),
            &path(&["runner", "managers", "nodes"]),
            None
        ));
        assert!(parent_matches(&p(&["CiRunner"]), &path(&[]), Some("CiRunner")));
        assert!(parent_matches(&p(&["runner"]), &path(&["runner"]), None));
        assert!(!parent_matches(
            &p(&["runner"]),
            &path(&["runner", "managers"]),
            None
        ));
    }
}
