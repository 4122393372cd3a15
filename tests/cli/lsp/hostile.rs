//! Hostile input through the editor: the server answers, never panics, never blocks.

use super::client::codes;
use super::protocol::{Tree, hover_answers, small_skill};
use serde_json::json;
use std::fs;

#[test]
fn a_50_mb_buffer_is_linted_while_requests_are_answered() {
    let t = Tree::new();
    let mut c = t.client(&[]);
    let small = small_skill(&t, &mut c);
    let big = t.project.join(".dsh/skills/big/SKILL.md");
    fs::create_dir_all(big.parent().unwrap()).unwrap();
    let mut text = String::from("---\nname: big\ndescription: D.\n---\n");
    let line = "A line of instructions that goes on for a while, again and again and again.\n";
    while text.len() < 50 << 20 {
        text.push_str(line);
    }
    let u = c.open(&big, &text);
    // The editor is not blocked: another document's hover is answered meanwhile.
    hover_answers(&mut c, &small);
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 2 },
            "contentChanges": [{ "range": { "start": { "line": 4, "character": 0 }, "end": { "line": 4, "character": 1 } }, "text": "B" }],
        }),
    );
    let d = c.diagnostics(&u, 2);
    assert!(codes(&d).contains(&"body-too-long".to_string()), "{:?}", codes(&d));
    // Hover and completion on the huge buffer answer (with nothing) instead of blocking.
    let h = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 1, "character": 1 } }),
    );
    assert!(h.get("error").is_none(), "{h}");
    hover_answers(&mut c, &small);
    assert!(c.shutdown().success());
}

#[test]
fn a_frontmatter_of_200000_keys() {
    let t = Tree::new();
    let mut c = t.client(&[]);
    let small = small_skill(&t, &mut c);
    let p = t.project.join(".dsh/skills/keys/SKILL.md");
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    let mut text = String::from("---\nname: keys\ndescription: D.\n");
    for i in 0..200_000 {
        text.push_str(&format!("k{i}: {i}\n"));
    }
    text.push_str("---\nBody.\n");
    let u = c.open(&p, &text);
    hover_answers(&mut c, &small);
    let d = c.diagnostics(&u, 1);
    // Capped for the editor, with a line saying how many more lint reports.
    assert_eq!(d.len(), 1001);
    assert!(codes(&d)[..1000].iter().all(|c| c == "unknown-key"), "{:?}", &codes(&d)[..5]);
    assert!(d[1000]["message"].as_str().unwrap().starts_with("199000 more findings not shown here"), "{}", d[1000]);
    let h = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 2, "character": 1 } }),
    );
    assert!(h["result"]["contents"]["value"].as_str().unwrap().contains("`description`"), "{h}");
    let r = c.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": u }, "position": { "line": 200003, "character": 0 } }),
    );
    assert!(r.get("error").is_none(), "{r}");
    assert!(c.shutdown().success());
}

#[test]
fn invalid_utf8_on_disk_is_reported_as_lint_reports_it() {
    let t = Tree::new();
    let p = t.project.join(".dsh/skills/latin/SKILL.md");
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, b"---\nname: latin\ndescription: Caf\xe9 notes.\n---\nBody.\n").unwrap();
    let expected = t.lint(&[]);
    let mut c = t.client(&[]);
    // The editor shows the file decoded, with U+FFFD.
    let shown = String::from_utf8_lossy(&fs::read(&p).unwrap()).into_owned();
    let u = c.open(&p, &shown);
    let d = c.diagnostics(&u, 1);
    assert_eq!(codes(&d), expected.iter().map(|f| f.0.clone()).collect::<Vec<_>>());
    assert!(codes(&d).contains(&"file-not-utf8".to_string()), "{d:?}");
    // Once the buffer changes, it is the buffer (valid UTF-8) that is linted.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 }, "contentChanges": [{ "text": shown.replace('\u{fffd}', "e") }] }),
    );
    assert!(!codes(&c.diagnostics(&u, 2)).contains(&"file-not-utf8".to_string()));
    assert!(c.shutdown().success());
}

#[test]
fn a_file_deleted_while_open() {
    let t = Tree::new();
    let p = t.write(".dsh/skills/gone/SKILL.md", "---\nname: gone\ndescription: D.\n---\nSee [x](x.md).\n");
    t.write(".dsh/skills/gone/x.md", "x\n");
    let mut c = t.client(&[]);
    let text = fs::read_to_string(&p).unwrap();
    let u = c.open(&p, &text);
    assert_eq!(c.diagnostics(&u, 1), Vec::<serde_json::Value>::new());
    fs::remove_dir_all(p.parent().unwrap()).unwrap();
    c.notify("workspace/didChangeWatchedFiles", json!({ "changes": [{ "uri": u, "type": 3 }] }));
    // Re-linted against the new discovery: the link target is gone too.
    let d = c.diagnostics_until(&u, "the refreshed diagnostics", |d| !d.is_empty());
    assert!(codes(&d).contains(&"broken-reference".to_string()), "{d:?}");
    // Diagnostics made before the new discovery (a lint queued earlier, run after the removal)
    // may come first: hover is asked until the refreshed discovery answers, within a bound.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let h = c.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": u }, "position": { "line": 1, "character": 1 } }),
        );
        if h["result"]["contents"]["value"].as_str().unwrap().contains("Not in a root") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the hover never saw the new discovery: {h}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for r in ["textDocument/codeLens", "textDocument/documentLink"] {
        let a = c.request(r, json!({ "textDocument": { "uri": u } }));
        assert!(a.get("error").is_none(), "{a}");
    }
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 }, "contentChanges": [{ "text": "---\nname: gone\n---\n" }] }),
    );
    assert!(codes(&c.diagnostics(&u, 2)).contains(&"description-required".to_string()));
    assert!(c.shutdown().success());
}

#[test]
fn garbage_and_unknown_requests_get_errors_not_a_crash() {
    let t = Tree::new();
    let mut c = t.client(&[]);
    let small = small_skill(&t, &mut c);
    let r = c.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c.request("workspace/unknownThing", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Positions far outside the text are clamped.
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": small }, "position": { "line": 4_000_000_000u64, "character": 4_000_000_000u64 } }),
    );
    assert!(r.get("error").is_none(), "{r}");
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///not/open.md", "version": 3 }, "contentChanges": [] }),
    );
    hover_answers(&mut c, &small);
    assert!(c.shutdown().success());
}
