//! Golden output of every format for `fixtures/lint/golden/tree` (colour off, fixed width).
//! Regenerate with `UPDATE_GOLDEN=1 cargo test --test cli lint::golden::`.

use crate::support::{self, materialize};
use serde_json::Value;
use std::fs;

fn render(format: &str) -> (String, Option<i32>) {
    let dir = support::manifest().join("fixtures/lint/golden");
    let fx = materialize(&dir.join("tree"), &Value::Null);
    let out = support::run(
        &fx.base,
        &fx.base.join("no-home"),
        &["lint", "--format", format, "--color", "never", "--description-max-length", "60", "--root", "tree", "tree"],
    );
    let base = fx.base.to_string_lossy().into_owned();
    (support::stdout(&out).replace(&base, "<base>"), out.status.code())
}

fn check(format: &str, ext: &str) -> String {
    let (got, rc) = render(format);
    assert_eq!(rc, Some(1), "{format}: exit status");
    let path = support::manifest().join(format!("fixtures/lint/golden/expected.{ext}"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &got).unwrap();
    }
    let want = fs::read_to_string(&path).unwrap_or_default();
    assert!(got == want, "{format} output differs from {}:\n--- got\n{got}\n--- want\n{want}", path.display());
    got
}

#[test]
fn human() {
    let out = check("human", "txt");
    // Terminal safety: no raw escape or bidi control reaches the terminal.
    assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}'), "{out}");
    assert!(out.contains("\\x1b[2J") && out.contains("\\u{202e}"), "{out}");
}

#[test]
fn json() {
    let out = check("json", "json");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schemaVersion"], 1);
    // JSON keeps exact data: the escape character itself, encoded by JSON.
    assert!(out.contains("\\u001b[2J"), "{out}");
    for f in v["findings"].as_array().unwrap() {
        for key in ["rule", "severity", "path", "message", "harness"] {
            assert!(f[key].is_string(), "{key} in {f}");
        }
    }
}

#[test]
fn github() {
    let out = check("github", "github");
    for line in out.lines().filter(|l| l.starts_with("::")) {
        assert!(
            line.starts_with("::error file=")
                || line.starts_with("::warning file=")
                || line.starts_with("::notice file="),
            "{line}"
        );
        assert!(!line.contains('\u{1b}'), "{line}");
    }
    assert!(out.contains("::error file=tree/legacy/SKILL.md,line=4,col=1,endLine=4,endColumn=14,title=dsh-skills lint%3A legacy-invocation-key::"), "{out}");
}

#[test]
fn sarif() {
    let out = check("sarif", "sarif");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), dsh_skills::lint::rules::RULES.len());
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"], id);
        assert!(matches!(r["level"].as_str().unwrap(), "error" | "warning" | "note"));
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].as_str().unwrap().starts_with("tree/"), "{loc}");
    }
}
