//! The action's pull-request summary end to end (`action/pr-summary.sh` and
//! `action/pr-comment.py`): on a pull request of a repository made here, the script runs
//! `dsh-skills diff` against the base, writes the job summary, and talks to a local HTTP
//! server that plays the GitHub API: the first run creates the comment, later runs update that
//! one comment (found by its hidden marker), whatever other comments the pull request holds.

use crate::support;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// A request the fake API received.
#[derive(Debug, Clone)]
struct Recorded {
    method: String,
    path: String,
    auth: String,
    body: Value,
}

#[derive(Default)]
struct Api {
    requests: Vec<Recorded>,
    /// Comments of pull request 7: (id, body).
    comments: Vec<(u64, String)>,
}

/// Serve the GitHub REST calls the script makes, until the test ends.
fn fake_github(api: Arc<Mutex<Api>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (method, target) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
            let (mut length, mut auth) = (0usize, String::new());
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                let (k, v) = h.split_once(':').unwrap();
                match k.to_ascii_lowercase().as_str() {
                    "content-length" => length = v.trim().parse().unwrap(),
                    "authorization" => auth = v.trim().to_string(),
                    _ => {}
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let body: Value = if body.is_empty() { Value::Null } else { serde_json::from_slice(&body).unwrap() };
            let (path, query) = target.split_once('?').unwrap_or((&target, ""));
            let mut api = api.lock().unwrap();
            api.requests.push(Recorded { method: method.clone(), path: path.to_string(), auth, body: body.clone() });
            let (status, reply) = match (method.as_str(), path) {
                ("GET", "/repos/o/r/issues/7/comments") => {
                    let param = |k: &str| {
                        query
                            .split('&')
                            .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
                            .map(|v| v.parse::<usize>().unwrap())
                    };
                    let (per, page) = (param("per_page").unwrap_or(30), param("page").unwrap_or(1));
                    let list: Vec<Value> = api
                        .comments
                        .iter()
                        .skip(per * (page - 1))
                        .take(per)
                        .map(|(id, b)| json!({"id": id, "body": b, "user": {"login": "someone"}}))
                        .collect();
                    ("200 OK", Value::Array(list))
                }
                ("POST", "/repos/o/r/issues/7/comments") => {
                    let id = 1000 + api.comments.len() as u64;
                    api.comments.push((id, body["body"].as_str().unwrap().to_string()));
                    ("201 Created", json!({"id": id, "html_url": format!("http://example.test/c/{id}")}))
                }
                ("PATCH", p) if p.starts_with("/repos/o/r/issues/comments/") => {
                    let id: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
                    match api.comments.iter_mut().find(|(i, _)| *i == id) {
                        Some(c) => {
                            c.1 = body["body"].as_str().unwrap().to_string();
                            ("200 OK", json!({"id": id, "html_url": format!("http://example.test/c/{id}")}))
                        }
                        None => ("404 Not Found", json!({"message": "Not Found"})),
                    }
                }
                _ => ("404 Not Found", json!({"message": "Not Found"})),
            };
            let text = reply.to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    format!("http://{addr}")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn run_summary(dir: &Path, tmp: &Path, api: &str, token: &str) -> std::process::Output {
    let bin_dir = support::bin().parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("bash")
        .arg(support::manifest().join("action/pr-summary.sh"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", tmp.join("home"))
        .env("GITHUB_EVENT_PATH", tmp.join("event.json"))
        .env("GITHUB_STEP_SUMMARY", tmp.join("summary.md"))
        .env("RUNNER_TEMP", tmp)
        .env("GITHUB_API_URL", api)
        .env("GITHUB_REPOSITORY", "o/r")
        .env("GITHUB_TOKEN", token)
        .env("LINT_ERRORS", "0")
        .env("LINT_WARNINGS", "1")
        .env("NO_COLOR", "1")
        .env("LC_ALL", "en_US.UTF-8")
        .output()
        .unwrap()
}

#[test]
fn the_pull_request_comment_is_created_once_then_updated() {
    if support::which("python3").is_none() {
        eprintln!("skipped: python3 is not installed (every GitHub-hosted runner has it)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("home")).unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q"]);
    write(&dir, ".agents/skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA body.\n");
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    let base = git(&dir, &["rev-parse", "HEAD"]);
    std::fs::write(
        tmp.path().join("event.json"),
        json!({"pull_request": {"number": 7, "base": {"sha": base}}}).to_string(),
    )
    .unwrap();
    write(&dir, ".agents/skills/b/SKILL.md", "---\nname: b\ndescription: B, new.\n---\nB body.\n");
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "push 1"]);

    let api = Arc::new(Mutex::new(Api::default()));
    // Other comments, more than one page of them: the marker is what finds ours.
    api.lock().unwrap().comments = (1..=120).map(|i| (i, format!("comment {i}"))).collect();
    let url = fake_github(api.clone());

    // Without a token: the job summary only, no request.
    let out = run_summary(&dir, tmp.path(), &url, "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(summary.starts_with("<!-- dsh-skills diff -->\n"), "{summary}");
    assert!(summary.contains("**added:** `b`"), "{summary}");
    assert!(summary.contains("**dsh-skills lint** of the head: 0 error(s), 1 warning(s)."), "{summary}");
    assert!(api.lock().unwrap().requests.is_empty());

    // First push with a token: created.
    let out = run_summary(&dir, tmp.path(), &url, "t0ken");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("created comment"));
    {
        let api = api.lock().unwrap();
        let calls: Vec<(&str, &str)> = api.requests.iter().map(|r| (r.method.as_str(), r.path.as_str())).collect();
        assert_eq!(
            calls,
            [
                ("GET", "/repos/o/r/issues/7/comments"),
                ("GET", "/repos/o/r/issues/7/comments"),
                ("GET", "/repos/o/r/issues/7/comments"),
                ("POST", "/repos/o/r/issues/7/comments"),
            ]
        );
        assert!(api.requests.iter().all(|r| r.auth == "Bearer t0ken"));
        let body = api.requests[3].body["body"].as_str().unwrap();
        assert!(body.starts_with("<!-- dsh-skills diff -->\n") && body.contains("**added:** `b`"), "{body}");
        assert_eq!(api.comments.len(), 121);
    }

    // Two more pushes: the same comment is updated, no new one.
    for (i, skill) in ["c", "d"].iter().enumerate() {
        write(
            &dir,
            &format!(".agents/skills/{skill}/SKILL.md"),
            &format!("---\nname: {skill}\ndescription: New.\n---\nx\n"),
        );
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-q", "-m", &format!("push {}", i + 2)]);
        api.lock().unwrap().requests.clear();
        let out = run_summary(&dir, tmp.path(), &url, "t0ken");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("updated comment"));
        let api = api.lock().unwrap();
        let last = api.requests.last().unwrap();
        assert_eq!((last.method.as_str(), last.path.as_str()), ("PATCH", "/repos/o/r/issues/comments/1120"));
        assert_eq!(api.comments.len(), 121, "one comment, however often the pull request is pushed to");
        let ours = &api.comments.last().unwrap().1;
        assert!(ours.contains(&format!("`{skill}`")), "{ours}");
    }
}
