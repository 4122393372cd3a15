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
