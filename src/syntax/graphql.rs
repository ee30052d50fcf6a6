//! GraphQL executable documents (queries, mutations, fragments), parsed into the occurrences a
//! detector needs: every field with its parent path and the type condition it sits in, every
//! argument and input-object key with its path, every named type and every enum value, each
//! with its byte range. Nesting is bounded, so a hostile document cannot exhaust the stack.

/// How deep selection sets and values may nest.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A selected field. `path` holds the names of the enclosing fields, outermost first.
    Field {
        /// The innermost type condition (`fragment F on T`, `... on T`) directly around it.
        type_condition: Option<String>,
        /// The argument names given to the field.
        arguments: Vec<String>,
        /// Selected directly under an operation (a root field of a query or mutation).
        root_of: Option<String>,
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
    pub name: String,
    pub kind: Kind,
    pub path: Vec<String>,
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
                Tok::Punct(b'{') => self.selection_set(&[], None, Some("query"), 0)?,
                Tok::Name("query" | "mutation" | "subscription") => {
                    let Tok::Name(op) = self.tok else {
                        unreachable!()
                    };
                    self.bump()?;
                    if let Tok::Name(_) = self.tok {
                        self.bump()?;
                    }
                    if self.tok == Tok::Punct(b'(') {
                        self.variable_definitions()?;
                    }
                    self.directives(&[])?;
                    self.selection_set(&[], None, Some(op), 0)?;
                }
                Tok::Name("fragment") => {
                    self.bump()?;
                    self.name()?;
                    match self.tok {
                        Tok::Name("on") => self.bump()?,
                        _ => return self.fail("expected `on` after the fragment name"),
                    }
                    let (t, s, e) = self.name()?;
                    self.push(t, Kind::Type, vec![], s, e);
                    self.directives(&[])?;
                    self.selection_set(&[], Some(t.to_string()), None, 0)?;
                }
                _ => return self.fail("expected an operation or a fragment"),
            }
        }
        Ok(())
    }

    fn push(&mut self, name: &str, kind: Kind, path: Vec<String>, start: usize, end: usize) {
        self.out.push(Occurrence {
            name: name.to_string(),
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
                self.value(&[], 0)?;
            }
            self.directives(&[])?;
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
            self.push(t, Kind::Type, vec![], s, e);
        }
        if self.tok == Tok::Punct(b'!') {
            self.bump()?;
        }
        Ok(())
    }

    fn directives(&mut self, path: &[String]) -> Result<(), ParseError> {
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
    fn arguments(&mut self, path: &[String], depth: usize) -> Result<Vec<String>, ParseError> {
        self.expect(b'(')?;
        let mut names = Vec::new();
        while self.tok != Tok::Punct(b')') {
            let (n, s, e) = self.name()?;
            self.push(n, Kind::Argument, path.to_vec(), s, e);
            names.push(n.to_string());
            self.expect(b':')?;
            let mut inner = path.to_vec();
            inner.push(n.to_string());
            self.value(&inner, depth + 1)?;
        }
        self.bump()?;
        Ok(names)
    }

    fn value(&mut self, path: &[String], depth: usize) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            return self.fail("value nests too deep");
        }
        match self.tok {
            Tok::Var(_) | Tok::Str | Tok::Num => self.bump(),
            Tok::Name("true" | "false" | "null") => self.bump(),
            Tok::Name(n) => {
                self.push(n, Kind::EnumValue, path.to_vec(), self.start, self.end);
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
                    self.push(k, Kind::Argument, path.to_vec(), s, e);
                    self.expect(b':')?;
                    let mut inner = path.to_vec();
                    inner.push(k.to_string());
                    self.value(&inner, depth + 1)?;
                }
                self.bump()
            }
            _ => self.fail("expected a value"),
        }
    }

    fn selection_set(
        &mut self,
        path: &[String],
        type_condition: Option<String>,
        root_of: Option<&str>,
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
                            self.push(t, Kind::Type, vec![], s, e);
                            self.directives(path)?;
                            self.selection_set(path, Some(t.to_string()), None, depth + 1)?;
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
                    let mut field_path = path.to_vec();
                    field_path.push(n.to_string());
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
                            root_of: root_of.map(str::to_string),
                        },
                        path.to_vec(),
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
    };
    let err = p.document().err();
    (p.out, err)
}

/// Does the text start like a GraphQL type-system document (a schema), which holds no queries?
pub fn is_schema(text: &str) -> bool {
    let mut lex = Lexer { text, pos: 0 };
    matches!(
        lex.next(),
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
    ) || matches!(lex.next(), Ok((Tok::Str, _, _)))
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
                Kind::Field { type_condition, .. } => {
                    Some((o.name, o.path.join("."), type_condition))
                }
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
        let find = |n: &str| occ.iter().find(|o| o.name == n).unwrap();
        assert_eq!(find("RunnerMembershipFilter").kind, Kind::Type);
        assert_eq!(find("message").kind, Kind::Argument);
        assert_eq!(find("message").path, ["vulnerabilityCreate", "input"]);
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
