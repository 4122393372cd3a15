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
/// Node's stack). The crate stops at its model of that depth (`COST_LIMIT`), and composes and
/// stringifies keys with explicit stacks, so a small stack (256 KiB, the caller's own thread)
/// holds 100,000 levels.
#[test]
fn deep_nesting_is_npm_yamls_stack_overflow_error() {
    on_a_small_stack(deep_nesting);
}

fn on_a_small_stack(f: fn()) {
    std::thread::Builder::new().stack_size(256 << 10).spawn(f).unwrap().join().unwrap();
}

/// `String(e)`'s first line, or `None` when `YAML.parse` returns.
fn error_line(src: &str) -> Option<String> {
    let e = npm_yaml::api::parse(src).err()?;
    assert_eq!(e.code, Some(npm_yaml::errors::ErrorCode::ResourceExhaustion), "{}", e.pretty);
    Some(e.pretty.as_str().lines().next().unwrap_or_default().to_string())
}

const MAX: &str = "YAMLParseError: Maximum call stack size exceeded at line";

fn deep_nesting() {
    let n = 100_000;
    // flow: sequences, maps, a sequence as a key (the toJS key stringifier's input), and
    // unclosed; block: sequences and maps (`? ? ? x`: each map's key is the next map)
    let deep = [
        (format!("a: {}x{}\n", "[".repeat(n), "]".repeat(n)), "1, column 986:"),
        (format!("a: {}{}\n", "[".repeat(n), "]".repeat(n)), "1, column 986:"),
        (format!("{}x{}\n", "{a: ".repeat(n), "}".repeat(n)), "1, column 3929:"),
        (format!("? {}{}\n: 1\n", "[".repeat(n), "]".repeat(n)), "1, column 985:"),
        ("{a: ".repeat(n), "1, column 3929:"),
        (format!("{}x\n", "- ".repeat(n)), "1, column 3935:"),
        (format!("{}x\n", "? ".repeat(n)), "1, column 3147:"),
    ];
    for (src, at) in &deep {
        assert_eq!(error_line(src), Some(format!("{MAX} {at}")), "{}", &src[..20]);
    }
    let src: String = (0..3_000).map(|d| format!("{}k:\n", " ".repeat(d))).collect();
    assert_eq!(error_line(&src).as_deref(), Some(&*format!("{MAX} 1574, column 1574:")));
    // within the limit: composed, and a collection key that deep is stringified (the key of
    // 300 levels is 314,238 characters long in npm yaml too)
    for (depth, len) in [(300, 314_238), (982, 3_703_778)] {
        let src = format!("? {}{}\n: 1\n", "[".repeat(depth), "]".repeat(depth));
        let p = npm_yaml::api::parse(&src).unwrap();
        let npm_yaml::js::Value::Object(o) = &p.value else { panic!("an object") };
        let key_len = o.iter().next().map(|(k, _)| k.len());
        assert_eq!(key_len, Some(len));
    }
    // a merged map's array key (copied from the alias's value) is joined as `String(key)` does
    let key = format!("{}1{}", "[".repeat(980), "]".repeat(980));
    let p = npm_yaml::api::parse(&format!("%YAML 1.1\n---\nb: &b {{? {key} : x}}\nk: {{<<: *b}}\n")).unwrap();
    let npm_yaml::js::Value::Object(o) = &p.value else { panic!("an object") };
    let Some(npm_yaml::js::Value::Object(k)) = o.get("k") else { panic!("k is an object") };
    assert_eq!(k.iter().map(|(k, _)| k).collect::<Vec<_>>(), ["1"]);
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

/// Where the limit starts, as before the composer ran on a stack of its own (measured on the
/// crate's recursive composer): 982 flow levels compose and 983 do not, 1,573 block maps and
/// 1,967 block sequences.
#[test]
fn the_depth_limit_starts_where_it_did() {
    on_a_small_stack(limit_depths);
}

/// A document of the given nesting depth.
type Shape = fn(usize) -> String;

fn limit_depths() {
    let flow_seq = |d: usize| format!("a: {}x{}\n", "[".repeat(d), "]".repeat(d));
    let flow_map = |d: usize| format!("{}x{}\n", "{a: ".repeat(d), "}".repeat(d));
    let flow_key = |d: usize| format!("? {}{}\n: 1\n", "[".repeat(d), "]".repeat(d));
    let block_map = |d: usize| (0..d).map(|i| format!("{}k:\n", " ".repeat(i))).collect::<String>();
    let block_seq = |d: usize| format!("{}x\n", "- ".repeat(d));
    let cases: [(Shape, usize, &str); 5] = [
        (flow_seq, 982, "1, column 986:"),
        (flow_map, 982, "1, column 3929:"),
        (flow_key, 982, "1, column 985:"),
        (block_map, 1573, "1574, column 1574:"),
        (block_seq, 1967, "1, column 3935:"),
    ];
    for (make, last_ok, at) in cases {
        for d in [1, 2, last_ok - 1, last_ok] {
            assert_eq!(error_line(&make(d)), None, "{d}: {}", &make(d)[..20]);
        }
        for d in [last_ok + 1, last_ok + 2, last_ok + 10] {
            assert_eq!(error_line(&make(d)), Some(format!("{MAX} {at}")), "{d}");
        }
    }
    // `? ? ? x`: the 1,574th map, at column 3147, is one too many (within the limit, the key
    // of 1,572 levels takes minutes to stringify, in npm yaml's way)
    let q = |d: usize| format!("{}x\n", "? ".repeat(d));
    for d in [1574, 1575] {
        assert_eq!(error_line(&q(d)), Some(format!("{MAX} 1, column 3147:")));
    }
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
