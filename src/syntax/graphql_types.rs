//! Type definitions of a generated GraphQL client: Go structs (`type CiRunner struct {` with
//! `json:"ipAddress"` tags) and TypeScript types (`export type CiRunner = {` with an
//! `ipAddress?:` property), as code generators write them from the platform's schema. Only
//! generated GraphQL code is read this way: a file with `__typename`, or one that says it is
//! generated and names GraphQL.

use memchr::memmem;

/// One field a type definition declares: the type's name, the field's GraphQL name and where
/// that name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeField {
    pub type_name: String,
    pub name: String,
    pub start: usize,
}

/// Is the text generated GraphQL client code?
fn generated_graphql(text: &[u8]) -> bool {
    let has = |w: &str| memmem::find(text, w.as_bytes()).is_some();
    has("__typename")
        || ((has("generated") || has("Generated")) && (has("GraphQL") || has("graphql")))
}

/// What opens the types generated for a whole GraphQL schema (graphql-codegen's `typescript`
/// output): its scalar map. Such a file declares every field of the schema, removed or not,
/// whichever the program selects: its declarations are no use. (The types generated for a
/// program's own operations, which hold only the fields it selects, have no such map.)
pub const WHOLE_SCHEMA: &str = "export type Scalars = {";

/// Does the file name the platform (`GitLab`, `gitlab`, in any case), in its path or its text?
/// A field that no parent narrows down counts in generated types only then: the schemas of
/// other APIs have fields of the same names (an order's or a pool's `totalWeight`, in public
/// code generated for shops and exchanges), and generated types declare every field of their
/// schema. Types generated from the platform's schema name it: its scalars' descriptions give
/// global IDs (`gid://gitlab/Project/1`), and Go clients sit in packages named after it.
pub fn names_gitlab(path: &str, text: &str) -> bool {
    let named = |hay: &str| super::graphql_docs::contains_ignore_case(hay.as_bytes(), b"gitlab");
    named(path) || named(text)
}

fn ident(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The name a line opens a type definition with (`type X struct {`, `export type X = {`,
/// `interface X {`, `export interface X extends Y {`).
fn opens_type(line: &str) -> Option<&str> {
    let t = line.trim_end();
    if !t.ends_with('{') {
        return None;
    }
    if let Some(rest) = t.strip_prefix("type ") {
        let name = ident(rest)?;
        let after = rest[name.len()..].trim_start();
        return (after.starts_with("struct") || after.starts_with('=')).then_some(name);
    }
    let rest = t.strip_prefix("export ").unwrap_or(t);
    let rest = rest
        .strip_prefix("type ")
        .or_else(|| rest.strip_prefix("interface "))?;
    ident(rest)
}

/// The GraphQL name a field line declares, with its offset in the line: a Go `json:"name"` tag,
/// or a TypeScript property `name?:` / `name:`.
fn field_of(line: &str) -> Option<(&str, usize)> {
    if let Some(at) = line.find("json:\"") {
        let from = at + "json:\"".len();
        let name = ident(&line[from..])?;
        return Some((name, from));
    }
    let indent = line.len() - line.trim_start().len();
    let name = ident(&line[indent..])?;
    let after = &line[indent + name.len()..];
    (after.starts_with("?:") || after.starts_with(':')).then_some((name, indent))
}

/// The fields of every type definition in `text`, when the file is about GraphQL.
pub fn type_fields(text: &str) -> Vec<TypeField> {
    let mut out = Vec::new();
    if !generated_graphql(text.as_bytes()) {
        return out;
    }
    let mut current: Option<&str> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        match current {
            None => current = opens_type(body),
            Some(_) if body.starts_with('}') => current = None,
            Some(type_name) => {
                if let Some((name, at)) = field_of(body) {
                    out.push(TypeField {
                        type_name: type_name.to_string(),
                        name: name.to_string(),
                        start: offset + at,
                    });
                }
            }
        }
        offset += line.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_is_named_in_the_path_or_the_text() {
        assert!(names_gitlab("src/gitlab/types.ts", "export type A = {};"));
        assert!(names_gitlab(
            "types.ts",
            "/** `\"gid://gitlab/Project/1\"` */"
        ));
        assert!(names_gitlab("types.go", "package GitLabQL"));
        assert!(!names_gitlab(
            "shop/types.ts",
            "import { GraphQLResolveInfo } from 'graphql';"
        ));
        assert!(!names_gitlab("gitla", "git lab"));
    }

    #[test]
    fn go_and_typescript_definitions() {
        let go = "// Code generated from the GraphQL schema.\ntype CiRunner struct {\n\tIpAddress *string `json:\"ipAddress\"`\n\tPaused bool `json:\"paused\"`\n}\n";
        let f = type_fields(go);
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].type_name.as_str(), f[0].name.as_str()),
            ("CiRunner", "ipAddress")
        );
        assert_eq!(&go[f[0].start..f[0].start + 9], "ipAddress");
        let ts = "export type CiRunner = {\n  __typename?: 'CiRunner';\n  ipAddress?: Maybe<Scalars['String']>;\n};\n";
        let f = type_fields(ts);
        assert_eq!(f[1].name, "ipAddress");
        assert_eq!(&ts[f[1].start..f[1].start + 9], "ipAddress");
        // Hand-written code, even about GraphQL, is not read this way.
        let own = "// Our GraphQL cache.\ntype Runner struct {\n\tIpAddress string `json:\"ipAddress\"`\n}\n";
        assert!(type_fields(own).is_empty());
    }
}
