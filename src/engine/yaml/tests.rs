//! Unit tests. Expected values come from npm yaml 2.9.0 (the oracle); most
//! of them are generated into `tests_oracle.rs` by `oracle/mktests.py`.

use super::*;
use serde_json::{Value as J, json};

/// A string: a JSON string, or with lone surrogates `{"lone": JSON.stringify(s)}` (a
/// `serde_json` string cannot hold them).
fn enc_str(s: &JsStr) -> J {
    if !s.has_lone_surrogate() {
        return J::String(s.to_string());
    }
    let mut out = String::new();
    crate::engine::js::json_stringify_utf16(&s.to_utf16(), &mut out);
    json!({ "lone": out })
}

/// The canonical encoding used by `oracle/oracle.js` (strings with lone surrogates: [`enc_str`]).
pub(crate) fn enc(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Undefined => json!({ "undef": true }),
        Value::Bool(b) => J::Bool(*b),
        Value::Number(x) => {
            let s = if *x == 0.0 && x.is_sign_negative() { "-0".to_string() } else { js_number_to_string(*x) };
            json!({ "num": s })
        }
        Value::String(s) => enc_str(s),
        Value::Array(a) => J::Array(a.iter().map(enc).collect()),
        Value::Object(o) => {
            json!({ "obj": o.iter_js().map(|(k, v)| json!([enc_str(k), enc(v)])).collect::<Vec<_>>() })
        }
        Value::Date(t) => json!({ "date": js_number_to_string(*t) }),
        Value::Buffer(b) => json!({ "buf": b }),
        Value::Map(m) => {
            json!({ "map": m.iter().map(|(k, v)| json!([enc(k), enc(v)])).collect::<Vec<_>>() })
        }
        Value::Set(s) => json!({ "set": s.iter().map(enc).collect::<Vec<_>>() }),
        Value::Circular => json!({ "circular": true }),
        Value::Symbol(d) => json!({ "symbol": format!("Symbol({d})") }),
    }
}

pub(crate) fn check_ok(text: &str, expected: &str, warnings: &[&str]) {
    let p = match parse(text) {
        Ok(p) => p,
        Err(e) => panic!("expected success for {text:?}, got {}", e.pretty),
    };
    let exp: J = serde_json::from_str(expected).unwrap();
    assert_eq!(enc(&p.value), exp, "value for {text:?}");
    assert_eq!(p.warnings, warnings, "warnings for {text:?}");
}

pub(crate) fn check_err(text: &str, name: &str, message: &str, pos: Option<(usize, usize)>, pretty: &str) {
    let e = match parse(text) {
        Ok(p) => panic!("expected error for {text:?}, got {:?}", p.value),
        Err(e) => e,
    };
    assert_eq!(e.name, name, "error name for {text:?}");
    assert_eq!(e.message, message, "message for {text:?}");
    assert_eq!(e.pos.map(|p| (p.line, p.col_utf16)), pos, "position for {text:?}");
    assert_eq!(e.pretty, pretty, "pretty for {text:?}");
}

pub(crate) fn check_err_relaxed(text: &str, name: &str, message: &str) {
    let e = match parse(text) {
        Ok(p) => panic!("expected error for {text:?}, got {:?}", p.value),
        Err(e) => e,
    };
    assert_eq!(e.name, name, "error name for {text:?}");
    assert_eq!(e.message, message, "message for {text:?}");
}

fn obj(text: &str) -> Object {
    match parse(text).unwrap().value {
        Value::Object(o) => o,
        v => panic!("not an object: {v:?}"),
    }
}

#[test]
fn js_number_strings() {
    let cases: &[(f64, &str)] = &[
        (0.0, "0"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (123e-20, "1.23e-18"),
        (0.000001, "0.000001"),
        (9007199254740993.0, "9007199254740992"),
        (f64::NAN, "NaN"),
        (f64::NEG_INFINITY, "-Infinity"),
        (158896330570759.12, "158896330570759.12"),
        (-1.5, "-1.5"),
    ];
    for (x, s) in cases {
        assert_eq!(js_number_to_string(*x), *s);
    }
}

#[test]
fn to_json_rules() {
    let p = parse(
        "a: 1.0\nb: -0\nc: .nan\nd: .inf\ne: 1e21\nf: 9007199254740993\ng: !!timestamp 2001-12-14\nh: !!timestamp 2001-12-14 10:00:00 +01:30\ni: !!binary aGk=\nj: !!set {x}\nk: !!omap [x: 1]\nl: [1.5, null, true]\n",
    )
    .unwrap();
    let j = p.value.to_json();
    assert_eq!(j["a"], json!(1));
    assert_eq!(j["b"], json!(0));
    assert_eq!(j["c"], J::Null);
    assert_eq!(j["d"], J::Null);
    assert_eq!(j["e"], json!(1e21));
    assert_eq!(j["f"], json!(9007199254740992.0));
    assert_eq!(j["g"], json!("2001-12-14T00:00:00.000Z"));
    assert_eq!(j["h"], json!("2001-12-14T08:30:00.000Z"));
    assert_eq!(j["i"], json!({"type": "Buffer", "data": [104, 105]}));
    assert_eq!(j["j"], json!({}));
    assert_eq!(j["k"], json!({}));
    assert_eq!(j["l"], json!([1.5, null, true]));
    // key order preserved in JSON
    let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]);
}

/// `to_json` keeps a stack of its own: values nested as deep as the YAML limit allows (block
/// sequences in flow maps in block sequences) convert on a small thread, symbols left out.
#[test]
fn to_json_of_deep_values_needs_no_deep_stack() {
    let run = || {
        let (seqs, flows) = (900, 200);
        let src = format!(
            "%YAML 1.1\n---\n{}{}{}\n",
            "- ".repeat(seqs),
            "{a: [{b: 1, s: !!merge <<}, ".repeat(flows),
            "]}".repeat(flows)
        );
        let mut j = &parse(&src).unwrap().value.to_json();
        let mut depth = 0;
        loop {
            j = match j {
                J::Array(a) => &a[a.len() - 1],
                J::Object(o) if o.contains_key("a") => &o["a"],
                J::Object(o) => {
                    assert_eq!(o.keys().collect::<Vec<_>>(), ["b"]);
                    &o["b"]
                }
                other => {
                    assert_eq!(other, &json!(1));
                    break;
                }
            };
            depth += 1;
        }
        assert_eq!(depth, seqs + 2 * flows + 1);
    };
    std::thread::Builder::new().stack_size(256 << 10).spawn(run).unwrap().join().unwrap();
}

#[test]
fn object_api_and_order() {
    let o = obj("b: 1\na: 2\n2: x\n1: y\n__proto__: p\n");
    let keys: Vec<&str> = o.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["1", "2", "b", "a", "__proto__"]);
    assert_eq!(o.len(), 5);
    assert!(o.contains_key("__proto__"));
    assert_eq!(o.get("a"), Some(&Value::Number(2.0)));
    assert_eq!(o.get("zz"), None);
    let mut o2 = Object::new();
    o2.insert("x", Value::Null);
    o2.insert("5", Value::Null);
    o2.insert("x", Value::Bool(true));
    let keys: Vec<&str> = o2.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["5", "x"]);
    assert_eq!(o2.get("x"), Some(&Value::Bool(true)));
}

#[test]
fn large_object_lookup() {
    let text: String = (0..500).rev().map(|i| format!("k{i}: {i}\n")).collect();
    let o = obj(&text);
    assert_eq!(o.len(), 500);
    assert_eq!(o.get("k123"), Some(&Value::Number(123.0)));
    assert_eq!(o.iter().next().map(|(k, _)| k), Some("k499"));
}

#[test]
fn key_spans() {
    let text = "name: pdf\ndescription: |\n  Line\n# c\n\"q é\": [a,\n  b]\nempty:\n";
    let p = parse(text).unwrap();
    type Row<'a> = (&'a str, (usize, usize), (usize, usize), (usize, usize));
    let k: Vec<Row> = p
        .top_keys
        .iter()
        .map(|s| {
            (
                s.key.as_str(),
                (s.key_start.line, s.key_start.col),
                (s.value_start.line, s.value_start.col),
                (s.value_end.line, s.value_end.col),
            )
        })
        .collect();
    assert_eq!(k[0], ("name", (1, 1), (1, 7), (1, 10)));
    assert_eq!(k[1].0, "description");
    assert_eq!(k[1].1, (2, 1));
    assert_eq!(k[1].2, (2, 14));
    assert_eq!(k[2], ("q é", (5, 1), (5, 8), (6, 5)));
    assert_eq!(k[3], ("empty", (7, 1), (7, 7), (7, 7)));
    let b = p.top_keys[2].key_start.byte;
    assert_eq!(&text[b..b + 1], "\"");
}

#[test]
fn error_has_warnings_before_it() {
    let e = parse("a: !foo x\na: 1\n").unwrap_err();
    assert_eq!(e.name, "YAMLParseError");
    assert_eq!(e.warnings.len(), 1);
    assert!(e.warnings[0].starts_with("YAMLWarning: Unresolved tag: !foo at line 1, column 4:"));
}

#[test]
fn circular_alias() {
    // npm yaml returns a cyclic array; JSON.stringify would throw
    let p = parse("&a [ *a ]\n").unwrap();
    assert_eq!(p.value, Value::Array(vec![Value::Circular]));
}

#[test]
fn hostile_inputs_are_fast_and_safe() {
    // deep nesting: npm yaml overflows its stack around 1000 levels
    let e = parse(&format!("a: {}{}\n", "[".repeat(20_000), "]".repeat(20_000))).unwrap_err();
    assert_eq!(e.name, "YAMLParseError");
    assert_eq!(e.message, "Maximum call stack size exceeded");
    let e = parse(&format!("{}x\n", "- ".repeat(20_000))).unwrap_err();
    assert_eq!(e.message, "Maximum call stack size exceeded");
    let e = parse(&"{a: ".repeat(20_000)).unwrap_err();
    assert_eq!(e.name, "YAMLParseError");
    // many keys
    let text: String = (0..20_000).map(|i| format!("k{i}: v\n")).collect();
    assert_eq!(obj(&text).len(), 20_000);
    // big scalar
    let big = "x".repeat(1 << 20);
    assert_eq!(obj(&format!("a: {big}\n")).get("a").and_then(Value::as_str).map(str::len), Some(1 << 20));
    // unterminated everything
    for t in ["[", "{", "\"", "'", "a: |", "a: >-\n", "&", "*", "!", "? ", ": ", "- ", "%"] {
        let _ = parse(t);
    }
}

#[test]
fn deep_but_allowed_nesting() {
    // 300 levels is fine for npm yaml and for us
    let text = format!("a: {}1{}\n", "[".repeat(300), "]".repeat(300));
    let mut v = &obj(&text).get("a").cloned().unwrap();
    let mut depth = 0;
    while let Value::Array(a) = v {
        depth += 1;
        v = &a[0];
    }
    assert_eq!(depth, 300);
}

#[test]
fn typical_frontmatter() {
    let text = "name: pdf-tools\ndescription: Extract text from PDFs. Use when: the user asks.\n";
    let e = parse(text).unwrap_err();
    assert_eq!(e.message, "Nested mappings are not allowed in compact mappings");
    let text = "name: pdf-tools\ndescription: \"Extract text: fast\"\nmetadata:\n  version: 1.0\n  tags: [pdf, text]\n";
    let p = parse(text).unwrap();
    assert_eq!(
        p.value.to_json(),
        json!({"name": "pdf-tools", "description": "Extract text: fast", "metadata": {"version": 1, "tags": ["pdf", "text"]}})
    );
    assert!(p.warnings.is_empty());
}

// Conformance cases 113-115 and the generators that found their neighbours (genchars.py):
// U+FEFF and NUL as content, flow values followed by `:`, escaped surrogate pairs, and a
// block sequence after an explicit key. Expectations from npm yaml 2.9.0.
#[test]
fn oracle_unusual_characters_and_flow_values() {
    check_ok("a: x\u{feff}y\n", "{\"obj\": [[\"a\", \"x\\ufeffy\"]]}", &[]);
    check_ok("a: \u{feff}\n", "{\"obj\": [[\"a\", \"\\ufeff\"]]}", &[]);
    check_ok("---\n\u{feff}a: 1\n", "{\"obj\": [[\"\\ufeffa\", {\"num\": \"1\"}]]}", &[]);
    check_ok("\u{feff}\u{feff}a: 1\n", "{\"obj\": [[\"\\ufeffa\", {\"num\": \"1\"}]]}", &[]);
    check_ok("%YAML 1.2\n\u{feff}---\na: 1\n", "{\"obj\": [[\"a\", {\"num\": \"1\"}]]}", &[]);
    check_ok("a: 1 \u{feff}# c\n", "{\"obj\": [[\"a\", \"1 \\ufeff# c\"]]}", &[]);
    check_ok("a: [x\u{feff}, \u{feff}]\n", "{\"obj\": [[\"a\", [\"x\\ufeff\", \"\\ufeff\"]]]}", &[]);
    check_ok("a: |\n  x\u{feff}\n", "{\"obj\": [[\"a\", \"x\\ufeff\\n\"]]}", &[]);
    check_ok("name: \u{0}\n", "{\"obj\": [[\"name\", \"\\u0000\"]]}", &[]);
    check_ok("a: '\u{0}'\n", "{\"obj\": [[\"a\", \"\\u0000\"]]}", &[]);
    check_ok("a: \u{0}\r\n", "{\"obj\": [[\"a\", \"\\u0000\"]]}", &[]);
    check_ok("&\u{0} a: *\u{0}\n", "{\"obj\": [[\"a\", \"a\"]]}", &[]);
    check_ok("a: {}: b\n", "{\"obj\": [[\"a\", {\"obj\": []}], [\"\", \"b\"]]}", &[]);
    check_ok("a: [x] : b\n", "{\"obj\": [[\"a\", [\"x\"]], [\"\", \"b\"]]}", &[]);
    check_ok("- a: {}: b\n  c: d\n", "[{\"obj\": [[\"a\", {\"obj\": []}], [\"\", \"b\"], [\"c\", \"d\"]]}]", &[]);
    check_ok("a: [a,\n b]: c\n", "{\"obj\": [[\"a\", [\"a\", \"b\"]], [\"\", \"c\"]]}", &[]);
    check_ok("a: {}\n: b\n", "{\"obj\": [[\"a\", {\"obj\": []}], [\"\", \"b\"]]}", &[]);
    check_err(
        "name: \"h\"\ndescription: v\n: {}: {}\n",
        "YAMLParseError",
        "Nested mappings are not allowed in compact mappings",
        Some((3, 3)),
        "YAMLParseError: Nested mappings are not allowed in compact mappings at line 3, column 3:\n\n: {}: {}\n  ^\n",
    );
    check_err(
        ": x: y\n",
        "YAMLParseError",
        "Nested mappings are not allowed in compact mappings",
        Some((1, 3)),
        "YAMLParseError: Nested mappings are not allowed in compact mappings at line 1, column 3:\n\n: x: y\n  ^\n",
    );
    check_err(
        "- : {}: {}\n",
        "YAMLParseError",
        "Nested mappings are not allowed in compact mappings",
        Some((1, 5)),
        "YAMLParseError: Nested mappings are not allowed in compact mappings at line 1, column 5:\n\n- : {}: {}\n    ^\n",
    );
    check_ok("a: \"\\ud83d\\ude00\"\n", "{\"obj\": [[\"a\", \"\\ud83d\\ude00\"]]}", &[]);
    check_ok("a: \"\\ud83d\\U0000de00\"\n", "{\"obj\": [[\"a\", \"\\ud83d\\ude00\"]]}", &[]);
    check_ok(
        "name: a\n? x\n- a\ndescription: b\n",
        "{\"obj\": [[\"name\", \"a\"], [\"x\", null], [\"description\", \"b\"]]}",
        &[],
    );
    check_ok(
        "? x: 1\n- a\n- b\nc: d\n",
        "{\"obj\": [[\"{ x: 1 }\", null], [\"c\", \"d\"]]}",
        &[
            "Warning: Keys with collection values will be stringified due to JS Object restrictions: \"{ x: 1 }\". Set mapAsMap: true to use object keys.",
        ],
    );
    check_err(
        "? x\n- &a a\nb: *a\n",
        "ReferenceError",
        "Unresolved alias (the anchor must be set before the alias): a",
        None,
        "ReferenceError: Unresolved alias (the anchor must be set before the alias): a",
    );
    check_ok("? x\n: - a\n", "{\"obj\": [[\"x\", [\"a\"]]]}", &[]);
}

/// Sets and ordered maps find entries by SameValueZero through a hash: `0` and `-0` are one
/// entry, `NaN` equals `NaN`, a later duplicate of an early entry is found among many.
/// (Checked against npm yaml 2.9.0.)
#[test]
fn sets_and_ordered_maps_by_same_value_zero() {
    // (npm yaml: `[NaN, "k0", ...]`; `? 0` and `? -0` are duplicate keys before the set is made.)
    let mut text = String::from("s: !!set\n  ? .nan\n");
    for i in 0..3000 {
        text.push_str(&format!("  ? k{i}\n"));
    }
    text.push_str("  ? .NaN\n");
    let o = obj(&text);
    match o.get("s") {
        Some(Value::Set(items)) => assert_eq!(items.len(), 1 + 3000),
        other => panic!("{other:?}"),
    }
    assert!(parse("s: !!set\n  ? 0\n  ? -0\n").unwrap_err().message.contains("Map keys must be unique"));
    let mut omap = String::from("o: !!omap\n");
    for i in 0..3000 {
        omap.push_str(&format!("  - k{i}: {i}\n"));
    }
    omap.push_str("  - k7: again\n");
    let e = parse(&omap).unwrap_err();
    assert!(e.message.contains("Ordered maps must not include duplicate keys: k7"), "{}", e.message);
    let e = parse("o: !!omap\n  - .nan: 1\n  - .NaN: 2\n").unwrap_err();
    assert!(e.message.contains("Ordered maps must not include duplicate keys"), "{}", e.message);
    assert!(parse("o: !!omap\n  - 1: a\n  - '1': b\n").is_ok(), "1 and '1' differ");
}

/// Lone surrogates from `\ud800`-style escapes are JavaScript string code units in npm yaml:
/// keys that differ only in them are two keys, pairs that meet across an escaped line break are
/// one character. Expected values from npm yaml 2.9.0 (`tools/yaml-oracle/q.sh`).
#[test]
fn lone_surrogates_are_kept_as_code_units() {
    let lone = |s: &str| json!({ "lone": s });
    let cases: Vec<(&str, J)> = vec![
        (
            "a: {\"\\ud800\": 1, \"\\ud801\": 2}",
            json!({"obj": [["a", {"obj": [[lone(r#""\ud800""#), {"num": "1"}], [lone(r#""\ud801""#), {"num": "2"}]]}]]}),
        ),
        (
            "a: {\"\\ud800\": 1, \"\\ufffd\": 2}",
            json!({"obj": [["a", {"obj": [[lone(r#""\ud800""#), {"num": "1"}], ["\u{FFFD}", {"num": "2"}]]}]]}),
        ),
        ("a: \"\\ud83d\\\n  \\ude00\"", json!({"obj": [["a", "\u{1F600}"]]})),
        ("a: \"\\ud83d\n  \\ude00\"", json!({"obj": [["a", lone(r#""\ud83d \ude00""#)]]})),
        ("a: \"\\U0000d800\"", json!({"obj": [["a", lone(r#""\ud800""#)]]})),
        ("a: \"\\ud83d\\U0000de00\"", json!({"obj": [["a", "\u{1F600}"]]})),
        ("? [\"\\ud800\", b]\n: 1", json!({"obj": [["[ \"\\ud800\", b ]", {"num": "1"}]]})),
        ("? {\"\\ud800x\": 1}\n: 1", json!({"obj": [["{ \"\\ud800x\": 1 }", {"num": "1"}]]})),
        (
            "a: !!set {\"\\ud800\", \"\\udc00\"}",
            json!({"obj": [["a", {"set": [lone(r#""\ud800""#), lone(r#""\udc00""#)]}]]}),
        ),
        (
            "a: !!omap [\"\\ud800\": 1, \"\\udc00\": 2]",
            json!({"obj": [["a", {"map": [[lone(r#""\ud800""#), {"num": "1"}], [lone(r#""\udc00""#), {"num": "2"}]]}]]}),
        ),
        (
            "\"\\ud800\": &x 1\n\"\\udc00\": *x",
            json!({"obj": [[lone(r#""\ud800""#), {"num": "1"}], [lone(r#""\udc00""#), {"num": "1"}]]}),
        ),
        // the stand-ins move off a block of chars the document uses
        ("a: \"\u{100000}\\ud800\u{10F800}\"", json!({"obj": [["a", lone("\"\u{100000}\\ud800\u{10F800}\"")]]})),
    ];
    for (text, expected) in cases {
        let p = parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.pretty));
        assert_eq!(enc(&p.value), expected, "{text:?}");
    }
    let e = parse("a: {\"\\ud800\": 1, \"\\ud800\": 2}").unwrap_err();
    assert_eq!((e.message.as_str(), e.pos.map(|p| (p.line, p.col_utf16))), ("Map keys must be unique", Some((1, 18))));
    // a message goes out as UTF-8: the lone surrogate as U+FFFD
    let e = parse("a: !!omap [\"\\ud800\": 1, \"\\ud800\": 2]").unwrap_err();
    assert_eq!(e.message, "Ordered maps must not include duplicate keys: \u{FFFD}");
}

#[test]
fn key_positions_are_found_in_one_pass_and_agree_with_a_walk() {
    let text = "a: é😀\n\"q é\": [x,\n  y]\n{k: 1}: v\nz: |\n  t\n";
    let p = parse(text).unwrap();
    assert_eq!(p.top_keys.len(), 4);
    for k in &p.top_keys {
        for pos in [k.key_start, k.value_start, k.value_end] {
            assert_eq!(pos, Pos::of_byte(text, pos.byte), "{k:?}");
        }
    }
    // a cursor that has to go back starts over from the text
    let mut at = Cursor { text, pos: Pos { line: 1, col: 1, col_utf16: 1, byte: 0 } };
    for b in [20, 3, 30, 0, text.len()] {
        assert_eq!(at.at(b), Pos::of_byte(text, b));
    }
}
