//! TEMPORARY stand-in until the real YAML layer lands (same API).
#![allow(dead_code)]
use saphyr::{LoadableYamlNode, Scalar, Yaml};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    Object(Object),
    Date(f64),
    Buffer(Vec<u8>),
    Map(Vec<(Value, Value)>),
    Set(Vec<Value>),
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Object {
    entries: Vec<(String, Value)>,
}
impl Object {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
impl Value {
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => (*b).into(),
            Value::Number(n) => {
                if n.is_finite() {
                    serde_json::Value::Number(serde_json::Number::from_string_unchecked(js_number_to_string(*n)))
                } else {
                    serde_json::Value::Null
                }
            }
            Value::String(s) => s.clone().into(),
            Value::Array(a) => a.iter().map(|v| v.to_json()).collect::<Vec<_>>().into(),
            Value::Object(o) => {
                serde_json::Value::Object(o.entries.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
            _ => serde_json::json!({}),
        }
    }
}
pub fn js_number_to_string(x: f64) -> String {
    format!("{x}")
}
#[derive(Clone, Debug, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
    pub byte: usize,
}
#[derive(Clone, Debug)]
pub struct KeySpan {
    pub key: String,
    pub key_start: Pos,
    pub value_start: Pos,
    pub value_end: Pos,
}
pub struct Parsed {
    pub value: Value,
    pub top_keys: Vec<KeySpan>,
    pub warnings: Vec<String>,
}
#[derive(Clone, Debug)]
pub struct YamlError {
    pub name: &'static str,
    pub message: String,
    pub pos: Option<Pos>,
    pub pretty: String,
}

fn conv(y: &Yaml) -> Value {
    match y {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => Value::Bool(*b),
        Yaml::Value(Scalar::Integer(i)) => Value::Number(*i as f64),
        Yaml::Value(Scalar::FloatingPoint(f)) => Value::Number(f.into_inner()),
        Yaml::Value(Scalar::String(s)) => Value::String(s.to_string()),
        Yaml::Sequence(s) => Value::Array(s.iter().map(conv).collect()),
        Yaml::Mapping(m) => Value::Object(Object {
            entries: m
                .iter()
                .map(|(k, v)| {
                    (
                        match conv(k) {
                            Value::String(s) => s,
                            Value::Null => String::new(),
                            Value::Bool(b) => b.to_string(),
                            Value::Number(n) => js_number_to_string(n),
                            _ => "?".into(),
                        },
                        conv(v),
                    )
                })
                .collect(),
        }),
        _ => Value::Null,
    }
}

pub fn parse(text: &str) -> Result<Parsed, YamlError> {
    match Yaml::load_from_str(text) {
        Ok(docs) => {
            Ok(Parsed { value: docs.first().map(conv).unwrap_or(Value::Null), top_keys: vec![], warnings: vec![] })
        }
        Err(e) => Err(YamlError {
            name: "YAMLParseError",
            message: e.to_string(),
            pos: None,
            pretty: format!("YAMLParseError: {e}"),
        }),
    }
}
