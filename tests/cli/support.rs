//! Shared test helpers: materialize a tree (copy + the conformance cases' setup ops) in a
//! temporary directory with no `.git` above it, and run the binary. Shared by the modules of `tests/cli`.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dsh-skills"))
}

pub struct Fixture {
    _dir: tempfile::TempDir,
    pub base: PathBuf,
    pub tree: PathBuf,
}

impl Fixture {
    pub fn tree_str(&self) -> String {
        self.tree.to_string_lossy().into_owned()
    }
}

/// Copy `src` (when it exists) to `<tmp>/tree` and apply `setup` operations
/// (`mkdir`, `write`, `symlink`, `chmod`), as the conformance cases do.
pub fn materialize(src: &Path, setup: &Value) -> Fixture {
    let dir = tempfile::Builder::new().prefix("dsh-lint-").tempdir().unwrap();
    let base = fs::canonicalize(dir.path()).unwrap();
    let mut up = Some(base.as_path());
    while let Some(p) = up {
        assert!(!p.join(".git").exists(), "temporary directory {} has a .git ancestor", base.display());
        up = p.parent();
    }
    let tree = base.join("tree");
    if src.is_dir() {
        copy_tree(src, &tree);
    } else {
        fs::create_dir_all(&tree).unwrap();
    }
    for op in setup.as_array().into_iter().flatten() {
        let path = tree.join(op["path"].as_str().unwrap());
        match op["op"].as_str().unwrap() {
            "mkdir" => fs::create_dir_all(&path).unwrap(),
            "write" => {
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                let data = match op.get("base64") {
                    Some(b) => base64(b.as_str().unwrap()),
                    None => op["content"].as_str().unwrap().as_bytes().to_vec(),
                };
                fs::write(&path, data).unwrap();
            }
            "symlink" => {
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(op["target"].as_str().unwrap(), &path).unwrap();
            }
            "chmod" => {
                use std::os::unix::fs::PermissionsExt;
                let mode = u32::from_str_radix(op["mode"].as_str().unwrap(), 8).unwrap();
                fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
            }
            other => panic!("unknown setup op {other}"),
        }
    }
    Fixture { _dir: dir, base, tree }
}

pub fn copy_tree(src: &Path, dst: &Path) {
    fs::create_dir_all(dst).unwrap();
    for entry in fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let to = dst.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to);
        } else {
            fs::copy(entry.path(), &to).unwrap();
        }
    }
}

fn base64(s: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        acc = (acc << 6) | ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// A command for the binary with a clean environment: no harness variables, no colour,
/// `HOME` pointing at `home` (so the real home never leaks in), the en-US locale.
pub fn command(cwd: &Path, home: &Path) -> Command {
    let mut cmd = Command::new(bin());
    for k in ["DSH_HOME", "DSH_AGENTS_HOME", "DSH_BUNDLED_SKILL_DIR", "CLICOLOR_FORCE", "GITHUB_ACTIONS"] {
        cmd.env_remove(k);
    }
    cmd.env("LC_ALL", "en_US.UTF-8").env("NO_COLOR", "1").env("HOME", home).current_dir(cwd);
    cmd
}

pub fn run(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    let out = command(cwd, home).args(args).output().expect("run dsh-skills");
    check_json(args, &out);
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Parse `lint --format json` output.
pub fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(o), String::from_utf8_lossy(&o.stderr)))
}

/// `(rule, severity, path)` of every finding.
pub fn findings(v: &Value) -> Vec<(String, String, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

pub fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(tool)).find(|p| p.is_file()))
}

/// The discovery flags for a conformance case (`case.json`), as the conformance runner passes
/// them: paths relative to the materialized tree, `{"raw": …}` values verbatim.
pub fn root_flags(case: &Value, tree: &str) -> Vec<String> {
    let at = |rel: &str| format!("{tree}/{rel}");
    let mut flags = vec!["--no-config".to_string(), "--cwd".into(), at(case["cwd"].as_str().unwrap())];
    if case["includeDefaultRoots"] == json!(false) {
        flags.push("--no-default-roots".into());
    }
    let raw = &case["raw"];
    let dsh = raw["dshHome"].as_str().map(str::to_string).or_else(|| case["dshHome"].as_str().map(at));
    let agents = raw["agentsHome"].as_str().map(str::to_string).or_else(|| case["agentsHome"].as_str().map(at));
    if let Some(d) = dsh {
        flags.extend(["--dsh-home".into(), d]);
    }
    if let Some(a) = agents {
        flags.extend(["--agents-home".into(), a]);
    }
    for d in case["customSkillDirs"].as_array().into_iter().flatten() {
        let v = match d {
            Value::String(s) => at(s),
            other => other["raw"].as_str().unwrap().to_string(),
        };
        flags.extend(["--custom-dir".into(), v]);
    }
    if let Some(b) = case["bundledSkillDir"].as_str() {
        flags.extend(["--bundled-dir".into(), at(b)]);
    }
    if let Some(n) = case["catalogDescriptionMaxLength"].as_u64() {
        flags.extend(["--description-max-length".into(), n.to_string()]);
    }
    flags
}

/// A user's uid and gid from /etc/passwd.
pub fn user_ids(user: &str) -> Option<(String, String)> {
    let passwd = fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.first() == Some(&user)).then(|| (f[2].to_string(), f[3].to_string()))
    })
}

/// Open every directory of `tree` to other users, except those a case's setup chmods.
pub fn make_traversable(tree: &Path, case: &Value) {
    use std::os::unix::fs::PermissionsExt;
    let chmodded: Vec<PathBuf> = case["setup"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|op| op["op"] == "chmod")
        .map(|op| tree.join(op["path"].as_str().unwrap()))
        .collect();
    let mut stack = vec![tree.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let meta = fs::symlink_metadata(&dir).unwrap();
        if !chmodded.contains(&dir) {
            let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(meta.permissions().mode() | 0o755));
        }
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(e.path());
            }
        }
    }
}

/// Give the owner back every permission, so the temporary tree can be removed.
pub fn restore_permissions(tree: &Path) {
    let _ = Command::new("chmod").args(["-R", "u+rwx"]).arg(tree).output();
}

/// The committed schema of a document, made strict: an object may hold only the fields its
/// schema names (the published schemas allow more, so that older consumers keep working).
pub fn strict_validator(doc: &str) -> jsonschema::Validator {
    fn strict(v: &mut Value) {
        match v {
            Value::Object(m) => {
                if m.contains_key("properties") && !m.contains_key("additionalProperties") {
                    m.insert("additionalProperties".into(), Value::Bool(false));
                }
                m.values_mut().for_each(strict);
            }
            Value::Array(a) => a.iter_mut().for_each(strict),
            _ => {}
        }
    }
    let path = manifest().join("schemas").join(format!("{doc}.schema.json"));
    let mut schema: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    strict(&mut schema);
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Which schema the JSON that `dsh-skills <args>` prints follows, if it prints JSON.
pub fn json_document(args: &[String]) -> Option<&'static str> {
    let has = |a: &str| args.iter().any(|x| x == a);
    let json = args.windows(2).any(|w| w[0] == "--format" && w[1] == "json") || has("--format=json");
    if !json || has("--rendered") || has("--help") || has("-h") {
        return None;
    }
    let command = args.iter().find(|a| ["list", "catalog", "show", "explain", "lint", "diff"].contains(&a.as_str()))?;
    if command == "lint" {
        return match args.iter().position(|a| a == "--explain") {
            Some(i) if args.get(i + 1).is_some_and(|r| r == "all") => None,
            Some(_) => Some("rule"),
            None => Some("lint"),
        };
    }
    Some(match command.as_str() {
        "list" => "list",
        "catalog" => "catalog",
        "show" => "show",
        "explain" => "explain",
        "diff" => "diff",
        _ => unreachable!(),
    })
}

/// When `dsh-skills <args>` printed a JSON document, check it against its schema (strict):
/// every test that runs the binary through these helpers checks its JSON this way.
pub fn check_json<S: AsRef<std::ffi::OsStr>>(args: &[S], out: &Output) {
    let args: Vec<String> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
    let Some(doc) = json_document(&args) else { return };
    if out.stdout.is_empty() || !matches!(out.status.code(), Some(0 | 1)) {
        return;
    }
    static VALIDATORS: std::sync::OnceLock<std::collections::HashMap<&'static str, jsonschema::Validator>> =
        std::sync::OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        ["list", "catalog", "show", "explain", "lint", "rule", "diff"]
            .into_iter()
            .map(|d| (d, strict_validator(d)))
            .collect()
    });
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("dsh-skills {args:?} printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout))
    });
    let errors: Vec<String> =
        validators[doc].iter_errors(&value).take(5).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "dsh-skills {args:?}: the JSON does not follow schemas/{doc}.schema.json: {errors:#?}");
}

/// Our own colour (SGR: `ESC [ digits ; … m`) removed; any other escape is left in place.
pub fn strip_sgr(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\u{1b}[") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 2..];
        let end = tail.find(|c: char| !(c.is_ascii_digit() || c == ';')).unwrap_or(tail.len());
        if tail[end..].starts_with('m') {
            rest = &tail[end + 1..];
        } else {
            out.push('\u{1b}');
            rest = &rest[i + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// Wait for `child` at most `limit`; on a hang, kill it and fail the test naming `what`.
pub fn wait_bounded(
    child: &mut std::process::Child,
    limit: std::time::Duration,
    what: &dyn std::fmt::Display,
) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?} (a hang)");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
