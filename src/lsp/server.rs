//! The message loop and its three workers.
//!
//! The main thread only reads messages, keeps the open documents' texts (applying incremental
//! edits) and hands work out, so it always answers at once. Three background threads do the
//! work: *diagnostics* lints the latest text of each changed document (jobs for one document
//! coalesce; a result whose document changed meanwhile is dropped, a newer job follows),
//! *discovery* re-runs the harness's whole discovery when files change on disk (then every open
//! document is linted again), and *requests* answers hover, completion, code actions, links
//! and lenses in order, against the text as it was when the request arrived.

use super::buffer::Discovery;
use super::text::{self, Encoding};
use super::{Context, ContextFactory, features, uri};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions, CompletionOptions,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentLinkOptions,
    HoverProviderCapability, InitializeParams, PositionEncodingKind, PublishDiagnosticsParams, SaveOptions,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use std::collections::{HashMap, HashSet};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};

/// One open document.
#[derive(Clone)]
pub struct Doc {
    pub uri: Uri,
    /// Its file path, for `file:` URIs.
    pub path: Option<String>,
    pub version: i32,
    pub text: Arc<String>,
    /// The version the editor opened: until it changes, the file's bytes on disk are what the
    /// buffer shows (invalid UTF-8 on disk is linted as the bytes it is).
    pub opened_version: i32,
}

/// What the threads share.
pub struct Shared {
    /// To the client, through a forwarding thread (so a send never blocks a worker); taken at
    /// exit so that the forwarder drains and ends.
    sender: Mutex<Option<crossbeam_channel::Sender<Message>>>,
    pub docs: Mutex<HashMap<String, Doc>>,
    pub context: RwLock<Arc<Context>>,
    pub discovery: RwLock<Option<Arc<Discovery>>>,
    /// Set once the first discovery is done (or failed): until then diagnostics and answers
    /// wait, so that the first ones already know about shadowing and the roots.
    ready: (Mutex<bool>, std::sync::Condvar),
    pub cancelled: Mutex<HashSet<RequestId>>,
    pub encoding: Encoding,
    /// The client can apply file renames in a workspace edit.
    pub renames: bool,
    /// The client registers file watchers on request.
    watch: bool,
    /// The configuration problems of the first context were shown.
    problems_shown: std::sync::atomic::AtomicBool,
    factory: ContextFactory,
    /// The workspace folder (the session cwd unless `--cwd` says otherwise).
    root: Option<String>,
}

impl Shared {
    /// A session with no client and no workers: what it would send is dropped, no discovery
    /// runs (the first one counts as done, with none found) and the factory is never called.
    /// For driving the message handling on one thread: [`notification`], then
    /// [`features::diagnostics`] on the documents it queued and [`features::request`] for
    /// requests (the fuzz target `fuzz/fuzz_targets/lsp.rs`).
    pub fn detached(context: Context, encoding: Encoding) -> Shared {
        Shared {
            sender: Mutex::new(None),
            docs: Mutex::new(HashMap::new()),
            context: RwLock::new(Arc::new(context)),
            discovery: RwLock::new(None),
            ready: (Mutex::new(true), std::sync::Condvar::new()),
            cancelled: Mutex::new(HashSet::new()),
            encoding,
            renames: false,
            watch: false,
            problems_shown: std::sync::atomic::AtomicBool::new(false),
            factory: Box::new(|_| anyhow::bail!("a detached session reads no configuration")),
            root: None,
        }
    }

    pub fn context(&self) -> Arc<Context> {
        self.context.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn discovery(&self) -> Option<Arc<Discovery>> {
        self.discovery.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn wait_ready(&self) {
        let (lock, cvar) = &self.ready;
        let mut ready = lock.lock().unwrap_or_else(|e| e.into_inner());
        while !*ready {
            ready = cvar.wait(ready).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn set_ready(&self) {
        let (lock, cvar) = &self.ready;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cvar.notify_all();
    }

    pub fn doc(&self, uri: &str) -> Option<Doc> {
        self.docs.lock().unwrap_or_else(|e| e.into_inner()).get(uri).cloned()
    }

    fn send(&self, m: impl Into<Message>) {
        if let Some(s) = self.sender.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            // The client has gone when this fails; the main loop ends on its own.
            let _ = s.send(m.into());
        }
    }

    fn shown_problems(&self) -> bool {
        self.problems_shown.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A message the user sees (a configuration problem).
    pub fn show(&self, text: &str) {
        let params = lsp_types::ShowMessageParams { typ: lsp_types::MessageType::WARNING, message: text.to_string() };
        self.send(Notification::new(notif::ShowMessage::METHOD.into(), params));
    }

    pub fn log(&self, text: &str) {
        let params = lsp_types::LogMessageParams { typ: lsp_types::MessageType::WARNING, message: text.to_string() };
        self.send(Notification::new(notif::LogMessage::METHOD.into(), params));
    }
}

/// Serve one client on `connection` until it exits. Returns the process's exit status: 0 after
/// `shutdown` and `exit`, 1 when the client exits (or goes) without `shutdown`.
pub fn serve(connection: Connection, factory: ContextFactory) -> anyhow::Result<u8> {
    let (id, params) = match connection.initialize_start() {
        Ok(started) => started,
        // The input ended (or broke its framing) before `initialize`.
        Err(e) if e.channel_is_disconnected() => return Ok(1),
        Err(e) => return Err(e.into()),
    };
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.clone()).unwrap_or_default();
    let encoding = if offered.contains(&PositionEncodingKind::UTF8) { Encoding::Utf8 } else { Encoding::Utf16 };
    let renames = params.capabilities.workspace.as_ref().and_then(|w| w.workspace_edit.as_ref()).is_some_and(|e| {
        e.document_changes == Some(true)
            && e.resource_operations.as_ref().is_some_and(|r| r.contains(&lsp_types::ResourceOperationKind::Rename))
    });
    let watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .is_some_and(|d| d.dynamic_registration == Some(true));
    #[allow(deprecated)] // root_uri: older clients send only it
    let root = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or(params.root_uri.clone())
        .and_then(|u| uri::to_path(&u));
    let caps = ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["/".into(), "(".into(), ":".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE_FIX_ALL]),
            ..CodeActionOptions::default()
        })),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "dsh-skills", "version": env!("CARGO_PKG_VERSION") },
    });
    // `initialize_finish`, except that an input that ends (or breaks its framing) or an `exit`
    // before `initialized` ends the session with status 1 rather than an error.
    let _ = connection.sender.send(Response::new_ok(id, result).into());
    match connection.receiver.recv() {
        Ok(Message::Notification(n)) if n.method == notif::Initialized::METHOD => {}
        Err(_) => return Ok(1),
        Ok(Message::Notification(n)) if n.method == notif::Exit::METHOD => return Ok(1),
        Ok(other) => anyhow::bail!("expected the initialized notification, got: {other:?}"),
    }

    let context = factory(root.as_deref())?;
    let (out_tx, out_rx) = crossbeam_channel::unbounded::<Message>();
    let forwarder = spawn("dsh-skills lsp output", {
        let to_client = connection.sender.clone();
        move || {
            for m in out_rx {
                if to_client.send(m).is_err() {
                    break;
                }
            }
        }
    });
    let shared = Arc::new(Shared {
        sender: Mutex::new(Some(out_tx)),
        watch,
        problems_shown: std::sync::atomic::AtomicBool::new(false),
        docs: Mutex::new(HashMap::new()),
        context: RwLock::new(Arc::new(context)),
        discovery: RwLock::new(None),
        ready: (Mutex::new(false), std::sync::Condvar::new()),
        cancelled: Mutex::new(HashSet::new()),
        encoding,
        renames,
        factory,
        root,
    });
    // `initialized` was read above: the watchers are asked for now (the message loop never
    // sees that notification).
    if shared.watch {
        register_watchers(&shared);
    }
    let (diag_tx, diag_rx) = mpsc::channel::<String>();
    let (disc_tx, disc_rx) = mpsc::channel::<()>();
    let (req_tx, req_rx) = mpsc::channel::<(Request, Option<Doc>)>();
    let workers = [
        spawn("dsh-skills lsp diagnostics", {
            let shared = shared.clone();
            move || diagnostics_worker(&shared, &diag_rx)
        }),
        spawn("dsh-skills lsp discovery", {
            let shared = shared.clone();
            let diag_tx = diag_tx.clone();
            move || discovery_worker(&shared, &disc_rx, &diag_tx)
        }),
        spawn("dsh-skills lsp requests", {
            let shared = shared.clone();
            move || request_worker(&shared, &req_rx)
        }),
    ];
    let _ = disc_tx.send(());
    let mut code = 1;
    let mut shut_down = false;
    for msg in &connection.receiver {
        match msg {
            Message::Notification(n) if n.method == notif::Exit::METHOD => {
                // 0 after `shutdown`, 1 without.
                code = if shut_down { 0 } else { 1 };
                break;
            }
            Message::Request(r) if shut_down => {
                let answer = Response::new_err(
                    r.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down (after `shutdown` only `exit` is accepted)".into(),
                );
                let _ = connection.sender.send(answer.into());
            }
            Message::Request(r) if r.method == req::Shutdown::METHOD => {
                // Answered at once; then only `exit` is expected. The workers' late results are
                // not sent (the forwarder is stopped first).
                shared.sender.lock().unwrap_or_else(|e| e.into_inner()).take();
                shut_down = true;
                let _ = connection.sender.send(Response::new_ok(r.id, ()).into());
            }
            Message::Request(r) => {
                let doc = text_document_uri(&r.params).and_then(|u| shared.doc(&u));
                let _ = req_tx.send((r, doc));
            }
            Message::Notification(_) if shut_down => {}
            Message::Notification(n) => notification(&shared, n, &diag_tx, &disc_tx),
            Message::Response(_) => {}
        }
    }
    // The workers end when their channels close; they are not joined (a lint of a huge buffer
    // may still be running, and the process is about to exit).
    drop((diag_tx, disc_tx, req_tx, workers));
    // What is queued for the client is written; later results are dropped.
    shared.sender.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(f) = forwarder {
        let _ = f.join();
    }
    drop(connection);
    Ok(code)
}

fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> Option<std::thread::JoinHandle<()>> {
    std::thread::Builder::new().name(name.into()).spawn(f).ok()
}

/// `params.textDocument.uri`, as text.
fn text_document_uri(params: &serde_json::Value) -> Option<String> {
    params.get("textDocument")?.get("uri")?.as_str().map(str::to_string)
}

/// Handle one notification as the message loop does: document texts are kept (incremental
/// edits applied), the documents to lint go to `diag_tx`, a discovery refresh to `disc_tx`.
pub fn notification(shared: &Shared, n: Notification, diag_tx: &mpsc::Sender<String>, disc_tx: &mpsc::Sender<()>) {
    match n.method.as_str() {
        notif::DidOpenTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else { return };
            let key = p.text_document.uri.as_str().to_string();
            let doc = Doc {
                path: uri::to_path(&p.text_document.uri),
                uri: p.text_document.uri,
                version: p.text_document.version,
                text: Arc::new(p.text_document.text),
                opened_version: p.text_document.version,
            };
            shared.docs.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), doc);
            let _ = diag_tx.send(key);
        }
        notif::DidChangeTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else { return };
            let key = p.text_document.uri.as_str().to_string();
            let mut docs = shared.docs.lock().unwrap_or_else(|e| e.into_inner());
            let Some(doc) = docs.get_mut(&key) else { return };
            // Copied only while a worker still reads the old text.
            let text = Arc::make_mut(&mut doc.text);
            for c in p.content_changes {
                text::apply_change(text, c.range, &c.text, shared.encoding);
            }
            doc.version = p.text_document.version;
            drop(docs);
            let _ = diag_tx.send(key);
        }
        notif::DidCloseTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else { return };
            let mut docs = shared.docs.lock().unwrap_or_else(|e| e.into_inner());
            docs.remove(p.text_document.uri.as_str());
            // Under the lock: a result being published for it is dropped, not sent after this.
            publish(shared, p.text_document.uri, Vec::new(), None);
        }
        notif::DidSaveTextDocument::METHOD | notif::DidChangeWatchedFiles::METHOD => {
            let _ = disc_tx.send(());
        }
        notif::Cancel::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params) {
                let id: RequestId = match p.id {
                    lsp_types::NumberOrString::Number(n) => n.into(),
                    lsp_types::NumberOrString::String(s) => s.into(),
                };
                shared.cancelled.lock().unwrap_or_else(|e| e.into_inner()).insert(id);
            }
        }
        _ => {}
    }
}

/// Ask the client to tell us when skill files or the lint configuration change on disk.
fn register_watchers(shared: &Shared) {
    let watchers: Vec<lsp_types::FileSystemWatcher> = ["**/*.md", "**/.dsh-skills-lint.yaml", "**/SKILL.md/**"]
        .iter()
        .map(|g| lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String(g.to_string()),
            kind: None,
        })
        .collect();
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions { watchers };
    let params = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "dsh-skills-watch".into(),
            method: notif::DidChangeWatchedFiles::METHOD.into(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    shared.send(Request::new(
        RequestId::from("dsh-skills-register".to_string()),
        req::RegisterCapability::METHOD.into(),
        params,
    ));
}

fn publish(shared: &Shared, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
    let params = PublishDiagnosticsParams { uri, diagnostics, version };
    shared.send(Notification::new(notif::PublishDiagnostics::METHOD.into(), params));
}

fn diagnostics_worker(shared: &Shared, rx: &mpsc::Receiver<String>) {
    while let Ok(first) = rx.recv() {
        shared.wait_ready();
        let mut pending = vec![first];
        while let Ok(more) = rx.try_recv() {
            if !pending.contains(&more) {
                pending.push(more);
            }
        }
        for key in pending {
            let Some(doc) = shared.doc(&key) else { continue };
            let computed =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| features::diagnostics(shared, &doc)));
            let diagnostics = match computed {
                Ok(d) => d,
                Err(_) => {
                    shared.log(&format!(
                        "dsh-skills: internal failure while linting {}; please report it",
                        doc.uri.as_str()
                    ));
                    continue;
                }
            };
            let docs = shared.docs.lock().unwrap_or_else(|e| e.into_inner());
            // Stale: the document changed (a newer job is queued) or closed meanwhile.
            if docs.get(&key).map(|d| d.version) != Some(doc.version) {
                continue;
            }
            publish(shared, doc.uri.clone(), diagnostics, Some(doc.version));
            drop(docs);
        }
    }
}

fn discovery_worker(shared: &Shared, rx: &mpsc::Receiver<()>, diag_tx: &mpsc::Sender<String>) {
    while rx.recv().is_ok() {
        while rx.try_recv().is_ok() {}
        let refreshed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // The lint configuration file may have changed too.
            let context = match (shared.factory)(shared.root.as_deref()) {
                Ok(c) => Arc::new(c),
                Err(e) => {
                    shared.log(&format!("dsh-skills: {e:#}; keeping the previous configuration"));
                    shared.context()
                }
            };
            let shown = shared.context().problems.clone();
            for p in context.problems.iter().filter(|p| !shown.contains(p) || !shared.shown_problems()) {
                shared.show(&format!("dsh-skills: {p}"));
            }
            shared.problems_shown.store(true, std::sync::atomic::Ordering::Relaxed);
            let d = Discovery::new(&context.settings, &context.env, &context.opts);
            *shared.context.write().unwrap_or_else(|e| e.into_inner()) = context;
            d
        }));
        match refreshed {
            Ok(d) => *shared.discovery.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(d)),
            Err(_) => shared.log("dsh-skills: internal failure in discovery; please report it"),
        }
        shared.set_ready();
        let open: Vec<String> = shared.docs.lock().unwrap_or_else(|e| e.into_inner()).keys().cloned().collect();
        for key in open {
            let _ = diag_tx.send(key);
        }
    }
}

fn request_worker(shared: &Shared, rx: &mpsc::Receiver<(Request, Option<Doc>)>) {
    while let Ok((r, doc)) = rx.recv() {
        shared.wait_ready();
        if shared.cancelled.lock().unwrap_or_else(|e| e.into_inner()).remove(&r.id) {
            shared.send(Response::new_err(r.id, ErrorCode::RequestCanceled as i32, "canceled".into()));
            continue;
        }
        let id = r.id.clone();
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| features::request(shared, r, doc)));
        let response = match answered {
            Ok(Ok(value)) => Response { id, response_result: Ok(value) },
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "internal failure in dsh-skills; please report it".into(),
            ),
        };
        shared.send(response);
    }
}
