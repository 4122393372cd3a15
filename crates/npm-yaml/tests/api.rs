//! `api::parse`, the crate's `YAML.parse`, on a few inputs with the outcome npm yaml 2.9.0 gives
//! (the corpora in `tests/stages.rs` check it on 58,194 more).

use npm_yaml::api::parse;
use npm_yaml::errors::ErrorCode;
use npm_yaml::js::Value;

#[test]
fn a_frontmatter_is_an_object_in_property_order() {
    let p = parse("name: pdf\ndescription: Extract text\nversion: 1.2\n2: two\ntags: [a, b]\n").unwrap();
    let Value::Object(o) = &p.value else { panic!("an object") };
    // array-index keys first, as JavaScript orders properties
    let keys: Vec<&str> = o.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["2", "name", "description", "version", "tags"]);
    assert_eq!(o.get("version"), Some(&Value::Number(1.2)));
    assert_eq!(o.get("tags"), Some(&Value::Array(vec![Value::String("a".into()), Value::String("b".into())])));
    assert!(p.warnings.is_empty());
    assert_eq!(p.top_keys.len(), 5);
}

#[test]
fn the_first_error_is_thrown_with_string_e() {
    let e = parse("name: a\nname: b\n").unwrap_err();
    assert_eq!(e.name, "YAMLParseError");
    assert_eq!(e.code, Some(ErrorCode::DuplicateKey));
    assert_eq!(e.line_pos, Some((2, 1)));
    assert_eq!(
        e.pretty.as_str(),
        "YAMLParseError: Map keys must be unique at line 2, column 1:\n\nname: a\nname: b\n^\n"
    );
    assert_eq!(e.to_string(), e.pretty.as_str());
}

#[test]
fn warnings_come_before_the_error_and_columns_count_utf16_units() {
    let e = parse("é😀: !foo x\nb: [\n").unwrap_err();
    assert_eq!(e.warnings, ["YAMLWarning: Unresolved tag: !foo at line 1, column 6:\n\né😀: !foo x\n     ^^^^\n"]);
    assert_eq!(e.code, Some(ErrorCode::BadIndent));
    assert!(e.pretty.starts_with("YAMLParseError: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1:"));
}

#[test]
fn to_js_errors_have_no_position() {
    let e = parse("a: *nope\n").unwrap_err();
    assert_eq!(e.name, "ReferenceError");
    assert_eq!(e.code, None);
    assert_eq!(e.pretty.as_str(), "ReferenceError: Unresolved alias (the anchor must be set before the alias): nope");
}

#[test]
fn collection_keys_are_stringified_with_a_warning() {
    let p = parse("? [a, {b: 1}]\n: x\n").unwrap();
    let Value::Object(o) = &p.value else { panic!("an object") };
    assert_eq!(o.iter().next().map(|(k, _)| k), Some("[ a, { b: 1 } ]"));
    assert_eq!(
        p.warnings,
        [
            "Warning: Keys with collection values will be stringified due to JS Object restrictions: \"[ a, { b: 1 } ]\". Set mapAsMap: true to use object keys."
        ]
    );
}

#[test]
fn yaml_1_1_and_merge_keys() {
    // `y` and `on` are booleans in YAML 1.1, `<<` merges
    let p = parse("%YAML 1.1\n---\nbase: &b {x: 1, y: on}\nk:\n  <<: *b\n  y: 2\n").unwrap();
    let Value::Object(o) = &p.value else { panic!("an object") };
    let Some(Value::Object(k)) = o.get("k") else { panic!("k is an object") };
    assert_eq!(k.get("x"), Some(&Value::Number(1.0)));
    assert_eq!(k.get("true"), Some(&Value::Number(2.0)));
    let Some(Value::Object(b)) = o.get("base") else { panic!("base is an object") };
    assert_eq!(b.get("true"), Some(&Value::Bool(true)));
}

/// A merged map's keys are property keys: `String(key)`, so an array key is joined with `,`,
/// its item arrays too, null items empty (`String([[1, 2], [3, [null, 4]]])` is `1,2,3,,4`).
#[test]
fn merged_array_keys_are_joined() {
    let p = parse("%YAML 1.1\n---\nbase: &b {? [[1, 2], [3, [null, 4]]] : x, ? [] : y}\nk:\n  <<: *b\n").unwrap();
    let Value::Object(o) = &p.value else { panic!("an object") };
    let Some(Value::Object(k)) = o.get("k") else { panic!("k is an object") };
    let keys: Vec<&str> = k.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["1,2,3,,4", ""]);
}

#[test]
fn empty_and_comment_only_input_is_null() {
    for src in ["", "# just a comment\n", "---\n"] {
        assert_eq!(parse(src).unwrap().value, Value::Null, "{src:?}");
    }
}

/// After a wrong closing bracket, npm yaml's node end is `cePos` plus the UTF-16 lengths of the
/// tokens after it (`resolveEnd`); the ranges npm yaml 2.9.0 gives, in UTF-16 units.
#[test]
fn a_flow_collection_end_after_a_wrong_bracket_counts_utf16_units() {
    use npm_yaml::compose::doc::NodeKind;
    let units = |src: &str, b: u32| src.get(..b as usize).map_or(u32::MAX, |s| s.encode_utf16().count() as u32);
    for (src, want) in [
        ("[a}  # é\n", [0, 2, 8]),
        ("{a: 1]  # é😀 x\n", [0, 5, 15]),
        ("k: [a}  # é\n", [3, 5, 11]),
        ("k: [é}  # 😀😀 x\n", [3, 5, 16]),
        ("[é,  é}  # é\n", [0, 6, 12]),
        ("[é, }  # é\n", [0, 4, 10]),
        ("[é  }é # é\n", [0, 4, 10]),
        // the tokens after the wrong `}` do not follow `cePos`: a count of units from there
        ("[[é}}# é", [0, 3, 6]),
        ("[[é}}😀", [0, 3, 5]),
    ] {
        let c = npm_yaml::api::compose_document(src);
        let mut id = c.doc.root.unwrap();
        if let NodeKind::Map { pairs, flow: false, .. } = &c.doc.nodes[id].kind {
            id = pairs[0].1.unwrap();
        }
        let r = c.doc.nodes[id].range;
        assert_eq!(r.map(|b| units(src, b)), want, "{src:?}");
    }
}
