//! The shape of the crate, checked: every `crate::…` path in `src/` points to the same layer or
//! a lower one, and the modules inside the layers import each other without cycles.
//!
//! Layers, lowest first (see the crate documentation): the workspace crate `npm_yaml`
//! (`crates/npm-yaml`, reached only from `engine`), `engine` (and `error`, `textsafe`), `analysis`,
//! `lint`, `render`, `cli`, `commands`, `lsp`. `lib.rs` and `main.rs` stand above them all. Test code
//! (files named `tests*.rs`, and everything after a file's `#[cfg(test)]` line) may reach
//! across layers and is not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layer a source file belongs to, by its path relative to `src/`; `None` for the crate
/// roots, which may use everything.
fn layer_of_file(rel: &str) -> Option<usize> {
    let top = rel.split('/').next().unwrap_or(rel).trim_end_matches(".rs");
    layer_of_module(top)
}

/// The layer of a top-level module of the crate.
fn layer_of_module(top: &str) -> Option<usize> {
    Some(match top {
        "engine" | "error" | "textsafe" => 0,
        "analysis" => 1,
        "lint" => 2,
        "render" => 3,
        "cli" => 4,
        "commands" => 5,
        "lsp" => 6,
        _ => return None,
    })
}

/// The top-level modules that are folders: their children are the nodes of the cycle check.
const FOLDERS: &[&str] = &["engine", "analysis", "lint", "render", "commands", "lsp"];

/// The node a file belongs to: `engine::yaml` for `engine/yaml/compose.rs`, `cli` for `cli.rs`.
fn node_of_file(rel: &str) -> String {
    let parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    match parts.as_slice() {
        [top, "mod"] => (*top).to_string(),
        [top, child, ..] if FOLDERS.contains(top) => format!("{top}::{child}"),
        [top, ..] => (*top).to_string(),
        [] => String::new(),
    }
}

/// The node a `crate::…` path names: a child module when `nodes` has it (else the path names an
/// item of the folder's root module).
fn node_of_path(path: &[&str], nodes: &BTreeSet<String>) -> Option<String> {
    let top = *path.first()?;
    layer_of_module(top)?;
    match path.get(1) {
        Some(child) if FOLDERS.contains(&top) && nodes.contains(&format!("{top}::{child}")) => {
            Some(format!("{top}::{child}"))
        }
        _ => Some(top.to_string()),
    }
}

/// The `crate::a::b` paths a file's non-test code names (comments left out), each with the
/// first two segments; `crate::{a, b}` groups expanded.
/// `super::…` paths are read as the `crate::…` paths they name (`module` is the file's module
/// path, e.g. `["commands", "lint"]`).
fn crate_paths(source: &str, module: &[&str]) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let resolved;
        let code = if code.contains("super::") && !module.is_empty() {
            resolved = resolve_super(code, module);
            resolved.as_str()
        } else {
            code
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let preceded_by_ident = rest[..i].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
            let after = &rest[i + "crate::".len()..];
            rest = after;
            if preceded_by_ident {
                continue;
            }
            if let Some(group) = after.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let segs: Vec<String> = item.trim().split("::").take(2).map(|s| s.trim().to_string()).collect();
                    if segs.first().is_some_and(|s| !s.is_empty()) {
                        out.push((n + 1, segs));
                    }
                }
                continue;
            }
            let segs: Vec<String> = after
                .split("::")
                .take(2)
                .map(|s| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
                .take_while(|s| !s.is_empty())
                .collect();
            if !segs.is_empty() {
                out.push((n + 1, segs));
            }
        }
    }
    out
}

/// The module path of a file: `commands/lint.rs` is `commands::lint`, `engine/yaml/mod.rs` is
/// `engine::yaml`.
fn module_of_file(rel: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    if parts.last() == Some(&"mod") {
        parts.pop();
    }
    parts
}

/// `code` with each `super::` chain (outside a `use super::*` glob) replaced by `crate::` and the
/// module path it stands for.
fn resolve_super(code: &str, module: &[&str]) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(i) = rest.find("super::") {
        let preceded_by_ident = rest[..i].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        if preceded_by_ident {
            out.push_str("super::");
            rest = &rest[i + 7..];
            continue;
        }
        let mut ups = 0;
        let mut after = &rest[i..];
        while let Some(r) = after.strip_prefix("super::") {
            ups += 1;
            after = r;
        }
        let base = &module[..module.len().saturating_sub(ups)];
        out.push_str("crate::");
        for seg in base {
            out.push_str(seg);
            out.push_str("::");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Every violation in a set of files (`(path relative to src/, source)`): upward imports and
/// import cycles between nodes.
pub(crate) fn violations(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let nodes: BTreeSet<String> = files.iter().map(|(rel, _)| node_of_file(rel)).collect();
    for (rel, source) in files {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if name.starts_with("tests") {
            continue;
        }
        let Some(own) = layer_of_file(rel) else { continue };
        if own > 0 {
            // The YAML crate sits below the engine: the layers above see YAML as the engine does.
            for (n, line) in source.lines().enumerate() {
                if line.trim_start().starts_with("#[cfg(test)]") {
                    break;
                }
                let code = line.split("//").next().unwrap_or("");
                if code.contains("npm_yaml::") {
                    problems.push(format!("src/{rel}:{}: `npm_yaml` is used through `crate::engine::yaml`", n + 1));
                }
            }
        }
        let from = node_of_file(rel);
        for (line, segs) in crate_paths(source, &module_of_file(rel)) {
            let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
            let Some(target) = layer_of_module(segs[0]) else { continue };
            if target > own {
                problems.push(format!("src/{rel}:{line}: `crate::{}` is a higher layer", segs.join("::")));
            }
            if let Some(to) = node_of_path(&segs, &nodes)
                && to != from
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    // Cycles: a depth-first search that reports each back edge's cycle once.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut stack: Vec<&str> = Vec::new();
    fn visit<'a>(
        n: &'a str,
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
        problems: &mut Vec<String>,
    ) {
        state.insert(n, 1);
        stack.push(n);
        for m in edges.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let start = stack.iter().position(|x| *x == m).unwrap_or(0);
                    let mut cycle: Vec<&str> = stack[start..].to_vec();
                    cycle.push(m);
                    problems.push(format!("import cycle: {}", cycle.join(" → ")));
                }
                Some(_) => {}
                None => visit(m, edges, state, stack, problems),
            }
        }
        stack.pop();
        state.insert(n, 2);
    }
    for n in edges.keys() {
        if !state.contains_key(n.as_str()) {
            visit(n, &edges, &mut state, &mut stack, &mut problems);
        }
    }
    problems
}

/// Every `.rs` file under `dir`, as `(path relative to src/, source)`.
fn sources(src: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src/ is readable").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            sources(src, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).expect("a source file is UTF-8")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(p, s)| ((*p).to_string(), (*s).to_string())).collect()
    }

    #[test]
    fn the_crate_keeps_its_layers_and_has_no_cycles() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        sources(&src, &src, &mut all);
        assert!(all.len() > 50, "found the sources ({} files)", all.len());
        let problems = violations(&all);
        assert!(problems.is_empty(), "the layering is broken:\n{}", problems.join("\n"));
    }

    #[test]
    fn a_lower_module_importing_a_command_is_caught() {
        let bad = files(&[
            ("engine/discover.rs", "use crate::engine::nodefs;\nuse crate::commands::Io;\n"),
            ("commands/mod.rs", "use crate::engine::discover::Environment;\n"),
        ]);
        assert_eq!(
            violations(&bad),
            [
                "src/engine/discover.rs:2: `crate::commands::Io` is a higher layer",
                "import cycle: commands → engine::discover → commands"
            ]
        );
        let grouped = files(&[("lint/check.rs", "use crate::{engine::js, render::human};\n")]);
        assert_eq!(violations(&grouped), ["src/lint/check.rs:1: `crate::render::human` is a higher layer"]);
        // Comments, doc links and test code do not count.
        let fine =
            files(&[("engine/js.rs", "//! See [`crate::commands::Io`].\n#[cfg(test)]\nuse crate::commands::Io;\n")]);
        assert!(violations(&fine).is_empty());
    }

    #[test]
    fn the_yaml_crate_is_reached_through_the_engine() {
        let problems = violations(&files(&[
            ("engine/yaml/mod.rs", "pub use npm_yaml::js::Value;\n"),
            ("lint/check.rs", "fn f() { npm_yaml::api::parse(\"\"); }\n"),
        ]));
        assert_eq!(problems, ["src/lint/check.rs:1: `npm_yaml` is used through `crate::engine::yaml`"]);
    }

    #[test]
    fn a_cycle_between_siblings_is_caught() {
        let cyc = files(&[
            ("engine/nodefs.rs", "use crate::engine::textread::read_all;\n"),
            ("engine/textread.rs", "fn f() { crate::engine::nodefs::stat(); }\n"),
            ("engine/yaml/compose.rs", "use crate::engine::jsdate::x;\n"),
            ("engine/jsdate.rs", "use super::yaml::civil;\n"),
        ]);
        assert_eq!(
            violations(&cyc),
            [
                "import cycle: engine::jsdate → engine::yaml → engine::jsdate",
                "import cycle: engine::nodefs → engine::textread → engine::nodefs"
            ]
        );
        // `super::` from a command file names the folder's root module.
        let up = files(&[
            ("commands/lint.rs", "use super::io::Io;\nuse super::Io;\n"),
            ("commands/mod.rs", "pub mod lint;\n"),
        ]);
        assert!(violations(&up).is_empty(), "{:?}", violations(&up));
        let back = files(&[
            ("commands/lint.rs", "use super::run;\n"),
            ("commands/mod.rs", "fn f() { lint::run(); }\nuse crate::commands::lint;\n"),
        ]);
        assert_eq!(violations(&back), ["import cycle: commands → commands::lint → commands"]);
    }
}
