//! GraphQL executable documents (queries, mutations, fragments), parsed into the occurrences a
//! detector needs: every field with its parent path and the type condition it sits in, every
//! argument and input-object key with its path, every named type and every enum value, each
//! with its byte range. Nesting is bounded, so a hostile document cannot exhaust the stack.

use std::rc::Rc;

/// How deep selection sets and values may nest.
pub const MAX_DEPTH: usize = 128;

/// A name in a document: made once, shared by its occurrence and the paths under it.
pub type Name = Rc<str>;

/// The names of the enclosing fields (and arguments), outermost first: made once per field,
/// shared by the occurrences under it.
pub type Path = Rc<[Name]>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A selected field. `path` holds the names of the enclosing fields, outermost first.
    Field {
        /// The innermost type condition (`fragment F on T`, `... on T`) directly around it.
        type_condition: Option<Name>,
        /// The argument names given to the field.
        arguments: Vec<Name>,
        /// Selected directly under an operation (a root field of a query or mutation).
        root_of: Option<&'static str>,
    },
    /// An argument, or a key of an input object inside an argument; `path` ends with the field
    /// and the enclosing argument names.
    Argument,
    /// A type named in a variable definition or a type condition.
    Type,
    /// An enum value in an argument.
    EnumValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub name: Name,
    pub kind: Kind,
    pub path: Path,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Name(&'a str),
    Punct(u8),
    Spread,
    Str,
    Num,
    Var(&'a str),
    Eof,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn skip(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b' ' | b'\t' | b'\n' | b'\r' | b',' => self.pos += 1,
                0xEF if b[self.pos..].starts_with(&[0xEF, 0xBB, 0xBF]) => self.pos += 3,
                b'#' => {
                    while self.pos < b.len() && b[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The next token and its byte range.
    fn next(&mut self) -> Result<(Tok<'a>, usize, usize), ParseError> {
        self.skip();
        let b = self.text.as_bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Ok((Tok::Eof, start, start));
        };
        let err = |m: &str| ParseError {
            offset: start,
            message: m.to_string(),
        };
        let name_end = |from: usize| {
            let mut e = from;
            while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
                e += 1;
            }
            e
        };
        let tok = match c {
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b':' | b'=' | b'@' | b'!' | b'|' | b'&' => {
                self.pos += 1;
                Tok::Punct(c)
            }
            b'.' if b[start..].starts_with(b"...") => {
                self.pos += 3;
                Tok::Spread
            }
            b'$' => {
                let e = name_end(start + 1);
                if e == start + 1 {
                    return Err(err("expected a variable name after `$`"));
                }
                self.pos = e;
                Tok::Var(&self.text[start + 1..e])
            }
            b'"' => {
                if b[start..].starts_with(b"\"\"\"") {
                    match memchr::memmem::find(&b[start + 3..], b"\"\"\"") {
                        Some(i) => self.pos = start + 3 + i + 3,
                        None => return Err(err("unterminated block string")),
                    }
                } else {
                    let mut i = start + 1;
                    loop {
                        match b.get(i) {
                            None | Some(b'\n') => return Err(err("unterminated string")),
                            Some(b'\\') => i += 2,
                            Some(b'"') => break,
                            _ => i += 1,
                        }
                    }
                    self.pos = i + 1;
                }
                Tok::Str
            }
            b'-' | b'0'..=b'9' => {
                let mut e = start + 1;
                while e < b.len()
                    && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'.' | b'+' | b'-'))
                {
                    e += 1;
                }
                self.pos = e;
                Tok::Num
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let e = name_end(start);
                self.pos = e;
                Tok::Name(&self.text[start..e])
            }
            _ => return Err(err("unexpected character")),
        };
        Ok((tok, start, self.pos))
    }
}

struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok<'a>,
    start: usize,
    end: usize,
    out: Vec<Occurrence>,
    /// The path of what sits directly in an operation or a fragment (and of every type).
    root: Path,
}

/// `path` and then `name`.
fn extend(path: &Path, name: &Name) -> Path {
    path.iter().chain(std::iter::once(name)).cloned().collect()
}

impl<'a> Parser<'a> {
    fn bump(&mut self) -> Result<(), ParseError> {
        let (t, s, e) = self.lex.next()?;
        self.tok = t;
        self.start = s;
        self.end = e;
        Ok(())
    }

    fn fail<T>(&self, m: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            offset: self.start,
            message: m.into(),
        })
    }

    fn expect(&mut self, p: u8) -> Result<(), ParseError> {
        if self.tok == Tok::Punct(p) {
            self.bump()
        } else {
            self.fail(format!("expected `{}`", p as char))
        }
    }

    fn name(&mut self) -> Result<(&'a str, usize, usize), ParseError> {
        match self.tok {
            Tok::Name(n) => {
                let r = (n, self.start, self.end);
                self.bump()?;
                Ok(r)
            }
            _ => self.fail("expected a name"),
        }
    }

    fn document(&mut self) -> Result<(), ParseError> {
        self.bump()?;
        if self.tok == Tok::Eof {
            return self.fail("empty document");
        }
        while self.tok != Tok::Eof {
            match self.tok {
                Tok::Punct(b'{') => {
                    let root = self.root.clone();
                    self.selection_set(&root, None, Some("query"), 0)?
                }
                Tok::Name(op @ ("query" | "mutation" | "subscription")) => {
                    let op = match op {
                        "query" => "query",
                        "mutation" => "mutation",
                        _ => "subscription",
                    };
                    self.bump()?;
                    if let Tok::Name(_) = self.tok {
                        self.bump()?;
                    }
                    if self.tok == Tok::Punct(b'(') {
                        self.variable_definitions()?;
                    }
                    let root = self.root.clone();
                    self.directives(&root)?;
                    self.selection_set(&root, None, Some(op), 0)?;
                }
                Tok::Name("fragment") => {
                    self.bump()?;
                    self.name()?;
                    match self.tok {
                        Tok::Name("on") => self.bump()?,
                        _ => return self.fail("expected `on` after the fragment name"),
                    }
                    let (t, s, e) = self.name()?;
                    let t: Name = t.into();
                    let root = self.root.clone();
                    self.push(t.clone(), Kind::Type, root.clone(), s, e);
                    self.directives(&root)?;
                    self.selection_set(&root, Some(t), None, 0)?;
                }
                _ => return self.fail("expected an operation or a fragment"),
            }
        }
        Ok(())
    }

    fn push(&mut self, name: Name, kind: Kind, path: Path, start: usize, end: usize) {
        self.out.push(Occurrence {
            name,
            kind,
            path,
            start,
            end,
        });
    }

    fn variable_definitions(&mut self) -> Result<(), ParseError> {
        self.expect(b'(')?;
        while self.tok != Tok::Punct(b')') {
            match self.tok {
                Tok::Var(_) => self.bump()?,
                _ => return self.fail("expected a variable definition"),
            }
            self.expect(b':')?;
            self.type_ref(0)?;
            if self.tok == Tok::Punct(b'=') {
                self.bump()?;
                let root = self.root.clone();
                self.value(&root, 0)?;
            }
            let root = self.root.clone();
            self.directives(&root)?;
        }
        self.bump()
    }

    fn type_ref(&mut self, depth: usize) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            return self.fail("type nests too deep");
        }
        if self.tok == Tok::Punct(b'[') {
            self.bump()?;
            self.type_ref(depth + 1)?;
            self.expect(b']')?;
        } else {
            let (t, s, e) = self.name()?;
            self.push(t.into(), Kind::Type, self.root.clone(), s, e);
        }
        if self.tok == Tok::Punct(b'!') {
            self.bump()?;
        }
        Ok(())
    }

    fn directives(&mut self, path: &Path) -> Result<(), ParseError> {
        while self.tok == Tok::Punct(b'@') {
            self.bump()?;
            self.name()?;
            if self.tok == Tok::Punct(b'(') {
                self.arguments(path, 0)?;
            }
        }
        Ok(())
    }

    /// Arguments of the field at the end of `path`; returns their names.
    fn arguments(&mut self, path: &Path, depth: usize) -> Result<Vec<Name>, ParseError> {
        self.expect(b'(')?;
        let mut names = Vec::new();
        while self.tok != Tok::Punct(b')') {
            let (n, s, e) = self.name()?;
            let n: Name = n.into();
            self.push(n.clone(), Kind::Argument, path.clone(), s, e);
            self.expect(b':')?;
            let inner = extend(path, &n);
            names.push(n);
            self.value(&inner, depth + 1)?;
        }
        self.bump()?;
        Ok(names)
    }

    fn value(&mut self, path: &Path, depth: usize) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            return self.fail("value nests too deep");
        }
        match self.tok {
            Tok::Var(_) | Tok::Str | Tok::Num => self.bump(),
            Tok::Name("true" | "false" | "null") => self.bump(),
            Tok::Name(n) => {
                self.push(
                    n.into(),
                    Kind::EnumValue,
                    path.clone(),
                    self.start,
                    self.end,
                );
                self.bump()
            }
            Tok::Punct(b'[') => {
                self.bump()?;
                while self.tok != Tok::Punct(b']') {
                    if self.tok == Tok::Eof {
                        return self.fail("unterminated list");
                    }
                    self.value(path, depth + 1)?;
                }
                self.bump()
            }
            Tok::Punct(b'{') => {
                self.bump()?;
                while self.tok != Tok::Punct(b'}') {
                    let (k, s, e) = self.name()?;
                    let k: Name = k.into();
                    self.push(k.clone(), Kind::Argument, path.clone(), s, e);
                    self.expect(b':')?;
                    self.value(&extend(path, &k), depth + 1)?;
                }
                self.bump()
            }
            _ => self.fail("expected a value"),
        }
    }

    fn selection_set(
        &mut self,
        path: &Path,
        type_condition: Option<Name>,
        root_of: Option<&'static str>,
        depth: usize,
    ) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            return self.fail("selections nest too deep");
        }
        self.expect(b'{')?;
        while self.tok != Tok::Punct(b'}') {
            match self.tok {
                Tok::Spread => {
                    self.bump()?;
                    match self.tok {
                        Tok::Name("on") => {
                            self.bump()?;
                            let (t, s, e) = self.name()?;
                            let t: Name = t.into();
                            self.push(t.clone(), Kind::Type, self.root.clone(), s, e);
                            self.directives(path)?;
                            self.selection_set(path, Some(t), None, depth + 1)?;
                        }
                        Tok::Name(_) => {
                            self.name()?;
                            self.directives(path)?;
                        }
                        _ => {
                            self.directives(path)?;
                            self.selection_set(path, type_condition.clone(), None, depth + 1)?;
                        }
                    }
                }
                Tok::Name(_) => {
                    let (mut n, mut s, mut e) = self.name()?;
                    if self.tok == Tok::Punct(b':') {
                        // `alias: field`
                        self.bump()?;
                        (n, s, e) = self.name()?;
                    }
                    let n: Name = n.into();
                    let field_path = extend(path, &n);
                    let arguments = if self.tok == Tok::Punct(b'(') {
                        self.arguments(&field_path, depth)?
                    } else {
                        Vec::new()
                    };
                    self.push(
                        n,
                        Kind::Field {
                            type_condition: type_condition.clone(),
                            arguments,
                            root_of,
                        },
                        path.clone(),
                        s,
                        e,
                    );
                    self.directives(&field_path)?;
                    if self.tok == Tok::Punct(b'{') {
                        self.selection_set(&field_path, None, None, depth + 1)?;
                    }
                }
                Tok::Eof => return self.fail("unterminated selection set: expected `}`"),
                _ => return self.fail("expected a field, a fragment spread or `}`"),
            }
        }
        self.bump()
    }
}

/// Parse an executable document. On error, the occurrences found before it are returned too.
pub fn parse(text: &str) -> (Vec<Occurrence>, Option<ParseError>) {
    let mut p = Parser {
        lex: Lexer { text, pos: 0 },
        tok: Tok::Eof,
        start: 0,
        end: 0,
        out: Vec::new(),
        root: Rc::new([]),
    };
    let err = p.document().err();
    (p.out, err)
}

/// Does the text start like a GraphQL type-system document (a schema), which holds no queries?
/// Its first definition may have a description (`"""Directs the client…""" directive @client`).
pub fn is_schema(text: &str) -> bool {
    let mut lex = Lexer { text, pos: 0 };
    let type_system = |tok: Result<(Tok, usize, usize), ParseError>| {
        matches!(
            tok,
            Ok((
                Tok::Name(
                    "type"
                        | "schema"
                        | "input"
                        | "enum"
                        | "interface"
                        | "union"
                        | "scalar"
                        | "directive"
                        | "extend"
                ),
                _,
                _
            ))
        )
    };
    match lex.next() {
        Ok((Tok::Str, _, _)) => type_system(lex.next()),
        first => type_system(first),
    }
}

/// Does the text look like an executable GraphQL document (for strings embedded in code)?
pub fn looks_like_document(text: &str) -> bool {
    let t = text.trim_start();
    let first = t
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    (matches!(first, "query" | "mutation" | "subscription" | "fragment") || t.starts_with('{'))
        && t.contains('{')
        && t.contains('}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(doc: &str) -> Vec<(String, String, Option<String>)> {
        let (occ, err) = parse(doc);
        assert!(err.is_none(), "{err:?}");
        occ.into_iter()
            .filter_map(|o| match o.kind {
                Kind::Field { type_condition, .. } => Some((
                    o.name.to_string(),
                    o.path.join("."),
                    type_condition.map(|t| t.to_string()),
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn fields_with_paths_and_type_conditions() {
        let doc = "query R($id: CiRunnerID!) { runner(id: $id) { ipAddress managers { nodes { ipAddress } } ... on CiRunner { version } } }\nfragment F on CiRunner { revision }";
        assert_eq!(
            fields(doc),
            [
                ("runner".into(), "".into(), None),
                ("ipAddress".into(), "runner".into(), None),
                ("managers".into(), "runner".into(), None),
                ("nodes".into(), "runner.managers".into(), None),
                ("ipAddress".into(), "runner.managers.nodes".into(), None),
                ("version".into(), "runner".into(), Some("CiRunner".into())),
                ("revision".into(), "".into(), Some("CiRunner".into())),
            ]
        );
    }

    #[test]
    fn arguments_types_and_enum_values() {
        let doc = "mutation($f: RunnerMembershipFilter) { vulnerabilityCreate(input: {message: \"x\", severity: HIGH}) { errors } group(fullPath: \"g\") { runners(membership: $f) { count } } }";
        let (occ, err) = parse(doc);
        assert!(err.is_none());
        let find = |n: &str| occ.iter().find(|o| &*o.name == n).unwrap();
        assert_eq!(find("RunnerMembershipFilter").kind, Kind::Type);
        assert_eq!(find("message").kind, Kind::Argument);
        assert_eq!(find("message").path.join("."), "vulnerabilityCreate.input");
        assert_eq!(find("HIGH").kind, Kind::EnumValue);
        let m = find("message");
        assert_eq!(&doc[m.start..m.end], "message");
    }

    #[test]
    fn errors_and_hostile_input() {
        assert!(parse("query { runner { id }").1.is_some());
        assert!(parse("{ a(b: \"x) }").1.is_some());
        let deep = "{a".repeat(50_000) + &"}".repeat(50_000);
        let (_, err) = parse(&deep);
        assert!(err.unwrap().message.contains("too deep"));
        assert!(is_schema("type Query { a: Int }"));
        assert!(looks_like_document("\n  query Foo { a }"));
        assert!(!looks_like_document("select * from t"));
    }
}
