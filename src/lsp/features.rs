//! What the server answers: diagnostics (lint's findings), hover, completion, code actions,
//! document links and code lenses, each from the buffer's text as the request saw it.

use super::buffer::{self, Discovery};
use super::front;
use super::server::{Doc, Shared};
use super::text::LineIndex;
use super::uri;
use crate::analysis::refscan;
use crate::engine::catalog::CatalogEntry;
use crate::engine::platform;
use crate::engine::textread::{self, Keep, ReadOutcome, Route};
use crate::lint::check;
use crate::lint::run::Run;
use crate::lint::subject::Subject;
use crate::lint::{Action, Finding, Severity, fix, rules};
use lsp_server::{ErrorCode, Request};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeLens, Command, CompletionItem,
    CompletionItemKind, CompletionParams, CompletionResponse, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, DocumentLink, DocumentLinkParams, Hover, HoverContents, HoverParams, Location, MarkupContent,
    MarkupKind, NumberOrString, Position, Range, TextEdit, WorkspaceEdit,
};
use std::collections::HashMap;

/// Larger buffers are linted (on the worker) but hover, completion and lenses answer nothing:
/// no skill file is this big, and the editor must not wait.
const MAX_INTERACTIVE: usize = 8 << 20;

type Answer = Result<serde_json::Value, (ErrorCode, String)>;

/// The subject lint checks for this buffer, or `None` when the file is no skill file: the
/// harness opens it, or it is a `SKILL.md`, or a `.md` file with a skill's frontmatter.
pub fn subject(discovery: Option<&Discovery>, doc: &Doc) -> Option<Subject> {
    let path = doc.path.as_deref()?;
    if let Some(d) = discovery
        && d.is_discovered(path)
    {
        return d.subject(path);
    }
    let is_skill_md = path.ends_with(&format!("{}SKILL.md", platform::SEP));
    if !is_skill_md {
        // A flat skill being written: frontmatter with a name or description.
        let head = &doc.text.as_bytes()[..doc.text.len().min(4096)];
        let head = String::from_utf8_lossy(head);
        let head = head.strip_prefix('\u{feff}').unwrap_or(&head);
        let looks = (head.starts_with("---\n") || head.starts_with("---\r\n"))
            && (head.contains("\nname:") || head.contains("\ndescription:"));
        if !looks {
            return None;
        }
    }
    match discovery {
        Some(d) => d.subject(path),
        None => Discovery::subject_for_path(path),
    }
}

/// The bytes to lint: the buffer, or (while the buffer is as opened) the file on disk when it
/// is not UTF-8 and the editor shows it decoded, so lint reports what the harness reads.
fn bytes(doc: &Doc) -> Vec<u8> {
    if doc.version == doc.opened_version
        && let Some(path) = &doc.path
        && let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
        && meta.len() <= doc.text.len() as u64
        && let Ok(ReadOutcome::Bytes(disk)) = textread::read_skill_file(path, Route::Node, Keep::Bytes)
        && let disk = disk.into_bytes()
        && std::str::from_utf8(&disk).is_err()
        && String::from_utf8_lossy(&disk) == doc.text.as_str()
    {
        return disk;
    }
    doc.text.as_bytes().to_vec()
}

/// Lint the buffer as `dsh-skills lint` would lint the file with this text.
pub fn lint(shared: &Shared, doc: &Doc) -> Option<(Run, Subject)> {
    let discovery = shared.discovery();
    let s = subject(discovery.as_deref(), doc)?;
    let ctx = shared.context();
    let mut run = buffer::lint_buffer(discovery.as_deref(), s.clone(), bytes(doc), &ctx.settings, &ctx.env, &ctx.opts);
    apply_baseline(&ctx, &mut run);
    Some((run, s))
}

/// The configuration's `baseline`, applied as `dsh-skills lint` applies it: known findings are
/// not shown. Read at every lint (it is small, and `lint --write-baseline` rewrites it while the
/// editor is open); one that cannot be read is reported once, by the context.
fn apply_baseline(ctx: &super::Context, run: &mut Run) {
    let Some(file) = ctx.opts.config.baseline_path(&ctx.start()) else { return };
    let Some(known) = std::fs::read_to_string(&file).ok().and_then(|t| crate::lint::baseline::Baseline::parse(&t).ok())
    else {
        return;
    };
    let base_dir = crate::engine::platform::dirname(&file);
    known.apply(&mut run.report, &base_dir, &file, &|_| true, &|_| true);
}

/// At most this many diagnostics per document (errors first); editors slow to a crawl on more.
pub const MAX_DIAGNOSTICS: usize = 1000;

pub fn diagnostics(shared: &Shared, doc: &Doc) -> Vec<Diagnostic> {
    let Some((run, s)) = lint(shared, doc) else { return Vec::new() };
    let idx = LineIndex::new(&doc.text, shared.encoding);
    let findings = &run.report.findings;
    if findings.len() <= MAX_DIAGNOSTICS {
        return findings.iter().map(|f| diagnostic(f, &s.path, &idx, &run)).collect();
    }
    // The most severe first, each group in file order (the report's order).
    let mut chosen: Vec<&Finding> = Vec::with_capacity(MAX_DIAGNOSTICS);
    for level in [Severity::Error, Severity::Warning, Severity::Info] {
        chosen.extend(findings.iter().filter(|f| f.severity == level).take(MAX_DIAGNOSTICS - chosen.len()));
    }
    let mut out: Vec<Diagnostic> = chosen.iter().map(|f| diagnostic(f, &s.path, &idx, &run)).collect();
    out.push(Diagnostic {
        range: Range::default(),
        severity: Some(DiagnosticSeverity::INFORMATION),
        source: Some("dsh-skills".into()),
        message: format!(
            "{} more findings not shown here (the editor gets the first {MAX_DIAGNOSTICS}); `dsh-skills lint {}` lists \
             them all",
            findings.len() - MAX_DIAGNOSTICS,
            run.report.display_path(&s.path)
        ),
        ..Diagnostic::default()
    });
    out
}

/// A finding as the editor shows it: lint's message first, then what the harness does and the
/// help, the rule id as the code.
fn diagnostic(f: &Finding, path: &str, idx: &LineIndex, run: &Run) -> Diagnostic {
    let range = match &f.span {
        Some(span) if f.path == path => idx.range(span),
        _ => Range::default(),
    };
    let mut message =
        if f.path == path { f.message.clone() } else { format!("{}: {}", run.report.display_path(&f.path), f.message) };
    message.push_str("\nharness: ");
    message.push_str(&f.harness);
    for h in &f.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    let related: Vec<DiagnosticRelatedInformation> = f
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: Location {
                uri: uri::from_path(&r.path),
                range: match &r.span {
                    Some(span) if r.path == path => idx.range(span),
                    _ => Range::default(),
                },
            },
            message: r.message.clone(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(f.rule.to_string())),
        source: Some("dsh-skills".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// Answer one request.
pub fn request(shared: &Shared, r: Request, doc: Option<Doc>) -> Answer {
    fn params<P: serde::de::DeserializeOwned>(r: Request) -> Result<P, (ErrorCode, String)> {
        serde_json::from_value(r.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
    }
    let value = |v: serde_json::Result<serde_json::Value>| v.map_err(|e| (ErrorCode::InternalError, e.to_string()));
    let method = r.method.clone();
    let doc = doc.filter(|d| d.text.len() <= MAX_INTERACTIVE || method == req::CodeActionRequest::METHOD);
    match method.as_str() {
        req::HoverRequest::METHOD => {
            let p: HoverParams = params(r)?;
            let Some(doc) = doc else { return Ok(serde_json::Value::Null) };
            value(serde_json::to_value(hover(shared, &doc, p.text_document_position_params.position)))
        }
        req::Completion::METHOD => {
            let p: CompletionParams = params(r)?;
            let Some(doc) = doc else { return Ok(serde_json::Value::Null) };
            let items = completion(shared, &doc, p.text_document_position.position);
            value(serde_json::to_value(CompletionResponse::Array(items)))
        }
        req::CodeActionRequest::METHOD => {
            let p: CodeActionParams = params(r)?;
            let Some(doc) = doc else { return Ok(serde_json::Value::Null) };
            value(serde_json::to_value(code_actions(shared, &doc, &p)))
        }
        req::DocumentLinkRequest::METHOD => {
            let _: DocumentLinkParams = params(r)?;
            let Some(doc) = doc else { return Ok(serde_json::Value::Null) };
            value(serde_json::to_value(links(shared, &doc)))
        }
        req::CodeLensRequest::METHOD => {
            let Some(doc) = doc else { return Ok(serde_json::Value::Null) };
            value(serde_json::to_value(lenses(shared, &doc)))
        }
        _ => Err((ErrorCode::MethodNotFound, format!("dsh-skills lsp does not handle `{method}`"))),
    }
}

/// Where the skill in this buffer stands with the harness.
pub enum Standing {
    /// The harness skips the file (the buffer as it is).
    Skipped(String),
    /// Not in a root the harness scans for the session cwd.
    NotScanned,
    /// The buffer's name differs from the saved file's, so discovery has not seen it yet.
    Unsaved { saved: Option<String> },
    /// This copy wins; `shadows` are the copies it hides (path, source).
    Wins { shadows: Vec<(String, String)> },
    /// Another copy wins.
    ShadowedBy { path: String, source: String },
}

/// The buffer parsed as the harness parses it, and where it stands.
pub fn standing(
    shared: &Shared,
    doc: &Doc,
) -> Option<(Result<crate::engine::skillfile::ParsedSkill, String>, Standing)> {
    let path = doc.path.as_deref()?;
    let discovery = shared.discovery();
    subject(discovery.as_deref(), doc)?;
    let text = doc.text.strip_prefix('\u{feff}').unwrap_or(&doc.text);
    let parsed = crate::engine::skillfile::parse_skill_text_with(text, false).map_err(|r| r.warning(path));
    let skill = match &parsed {
        Ok(s) => s,
        Err(w) => {
            let w = w.clone();
            return Some((parsed, Standing::Skipped(w)));
        }
    };
    let Some(d) = discovery else { return Some((parsed, Standing::NotScanned)) };
    let snap = &d.snapshot;
    let Some((index, mine)) = snap.candidates.iter().enumerate().find(|(_, c)| c.path.as_deref() == Some(path)) else {
        let standing = if d.is_discovered(path) { Standing::Unsaved { saved: None } } else { Standing::NotScanned };
        return Some((parsed, standing));
    };
    if mine.skill.name != skill.name {
        let saved = Some(mine.skill.name.clone());
        return Some((parsed, Standing::Unsaved { saved }));
    }
    let standing = match snap.shadowed.iter().find(|s| s.loser == index) {
        Some(s) => {
            let w = &snap.candidates[s.winner];
            Standing::ShadowedBy {
                path: w.path.clone().unwrap_or_else(|| w.provider.to_string()),
                source: w.source.to_string(),
            }
        }
        None => Standing::Wins {
            shadows: snap
                .shadowed
                .iter()
                .filter(|s| s.winner == index)
                .map(|s| &snap.candidates[s.loser])
                .map(|c| (c.path.clone().unwrap_or_else(|| c.provider.to_string()), c.source.to_string()))
                .collect(),
        },
    };
    Some((parsed, standing))
}

fn catalog_entry(shared: &Shared, skill: &crate::engine::skillfile::ParsedSkill) -> CatalogEntry {
    let max = shared.context().settings.description_max_length;
    CatalogEntry::from_js(&skill.name, &skill.description, max)
}

fn hover(shared: &Shared, doc: &Doc, pos: Position) -> Option<Hover> {
    let idx = LineIndex::new(&doc.text, shared.encoding);
    let offset = idx.offset(pos);
    let fm = front::parse(&doc.text)?;
    let entry = fm.entry_at(offset)?;
    let mut md = match front::key_doc(&entry.key) {
        Some(d) => d.to_string(),
        None if check::FOREIGN_KEYS.contains(&entry.key.as_str()) => format!(
            "**`{}`** — the harness ignores this key; other agents read it (`dsh-skills lint --compat …` checks them).",
            entry.key
        ),
        None => format!("**`{}`** — the harness ignores this key silently.", entry.key),
    };
    let (parsed, standing) = standing(shared, doc)?;
    match (entry.key.as_str(), &parsed) {
        ("description", Ok(skill)) => {
            let e = catalog_entry(shared, skill);
            md.push_str("\n\n---\n");
            if !skill.invocation.model_invocable {
                md.push_str("**Hidden from the model** (`disable-model-invocation: true`): no catalog line.\n\n");
            }
            md.push_str("The catalog line the model sees:\n\n```text\n");
            md.push_str(&e.line());
            md.push_str("\n```\n");
            let max = shared.context().settings.description_max_length;
            if e.is_cut() {
                let normalized: Vec<u16> =
                    crate::engine::js::collapse_whitespace(&skill.description).encode_utf16().collect();
                let kept = max.saturating_sub(3).min(normalized.len());
                let lost = String::from_utf16_lossy(&normalized[kept..]);
                md.push_str(&format!(
                    "\nCut at {kept} of {} UTF-16 units (`catalogDescriptionMaxLength` {max}): **{} units lost**, the \
                     model never sees:\n\n```text\n{}\n```\n",
                    e.normalized_len,
                    e.normalized_len - kept,
                    lost
                ));
            } else {
                md.push_str(&format!("\n{} of {max} UTF-16 units: nothing is cut.\n", e.normalized_len));
            }
            let line = e.line();
            md.push_str(&format!(
                "\nThe catalog line: {} UTF-16 units, {} bytes, {} tokens ({}).\n",
                line.encode_utf16().count(),
                line.len(),
                crate::analysis::tokens::count(&line),
                crate::analysis::tokens::TOKENIZER
            ));
        }
        ("name", Ok(skill)) => {
            md.push_str("\n\n---\n");
            md.push_str(&standing_text(shared, &skill.name, &standing));
        }
        (_, Err(w)) if matches!(entry.key.as_str(), "name" | "description") => {
            md.push_str(&format!("\n\n---\nThe harness skips this file: `{}`", w));
        }
        _ => {}
    }
    let range = idx.range(&entry.key_span);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: md }),
        range: Some(range),
    })
}

fn standing_text(shared: &Shared, name: &str, standing: &Standing) -> String {
    let cwd = shared.context().settings.cwd.clone().unwrap_or_default();
    match standing {
        Standing::Skipped(w) => format!("The harness skips this file: `{w}`"),
        Standing::NotScanned => format!(
            "Not in a root the harness scans for `{cwd}`: the harness never loads this file (`dsh-skills list` shows the \
             roots)."
        ),
        Standing::Unsaved { saved: Some(saved) } => {
            format!("The saved file is named `{saved}`; save to see where `{name}` stands.")
        }
        Standing::Unsaved { saved: None } => {
            "The saved file is skipped by the harness; save to see where it stands.".into()
        }
        Standing::Wins { shadows } if shadows.is_empty() => {
            format!("This copy of `{name}` wins: no other root has one.")
        }
        Standing::Wins { shadows } => {
            let mut s = format!("This copy of `{name}` wins; it shadows:\n");
            for (p, source) in shadows {
                s.push_str(&format!("\n- `{p}` ({source})"));
            }
            s
        }
        Standing::ShadowedBy { path, source } => format!(
            "**Shadowed**: the copy of `{name}` in `{path}` ({source}) wins; the harness ignores this one (`skill \
             \"{name}\" … ignored because a higher-priority skill already exists`)."
        ),
    }
}

fn completion(shared: &Shared, doc: &Doc, pos: Position) -> Vec<CompletionItem> {
    let idx = LineIndex::new(&doc.text, shared.encoding);
    let offset = idx.offset(pos);
    let text = doc.text.as_str();
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let Some(fm) = front::parse(text) else { return Vec::new() };
    let ctx = shared.context();
    let in_yaml = fm.yaml.start <= offset && offset <= fm.yaml.end;
    if in_yaml {
        // A suppression comment: directives, then rule ids.
        if let Some(rest) = before.trim_start().strip_prefix('#').map(str::trim_start)
            && let Some(after) = rest.strip_prefix(crate::lint::config::MARKER)
        {
            let words: Vec<&str> = after.split([' ', ',']).filter(|w| !w.is_empty()).collect();
            let typing = !after.ends_with([' ', ',']);
            let done = words.len() - usize::from(typing && !words.is_empty());
            if done == 0 {
                return ["disable", "disable-next-line", "disable-line"]
                    .iter()
                    .map(|d| item(d, CompletionItemKind::KEYWORD, "dsh-skills-lint directive"))
                    .collect();
            }
            return rules::all().iter().map(|r| item(r.id, CompletionItemKind::VALUE, r.summary)).collect();
        }
        if let Some((key, _)) = before.split_once(':') {
            if !before.starts_with([' ', '\t']) && front::BOOLEAN_KEYS.contains(&key.trim()) {
                return ["true", "false"]
                    .iter()
                    .map(|v| item(v, CompletionItemKind::VALUE, "the harness's boolean"))
                    .collect();
            }
            return Vec::new();
        }
        if before.starts_with([' ', '\t', '#', '-']) {
            return Vec::new();
        }
        let present: Vec<&str> = fm.entries.iter().map(|e| e.key.as_str()).collect();
        let mut keys: Vec<(&str, &str)> = check::HARNESS_KEYS.iter().map(|k| (*k, "read by the harness")).collect();
        for c in &ctx.opts.compat {
            let (list, who): (&[&str], &str) = match c {
                crate::lint::Compat::Agentskills => (&check::AGENTSKILLS_KEYS, "Agent Skills specification"),
                crate::lint::Compat::ClaudeCode => (check::CLAUDE_CODE_KEYS, "Claude Code"),
                crate::lint::Compat::Codex => (&["name", "description", "metadata"], "Codex"),
            };
            for k in list {
                if !keys.iter().any(|(have, _)| have == k) {
                    keys.push((k, who));
                }
            }
        }
        return keys
            .into_iter()
            .filter(|(k, _)| !present.contains(k) || before.trim() == *k)
            .map(|(k, who)| {
                let mut it = item(k, CompletionItemKind::PROPERTY, who);
                it.insert_text = Some(format!("{k}: "));
                it.documentation = front::key_doc(k).map(|d| {
                    lsp_types::Documentation::MarkupContent(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: d.into(),
                    })
                });
                it
            })
            .collect();
    }
    // In the body, inside a link's target: the skill folder's files.
    if offset >= fm.body.start
        && let Some(open) = before.rfind("](")
        && !before[open + 2..].contains([')', ' '])
    {
        let typed = &before[open + 2..];
        let Some(base) = subject(shared.discovery().as_deref(), doc).map(|s| s.base_dir().to_string()) else {
            return Vec::new();
        };
        let start = idx.position(offset - typed.len());
        let range = Range { start, end: pos };
        return bundle_files(&base, doc.path.as_deref().unwrap_or(""))
            .into_iter()
            .filter(|rel| rel.starts_with(typed.trim_start_matches("./")))
            .map(|rel| {
                let mut it = item(&rel, CompletionItemKind::FILE, "in the skill folder");
                it.text_edit = Some(lsp_types::CompletionTextEdit::Edit(TextEdit { range, new_text: rel.clone() }));
                it
            })
            .collect();
    }
    Vec::new()
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem { label: label.into(), kind: Some(kind), detail: Some(detail.into()), ..CompletionItem::default() }
}

/// Files under `base` (relative, `/`-separated), at most 1,000, hidden folders skipped.
fn bundle_files(base: &str, this: &str) -> Vec<String> {
    let mut out = Vec::new();
    let walk = walkdir::WalkDir::new(base).max_depth(6).into_iter().filter_entry(|e| {
        e.depth() == 0 || !e.file_name().to_str().is_some_and(|n| n.starts_with('.') || n == "node_modules")
    });
    for e in walk.flatten() {
        if out.len() >= 1000 {
            break;
        }
        if !e.file_type().is_file() || e.path().to_str() == Some(this) {
            continue;
        }
        if let Ok(rel) = e.path().strip_prefix(base)
            && let Some(rel) = rel.to_str()
        {
            out.push(rel.replace('\\', "/"));
        }
    }
    out.sort();
    out
}

// `WorkspaceEdit::changes` is lsp-types' map keyed by `Uri` (its hash is the URI text).
#[allow(clippy::mutable_key_type)]
fn code_actions(shared: &Shared, doc: &Doc, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let Some((run, s)) = lint(shared, doc) else { return Vec::new() };
    let Some(src) = run.report.files.get(&s.path) else { return Vec::new() };
    if src.text != *doc.text {
        return Vec::new();
    }
    let idx = LineIndex::new(&doc.text, shared.encoding);
    let requested = (idx.offset(p.range.start), idx.offset(p.range.end));
    let only = p.context.only.as_ref();
    let wants = |k: &CodeActionKind| only.is_none_or(|o| o.iter().any(|w| k.as_str().starts_with(w.as_str())));
    let mut out = Vec::new();
    let touches = |f: &Finding| match &f.span {
        Some(span) => span.start <= requested.1 && requested.0 <= span.end,
        None => true,
    };
    // The fixes' own edits, exactly as `lint --fix` applies them.
    let edit_for = |plan: &fix::FilePlan| -> WorkspaceEdit {
        let edits = plan
            .fixes
            .iter()
            .flat_map(|f| &f.edits)
            .map(|e| TextEdit { range: idx.range(&e.range), new_text: e.replacement.clone() })
            .collect();
        let mut changes = HashMap::new();
        changes.insert(doc.uri.clone(), edits);
        WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }
    };
    let planner = fix::Planner::new(&s.path, src, s.node_mode);
    if wants(&CodeActionKind::QUICKFIX) {
        for f in run.report.findings.iter().filter(|f| f.path == s.path && touches(f)) {
            let diag = diagnostic(f, &s.path, &idx, &run);
            if f.fix.is_some()
                && let Some(plan) = planner.plan(&[f])
                && plan.refused.is_none()
            {
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Fix: {}", plan.fixes[0].description),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diag.clone()]),
                    edit: Some(edit_for(&plan)),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }));
            }
            if let Some(a) = advice_action(shared, doc, f, &idx) {
                let mut a = a;
                a.diagnostics = Some(vec![diag]);
                out.push(CodeActionOrCommand::CodeAction(a));
            }
        }
    }
    if wants(&CodeActionKind::SOURCE_FIX_ALL) || wants(&CodeActionKind::QUICKFIX) {
        let mine: Vec<&Finding> = run.report.findings.iter().filter(|f| f.path == s.path).collect();
        if mine.iter().filter(|f| f.fix.is_some()).count() > 1
            && let Some(plan) = planner.plan(&mine)
            && plan.refused.is_none()
        {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Fix all: apply {} safe fixes (as `dsh-skills lint --fix`)", plan.fixes.len()),
                kind: Some(CodeActionKind::SOURCE_FIX_ALL),
                edit: Some(edit_for(&plan)),
                ..CodeAction::default()
            }));
        }
    }
    out
}

/// The finding's mechanical advice as an edit: set the name, or rename the file or folder.
#[allow(clippy::mutable_key_type)] // as in `code_actions`
fn advice_action(shared: &Shared, doc: &Doc, f: &Finding, idx: &LineIndex) -> Option<CodeAction> {
    match f.action.as_deref()? {
        Action::SetName { name } => {
            let fm = front::parse(&doc.text)?;
            let entry = fm.entry("name")?;
            let mut changes = HashMap::new();
            let edit = TextEdit { range: idx.range(&entry.value_span), new_text: name.clone() };
            changes.insert(doc.uri.clone(), vec![edit]);
            Some(CodeAction {
                title: format!("Set `name: {name}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
                ..CodeAction::default()
            })
        }
        Action::Move { moves } if shared.renames && !moves.is_empty() => {
            let ops = moves
                .iter()
                .map(|[from, to]| {
                    lsp_types::DocumentChangeOperation::Op(lsp_types::ResourceOp::Rename(lsp_types::RenameFile {
                        old_uri: uri::from_path(from),
                        new_uri: uri::from_path(to),
                        options: Some(lsp_types::RenameFileOptions {
                            overwrite: Some(false),
                            ignore_if_exists: Some(false),
                        }),
                        annotation_id: None,
                    }))
                })
                .collect();
            let [from, to] = &moves[0];
            Some(CodeAction {
                title: format!("Rename `{}` to `{}`", basename(from), basename(to)),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit {
                    document_changes: Some(lsp_types::DocumentChanges::Operations(ops)),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            })
        }
        _ => None,
    }
}

fn basename(p: &str) -> &str {
    p.trim_end_matches(platform::SEP).rsplit(platform::SEP).next().unwrap_or(p)
}

/// References in the body that resolve inside the skill's folder, as links to the files.
fn links(shared: &Shared, doc: &Doc) -> Vec<DocumentLink> {
    let Some(s) = subject(shared.discovery().as_deref(), doc) else { return Vec::new() };
    let Some(fm) = front::parse(&doc.text) else { return Vec::new() };
    let body = &doc.text[fm.body.clone()];
    let idx = LineIndex::new(&doc.text, shared.encoding);
    let base = s.base_dir();
    let mut out = Vec::new();
    for r in refscan::scan(body).refs {
        let target = r.target.split(['#', '?']).next().unwrap_or("");
        let target = crate::analysis::refscan::percent_decode(target);
        if target.is_empty() || target.starts_with('/') || target.starts_with('~') || target.contains("://") {
            continue;
        }
        let resolved = platform::resolve(base, &target);
        if !resolved.starts_with(base) || std::fs::metadata(&resolved).is_err() {
            // Broken or escaping: lint's diagnostic says so.
            continue;
        }
        out.push(DocumentLink {
            range: idx.range(&(fm.body.start + r.start..fm.body.start + r.end)),
            target: Some(uri::from_path(&resolved)),
            tooltip: Some(format!("{} ({})", target, r.evidence.as_str())),
            data: None,
        });
    }
    out
}

/// One lens on the first line: where the skill stands in the catalog.
fn lenses(shared: &Shared, doc: &Doc) -> Vec<CodeLens> {
    let Some((parsed, standing)) = standing(shared, doc) else { return Vec::new() };
    let title = match (&parsed, &standing) {
        (_, Standing::Skipped(w)) => format!("skipped by the harness: {}", w.lines().next().unwrap_or(w)),
        (_, Standing::NotScanned) => "not in a root the harness scans here: never loaded".to_string(),
        (_, Standing::Unsaved { .. }) => "unsaved: save to see it in the catalog".to_string(),
        (_, Standing::ShadowedBy { path, source }) => format!("shadowed by {path} ({source})"),
        (Ok(skill), Standing::Wins { shadows }) => {
            let mut t = if skill.invocation.model_invocable {
                let line = catalog_entry(shared, skill).line();
                let shown: String = line.chars().take(100).collect();
                let more = if shown.len() < line.len() { "…" } else { "" };
                format!("in the catalog as {shown}{more}")
            } else {
                "hidden from the model (disable-model-invocation)".to_string()
            };
            if !shadows.is_empty() {
                t.push_str(&format!(" · shadows {}", shadows.len()));
            }
            t
        }
        (Err(w), _) => w.clone(),
    };
    let range = Range { start: Position::new(0, 0), end: Position::new(0, 0) };
    vec![CodeLens { range, command: Some(Command { title, command: String::new(), arguments: None }), data: None }]
}
