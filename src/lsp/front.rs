//! Where things are in a buffer's frontmatter (the buffer may not parse): the fences and each
//! top-level key's line and value, from the one key reader lint uses too
//! ([`crate::engine::yaml::top_entries`]). And what the harness does with each key
//! (spec 4.3 and 4.4), for hover and completion.

use crate::engine::skillfile;
use std::ops::Range;

/// One top-level `key: value` entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key as written, quotes removed.
    pub key: String,
    /// The key's bytes in the buffer.
    pub key_span: Range<usize>,
    /// From after the `:` (spaces skipped) to the end of the value (its continuation lines
    /// included, comments and blank lines after it not).
    pub value_span: Range<usize>,
    /// The entry's first line (without its line feed).
    pub line: Range<usize>,
}

/// The frontmatter of a buffer, positions in the buffer's bytes.
#[derive(Clone, Debug)]
pub struct Front {
    pub yaml: Range<usize>,
    pub body: Range<usize>,
    pub entries: Vec<Entry>,
}

impl Front {
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The entry whose lines hold `offset`.
    pub fn entry_at(&self, offset: usize) -> Option<&Entry> {
        self.entries.iter().find(|e| e.line.start <= offset && offset <= e.value_span.end.max(e.line.end))
    }
}

/// The frontmatter as the harness splits it (after a byte order mark), with its entries.
pub fn parse(text: &str) -> Option<Front> {
    let shift = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let fm = skillfile::split_frontmatter(&text[shift..]).ok()?;
    let yaml = fm.yaml.start + shift..fm.yaml.end + shift;
    let body = fm.body.start + shift..fm.body.end + shift;
    let entries = crate::engine::yaml::top_entries(&text[yaml.clone()])
        .into_iter()
        .map(|e| {
            let at = |r: Range<usize>| yaml.start + r.start..yaml.start + r.end;
            let value_end = e.value_span.end.max(e.value_line.end);
            Entry {
                key: e.key,
                key_span: at(e.key_span),
                value_span: at(e.value_line.start..value_end),
                line: at(e.line),
            }
        })
        .collect();
    Some(Front { yaml, body, entries })
}

/// What the harness does with a frontmatter key (spec 4.3, 4.4), in Markdown.
pub fn key_doc(key: &str) -> Option<&'static str> {
    Some(match key {
        "name" => {
            "**`name`** (required) — the skill's name: the model calls the `skill` tool with it and users type \
             `/name`. It must be a non-empty string matching `^[a-z0-9]+(?:-[a-z0-9]+)*$` (lowercase ASCII letters \
             and digits in hyphen-separated groups), or the harness skips the file with `invalid skill name`. When \
             two roots hold a skill of the same name, the higher-ranked root's copy wins and the others are ignored."
        }
        "description" => {
            "**`description`** (required) — what the model reads in the catalog to decide when to load the skill. \
             It must be a non-empty string. Whitespace runs become one space, the ends are trimmed, and the text is \
             cut to `catalogDescriptionMaxLength` UTF-16 units (default 500; the last three become `...`); `&`, `<` \
             and `>` are escaped."
        }
        "whenToUse" => {
            "**`whenToUse`** — kept (exact camelCase key) when it is a non-empty string, otherwise silently \
             dropped. It is not part of the catalog line the model sees. `when_to_use` and `when-to-use` are \
             ignored."
        }
        "metadata" => {
            "**`metadata`** — kept when it is a mapping (not null, not a list); otherwise silently dropped. The \
             harness does not show it to the model. Legacy invocation keys nested under it are fine."
        }
        "disable-model-invocation" => {
            "**`disable-model-invocation`** — `true` hides the skill from the model's catalog (users can still type \
             `/name`). Booleans, `1`/`0`, and `yes`/`no`/`on`/`off`/`true`/`false` in any case are accepted; any \
             other value makes the harness skip the file (`must be a boolean`)."
        }
        "user-invocable" => {
            "**`user-invocable`** — `false` removes the `/name` gesture for users (the model can still load the \
             skill). Booleans, `1`/`0`, and `yes`/`no`/`on`/`off`/`true`/`false` in any case are accepted; any \
             other value makes the harness skip the file (`must be a boolean`)."
        }
        "disableModelInvocation" | "modelInvocable" => {
            "**legacy key** — its mere presence makes the harness skip the file (`frontmatter field … is \
             unsupported; use \"disable-model-invocation\"`). `modelInvocable` has the inverted meaning."
        }
        "userInvocable" => {
            "**legacy key** — its mere presence makes the harness skip the file (`frontmatter field \
             \"userInvocable\" is unsupported; use \"user-invocable\"`)."
        }
        _ => return None,
    })
}

/// The keys whose values are the harness's booleans.
pub const BOOLEAN_KEYS: [&str; 2] = ["disable-model-invocation", "user-invocable"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_with_continuations_and_quotes() {
        let text = "\u{feff}---\nname: pdf\n\"description\": >\n  long\n  text\n# c\nmetadata:\n  a: 1\n---\nbody\n";
        let f = parse(text).unwrap();
        let keys: Vec<&str> = f.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["name", "description", "metadata"]);
        let d = f.entry("description").unwrap();
        assert_eq!(&text[d.value_span.clone()], ">\n  long\n  text");
        assert_eq!(&text[f.entry("name").unwrap().value_span.clone()], "pdf");
        assert_eq!(&text[f.body.clone()], "body\n");
        assert!(parse("no fences").is_none());
    }
}
