//! A minimal LSP client for the tests: spawns `dsh-skills lsp`, frames messages, keeps the
//! notifications it receives while waiting for responses.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The longest any single wait may take before the test calls it a hang (a loaded 2-core
/// machine linting a 50 MB buffer in a debug build stays far below it).
pub const HANG: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: mpsc::Receiver<Value>,
    next_id: i64,
    /// Notifications (and server requests) received and not yet taken.
    pub inbox: Vec<Value>,
    pub capabilities: Value,
}

impl Client {
    /// Start the server in `cwd` with `home` as HOME, and initialize it with `root` as the
    /// workspace folder.
    pub fn start(cwd: &Path, home: &Path, root: &Path, args: &[&str]) -> Client {
        Client::start_with(cwd, home, root, args, json!({}))
    }

    pub fn start_with(cwd: &Path, home: &Path, root: &Path, args: &[&str], capabilities: Value) -> Client {
        let mut child = super::support::command(cwd, home)
            .arg("lsp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start dsh-skills lsp");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut c = Client { child, stdin, rx, next_id: 1, inbox: Vec::new(), capabilities: Value::Null };
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{ "uri": uri(root), "name": "w" }],
                "capabilities": capabilities,
            }),
        );
        c.capabilities = init["result"]["capabilities"].clone();
        c.notify("initialized", json!({}));
        c
    }

    pub fn send(&mut self, m: &Value) {
        let body = serde_json::to_vec(m).unwrap();
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes()).unwrap();
        stdin.write_all(&body).unwrap();
        stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Send a request without waiting; returns its id.
    pub fn request_async(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// Send a request and wait for its response (the whole message).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_async(method, params);
        self.response(id, method)
    }

    pub fn response(&mut self, id: i64, what: &str) -> Value {
        if let Some(i) = self.inbox.iter().position(|m| m["id"] == id && m.get("method").is_none()) {
            return self.inbox.remove(i);
        }
        loop {
            let m = self.recv(what);
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.inbox.push(m);
        }
    }

    fn recv(&mut self, what: &str) -> Value {
        match self.rx.recv_timeout(HANG) {
            Ok(m) => {
                // Answer the server's own requests (client/registerCapability) at once.
                if m.get("method").is_some() && m.get("id").is_some() {
                    let reply = json!({ "jsonrpc": "2.0", "id": m["id"], "result": null });
                    self.send(&reply);
                }
                m
            }
            Err(_) => panic!("no message from dsh-skills lsp while waiting for {what} (a hang or a crash)"),
        }
    }

    /// The first `publishDiagnostics` for `uri` with exactly `version` (earlier ones dropped).
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        };
        if let Some(i) = self.inbox.iter().position(is_it) {
            let m = self.inbox.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.recv(&format!("diagnostics for {uri} version {version}"));
            if is_it(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.inbox.push(m);
        }
    }

    /// Wait for diagnostics on `uri` (any version) satisfying `pred`: discovery refreshes publish
    /// again, so a test that waits for whole-discovery findings takes the first that has them.
    pub fn diagnostics_until(&mut self, uri: &str, what: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let matches = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && pred(m["params"]["diagnostics"].as_array().unwrap())
        };
        if let Some(i) = self.inbox.iter().position(matches) {
            return self.inbox.remove(i)["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.recv(what);
            if matches(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.inbox.push(m);
        }
    }

    pub fn open(&mut self, path: &Path, text: &str) -> String {
        let u = uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": u, "languageId": "markdown", "version": 1, "text": text } }),
        );
        u
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn shutdown(mut self) -> std::process::ExitStatus {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        super::support::wait_bounded(&mut self.child, HANG, &"dsh-skills lsp after exit")
    }

    /// The child, for tests that end it another way.
    pub fn exit_without_shutdown(mut self) -> std::process::ExitStatus {
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        super::support::wait_bounded(&mut self.child, HANG, &"dsh-skills lsp after exit")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The `file:` URI of a path (tests use plain ASCII paths).
pub fn uri(p: &Path) -> String {
    let s = p.to_str().unwrap();
    if cfg!(windows) { format!("file:///{}", s.replace('\\', "/")) } else { format!("file://{s}") }
}

/// The `rule` codes of diagnostics.
pub fn codes(d: &[Value]) -> Vec<String> {
    d.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

/// Apply LSP text edits (UTF-16 positions; the tests' texts are ASCII) to `text`.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| -> usize {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + ch
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap().to_string()))
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, e, t) in edits {
        out.replace_range(s..e, &t);
    }
    out
}
