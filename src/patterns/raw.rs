//! A pattern as written: its `kind` and its other fields in the order written, each value with
//! its position. The fields are not known here: each pattern kind reads its own (see
//! [`super::check::Fields`]). Self-contained (serde and serde-saphyr only): the build script
//! includes this file with `catalog/raw.rs`.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};

/// A field's value: one scalar, `true`/`false`, or a list of scalars.
#[derive(Clone, Debug)]
pub enum RawValue {
    Bool(bool),
    Text(String),
    List(Vec<Spanned<String>>),
}

/// A pattern: `kind` and the other fields, in the order written (`null` values left out).
pub struct RawPattern {
    pub kind: Spanned<String>,
    pub fields: Vec<(String, Spanned<RawValue>)>,
    /// Where each field's name is written, in the order of `fields` (unknown when the pattern
    /// comes from compiled JSON).
    pub names_at: Vec<Location>,
}

impl Serialize for RawValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RawValue::Bool(b) => s.serialize_bool(*b),
            RawValue::Text(t) => s.serialize_str(t),
            RawValue::List(l) => l.serialize(s),
        }
    }
}

/// `None` is a `null` value, which counts as absent.
struct MaybeValue(Option<RawValue>);

impl<'de> Deserialize<'de> for MaybeValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, true or false, or a list of strings")
            }
            fn visit_bool<E>(self, b: bool) -> Result<MaybeValue, E> {
                Ok(MaybeValue(Some(RawValue::Bool(b))))
            }
            fn visit_str<E>(self, s: &str) -> Result<MaybeValue, E> {
                Ok(MaybeValue(Some(RawValue::Text(s.to_string()))))
            }
            fn visit_i64<E>(self, n: i64) -> Result<MaybeValue, E> {
                Ok(MaybeValue(Some(RawValue::Text(n.to_string()))))
            }
            fn visit_u64<E>(self, n: u64) -> Result<MaybeValue, E> {
                Ok(MaybeValue(Some(RawValue::Text(n.to_string()))))
            }
            fn visit_f64<E>(self, n: f64) -> Result<MaybeValue, E> {
                Ok(MaybeValue(Some(RawValue::Text(n.to_string()))))
            }
            fn visit_unit<E>(self) -> Result<MaybeValue, E> {
                Ok(MaybeValue(None))
            }
            fn visit_none<E>(self) -> Result<MaybeValue, E> {
                Ok(MaybeValue(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<MaybeValue, A::Error> {
                let mut items = Vec::new();
                while let Some(x) = a.next_element::<Spanned<String>>()? {
                    items.push(x);
                }
                Ok(MaybeValue(Some(RawValue::List(items))))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for RawPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawPattern;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a pattern: `kind` and the fields of that kind")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<RawPattern, A::Error> {
                let mut kind = None;
                let mut fields = Vec::new();
                let mut names_at = Vec::new();
                while let Some(name) = m.next_key::<Spanned<String>>()? {
                    if name.value == "kind" {
                        kind = Some(m.next_value::<Spanned<String>>()?);
                        continue;
                    }
                    let v = m.next_value::<Spanned<MaybeValue>>()?;
                    if let Some(value) = v.value.0 {
                        let spanned = Spanned::new(value, v.referenced, v.defined);
                        fields.push((name.value, spanned));
                        names_at.push(name.referenced);
                    }
                }
                let kind = kind.ok_or_else(|| de::Error::missing_field("kind"))?;
                Ok(RawPattern {
                    kind,
                    fields,
                    names_at,
                })
            }
        }
        d.deserialize_map(V)
    }
}

impl Serialize for RawPattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.fields.len() + 1))?;
        m.serialize_entry("kind", &self.kind)?;
        for (name, value) in &self.fields {
            m.serialize_entry(name, &value.value)?;
        }
        m.end()
    }
}
