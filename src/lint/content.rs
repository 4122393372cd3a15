//! Content rules other validators have: hard-coded home paths, invisible or bidirectional
//! Unicode, things that look like secrets, `<`/`>` in the description and non-string
//! `metadata` values. Each works on the file's text and reports file byte ranges.

use super::Finding;
use crate::engine::yaml::{Object, Value};
use aho_corasick::AhoCorasick;
use std::ops::Range;
use std::sync::OnceLock;

/// At most this many findings of one content rule per file (the first ones, in order).
const MAX_PER_FILE: usize = 5;

/// Every content finding in `text` (the whole file); `body` is the body's range in it.
pub fn check(path: &str, text: &str, body: Range<usize>) -> Vec<Finding> {
    let mut out = Vec::new();
    invisible(path, text, &mut out);
    home_paths(path, text, body.clone(), &mut out);
    secrets(path, text, &mut out);
    out
}

// ── Invisible and bidirectional Unicode ─────────────────────────────────────────────────────

/// What an invisible character is, when it is one lint reports.
fn invisible_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}'..='\u{2064}' => "INVISIBLE OPERATOR",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE (BOM)",
        '\u{E0000}'..='\u{E007F}' => "TAG CHARACTER",
        '\u{1B}' => "ESCAPE (a terminal control sequence)",
        _ => return None,
    })
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko …).
fn is_rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

/// Joiners and marks that real text uses: ZWJ inside emoji sequences, ZWNJ and ZWJ between
/// letters of scripts that need them (Persian, Indic), LRM/RLM in right-to-left text.
fn legitimate(c: char, prev: Option<char>, next: Option<char>, line: &str) -> bool {
    let non_ascii = |x: Option<char>| x.is_some_and(|x| !x.is_ascii());
    match c {
        '\u{200C}' | '\u{200D}' => non_ascii(prev) && non_ascii(next),
        '\u{200E}' | '\u{200F}' => line.chars().any(is_rtl),
        _ => false,
    }
}

fn invisible(path: &str, text: &str, out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    // Lead bytes of every reported character: U+2000-U+2FFF (E2), U+FEFF (EF), tags (F3), ESC.
    if memchr::memchr3(0xE2, 0xEF, 0xF3, bytes).is_none() && memchr::memchr(0x1B, bytes).is_none() {
        return;
    }
    let mut found = 0;
    let mut at = 0;
    // The next ESC, found once and then only after it is passed (no rescans of the rest).
    let mut esc = memchr::memchr(0x1B, bytes);
    while let Some(i) = next_candidate(bytes, at, &mut esc) {
        at = i + 1;
        let Some(c) = text[i..].chars().next() else { continue };
        let Some(name) = invisible_name(c) else { continue };
        if i == 0 && c == '\u{FEFF}' {
            continue; // a byte order mark: `utf8-bom`'s business
        }
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n);
        let prev = text[..i].chars().next_back();
        let next = text[i + c.len_utf8()..].chars().next();
        if legitimate(c, prev, next, &text[line_start..line_end]) {
            continue;
        }
        let why = if is_bidi_control(c) {
            "it reorders how the text is displayed, so what a reviewer reads differs from what the model reads"
        } else {
            "it is invisible in editors and reviews, but the model reads it"
        };
        out.push(
            Finding::new(
                &INVISIBLE_UNICODE,
                path,
                format!("invisible character U+{:04X} {name}", c as u32),
                format!("the harness passes it to the model unchanged; {why}"),
            )
            .at(i..i + c.len_utf8())
            .label(format!("U+{:04X}", c as u32))
            .help("delete it (a hex view shows it; `grep -nP '[\\x{200B}-\\x{200F}\\x{202A}-\\x{202E}\\x{2060}-\\x{2069}]'` finds it)"),
        );
        found += 1;
        if found == MAX_PER_FILE {
            return;
        }
    }
}

fn next_candidate(bytes: &[u8], from: usize, esc: &mut Option<usize>) -> Option<usize> {
    let rest = bytes.get(from..)?;
    if esc.is_some_and(|e| e < from) {
        *esc = memchr::memchr(0x1B, rest).map(|e| from + e);
    }
    let a = memchr::memchr3(0xE2, 0xEF, 0xF3, rest).map(|x| from + x);
    match (a, *esc) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

// ── Hard-coded home directories ────────────────────────────────────────────────────────────

/// User names that stand for "any user" in documentation, and the standard users of
/// containers, CI runners and cloud images (`/home/vscode`, `/home/runner`).
const PLACEHOLDER_USERS: [&str; 40] = [
    "user",
    "username",
    "users",
    "you",
    "yourname",
    "your-name",
    "your_name",
    "yourusername",
    "name",
    "me",
    "someone",
    "example",
    "john",
    "jane",
    "johndoe",
    "janedoe",
    "alice",
    "bob",
    "foo",
    "shared",
    "guest",
    "x",
    "admin",
    "public",
    "default",
    "all users",
    "vscode",
    "node",
    "runner",
    "ubuntu",
    "ec2-user",
    "agent",
    "coder",
    "codespace",
    "jovyan",
    "app",
    "dev",
    "developer",
    "pi",
    "root",
];

fn home_paths(path: &str, text: &str, body: Range<usize>, out: &mut Vec<Finding>) {
    let body_text = &text[body.clone()];
    // Every form has a `/` or a `\`; most bodies have neither `Users` nor `/home/`.
    if memchr::memchr2(b'/', b'\\', body_text.as_bytes()).is_none() {
        return;
    }
    if memchr::memmem::find(body_text.as_bytes(), b"Users").is_none()
        && memchr::memmem::find(body_text.as_bytes(), b"/home/").is_none()
    {
        return;
    }
    let mut seen: Vec<String> = Vec::new();
    let mut fences: Option<Vec<Range<usize>>> = None;
    for prefix in ["/Users/", "/home/", ":\\Users\\", ":/Users/"] {
        for i in memchr::memmem::find_iter(body_text.as_bytes(), prefix.as_bytes()) {
            // The path starts at a word boundary (`C:` for the Windows forms).
            let start = if prefix.starts_with(':') { i.checked_sub(1) } else { Some(i) };
            let Some(start) = start else { continue };
            if prefix.starts_with(':') && !body_text.as_bytes()[start].is_ascii_alphabetic() {
                continue;
            }
            let before = body_text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '-' | '_' | '~' | ':' | '\\')) {
                continue;
            }
            let user_start = i + prefix.len();
            let user: String = body_text[user_start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
                .collect();
            let after = body_text[user_start + user.len()..].chars().next();
            if user.is_empty()
                || !matches!(after, Some('/' | '\\') | None)
                    && !after.is_some_and(|c| c.is_whitespace() || "`'\")".contains(c))
                || !user.chars().any(char::is_alphanumeric)
                || PLACEHOLDER_USERS.contains(&user.to_lowercase().as_str())
                || user.to_lowercase().starts_with("your")
                || user.to_lowercase().contains("doe")
            {
                continue;
            }
            // "e.g. `C:\Users\kim\…` → `~/…`": an example of what to replace (the line's
            // last 200 bytes before the path).
            let mut from = start.saturating_sub(200);
            while !body_text.is_char_boundary(from) {
                from += 1;
            }
            let line_start = body_text[from..start].rfind('\n').map_or(from, |n| from + n + 1);
            let before_on_line = body_text[line_start..start].to_lowercase();
            if ["e.g.", "e.g,", "for example", "such as", "bad:", "replace"].iter().any(|m| before_on_line.contains(m))
            {
                continue;
            }
            let home = format!("{}{user}", &body_text[start..user_start]);
            if seen.contains(&home) {
                continue;
            }
            seen.push(home.clone());
            let last = seen.len() == MAX_PER_FILE;
            let at = body.start + start;
            // In a code block it is often example output: worth a look, not a warning.
            let fenced = fences.get_or_insert_with(|| crate::analysis::markdown::code_blocks(body_text));
            let in_code = fenced.iter().any(|r| r.contains(&start));
            out.push(
                Finding::new(
                    &HOME_PATH,
                    path,
                    format!("`{home}` is one person's home directory"),
                    "the harness passes the path to the model as written; on any other machine it does not exist",
                )
                .severity(if in_code { super::Severity::Info } else { super::Severity::Warning })
                .at(at..at + home.len())
                .label("hard-coded home directory")
                .help(
                    "reference the skill's own files relatively (`scripts/x.py`), or write `~` or `$HOME` for the \
                     user's home",
                ),
            );
            if last {
                return;
            }
        }
    }
}

// ── Secrets ────────────────────────────────────────────────────────────────────────────────

struct SecretKind {
    prefix: &'static str,
    what: &'static str,
    /// Characters of the token after the prefix, at least and (0 = no limit) at most.
    min: usize,
    max: usize,
}

const SECRETS: [SecretKind; 16] = [
    SecretKind { prefix: "AKIA", what: "an AWS access key id", min: 16, max: 16 },
    SecretKind { prefix: "ASIA", what: "an AWS temporary access key id", min: 16, max: 16 },
    SecretKind { prefix: "ghp_", what: "a GitHub personal access token", min: 36, max: 36 },
    SecretKind { prefix: "gho_", what: "a GitHub OAuth token", min: 36, max: 36 },
    SecretKind { prefix: "ghs_", what: "a GitHub app token", min: 36, max: 36 },
    SecretKind { prefix: "ghu_", what: "a GitHub user token", min: 36, max: 36 },
    SecretKind { prefix: "github_pat_", what: "a GitHub fine-grained token", min: 40, max: 0 },
    SecretKind { prefix: "sk-ant-", what: "an Anthropic API key", min: 32, max: 0 },
    SecretKind { prefix: "sk-proj-", what: "an OpenAI project key", min: 32, max: 0 },
    SecretKind { prefix: "sk-", what: "an OpenAI API key", min: 32, max: 0 },
    SecretKind { prefix: "xoxb-", what: "a Slack bot token", min: 20, max: 0 },
    SecretKind { prefix: "xoxp-", what: "a Slack user token", min: 20, max: 0 },
    SecretKind { prefix: "AIza", what: "a Google API key", min: 35, max: 35 },
    SecretKind { prefix: "glpat-", what: "a GitLab token", min: 20, max: 0 },
    SecretKind { prefix: "sk_live_", what: "a Stripe secret key", min: 24, max: 0 },
    SecretKind { prefix: "-----BEGIN ", what: "a private key", min: 0, max: 0 },
];

fn matcher() -> &'static AhoCorasick {
    static M: OnceLock<AhoCorasick> = OnceLock::new();
    M.get_or_init(|| {
        AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(SECRETS.iter().map(|s| s.prefix))
            .expect("fixed patterns")
    })
}

fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A token that is an example or a placeholder, not a live credential.
fn looks_fake(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    let distinct = {
        let mut seen = [false; 128];
        token.bytes().filter(|&b| b < 128 && !std::mem::replace(&mut seen[b as usize], true)).count()
    };
    ["example", "xxxx", "your", "placeholder", "dummy", "sample", "test", "fake", "redacted", "0000", "1234", "abcd"]
        .iter()
        .any(|w| lower.contains(w))
        || distinct < 10
        || !token.bytes().any(|b| b.is_ascii_digit())
        || !token.bytes().any(|b| b.is_ascii_alphabetic())
}

fn secrets(path: &str, text: &str, out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    let mut found = 0;
    for m in matcher().find_iter(bytes) {
        let kind = &SECRETS[m.pattern().as_usize()];
        let start = m.start();
        if start > 0 && token_char(bytes[start - 1]) {
            continue;
        }
        let (end, shown) = if kind.prefix == "-----BEGIN " {
            let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
            let line = text[start..line_end].trim_end();
            if !line.ends_with("PRIVATE KEY-----") {
                continue;
            }
            // A real key has base64 lines after the header; an example has `...` or nothing.
            let next: &str = text[line_end..].trim_start().lines().next().unwrap_or("");
            if next.len() < 40 || next.contains("...") || next.starts_with("-----") {
                continue;
            }
            (start + line.len(), line.to_string())
        } else {
            let len = bytes[m.end()..].iter().take_while(|&&b| token_char(b)).count();
            if len < kind.min || kind.max > 0 && len != kind.max {
                continue;
            }
            let token = &text[m.end()..m.end() + len];
            if looks_fake(token) {
                continue;
            }
            let shown: String = text[start..m.end() + 4.min(len)].to_string();
            (m.end() + len, format!("{shown}…"))
        };
        out.push(
            Finding::new(
                &EMBEDDED_SECRET,
                path,
                format!("this looks like {} (`{shown}`)", kind.what),
                "the harness sends the whole file to the model, and the skill folder is shared, packaged and \
                 committed with it",
            )
            .at(start..end)
            .label("possible secret")
            .help(
                "remove it and revoke it; tell the model to read the credential from an environment variable \
                 instead (`$API_KEY`)",
            ),
        );
        found += 1;
        if found == MAX_PER_FILE {
            return;
        }
    }
}

// ── Frontmatter values ────────────────────────────────────────────────────────────────────

/// `<`, `>` or an XML-like tag in the description; `value` is its range in `text`.
pub fn description_brackets(
    path: &str,
    text: &str,
    description: &str,
    value: impl FnOnce() -> Option<Range<usize>>,
) -> Option<Finding> {
    let pos = memchr::memchr2(b'<', b'>', description.as_bytes())?;
    let value = value();
    let tag = description[pos..].starts_with('<')
        && description[pos + 1..].chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '/')
        && description[pos..].contains('>');
    // Point at the bracket in the source when it is there.
    let span = value.map(|v| {
        let v = v.start.min(text.len())..v.end.min(text.len());
        match text.get(v.clone()).and_then(|s| s.find(['<', '>'])) {
            Some(i) => v.start + i..v.start + i + 1,
            None => v,
        }
    });
    Some(
        Finding::new(
            &DESCRIPTION_ANGLE_BRACKETS,
            path,
            if tag {
                "the description contains an XML-like tag".to_string()
            } else {
                format!("the description contains `{}`", &description[pos..pos + 1])
            },
            "the harness shows it as written; claude.ai uploads and Anthropic's validator reject `<` and `>` in a \
             description",
        )
        .at_opt(span)
        .help("write the words instead (\"less than\", \"at most\", \"→\"), or drop the tag"),
    )
}

/// `metadata` values that are not strings; `block` is the range of the metadata value in `text`.
pub fn metadata_values(path: &str, text: &str, metadata: &Object, block: Option<Range<usize>>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let mut more = 0;
    for (key, value) in metadata.iter() {
        if out.len() == MAX_PER_FILE {
            more += usize::from(!matches!(value, Value::String(_)));
            continue;
        }
        let shape = match value {
            Value::String(_) => continue,
            Value::Number(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::Null => "null",
            Value::Array(_) | Value::Set(_) => "a list",
            Value::Object(_) | Value::Map(_) => "a mapping",
            Value::Date(_) => "a date",
            Value::Buffer(_) | Value::Circular | Value::Symbol(_) | Value::Undefined => "not a string",
        };
        let span = block.as_ref().and_then(|b| key_value_in(text, b.clone(), key));
        let quoted = span.as_ref().and_then(|s| text.get(s.clone())).unwrap_or("");
        let help = if matches!(value, Value::Number(_) | Value::Bool(_)) && !quoted.is_empty() {
            format!("quote it: `{key}: \"{quoted}\"`")
        } else {
            "write the value as a string (JSON text, or a comma-separated list)".to_string()
        };
        out.push(
            Finding::new(
                &METADATA_NON_STRING,
                path,
                format!("`metadata.{key}` is {shape}, not a string"),
                "the harness keeps it as it is; the Agent Skills specification defines `metadata` as a map of strings \
                 to strings, and its validators coerce or reject other values",
            )
            .at_opt(span)
            .help(help),
        );
    }
    if more > 0
        && let Some(last) = out.last_mut()
    {
        last.message.push_str(&format!(" (and {more} more values that are not strings)"));
    }
    out
}

/// The value of `key:` on a line of `block` (a block mapping), or the key when it has none.
fn key_value_in(text: &str, block: Range<usize>, key: &str) -> Option<Range<usize>> {
    let block = block.start.min(text.len())..block.end.min(text.len());
    // The block may start at the first entry (its indentation before it).
    let line_start = text[..block.start].rfind('\n').map_or(0, |n| n + 1);
    let mut at = line_start;
    for line in text[line_start..block.end].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let k = t.strip_prefix(key).filter(|r| r.trim_start().starts_with(':'));
        let k = k.or_else(|| {
            let q = t.strip_prefix('"').or_else(|| t.strip_prefix('\''))?;
            q.strip_prefix(key)?.get(1..).filter(|r| r.trim_start().starts_with(':'))
        });
        let Some(rest) = k else { continue };
        let after_colon = rest.trim_start().strip_prefix(':')?;
        let value = after_colon.trim();
        let value = value.split(" #").next().unwrap_or(value).trim_end();
        let vstart = start + indent + (t.len() - rest.len()) + (rest.len() - after_colon.len());
        let vstart = vstart + (after_colon.len() - after_colon.trim_start().len());
        if value.is_empty() {
            return Some(start + indent..start + indent + key.len());
        }
        return Some(vstart..vstart + value.len());
    }
    None
}

crate::lint::rules::declare_rules! {
    HOME_PATH = rule(
        "home-path",
        Warning,
        Suspicious,
        "The body has a hard-coded user home directory (`/Users/…`, `/home/<user>/…`, `C:\\Users\\…`).",
        "The harness passes the body to the model as written. A path into one person's home \
         directory exists only on that machine: the model on anyone else's machine looks for a file \
         that is not there. Placeholder names (`/home/user`, `/Users/you`, `<name>`) are not reported.",
        "Reference the skill's own files relatively (`scripts/x.py`), or write `~` or `$HOME`.",
    );
    INVISIBLE_UNICODE = rule(
        "invisible-unicode",
        Warning,
        Suspicious,
        "The file has invisible or bidirectional-control characters.",
        "Zero-width spaces, word joiners, Unicode tag characters, bidirectional embeddings, \
         overrides and isolates and terminal escapes are invisible in editors and code review, but \
         the harness passes them to the model unchanged: they can hide instructions or make text \
         read differently from what a reviewer sees. Joiners inside emoji and non-Latin words and \
         direction marks in right-to-left text are not reported.",
        "Delete the characters.",
    );
    EMBEDDED_SECRET = rule(
        "embedded-secret",
        Warning,
        Suspicious,
        "Something in the file looks like an API key, a token or a private key.",
        "The harness sends the whole body to the model, and skill folders are committed, shared and \
         packaged. Tokens with a known shape (AWS, GitHub, OpenAI, Anthropic, Slack, Google, GitLab, \
         Stripe, PEM private keys) are reported; documented examples and placeholders (`EXAMPLE`, \
         `xxxx`, `your-key`, `...`, short or low-variety strings) are not.",
        "Remove and revoke the credential; have the model read it from an environment variable.",
    );
    DESCRIPTION_ANGLE_BRACKETS = compat(
        rule(
            "description-angle-brackets",
            Warning,
            Portability,
            "The description contains `<`, `>` or an XML-like tag.",
            "The harness shows the description as written, but Anthropic's `quick_validate.py` and \
             claude.ai uploads reject a description with angle brackets, and Claude Code escapes them \
             in synced skills.",
            "Write the words instead (\"less than\", \"at most\"), or drop the tag.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode],
    );
    METADATA_NON_STRING = compat(
        rule(
            "metadata-non-string",
            Warning,
            Portability,
            "A `metadata` value is not a string.",
            "The harness keeps `metadata` as it is, but the Agent Skills specification defines it as \
             a map of strings to strings: `version: 1.0` is a number there, and validators coerce \
             (`1.0` becomes `1`) or reject it.",
            "Quote the value: `version: \"1.0\"`.",
        ),
        &[Compat::Agentskills],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<(String, String)> {
        let body = text.find("\n---\n").map_or(0, |i| i + 5)..text.len();
        check("/s/SKILL.md", text, body)
            .into_iter()
            .map(|f| (f.rule.to_string(), text[f.span.unwrap()].to_string()))
            .collect()
    }

    #[test]
    fn invisible_characters() {
        let text =
            "---\nname: a\ndescription: Do\u{200B}it\n---\nHidden \u{202E}txt.exe\u{202C} and a tag \u{E0041}.\n";
        let found = rules(text);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found.iter().all(|(r, _)| r == "invisible-unicode"));
        assert_eq!(found[0].1, "\u{200B}");
        // Real text keeps its joiners and marks; a BOM at the start is another rule's.
        for ok in [
            "\u{FEFF}---\nx\n",
            "Family 👨\u{200D}👩\u{200D}👧 emoji.\n",
            "Persian می\u{200C}خواهم text.\n",
            "Hebrew שלום\u{200F} mark.\n",
            "Dashes — and “quotes” and 東京.\n",
        ] {
            assert!(rules(ok).is_empty(), "{ok:?}: {:?}", rules(ok));
        }
    }

    #[test]
    fn home_directories() {
        let text = "---\nname: a\n---\nRun `/Users/mkumar/tools/run.sh` or cd /home/alice/x or C:\\Users\\Kim\\bin.\n";
        let fenced = "---\nname: a\n---\n```\nWorktree ready at /Users/jesse/p\n```\n";
        let f = check("/s", fenced, 16..fenced.len());
        assert_eq!((f.len(), f[0].severity), (1, super::super::Severity::Info));
        assert_eq!(
            rules(text),
            [("home-path".to_string(), "/Users/mkumar".to_string()), ("home-path".into(), "C:\\Users\\Kim".into())]
        );
        for ok in [
            "---\n---\nSee /Users/<name>/ or /home/user/x or ~/x or $HOME/x or /Users/you/x.\n",
            "---\n---\nhttps://example.com/home/jdoe/page and src/Users/jdoe.ts\n",
            "---\n---\nThe /home/ directory.\n",
            "---\n---\nReplace home prefixes with `~` (e.g., `C:\\Users\\kim\\x` -> `~/x`); /Users/.../x; /home/vscode/.cargo\n",
        ] {
            assert!(rules(ok).is_empty(), "{ok:?}: {:?}", rules(ok));
        }
    }

    #[test]
    fn secret_shapes() {
        let aws = ["AKIA", "Z3QH7KD2L5MN8PXR"].concat();
        let gh = ["ghp_", "8fJ2kL9mQ4rT7vX1zB3nC6dF0gH5jK2lM9pR"].concat();
        let text = format!("---\nname: a\n---\nexport AWS_ACCESS_KEY_ID={aws}\ntoken: {gh}\n");
        let found = rules(&text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0], ("embedded-secret".to_string(), aws));
        for ok in [
            "---\n---\nAKIAIOSFODNN7EXAMPLE and sk-... and sk-your-key-here and ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
            "---\n---\nOPENAI_API_KEY=sk-proj-abc123 and task-runner and desk-organizer-with-many-letters-and-words\n",
            "---\n---\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n",
            "---\n---\nAIzaSyExampleKeyForDocsOnly and `risk-assessment-framework-2024-guide-v3-final`\n",
        ] {
            assert!(rules(ok).is_empty(), "{ok:?}: {:?}", rules(ok));
        }
    }

    #[test]
    fn brackets_and_metadata() {
        let text = "description: Convert <input> files > 2 MB\n";
        let f = description_brackets("/p", text, "Convert <input> files > 2 MB", || Some(13..text.len() - 1)).unwrap();
        assert!(f.message.contains("XML-like tag"));
        assert_eq!(&text[f.span.unwrap()], "<");
        assert!(description_brackets("/p", text, "Plain text", || None).is_none());
        let text = "metadata:\n  version: 1.0\n  owner: team\n  \"stable\": true\n";
        let mut m = Object::default();
        m.insert("version", Value::Number(1.0));
        m.insert("owner", Value::String("team".into()));
        m.insert("stable", Value::Bool(true));
        let found = metadata_values("/p", text, &m, Some(12..text.len()));
        assert_eq!(found.len(), 2);
        assert_eq!(&text[found[0].span.clone().unwrap()], "1.0");
        assert_eq!(found[0].help, ["quote it: `version: \"1.0\"`"]);
        assert_eq!(&text[found[1].span.clone().unwrap()], "true");
    }
}
