//! The recorded conformance cases (fixtures/conformance), run black-box against the binary.
//!
//! Each case is materialized as fixtures/conformance/README.md describes (a fresh temporary
//! directory with no `.git` above it, `tree/` copied, `setup` applied), the binary runs
//! `list --format json`, `catalog --format json` and `show NAME --rendered` with the case's
//! flags and environment, and every field of `expected.json` is compared.

use crate::support;

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Cases that do not pass yet. The test fails when a listed case passes, so the list can only
/// shrink; it is empty when the discovery engine is complete.
const KNOWN_FAILING: &[&str] = &[];

const YAML_PREFIX: &str = "ignored: invalid YAML frontmatter: ";
/// Stands in for a lone surrogate escape of expected.json while it is parsed (serde_json
/// refuses lone surrogates); U+FFFD replaces it for comparisons, as the contract says.
const LONE_MARK: char = '\u{10FFFD}';

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance/cases")
}

#[test]
fn conformance_cases() {
    let mut names: Vec<String> = fs::read_dir(cases_dir())
        .expect("fixtures/conformance/cases")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("case.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 70, "expected the 70 recorded cases, found {}", names.len());
    // The README states the count; it must not go stale.
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let said = format!("the {} recorded conformance cases", names.len());
    assert!(readme.contains(&said), "README.md should say \"{said}\"");
    let known: BTreeSet<&str> = KNOWN_FAILING.iter().copied().collect();
    let mut failures = Vec::new();
    let mut unexpectedly_passing = Vec::new();
    for name in &names {
        let problems = run_case(name);
        match (problems.is_empty(), known.contains(name.as_str())) {
            (true, true) => unexpectedly_passing.push(name.clone()),
            (false, false) => failures.push(format!("{name}:\n  {}", problems.join("\n  "))),
            _ => {}
        }
    }
    assert!(
        unexpectedly_passing.is_empty(),
        "these cases pass now; remove them from KNOWN_FAILING: {unexpectedly_passing:?}"
    );
    assert!(failures.is_empty(), "{} case(s) fail:\n{}", failures.len(), failures.join("\n"));
}

/// Parse expected.json, keeping lone surrogate escapes recognizable.
fn read_expected(path: &Path) -> Value {
    let raw = fs::read_to_string(path).unwrap();
    let mut out = String::with_capacity(raw.len());
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i..].starts_with("\\u") && i + 6 <= raw.len() {
            let hex = &raw[i + 2..i + 6];
            if let Ok(unit) = u16::from_str_radix(hex, 16) {
                let next_is_low = raw[i + 6..].starts_with("\\u")
                    && u16::from_str_radix(raw.get(i + 8..i + 12).unwrap_or(""), 16)
                        .is_ok_and(|u| (0xDC00..0xE000).contains(&u));
                let lone_high = (0xD800..0xDC00).contains(&unit) && !next_is_low;
                let lone_low = (0xDC00..0xE000).contains(&unit)
                    && !(i >= 6 && raw[..i].ends_with(|c: char| c.is_ascii_hexdigit()) && {
                        let prev = &raw[i - 6..i];
                        prev.starts_with("\\u")
                            && u16::from_str_radix(&prev[2..], 16).is_ok_and(|u| (0xD800..0xDC00).contains(&u))
                    });
                if lone_high || lone_low {
                    out.push_str(&format!("{LONE_MARK}{hex}"));
                    i += 6;
                    continue;
                }
            }
            out.push_str(&raw[i..i + 6]);
            i += 6;
            continue;
        }
        if bytes[i] == b'\\' && i + 1 < raw.len() {
            out.push_str(&raw[i..i + 2]);
            i += 2;
            continue;
        }
        let c = raw[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Replace the lone-surrogate marks with U+FFFD (what a Rust string can hold).
fn fffd(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(strip_marks(s, "\u{FFFD}")),
        Value::Array(a) => Value::Array(a.iter().map(fffd).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), fffd(v))).collect()),
        other => other.clone(),
    }
}

fn strip_marks(s: &str, with: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(LONE_MARK) {
        out.push_str(&rest[..i]);
        out.push_str(with);
        rest = &rest[i + LONE_MARK.len_utf8() + 4..];
    }
    out.push_str(rest);
    out
}

/// The harness's digest of the expected entries, over their real lone surrogates.
fn js_digest(entries: &Value) -> Value {
    use dsh_skills::engine::js::{JsString, json_stringify_utf16};
    let Value::Array(entries) = entries else { return Value::Null };
    // A string with marks back to UTF-16 with the lone surrogate units it stood for.
    let units = |s: &str| {
        let mut v: Vec<u16> = Vec::new();
        let mut rest = s;
        while let Some(i) = rest.find(LONE_MARK) {
            v.extend(rest[..i].encode_utf16());
            let hex = &rest[i + LONE_MARK.len_utf8()..i + LONE_MARK.len_utf8() + 4];
            v.push(u16::from_str_radix(hex, 16).unwrap());
            rest = &rest[i + LONE_MARK.len_utf8() + 4..];
        }
        v.extend(rest.encode_utf16());
        JsString(v)
    };
    let mut canonical = String::new();
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            canonical.push('\n');
        }
        canonical.push('[');
        json_stringify_utf16(&units(e["name"].as_str().unwrap()), &mut canonical);
        canonical.push(',');
        json_stringify_utf16(&units(e["description"].as_str().unwrap()), &mut canonical);
        canonical.push(']');
    }
    use sha2::Digest;
    let hash = sha2::Sha256::digest(canonical.as_bytes());
    Value::String(hash.iter().map(|b| format!("{b:02x}")).collect())
}

fn run(binary: &Path, args: &[String], case: &Value, tree: &str) -> Option<Output> {
    let mut cmd;
    if let Some(user) = case["runAsUser"].as_str() {
        if !support::is_root() || support::which("setpriv").is_none() {
            return None;
        }
        let (uid, gid) = support::user_ids(user)?;
        cmd = Command::new("setpriv");
        cmd.args([format!("--reuid={uid}"), format!("--regid={gid}"), "--clear-groups".into()]).arg(binary);
    } else {
        cmd = Command::new(binary);
    }
    cmd.args(args);
    for k in ["DSH_HOME", "DSH_AGENTS_HOME", "DSH_BUNDLED_SKILL_DIR"] {
        cmd.env_remove(k);
    }
    cmd.env("LC_ALL", "en_US.UTF-8").env("NO_COLOR", "1");
    if let Some(h) = case["home"].as_str() {
        cmd.env("HOME", format!("{tree}/{h}"));
    }
    for (k, v) in case["env"].as_object().into_iter().flatten() {
        cmd.env(k, v.as_str().unwrap().replace("{tree}", tree));
    }
    let pcwd = case["processCwd"].as_str().map(|p| format!("{tree}/{p}")).unwrap_or_else(|| tree.to_string());
    cmd.current_dir(pcwd);
    let out = cmd.output().expect("run dsh-skills");
    support::check_json(args, &out);
    Some(out)
}

fn rel(v: &str, tree: &str) -> String {
    if v == tree {
        ".".into()
    } else if let Some(r) = v.strip_prefix(&format!("{tree}/")) {
        r.into()
    } else {
        v.into()
    }
}

/// Keep `keys` of each object, dropping nulls; flatten resourceBase; make paths tree-relative.
fn project(items: &Value, keys: &[&str], path_keys: &[&str], tree: &str) -> Value {
    let rows = items.as_array().cloned().unwrap_or_default().into_iter().map(|item| {
        let mut row = Map::new();
        for &k in keys {
            let Some(mut v) = item.get(k).cloned() else { continue };
            if v.is_null() {
                continue;
            }
            if k == "resourceBase" {
                v = v["path"].clone();
            }
            if path_keys.contains(&k) {
                v = Value::String(rel(v.as_str().unwrap_or(""), tree));
            }
            row.insert(k.into(), v);
        }
        Value::Object(row)
    });
    Value::Array(rows.collect())
}

/// JSON equality with every number compared as a double, like JavaScript.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        _ => a == b,
    }
}

fn untree(v: &Value, tree: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace(tree, "<tree>")),
        other => other.clone(),
    }
}

fn diff(label: &str, got: &Value, want: &Value) -> String {
    let g = got.to_string();
    let w = want.to_string();
    let at = g.chars().zip(w.chars()).take_while(|(a, b)| a == b).count();
    let from = at.saturating_sub(60);
    let show = |s: &str| s.chars().skip(from).take(160).collect::<String>();
    format!("{label} differ at char {at}: got …{} want …{}", show(&g), show(&w))
}

fn run_case(name: &str) -> Vec<String> {
    let case_dir = cases_dir().join(name);
    let case: Value = serde_json::from_str(&fs::read_to_string(case_dir.join("case.json")).unwrap()).unwrap();
    let raw_expected = read_expected(&case_dir.join("expected.json"));
    let expected = fffd(&raw_expected);
    let fx = support::materialize(&case_dir.join("tree"), &case["setup"]);
    let tree = fx.tree.to_string_lossy().into_owned();
    let mut binary = support::bin();
    if case["runAsUser"].is_string() {
        // The other user must be able to reach the binary and walk the tree.
        use std::os::unix::fs::PermissionsExt;
        let bin_dir = fx.base.join("bin");
        fs::create_dir(&bin_dir).unwrap();
        let copy = bin_dir.join("dsh-skills");
        fs::copy(&binary, &copy).unwrap();
        for p in [&fx.base, &bin_dir, &copy] {
            fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
        }
        support::make_traversable(&fx.tree, &case);
        binary = copy;
    }
    let flags = support::root_flags(&case, &tree);
    let mut problems = Vec::new();
    let args = |cmd: &[&str]| cmd.iter().map(|s| s.to_string()).chain(flags.iter().cloned()).collect::<Vec<_>>();

    let Some(out) = run(&binary, &args(&["list", "--format", "json"]), &case, &tree) else {
        eprintln!("skipping {name}: it needs root and setpriv to run as another user");
        return if KNOWN_FAILING.contains(&name) { vec!["skipped".into()] } else { vec![] };
    };
    let listing: Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(_) => {
            return vec![format!(
                "list: exit {:?}, not JSON: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )];
        }
    };
    let want_rc = if expected["complete"] == json!(true) { 0 } else { 1 };
    let roots = project(&listing["roots"], &["path", "source", "rank", "exists", "type"], &["path"], &tree);
    if roots != expected["roots"] {
        problems.push(diff("roots", &roots, &expected["roots"]));
    }
    if listing["complete"] != expected["complete"] {
        problems.push(format!("complete: got {} want {}", listing["complete"], expected["complete"]));
    }
    if out.status.code() != Some(want_rc) {
        problems.push(format!("list exit status {:?}, want {want_rc}", out.status.code()));
    }
    if let Some(want) = expected.get("providerError") {
        let got = untree(&listing["providerError"], &tree);
        if &got != want {
            problems.push(diff("providerError", &got, want));
        }
    }
    let cand_keys =
        ["name", "source", "rank", "path", "resourceBase", "description", "whenToUse", "invocation", "metadata"];
    let got = project(&listing["candidates"], &cand_keys, &["path", "resourceBase"], &tree);
    if !same(&got, &expected["candidates"]) {
        problems.push(diff("candidates", &got, &expected["candidates"]));
    }
    let got = project(
        &listing["skills"],
        &["name", "source", "path", "description", "whenToUse", "invocation"],
        &["path"],
        &tree,
    );
    if !same(&got, &expected["skills"]) {
        problems.push(diff("skills", &got, &expected["skills"]));
    }
    let shadow_keys = ["name", "source", "rank", "path", "winnerSource", "winnerPath"];
    let got = project(&listing["shadowed"], &shadow_keys, &["path", "winnerPath"], &tree);
    if got != expected["shadowed"] {
        problems.push(diff("shadowed", &got, &expected["shadowed"]));
    }
    let got_w: Vec<String> = listing["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|w| w.as_str().unwrap_or("").replace(&tree, "<tree>"))
        .collect();
    let want_w: Vec<&str> = expected["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    let warnings_ok = got_w.len() == want_w.len()
        && got_w.iter().zip(&want_w).all(|(g, w)| match w.find(YAML_PREFIX) {
            Some(i) => g.get(..i + YAML_PREFIX.len()) == w.get(..i + YAML_PREFIX.len()),
            None => g == w,
        });
    if !warnings_ok {
        problems.push(diff("warnings", &json!(got_w), &json!(want_w)));
    }

    match run(&binary, &args(&["catalog", "--format", "json"]), &case, &tree) {
        Some(out) => match serde_json::from_slice::<Value>(&out.stdout) {
            Ok(cat) => {
                let text = untree(&cat["text"], &tree);
                if text != expected["catalog"] {
                    problems.push(diff("catalog text", &text, &expected["catalog"]));
                }
                let entries = match &cat["entries"] {
                    Value::Array(es) => Value::Array(
                        es.iter().map(|e| json!({"name": e["name"], "description": e["description"]})).collect(),
                    ),
                    other => other.clone(),
                };
                if entries != expected["catalogEntries"] {
                    problems.push(diff("catalog entries", &entries, &expected["catalogEntries"]));
                }
                let want_digest = js_digest(&raw_expected["catalogEntries"]);
                if cat["digest"] != want_digest {
                    problems.push(format!("catalog digest: got {} want {want_digest}", cat["digest"]));
                }
                if out.status.code() != Some(want_rc) {
                    problems.push(format!("catalog exit status {:?}, want {want_rc}", out.status.code()));
                }
            }
            Err(_) => problems.push(format!("catalog: exit {:?}, not JSON", out.status.code())),
        },
        None => problems.push("catalog did not run".into()),
    }

    for (skill, want) in expected["contents"].as_object().into_iter().flatten() {
        let Some(out) = run(&binary, &args(&["show", skill, "--rendered"]), &case, &tree) else { continue };
        let text = String::from_utf8_lossy(&out.stdout);
        let text = text.strip_suffix('\n').unwrap_or(&text).replace(&tree, "<tree>");
        if Value::String(text.clone()) != *want {
            problems.push(diff(&format!("show {skill} --rendered"), &Value::String(text), want));
        }
    }
    support::restore_permissions(&fx.tree);
    problems
}
