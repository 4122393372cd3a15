//! The loader's id-patch semantics (`applyEntryPatches`, `vendor/include/src/index.ts:58-128`),
//! applied as the harness applies them: every layer's patches as ONE flattened list over the
//! empty profile root (`composeEntries`, `packages/boot/app-boot/src/profile.ts`).
//!
//! * `{insert: [rows]}` appends rows; `{id, insert}` appends into a group row (a row with a
//!   truthy `group`), creating its `config` list when it is not one. Inserted rows are indexed
//!   at once, so a later patch can target them.
//! * `{id, …}` sets every other key on the row with that id (the last row indexed under an id
//!   wins); a given `config` replaces the row's config wholesale. `name`, when given, must match
//!   the row's `name`, else the patch is skipped with a warning.
//! * A patch whose id matches nothing is skipped with `patch: entry "<id>" not found`.
//! * The id index is built once, from the rows present before the first patch and from each
//!   insert; rows that arrive in a replaced group `config` are never indexed, and a patch on a
//!   row whose group `config` was replaced edits a detached copy (no effect, no warning).

use super::dialect::{Entry, Loc, Node, Value};
use std::collections::HashMap;

/// A harness log line from patch application, with the patch that caused it.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchWarning {
    pub message: String,
    pub at: Loc,
}

/// A patch list the harness would not apply at all.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchError {
    pub message: String,
    pub at: Loc,
}

/// Where an indexed row lives: a path of indices (top-level row, then positions in each
/// group's `config` list), or nowhere (a row of a replaced group config).
#[derive(Clone, Debug)]
enum Target {
    Path(Vec<usize>),
    Detached,
}

/// The composed row list.
#[derive(Debug, Default)]
pub struct Composition {
    pub rows: Vec<Node>,
    index: HashMap<String, Target>,
    pub warnings: Vec<PatchWarning>,
}

/// The key a JavaScript `Map` would file an id under (ids are compared with `===`).
fn id_key(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("s:{s}"),
        other => format!("{}:{}", other.type_name(), other.js_string()),
    }
}

/// `%C` as the dump renders it: `JSON.stringify(arg)`.
fn code(v: &Value) -> String {
    match v {
        Value::Number(n) => super::dialect::js_number(*n),
        other => other.to_json().to_string(),
    }
}

impl Composition {
    /// Compose `patches` over `base` rows.
    pub fn apply(base: Vec<Node>, patches: &[Node]) -> Result<Composition, PatchError> {
        let mut c = Composition { rows: base, ..Default::default() };
        let n = c.rows.len();
        c.build_index(&[], 0..n)?;
        for patch in patches {
            c.apply_one(patch)?;
        }
        Ok(c)
    }

    fn rows_at(&mut self, path: &[usize]) -> Option<&mut Vec<Node>> {
        let mut rows = &mut self.rows;
        for &i in path {
            let row = rows.get_mut(i)?;
            let Value::Map(entries) = &mut row.value else { return None };
            let config = entries.iter_mut().find(|e| e.key == "config")?;
            let Value::Seq(children) = &mut config.value.value else { return None };
            rows = children;
        }
        Some(rows)
    }

    fn row_at(&mut self, path: &[usize]) -> Option<&mut Node> {
        let (last, parent) = path.split_last()?;
        self.rows_at(parent)?.get_mut(*last)
    }

    /// `buildMap` over `range` of the row list at `parent`.
    fn build_index(&mut self, parent: &[usize], range: std::ops::Range<usize>) -> Result<(), PatchError> {
        for i in range {
            let mut path = parent.to_vec();
            path.push(i);
            let Some(row) = self.row_at(&path) else { continue };
            let at = row.at.clone();
            let (id, nested) = match &row.value {
                Value::Map(_) => {
                    let id = row.get_value("id").filter(|v| v.truthy()).map(id_key);
                    let group = row.get_value("group").is_some_and(Value::truthy);
                    let children = match row.get_value("config") {
                        Some(Value::Seq(children)) if group => Some(children.len()),
                        _ => None,
                    };
                    (id, children)
                }
                // `entry.id` on null throws in the harness.
                Value::Null => {
                    return Err(PatchError { message: "a row is null, not a mapping".into(), at });
                }
                _ => (None, None),
            };
            if let Some(id) = id {
                self.index.insert(id, Target::Path(path.clone()));
            }
            if let Some(n) = nested {
                self.build_index(&path, 0..n)?;
            }
        }
        Ok(())
    }

    /// Rows indexed under `path`'s `config` now belong to a detached list.
    fn detach_children(&mut self, path: &[usize]) {
        for target in self.index.values_mut() {
            if let Target::Path(p) = target
                && p.len() > path.len()
                && p.starts_with(path)
            {
                *target = Target::Detached;
            }
        }
    }

    fn warn(&mut self, message: String, at: &Loc) {
        self.warnings.push(PatchWarning { message, at: at.clone() });
    }

    fn apply_one(&mut self, patch: &Node) -> Result<(), PatchError> {
        let Value::Map(entries) = &patch.value else {
            return Err(PatchError {
                message: "a patch entry must be a mapping (a loader patch entry)".into(),
                at: patch.at.clone(),
            });
        };
        let id = patch.get_value("id");
        let insert = patch.get("insert");
        let name = patch.get_value("name");
        if let Some(insert) = insert.filter(|e| e.value.value.truthy()) {
            let Value::Seq(rows) = &insert.value.value else {
                return Err(PatchError {
                    message: format!("`insert` must be a list of rows, not a {}", insert.value.value.type_name()),
                    at: insert.key_at.clone(),
                });
            };
            match id.filter(|v| v.truthy()) {
                Some(id) => {
                    let target = self.index.get(&id_key(id)).cloned();
                    let Some(target) = target else {
                        self.warn(format!("patch insert: entry {} not found", code(id)), &patch.at);
                        return Ok(());
                    };
                    let Target::Path(path) = target else {
                        // Rows pushed into a detached group: indexed, never mounted.
                        self.index_detached(rows);
                        return Ok(());
                    };
                    let row = self.row_at(&path).expect("indexed row exists");
                    if !row.get_value("group").is_some_and(Value::truthy) {
                        self.warn(format!("patch insert: entry {} is not a group", code(id)), &patch.at);
                        return Ok(());
                    }
                    if !matches!(row.get_value("config"), Some(Value::Seq(_))) {
                        let at = insert.key_at.clone();
                        row.set(Entry {
                            key: "config".into(),
                            key_at: at.clone(),
                            value: Node { value: Value::Seq(Vec::new()), at },
                        });
                        self.detach_children(&path);
                    }
                    let list = self.rows_at(&path).expect("group config is a list");
                    let start = list.len();
                    list.extend(rows.iter().cloned());
                    self.build_index(&path, start..start + rows.len())?;
                }
                None => {
                    let start = self.rows.len();
                    self.rows.extend(rows.iter().cloned());
                    self.build_index(&[], start..start + rows.len())?;
                }
            }
            return Ok(());
        }
        let Some(id) = id.filter(|v| v.truthy()) else {
            self.warn("patch: id is required for non-insert patches".into(), &patch.at);
            return Ok(());
        };
        let Some(target) = self.index.get(&id_key(id)).cloned() else {
            self.warn(format!("patch: entry {} not found", code(id)), &patch.at);
            return Ok(());
        };
        let Target::Path(path) = target else { return Ok(()) };
        let row = self.row_at(&path).expect("indexed row exists");
        if let Some(name) = name.filter(|v| v.truthy()) {
            let current = row.get_value("name").cloned().unwrap_or(Value::Null);
            if *name != current {
                let message = format!(
                    "patch: name mismatch for {} (expected {}, got {}), skipping",
                    code(id),
                    code(&current),
                    code(name)
                );
                self.warn(message, &patch.at);
                return Ok(());
            }
        }
        let mut replaced_config = false;
        for e in entries.iter().filter(|e| !matches!(e.key.as_str(), "id" | "insert" | "name")) {
            replaced_config |= e.key == "config";
            row.set(e.clone());
        }
        if replaced_config {
            self.detach_children(&path);
        }
        Ok(())
    }

    fn index_detached(&mut self, rows: &[Node]) {
        for row in rows {
            if let Some(id) = row.get_value("id").filter(|v| v.truthy()) {
                self.index.insert(id_key(id), Target::Detached);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::dialect::{self, Source};
    use std::rc::Rc;

    fn yaml(text: &str) -> Vec<Node> {
        match dialect::load(text, Rc::new(Source::File("p.yml".into()))).unwrap().unwrap().value {
            Value::Seq(items) => items,
            other => panic!("{other:?}"),
        }
    }

    fn compose(base: &str, patches: &str) -> Composition {
        Composition::apply(yaml(base), &yaml(patches)).unwrap()
    }

    fn row<'a>(c: &'a Composition, id: &str) -> &'a Node {
        c.rows.iter().find(|r| r.get_value("id") == Some(&Value::Str(id.into()))).unwrap()
    }

    #[test]
    fn config_is_replaced_wholesale_and_other_keys_are_set() {
        let c =
            compose("- id: fs\n  name: a\n  config: {x: 1, y: 2}\n", "- id: fs\n  config: {y: 3}\n  disabled: true\n");
        let fs = row(&c, "fs");
        assert_eq!(fs.get_value("config").unwrap().to_json(), serde_json::json!({"y": 3.0}));
        assert_eq!(fs.get_value("disabled"), Some(&Value::Bool(true)));
        assert_eq!(fs.get("disabled").unwrap().key_at.line, 3);
        assert!(c.warnings.is_empty());
    }

    #[test]
    fn insert_appends_and_later_patches_see_inserted_rows() {
        let c = compose(
            "- id: a\n  name: x\n",
            "- insert:\n    - id: b\n      name: y\n- id: b\n  disabled: true\n- id: zz\n  disabled: true\n",
        );
        assert_eq!(c.rows.len(), 2);
        assert_eq!(row(&c, "b").get_value("disabled"), Some(&Value::Bool(true)));
        assert_eq!(c.warnings.len(), 1);
        assert_eq!(c.warnings[0].message, "patch: entry \"zz\" not found");
        assert_eq!(c.warnings[0].at.line, 6);
    }

    #[test]
    fn group_inserts_and_not_a_group() {
        let c = compose(
            "- id: g\n  name: cordis:group\n  group: true\n  config:\n    - id: c1\n      name: x\n- id: plain\n  name: y\n",
            "- id: g\n  insert:\n    - id: c2\n      name: z\n- id: c2\n  disabled: true\n- id: plain\n  insert: [{id: q, name: q}]\n- id: nope\n  insert: []\n",
        );
        let Value::Seq(children) = row(&c, "g").get_value("config").unwrap() else { panic!() };
        assert_eq!(children.len(), 2);
        assert_eq!(children[1].get_value("disabled"), Some(&Value::Bool(true)));
        let messages: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            ["patch insert: entry \"plain\" is not a group", "patch insert: entry \"nope\" not found"]
        );
    }

    #[test]
    fn rows_of_a_replaced_group_config_are_detached() {
        let c = compose(
            "- id: g\n  name: cordis:group\n  group: true\n  config:\n    - id: c1\n      name: x\n",
            "- id: g\n  config:\n    - id: c9\n      name: y\n- id: c1\n  disabled: true\n- id: c9\n  disabled: true\n",
        );
        let Value::Seq(children) = row(&c, "g").get_value("config").unwrap() else { panic!() };
        // c1 is patched silently (a detached object); c9 was never indexed.
        assert_eq!(children.len(), 1);
        assert_eq!(children[0].get_value("disabled"), None);
        let messages: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(messages, ["patch: entry \"c9\" not found"]);
    }

    #[test]
    fn name_mismatch_and_missing_id() {
        let c = compose(
            "- id: skill-badge\n  name: '@deepseek-ai/dsh-skill-badge'\n  disabled: true\n",
            "- id: skill-badge\n  name: other\n  disabled: false\n- disabled: false\n",
        );
        assert_eq!(row(&c, "skill-badge").get_value("disabled"), Some(&Value::Bool(true)));
        let messages: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "patch: name mismatch for \"skill-badge\" (expected \"@deepseek-ai/dsh-skill-badge\", got \"other\"), skipping",
                "patch: id is required for non-insert patches"
            ]
        );
    }

    #[test]
    fn the_last_row_indexed_under_an_id_is_the_target() {
        let c = compose("- id: a\n  name: first\n", "- insert: [{id: a, name: second}]\n- id: a\n  disabled: true\n");
        assert_eq!(c.rows[0].get_value("disabled"), None);
        assert_eq!(c.rows[1].get_value("disabled"), Some(&Value::Bool(true)));
    }

    #[test]
    fn an_insert_that_is_not_a_list_is_refused() {
        let e = Composition::apply(vec![], &yaml("- insert: {id: a}\n")).unwrap_err();
        assert!(e.message.contains("must be a list"), "{}", e.message);
        // A falsy insert is no insert: the patch is an id patch.
        let c = compose("- id: a\n  name: x\n", "- id: a\n  insert: null\n  disabled: true\n");
        assert_eq!(row(&c, "a").get_value("disabled"), Some(&Value::Bool(true)));
    }
}
