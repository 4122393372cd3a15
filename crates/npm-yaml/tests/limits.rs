//! Hostile shapes: nothing recurses on input depth, and large inputs go through.

fn stages(src: &str) -> npm_yaml::Cst {
    let tokens = npm_yaml::lex(src);
    npm_yaml::parse(src, &tokens)
}

#[test]
fn deep_flow_nesting_is_parsed_without_recursion() {
    let src = format!("k: {}", "[".repeat(200_000));
    let cst = stages(&src);
    assert_eq!(cst.top.len(), 1);
    let flows = cst.nodes.iter().filter(|n| matches!(n, npm_yaml::Node::FlowCollection { .. })).count();
    assert_eq!(flows, 200_000);
}

#[test]
fn deep_block_nesting_is_parsed_without_recursion() {
    let mut src = String::new();
    for depth in 0..3_000 {
        src.push_str(&" ".repeat(depth));
        src.push_str("k:\n");
    }
    src.push_str("x: 1\n"); // back to the root in one step: a loop of pops
    let cst = stages(&src);
    let maps = cst.nodes.iter().filter(|n| matches!(n, npm_yaml::Node::BlockMap { .. })).count();
    assert_eq!(maps, 3_000);
}

#[test]
fn many_keys() {
    let src: String = (0..200_000).map(|i| format!("key{i}: value {i}\n")).collect();
    let cst = stages(&src);
    let npm_yaml::Node::Document { value: Some(map), .. } = cst.node(0) else { panic!("a document") };
    assert_eq!(cst.node(*map).items().map(Vec::len), Some(200_000));
}

#[test]
fn long_scalars_and_comment_runs() {
    let mut errors = Vec::new();
    // a 1 MB double-quoted line full of escapes, a multi-line plain scalar of 100,000 lines,
    // 100,000 comment lines after an empty value
    let quoted = format!("k: \"{}\"\n", "a\\\"\\\\".repeat(200_000));
    let plain = format!("k: {}\n", "word\n ".repeat(100_000));
    let comments = format!("k:\n{}v: 1\n", "# c\n".repeat(100_000));
    for src in [&quoted, &plain, &comments] {
        let cst = stages(src);
        for node in &cst.nodes {
            if let npm_yaml::Node::FlowScalar { kind, source, end, .. } = node {
                let r = npm_yaml::compose::resolve_flow_scalar::resolve_flow_scalar(
                    src,
                    *kind,
                    *source,
                    end.as_deref(),
                    true,
                    &mut errors,
                );
                std::hint::black_box(r);
            }
        }
    }
    assert!(errors.is_empty(), "{errors:?}");
}

/// npm yaml's composer recurses on collections and overflows its stack (about a thousand flow
/// levels): `RESOURCE_EXHAUSTION`, "Maximum call stack size exceeded" (where exactly depends on
/// Node's stack). The crate stops at that depth; deep input is composed on a thread of its own,
/// so the caller's stack (256 KiB here) is not what bounds it.
#[test]
fn deep_nesting_is_npm_yamls_stack_overflow_error() {
    std::thread::Builder::new().stack_size(256 << 10).spawn(deep_nesting).unwrap().join().unwrap();
}

fn deep_nesting() {
    let deep = [
        format!("a: {}{}\n", "[".repeat(200_000), "]".repeat(200_000)),
        format!("{}x\n", "- ".repeat(20_000)),
        "{a: ".repeat(20_000),
        (0..3_000).map(|d| format!("{}k:\n", " ".repeat(d))).collect(),
        format!("? {}{}\n: 1\n", "[".repeat(5_000), "]".repeat(5_000)),
    ];
    for src in &deep {
        let e = npm_yaml::api::parse(src).unwrap_err();
        assert_eq!(e.code, Some(npm_yaml::errors::ErrorCode::ResourceExhaustion), "{}", e.pretty);
        assert!(e.pretty.starts_with("YAMLParseError: Maximum call stack size exceeded at line "), "{}", e.pretty);
    }
    // within the limit: composed, and a collection key that deep is stringified (the key of
    // 300 levels is 314,238 characters long in npm yaml too)
    for (depth, len) in [(300, Some(314_238)), (980, None)] {
        let src = format!("? {}{}\n: 1\n", "[".repeat(depth), "]".repeat(depth));
        let p = npm_yaml::api::parse(&src).unwrap();
        let npm_yaml::js::Value::Object(o) = &p.value else { panic!("an object") };
        let key_len = o.iter().next().map(|(k, _)| k.len());
        if len.is_some() {
            assert_eq!(key_len, len);
        }
    }
    let src = format!("a: {}x{}\n", "[".repeat(900), "]".repeat(900));
    let mut v = &npm_yaml::api::parse(&src).unwrap().value;
    let mut depth = 0;
    loop {
        v = match v {
            npm_yaml::js::Value::Array(a) => &a[0],
            npm_yaml::js::Value::Object(o) => o.get("a").unwrap(),
            _ => break,
        };
        depth += 1;
    }
    assert_eq!(depth, 901);
}

#[test]
fn many_keys_through_parse() {
    let src: String = (0..200_000).map(|i| format!("key{i}: value {i}\n")).collect();
    let p = npm_yaml::api::parse(&src).unwrap();
    let npm_yaml::js::Value::Object(o) = &p.value else { panic!("an object") };
    assert_eq!(o.len(), 200_000);
    // a duplicate at the end is found
    let e = npm_yaml::api::parse(&format!("{src}key7: x\n")).unwrap_err();
    assert_eq!(e.code, Some(npm_yaml::errors::ErrorCode::DuplicateKey));
}
