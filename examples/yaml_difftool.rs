//! Dev tool for the differential check: reads a JSON array of YAML texts from the
//! file given as first argument and prints one JSON line per input, in the same
//! canonical encoding as `oracle/oracle.js`.
use dsh_skills::engine::yaml::{self, JsStr, ToJson, Value};
use serde_json::{Value as J, json};

fn num(x: f64) -> J {
    let s = if x == 0.0 && x.is_sign_negative() { "-0".to_string() } else { yaml::js_number_to_string(x) };
    json!({ "num": s })
}

/// Lone surrogates cannot be held in a `serde_json` string: each is written as this marker and
/// its hex, which `main` turns into the `\udxxx` escape `JSON.stringify` writes.
const LONE: &str = "\u{10FFFF}\u{10FFFE}";

fn string(s: &JsStr) -> J {
    if !s.has_lone_surrogate() {
        return J::String(s.to_string());
    }
    let mut out = String::new();
    for r in char::decode_utf16(s.to_utf16().0) {
        match r {
            Ok(c) => out.push(c),
            Err(e) => out.push_str(&format!("{LONE}{:04x}", e.unpaired_surrogate())),
        }
    }
    J::String(out)
}

fn enc(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Undefined => json!({ "undef": true }),
        Value::Bool(b) => J::Bool(*b),
        Value::Number(x) => num(*x),
        Value::String(s) => string(s),
        Value::Array(a) => J::Array(a.iter().map(enc).collect()),
        Value::Object(o) => {
            json!({ "obj": o.iter_js().map(|(k, v)| json!([string(k), enc(v)])).collect::<Vec<_>>() })
        }
        Value::Date(t) => json!({ "date": yaml::js_number_to_string(*t) }),
        Value::Buffer(b) => json!({ "buf": b }),
        Value::Map(m) => {
            json!({ "map": m.iter().map(|(k, v)| json!([enc(k), enc(v)])).collect::<Vec<_>>() })
        }
        Value::Set(s) => json!({ "set": s.iter().map(enc).collect::<Vec<_>>() }),
        Value::Circular => json!({ "circular": true }),
        Value::Symbol(d) => json!({ "symbol": format!("Symbol({d})") }),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("input file");
    let inputs: Vec<String> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = String::new();
    for s in &inputs {
        let line = match yaml::parse(s) {
            Ok(p) => {
                json!({ "ok": enc(&p.value), "json": p.value.to_json(), "warnings": p.warnings })
            }
            Err(e) => json!({
                "err": {
                    "name": e.name,
                    "message": e.message,
                    "pretty": e.pretty,
                    "pos": e.pos.map(|p| json!({"line": p.line, "col": p.col_utf16})),
                },
                "warnings": e.warnings,
            }),
        };
        out.push_str(&line.to_string());
        out.push('\n');
    }
    print!("{}", out.replace(LONE, "\\u"));
}
